import SeededRandom
import Testing
@testable import ExactArithmetic

@Suite struct RationalConversionTests {
    // MARK: Text

    @Test(arguments: [
        ("0", "0"), ("-0", "0"), ("12", "12"), ("-12", "-12"), ("00012", "12"),
        ("6/4", "3/2"), ("-6/4", "-3/2"), ("0/7", "0"), ("-0/7", "0"), ("5/1", "5"),
        ("9223372036854775808/2", "4611686018427387904"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("18446744073709551616", "18446744073709551616"),
        ("000000000000000000000000000003/0000000000000000000000000009", "1/3"),
    ])
    func parsing(text: String, canonical: String) {
        let value = Rational(text)
        #expect(value?.description == canonical)
        #expect(value.map(hasCanonicalRepresentation) == true)
    }

    @Test(arguments: [
        "", "-", "+1", " 1", "1 ", "1/", "/2", "1/0", "1/000", "1/-2", "1/+2", "1.5", "1e3",
        "0x10", "1/2/3", "--1", "-/1", "١٢", "12345678901234567890123/0",
        "12345678901234567890123/", "1/2 ", "1/2\n",
    ])
    func malformedTextIsRejected(text: String) {
        #expect(Rational(text) == nil)
    }

    @Test func embeddedNULIsRejected() {
        // Kept out of the parameterised test, whose console output a NUL would cut short.
        #expect(Rational("1\u{0}2") == nil)
        #expect(Rational("\u{0}") == nil)
        #expect(Rational("12345678901234567890123\u{0}") == nil)
    }

    @Test func hugeValuesRoundTrip() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let numerator = rng.nonzeroDigits(rng.int(in: 1...200))
            let denominator = rng.nonzeroDigits(rng.int(in: 1...150))
            let negative = rng.below(2) == 0
            let text = (negative ? "-" : "") + numerator + "/" + denominator
            guard let value = Rational(text) else {
                Issue.record("failed to parse \(text)")
                continue
            }
            #expect(hasCanonicalRepresentation(value))
            #expect(Rational(value.description) == value)
            // Reduction preserves the value: p/q == (p/g)/(q/g) ⇔ value·q == ±p.
            let p = Rational(numerator) ?? .zero, q = Rational(denominator) ?? .one
            #expect(value * q == (negative ? -p : p))
        }
        let googol = "1" + String(repeating: "0", count: 100)
        #expect(Rational(googol)?.description == googol)
        #expect(Rational("-1/" + googol)?.description == "-1/" + googol)
        #expect(Rational("3/" + googol + "0") == Rational("3/" + googol).map { $0 / 10 })
    }

    // MARK: Decimal

    @Test func decimalConstruction() {
        #expect(Rational(decimalSignificand: "1", exponent: -9, negative: false)
            == Rational(numerator: 1, denominator: 1_000_000_000))
        #expect(Rational(decimalSignificand: "1536", exponent: -3, negative: false)
            == Rational(numerator: 192, denominator: 125))
        #expect(Rational(decimalSignificand: "6510416666", exponent: -10, negative: false)
            == Rational(numerator: 3_255_208_333, denominator: 5_000_000_000))
        #expect(Rational(decimalSignificand: "12", exponent: 0, negative: true) == -12)
        #expect(Rational(decimalSignificand: "", exponent: 5, negative: true) == .zero)
        #expect(Rational(decimalSignificand: "000", exponent: -3, negative: true).sign == 0)
        #expect(Rational(decimalSignificand: "0015", exponent: -1, negative: false)
            == Rational(numerator: 3, denominator: 2))
        #expect(Rational(decimalSignificand: "5", exponent: 18, negative: false)
            == Rational(5_000_000_000_000_000_000))
        #expect(Rational(decimalSignificand: "1", exponent: 19, negative: false).description
            == "10000000000000000000")
        #expect(Rational(decimalSignificand: "1", exponent: -19, negative: true).description
            == "-1/10000000000000000000")

        let e308 = Rational(decimalSignificand: "1", exponent: 308, negative: false)
        #expect(e308.description == "1" + String(repeating: "0", count: 308))
        #expect(e308.doubleValue == 1e308)
        let tiny = Rational(decimalSignificand: "25", exponent: -400, negative: false)
        #expect(tiny * Rational(decimalSignificand: "4", exponent: 398, negative: false) == 1)
        #expect(tiny.doubleValue == 0)
        #expect(Rational(decimalSignificand: "1", exponent: 400, negative: true).doubleValue == -.infinity)
        // The GMP path and the inline path agree.
        #expect(Rational(decimalSignificand: "123456789012345678901234567890", exponent: -28, negative: false)
            == Rational("123456789012345678901234567890/10000000000000000000000000000"))
    }

    @Test func decimalAgreesWithDoubleParsing() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let digits = rng.nonzeroDigits(rng.int(in: 1...25))
            let exponent = rng.int(in: -340...320)
            let negative = rng.below(2) == 0
            let value = Rational(decimalSignificand: digits, exponent: exponent, negative: negative)
            let text = (negative ? "-" : "") + digits + "e" + String(exponent)
            // Swift's Double parser rounds correctly, so it is an independent reference.
            #expect(value.doubleValue == Double(text), "\(text)")
        }
    }

    // MARK: Double

    @Test func exactDoubles() {
        #expect(Rational(exactly: 0.1)?.description == "3602879701896397/36028797018963968")
        #expect(Rational(exactly: -2.5) == Rational(numerator: -5, denominator: 2))
        #expect(Rational(exactly: -0.0) == .zero)
        #expect(Rational(exactly: 0x1p62)?.isInline == true)
        #expect(Rational(exactly: 0x1p63)?.isInline == false)
        #expect(Rational(exactly: -0x1p63) == Rational(Int.min))
        #expect(Rational(exactly: -0x1p63)?.isInline == true)
        #expect(Rational(exactly: 0x1p-62)?.description == "1/4611686018427387904")
        #expect(Rational(exactly: 0x1p-63)?.description == "1/9223372036854775808")
        #expect(Rational(exactly: 1e300)?.isInteger == true)
        #expect(Rational(exactly: .leastNonzeroMagnitude)?.denominatorBitWidth == 1075)
        #expect(Rational(exactly: .greatestFiniteMagnitude)?.numeratorBitWidth == 1024)
        #expect(Rational(exactly: .nan) == nil)
        #expect(Rational(exactly: .infinity) == nil)
        #expect(Rational(exactly: -.infinity) == nil)
    }

    @Test func doublesRoundTrip() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<3000 {
            let x = rng.finiteDouble()
            guard let exact = Rational(exactly: x) else {
                Issue.record("\(x) has no exact value")
                continue
            }
            #expect(hasCanonicalRepresentation(exact))
            #expect(exact.doubleValue == x || (x == 0 && exact.doubleValue == 0))
        }
    }

    // MARK: Rounding

    @Test func doubleValueRounding() {
        #expect(Rational(numerator: 1, denominator: 3).doubleValue == 1.0 / 3.0)
        #expect(Rational(numerator: -2, denominator: 3).doubleValue == -2.0 / 3.0)
        #expect(Rational(numerator: 327, denominator: 2).doubleValue == 163.5)
        // Halfway between two Doubles: ties go to the even significand.
        #expect(Rational(9_007_199_254_740_993).doubleValue == 9_007_199_254_740_992)
        #expect(Rational(9_007_199_254_740_995).doubleValue == 9_007_199_254_740_996)
        #expect(Rational(-9_007_199_254_740_993).doubleValue == -9_007_199_254_740_992)
        let twoTo200 = Rational(exactly: 0x1p200) ?? .zero
        let twoTo147 = Rational(exactly: 0x1p147) ?? .zero
        #expect((twoTo200 + twoTo147).doubleValue == 0x1p200)
        #expect((twoTo200 + twoTo147 + 1).doubleValue == 0x1p200.nextUp)
        #expect((twoTo200 + 3 * twoTo147).doubleValue == 0x1p200.nextUp.nextUp)
        // Large numerator and denominator that a truncating mpq_get_d would get wrong.
        let third = (twoTo200 + 1) / (3 * twoTo200)
        #expect(third.doubleValue == 1.0 / 3.0)
        #expect(Rational(numerator: Int.max, denominator: Int.max - 1).doubleValue == 1.0)
        #expect(Rational(numerator: 1, denominator: Int.max).doubleValue == 1.0 / 9_223_372_036_854_775_807.0)
        #expect(Rational(Int.min).doubleValue == -0x1p63)

        // Subnormals, underflow and overflow.
        let least = Rational(exactly: .leastNonzeroMagnitude) ?? .zero
        #expect(least.doubleValue == .leastNonzeroMagnitude)
        #expect((least / 2).doubleValue == 0)  // halfway to zero: zero is even
        #expect((-least / 2).doubleValue.sign == .minus)
        #expect((least / 2 + least / 1000).doubleValue == .leastNonzeroMagnitude)
        #expect((least * 3 / 2).doubleValue == 2 * .leastNonzeroMagnitude)  // tie, even
        #expect((least * 5 / 2).doubleValue == 2 * .leastNonzeroMagnitude)
        let minNormal = Rational(exactly: .leastNormalMagnitude) ?? .zero
        #expect((minNormal - least / 4).doubleValue == .leastNormalMagnitude)
        #expect((minNormal - least).doubleValue == Double.leastNormalMagnitude.nextDown)
        let greatest = Rational(exactly: .greatestFiniteMagnitude) ?? .zero
        let halfUlp = (Rational(exactly: Double.greatestFiniteMagnitude.ulp) ?? .zero) / 2
        #expect(greatest.doubleValue == .greatestFiniteMagnitude)
        #expect((greatest + halfUlp - least).doubleValue == .greatestFiniteMagnitude)
        #expect((greatest + halfUlp).doubleValue == .infinity)
        #expect((-greatest - halfUlp).doubleValue == -.infinity)
        #expect((greatest * greatest).doubleValue == .infinity)
        #expect((least * least).doubleValue == 0)
    }

    @Test func doubleValueIsCorrectlyRounded() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1500 {
            let value = rng.rational()
            #expect(isCorrectlyRounded(value.doubleValue, value), "\(value)")
        }
        // Quotients near the inline fast path's 2^53 limit.
        for _ in 0..<1500 {
            let n = Int(truncatingIfNeeded: rng.next() >> UInt64(rng.int(in: 0...20)))
            let d = max(1, Int(truncatingIfNeeded: rng.next() >> UInt64(rng.int(in: 1...20))))
            let value = Rational(numerator: n, denominator: d)
            #expect(isCorrectlyRounded(value.doubleValue, value), "\(value)")
        }
    }
}
