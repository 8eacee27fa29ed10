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

    public init(name: String, families: [String], sizes: [Int], extraSizes: [String: [Int]] = [:], warmupRuns: Int,
                repetitions: Int, budget: Budget, rowTimeLimit: Duration, seed: UInt64 = 1) {
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

    /// Within five minutes on two cores.
    public static let standard = BenchSuite(
        name: "standard", families: standardFamilies, sizes: [10, 100, 1000], extraSizes: ["long-chain": [10_000]],
        warmupRuns: 1, repetitions: 20, budget: Budget(wallTime: .seconds(5)), rowTimeLimit: .seconds(3))

    /// (family, size) pairs in order.
    public var cases: [(family: String, size: Int)] {
        families.flatMap { family in (sizes + (extraSizes[family] ?? [])).map { (family, $0) } }
    }
}

/// What the bench is doing, for the progress display.
public struct BenchProgress: Sendable {
    public var completed: Int
    public var total: Int
    public var current: String
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
        var cases: [GeneratedCase] = []
        for (familyName, size) in suite.cases {
            guard let family = Families.named(familyName) else { throw CampaignError("unknown family '\(familyName)'") }
            cases.append(generate(family: family, size: size, seed: suite.seed))
        }
        let generated = cases
        let rows = generated.indices.flatMap { c in backends.indices.map { (c, $0) } }
        let results = Locked([Int: BenchResult]())
        let next = Locked(0)
        let group = DispatchGroup()
        for _ in 0..<max(1, jobs) {
            group.enter()
            DispatchQueue.global().async { [suite, backends] in
                defer { group.leave() }
                while true {
                    let position = next.withLock { n -> Int? in
                        guard n < rows.count, !shouldStop() else { return nil }
                        defer { n += 1 }
                        return n
                    }
                    guard let position else { return }
                    let (c, b) = rows[position]
                    let result = Self.measure(generated[c], backends[b], suite: suite)
                    let done = results.withLock { r -> Int in
                        r[position] = result
                        return r.count
                    }
                    progress?(BenchProgress(completed: done, total: rows.count,
                                            current: "\(generated[c].family) n=\(generated[c].size) \(backends[b].name)"))
                }
            }
        }
        group.wait()
        let measured = results.withLock { $0 }
        let formatter = ISO8601DateFormatter()
        return BenchReport(
            createdAt: formatter.string(from: started), machine: machine, suite: suite.name,
            warmupRuns: suite.warmupRuns, repetitions: suite.repetitions, backends: backends.map(\.name),
            results: rows.indices.compactMap { measured[$0] },
            seconds: (ContinuousClock.now - start).inSeconds)
    }

    /// Warm-up, then repetitions until the count or the row's time limit is reached.
    static func measure(_ generated: GeneratedCase, _ backend: any LayoutBackend, suite: BenchSuite) -> BenchResult {
        let system = generated.system
        var result = BenchResult(
            family: generated.family, size: generated.size, seed: generated.seed, views: system.viewCount,
            constraints: system.constraints.count, backend: backend.name, status: "unsupported")
        if case .unsupported(let reason) = backend.supports(system) {
            result.note = reason
            return result
        }
        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        // An outside solver reports its own time: that is what `timing` holds, and the rest
        // of the wall-clock time (process, JSON) goes here.
        var overhead = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var spent = Duration.zero
        var last: BackendResult?
        for run in 0..<(suite.warmupRuns + suite.repetitions) {
            let start = ContinuousClock.now
            let outcome: BackendResult
            do {
                outcome = try backend.solve(system, budget: suite.budget)
            } catch {
                result.status = "failed"
                result.note = "\(error)"
                return result
            }
            let elapsed = ContinuousClock.now - start
            last = outcome
            if outcome.solution.status == .budgetExceeded { break }
            let timed = outcome.statistics.solverTime ?? elapsed
            func record() {
                _ = histogram.record(Self.nanoseconds(timed))
                if outcome.statistics.solverTime != nil { _ = overhead.record(Self.nanoseconds(elapsed - timed)) }
            }
            if run >= suite.warmupRuns {
                record()
                spent += elapsed
                if spent > suite.rowTimeLimit { break }
            } else if elapsed > suite.rowTimeLimit {
                // One warm-up already took the row's time: its timing is the only sample.
                record()
                break
            }
        }
        guard let last else { return result }
        result.status = last.solution.status.rawValue
        result.iterations = last.statistics.iterations
        result.peakResidentBytes = PeakMemory.residentBytes()
        result.timing = Self.summary(histogram)
        result.overhead = Self.summary(overhead)
        return result
    }

    static func nanoseconds(_ d: Duration) -> UInt64 {
        UInt64(max(d.components.seconds * 1_000_000_000 + d.components.attoseconds / 1_000_000_000, 1))
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
