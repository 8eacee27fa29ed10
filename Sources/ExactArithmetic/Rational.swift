internal import CGMP

/// An exact rational number of unbounded size.
///
/// Values whose numerator and denominator both fit in `Int64` are stored inline and use
/// overflow-checked machine arithmetic; anything larger lives in a GMP `mpq_t`. The switch
/// is invisible: every result is canonicalised, so a value that fits in `Int64` is always
/// stored inline whatever produced it, and equal values have one representation (which
/// makes `==` and hashing representation-independent).
///
/// `Rational` is a value type: copies share GMP storage, but no operation ever mutates
/// storage another value can see.
public struct Rational: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        /// Numerator and denominator in lowest terms, denominator > 0; zero is 0/1.
        case small(Int64, Int64)
        /// A canonical mpq whose numerator or denominator does not fit in `Int64`.
        case big(MPQ)
    }

    @usableFromInline
    var storage: Storage

    @inlinable
    init(storage: Storage) {
        self.storage = storage
    }

    /// Wraps `numerator/denominator`, which must already be in lowest terms with a
    /// positive denominator.
    @inlinable
    init(canonicalNumerator numerator: Int64, denominator: Int64) {
        storage = .small(numerator, denominator)
    }

    /// Takes ownership of a canonical mpq, moving it inline when it fits.
    init(normalizing box: MPQ) {
        let num = box.numerator, den = box.denominator
        if lb_mpz_fits_slong_p(num) != 0 && lb_mpz_fits_slong_p(den) != 0 {
            storage = .small(Int64(lb_mpz_get_si(num)), Int64(lb_mpz_get_si(den)))
        } else {
            storage = .big(box)
        }
    }

    /// The integer `value`.
    @inlinable
    public init(_ value: Int) {
        storage = .small(Int64(value), 1)
    }

    /// The fraction `numerator/denominator`, reduced to lowest terms.
    ///
    /// - Precondition: `denominator != 0`.
    @inlinable
    public init(numerator: Int, denominator: Int) {
        precondition(denominator != 0, "Rational with a zero denominator")
        if denominator == 1 {
            self.init(numerator)
            return
        }
        let n = UInt64(numerator.magnitude), d = UInt64(denominator.magnitude)
        let g = Rational.gcd(n, d)
        self = Rational.make(negative: (numerator < 0) != (denominator < 0), n / g, d / g)
    }

    /// Zero.
    public static let zero = Rational(0)
    /// One.
    public static let one = Rational(1)

    /// True when the value is stored inline rather than in GMP (for tests and statistics).
    @inlinable
    var isInline: Bool {
        if case .small = storage { return true }
        return false
    }
}

// MARK: - Properties

extension Rational {
    /// -1, 0 or 1 for a negative, zero or positive value.
    @inlinable
    public var sign: Int {
        if case .small(let n, _) = storage { return Int(truncatingIfNeeded: n.signum()) }
        return bigSign
    }

    @usableFromInline
    var bigSign: Int {
        withMPQ { Int(lb_mpq_sgn($0)) }
    }

    /// True when the value is zero.
    @inlinable
    public var isZero: Bool {
        if case .small(0, _) = storage { return true }
        // A big value is never zero: zero always fits inline.
        return false
    }

    /// True when the denominator is 1.
    public var isInteger: Bool {
        switch storage {
        case .small(_, let d): return d == 1
        case .big(let box): return lb_mpz_cmp_ui(box.denominator, 1) == 0
        }
    }

    /// The absolute value.
    @inlinable
    public var magnitude: Rational {
        if case .small(let n, let d) = storage, n != .min {
            return Rational(canonicalNumerator: n < 0 ? -n : n, denominator: d)
        }
        return Rational.bigUnary(.magnitude, self)
    }

    /// One divided by the value.
    ///
    /// - Precondition: the value is not zero.
    @inlinable
    public var reciprocal: Rational {
        if case .small(let n, let d) = storage, n != .min {
            precondition(n != 0, "reciprocal of zero")
            return n > 0
                ? Rational(canonicalNumerator: d, denominator: n)
                : Rational(canonicalNumerator: -d, denominator: -n)
        }
        return Rational.bigUnary(.reciprocal, self)
    }

    /// The number of bits in the numerator's absolute value (0 for zero).
    public var numeratorBitWidth: Int {
        switch storage {
        case .small(let n, _): return n.magnitude.bitWidth - n.magnitude.leadingZeroBitCount
        case .big(let box): return lb_mpz_sizeinbase(box.numerator, 2)
        }
    }

    /// The number of bits in the (positive) denominator; 1 for integers.
    public var denominatorBitWidth: Int {
        switch storage {
        case .small(_, let d): return d.bitWidth - d.leadingZeroBitCount
        case .big(let box): return lb_mpz_sizeinbase(box.denominator, 2)
        }
    }
}

// MARK: - Equality, hashing, order

extension Rational: Hashable {
    @inlinable
    public static func == (lhs: Rational, rhs: Rational) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.small(a, b), .small(c, d)): return a == c && b == d
        case let (.big(x), .big(y)): return x === y || bigEqual(x, y)
        // Canonical forms: a value that fits inline is never stored in GMP.
        default: return false
        }
    }

    @usableFromInline
    static func bigEqual(_ x: MPQ, _ y: MPQ) -> Bool {
        lb_mpq_equal(x.pointer, y.pointer) != 0
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .small(let n, let d):
            hasher.combine(n)
            hasher.combine(d)
        case .big(let box):
            // Canonical mpq values are equal exactly when their limbs are.
            func combine(_ z: mpz_srcptr) {
                let count = lb_mpz_size(z)
                hasher.combine(lb_mpz_sgn(z))
                hasher.combine(count)
                hasher.combine(bytes: UnsafeRawBufferPointer(
                    start: lb_mpz_limbs_read(z), count: count * MemoryLayout<mp_limb_t>.size))
            }
            withExtendedLifetime(box) {
                combine(box.numerator)
                combine(box.denominator)
            }
        }
    }
}

extension Rational: Comparable {
    @inlinable
    public static func < (lhs: Rational, rhs: Rational) -> Bool {
        if case .small(let a, let b) = lhs.storage, case .small(let c, let d) = rhs.storage {
            if b == d { return a < c }
            // Denominators are positive, so a/b < c/d ⇔ a·d < c·b, exactly in 128 bits.
            let l = a.multipliedFullWidth(by: d), r = c.multipliedFullWidth(by: b)
            return l.high < r.high || (l.high == r.high && l.low < r.low)
        }
        return bigCompare(lhs, rhs) < 0
    }

    @usableFromInline
    static func bigCompare(_ lhs: Rational, _ rhs: Rational) -> Int {
        lhs.withMPQ { x in rhs.withMPQ { y in Int(lb_mpq_cmp(x, y)) } }
    }
}

// MARK: - Literals and text

extension Rational: ExpressibleByIntegerLiteral {
    @inlinable
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}

extension Rational: CustomStringConvertible, LosslessStringConvertible {
    /// `"p"` for an integer, `"p/q"` otherwise, in lowest terms (`"-327/2"`).
    /// ``init(_:)`` reads it back.
    public var description: String {
        switch storage {
        case .small(let n, 1):
            return String(n)
        case .small(let n, let d):
            return "\(n)/\(d)"
        case .big(let box):
            // mpq_get_str needs room for both parts, a sign, the '/' and the terminator.
            let capacity = lb_mpz_sizeinbase(box.numerator, 10)
                + lb_mpz_sizeinbase(box.denominator, 10) + 3
            var bytes = [UInt8](repeating: 0, count: capacity)
            bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    _ = lb_mpq_get_str(chars.baseAddress, 10, box.pointer)
                }
            }
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
    }
}

// MARK: - GMP access

extension Rational {
    /// Runs `body` with a read-only mpq equal to the value. Inline values get a
    /// stack-allocated view (no heap allocation, nothing to clear).
    func withMPQ<R>(_ body: (mpq_srcptr) throws -> R) rethrows -> R {
        switch storage {
        case .big(let box):
            return try withExtendedLifetime(box) { try body(box.pointer) }
        case .small(let n, let d):
            var view = lb_small_mpq()
            return try withUnsafeMutablePointer(to: &view) { view in
                try body(lb_small_mpq_init(view, CLong(n), CLong(d)))
            }
        }
    }

    /// The canonical value `±numerator/denominator`, which must be in lowest terms with
    /// `denominator > 0` (`negative` is ignored for zero).
    @inlinable
    static func make(negative: Bool, _ numerator: UInt64, _ denominator: UInt64) -> Rational {
        if let value = packed(negative: negative, numerator, denominator) { return value }
        return makeBig(negative: negative, numerator, denominator)
    }

    /// The inline form of `make`, or nil when the value does not fit inline.
    @inlinable
    static func packed(negative: Bool, _ numerator: UInt64, _ denominator: UInt64) -> Rational? {
        guard denominator <= UInt64(Int64.max) else { return nil }
        if negative {
            // -2^63 fits; wrapping negation gives exactly Int64.min for it.
            guard numerator <= UInt64(1) << 63 else { return nil }
            return Rational(
                canonicalNumerator: Int64(truncatingIfNeeded: 0 &- numerator),
                denominator: Int64(denominator))
        }
        guard numerator <= UInt64(Int64.max) else { return nil }
        return Rational(canonicalNumerator: Int64(numerator), denominator: Int64(denominator))
    }

    @usableFromInline
    static func makeBig(negative: Bool, _ numerator: UInt64, _ denominator: UInt64) -> Rational {
        let box = MPQ()
        lb_mpz_set_ui(lb_mpq_numref(box.pointer), CUnsignedLong(numerator))
        lb_mpz_set_ui(lb_mpq_denref(box.pointer), CUnsignedLong(denominator))
        if negative { lb_mpq_neg(box.pointer, box.pointer) }
        return Rational(normalizing: box)
    }

    /// Greatest common divisor (binary GCD); gcd(0, b) = b.
    @inlinable
    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        if a == 0 { return b }
        if b == 0 { return a }
        let shift = (a | b).trailingZeroBitCount
        var a = a >> a.trailingZeroBitCount
        var b = b
        repeat {
            b >>= b.trailingZeroBitCount
            if a > b { swap(&a, &b) }
            b -= a
        } while b != 0
        return a << shift
    }
}
