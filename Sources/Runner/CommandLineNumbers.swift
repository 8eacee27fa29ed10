/// The numbers users type on the command line, read without trapping: the CLI's option
/// types wrap these, and the hostile-input test feeds them in-process.
public enum CommandLineNumbers {
    /// The largest accepted number of seconds: 30 days, far beyond any campaign, well inside
    /// `Int64` milliseconds.
    public static let maximumSeconds = 30.0 * 24 * 3600

    /// A positive, finite number of seconds no larger than ``maximumSeconds``; nil for
    /// anything else (`nan`, `inf`, `-1`, `0`, `1e300`, text).
    public static func seconds(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value > 0, value <= maximumSeconds else { return nil }
        return value
    }

    /// `seconds` as a `Duration`, rounded up to whole milliseconds (never zero).
    public static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64((min(max(seconds, 0), maximumSeconds) * 1000).rounded(.up)))
    }
}
