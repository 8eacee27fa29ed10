internal import CGMP

// Each operator tries the inline path first: machine arithmetic with every overflow
// checked. Any overflow (or an intermediate that does not fit) falls back to GMP, which
// computes the exact result; `Rational(normalizing:)` then moves it back inline if the
// final value fits, so an overflowing intermediate never leaves a small value in GMP.

extension Rational {
    /// The sum.
    @inlinable
    public static func + (lhs: Rational, rhs: Rational) -> Rational { combined(lhs, .add, rhs) }

    /// The difference.
    @inlinable
    public static func - (lhs: Rational, rhs: Rational) -> Rational { combined(lhs, .subtract, rhs) }

    /// The product.
    @inlinable
    public static func * (lhs: Rational, rhs: Rational) -> Rational { combined(lhs, .multiply, rhs) }

    /// The quotient.
    ///
    /// - Precondition: `rhs` is not zero.
    @inlinable
    public static func / (lhs: Rational, rhs: Rational) -> Rational {
        precondition(!rhs.isZero, "Rational division by zero")
        return combined(lhs, .divide, rhs)
    }

    /// The negation.
    @inlinable
    public static prefix func - (operand: Rational) -> Rational {
        if case .small(let n, let d) = operand.storage, n != .min {
            return Rational(canonicalNumerator: -n, denominator: d)
        }
        return bigUnary(.negate, operand)
    }

    /// Adds `rhs` to `lhs`.
    @inlinable
    public static func += (lhs: inout Rational, rhs: Rational) { lhs.combine(.add, rhs) }

    /// Subtracts `rhs` from `lhs`.
    @inlinable
    public static func -= (lhs: inout Rational, rhs: Rational) { lhs.combine(.subtract, rhs) }

    /// Multiplies `lhs` by `rhs`.
    @inlinable
    public static func *= (lhs: inout Rational, rhs: Rational) { lhs.combine(.multiply, rhs) }

    /// Divides `lhs` by `rhs`.
    ///
    /// - Precondition: `rhs` is not zero.
    @inlinable
    public static func /= (lhs: inout Rational, rhs: Rational) {
        precondition(!rhs.isZero, "Rational division by zero")
        lhs.combine(.divide, rhs)
    }

    /// Adds `a × b` to the value: the fused update of a simplex pivot
    /// (`row[j] -= factor × pivotRow[j]` is `row[j].addProduct(-factor, pivotRow[j])`).
    ///
    /// Equal to `self += a * b`, but without an intermediate when everything stays inline,
    /// and updating GMP storage in place when this value holds it alone.
    @inlinable
    public mutating func addProduct(_ a: Rational, _ b: Rational) {
        if case .small(let a0, let a1) = a.storage, case .small(let b0, let b1) = b.storage,
            let product = Rational.smallProduct(a0, a1, b0, b1)
        {
            if product.isZero { return }
            if case .small(let p0, let p1) = product.storage, case .small(let s0, let s1) = storage,
                let sum = Rational.smallSum(s0, s1, p0, p1, subtracting: false)
            {
                self = sum
            } else {
                formInPlace(.add, product)
            }
            return
        }
        if a.isZero || b.isZero { return }
        formInPlace(.addProduct(a), b)
    }
}

// MARK: - Inline paths

extension Rational {
    /// `lhs op rhs`: the inline path when both are inline and the result fits, else GMP.
    /// Always inlined with a constant `operation`, so each operator compiles to its own
    /// inline path alone, as when it was written out.
    @inlinable @inline(__always)
    static func combined(_ lhs: Rational, _ operation: BigOperation, _ rhs: Rational) -> Rational {
        if case .small(let a, let b) = lhs.storage, case .small(let c, let d) = rhs.storage,
            let result = smallResult(a, b, operation, c, d)
        {
            return result
        }
        return big(operation, lhs, rhs)
    }

    /// `self = self op other`: the inline path when both are inline and the result fits,
    /// else GMP in place (``formInPlace(_:_:)``).
    @inlinable @inline(__always)
    mutating func combine(_ operation: BigOperation, _ other: Rational) {
        if case .small(let a, let b) = storage, case .small(let c, let d) = other.storage,
            let result = Rational.smallResult(a, b, operation, c, d)
        {
            self = result
            return
        }
        formInPlace(operation, other)
    }

    /// (a/b) op (c/d) inline, or nil when an intermediate or the result does not fit (and for
    /// `addProduct`, which has no inline path of its own here).
    @inlinable @inline(__always)
    static func smallResult(_ a: Int64, _ b: Int64, _ operation: BigOperation, _ c: Int64, _ d: Int64) -> Rational? {
        switch operation {
        case .add: return smallSum(a, b, c, d, subtracting: false)
        case .subtract: return smallSum(a, b, c, d, subtracting: true)
        case .multiply: return smallProduct(a, b, c, d)
        case .divide: return smallQuotient(a, b, c, d)
        case .addProduct: return nil
        }
    }

    /// a/b ± c/d, or nil if an intermediate overflows `Int64`.
    @inlinable
    static func smallSum(
        _ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64, subtracting: Bool
    ) -> Rational? {
        if b == d {
            // The common case (integers, a shared denominator): one addition.
            let (t, overflow) = subtracting
                ? a.subtractingReportingOverflow(c) : a.addingReportingOverflow(c)
            if overflow { return nil }
            if b == 1 { return Rational(canonicalNumerator: t, denominator: 1) }
            if t == 0 { return Rational(canonicalNumerator: 0, denominator: 1) }
            let g = Int64(truncatingIfNeeded: gcd(t.magnitude, UInt64(b)))
            return Rational(canonicalNumerator: t / g, denominator: b / g)
        }
        // Knuth, TAOCP 4.5.1: with g = gcd(b, d), t = a·(d/g) ± c·(b/g) and g2 = gcd(t, g),
        // the sum in lowest terms is (t/g2) / ((b/g)·(d/g2)). Every divisor here is at
        // most max(b, d) ≤ Int64.max, so no division can overflow.
        let g = Int64(truncatingIfNeeded: gcd(UInt64(b), UInt64(d)))
        let bg = b / g
        let (x, o1) = a.multipliedReportingOverflow(by: d / g)
        let (y, o2) = c.multipliedReportingOverflow(by: bg)
        if o1 || o2 { return nil }
        let (t, o3) = subtracting ? x.subtractingReportingOverflow(y) : x.addingReportingOverflow(y)
        if o3 { return nil }
        if t == 0 { return Rational(canonicalNumerator: 0, denominator: 1) }
        let g2 = g == 1 ? 1 : Int64(truncatingIfNeeded: gcd(t.magnitude, UInt64(g)))
        let (denominator, o4) = bg.multipliedReportingOverflow(by: d / g2)
        if o4 { return nil }
        return Rational(canonicalNumerator: t / g2, denominator: denominator)
    }

    /// (a/b)·(c/d), or nil if the result does not fit inline.
    @inlinable
    static func smallProduct(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Rational? {
        if a == 0 || c == 0 { return Rational(canonicalNumerator: 0, denominator: 1) }
        if b == 1 && d == 1 {
            let (p, overflow) = a.multipliedReportingOverflow(by: c)
            return overflow ? nil : Rational(canonicalNumerator: p, denominator: 1)
        }
        return cancelledProduct(negative: (a < 0) != (c < 0), a.magnitude, UInt64(b), c.magnitude, UInt64(d))
    }

    /// (a/b)/(c/d) for c ≠ 0, or nil if the result does not fit inline.
    @inlinable
    static func smallQuotient(_ a: Int64, _ b: Int64, _ c: Int64, _ d: Int64) -> Rational? {
        if a == 0 { return Rational(canonicalNumerator: 0, denominator: 1) }
        // (a/b)/(c/d) = (a/b)·(d/c), the sign of c moved to the numerator.
        return cancelledProduct(negative: (a < 0) != (c < 0), a.magnitude, UInt64(b), UInt64(d), c.magnitude)
    }

    /// ±(p/q)·(r/s) for magnitudes with p/q and r/s in lowest terms and q, s > 0, or nil if
    /// the result does not fit inline. Cancels across before multiplying (gcd(p, s) and
    /// gcd(r, q)), so the product is in lowest terms and overflows only when it must;
    /// working on magnitudes keeps Int64.min harmless.
    @inlinable @inline(__always)
    static func cancelledProduct(negative: Bool, _ p: UInt64, _ q: UInt64, _ r: UInt64, _ s: UInt64) -> Rational? {
        let g1 = gcd(p, s), g2 = gcd(r, q)
        let (n, o1) = (p / g1).multipliedReportingOverflow(by: r / g2)
        let (m, o2) = (q / g2).multipliedReportingOverflow(by: s / g1)
        if o1 || o2 { return nil }
        return packed(negative: negative, n, m)
    }
}

// MARK: - GMP paths

extension Rational {
    @usableFromInline
    enum BigOperation {
        case add, subtract, multiply, divide
        /// `self + a × operand`.
        case addProduct(Rational)
    }

    @usableFromInline
    enum UnaryOperation {
        case negate, magnitude, reciprocal
    }

    /// Writes `x op y` into `result`, which may alias `x` or `y` (GMP allows it).
    static func apply(_ operation: BigOperation, _ result: mpq_ptr, _ x: mpq_srcptr, _ y: mpq_srcptr) {
        switch operation {
        case .add: lb_mpq_add(result, x, y)
        case .subtract: lb_mpq_sub(result, x, y)
        case .multiply: lb_mpq_mul(result, x, y)
        case .divide: lb_mpq_div(result, x, y)
        case .addProduct(let a):
            let product = MPQ()
            a.withMPQ { lb_mpq_mul(product.pointer, $0, y) }
            lb_mpq_add(result, x, product.pointer)
        }
    }

    @usableFromInline
    static func big(_ operation: BigOperation, _ lhs: Rational, _ rhs: Rational) -> Rational {
        let result = MPQ()
        lhs.withMPQ { x in rhs.withMPQ { y in apply(operation, result.pointer, x, y) } }
        return Rational(normalizing: result)
    }

    @usableFromInline
    static func bigUnary(_ operation: UnaryOperation, _ operand: Rational) -> Rational {
        let result = MPQ()
        operand.withMPQ { x in
            switch operation {
            case .negate: lb_mpq_neg(result.pointer, x)
            case .magnitude: lb_mpq_abs(result.pointer, x)
            case .reciprocal:
                precondition(lb_mpq_sgn(x) != 0, "reciprocal of zero")
                lb_mpq_inv(result.pointer, x)
            }
        }
        return Rational(normalizing: result)
    }

    /// `self = self op other`, reusing this value's GMP storage when nothing else holds it.
    @usableFromInline
    mutating func formInPlace(_ operation: BigOperation, _ other: Rational) {
        guard case .big(var box) = storage else {
            self = Rational.big(operation, self, other)
            return
        }
        // Drop our own reference first so that uniqueness reflects everyone else's.
        storage = .small(0, 1)
        if isKnownUniquelyReferenced(&box) {
            let target = box.pointer
            other.withMPQ { Rational.apply(operation, target, target, $0) }
        } else {
            let result = MPQ()
            other.withMPQ { Rational.apply(operation, result.pointer, box.pointer, $0) }
            box = result
        }
        self = Rational(normalizing: box)
    }
}

// MARK: - Numeric

extension Rational: SignedNumeric {
    /// The value of `source`, which every integer has exactly.
    public init<T: BinaryInteger>(exactly source: T) {
        if let value = Int64(exactly: source) {
            self.init(canonicalNumerator: value, denominator: 1)
        } else {
            // Only integers beyond 64 bits get here; their decimal text always parses.
            self = Rational(String(source)) ?? .zero
        }
    }
}
