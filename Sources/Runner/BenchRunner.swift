import BackendContract
import Dispatch
import Foundation
import Generator
import Histogram
import LayoutModel
import Reporting

/// The cases of a benchmark suite: families × sizes, each case generated from a fixed seed.
public struct BenchSuite: Sendable {
    public var name: String
    public var families: [String]
    public var sizes: [Int]
    /// Largest size per family where the default sizes would be pointless (e.g. 10,000 views
    /// only for chains).
    public var extraSizes: [String: [Int]]
    public var warmupRuns: Int
    public var repetitions: Int
    /// Per-solve budget; a backend that runs out is reported `budgetExceeded` at that size.
    public var budget: Budget
    /// After a row's solves have taken this long, it stops repeating.
    public var rowTimeLimit: Duration
    public var seed: UInt64
    /// Rows beyond the generated cases, each a fixed set of systems (the `apps` suite's
    /// imported layouts, per app and in total).
    public var workloads: [BenchWorkload]

    public init(name: String, families: [String], sizes: [Int], extraSizes: [String: [Int]] = [:], warmupRuns: Int,
                repetitions: Int, budget: Budget, rowTimeLimit: Duration, seed: UInt64 = 1, workloads: [BenchWorkload] = []) {
        self.workloads = workloads
        self.name = name
        self.families = families
        self.sizes = sizes
        self.extraSizes = extraSizes
        self.warmupRuns = warmupRuns
        self.repetitions = repetitions
        self.budget = budget
        self.rowTimeLimit = rowTimeLimit
        self.seed = seed
    }

    /// The families of the standard suite: what apps do, plus the random and a few
    /// pathological families that stress solvers in known ways.
    public static let standardFamilies = [
        "equal-widths", "centered", "form", "table-cells", "nested", "grid", "long-row", "aspect-images",
        "hugging-contest", "equal-spacing", "equal-widths-rtl", "random", "cassowary-benchmark",
        "long-chain", "redundant-required", "weak-crowd", "ambiguous", "conflict-late",
    ]

    /// About a minute on two cores: three sizes, so that growth exponents are fitted, and
    /// short budgets.
    public static let quick = BenchSuite(
        name: "quick", families: standardFamilies, sizes: [10, 100, 1000], warmupRuns: 1, repetitions: 3,
        budget: Budget(wallTime: .seconds(1)), rowTimeLimit: .milliseconds(300))

    /// Within five minutes on two cores (the built-in backends): every family up to 10,000
    /// views, so that growth is fitted over three decades; a solve that runs out of its budget
    /// is not repeated, which bounds the rows that cannot finish.
    public static let standard = BenchSuite(
        name: "standard", families: standardFamilies, sizes: [10, 100, 1000, 10_000],
        warmupRuns: 1, repetitions: 20, budget: Budget(wallTime: .seconds(5)), rowTimeLimit: .seconds(3))

    /// (family, size) pairs in order.
    public var cases: [(family: String, size: Int)] {
        families.flatMap { family in (sizes + (extraSizes[family] ?? [])).map { (family, $0) } }
    }
}

/// What one bench row solves: a generated case, or a fixed group of systems (an app's
/// layouts) whose solves all go into the row's histogram. The row's `size` is the
/// generated case's size, or the group's number of layouts; `views` and `constraints` are
/// summed over the group.
public struct BenchWorkload: Sendable {
    public var family: String
    public var size: Int
    public var seed: UInt64
    public var systems: [ConstraintSystem]
    /// The comment lines the systems' files open with (for the parse time).
    public var header: String
    /// Said in every row of the workload (before what the solves say), e.g. how many
    /// layouts the importer skipped.
    public var note: String?
    /// Copied into every row of the workload: the reference's facts about an app's screens.
    public var screen: AppScreenFacts?

    public init(family: String, size: Int, seed: UInt64 = 0, systems: [ConstraintSystem], header: String = "") {
        self.family = family
        self.size = size
        self.seed = seed
        self.systems = systems
        self.header = header
    }

    /// One generated case.
    public init(_ generated: GeneratedCase) {
        self.init(family: generated.family, size: generated.size, seed: generated.seed, systems: [generated.system],
                  header: generated.header)
    }
}

/// What the bench is doing, for the progress display.
public struct BenchProgress: Sendable {
    public var completed: Int
    public var total: Int
    public var current: String
    /// The row that has just been measured, so that it can be shown at once rather than
    /// only in the table at the end.
    public var finished: BenchResult?
}

/// Runs a suite on every backend that supports each case: warm-up solves, then timed
/// repetitions recorded in an HDR histogram (3 significant digits), on `jobs` Dispatch
/// workers that take (case × backend) rows from a shared queue.
///
/// Timing rows in parallel on a small machine makes them interfere a little; the ratios
/// between backends in one run stay meaningful, and `--jobs 1` gives the quietest numbers.
public struct BenchRunner: Sendable {
    public var suite: BenchSuite
    public var backends: [any LayoutBackend]
    public var jobs: Int

    public init(suite: BenchSuite, backends: [any LayoutBackend], jobs: Int) {
        self.suite = suite
        self.backends = backends
        self.jobs = jobs
    }

    public func run(
        machine: MachineInfo, shouldStop: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (BenchProgress) -> Void)? = nil
    ) throws -> BenchReport {
        let started = Date()
        let start = ContinuousClock.now
        var cases: [BenchWorkload] = []
        for (familyName, size) in suite.cases {
            guard let family = Families.named(familyName) else { throw CampaignError("unknown family '\(familyName)'") }
            cases.append(BenchWorkload(generate(family: family, size: size, seed: suite.seed)))
        }
        let results = Self.measureRows(
            cases + suite.workloads, backends: backends, jobs: jobs, shouldStop: shouldStop, progress: progress,
            label: { "\($0.family) n=\($0.size)" }, measure: { [suite] in Self.measure($0, $1, suite: suite) })
        return BenchReport(
            createdAt: ISO8601DateFormatter().string(from: started), machine: machine, suite: suite.name,
            warmupRuns: suite.warmupRuns, repetitions: suite.repetitions, backends: backends.map(\.name),
            results: results, seconds: (ContinuousClock.now - start).inSeconds)
    }

    /// Measures every (case × backend) row that `includes` on `jobs` Dispatch workers that
    /// take them from a shared queue; the results in row order (rows left when `shouldStop`
    /// said so are missing).
    static func measureRows<Case: Sendable>(
        _ cases: [Case], backends: [any LayoutBackend], includes: (Case, any LayoutBackend) -> Bool = { _, _ in true },
        jobs: Int, shouldStop: @escaping @Sendable () -> Bool, progress: (@Sendable (BenchProgress) -> Void)?,
        label: @escaping @Sendable (Case) -> String, measure: @escaping @Sendable (Case, any LayoutBackend) -> BenchResult
    ) -> [BenchResult] {
        let rows = cases.indices.flatMap { c in backends.indices.filter { includes(cases[c], backends[$0]) }.map { (c, $0) } }
        let count = rows.count
        let results = Locked([Int: BenchResult]())
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<max(1, jobs) {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                while true {
                    let position = next.withLock { n -> Int? in
                        guard n < count, !shouldStop() else { return nil }
                        defer { n += 1 }
                        return n
                    }
                    guard let position else { return }
                    let (c, b) = rows[position]
                    let result = measure(cases[c], backends[b])
                    let done = results.withLock { r -> Int in
                        r[position] = result
                        return r.count
                    }
                    progress?(BenchProgress(
                        completed: done, total: count, current: "\(label(cases[c])) \(backends[b].name)", finished: result))
                }
            }
        }
        group.wait()
        let measured = results.withLock { $0 }
        return (0..<count).compactMap { measured[$0] }
    }

    /// A row's status from the final status of each of its solves (`unsupported` ones left
    /// out): the one status they share, or `mixed`; and, when they differ or some were
    /// unsupported or failed, their counts as the row's note says them.
    static func tally(_ outcomes: [String], unsupported: [String], failure: String?) -> (status: String, counts: String?) {
        let statuses = outcomes.filter { $0 != "unsupported" }
        let distinct = Set(statuses)
        let status = distinct.count == 1 ? statuses[0] : "mixed"
        guard distinct.count > 1 || !unsupported.isEmpty else { return (status, nil) }
        var counts = Dictionary(grouping: outcomes, by: { $0 }).mapValues(\.count)
            .sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        if let first = unsupported.first { counts += " (unsupported: \(first))" }
        if let failure { counts += " (failed: \(failure))" }
        return (status, counts)
    }

    /// Warm-up, then repetitions until the count or the row's time limit is reached. A
    /// workload of several systems (an app's layouts) solves each of them per repetition,
    /// and every solve is one sample of the row's histogram.
    static func measure(_ workload: BenchWorkload, _ backend: any LayoutBackend, suite: BenchSuite) -> BenchResult {
        var result = BenchResult(
            family: workload.family, size: workload.size, seed: workload.seed,
            views: workload.systems.reduce(0) { $0 + $1.viewCount },
            constraints: workload.systems.reduce(0) { $0 + $1.constraints.count }, backend: backend.name, status: "unsupported")
        result.screen = workload.screen
        var outcomes = [String?](repeating: nil, count: workload.systems.count)  // final status per system
        var unsupported: [String] = []
        var active: [Int] = []
        for (s, system) in workload.systems.enumerated() {
            if case .unsupported(let reason) = backend.supports(system) {
                unsupported.append(reason)
                outcomes[s] = "unsupported"
            } else {
                active.append(s)
            }
        }
        guard !active.isEmpty else {
            result.note = workload.systems.count == 1 ? unsupported.first : "\(unsupported.count) layouts unsupported, e.g. \(unsupported.first ?? "")"
            if let note = workload.note { result.note = note + (result.note.map { "; " + $0 } ?? "") }
            return result
        }
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        // An outside solver reports its own time: that is what `timing` holds, and the rest
        // of the wall-clock time (process, JSON) goes here.
        var overhead = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var spent = Duration.zero
        var iterations = [Int?](repeating: nil, count: workload.systems.count)
        var phases: [SolvePhases] = []
        var failure: String?
        for run in 0..<(suite.warmupRuns + suite.repetitions) {
            var samples: [(timed: Duration, elapsed: Duration, phases: SolvePhases?, outside: Bool)] = []
            let passStart = ContinuousClock.now
            for s in active {
                let start = ContinuousClock.now
                let outcome: BackendResult
                do {
                    outcome = try backend.solve(workload.systems[s], budget: suite.budget)
                } catch {
                    outcomes[s] = "failed"
                    failure = failure ?? "\(error)"
                    continue
                }
                let elapsed = ContinuousClock.now - start
                outcomes[s] = outcome.solution.status.rawValue
                iterations[s] = outcome.statistics.iterations
                if outcome.solution.status == .budgetExceeded { continue }
                samples.append((outcome.statistics.solverTime ?? elapsed, elapsed, outcome.statistics.phases,
                                outcome.statistics.solverTime != nil))
            }
            // A system that failed or ran out of budget is not solved again.
            active = active.filter { outcomes[$0] != "failed" && outcomes[$0] != SolveStatus.budgetExceeded.rawValue }
            let passElapsed = ContinuousClock.now - passStart
            func record() {
                for sample in samples {
                    _ = histogram.record(Self.nanoseconds(sample.timed))
                    if sample.outside { _ = overhead.record(Self.nanoseconds(sample.elapsed - sample.timed)) }
                    if let solvePhases = sample.phases { phases.append(solvePhases) }
                }
            }
            if run >= suite.warmupRuns {
                record()
                spent += passElapsed
                if spent > suite.rowTimeLimit { break }
            } else if passElapsed > suite.rowTimeLimit {
                // One warm-up already took the row's time: its timing is the only sample.
                record()
                break
            }
            if active.isEmpty { break }
        }
        let (status, counts) = Self.tally(outcomes.compactMap { $0 }, unsupported: unsupported, failure: failure)
        result.status = status
        result.note = workload.systems.count == 1 ? failure : counts
        if let note = workload.note { result.note = note + (result.note.map { "; " + $0 } ?? "") }
        if result.status == "failed" { return result }
        let solved = iterations.compactMap { $0 }.sorted()
        result.iterations = solved.isEmpty ? nil : solved[solved.count / 2]
        result.peakResidentBytes = PeakMemory.residentBytes()
        if !phases.isEmpty {
            result.phases = Self.summary(phases, parse: Self.parseTime(workload))
        }
        result.timing = Self.summary(histogram)
        result.overhead = Self.summary(overhead)
        return result
    }

    static func nanoseconds(_ d: Duration) -> UInt64 {
        UInt64(max(d.nanoseconds, 1))
    }

    static func summary(_ histogram: Histogram<UInt64>) -> TimingSummary? {
        guard histogram.totalCount > 0 else { return nil }
        return TimingSummary(
            samples: Int(histogram.totalCount), minimum: Double(histogram.min),
            p50: Double(histogram.valueAtPercentile(50)), p90: Double(histogram.valueAtPercentile(90)),
            p99: Double(histogram.valueAtPercentile(99)), maximum: Double(histogram.max),
            mean: histogram.mean, standardDeviation: histogram.totalCount > 1 ? histogram.stdDeviation : 0)
    }
}

extension BenchRunner {
    /// The median of each phase over a row's timed solves, in nanoseconds.
    static func summary(_ phases: [SolvePhases], parse: Duration) -> PhaseSummary {
        func median(_ phase: KeyPath<SolvePhases, Duration>) -> Double {
            let sorted = phases.map { $0[keyPath: phase] }.sorted()
            return Double(sorted[sorted.count / 2].nanoseconds)
        }
        return PhaseSummary(
            parse: Double(parse.nanoseconds), lowering: median(\.lowering), solve: median(\.solve),
            levels: median(\.levels), ambiguity: median(\.ambiguity), conflict: median(\.conflict))
    }

    /// How long reading the case's `.layout` text takes (the best of two reads): what a user's
    /// solve pays before any backend runs. For a workload of several systems, the median
    /// over them.
    static func parseTime(_ workload: BenchWorkload) -> Duration {
        let times = workload.systems.map { system -> Duration in
            let text = workload.header + system.canonicalText
            var best = Duration.seconds(1_000_000)
            for _ in 0..<2 {
                let start = ContinuousClock.now
                _ = try? LayoutParser.parse(text, file: workload.family)
                best = min(best, ContinuousClock.now - start)
            }
            return best
        }.sorted()
        return times[times.count / 2]
    }
}

extension Duration {
    /// Whole nanoseconds.
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}

/// The process's peak resident set size.
public enum PeakMemory {
    public static func residentBytes() -> UInt64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return UInt64(max(usage.ru_maxrss, 0)) * 1024  // kilobytes on Linux
    }

    /// The current resident set size (from /proc), for watching memory over a long run.
    public static func currentResidentBytes() -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
        return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Facts about this machine for a report.
public enum MachineFacts {
    public static func current(toolVersion: String) -> MachineInfo {
        let info = ProcessInfo.processInfo
        return MachineInfo(
            hostname: info.hostName, operatingSystem: info.operatingSystemVersionString,
            processorCount: info.activeProcessorCount, physicalMemoryBytes: info.physicalMemory, toolVersion: toolVersion)
    }
}
