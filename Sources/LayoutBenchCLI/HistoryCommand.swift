import ArgumentParser
import Foundation
import History
import OutsideSolvers
import Reporting
import Runner

/// `layoutbench history import|findings|steps|html|verify` (docs/history.md).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "The nightly history: every recorded run, finding states, bench steps, the trend page.",
        discussion: """
            `bench`, `fuzz` and `report merge` record their finished run in the history \
            (Reports/history.sqlite unless --history names another, nothing with --no-history); \
            these commands read it, or backfill it from existing reports. See docs/history.md.
            """,
        subcommands: [
            HistoryImportCommand.self, HistoryFindingsCommand.self, HistoryStepsCommand.self, HistoryHTMLCommand.self,
            HistoryVerifyCommand.self,
        ])
}

/// `--history PATH`: every command that reads or writes the history takes it.
struct HistoryFile: ParsableArguments {
    /// LAYOUTBENCH_HISTORY names another default file (a CI cache), or is `off` to record
    /// nothing unless --history is given (the test suite's own runs).
    static let environment = ProcessInfo.processInfo.environment["LAYOUTBENCH_HISTORY"].flatMap { $0.isEmpty ? nil : $0 }
    static let defaultPath = environment.flatMap { $0 == "off" ? nil : $0 } ?? "Reports/history.sqlite"

    @Option(name: .customLong("history"), help: "The history file (default: $LAYOUTBENCH_HISTORY, else Reports/history.sqlite).")
    var path: String?

    /// The file named, or the default.
    var resolved: String { path ?? HistoryFile.defaultPath }

    /// Opens the history, or exits 2 with the reason on stderr.
    func open(_ mode: HistoryDatabase.Mode) throws -> HistoryDatabase {
        try HistoryFile.checked { () throws(HistoryError) in try HistoryDatabase.open(resolved, mode: mode) }
    }

    /// The history states of the signatures of the fuzz report at `path`, when the history
    /// recorded it; none when there is no history (unless --history named one) or it did not.
    func notes(forReportAt path: String) throws -> [FindingHistoryNote] {
        let disabled = self.path == nil && (HistoryFile.environment == "off" || !FileManager.default.fileExists(atPath: resolved))
        guard !disabled, let data = FileManager.default.contents(atPath: path) else { return [] }
        let history = try open(.existing)
        return try HistoryFile.checked { () throws(HistoryError) in
            guard let run = try history.run(digest: SHA256.hex(data)), run.kind == .fuzz else { return [] }
            let timeline = FindingTimeline(observations: try history.fuzzObservations())
            let byName = Dictionary(uniqueKeysWithValues: timeline.signatures.map { ($0.signature, $0) })
            return (timeline.states(atRun: run.id)?.states ?? [:]).map { signature, state in
                FindingHistoryNote(signature: signature, state: state.rawValue, firstSeen: byName[signature]?.firstSeen ?? "-",
                                   runsSeen: byName[signature]?.runsSeen ?? 0)
            }
        }
    }

    /// Runs `body`, turning a ``HistoryError`` into its message on stderr and exit status 2.
    static func checked<T>(_ body: () throws(HistoryError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            printError("\(error)")
            throw ExitStatus.invalidInput
        }
    }
}

/// The history options of the recording commands (`bench`, `fuzz`, `report merge`).
struct HistoryOptions: ParsableArguments {
    @OptionGroup var file: HistoryFile

    @Flag(name: .customLong("no-history"), help: "Record nothing in the history.")
    var noHistory = false

    /// --no-history, or LAYOUTBENCH_HISTORY=off without --history.
    var disabled: Bool { noHistory || (file.path == nil && HistoryFile.environment == "off") }

    /// Records a finished bench run; unless a baseline was given, compares it with the
    /// previous comparable run and says which one that is.
    func recordBench(_ report: BenchReport, at url: URL, compare: Bool) throws {
        guard !disabled else { return }
        try HistoryFile.checked { () throws(HistoryError) in
            let history = try HistoryDatabase.open(file.resolved, mode: .createIfMissing)
            let run = try RunRecord.read(reportAt: url, context: .init(source: "bench", backendVersions: Self.versions(report.backends)))
            let outcome = try history.record(run)
            try? history.checkpoint()  // the file alone (a CI cache) holds the run
            print("history: \(Self.describe(outcome)) in \(file.resolved)")
            guard compare else { return }
            guard let previous = try history.previousComparableBench(to: run), let baseline = try history.benchReport(runID: previous.id)
            else {
                print("history: no earlier run of suite \(report.suite) on \(report.machine.hostname) to compare with")
                return
            }
            print("history: compared with \(previous.label)")
            print(TerminalComparison.render(.bench(BenchComparison(baseline: baseline, current: report)), color: isatty(STDOUT_FILENO) != 0))
        }
    }

    /// Records a finished fuzz campaign (or merged report) and prints the states of the
    /// findings it saw. Returns the wrong signatures whose state is in `failOn`.
    func recordFuzz(at url: URL, source: String, backends: [String], failOn: Set<FindingState>) throws -> [String] {
        guard !disabled else { return [] }
        return try HistoryFile.checked { () throws(HistoryError) in
            let history = try HistoryDatabase.open(file.resolved, mode: .createIfMissing)
            let run = try RunRecord.read(
                reportAt: url,
                context: .init(source: source, startedAt: Date(), machine: MachineFacts.current(toolVersion: toolVersion),
                               backendVersions: Self.versions(backends)))
            let outcome = try history.record(run)
            try? history.checkpoint()  // the file alone (a CI cache) holds the run
            print("history: \(Self.describe(outcome)) in \(file.resolved)")
            let timeline = FindingTimeline(observations: try history.fuzzObservations())
            guard let states = timeline.states(atRun: outcome.run.id) else { return [] }
            let counts = FindingState.allCases.map { "\(states.count($0)) \($0.rawValue)" }.joined(separator: ", ")
            print("history: findings \(counts)")
            let byName = Dictionary(uniqueKeysWithValues: timeline.signatures.map { ($0.signature, $0) })
            for (signature, state) in states.states.sorted(by: { $0.key < $1.key }) where state == .new || state == .back {
                print("  \(state.rawValue) \(signature)" + (byName[signature]?.replayCommand.map { ": " + $0 } ?? ""))
            }
            return states.states.filter { failOn.contains($0.value) && !$0.key.contains("@") }.map(\.key).sorted()
        }
    }

    /// `layoutbench`'s own version for built-in backends; an outside solver's from its
    /// adapter's hello (when it started).
    static func versions(_ names: [String]) -> [String: String] {
        var versions: [String: String] = [:]
        for name in names {
            if let outside = BackendRegistry.outside.first(where: { $0.name == name }) {
                if case .success(let hello) = outside.hello() { versions[name] = "\(hello.name) \(hello.version)" }
            } else {
                versions[name] = toolVersion
            }
        }
        return versions
    }

    static func describe(_ outcome: RecordOutcome) -> String {
        switch outcome {
        case .recorded(let run): return "recorded \(run.label)"
        case .alreadyRecorded(let run): return "already recorded as \(run.label)"
        }
    }

    /// `--fail-on new,back`.
    static func states(_ list: String?) throws -> Set<FindingState> {
        guard let list else { return [] }
        var states: Set<FindingState> = []
        for word in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let state = FindingState(rawValue: word), state != .fixed else {
                throw ValidationError("--fail-on takes new, back and open, e.g. new,back")
            }
            states.insert(state)
        }
        return states
    }
}

/// `layoutbench history import RUN.json...`
struct HistoryImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Record existing bench and fuzz reports (a report already recorded changes nothing).",
        discussion: "Each RUN is a report.json or a folder holding one. A fuzz report carries no start time; its file's modification time dates it.")

    @Argument(help: "Reports (or their folders).")
    var reports: [String]

    @OptionGroup var file: HistoryFile

    func run() throws {
        let history = try file.open(.createIfMissing)
        var failed = false
        for path in reports {
            var isDirectory: ObjCBool = false
            let folder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            let url = folder ? URL(fileURLWithPath: path).appendingPathComponent("report.json") : URL(fileURLWithPath: path)
            do {
                let outcome = try history.record(try RunRecord.read(reportAt: url, context: .init(source: "import")))
                print("\(url.path): \(HistoryOptions.describe(outcome))")
            } catch {
                printError("\(error)")
                failed = true
            }
        }
        try? history.checkpoint()
        if failed { throw ExitStatus.invalidInput }
    }
}

/// `layoutbench history findings [--since DATE] [--state new,back] [--format text|json]`
struct HistoryFindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "Finding signatures across the recorded fuzz runs: new, open, fixed, back.")

    @OptionGroup var file: HistoryFile

    @Option(help: "Only signatures seen or changed since this date (2026-11-21 or ISO 8601 time).")
    var since: String?

    @Option(help: "Comma-separated states (new, open, fixed, back); default all.")
    var state: String?

    @Option(help: "Covering runs without a signature before it counts as fixed.")
    var fixedAfter: Int = 3

    @OptionGroup var output: TextOrJSONOption

    func validate() throws {
        if fixedAfter < 1 { throw ValidationError("--fixed-after must be at least 1") }
        if let since, Timestamp.date(since) == nil { throw ValidationError("--since takes a date (2026-11-21) or an ISO 8601 time") }
        _ = try states()
    }

    func states() throws -> Set<FindingState> {
        guard let state else { return Set(FindingState.allCases) }
        return try Set(state.split(separator: ",").map { word in
            guard let state = FindingState(rawValue: word.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--state takes new, open, fixed and back")
            }
            return state
        })
    }

    struct Entry: Encodable {
        var signature: String
        var state: String
        var verdict: String
        var backend: String
        var firstSeen: String
        var lastSeen: String
        var runsSeen: Int
        var replay: String?
    }

    func run() throws {
        let history = try file.open(.existing)
        let timeline = FindingTimeline(observations: try HistoryFile.checked { () throws(HistoryError) in try history.fuzzObservations() },
                                       fixedAfter: fixedAfter)
        let chosen = timeline.signatures(in: try states(), since: since.flatMap(Timestamp.date).map(Timestamp.string))
        switch output.format {
        case .json:
            let entries = chosen.map {
                Entry(signature: $0.signature, state: $0.state.rawValue, verdict: $0.latestFinding?.verdict ?? ($0.isWrong ? "wrong" : "-"),
                      backend: $0.backend, firstSeen: $0.firstSeen, lastSeen: $0.lastSeen, runsSeen: $0.runsSeen, replay: $0.replayCommand)
            }
            try printJSON(entries)
        case .text:
            if chosen.isEmpty { print("no findings in \(timeline.runs.count) recorded fuzz runs") }
            for entry in chosen {
                print("\(entry.state.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(entry.signature)  first \(entry.firstSeen), last \(entry.lastSeen), seen in \(entry.runsSeen) runs")
                if let replay = entry.replayCommand { print("       \(replay)") }
            }
        }
    }
}

/// `layoutbench history steps [--format text|json]`
struct HistoryStepsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "steps",
        abstract: "Steps in the recorded bench series per (family, size, backend), told from noise by the series' own spread.")

    @OptionGroup var file: HistoryFile

    @OptionGroup var output: TextOrJSONOption

    func run() throws {
        let history = try file.open(.existing)
        let steps = try HistoryFile.checked { () throws(HistoryError) in try history.steps(detector: StepDetector()) }
        switch output.format {
        case .json:
            try printJSON(steps)
        case .text:
            if steps.isEmpty { print("no steps") }
            for step in steps {
                let change = String(format: "%+.0f%%", (step.ratio - 1) * 100)
                print("\(step.run)  \(step.family) \(step.size) \(step.backend): \(change) (\(BenchTable.time(step.before)) → \(BenchTable.time(step.after)), \(step.suite) on \(step.machine))")
            }
        }
    }
}

/// `layoutbench history html [-o FILE]`
struct HistoryHTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "The trend page: bench p50 per family with p90 bands and steps, the findings timeline, open findings.")

    @OptionGroup var file: HistoryFile

    @Option(name: [.short, .customLong("output")], help: "The page (default: beside the history, history.html).")
    var output: String?

    func run() throws {
        let history = try file.open(.existing)
        let page = try HistoryFile.checked { () throws(HistoryError) in try TrendPage.render(history) }
        let url = URL(fileURLWithPath: output ?? URL(fileURLWithPath: file.resolved).deletingLastPathComponent().appendingPathComponent("history.html").path)
        do {
            try TrendPage.write(page, to: url)
        } catch {
            printError("cannot write \(url.path): \(error)")
            throw ExitStatus.internalFailure
        }
        print("page: \(url.path)")
    }
}

/// `layoutbench history verify`
struct HistoryVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the history file: SQLite's integrity check, references, digests, schema version.")

    @OptionGroup var file: HistoryFile

    func run() throws {
        let history = try file.open(.existing)
        let report = try HistoryFile.checked { () throws(HistoryError) in try history.verify() }
        print("\(file.resolved): ok, schema version \(report.schemaVersion), \(report.runs) runs, \(report.benchRows) bench rows, \(report.findings) stored findings of \(report.signatures) signatures")
    }
}
