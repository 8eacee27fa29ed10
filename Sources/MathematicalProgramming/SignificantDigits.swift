import ExactArithmetic
import Foundation

/// Decimal renderings of exact values, and the comparison with published optima that are
/// printed to a fixed number of significant digits (Koch's Netlib values have 32).
public enum SignificantDigits {
    /// `value` rounded half away from zero to `digits` significant digits, written
    /// `±0.d₁d₂…dₙe±E` as Koch's tables write it (zero is `0`).
    public static func scientific(_ value: Rational, digits: Int = 32) -> String {
        precondition(digits > 0)
        if value.isZero { return "0" }
        var magnitude = value.magnitude
        var exponent = decimalExponent(of: magnitude)
        // Round once: add half a unit in the last place, then truncate.
        magnitude += power(of10: exponent - digits) / 2
        exponent = decimalExponent(of: magnitude)
        var remainder = magnitude / power(of10: exponent)  // in [0.1, 1)
        var text = value.sign < 0 ? "-0." : "0."
        for _ in 0..<digits {
            remainder *= 10
            var digit = 9
            while digit > 0 && Rational(digit) > remainder { digit -= 1 }
            remainder -= Rational(digit)
            text.append(Character(String(digit)))
        }
        return text + "e\(exponent)"
    }

    /// True when `value` rounded to `digits` significant digits equals `published`, a value
    /// already printed with at most that many (a tie in the rounding counts as equal).
    public static func matches(_ value: Rational, published: Rational, digits: Int = 32) -> Bool {
        if published.isZero { return value.isZero }
        // Both scaled so that `published` is an integer of at most `digits` digits.
        let exponent = decimalExponent(of: published.magnitude)
        let scale = power(of10: digits - exponent)
        let difference = (value - published) * scale
        return difference.magnitude <= Rational(numerator: 1, denominator: 2)
    }

    /// The `E` with `10^(E−1) ≤ magnitude < 10^E`, for a positive magnitude.
    public static func decimalExponent(of magnitude: Rational) -> Int {
        precondition(magnitude.sign > 0)
        // Start from the Double estimate and correct it exactly.
        let estimate = magnitude.doubleValue
        var exponent = estimate.isFinite && estimate > 0 ? Int((log10(estimate)).rounded(.down)) + 1 : 0
        while power(of10: exponent - 1) > magnitude { exponent -= 1 }
        while power(of10: exponent) <= magnitude { exponent += 1 }
        return exponent
    }

    /// 10^exponent exactly.
    public static func power(of10 exponent: Int) -> Rational {
        let ten = Rational(decimalSignificand: "1", exponent: exponent, negative: false)
        return ten
    }
}
