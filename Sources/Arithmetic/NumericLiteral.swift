/// A decimal number as written in a `.layout` file, kept exactly.
///
/// The value is `(isNegative ? -1 : 1) × significand × 10^exponent`, where `significand`
/// is a string of decimal digits with no leading or trailing zeros (empty for zero).
/// Two literals are equal when their values are equal (`1.0 == 1`), and they compare
/// by value, exactly: priorities such as `999.99999999999999999` stay below `1000`
/// although they round to the same `Double`.
///
/// Float backends read ``doubleValue`` (correctly rounded once); the exact backend builds
/// a rational from ``significand`` and ``exponent``.
public struct NumericLiteral: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// True for a value below zero. Zero is never negative.
    public let isNegative: Bool
    /// Decimal digits without leading or trailing zeros; empty for zero.
    public let significand: String
    /// The power of ten the significand is scaled by.
    public let exponent: Int
    /// The value rounded to the nearest `Double` (may be infinite for out-of-range input;
    /// the parser rejects those).
    public let doubleValue: Double

    /// The largest decimal exponent accepted when reading text; anything beyond overflows
    /// or underflows `Double` anyway and is rejected by the parser.
    static let exponentLimit = 100_000

    /// Reads a decimal literal: an optional sign, digits with an optional fraction, and an
    /// optional exponent (`-12`, `0.5`, `1e-9`, `2.`). Returns nil for anything else.
    public init?<S: StringProtocol>(parsing text: S) {
        var bytes = Array(text.utf8)[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var sawDigit = false
        var sawPoint = false
        while let b = bytes.first {
            if b >= 48 && b <= 57 {
                sawDigit = true
                digits.append(b)
                if sawPoint { fractionDigits += 1 }
            } else if b == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var expNegative = false
            if let s = bytes.first, s == UInt8(ascii: "-") || s == UInt8(ascii: "+") {
                expNegative = s == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            var sawExpDigit = false
            var magnitude = 0
            while let b = bytes.first, b >= 48 && b <= 57 {
                sawExpDigit = true
                // Saturate: the parser rejects anything this large as out of range.
                magnitude = min(magnitude * 10 + Int(b - 48), Self.exponentLimit * 10)
                bytes = bytes.dropFirst()
            }
            guard sawExpDigit else { return nil }
            exponent = expNegative ? -magnitude : magnitude
        }
        guard bytes.isEmpty else { return nil }
        self.init(negative: negative, digits: digits, exponent: exponent - fractionDigits)
    }

    /// Builds a literal from raw ASCII digits, normalising away leading and trailing zeros.
    init(negative: Bool, digits: [UInt8], exponent: Int) {
        var start = 0
        while start < digits.count && digits[start] == 48 { start += 1 }
        var end = digits.count
        var exponent = exponent
        while end > start && digits[end - 1] == 48 { end -= 1; exponent += 1 }
        let significand = String(decoding: digits[start..<end], as: UTF8.self)
        self.isNegative = negative && !significand.isEmpty
        self.significand = significand
        self.exponent = significand.isEmpty ? 0 : exponent
        self.doubleValue = Self.roundedDouble(
            negative: self.isNegative, significand: significand, exponent: self.exponent)
    }

    /// An integer literal.
    public init(_ value: Int) {
        let magnitude = value.magnitude
        self.init(negative: value < 0, digits: Array(String(magnitude).utf8), exponent: 0)
    }

    /// The shortest decimal that reads back as `value` (Swift's `description` of a Double).
    /// `value` must be finite.
    public init(_ value: Double) {
        precondition(value.isFinite, "a literal must be finite")
        // Swift prints the shortest round-tripping decimal, which always parses.
        self = NumericLiteral(parsing: "\(value)") ?? NumericLiteral(0)
    }

    /// Zero.
    public static let zero = NumericLiteral(0)
    /// One.
    public static let one = NumericLiteral(1)

    /// True when the value is zero.
    public var isZero: Bool { significand.isEmpty }

    /// True when the value is finite as a `Double` and a nonzero value did not underflow to
    /// zero. The parser rejects literals for which this is false.
    public var isRepresentable: Bool {
        doubleValue.isFinite && (isZero || doubleValue != 0)
    }

    /// The same magnitude with the opposite sign.
    public var negated: NumericLiteral {
        NumericLiteral(sign: !isNegative, significand: significand, exponent: exponent)
    }

    private init(sign negative: Bool, significand: String, exponent: Int) {
        self.isNegative = negative && !significand.isEmpty
        self.significand = significand
        self.exponent = exponent
        self.doubleValue = Self.roundedDouble(
            negative: self.isNegative, significand: significand, exponent: exponent)
    }

    /// The position of the leading digit: value magnitude lies in [10^(m-1), 10^m).
    private var magnitudeOrder: Int { significand.utf8.count + exponent }

    private static func roundedDouble(negative: Bool, significand: String, exponent: Int) -> Double {
        if significand.isEmpty { return 0 }
        let order = significand.utf8.count + exponent
        if order > 400 { return negative ? -.infinity : .infinity }
        if order < -400 { return negative ? -0.0 : 0 }
        // Swift's Double(String) is correctly rounded (strtod).
        let text = (negative ? "-" : "") + significand + "e\(exponent)"
        return Double(text) ?? (negative ? -.infinity : .infinity)
    }

    /// Canonical text: integers plainly, short fractions with a point, and anything else in
    /// scientific notation with one leading digit. Reading it back gives an equal literal.
    public var description: String {
        if significand.isEmpty { return "0" }
        let n = significand.utf8.count
        let sign = isNegative ? "-" : ""
        let order = n + exponent
        if exponent >= 0 && order <= 21 {
            return sign + significand + String(repeating: "0", count: exponent)
        }
        if exponent < 0 && order > 0 {
            let split = significand.index(significand.startIndex, offsetBy: order)
            return sign + significand[..<split] + "." + significand[split...]
        }
        if exponent < 0 && order > -6 {
            return sign + "0." + String(repeating: "0", count: -order) + significand
        }
        let head = significand.prefix(1)
        let tail = significand.dropFirst()
        return sign + head + (tail.isEmpty ? "" : "." + tail) + "e\(order - 1)"
    }

    /// Equal when every stored field is (the normal form makes that equality of values),
    /// compared numbers first: two different literals almost always differ in ``doubleValue``,
    /// and lowering compares each constraint's priority with the one before it and with the
    /// levels seen (the synthesized comparison read the digit strings first, at a call each).
    @inlinable
    public static func == (a: NumericLiteral, b: NumericLiteral) -> Bool {
        a.doubleValue == b.doubleValue && a.exponent == b.exponent && a.isNegative == b.isNegative
            && a.significand == b.significand
    }

    /// The value alone: equal literals have equal ``doubleValue``s, and hashing the double
    /// costs a fraction of hashing the digit string (lowering hashes every priority of a
    /// layout with many distinct ones).
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(doubleValue)
    }

    /// Compared by ``doubleValue`` where the two differ: rounding to nearest is monotone, so
    /// different doubles order their literals, and only equal ones (one literal, or two
    /// closer than a `Double` can tell) need the digits.
    @inlinable
    public static func < (a: NumericLiteral, b: NumericLiteral) -> Bool {
        if a.doubleValue != b.doubleValue { return a.doubleValue < b.doubleValue }
        return exactlyLess(a, b)
    }

    @usableFromInline
    static func exactlyLess(_ a: NumericLiteral, _ b: NumericLiteral) -> Bool {
        if a.isNegative != b.isNegative { return a.isNegative }
        // Same sign: compare magnitudes, flipped for negatives.
        let magnitudeLess = Self.magnitudeLess(a, b)
        let magnitudeGreater = Self.magnitudeLess(b, a)
        return a.isNegative ? magnitudeGreater : magnitudeLess
    }

    private static func magnitudeLess(_ a: NumericLiteral, _ b: NumericLiteral) -> Bool {
        if a.isZero || b.isZero { return a.isZero && !b.isZero }
        if a.magnitudeOrder != b.magnitudeOrder { return a.magnitudeOrder < b.magnitudeOrder }
        // Same order of magnitude: digit strings compare lexicographically (shorter = padded
        // with zeros, which sorts first).
        return a.significand.utf8.lexicographicallyPrecedes(b.significand.utf8)
    }
}

extension NumericLiteral: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let value = NumericLiteral(parsing: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not a decimal literal: \(text)")
            }
            self = value
        } else {
            let value = try container.decode(Double.self)
            guard value.isFinite else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "not a finite number")
            }
            self = NumericLiteral(value)
        }
    }

    /// Encoded as its canonical text, so that no precision is lost in JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
