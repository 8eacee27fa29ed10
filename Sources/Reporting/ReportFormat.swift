import Foundation

/// Deterministic, locale-free number formatting shared by every rendering.
///
/// Reports are diffed (snapshot tests, pull-request comments, nightly summaries), so the same
/// value must always print the same way: fixed decimals, POSIX digits, no negative zero, and a
/// visible placeholder instead of `nan` or `inf` from a malformed document.
public enum ReportFormat {
    /// What a missing or non-finite value prints as.
    public static let missing = "–"

    /// `value` with exactly `decimals` digits after the point (0...9), never `-0.00`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return missing }
        let places = min(max(decimals, 0), 9)
        let text = String(format: "%.\(places)f", value)
        // A tiny negative value rounds to "-0.00"; the sign carries no information there.
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) {
            return String(text.dropFirst())
        }
        return text
    }

    /// Three significant digits without exponent: `1.23`, `12.3`, `123`, `1234`.
    public static func significant(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        let magnitude = abs(value)
        // Decide on the rounded value so that 9.996 prints as "10.0", not "10.00".
        if (magnitude * 100).rounded() / 100 < 10 { return fixed(value, decimals: 2) }
        if (magnitude * 10).rounded() / 10 < 100 { return fixed(value, decimals: 1) }
        return fixed(value, decimals: 0)
    }

    /// A duration given in nanoseconds, in the largest unit that keeps it at least 1:
    /// `850 ns`, `1.23 µs`, `45.6 ms`, `2.00 s`.
    public static func duration(nanoseconds value: Double) -> String {
        guard value.isFinite else { return missing }
        let magnitude = abs(value)
        if magnitude < 999.5 { return fixed(value, decimals: 0) + " ns" }
        if magnitude < 999_500 { return significant(value / 1e3) + " µs" }
        if magnitude < 999_500_000 { return significant(value / 1e6) + " ms" }
        return significant(value / 1e9) + " s"
    }

    /// A duration given in seconds (wall times of whole runs).
    public static func duration(seconds value: Double) -> String {
        duration(nanoseconds: value * 1e9)
    }

    /// A signed relative change, `+12.3%` or `-4.0%`.
    public static func percentChange(_ ratio: Double) -> String {
        guard ratio.isFinite else { return missing }
        let text = fixed(ratio * 100, decimals: 1)
        return (text.hasPrefix("-") || text == "0.0" ? text : "+" + text) + "%"
    }

    /// A byte count in binary units: `512 B`, `1.50 KiB`, `12.3 MiB`, `1.00 GiB`.
    public static func bytes(_ value: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var scaled = Double(value)
        var unit = 0
        while scaled >= 1023.5, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        return (unit == 0 ? String(value) : significant(scaled)) + " " + units[unit]
    }

    /// A small or large magnitude in scientific notation with three significant digits:
    /// `3.13e-11`, `1.00e-9` (perturbation sizes, distances to infeasibility).
    public static func scientific(_ value: Double) -> String {
        guard value.isFinite else { return missing }
        if value == 0 { return "0" }
        var text = String(format: "%.2e", value)
        // "3.13e-11" rather than "3.13e-011" on platforms that pad the exponent.
        if let e = text.firstIndex(of: "e") {
            var exponent = String(text[text.index(after: e)...])
            let sign = exponent.hasPrefix("-") ? "-" : ""
            exponent = String(exponent.drop { $0 == "-" || $0 == "+" || $0 == "0" })
            text = String(text[..<e]) + "e" + sign + (exponent.isEmpty ? "0" : exponent)
        }
        return text
    }

    /// A growth exponent as the legend shows it: `n^1.12`.
    public static func exponent(_ value: Double) -> String {
        "n^" + fixed(value, decimals: 2)
    }

    /// A tick label for `mantissa × 10^decade` on the size axis: `1`, `20`, `500`, `1k`, `50k`, `2M`.
    static func sizeTick(mantissa: Int, decade: Int) -> String {
        guard decade >= 0, decade < 12 else { return "\(mantissa)e\(decade)" }
        let (base, suffix) = decade >= 9 ? (9, "G") : decade >= 6 ? (6, "M") : decade >= 3 ? (3, "k") : (0, "")
        return String(mantissa) + String(repeating: "0", count: decade - base) + suffix
    }

    /// A tick label for `mantissa × 10^decade` nanoseconds: `1 ns`, `20 µs`, `500 ms`, `2 s`.
    static func timeTick(mantissa: Int, decade: Int) -> String {
        guard decade >= 0 else { return "\(mantissa)e\(decade) ns" }
        guard decade < 12 else { return "\(mantissa)e\(decade - 9) s" }
        let (base, unit) = decade >= 9 ? (9, "s") : decade >= 6 ? (6, "ms") : decade >= 3 ? (3, "µs") : (0, "ns")
        return String(mantissa) + String(repeating: "0", count: decade - base) + " " + unit
    }
}
