import Foundation

/// Two bench reports side by side: every (family, size, backend) row of either, matched, with
/// what changed.
///
/// Rows are matched on (family, size, backend). Where a run measured several seeds of the same
/// family and size, the rows are paired in seed order, so a suite that draws new seeds each
/// night is still compared case for case; `seedsDiffer` says when that happened.
public struct BenchComparison: Sendable, Hashable {
    /// What happened to one row between the runs.
    public enum Verdict: String, Sendable, Hashable, CaseIterable {
        /// Both solved it; the median moved beyond the rule's threshold, upwards.
        case regression
        /// Both solved it; the median moved beyond the threshold, downwards.
        case improvement
        /// Both solved it within the threshold, or neither was timed and the status is the same.
        case unchanged
        /// The status got worse (solved → budget exceeded, unsupported → failed, …) or the
        /// answer changed (optimal ↔ unsatisfiable: one of the two runs is wrong).
        case statusRegression = "status-regression"
        /// The status got better (failed → solved, …).
        case statusImprovement = "status-improvement"
        /// Only the current run has the row.
        case added
        /// Only the baseline has the row.
        case removed

        /// Whether the row counts against the current run.
        public var isRegression: Bool { self == .regression || self == .statusRegression }
        /// Whether the row counts for the current run.
        public var isImprovement: Bool { self == .improvement || self == .statusImprovement }
    }

    /// One matched (or unmatched) row.
    public struct Row: Sendable, Hashable {
        /// The generator family.
        public var family: String
        /// The size asked of the generator.
        public var size: Int
        /// The backend that solved it.
        public var backend: String
        /// The baseline's row; nil when only the current run has it.
        public var baseline: BenchResult?
        /// The current run's row; nil when only the baseline has it.
        public var current: BenchResult?
        /// What changed.
        public var verdict: Verdict
        /// `p50(current) − p50(baseline)` in nanoseconds, when both were timed.
        public var change: Double?
        /// The rule's threshold in nanoseconds, when both were timed.
        public var threshold: Double?

        /// `p50(current) / p50(baseline)`, when both were timed.
        public var ratio: Double? {
            guard let a = baseline?.timing?.p50, let b = current?.timing?.p50, a > 0, a.isFinite, b.isFinite else { return nil }
            return b / a
        }

        /// True when the paired rows measured different generator seeds.
        public var seedsDiffer: Bool {
            guard let a = baseline?.seed, let b = current?.seed else { return false }
            return a != b
        }
    }

    /// The rule the timings were judged by.
    public var rule: RegressionRule
    /// Every row, sorted by family, size, backend, then seed.
    public var rows: [Row]
    /// Why the two runs may not be comparable at all: the baseline comes from another suite
    /// (its rows measure other cases or repetitions) or another machine (hostname, processors,
    /// memory). Another build of the tool is the point of a comparison, not a warning. Empty
    /// when nothing stands out. Renderers show
    /// these above the table, as hyperfine warns before its numbers.
    public var warnings: [String]

    /// Matches the rows of `current` against `baseline` and judges each pair by `rule`.
    public init(baseline: BenchReport, current: BenchReport, rule: RegressionRule = .standard) {
        self.rule = rule
        struct Key: Hashable, Comparable {
            var family: String, size: Int, backend: String
            static func < (a: Key, b: Key) -> Bool {
                (a.family, a.size, a.backend) < (b.family, b.size, b.backend)
            }
        }
        func grouped(_ results: [BenchResult]) -> [Key: [BenchResult]] {
            Dictionary(grouping: results) { Key(family: $0.family, size: $0.size, backend: $0.backend) }
                .mapValues { $0.sorted(by: BenchOrder.precedes) }
        }
        let old = grouped(baseline.results)
        let new = grouped(current.results)
        var rows: [Row] = []
        for key in Set(old.keys).union(new.keys).sorted() {
            let a = old[key] ?? [], b = new[key] ?? []
            for index in 0..<max(a.count, b.count) {
                let before = index < a.count ? a[index] : nil
                let after = index < b.count ? b[index] : nil
                rows.append(Self.row(key.family, key.size, key.backend, before, after, rule))
            }
        }
        self.rows = rows
        self.warnings = Self.warnings(baseline: baseline, current: current)
    }

    static func warnings(baseline a: BenchReport, current b: BenchReport) -> [String] {
        var warnings: [String] = []
        if a.suite != b.suite {
            warnings.append("the baseline comes from another suite (\(a.suite), this run \(b.suite)): rows may measure different cases")
        }
        let (ma, mb) = (a.machine, b.machine)
        if ma.hostname != mb.hostname || ma.processorCount != mb.processorCount || ma.physicalMemoryBytes != mb.physicalMemoryBytes {
            warnings.append("the baseline comes from another machine (\(ma.hostname), \(ma.processorCount) processors; "
                            + "this run \(mb.hostname), \(mb.processorCount) processors): timings are not comparable")
        }
        return warnings
    }

    /// Rows that count against the current run.
    public var regressions: [Row] { rows.filter { $0.verdict.isRegression } }
    /// Rows that count for the current run.
    public var improvements: [Row] { rows.filter { $0.verdict.isImprovement } }

    /// Every backend in either run, sorted.
    public var backends: [String] { Array(Set(rows.map(\.backend))).sorted() }

    /// The geometric mean of `p50(current) / p50(baseline)` over the backend's rows timed in
    /// both runs (below 1: faster overall), and how many rows it covers; nil when none.
    ///
    /// The geometric mean is the one average of ratios for which "twice as fast here, twice as
    /// slow there" comes out as no change.
    public func geometricMeanRatio(backend: String) -> (ratio: Double, rows: Int)? {
        let logs = rows.filter { $0.backend == backend }.compactMap(\.ratio).filter { $0 > 0 }.map { log($0) }
        guard !logs.isEmpty else { return nil }
        return (exp(logs.reduce(0, +) / Double(logs.count)), logs.count)
    }

    private static func row(
        _ family: String, _ size: Int, _ backend: String, _ a: BenchResult?, _ b: BenchResult?, _ rule: RegressionRule
    ) -> Row {
        var row = Row(family: family, size: size, backend: backend, baseline: a, current: b, verdict: .unchanged)
        guard let a else { row.verdict = .added; return row }
        guard let b else { row.verdict = .removed; return row }
        if a.status != b.status {
            let before = StatusRank.of(a.status), after = StatusRank.of(b.status)
            row.verdict = after < before ? .statusImprovement : .statusRegression
            return row
        }
        if let ta = a.timing, let tb = b.timing {
            row.change = tb.p50 - ta.p50
            row.threshold = rule.threshold(baseline: ta, current: tb)
            switch rule.verdict(baseline: ta, current: tb) {
            case .regression: row.verdict = .regression
            case .improvement: row.verdict = .improvement
            case .unchanged: row.verdict = .unchanged
            }
        }
        return row
    }
}

/// How good a bench status is, lower being better; unknown statuses rank with `failed`.
enum StatusRank {
    static func of(_ status: String) -> Int {
        switch status {
        case "optimal", "unsatisfiable": 0
        case "unsupported": 1
        case "budgetExceeded": 2
        default: 3
        }
    }
}

/// The one order every rendering lists bench rows in, so output is deterministic.
enum BenchOrder {
    static func precedes(_ a: BenchResult, _ b: BenchResult) -> Bool {
        (a.family, a.size, a.seed, a.backend, a.status) < (b.family, b.size, b.seed, b.backend, b.status)
    }
}
