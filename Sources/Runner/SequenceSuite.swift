import BackendContract
import Foundation
import Generator
import Histogram
import LayoutModel
import Reporting

/// `bench --suite sequences`: the generator's update-sequence families (spec §7) as bench
/// rows. Each (sequence family, size) is one sequence, built as `bench-incremental
/// --sequences` builds it (``generateSequence(family:base:size:steps:seed:)``), and every
/// backend answers it through its sequence API (``LayoutBackend/solve(_:budget:)-(UpdateSequence,_)``):
/// the exact backend from scratch per pass, float incrementally, outside solvers through
/// their update steps. Each update pass is one sample of the row's histogram.
public struct SequenceSuite: Sendable {
    public var name: String
    /// Sequence family names (``SequenceFamilies``).
    public var families: [String]
    /// Views of the base layouts, for every backend.
    public var sizes: [Int]
    /// Further sizes only for the backends of ``largeSizeBackends`` (the in-process ones:
    /// a from-scratch outside solver would spend the whole suite's time on them).
    public var largeSizes: [Int]
    public var largeSizeBackends: Set<String>
    /// The base family whose layout the steps change (a sequence family may name its own).
    public var base: String
    /// About this many steps per sequence (most families make a pass after each step).
    public var steps: Int
    /// Per pass; a pass that runs out is counted `budgetExceeded` and is no sample.
    public var budget: Budget
    /// Per pass at the ``largeSizes``: the first pass of a 1,000-view layout (float builds
    /// its tableau, exact solves it) takes most of a second on its own.
    public var largeSizeBudget: Budget
    /// A row solves only the first passes of its sequence that fit in about this time, as
    /// estimated from a warm-up run of the first ``probePasses`` update passes.
    public var rowTimeLimit: Duration
    public var probePasses: Int
    public var seed: UInt64

    public init(name: String, families: [String] = SequenceFamilies.all.map(\.name), sizes: [Int], largeSizes: [Int] = [],
                largeSizeBackends: Set<String> = [], base: String = "form", steps: Int, budget: Budget,
                largeSizeBudget: Budget? = nil, rowTimeLimit: Duration, probePasses: Int = 2, seed: UInt64 = 1) {
        self.name = name
        self.families = families
        self.sizes = sizes
        self.largeSizes = largeSizes
        self.largeSizeBackends = largeSizeBackends
        self.base = base
        self.steps = steps
        self.budget = budget
        self.largeSizeBudget = largeSizeBudget ?? budget
        self.rowTimeLimit = rowTimeLimit
        self.probePasses = probePasses
        self.seed = seed
    }

    /// About a minute on two cores with every shipped outside solver.
    public static let quick = SequenceSuite(
        name: "sequences-quick", sizes: [10, 100], steps: 30, budget: Budget(wallTime: .milliseconds(500)),
        rowTimeLimit: .milliseconds(300))

    /// About five minutes on two cores with every shipped outside solver; 1,000 views for the
    /// in-process backends (the caller names them in ``largeSizeBackends``).
    public static let standard = SequenceSuite(
        name: "sequences", sizes: [10, 100], largeSizes: [1000], steps: 200, budget: Budget(wallTime: .seconds(1)),
        largeSizeBudget: Budget(wallTime: .seconds(3)), rowTimeLimit: .milliseconds(1500))

    /// The sequences of the suite, in row order; a family whose base layout cannot start a
    /// sequence is an error.
    public func sequences() throws(CampaignError) -> [GeneratedSequence] {
        guard let baseFamily = Families.named(base) else { throw CampaignError("unknown base family '\(base)'") }
        var result: [GeneratedSequence] = []
        for name in families {
            guard let family = SequenceFamilies.named(name) else {
                throw CampaignError("unknown sequence family '\(name)'; known: \(SequenceFamilies.all.map(\.name).joined(separator: ", "))")
            }
            for size in sizes + largeSizes {
                guard let generated = generateSequence(family: family, base: baseFamily, size: size, steps: steps, seed: seed) else {
                    throw CampaignError("\(name): the base layout of size \(size) cannot start a sequence")
                }
                result.append(generated)
            }
        }
        return result
    }
}

extension SequenceSuite {
    /// Runs the suite: (sequence × backend) rows on `jobs` workers, in the report of
    /// ``BenchRunner`` (family = the sequence family, size = views).
    public func run(
        backends: [any LayoutBackend], jobs: Int, machine: MachineInfo, shouldStop: @escaping @Sendable () -> Bool = { false },
        progress: (@Sendable (BenchProgress) -> Void)? = nil
    ) throws -> BenchReport {
        let started = Date()
        let start = ContinuousClock.now
        let large = Set(largeSizes).subtracting(sizes)
        let results = BenchRunner.measureRows(
            try sequences(), backends: backends,
            includes: { [largeSizeBackends] in !large.contains($0.size) || largeSizeBackends.contains($1.name) },
            jobs: jobs, shouldStop: shouldStop, progress: progress,
            label: { "\($0.family) n=\($0.size)" }, measure: { [self] in Self.measure($0, $1, suite: self) })
        return BenchReport(
            createdAt: ISO8601DateFormatter().string(from: started), machine: machine, suite: name,
            warmupRuns: 1, repetitions: 1, backends: backends.map(\.name), results: results,
            seconds: (ContinuousClock.now - start).inSeconds)
    }

    /// A warm-up run of the first passes (which also sizes the row to its time limit), then
    /// one timed run of the sequence (or its first passes; for a row that may time no more
    /// than the warm-up did, the warm-up itself); every update pass the backend
    /// answered within budget is one sample — its own time for an outside solver, whose
    /// process and JSON overhead goes to `overhead`.
    static func measure(_ generated: GeneratedSequence, _ backend: any LayoutBackend, suite: SequenceSuite) -> BenchResult {
        let sequence = generated.sequence
        let budget = suite.largeSizes.contains(generated.size) && !suite.sizes.contains(generated.size)
            ? suite.largeSizeBudget : suite.budget
        var result = BenchResult(
            family: generated.family, size: generated.size, seed: generated.seed, views: sequence.initial.viewCount,
            constraints: sequence.initial.constraints.count, backend: backend.name, status: "unsupported")
        let capabilities = backend.capabilities
        guard capabilities.wholeSystems || capabilities.updateSteps else {
            result.note = "takes neither whole systems nor update steps"
            return result
        }
        if case .unsupported(let reason) = backend.supports(sequence.initial) {
            result.note = reason
            return result
        }
        let total = sequence.updates.count
        let probed = min(suite.probePasses, total)
        let probe = backend.solve(Self.prefix(sequence, updates: probed), budget: budget)
        let probeTimes = probe.passes.dropFirst().compactMap { $0.answer?.statistics.duration }
        var count = total
        if let slowest = probeTimes.max(), slowest > .zero {
            count = min(total, max(probed, Int(suite.rowTimeLimit / slowest)))
        }
        // A row whose warm-up already covered every pass it may time (a slow backend, or
        // passes that all ran out of budget) is not run again: the warm-up is its timed run.
        let solvedInProbe = count == probed || probe.passes.dropFirst().allSatisfy {
            $0.answer.map { $0.solution.status == .budgetExceeded } ?? true
        }
        if solvedInProbe { count = probed }
        let outcome = solvedInProbe ? probe : backend.solve(Self.prefix(sequence, updates: count), budget: budget)

        var histogram = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var overhead = Histogram<UInt64>(numberOfSignificantValueDigits: .three)
        var outcomes: [String] = []
        var unsupported: [String] = []
        var failure: String?
        var iterations: [Int] = []
        for pass in outcome.passes {
            let status: String
            switch pass.result {
            case .success(let answer):
                status = answer.solution.status.rawValue
                let statistics = answer.statistics
                let timed = statistics.solverTime ?? statistics.duration
                // The first pass is a sample only of a sequence without updates.
                if pass.pass == 0 && total > 0 {
                    if answer.solution.status != .budgetExceeded { result.initialSolve = Double(BenchRunner.nanoseconds(timed)) }
                    continue
                }
                // A pass that ran out of budget is counted, not timed.
                if answer.solution.status != .budgetExceeded {
                    _ = histogram.record(BenchRunner.nanoseconds(timed))
                    if statistics.solverTime != nil { _ = overhead.record(BenchRunner.nanoseconds(statistics.duration - timed)) }
                    iterations.append(statistics.iterations)
                }
            case .failure(.unsupported(_, let reason)):
                status = "unsupported"
                unsupported.append(reason)
            case .failure(let error):
                status = "failed"
                failure = failure ?? error.description
            }
            if pass.pass > 0 || total == 0 { outcomes.append(status) }
        }
        if outcomes.allSatisfy({ $0 == "unsupported" }) {
            result.note = unsupported.first ?? failure
            return result
        }
        let (status, counts) = BenchRunner.tally(outcomes, unsupported: unsupported, failure: failure)
        result.status = status
        var notes: [String] = []
        if count < total { notes.append("first \(count) of \(total) update passes (row time limit)") }
        if let counts { notes.append(counts) } else if let failure { notes.append(failure) }
        result.note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        result.passes = Int(histogram.totalCount)
        iterations.sort()
        result.iterations = iterations.isEmpty ? nil : iterations[iterations.count / 2]
        result.peakResidentBytes = PeakMemory.residentBytes()
        result.timing = BenchRunner.summary(histogram)
        result.overhead = BenchRunner.summary(overhead)
        return result
    }

    /// The sequence's initial system and its first `updates` updates.
    static func prefix(_ sequence: UpdateSequence, updates: Int) -> UpdateSequence {
        guard updates < sequence.updates.count else { return sequence }
        // A prefix of a valid sequence is valid; the whole one is the fallback all the same.
        return (try? UpdateSequence(initial: sequence.initial, updates: Array(sequence.updates.prefix(updates)))) ?? sequence
    }
}
