/// Lowering straight to `Double` rows whose numbers are the exact lowering's, each rounded once.
///
/// A float backend must see every coefficient as the exact rational rounded to the nearest
/// `Double` once (`lowered(as: Rational.self).mapScalars(\.doubleValue)`), not as a chain of
/// roundings. Most numbers in real layouts (integers, halves, quarters) are exact in binary, and
/// lowering them in `Double` then rounds nothing: the result *is* the exact value. So each row
/// is computed in `Double` with every step checked for exactness (``CheckedDouble``); a row
/// where some number rounded is computed again in fractions of 64-bit integers
/// (``SmallFraction``, enough for decimals such as 0.1 and 2.1) and rounded once; only what
/// overflows those goes through the caller's exact arithmetic.
extension ConstraintSystem {
    /// Every constraint lowered to `Double` rows, each number the exact lowering's rounded to
    /// the nearest `Double` once: the same rows as an exact lowering mapped to `Double`.
    ///
    /// A row whose literals are all exactly representable and whose sums and products all
    /// stay exact is computed in `Double` alone; one whose numbers are fractions of integers
    /// below 2⁵³ once reduced, in such fractions. Any other row is handed to `exactRow`
    /// (constraint, its index, its level), which must lower it exactly and round each number
    /// once; `Rational` lives above this module, hence the closure.
    public func loweredRoundingOnce(
        exactRow: (_ constraint: Constraint, _ index: Int, _ level: Int) -> LinearRow<Double>
    ) -> LinearSystem<Double> {
        let levels = optionalLevels
        var levelOf: [Priority: Int] = [:]
        for (k, p) in levels.enumerated() { levelOf[p] = k + 1 }
        var rows: [LinearRow<Double>] = []
        rows.reserveCapacity(constraints.count)
        var checked: [LinearTerm<CheckedDouble>] = []
        var fractions: [LinearTerm<SmallFraction>] = []
        checked.reserveCapacity(16)
        fractions.reserveCapacity(16)
        for (index, constraint) in constraints.enumerated() {
            let level = constraint.priority.isRequired ? 0 : levelOf[constraint.priority] ?? 0
            let constant = lowerTerms(constraint, index: index, into: &checked)
            if constant.isExact && checked.allSatisfy({ $0.coefficient.isExact }) {
                rows.append(LinearRow(
                    terms: checked.map { LinearTerm(variable: $0.variable, coefficient: $0.coefficient.value) },
                    // An exact zero is +0, as the exact value's rounding gives.
                    constant: constant.value == 0 ? 0 : constant.value,
                    relation: constraint.relation, level: level, constraintIndex: index))
                continue
            }
            // Decimals such as 0.1: exact in small fractions, each rounded once at the end.
            let fractionConstant = lowerTerms(constraint, index: index, into: &fractions)
            if let constant = fractionConstant.roundedDouble, fractions.allSatisfy({ $0.coefficient.roundedDouble != nil }) {
                rows.append(LinearRow(
                    terms: fractions.map { LinearTerm(variable: $0.variable, coefficient: $0.coefficient.roundedDouble ?? 0) },
                    constant: constant, relation: constraint.relation, level: level, constraintIndex: index))
                continue
            }
            rows.append(exactRow(constraint, index, level))
        }
        return LinearSystem(variableCount: variableCount, rows: rows, levels: levels)
    }

    /// The largest magnitude among the numbers lowering reads: multipliers, constants, row
    /// scales, the root's frame, margins and baselines (each as its nearest `Double`).
    ///
    /// Every lowered coefficient is `(a + b·m)·k` over a constraint's multiplier `m` and row
    /// scale `k` with small integers and halves `a`, `b`, and every constant a short sum of
    /// such factors times one more number; so when this is at most 2²⁵⁰, every number of
    /// the `Double` lowering is finite, and no lowering is needed to know it.
    public var largestLiteralMagnitude: Double {
        var largest = 0.0
        func include(_ literal: NumericLiteral) { largest = max(largest, literal.doubleValue.magnitude) }
        for constraint in constraints {
            include(constraint.multiplier)
            include(constraint.constant)
        }
        for scale in rowScales.values { include(scale) }
        for item in items {
            item.frame?.forEach(include)
            include(item.margins.top)
            include(item.margins.left)
            include(item.margins.bottom)
            include(item.margins.right)
            if let baselines = item.baselines {
                include(baselines.first)
                include(baselines.last)
            }
        }
        return largest
    }
}

extension NumericLiteral {
    /// Whether ``doubleValue`` is exactly the literal's value. Decided for significands of up
    /// to 15 digits (below 2⁵³); longer ones count as inexact, which only sends their rows
    /// through exact arithmetic.
    var doubleValueIsExact: Bool {
        if isZero { return true }
        let digits = significand.utf8
        guard digits.count <= 15 else { return false }
        // An integer below 10¹⁵ < 2⁵³.
        if exponent >= 0 { return digits.count + exponent <= 15 }
        // s / 10ᵏ = (s / 5ᵏ) / 2ᵏ is a double exactly when 5ᵏ divides s (then s / 5ᵏ < 2⁵³,
        // and k ≤ 21 keeps it far from underflow).
        let k = -exponent
        guard k <= 21 else { return false }
        var s: UInt64 = 0
        for digit in digits { s = s &* 10 &+ UInt64(digit &- 48) }
        var power: UInt64 = 1
        for _ in 0..<k { power &*= 5 }
        return s % power == 0
    }
}

/// A `Double` that knows whether it is still the exact value of what it computes: literals
/// exactly representable, and every sum, product and quotient exact (checked with an
/// error-free transformation: TwoSum, or a fused multiply-add for the product's error).
struct CheckedDouble: LinearScalar {
    var value: Double
    var isExact: Bool

    @inline(__always)
    init(_ value: Double, exact: Bool) {
        self.value = value
        self.isExact = exact && value.isFinite
    }

    static var zero: CheckedDouble { CheckedDouble(0, exact: true) }
    static var one: CheckedDouble { CheckedDouble(1, exact: true) }

    init(literal: NumericLiteral) {
        self.init(literal.doubleValue, exact: literal.doubleValueIsExact)
    }

    init(integer: Int) {
        let value = Double(integer)
        self.init(value, exact: Int(exactly: value) == integer)
    }

    /// Below this magnitude a product's or quotient's rounding error might underflow and
    /// look like zero.
    private static let safeMagnitude = 0x1p-900

    @inline(__always)
    static func + (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let sum = a.value + b.value
        // TwoSum: the rounding error of the sum, exactly (an infinity makes it NaN).
        let bVirtual = sum - a.value
        let error = (a.value - (sum - bVirtual)) + (b.value - bVirtual)
        return CheckedDouble(sum, exact: a.isExact && b.isExact && error == 0)
    }

    @inline(__always)
    static func - (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble { a + (-b) }

    @inline(__always)
    static func * (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let product = a.value * b.value
        let exact: Bool
        if product == 0 {
            exact = a.value == 0 || b.value == 0
        } else {
            exact = product.magnitude >= safeMagnitude && (-product).addingProduct(a.value, b.value) == 0
        }
        return CheckedDouble(product, exact: a.isExact && b.isExact && exact)
    }

    @inline(__always)
    static func / (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let quotient = a.value / b.value
        let exact: Bool
        if quotient == 0 {
            exact = a.value == 0 && b.value != 0
        } else {
            // The remainder a − q·b is exact in a fused multiply-add while q and b are not tiny.
            exact = quotient.magnitude >= 0x1p-400 && b.value.magnitude >= 0x1p-400
                && (-a.value).addingProduct(quotient, b.value) == 0
        }
        return CheckedDouble(quotient, exact: a.isExact && b.isExact && exact)
    }

    @inline(__always)
    static prefix func - (operand: CheckedDouble) -> CheckedDouble {
        CheckedDouble(-operand.value, exact: operand.isExact)
    }

    var isZero: Bool { value == 0 }
    var doubleValue: Double { value }
}

/// An exact fraction of 64-bit integers, or a mark that one did not fit (after which every
/// result is unrepresentable too). Lowest terms, positive denominator.
struct SmallFraction: LinearScalar {
    var numerator: Int64
    var denominator: Int64
    /// False once a numerator or denominator overflowed.
    var fits: Bool

    @inline(__always)
    init(numerator: Int64, denominator: Int64, fits: Bool = true) {
        self.numerator = numerator
        self.denominator = denominator
        self.fits = fits
    }

    static let unrepresentable = SmallFraction(numerator: 0, denominator: 1, fits: false)

    static var zero: SmallFraction { SmallFraction(numerator: 0, denominator: 1) }
    static var one: SmallFraction { SmallFraction(numerator: 1, denominator: 1) }

    init(integer: Int) { self.init(numerator: Int64(integer), denominator: 1) }

    /// ±significand × 10^exponent, when that fits.
    init(literal: NumericLiteral) {
        let digits = literal.significand.utf8
        guard digits.count <= 18, literal.exponent.magnitude <= 18 else {
            self = literal.isZero ? .zero : .unrepresentable
            return
        }
        var s: Int64 = 0
        for digit in digits { s = s * 10 + Int64(digit &- 48) }
        var power: Int64 = 1
        for _ in 0..<literal.exponent.magnitude { power *= 10 }
        if literal.isNegative { s = -s }
        if literal.exponent >= 0 {
            let (n, overflow) = s.multipliedReportingOverflow(by: power)
            self = overflow ? .unrepresentable : SmallFraction(numerator: n, denominator: 1)
        } else {
            self = SmallFraction.reduced(s, power)
        }
    }

    /// n/d in lowest terms (d > 0).
    @inline(__always)
    static func reduced(_ n: Int64, _ d: Int64) -> SmallFraction {
        if n == 0 { return .zero }
        let g = gcd(n.magnitude, d.magnitude)
        return SmallFraction(numerator: n / Int64(g), denominator: d / Int64(g))
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    static func + (a: SmallFraction, b: SmallFraction) -> SmallFraction {
        guard a.fits && b.fits else { return .unrepresentable }
        if a.denominator == b.denominator {
            let (n, overflow) = a.numerator.addingReportingOverflow(b.numerator)
            return overflow ? .unrepresentable : reduced(n, a.denominator)
        }
        let (x, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
        let (y, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
        let (n, o3) = x.addingReportingOverflow(y)
        let (d, o4) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        return o1 || o2 || o3 || o4 ? .unrepresentable : reduced(n, d)
    }

    static func - (a: SmallFraction, b: SmallFraction) -> SmallFraction { a + (-b) }

    static func * (a: SmallFraction, b: SmallFraction) -> SmallFraction {
        guard a.fits && b.fits else { return .unrepresentable }
        let (n, o1) = a.numerator.multipliedReportingOverflow(by: b.numerator)
        let (d, o2) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        return o1 || o2 ? .unrepresentable : reduced(n, d)
    }

    static func / (a: SmallFraction, b: SmallFraction) -> SmallFraction {
        guard b.fits, b.numerator != 0 else { return .unrepresentable }
        let reciprocal = b.numerator > 0
            ? SmallFraction(numerator: b.denominator, denominator: b.numerator)
            : SmallFraction(numerator: -b.denominator, denominator: -b.numerator)
        return a * reciprocal
    }

    static prefix func - (operand: SmallFraction) -> SmallFraction {
        guard operand.fits, operand.numerator != .min else { return .unrepresentable }
        return SmallFraction(numerator: -operand.numerator, denominator: operand.denominator)
    }

    var isZero: Bool { fits && numerator == 0 }

    /// The nearest `Double`, when both parts are exact in `Double` (then IEEE division rounds
    /// the exact quotient once); nil otherwise (or when the fraction did not fit).
    var roundedDouble: Double? {
        guard fits, numerator.magnitude <= 1 << 53, denominator <= 1 << 53 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    var doubleValue: Double { roundedDouble ?? .nan }
}
