/// Elapsed time and the estimated time left of a long run, as progress lines show them
/// (`elapsed 1m05s, ETA 2m10s`).
///
/// The estimate assumes the remaining items cost what the finished ones did on average; a run
/// with a time limit ends at the limit at the latest, so the estimate never exceeds it.
public struct ProgressEstimate: Sendable, Equatable {
    /// Time since the run started.
    public var elapsed: Duration
    /// Time left, or nil when nothing can be said yet (no item finished, no total, no limit).
    public var remaining: Duration?

    /// - Parameters:
    ///   - completed: items finished.
    ///   - total: items in the run, nil when the run is bounded only by time (or not at all).
    ///   - elapsed: time since the start.
    ///   - timeLimit: the run's wall-clock limit, if any.
    public init(completed: Int, total: Int?, elapsed: Duration, timeLimit: Duration? = nil) {
        self.elapsed = elapsed
        var remaining: Duration?
        if let total, completed > 0 {
            let left = max(0, total - completed)
            remaining = elapsed * (Double(left) / Double(completed))
        }
        if let timeLimit {
            let untilLimit = max(.zero, timeLimit - elapsed)
            remaining = remaining.map { min($0, untilLimit) } ?? untilLimit
        }
        self.remaining = remaining
    }

    /// `elapsed 1m05s, ETA 2m10s`, or `elapsed 3s` when no estimate exists.
    public var text: String {
        "elapsed \(Self.format(elapsed))" + (remaining.map { ", ETA \(Self.format($0))" } ?? "")
    }

    /// Whole seconds, minutes and hours, as a person reads them: `42s`, `3m05s`, `2h07m`.
    public static func format(_ duration: Duration) -> String {
        let seconds = max(0, Int((Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18).rounded()))
        if seconds < 60 { return "\(seconds)s" }
        if seconds < 3600 { return "\(seconds / 60)m" + pad(seconds % 60) + "s" }
        return "\(seconds / 3600)h" + pad(seconds % 3600 / 60) + "m"
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
