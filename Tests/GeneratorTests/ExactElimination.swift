import LayoutModel

/// An exact rational over `Int128`, for checking small generated systems without the
/// project's GMP-backed `Rational` (this test target depends only on LayoutModel and
/// Generator). Arithmetic traps on overflow, so the tests keep systems small.
struct Fraction: LinearScalar, Hashable, Comparable, CustomStringConvertible {
    private(set) var numerator: Int128
    private(set) var denominator: Int128

    init(_ numerator: Int128, _ denominator: Int128 = 1) {
        precondition(denominator != 0)
        let g = Self.gcd(numerator.magnitude, denominator.magnitude)
        let sign: Int128 = denominator < 0 ? -1 : 1
        self.numerator = sign * numerator / Int128(g == 0 ? 1 : g)
        self.denominator = sign * denominator / Int128(g == 0 ? 1 : g)
    }

    private static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }

    static func power10(_ e: Int) -> Int128 {
        var p: Int128 = 1
        for _ in 0..<e { p *= 10 }
        return p
    }

    init(literal: NumericLiteral) {
        var n: Int128 = 0
        for digit in literal.significand.utf8 { n = n * 10 + Int128(digit - 48) }
        if literal.isNegative { n = -n }
        if literal.exponent >= 0 {
            self.init(n * Self.power10(literal.exponent))
        } else {
            self.init(n, Self.power10(-literal.exponent))
        }
    }

    init(integer: Int) { self.init(Int128(integer)) }
    init(_ text: String) { self.init(literal: NumericLiteral(parsing: text) ?? .zero) }

    static var zero: Fraction { Fraction(0) }
    static var one: Fraction { Fraction(1) }

    static func + (a: Fraction, b: Fraction) -> Fraction {
        if a.denominator == b.denominator { return Fraction(a.numerator + b.numerator, a.denominator) }
        return Fraction(a.numerator * b.denominator + b.numerator * a.denominator, a.denominator * b.denominator)
    }
    static func - (a: Fraction, b: Fraction) -> Fraction { a + (-b) }
    static func * (a: Fraction, b: Fraction) -> Fraction {
        let g1 = Int128(gcd(a.numerator.magnitude, b.denominator.magnitude))
        let g2 = Int128(gcd(b.numerator.magnitude, a.denominator.magnitude))
        let (d1, d2) = (g1 == 0 ? 1 : g1, g2 == 0 ? 1 : g2)
        return Fraction((a.numerator / d1) * (b.numerator / d2), (a.denominator / d2) * (b.denominator / d1))
    }
    static func / (a: Fraction, b: Fraction) -> Fraction {
        a * Fraction(b.denominator, b.numerator)
    }
    static prefix func - (a: Fraction) -> Fraction { Fraction(-a.numerator, a.denominator) }
    static func < (a: Fraction, b: Fraction) -> Bool { a.numerator * b.denominator < b.numerator * a.denominator }

    var isZero: Bool { numerator == 0 }
    var doubleValue: Double { Double(numerator) / Double(denominator) }
    var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

/// Incremental Gauss–Jordan elimination of equations `Σ terms + constant = 0`, exact and
/// sparse: enough to tell rank, redundancy, inconsistency and which unknowns are fixed.
struct ExactElimination {
    enum Outcome: Equatable { case independent, redundant, inconsistent }

    /// Pivot variable → its row, normalised so the pivot's coefficient is 1 and no other
    /// pivot variable occurs in it.
    private(set) var pivots: [Int: (terms: [Int: Fraction], constant: Fraction)] = [:]

    var rank: Int { pivots.count }

    /// Reduces a row by the current pivots.
    private func reduce(_ terms: [Int: Fraction], _ constant: Fraction) -> ([Int: Fraction], Fraction) {
        var terms = terms
        var constant = constant
        for (variable, coefficient) in terms where !coefficient.isZero {
            guard let pivot = pivots[variable] else { continue }
            guard let current = terms[variable], !current.isZero else { continue }
            for (v, c) in pivot.terms {
                let updated = (terms[v] ?? .zero) - current * c
                terms[v] = updated.isZero ? nil : updated
            }
            constant = constant - current * pivot.constant
        }
        return (terms.filter { !$0.value.isZero }, constant)
    }

    mutating func add(terms: [Int: Fraction], constant: Fraction) -> Outcome {
        let (reduced, c) = reduce(terms, constant)
        guard let pivotVariable = reduced.keys.min() else {
            return c.isZero ? .redundant : .inconsistent
        }
        let scale = Fraction.one / (reduced[pivotVariable] ?? .one)
        var row = reduced.mapValues { $0 * scale }
        row[pivotVariable] = .one
        let rowConstant = c * scale
        // Keep every other pivot row free of the new pivot variable.
        for (p, other) in pivots {
            guard let k = other.terms[pivotVariable], !k.isZero else { continue }
            var terms = other.terms
            for (v, coefficient) in row {
                let updated = (terms[v] ?? .zero) - k * coefficient
                terms[v] = updated.isZero ? nil : updated
            }
            pivots[p] = (terms, other.constant - k * rowConstant)
        }
        pivots[pivotVariable] = (row, rowConstant)
        return .independent
    }

    mutating func add(_ row: LinearRow<Fraction>) -> Outcome {
        var terms: [Int: Fraction] = [:]
        for term in row.terms { terms[term.variable] = term.coefficient }
        return add(terms: terms, constant: row.constant)
    }

    /// Fixes `variable` at `value`.
    mutating func fix(_ variable: Int, at value: Fraction) -> Outcome {
        add(terms: [variable: .one], constant: -value)
    }

    /// The variable's value when the equations fix it, nil otherwise.
    func value(of variable: Int) -> Fraction? {
        guard let row = pivots[variable], row.terms.count == 1 else { return nil }
        return -row.constant
    }
}
