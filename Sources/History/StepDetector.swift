import Foundation

/// A step found in a bench series: the level changed at `index` and stayed changed.
public struct DetectedStep: Sendable, Hashable {
    /// Index of the first point after the step.
    public var index: Int
    /// Median of the window after ÷ median of the window before (> 1: slower).
    public var ratio: Double
    /// The step in units of its own standard error (see ``StepDetector``).
    public var score: Double
}

/// Change-point detection on one series of timings (docs/history.md, "Steps").
///
/// The series is taken in logarithms, so a step is a ratio and noise proportional to the
/// time is even. Its spread is the series' own: the median absolute deviation (×1.4826,
/// robust against the step itself and against outliers) of each point from the median of
/// its four nearest neighbours. At every split with at least `minimumRun` points on both sides, the
/// medians of the `window` points before and after are compared: the difference divided by
/// the standard error of a difference of two medians (√(π/2)·σ·√(1/nᵇ + 1/nᵃ)) is the
/// split's score. A split is a step when its score reaches `threshold` and the change is at
/// least `minimumChange` (a 2% change of a noiseless counter is real but not news); of the
/// splits that qualify within one window only the best-scoring one is kept.
///
/// The false-alarm and detection rates of the defaults are measured by a seeded simulation
/// (`StepDetectorTests.simulatedRates`) and given in docs/history.md.
public struct StepDetector: Sendable {
    /// Points each side of a split compared (at most).
    public var window: Int
    /// Points needed on each side before a split is judged: a step in the last nights is
    /// reported once it has held this long.
    public var minimumRun: Int
    /// Score a split needs.
    public var threshold: Double
    /// Smallest relative change reported, e.g. 0.05 for 5%.
    public var minimumChange: Double

    public init(window: Int = 8, minimumRun: Int = 4, threshold: Double = 5, minimumChange: Double = 0.05) {
        self.window = max(2, window)
        self.minimumRun = max(2, min(minimumRun, window))
        self.threshold = threshold
        self.minimumChange = minimumChange
    }

    /// The steps of `values` (positive timings, oldest first), in order.
    public func steps(_ values: [Double]) -> [DetectedStep] {
        let logs = values.map { log(max($0, .leastNormalMagnitude)) }
        let n = logs.count
        guard n >= 2 * minimumRun else { return [] }
        let sigma = Self.noise(logs)
        // A series without spread (identical timings) still has rounding: never divide by 0.
        let floor = max(sigma, 1e-6)
        var candidates: [DetectedStep] = []
        for split in minimumRun...(n - minimumRun) {
            let before = Array(logs[max(0, split - window)..<split])
            let after = Array(logs[split..<min(n, split + window)])
            let difference = Self.median(after) - Self.median(before)
            let standardError = (Double.pi / 2).squareRoot() * floor * (1 / Double(before.count) + 1 / Double(after.count)).squareRoot()
            let score = abs(difference) / standardError
            let ratio = exp(difference)
            if score >= threshold && abs(ratio - 1) >= minimumChange {
                candidates.append(DetectedStep(index: split, ratio: ratio, score: score))
            }
        }
        // One step makes every split near it score: keep one split per cluster (the best
        // scoring, then no other within a window of it), placed where a two-level fit of
        // the cluster's neighbourhood is tightest (least absolute deviations from the two
        // medians, as asv places its steps): the windowed medians alone cannot tell splits
        // a few points apart.
        var steps: [DetectedStep] = []
        for candidate in candidates.sorted(by: { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }) {
            guard steps.allSatisfy({ abs($0.index - candidate.index) >= window }) else { continue }
            let cluster = candidates.filter { abs($0.index - candidate.index) < window }
            let region = max(0, candidate.index - window)..<min(n, candidate.index + window)
            let placed = cluster.min { a, b in
                let (costA, costB) = (Self.fitCost(logs, region, split: a.index), Self.fitCost(logs, region, split: b.index))
                return costA < costB || (costA == costB && a.score > b.score)
            } ?? candidate
            steps.append(placed)
        }
        return steps.sorted { $0.index < $1.index }
    }

    /// Sum of absolute deviations of `logs[region]` from the median of each side of `split`.
    static func fitCost(_ logs: [Double], _ region: Range<Int>, split: Int) -> Double {
        let split = min(max(split, region.lowerBound), region.upperBound)
        return [region.lowerBound..<split, split..<region.upperBound].reduce(0) { total, part in
            let values = Array(logs[part])
            guard !values.isEmpty else { return total }
            let middle = median(values)
            return total + values.reduce(0) { $0 + abs($1 - middle) }
        }
    }

    /// σ of the series' noise: 1.4826 × the median absolute deviation of each point from the
    /// median of its (up to) four nearest neighbours. Leaving the point itself out keeps the
    /// estimate from shrinking to 0 where the point is its neighbourhood's median; the
    /// neighbours' own noise makes it a little large, which errs towards fewer alarms.
    static func noise(_ logs: [Double]) -> Double {
        guard logs.count >= 3 else { return 0 }
        let residuals = logs.indices.map { i -> Double in
            let neighbours = (max(0, i - 2)...min(logs.count - 1, i + 2)).filter { $0 != i }.map { logs[$0] }
            return abs(logs[i] - median(neighbours))
        }
        return 1.4826 * median(residuals)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A step of one bench series, as `history steps` lists it.
public struct SeriesStep: Sendable, Hashable, Codable {
    /// The host name of the runs' machine and their suite: a series compares only those.
    public var machine: String
    public var suite: String
    public var family: String
    public var size: Int
    public var seed: UInt64
    public var backend: String
    /// `createdAt` of the first run after the step.
    public var run: String
    public var runID: Int64
    /// Median after ÷ median before.
    public var ratio: Double
    public var score: Double
    /// Medians (nanoseconds) of the windows before and after.
    public var before: Double
    public var after: Double
}

extension StepDetector {
    /// The steps of every series, ordered by run, then family, size, backend.
    public func steps(in series: [BenchSeries], machine: String = "", suite: String = "") -> [SeriesStep] {
        series.flatMap { series -> [SeriesStep] in
            let values = series.points.map(\.p50)
            return steps(values).map { step in
                let before = Self.median(Array(values[max(0, step.index - window)..<step.index]))
                let after = Self.median(Array(values[step.index..<min(values.count, step.index + window)]))
                let point = series.points[step.index]
                return SeriesStep(
                    machine: machine, suite: suite, family: series.family, size: series.size, seed: series.seed, backend: series.backend, run: point.createdAt,
                    runID: point.runID, ratio: step.ratio, score: step.score, before: before, after: after)
            }
        }.sorted { ($0.run, $0.family, $0.size, $0.backend) < ($1.run, $1.family, $1.size, $1.backend) }
    }
}

extension HistoryDatabase {
    /// The steps of every bench series, per machine and suite (runs are comparable only
    /// within one), ordered by run.
    public func steps(detector: StepDetector) throws(HistoryError) -> [SeriesStep] {
        var steps: [SeriesStep] = []
        for group in try benchGroups() {
            let series = try benchSeries(hostname: group.hostname, suite: group.suite)
            steps += detector.steps(in: series, machine: group.hostname, suite: group.suite)
        }
        return steps.sorted { ($0.run, $0.family, $0.size, $0.backend) < ($1.run, $1.family, $1.size, $1.backend) }
    }
}
