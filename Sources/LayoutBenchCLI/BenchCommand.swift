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

    @Option(help: "Comma-separated backends, or all.")
    var backend: String = "all"

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
    var sizes: String?

    @Option(help: "Timed repetitions per row (after the warm-up).")
    var repetitions: Int?

    @Option(help: "Worker threads (default: the number of cores; 1 gives the quietest timings).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "The folder for report.json (default: Reports/<timestamp>).")
    var out: String?

    @Option(help: "A previous bench report.json to compare with.")
    var baseline: String?

    @Flag(help: "No progress on stderr.")
    var quiet = false

    @OptionGroup var history: HistoryOptions

    func validate() throws {
        if !["standard", "quick", "apps", "sequences"].contains(suite) { throw ValidationError("--suite takes standard, quick, apps or sequences") }
        if suite == "sequences", repetitions != nil { throw ValidationError("--repetitions is not for --suite sequences: each pass is one sample (see --steps)") }
        if suite != "sequences", steps != nil { throw ValidationError("--steps is for --suite sequences") }
        if let steps, !(1...100_000).contains(steps) { throw ValidationError("--steps takes 1 to 100,000") }
        if corpus != nil && suite != "apps" { throw ValidationError("--corpus is for --suite apps") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let repetitions, repetitions < 1 { throw ValidationError("--repetitions must be at least 1") }
    }

    func run() throws {
        let backends = try BackendRegistry.select(backend)
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
        if let parsed = try parsedSizes() {
            suite.sizes = parsed
            suite.extraSizes = [:]
        }
        if let repetitions { suite.repetitions = repetitions }
        let baselineReport = try baseline.map(Self.loadBench)
        stopOnInterrupt()
        let display = ProgressDisplay(enabled: !quiet)
        let report = try BenchRunner(suite: suite, backends: backends, jobs: jobs).run(
            machine: MachineFacts.current(toolVersion: toolVersion),
            shouldStop: { interruptRequested.load(ordering: .relaxed) },
            progress: { p in display.update(completed: p.completed, total: p.total, text: p.current) })
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
        if let parsed = try parsedSizes() {
            suite.sizes = parsed
            suite.largeSizes = []
        }
        if let steps { suite.steps = steps }
        let baselineReport = try baseline.map(Self.loadBench)
        stopOnInterrupt()
        let display = ProgressDisplay(enabled: !quiet)
        let report: BenchReport
        do {
            report = try suite.run(
                backends: backends, jobs: jobs, machine: MachineFacts.current(toolVersion: toolVersion),
                shouldStop: { interruptRequested.load(ordering: .relaxed) },
                progress: { p in display.update(completed: p.completed, total: p.total, text: p.current) })
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

    /// `--sizes`, or nil when not given; exits 2 unless they are positive whole numbers.
    func parsedSizes() throws -> [Int]? {
        guard let sizes else { return nil }
        let parsed = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 >= 1 }) else {
            printError("--sizes takes positive whole numbers, e.g. 10,100")
            throw ExitStatus.invalidInput
        }
        return parsed
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
        print(BenchTable.render(report))
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

    static func loadBench(_ path: String) throws -> BenchReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            printError("\(path): cannot read the file")
            throw ExitStatus.invalidInput
        }
        do {
            guard case .bench(let report) = try ReportDocument.decode(data) else {
                printError("\(path) is not a bench report")
                throw ExitStatus.invalidInput
            }
            return report
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError("\(path): \(error)")
            throw ExitStatus.invalidInput
        }
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime]
        return formatter.string(from: Date()).replacingOccurrences(of: ":", with: "-")
    }
}

/// The terminal table of a bench report.
enum BenchTable {
    static func render(_ report: BenchReport) -> String {
        let outside = report.results.contains { $0.overhead != nil }
        let sequences = report.results.contains { $0.passes != nil }
        // Sequence passes report no phases: their columns would stay empty.
        let phased = report.results.contains { $0.phases != nil }
        // The apps suite: the reference's ambiguity and agreement with Xcode's frames.
        let screens = report.results.contains { $0.screen != nil }
        var rows = [["family", "views", "backend", "status", "p50", "p90", "p99", "max", "iterations"]
                    + (sequences ? ["passes"] : []) + (outside ? ["overhead p50"] : [])
                    + (phased ? ["parse+lower", "solve", "levels", "ambiguity", "conflict"] : [])
                    + (screens ? ["ambiguous", "IB frames"] : [])]
        for r in report.results {
            let t = r.timing
            let p = r.phases
            var row: [String] = [r.family, "\(r.views)", r.backend, r.status == "unsupported" ? "unsupported" : r.status,
                                 t.map { Self.time($0.p50) } ?? "-", t.map { Self.time($0.p90) } ?? "-",
                                 t.map { Self.time($0.p99) } ?? "-", t.map { Self.time($0.maximum) } ?? "-",
                                 r.iterations.map(String.init) ?? "-"]
            if sequences { row.append(r.passes.map(String.init) ?? "-") }
            if outside { row.append(r.overhead.map { Self.time($0.p50) } ?? "-") }
            if phased {
                row += [p.map { Self.time($0.parse + $0.lowering) } ?? "-", p.map { Self.time($0.solve) } ?? "-",
                        p.map { Self.time($0.levels) } ?? "-", p.map { Self.time($0.ambiguity) } ?? "-",
                        p.map { Self.time($0.conflict) } ?? "-"]
            }
            if screens {
                row += [r.screen?.ambiguityText(detailed: false) ?? "-", r.screen?.agreementText(detailed: false) ?? "-"]
            }
            rows.append(row)
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var lines = rows.map { row in
            row.enumerated().map { c, cell in
                c < 4 ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                      : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        let peak = report.results.compactMap(\.peakResidentBytes).max() ?? 0
        lines.append("\(report.results.count) rows, suite \(report.suite), \(String(format: "%.1f", report.seconds)) s, peak resident \(peak / (1 << 20)) MiB")
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds in a readable unit.
    static func time(_ ns: Double) -> String {
        if ns < 1_000 { return String(format: "%.0f ns", ns) }
        if ns < 1_000_000 { return String(format: "%.1f µs", ns / 1_000) }
        if ns < 1_000_000_000 { return String(format: "%.2f ms", ns / 1_000_000) }
        return String(format: "%.2f s", ns / 1_000_000_000)
    }
}
