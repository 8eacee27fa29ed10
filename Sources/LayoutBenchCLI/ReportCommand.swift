import ArgumentParser
import Foundation
import Reporting

/// `layoutbench report`: renderings of bench and fuzz reports, and merging of fuzz shards.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Render, compare and merge bench and fuzz reports.",
        discussion: """
            Reports are the JSON documents `bench` and `fuzz` write (docs/report-schema.md); the \
            kind is read from their `schema` field. See docs/reports.md.
            """,
        subcommands: [ReportHTMLCommand.self, ReportMarkdownCommand.self, ReportCompareCommand.self, ReportMergeCommand.self])
}

/// `--min-change`, shared by the subcommands that compare with a baseline.
struct RegressionRuleOptions: ParsableArguments {
    @Option(help: "The smallest change of a median, in percent of the baseline's, that can count as a regression.")
    var minChange: Double = 5

    func validate() throws {
        guard minChange.isFinite, minChange >= 0 else { throw ValidationError("--min-change must be a percentage of 0 or more") }
    }

    /// The rule the comparison judges timings by.
    var rule: RegressionRule { RegressionRule(minimumRelativeChange: minChange / 100) }
}

/// `layoutbench report html RUN.json [--baseline OTHER.json] [-o FILE]`
struct ReportHTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Write a self-contained HTML page (inline SVG plots, no script, no network).",
        discussion: """
            Bench reports get a log-log plot of solve time against size per family with each \
            backend's fitted growth exponent, percentile tables and status counts; fuzz reports get \
            finding counts and every stored finding linked to its repro with the command that \
            replays it. With --baseline, a comparison flags regressions beyond the noise threshold \
            (docs/reports.md). Exits 0 when the page is written, 2 when a report cannot be read.
            """)

    @Argument(help: "The report to render (report.json of a bench or fuzz run).")
    var report: String

    @Option(help: "A report of the same kind to compare with.")
    var baseline: String?

    @Option(name: [.short, .customLong("output")], help: "The HTML file (default: the report's path with .html; - for standard output).")
    var output: String?

    @OptionGroup var rule: RegressionRuleOptions

    @OptionGroup var history: HistoryFile

    func run() throws {
        let (document, baselineDocument) = try ReportFiles.loadPair(report, baseline: baseline)
        let target = output ?? ReportFiles.replacingExtension(of: report, with: "html")
        var options = RenderOptions(
            reproPrefix: ReportFiles.reproPrefix(report: report, output: target),
            rule: rule.rule)
        options.findingHistory = try history.notes(forReportAt: report)
        try ReportFiles.write(HTMLReport.render(document, baseline: baselineDocument, options: options), to: target)
        if target != "-" { print("wrote \(target)") }
    }
}

/// `layoutbench report markdown RUN.json [--baseline OTHER.json] [-o FILE]`
struct ReportMarkdownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markdown",
        abstract: "Print a Markdown summary for pull-request comments and nightly summaries.",
        discussion: """
            The same content as the HTML page without the plots, shortened: solve times fold into \
            a <details> block, a comparison lists only changed rows. The output is deterministic \
            (sorted rows, fixed number formats). Exits 0 when written, 2 when a report cannot be read.
            """)

    @Argument(help: "The report to render.")
    var report: String

    @Option(help: "A report of the same kind to compare with.")
    var baseline: String?

    @Option(name: [.short, .customLong("output")], help: "The Markdown file (default: standard output).")
    var output: String = "-"

    @OptionGroup var rule: RegressionRuleOptions

    @OptionGroup var history: HistoryFile

    func run() throws {
        let (document, baselineDocument) = try ReportFiles.loadPair(report, baseline: baseline)
        var options = RenderOptions(
            reproPrefix: ReportFiles.reproPrefix(report: report, output: output),
            rule: rule.rule)
        options.findingHistory = try history.notes(forReportAt: report)
        try ReportFiles.write(MarkdownReport.render(document, baseline: baselineDocument, options: options), to: output)
    }
}

/// `layoutbench report compare A.json B.json [--fail-on-regression]`
struct ReportCompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two reports of the same kind in an aligned terminal table (A is the baseline).",
        discussion: """
            Bench reports: rows are matched on family, size and backend; a median that moved by more \
            than max(p90 − p50 of A, of B, --min-change % of A's median) is a regression or an \
            improvement, and a worse or changed status is a regression. Fuzz reports: a finding \
            signature only B hit is a regression, one only A hit an improvement. Exits 0, or 1 \
            with --fail-on-regression when there is a regression; 2 when a report cannot be read \
            or the two are of different kinds.
            """)

    @Argument(help: "The baseline report.")
    var baseline: String

    @Argument(help: "The report to judge against it.")
    var current: String

    @Flag(help: "Exit with status 1 when there is a regression.")
    var failOnRegression = false

    @Flag(help: "List only the rows that changed.")
    var changedOnly = false

    @OptionGroup var rule: RegressionRuleOptions

    @Option(help: "Colour regressions and improvements: auto (when standard output is a terminal and NO_COLOR is unset), always or never.")
    var color: ColorChoice = .auto

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func run() throws {
        let a = try ReportFiles.load(baseline)
        let b = try ReportFiles.load(current)
        let comparison: ReportComparison
        do {
            comparison = try ReportComparison(baseline: a, current: b, rule: rule.rule)
        } catch {
            printError("\(baseline), \(current): \(error)")
            throw ExitStatus.invalidInput
        }
        let useColor: Bool
        switch color {
        case .always: useColor = true
        case .never: useColor = false
        case .auto: useColor = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        }
        print(TerminalComparison.render(comparison, color: useColor, changedOnly: changedOnly), terminator: "")
        // Status 1 is the project's "something is wrong" code; here it is asked for explicitly.
        if failOnRegression && comparison.regressionCount > 0 { throw ExitCode(1) }
    }
}

/// Reading and writing the files of the `report` subcommands.
enum ReportFiles {
    /// Reads a report, or prints `PATH: reason` and exits with status 2.
    static func load(_ path: String) throws -> ReportDocument {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("\(path): cannot read the file")
            throw ExitStatus.invalidInput
        }
        do {
            return try ReportDocument.decode(data)
        } catch {
            printError("\(path): \(error)")
            throw ExitStatus.invalidInput
        }
    }

    /// A report and its optional baseline, which must be of the same kind.
    static func loadPair(_ path: String, baseline: String?) throws -> (ReportDocument, ReportDocument?) {
        let document = try load(path)
        guard let baseline else { return (document, nil) }
        let other = try load(baseline)
        guard other.kindName == document.kindName else {
            printError("\(baseline): a \(other.kindName) report cannot be the baseline of a \(document.kindName) report")
            throw ExitStatus.invalidInput
        }
        return (document, other)
    }

    /// Writes text to a file (atomically) or, for `-`, to standard output.
    static func write(_ text: String, to path: String) throws {
        if path == "-" {
            print(text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            printError("\(path): cannot write the file: \(error.localizedDescription)")
            throw ExitStatus.internalFailure
        }
    }

    /// `run/report.json` → `run/report.html`; a path without `.json` gets the extension added.
    static func replacingExtension(of path: String, with ext: String) -> String {
        path.hasSuffix(".json") ? String(path.dropLast(".json".count)) + "." + ext : path + "." + ext
    }

    /// The path from the rendered file's folder to the report's folder, for repro links.
    static func reproPrefix(report: String, output: String) -> String {
        let base = output == "-" ? FileManager.default.currentDirectoryPath : URL(fileURLWithPath: output).deletingLastPathComponent().path
        return RenderOptions.reproPrefix(
            reportDirectory: URL(fileURLWithPath: report).deletingLastPathComponent().standardizedFileURL.path,
            outputDirectory: URL(fileURLWithPath: base).standardizedFileURL.path)
    }
}
