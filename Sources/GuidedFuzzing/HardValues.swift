import LayoutModel

/// The menus of numbers the decoder picks from: the values that break floating-point
/// layout solvers (non-dyadic decimals, near-ties, powers of ten, near-equal priorities,
/// typical intrinsic sizes), so that a byte of input is one meaningful choice rather than
/// one of 2⁶⁴ doubles. Each menu's first entry is the value a missing byte (end of input)
/// stands for. Any other decimal is spelt as a literal (``GuidedCaseDecoder``).
public enum HardValues {
    /// Constants and root frame components.
    public static let constants: [NumericLiteral] = literals([
        "0", "8", "20", "100", "375", "667", "0.1", "0.2", "0.3", "0.7", "1", "-1", "-8", "-20", "16.5", "44",
        "1e-9", "1e-6", "1e-3", "1e3", "1e6", "1e9", "1e-12", "1e12", "0.30000000000000004", "99.9999999",
        "100.0000001", "333.3333333", "12.34", "-0.1", "1.5", "2.5", "0.5", "1e-7", "999999999999.9", "123456.789",
    ])
    /// Multipliers (zero is left out: on a position attribute it breaks V5).
    public static let multipliers: [NumericLiteral] = literals([
        "1", "2", "0.5", "-1", "0.1", "3", "0.3333333", "1.0000001", "0.9999999", "1e-3", "1e3", "1e-6", "1e6",
        "7", "-0.5", "0.25", "1.5", "10", "0.01", "100",
    ])
    /// Priorities, all in (0, 1000]; required first.
    public static let priorities: [NumericLiteral] = literals([
        "1000", "999", "999.9999", "999.999999999", "750", "750.0001", "749.9999", "251", "250", "250.0000001",
        "500", "500.5", "50", "1", "0.001", "999.5", "998", "750.5", "249", "1e-6",
    ])
    /// Intrinsic sizes, margins and baseline offsets (non-negative).
    public static let sizes: [NumericLiteral] = literals([
        "21", "0", "44", "120", "17.333", "8", "20.5", "1e6", "0.1", "1e-9", "375", "99.9999999", "3",
    ])

    static func literals(_ texts: [String]) -> [NumericLiteral] {
        texts.map { text in
            guard let value = NumericLiteral(parsing: text) else { preconditionFailure("menu literal \(text) parses") }
            return value
        }
    }
}

/// What a number stands for, so that decoding can keep it valid there.
public enum NumberRole: Sendable, CaseIterable {
    case constant, multiplier, priority, size

    /// The menu of hard values for this role.
    public var menu: [NumericLiteral] {
        switch self {
        case .constant: return HardValues.constants
        case .multiplier: return HardValues.multipliers
        case .priority: return HardValues.priorities
        case .size: return HardValues.sizes
        }
    }

    /// The magnitudes numbers of this role keep (zero aside): 1e-12 to 1e12, multipliers
    /// 1e-9 to 1e9 (as the generator's extreme-constants family). Beyond them (multipliers of
    /// 7.49e11, 1e21, 7e32) the float backend gives wrong answers the first minute of
    /// fuzzing finds, in systems no layout has (docs/fuzzing.md, "Coverage-guided fuzzing").
    public var magnitudes: ClosedRange<Double> {
        self == .multiplier ? 1e-9...1e9 : 1e-12...1e12
    }

    /// Whether a literal may stand in this role: representable as a `Double` and in the byte
    /// form (at most 31 significant digits, an exponent that fits a signed byte), zero or of
    /// a magnitude in ``magnitudes``, priorities in (0, 1000], sizes not negative,
    /// multipliers not zero.
    public func admits(_ value: NumericLiteral) -> Bool {
        guard value.isRepresentable, value.significand.count <= GuidedLimits.literalDigits,
              Int(Int8.min)...Int(Int8.max) ~= value.exponent,
              value.isZero || magnitudes ~= abs(value.doubleValue)
        else { return false }
        switch self {
        case .constant: return true
        case .multiplier: return !value.isZero
        case .priority: return !value.isNegative && !value.isZero && value <= NumericLiteral(1000)
        case .size: return !value.isNegative
        }
    }
}
