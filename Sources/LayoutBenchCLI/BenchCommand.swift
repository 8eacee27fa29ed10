import ArgumentParser
import BackendContract
import ExactSimplex
import Foundation
import Fuzzing
import OutsideSolvers
import Reporting
import Runner

/// The version string written into reports.
let toolVersion = "layoutbench 0.1"

/// `layoutbench bench`
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark every backend on the standard suite (the generator's families × sizes), on real apps' layouts or on update sequences.",
        discussion: """
            Each case is generated from a fixed seed; every backend that supports it solves it \
            once or more to warm up, then repeatedly; solve times go into an HDR histogram and the \
            table shows p50, p90, p99 and max, with the iterations (pivots) of one solve and where \
            a solve's time went (medians: reading the text and lowering it, the required \
            constraints, the priority levels, ambiguity, the conflict). Rows run \
            on --jobs worker threads. The report is written to Reports/<timestamp>/report.json (or \
            --out) in the schema of docs/report-schema.md. --quick takes about a minute on two \
            cores, the standard suite under five. Outside solvers (docs/outside-solvers.md) are \
            timed by their own work inside their adapter; the rest of each solve is the \
            `overhead` column.

            --suite apps benchmarks the layouts of real apps instead: every layout root of the \
            .xib and .storyboard files under --corpus (default ../shared/corpora/xib), imported as \
            `layoutbench import ib` does (roots the importer skips are counted and left out). \
            There is one row per screen (family app:APP/FILE#ROOT: a layout root of a file), one \
            per app (family app:NAME, the first folder under the corpus; size = its layouts, views \
            and constraints summed) and one over all of them (apps-total); each solve of each \
            layout is one sample of its row, so an app's p50 is its median layout's solve time. A \
            row whose layouts end in different statuses says `mixed`, with the counts in its note. \
            Every row also says what the exact backend (the reference) finds: whether the screen is \
            ambiguous (which views), and whether its frames, rounded as Xcode rounds them, agree \
            with the frames Xcode stored (not compared where Xcode marks a view misplaced or \
            ambiguous, or the file is stale); app and total rows count them.

            --suite sequences benchmarks update sequences (spec §7): for each of the generator's \
            sequence families (as `bench-incremental --sequences` builds them, on the form \
            layout) at 10 and 100 views (and 1,000 for the in-process backends), every backend \
            answers the sequence through its sequence API — exact from scratch per pass, float \
            incrementally, outside solvers through their update steps — and each update pass is \
            one sample (p50 = the median pass; outside solvers' own time per pass, overhead \
            apart). --steps sets the steps per sequence (200; 30 with --quick); a slow row \
            answers only the first passes that fit its time limit, and says so. See docs/runner.md.
            """)

    @OptionGroup var selection: BackendSelection

    @Option(help: "The suite: standard, quick (sizes 10 to 1,000, fewer repetitions), apps (real apps' layouts from --corpus) or sequences (update sequences, per pass).")
    var suite: String = "standard"

    @Flag(help: "The quick suite (--suite quick; with --suite apps, fewer repetitions and shorter budgets).")
    var quick = false

    @Option(help: "The folder of Interface Builder files for --suite apps, one sub-folder per app (default: ../shared/corpora/xib, beside the repository).")
    var corpus: String?

    @Option(help: "Comma-separated families instead of the suite's (sequence families for --suite sequences).")
    var families: String?

    @Option(help: "With --suite sequences: update steps per sequence (default 200; 30 with --quick).")
    var steps: Int?

    @Option(help: "Comma-separated sizes instead of the suite's.")
    var sizes: PositiveIntegers?

    @Option(help: "Timed repetitions per row (after the warm-up).")
    var repetitions: Int?

    @OptionGroup var workers: WorkerOptions

    @Option(help: "The folder for report.json (default: Reports/<timestamp>).")
    var out: String?

    @Option(help: "A previous bench report.json to compare with.")
    var baseline: String?

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if !["standard", "quick", "apps", "sequences"].contains(suite) { throw ValidationError("--suite takes standard, quick, apps or sequences") }
        if suite == "sequences", repetitions != nil { throw ValidationError("--repetitions is not for --suite sequences: each pass is one sample (see --steps)") }
        if suite != "sequences", steps != nil { throw ValidationError("--steps is for --suite sequences") }
        if let steps, !(1...100_000).contains(steps) { throw ValidationError("--steps takes 1 to 100,000") }
        if corpus != nil && suite != "apps" { throw ValidationError("--corpus is for --suite apps") }
        if let repetitions, repetitions < 1 { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() throws {
        let backends = try selection.chosen()
        if self.suite == "sequences" { return try runSequences(backends) }
        var suite = quick || self.suite == "quick" ? BenchSuite.quick : BenchSuite.standard
        var apps: AppSuite?
        if self.suite == "apps" {
            let folder = corpus ?? SharedCorpus.path("xib")
            do {
                let exact = ExactSimplexBackend()
                apps = try AppSuite.load(corpus: folder, quick: quick, reference: AppSuite.Reference(name: exact.name) { system in
                    (try? exact.solve(system, budget: Budget(wallTime: .seconds(60))))?.solution
                })
            } catch {
                printError("\(error)")
                throw ExitStatus.invalidInput
            }
            suite = apps?.suite ?? suite
            for problem in apps?.unreadableFiles ?? [] { printError(problem) }
        }
        if let families {
            suite.families = try FamilySelection.parse(families).map(\.name)
            suite.extraSizes = [:]
        }
        if let parsed = sizes?.values {
            suite.sizes = parsed
            suite.extraSizes = [:]
        }
        if let repetitions { suite.repetitions = repetitions }
        let baselineReport = try baseline.map(Self.loadBench)
        stopOnInterrupt()
        let display = workers.progressDisplay()
        let report = try BenchRunner(suite: suite, backends: backends, jobs: workers.jobs).run(
            machine: MachineFacts.current(toolVersion: toolVersion),
            shouldStop: { interruptRequested.load(ordering: .relaxed) },
            progress: display.update)
        display.finish()
        try finish(report, baseline: baselineReport) {
            if let apps {
                print("apps: \(apps.layoutsPerApp.map { "\($0.app) \($0.layouts)" }.joined(separator: ", ")) layouts; "
                      + "\(apps.files) files, \(apps.skippedRoots.count) roots skipped by the importer, \(apps.unreadableFiles.count) files unreadable")
            }
        }
    }

    /// `--suite sequences`.
    func runSequences(_ backends: [any LayoutBackend]) throws {
        var suite = quick ? SequenceSuite.quick : SequenceSuite.standard
        suite.largeSizeBackends = Set(backends.filter { !($0 is OutsideSolverBackend) }.map(\.name))
        if let families { suite.families = families.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        if let parsed = sizes?.values {
            suite.sizes = parsed
            suite.largeSizes = []
        }
        if let steps { suite.steps = steps }
        let baselineReport = try baseline.map(Self.loadBench)
        stopOnInterrupt()
        let display = workers.progressDisplay()
        let report: BenchReport
        do {
            report = try suite.run(
                backends: backends, jobs: workers.jobs, machine: MachineFacts.current(toolVersion: toolVersion),
                shouldStop: { interruptRequested.load(ordering: .relaxed) },
                progress: display.update)
        } catch let error as CampaignError {
            display.finish()
            printError("\(error)")
            throw ExitStatus.invalidInput
        }
        display.finish()
        try finish(report, baseline: baselineReport) {
            print("sequences: \(suite.steps) steps each on \(suite.base) (or the family's own base), seed \(suite.seed); "
                  + "p50/p90/p99/max per update pass, budget \(suite.budget.wallTime.map { "\($0)" } ?? "none") per pass")
        }
    }

    /// Writes the report, prints its table (then `summary`), the comparison with the
    /// baseline, and records a finished run in the history.
    func finish(_ report: BenchReport, baseline baselineReport: BenchReport?, summary: () -> Void) throws {
        let folder = URL(fileURLWithPath: out ?? "Reports/" + Self.timestamp())
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try FindingStore.atomicWrite(try encoder.encode(report), to: folder.appendingPathComponent("report.json"))
        } catch {
            printError("cannot write the report to \(folder.path): \(error)")
            throw ExitStatus.internalFailure
        }
        print(BenchTable.render(report, color: isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil))
        summary()
        if let baselineReport {
            print("")
            print(TerminalComparison.render(.bench(BenchComparison(baseline: baselineReport, current: report)),
                                            color: isatty(STDOUT_FILENO) != 0))
        }
        print("report: \(folder.appendingPathComponent("report.json").path)\(interruptRequested.load(ordering: .relaxed) ? " (interrupted: partial)" : "")")
        // A run cut short is no point of a series: only finished runs are recorded.
        if !interruptRequested.load(ordering: .relaxed) {
            try history.recordBench(report, at: folder.appendingPathComponent("report.json"), compare: baselineReport == nil)
        }
    }

    /// Reads a bench report (``ReportFiles/load(_:)``), or prints why not and exits with status 2.
    static func loadBench(_ path: String) throws -> BenchReport {
        guard case .bench(let report) = try ReportFiles.load(path) else {
            printError("\(path) is not a bench report")
            throw ExitStatus.invalidInput
        }
        return report
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        return formatter.string(from: Date()).replacingOccurrences(of: ":", with: "-")
    }
}
