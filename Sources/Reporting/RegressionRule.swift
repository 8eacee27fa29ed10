/// When a change in median solve time counts as a regression rather than noise.
///
/// With `spread = p90 − p50` of a run (how far its slow tail reaches above its median) and
/// `Δ = p50(current) − p50(baseline)`:
///
///     threshold = max(spread(baseline), spread(current), minimumRelativeChange · p50(baseline))
///     regression   ⇔  Δ >  threshold
///     improvement  ⇔  Δ < −threshold
///
/// A median has to move further than either run's own spread before the move is believed;
/// the relative floor keeps a pair of very steady runs (or single-sample runs, whose spread is
/// 0) from flagging a change of a few percent that any scheduler hiccup produces.
public struct RegressionRule: Sendable, Hashable {
    /// The smallest change, as a fraction of the baseline median, that can ever count.
    public var minimumRelativeChange: Double

    /// The default: a 5 % floor.
    public static let standard = RegressionRule()

    /// A rule with the given relative floor (0.05 = 5 %); a negative or non-finite floor
    /// counts as 0 or the default respectively.
    public init(minimumRelativeChange: Double = 0.05) {
        self.minimumRelativeChange = minimumRelativeChange.isFinite ? max(0, minimumRelativeChange) : 0.05
    }

    /// What a timing change is, under this rule.
    public enum Verdict: String, Sendable, Hashable {
        case regression, improvement, unchanged
    }

    /// `p90 − p50`, never negative (a malformed document may have them swapped).
    @inlinable
    public static func spread(_ timing: TimingSummary) -> Double {
        max(0, timing.p90 - timing.p50)
    }

    /// The amount (in nanoseconds) by which the median has to move to count; nil when either
    /// summary has a non-finite or non-positive median, so there is nothing to compare.
    public func threshold(baseline: TimingSummary, current: TimingSummary) -> Double? {
        guard Self.isComparable(baseline), Self.isComparable(current) else { return nil }
        return max(Self.spread(baseline), Self.spread(current), minimumRelativeChange * baseline.p50)
    }

    /// Classifies the change from `baseline` to `current`; `unchanged` when not comparable.
    public func verdict(baseline: TimingSummary, current: TimingSummary) -> Verdict {
        guard let threshold = threshold(baseline: baseline, current: current) else { return .unchanged }
        let change = current.p50 - baseline.p50
        if change > threshold { return .regression }
        if change < -threshold { return .improvement }
        return .unchanged
    }

    private static func isComparable(_ timing: TimingSummary) -> Bool {
        timing.p50.isFinite && timing.p90.isFinite && timing.p50 > 0
    }
}
