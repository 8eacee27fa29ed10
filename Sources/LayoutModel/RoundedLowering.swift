/// Lowering straight to `Double` rows whose numbers are the exact lowering's, each rounded once.
///
/// A float backend must see every coefficient as the exact rational rounded to the nearest
/// `Double` once (`lowered(as: Rational.self).mapScalars(\.doubleValue)`), not as a chain of
/// roundings. Most numbers of real layouts come out of lowering either exact in binary
/// (integers, halves) or as one literal that rounded once (a gap of 0.2, a width of 2.1,
/// possibly negated or halved). So each row is first computed in `Double`, tracking whether
/// every number is still exact or rounded once (``CheckedDouble``); a row where that is lost
/// (8 − 0.3 rounds twice) is computed exactly in fractions of 64-bit integers
/// (``SmallFraction``) and each number rounded once at the end; only what overflows those
/// goes through the caller's exact arithmetic.
extension ConstraintSystem {
    /// Every constraint lowered to `Double` rows, each number the exact lowering's rounded to
    /// the nearest `Double` once: the same rows as an exact lowering mapped to `Double`.
    ///
    /// A row computed in `Double` whose every number is exact or one literal rounded once is
    /// taken as it is; else one whose numbers are fractions of integers below 2⁵³ once
    /// reduced is computed in such fractions. Any other row is handed to `exactRow`
    /// (the constraint's index, its level), which must lower it exactly and round each number
    /// once; `Rational` lives above this module, hence the closure.
    public func loweredRoundingOnce(exactRow: (_ index: Int, _ level: Int) -> LinearRow<Double>) -> LinearSystem<Double> {
        pooledRoundingOnce(exactRow: exactRow).unpooled
    }

    /// ``loweredRoundingOnce(exactRow:)``'s rows in one term pool: the same numbers, a few
    /// allocations in all instead of one per row.
    public func pooledRoundingOnce(exactRow: (_ index: Int, _ level: Int) -> LinearRow<Double>) -> PooledLinearSystem {
        let (levels, levelOf) = levelOfEachConstraint()
        var rows: [PooledLinearSystem.Row] = []
        rows.reserveCapacity(constraints.count)
        var pool: [LinearTerm<Double>] = []
        // Most rows have two or three terms.
        pool.reserveCapacity(3 * constraints.count)
        var fractions = LoweredTerms<SmallFraction>()
        var checked = LoweredTerms<CheckedDouble>()
        var plain = LoweredTerms<Double>()
        // Optional once: wrapping it per call copied its arrays (a retain and a release each), per row.
        let ancestry: ItemAncestry? = ItemAncestry(self)
        let itemLiteralsAreShortDyadic = itemLiteralsAreShortDyadic
        for index in constraints.indices {
            let level = Int(levelOf[index])
            let start = pool.count
            let constant: Double
            if itemLiteralsAreShortDyadic && rowIsShortDyadic(index) {
                // Exact in plain `Double` (see `NumericLiteral.isShortDyadic`): no tracking needed.
                let exact = lowerTerms(
                    constraints[index].first, constraints[index].second, multiplier: constraints[index].multiplier,
                    constant: constraints[index].constant, index: index, ancestry: ancestry, into: &plain)
                for i in 0..<plain.count { pool.append(plain[i]) }
                // An exact zero is +0, as the exact value's rounding gives.
                constant = exact == 0 ? 0 : exact
            } else if let rounded = appendRoundedOnceRow(
                index, ancestry: ancestry, to: &pool, checked: &checked, fractions: &fractions) {
                constant = rounded
            } else {
                let row = exactRow(index, level)
                pool.append(contentsOf: row.terms)
                constant = row.constant
            }
            rows.append(PooledLinearSystem.Row(
                start: start, count: pool.count - start, constant: constant, relation: constraints[index].relation,
                level: level, constraintIndex: index))
        }
        return PooledLinearSystem(variableCount: variableCount, rows: rows, terms: pool, levels: levels)
    }

    /// Constraint `index` lowered at `level` as ``loweredRoundingOnce(exactRow:)`` lowers it
    /// (each number the exact lowering's rounded to `Double` once), for a caller that lowers
    /// a few rows anew (an incremental driver, each pass); nil where only exact arithmetic
    /// gives that row (the caller then lowers it exactly and rounds).
    public func loweredRoundingOnce(_ index: Int, level: Int) -> LinearRow<Double>? {
        var checked = LoweredTerms<CheckedDouble>()
        var fractions = LoweredTerms<SmallFraction>()
        var terms: [LinearTerm<Double>] = []
        guard let constant = appendRoundedOnceRow(
            index, ancestry: nil, to: &terms, checked: &checked, fractions: &fractions) else { return nil }
        return LinearRow(terms: terms, constant: constant, relation: constraints[index].relation, level: level, constraintIndex: index)
    }

    /// One row of ``loweredRoundingOnce(exactRow:)``, its terms appended to `pool` and its
    /// constant returned: in checked `Double`, else in small fractions; nil (and nothing
    /// appended) when neither keeps every number rounded once.
    ///
    /// The constraint is read in place by its index: one copied out of the array costs a
    /// retain and a release of each of its literals, per row.
    private func appendRoundedOnceRow(
        _ index: Int, ancestry: ItemAncestry?, to pool: inout [LinearTerm<Double>],
        checked: inout LoweredTerms<CheckedDouble>, fractions: inout LoweredTerms<SmallFraction>
    ) -> Double? {
        let constant = lowerTerms(
            constraints[index].first, constraints[index].second, multiplier: constraints[index].multiplier,
            constant: constraints[index].constant, index: index, ancestry: ancestry, into: &checked)
        // By index: iterating the inline terms as a collection copies them.
        var roundedOnce = constant.isRoundedOnce
        for i in 0..<checked.count where !checked[i].coefficient.isRoundedOnce { roundedOnce = false }
        if roundedOnce {
            for i in 0..<checked.count {
                pool.append(LinearTerm(variable: checked[i].variable, coefficient: checked[i].coefficient.value))
            }
            // An exact zero is +0, as the exact value's rounding gives.
            return constant.value == 0 ? 0 : constant.value
        }
        // Several roundings (0.1 + 8, 1 − 0.3): exact in small fractions, rounded once at the end.
        let fractionConstant = lowerTerms(
            constraints[index].first, constraints[index].second, multiplier: constraints[index].multiplier,
            constant: constraints[index].constant, index: index, ancestry: ancestry, into: &fractions)
        guard let rounded = fractionConstant.roundedDouble else { return nil }
        for i in 0..<fractions.count where fractions[i].coefficient.roundedDouble == nil { return nil }
        for i in 0..<fractions.count {
            pool.append(LinearTerm(variable: fractions[i].variable, coefficient: fractions[i].coefficient.roundedDouble ?? 0))
        }
        return rounded
    }

    /// Whether every literal of the items (the root's frame, margins, baselines) is a short
    /// dyadic number (``NumericLiteral/isShortDyadic``): then a row whose own multiplier and
    /// constant are too, and which has no row scale, lowers exactly in plain `Double`.
    var itemLiteralsAreShortDyadic: Bool {
        for index in items.indices {
            if let frame = items[index].frame {
                for literal in frame where !literal.isShortDyadic { return false }
            }
            // Read in place: a copy of the margins retains and releases four literals.
            guard items[index].margins.top.isShortDyadic, items[index].margins.left.isShortDyadic,
                items[index].margins.bottom.isShortDyadic, items[index].margins.right.isShortDyadic else { return false }
            if let baselines = items[index].baselines, !baselines.first.isShortDyadic || !baselines.last.isShortDyadic {
                return false
            }
        }
        return true
    }

    /// Whether constraint `index` lowers exactly in plain `Double` once the items' literals do:
    /// its multiplier and constant short dyadic numbers, and no row scale.
    ///
    /// Every number of such a row is exact: a coefficient sums at most six terms ±1, ±½, ±m,
    /// ±½m (multiples of 2⁻⁷ below 2¹⁹ in magnitude), and the constant sums items' literals
    /// halved or not, times at most m once, and the constant (multiples of 2⁻¹³ below 2³⁶):
    /// every partial sum and product fits a 53-bit significand.
    @inline(__always)
    func rowIsShortDyadic(_ index: Int) -> Bool {
        constraints[index].multiplier.isShortDyadic && constraints[index].constant.isShortDyadic
            && (rowScales.isEmpty || rowScales[index] == nil)
    }

    /// The largest magnitude among the numbers lowering reads: multipliers, constants, row
    /// scales, the root's frame, margins and baselines (each as its nearest `Double`).
    ///
    /// Every lowered coefficient is `(a + b·m)·k` over a constraint's multiplier `m` and row
    /// scale `k` with small integers and halves `a`, `b`, and every constant a short sum of
    /// such factors times one more number; so when this is at most 2²⁵⁰, every number of
    /// the `Double` lowering is finite, and no lowering is needed to know it.
    public var largestLiteralMagnitude: Double {
        // By index, reading each literal in place: `for constraint in constraints` copied
        // every constraint (a retain and a release per literal), a fifth of a lowering's cost.
        var largest = 0.0
        for index in constraints.indices {
            largest = max(
                largest, constraints[index].multiplier.doubleValue.magnitude, constraints[index].constant.doubleValue.magnitude)
        }
        for scale in rowScales.values { largest = max(largest, scale.doubleValue.magnitude) }
        for index in items.indices {
            if let frame = items[index].frame {
                for literal in frame { largest = max(largest, literal.doubleValue.magnitude) }
            }
            let margins = items[index].margins
            largest = max(
                largest, margins.top.doubleValue.magnitude, margins.left.doubleValue.magnitude,
                margins.bottom.doubleValue.magnitude, margins.right.doubleValue.magnitude)
            if let baselines = items[index].baselines {
                largest = max(largest, baselines.first.doubleValue.magnitude, baselines.last.doubleValue.magnitude)
            }
        }
        return largest
    }
}

// Hot paths read a literal's stored `Double` and exponent only, never its digits: touching
// the digit string costs a reference count per read, several per row.
extension NumericLiteral {
    /// Whether ``doubleValue`` is exactly the literal's value. Decided for significands of up
    /// to 15 digits (below 2⁵³) and exponents from −15 up; others count as inexact, which
    /// only sends their rows to a slower exact path.
    var doubleValueIsExact: Bool {
        let d = doubleValue
        // Zero is written with exponent 0; a nonzero literal that underflowed is not exact.
        if d == 0 { return exponent == 0 }
        guard let k = significandScale else { return false }
        // An integer below 10¹⁵ < 2⁵³.
        if k == 0 { return true }
        // s / 10ᵏ is a double d exactly when d · 10ᵏ is, without rounding, an integer: that
        // integer is then s (d is within half an ulp of s / 10ᵏ, and s < 10¹⁵ makes that
        // less than 10⁻ᵏ).
        let power = Self.powersOfTen[k]
        let scaled = d * power
        return (-scaled).addingProduct(d, power) == 0 && scaled == scaled.rounded()
    }

    /// The significand as an integer s (sign included) with the value s / 10ᵏ, k ≥ 0, when
    /// s < 10¹⁵ and k ≤ 15; read from ``doubleValue``: d · 10ᵏ is within 0.25 of s then.
    var smallSignificand: (significand: Int64, scale: Int)? {
        guard let k = significandScale else { return nil }
        return (Int64((doubleValue * Self.powersOfTen[k]).rounded()), k)
    }

    /// k when the value is s / 10ᵏ for an integer |s| < 10¹⁵ and 0 ≤ k ≤ 15, else nil:
    /// 0 for an integer below 10¹⁵, −exponent for a fraction whose significand has at most
    /// 15 digits (exactly when |value| < 10^(15 + exponent); the rounding of d cannot cross
    /// that bound, which is 10⁻¹⁵ relative away, far more than half an ulp).
    private var significandScale: Int? {
        if exponent >= 0 { return doubleValue.magnitude < 1e15 ? 0 : nil }
        guard exponent >= -15 else { return nil }
        return doubleValue.magnitude < Self.powersOfTen[15 + exponent] ? -exponent : nil
    }

    /// 10⁰ … 10²², each exact in `Double`.
    static let powersOfTen: [Double] = (0...22).reduce(into: []) { powers, k in powers.append(k == 0 ? 1 : powers[k - 1] * 10) }

    /// Whether the literal is exactly a multiple of 2⁻⁶ below 2¹⁶ in magnitude (integers such
    /// as 8 or 1024, halves, 0.5625 = 9/16), so that sums and products of a few of them are
    /// exact in `Double` (``ConstraintSystem/rowIsShortDyadic(_:)``).
    @inline(__always)
    var isShortDyadic: Bool {
        let scaled = doubleValue * 64
        // Scaling by 2⁶ is exact; the value must also be the literal's own, not a rounding.
        return scaled.magnitude < 0x1p22 && scaled == scaled.rounded(.towardZero) && doubleValueIsExact
    }

    /// Whether the literal is 1000 (a required priority): the exponent and value say so
    /// without reading the digits (a significand s with s·10³ = 1000 is 1).
    var isThousand: Bool { exponent == 3 && doubleValue == 1000 }
}

/// A `Double` that knows whether it is still the exact value of what it computes, or that
/// value rounded once.
///
/// Exact: exactly representable literals, and sums, products and quotients of exact values
/// that round nothing (checked with error-free transformations: TwoSum, or a fused
/// multiply-add for the error of a product or the remainder of a quotient). Rounded once: a
/// literal that is not exact in binary (its `Double` is correctly rounded), negated, scaled
/// by a power of two (which commutes with rounding, away from overflow and underflow), or
/// added to an exact zero. Anything else (two roundings, or a rounded value in a sum) is
/// unknown, and the row goes to a slower exact path.
struct CheckedDouble: LinearScalar {
    enum Accuracy: UInt8 {
        case exact, roundedOnce, unknown
    }

    var value: Double
    var accuracy: Accuracy

    /// Equal to the exact value rounded to the nearest `Double` once (exact included).
    var isRoundedOnce: Bool { accuracy != .unknown }

    @inline(__always)
    init(_ value: Double, _ accuracy: Accuracy) {
        self.value = value
        self.accuracy = value.isFinite ? accuracy : .unknown
    }

    static var zero: CheckedDouble { CheckedDouble(0, .exact) }
    static var one: CheckedDouble { CheckedDouble(1, .exact) }

    init(literal: borrowing NumericLiteral) {
        // A literal's `Double` is correctly rounded (a nonzero one that underflowed to zero
        // is not: its value is not 0).
        let value = literal.doubleValue
        let accuracy: Accuracy = literal.doubleValueIsExact ? .exact : value != 0 ? .roundedOnce : .unknown
        self.init(value, accuracy)
    }

    init(integer: Int) {
        let value = Double(integer)
        self.init(value, Int(exactly: value) == integer ? .exact : .unknown)
    }

    @inline(__always)
    private var isExactZero: Bool { accuracy == .exact && value == 0 }

    /// ±2ᵏ, exactly: multiplying by it only moves the exponent.
    @inline(__always)
    private var isExactPowerOfTwo: Bool { accuracy == .exact && value.isNormal && value.significandBitPattern == 0 }

    /// A product or quotient of a once-rounded value and an exact power of two, which keeps it
    /// rounded once while the result stays a normal number.
    @inline(__always)
    private static func scaled(_ result: Double, _ rounded: CheckedDouble, _ scale: CheckedDouble) -> Accuracy {
        rounded.accuracy == .roundedOnce && rounded.value.isNormal && scale.isExactPowerOfTwo && result.isNormal
            ? .roundedOnce : .unknown
    }

    @inline(__always)
    static func + (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let sum = a.value + b.value
        if a.isExactZero && b.accuracy == .roundedOnce { return CheckedDouble(sum, .roundedOnce) }
        if b.isExactZero && a.accuracy == .roundedOnce { return CheckedDouble(sum, .roundedOnce) }
        guard a.accuracy == .exact && b.accuracy == .exact else { return CheckedDouble(sum, .unknown) }
        // TwoSum: the rounding error of the sum, exactly (an infinity makes it NaN).
        let bVirtual = sum - a.value
        let error = (a.value - (sum - bVirtual)) + (b.value - bVirtual)
        return CheckedDouble(sum, error == 0 ? .exact : .unknown)
    }

    @inline(__always)
    static func - (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble { a + (-b) }

    @inline(__always)
    static func * (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let product = a.value * b.value
        if a.isExactZero || b.isExactZero { return CheckedDouble(product, a.isRoundedOnce && b.isRoundedOnce ? .exact : .unknown) }
        guard a.accuracy == .exact && b.accuracy == .exact else {
            return CheckedDouble(product, a.accuracy == .exact ? scaled(product, b, a) : scaled(product, a, b))
        }
        // The product's rounding error is exact in a fused multiply-add unless it underflows.
        let exact = product.magnitude >= 0x1p-900 && (-product).addingProduct(a.value, b.value) == 0
        return CheckedDouble(product, exact ? .exact : .unknown)
    }

    @inline(__always)
    static func / (a: CheckedDouble, b: CheckedDouble) -> CheckedDouble {
        let quotient = a.value / b.value
        guard b.value != 0 else { return CheckedDouble(quotient, .unknown) }
        if a.isExactZero { return CheckedDouble(quotient, b.isRoundedOnce ? .exact : .unknown) }
        guard a.accuracy == .exact && b.accuracy == .exact else { return CheckedDouble(quotient, scaled(quotient, a, b)) }
        // The remainder a − q·b is exact in a fused multiply-add while q and b are not tiny.
        let exact = quotient.magnitude >= 0x1p-400 && b.value.magnitude >= 0x1p-400
            && (-a.value).addingProduct(quotient, b.value) == 0
        return CheckedDouble(quotient, exact ? .exact : .unknown)
    }

    @inline(__always)
    static prefix func - (operand: CheckedDouble) -> CheckedDouble {
        CheckedDouble(-operand.value, operand.accuracy)
    }

    /// Only an exact zero: a rounded sum that came out 0 may stand for a tiny nonzero
    /// number, so it must stay in the row (and send it down the exact path).
    var isZero: Bool { value == 0 && accuracy == .exact }
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

    /// ±significand × 10^exponent, when the significand has at most 15 digits and the
    /// exponent is at least −15 (or the literal is zero).
    init(literal: borrowing NumericLiteral) {
        if literal.doubleValue == 0 && literal.exponent == 0 {
            self = .zero
        } else if let (s, k) = literal.smallSignificand {
            self = k == 0 ? SmallFraction(numerator: s, denominator: 1) : SmallFraction.reduced(s, SmallFraction.powersOfTen[k])
        } else {
            self = .unrepresentable
        }
    }

    /// 10⁰ … 10¹⁵.
    static let powersOfTen: [Int64] = (0...15).reduce(into: []) { powers, k in powers.append(k == 0 ? 1 : powers[k - 1] * 10) }

    /// n/d in lowest terms (d > 0).
    @inline(__always)
    static func reduced(_ n: Int64, _ d: Int64) -> SmallFraction {
        if d == 1 { return SmallFraction(numerator: n, denominator: 1) }
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
