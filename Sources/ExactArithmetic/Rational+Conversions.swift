internal import CGMP

// MARK: - Text

extension Rational {
    /// Reads `"p"`, `"-p"` or `"p/q"` (also `"-p/q"`), where `p` and `q` are ASCII decimal
    /// digits of any length and `q` is not zero — the format ``description`` writes.
    /// The fraction need not be in lowest terms. Returns nil for anything else (signs on
    /// `q`, `+`, spaces, an empty part); never traps.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        let negative = bytes.first == UInt8(ascii: "-")
        let numeratorStart = negative ? 1 : 0
        var i = numeratorStart
        while i < bytes.count, Rational.isDigit(bytes[i]) { i += 1 }
        let numerator = bytes[numeratorStart..<i]
        guard !numerator.isEmpty else { return nil }
        var denominator = bytes[i..<i]
        if i < bytes.count {
            guard bytes[i] == UInt8(ascii: "/") else { return nil }
            i += 1
            let start = i
            while i < bytes.count, Rational.isDigit(bytes[i]) { i += 1 }
            denominator = bytes[start..<i]
            guard !denominator.isEmpty, i == bytes.count,
                denominator.contains(where: { $0 != UInt8(ascii: "0") })
            else { return nil }
        }

        if let n = Rational.smallDigits(numerator),
            let d = denominator.isEmpty ? 1 : Rational.smallDigits(denominator)
        {
            let g = Rational.gcd(n, d)
            self = Rational.make(negative: negative, n / g, d / g)
            return
        }
        let box = MPQ()
        // The text is validated above, so GMP accepts it; mpq_set_str leaves it unreduced.
        guard text.withCString({ lb_mpq_set_str(box.pointer, $0, 10) }) == 0 else { return nil }
        lb_mpq_canonicalize(box.pointer)
        self.init(normalizing: box)
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// The value of a run of ASCII digits when it has at most 18 significant digits (so
    /// it cannot overflow), else nil.
    static func smallDigits(_ digits: ArraySlice<UInt8>) -> UInt64? {
        let significant = digits.drop(while: { $0 == UInt8(ascii: "0") })
        guard significant.count <= 18 else { return nil }
        var value: UInt64 = 0
        for digit in significant { value = value * 10 + UInt64(digit - UInt8(ascii: "0")) }
        return value
    }
}

// MARK: - Decimal

extension Rational {
    /// The largest `|exponent|` ``init(decimalSignificand:exponent:negative:)`` accepts;
    /// 10^this already has over 300 million bits.
    public static let maximumDecimalExponent = 100_000_000

    /// The exact value of `±digits × 10^exponent`.
    ///
    /// This is how a decimal literal such as `1.536` (`"1536"`, `-3`) or `1e-9` (`"1"`,
    /// `-9`) becomes exact. Leading zeros in `digits` are allowed.
    ///
    /// - Parameters:
    ///   - digits: ASCII decimal digits; empty means zero.
    ///   - exponent: The power of ten, at most ``maximumDecimalExponent`` in magnitude.
    ///   - negative: True for a value below zero (ignored for zero).
    /// - Precondition: `digits` contains only ASCII digits and `exponent` is in range.
    public init(decimalSignificand digits: String, exponent: Int, negative: Bool) {
        let bytes = Array(digits.utf8)
        precondition(bytes.allSatisfy(Rational.isDigit), "decimal significand must be ASCII digits")
        precondition(
            exponent.magnitude <= UInt(Rational.maximumDecimalExponent),
            "decimal exponent out of range")
        guard bytes.contains(where: { $0 != UInt8(ascii: "0") }) else {
            self = .zero
            return
        }

        if exponent.magnitude <= 18, let significand = Rational.smallDigits(bytes[...]) {
            var power: UInt64 = 1
            for _ in 0..<exponent.magnitude { power *= 10 }
            if exponent < 0 {
                let g = Rational.gcd(significand, power)
                self = Rational.make(negative: negative, significand / g, power / g)
                return
            }
            let (n, overflow) = significand.multipliedReportingOverflow(by: power)
            if !overflow {
                self = Rational.make(negative: negative, n, 1)
                return
            }
        }

        let box = MPQ()
        let num = lb_mpq_numref(box.pointer), den = lb_mpq_denref(box.pointer)
        let status = digits.withCString { lb_mpz_set_str(num, $0, 10) }
        precondition(status == 0, "decimal significand must be ASCII digits")
        lb_mpz_ui_pow_ui(den, 10, CUnsignedLong(exponent.magnitude))
        if exponent >= 0 {
            lb_mpz_mul(num, num, den)
            lb_mpz_set_ui(den, 1)
        } else {
            lb_mpq_canonicalize(box.pointer)
        }
        if negative { lb_mpq_neg(box.pointer, box.pointer) }
        self.init(normalizing: box)
    }
}

// MARK: - Double

extension Rational {
    /// The exact value of a finite `Double` (every finite binary64 is a dyadic rational:
    /// `0.1` is 3602879701896397/36028797018963968). Nil for NaN and infinities.
    /// `-0.0` becomes zero.
    public init?(exactly value: Double) {
        guard value.isFinite else { return nil }
        if value == 0 {
            self = .zero
            return
        }
        // |value| = significand × 2^exponent with an integer significand.
        var significand = value.significandBitPattern
        var exponent: Int
        if value.exponentBitPattern == 0 {
            exponent = -1074
        } else {
            significand |= 1 << 52
            exponent = Int(value.exponentBitPattern) - 1075
        }
        let zeros = significand.trailingZeroBitCount
        significand >>= zeros
        exponent += zeros
        let negative = value < 0
        // After removing trailing zeros the significand is odd, so m / 2^k is in lowest terms.
        if exponent >= 0 {
            if significand.bitWidth - significand.leadingZeroBitCount + exponent <= 63 {
                self = Rational.make(negative: negative, significand << exponent, 1)
                return
            }
        } else if exponent >= -63 {
            self = Rational.make(negative: negative, significand, 1 << -exponent)
            return
        }
        let box = MPQ()
        let num = lb_mpq_numref(box.pointer), den = lb_mpq_denref(box.pointer)
        lb_mpz_set_ui(num, CUnsignedLong(significand))
        if exponent >= 0 {
            lb_mpz_mul_2exp(num, num, mp_bitcnt_t(exponent))
        } else {
            lb_mpz_mul_2exp(den, den, mp_bitcnt_t(-exponent))
        }
        if negative { lb_mpq_neg(box.pointer, box.pointer) }
        self.init(normalizing: box)
    }

    /// The `Double` nearest to the value, correctly rounded (round to nearest, ties to
    /// even) as if the quotient were computed exactly, for every value.
    ///
    /// Magnitudes at or beyond the rounding boundary above `Double.greatestFiniteMagnitude`
    /// become ±infinity; magnitudes that round below the smallest subnormal become ±0.0
    /// (negative values keep their sign). Unlike GMP's `mpq_get_d`, which truncates,
    /// this agrees with parsing the exact decimal value with `Double(_: String)`.
    @inlinable
    public var doubleValue: Double {
        if case .small(let n, let d) = storage, n.magnitude <= 1 << 53, d <= 1 << 53 {
            // Both operands are exact, and IEEE division rounds its exact quotient once.
            return Double(n) / Double(d)
        }
        return slowDoubleValue
    }

    @usableFromInline
    var slowDoubleValue: Double {
        switch storage {
        case .small(let n, let d):
            return Rational.roundedQuotient(negative: n < 0, n.magnitude, UInt64(d))
        case .big(let box):
            return Rational.roundedQuotient(box.numerator, box.denominator)
        }
    }

    /// n/d rounded, for 0 < n ≤ 2^63 and 0 < d < 2^63.
    static func roundedQuotient(negative: Bool, _ n: UInt64, _ d: UInt64) -> Double {
        let ln = n.bitWidth - n.leadingZeroBitCount, ld = d.bitWidth - d.leadingZeroBitCount
        // Scaling by 2^k makes the integer quotient 55 or 56 bits long: 53 to keep, one to
        // decide the rounding, and one more; the remainder supplies the sticky bit.
        let k = ld - ln + 55
        let q: UInt64, r: UInt64
        if k >= 0 {
            // n·2^k has ld + 55 ≤ 118 bits, and the quotient is below 2^56.
            let high = k >= 64 ? n << (k - 64) : n >> (64 - k)
            let low = n << k
            (q, r) = d.dividingFullWidth((high, low))
        } else {
            // d·2^-k has ln - 55 ≤ 9 bits.
            (q, r) = n.quotientAndRemainder(dividingBy: d << -k)
        }
        return roundToDouble(negative: negative, q, sticky: r != 0, exponent: -k)
    }

    /// |num|/den rounded, with the sign of `num`; `num` ≠ 0.
    static func roundedQuotient(_ num: mpz_srcptr, _ den: mpz_srcptr) -> Double {
        let negative = lb_mpz_sgn(num) < 0
        let ln = lb_mpz_sizeinbase(num, 2), ld = lb_mpz_sizeinbase(den, 2)
        // The value lies in (2^(ln-ld-1), 2^(ln-ld+1)); skip huge shifts when the answer is
        // already decided.
        if ln - ld > 1025 { return negative ? -.infinity : .infinity }
        if ln - ld < -1077 { return negative ? -0.0 : 0.0 }
        let k = ld - ln + 55
        return withTemporaryMPZ { scaledNum in
            withTemporaryMPZ { scaledDen in
                withTemporaryMPZ { quotient in
                    withTemporaryMPZ { remainder in
                        lb_mpz_abs(scaledNum, num)
                        lb_mpz_mul_2exp(scaledNum, scaledNum, mp_bitcnt_t(max(k, 0)))
                        lb_mpz_mul_2exp(scaledDen, den, mp_bitcnt_t(max(-k, 0)))
                        lb_mpz_tdiv_qr(quotient, remainder, scaledNum, scaledDen)
                        return roundToDouble(
                            negative: negative, UInt64(lb_mpz_get_ui(quotient)),
                            sticky: lb_mpz_sgn(remainder) != 0, exponent: -k)
                    }
                }
            }
        }
    }

    /// Rounds `(q + δ) × 2^exponent` to a `Double`, where `q ≥ 2^54` and `δ` is 0 when
    /// `sticky` is false, else strictly between 0 and 1.
    static func roundToDouble(negative: Bool, _ q: UInt64, sticky: Bool, exponent: Int) -> Double {
        let signBit: UInt64 = negative ? 1 << 63 : 0
        let infinity = Double(bitPattern: signBit | Double.infinity.bitPattern)
        let bits = q.bitWidth - q.leadingZeroBitCount
        var e = bits - 1 + exponent  // ⌊log2 value⌋
        if e > 1023 { return infinity }
        // How many low bits of q fall below the last bit kept: 53 significant bits for a
        // normal result, or everything below 2^-1074 for a subnormal one. Always ≥ 2.
        let drop = e >= -1022 ? bits - 53 : -(exponent + 1074)
        var kept = drop >= 64 ? 0 : q >> drop
        let halfBit = drop - 1 < 64 && (q >> (drop - 1)) & 1 == 1
        let belowHalf = drop - 1 >= 64 ? q != 0 : q & ((1 << (drop - 1)) - 1) != 0
        if halfBit && (belowHalf || sticky || kept & 1 == 1) { kept += 1 }
        if e < -1022 {
            // A subnormal's bit pattern is its multiple of 2^-1074; rounding up to 2^52
            // gives exactly the smallest normal's pattern.
            return Double(bitPattern: signBit | kept)
        }
        if kept == 1 << 53 {
            kept >>= 1
            e += 1
            if e > 1023 { return infinity }
        }
        return Double(bitPattern: signBit | UInt64(e + 1023) << 52 | (kept & (1 << 52 - 1)))
    }
}
