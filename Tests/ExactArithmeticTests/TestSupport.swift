@testable import ExactArithmetic
import SeededRandom

/// A fixed-seed generator (SplitMix64) so randomised tests see the same values on every
/// run and machine; the system RNG is never used.
/// The project's SplitMix64, with draws for these tests.
extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }

    /// Uniform enough in `0..<bound` for tests (the modulo bias is irrelevant here).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Uniform enough in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    mutating func digits(_ count: Int) -> String {
        String((0..<count).map { _ in Character(String(below(10))) })
    }

    /// A nonzero digit string of `count` digits.
    mutating func nonzeroDigits(_ count: Int) -> String {
        String(int(in: 1...9)) + digits(count - 1)
    }

    /// A finite Double drawn from all bit patterns, so subnormals and extremes occur.
    mutating func finiteDouble() -> Double {
        while true {
            let value = Double(bitPattern: next())
            if value.isFinite { return value }
        }
    }

    /// A value from a mix that exercises both representations and their boundary.
    mutating func rational() -> Rational {
        switch below(9) {
        case 0:
            return Rational(int(in: -10...10))
        case 1:
            return Rational(numerator: int(in: -1000...1000), denominator: int(in: 1...1000))
        case 2:
            // Within a few units of the Int64 limits, sometimes as a fraction.
            let edge = below(2) == 0 ? Int.max - below(4) : Int.min + below(4)
            let denominator = below(2) == 0 ? 1 : int(in: 1...7)
            return Rational(numerator: edge, denominator: denominator)
        case 3:
            var denominator = Int(truncatingIfNeeded: next())
            if denominator == 0 { denominator = 1 }
            return Rational(numerator: Int(truncatingIfNeeded: next()), denominator: denominator)
        case 4:
            let text = (below(2) == 0 ? "-" : "") + nonzeroDigits(int(in: 15...45))
                + (below(2) == 0 ? "" : "/" + nonzeroDigits(int(in: 1...40)))
            return Rational(text) ?? .zero
        case 5:
            let power = Rational(exactly: Double(sign: .plus, exponent: int(in: -130...130), significand: 1)) ?? .one
            return power + Rational(int(in: -3...3))
        case 6:
            return Rational(numerator: Int(truncatingIfNeeded: next()), denominator: int(in: 1...Int.max))
                * Rational(numerator: int(in: 1...Int.max), denominator: int(in: 1...Int.max))
        case 7:
            // Full-range doubles give numerators and denominators of up to ~1100 bits.
            return Rational(exactly: finiteDouble()) ?? .zero
        default:
            return Rational(
                decimalSignificand: digits(int(in: 0...25)), exponent: int(in: -30...30),
                negative: below(2) == 0)
        }
    }
}

/// True when the value is stored inline exactly when its numerator and denominator fit in
/// Int64 — the invariant that makes equality and hashing representation-independent.
func hasCanonicalRepresentation(_ value: Rational) -> Bool {
    let parts = value.description.split(separator: "/")
    let fits = parts.allSatisfy { Int64($0) != nil }
    return value.isInline == fits
}

/// The exact distance between a Double and a rational.
func distance(_ x: Double, _ value: Rational) -> Rational {
    ((Rational(exactly: x) ?? .zero) - value).magnitude
}

/// True when `x` is the correctly rounded (nearest, ties to even) Double for `value`.
func isCorrectlyRounded(_ x: Double, _ value: Rational) -> Bool {
    let limit = Rational(exactly: Double.greatestFiniteMagnitude) ?? .zero
    // Half an ulp above the largest finite Double is where rounding reaches infinity.
    let overflowBoundary = limit + (Rational(exactly: Double.greatestFiniteMagnitude.ulp) ?? .zero) / 2
    if x.isInfinite {
        return x > 0 ? value >= overflowBoundary : value <= -overflowBoundary
    }
    if value.magnitude >= overflowBoundary { return false }
    if x == 0 && value.isZero { return true }
    if x == 0 && (x.sign == .minus) != (value.sign < 0) { return false }
    let here = distance(x, value)
    for neighbour in [x.nextUp, x.nextDown] where neighbour.isFinite {
        let there = distance(neighbour, value)
        if there < here { return false }
        // On a tie the even significand wins.
        if there == here && x.significandBitPattern & 1 == 1 { return false }
    }
    return true
}
