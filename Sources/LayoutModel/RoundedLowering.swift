/// Lowering straight to `Double` rows whose numbers are the exact lowering's, each rounded once.
///
/// A float backend must see every coefficient as the exact rational rounded to the nearest
/// `Double` once (`lowered(as: Rational.self).mapScalars(\.doubleValue)`), not as a chain of
/// roundings. Most numbers in real layouts (integers, halves, quarters) are exact in binary, and
/// lowering them in `Double` then rounds nothing: the result *is* the exact value. So each row
/// is computed in `Double` with every step checked for exactness (``CheckedDouble``), and
/// only a row where some number rounded goes through exact arithmetic.
extension ConstraintSystem {
    /// Every constraint lowered to `Double` rows, each number the exact lowering's rounded to
    /// the nearest `Double` once: the same rows as an exact lowering mapped to `Double`.
    ///
    /// A row whose literals are all exactly representable and whose sums and products all
    /// stay exact is computed in `Double` alone. Any other row is handed to `exactRow`
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
        for (index, constraint) in constraints.enumerated() {
            let level = levelOf[constraint.priority] ?? 0
            let checked: LinearRow<CheckedDouble> = lower(constraint, index: index, level: level)
            if checked.constant.isExact && checked.terms.allSatisfy({ $0.coefficient.isExact }) {
                rows.append(LinearRow(
                    terms: checked.terms.map { LinearTerm(variable: $0.variable, coefficient: $0.coefficient.value) },
                    // An exact zero is +0, as the exact value's rounding gives.
                    constant: checked.constant.value == 0 ? 0 : checked.constant.value,
                    relation: checked.relation, level: level, constraintIndex: index))
            } else {
                rows.append(exactRow(constraint, index, level))
            }
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
