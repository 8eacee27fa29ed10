import Testing
@testable import ExactArithmetic

@Suite struct RationalArithmeticTests {
    let twoTo63 = Rational("9223372036854775808") ?? .zero

    @Test func basicArithmetic() {
        let half = Rational(numerator: 1, denominator: 2)
        let third = Rational(numerator: 1, denominator: 3)
        #expect(half + third == Rational(numerator: 5, denominator: 6))
        #expect(half - third == Rational(numerator: 1, denominator: 6))
        #expect(half * third == Rational(numerator: 1, denominator: 6))
        #expect(half / third == Rational(numerator: 3, denominator: 2))
        #expect(-half == Rational(numerator: -1, denominator: 2))
        #expect(Rational(numerator: 6, denominator: -4) == Rational(numerator: -3, denominator: 2))
        #expect(Rational(numerator: 0, denominator: -5) == .zero)
        #expect(Rational(numerator: 0, denominator: -5).description == "0")
        #expect(Rational(numerator: 327, denominator: 2).description == "327/2")
        #expect(Rational(numerator: 3, denominator: -6).description == "-1/2")
        #expect((Rational(7) / 7) == .one)
        let literal: Rational = 42
        #expect(literal == Rational(42))
    }

    @Test func compoundAssignmentAndFusedUpdate() {
        var x = Rational(numerator: 1, denominator: 6)
        x += Rational(numerator: 1, denominator: 3)
        #expect(x == Rational(numerator: 1, denominator: 2))
        x -= 1
        #expect(x == Rational(numerator: -1, denominator: 2))
        x *= -4
        #expect(x == 2)
        x /= 3
        #expect(x == Rational(numerator: 2, denominator: 3))
        x.addProduct(Rational(numerator: 1, denominator: 3), 2)
        #expect(x == Rational(numerator: 4, denominator: 3))
        x.addProduct(.zero, twoTo63)
        #expect(x == Rational(numerator: 4, denominator: 3))
        x.addProduct(twoTo63, twoTo63)
        #expect(x == twoTo63 * twoTo63 + Rational(numerator: 4, denominator: 3))
        x.addProduct(-twoTo63, twoTo63)
        #expect(x == Rational(numerator: 4, denominator: 3))
        #expect(x.isInline)
    }

    @Test func propertiesAndBitWidths() {
        #expect(Rational(-5).sign == -1 && Rational.zero.sign == 0 && Rational(3).sign == 1)
        #expect((-twoTo63 * 2).sign == -1 && twoTo63.sign == 1)
        #expect(Rational.zero.isZero && !Rational(1).isZero && !twoTo63.isZero)
        #expect(Rational(4).isInteger && !Rational(numerator: 1, denominator: 2).isInteger)
        #expect(twoTo63.isInteger && !(twoTo63 + Rational(numerator: 1, denominator: 2)).isInteger)
        #expect(Rational(-7).magnitude == 7 && abs(Rational(-7)) == 7)
        #expect(Rational(numerator: -2, denominator: 3).reciprocal == Rational(numerator: -3, denominator: 2))

        #expect(Rational.zero.numeratorBitWidth == 0 && Rational.zero.denominatorBitWidth == 1)
        let r = Rational(numerator: 327, denominator: 2)
        #expect(r.numeratorBitWidth == 9 && r.denominatorBitWidth == 2)
        #expect(Rational(Int.min).numeratorBitWidth == 64)
        #expect(Rational(Int.max).numeratorBitWidth == 63)
        let big = Rational("1267650600228229401496703205376") ?? .zero  // 2^100
        #expect(big.numeratorBitWidth == 101 && big.denominatorBitWidth == 1)
        #expect(big.reciprocal.numeratorBitWidth == 1 && big.reciprocal.denominatorBitWidth == 101)
        #expect((-big).numeratorBitWidth == 101)
    }

    @Test func sumsAcrossInt64Max() {
        let max = Rational(Int.max)
        let over = max + 1
        #expect(!over.isInline)
        #expect(over == twoTo63)
        #expect(over.description == "9223372036854775808")
        let back = over - 1
        #expect(back.isInline && back == max)
        let twice = max + max
        #expect(!twice.isInline && twice.description == "18446744073709551614")
        #expect((twice - max).isInline && twice - max == max)
        // Overflow in the intermediate numerator only; the value itself is small.
        let a = Rational(numerator: Int.max, denominator: 2)
        let b = Rational(numerator: Int.max - 2, denominator: 2)
        #expect((a - b) == 1 && (a - b).isInline)
    }

    @Test func int64Min() {
        let min = Rational(Int.min)
        #expect(min.isInline && min.description == "-9223372036854775808")
        #expect(!(-min).isInline && -min == twoTo63)
        #expect((-(-min)).isInline && -(-min) == min)
        #expect(!min.magnitude.isInline && min.magnitude == twoTo63)
        #expect(!(min - 1).isInline && (min - 1).description == "-9223372036854775809")
        #expect((min - 1 + 1).isInline)
        #expect(min / -1 == twoTo63)
        #expect(min * -1 == twoTo63)
        #expect(min.reciprocal.description == "-1/9223372036854775808")
        #expect(!min.reciprocal.isInline && min.reciprocal.reciprocal == min)
        #expect(Rational(numerator: Int.min, denominator: Int.min) == 1)
        #expect(Rational(numerator: 1, denominator: Int.min).description == "-1/9223372036854775808")
        #expect(Rational(numerator: Int.min, denominator: -1) == twoTo63)
        #expect(Rational(numerator: Int.min, denominator: 2) == Rational(Int.min / 2))
        #expect(Rational(numerator: Int.min, denominator: 6).description == "-4611686018427387904/3")
        // Products that land exactly on Int64.min stay inline.
        let product = Rational(1 << 32) * Rational(-(1 << 31))
        #expect(product.isInline && product == min)
        #expect((Rational(numerator: Int.min, denominator: 3) * 3) == min)
        #expect((twoTo63 * -1).isInline)
    }

    @Test func productsAndQuotientsAtTheBoundary() {
        let fits = Rational(3_037_000_499) * Rational(3_037_000_499)
        #expect(fits.isInline && fits == Rational(9_223_372_030_926_249_001))
        let overflows = Rational(3_037_000_500) * Rational(3_037_000_500)
        #expect(!overflows.isInline && overflows.description == "9223372037000250000")
        #expect((overflows / 3_037_000_500).isInline)
        #expect(!(Rational(1 << 32) * Rational(1 << 31)).isInline)
        // Cancellation keeps a product of large fractions inline.
        let p = Rational(numerator: Int.max, denominator: 3) * Rational(numerator: 3, denominator: Int.max)
        #expect(p == 1 && p.isInline)
        let q = Rational(numerator: 1, denominator: Int.max) / Rational(numerator: 1, denominator: Int.max - 1)
        #expect(q == Rational(numerator: Int.max - 1, denominator: Int.max))
        // Denominators whose product overflows.
        let s = Rational(numerator: 1, denominator: Int.max) + Rational(numerator: 1, denominator: Int.max - 1)
        #expect(!s.isInline)
        let t = s - Rational(numerator: 1, denominator: Int.max - 1)
        #expect(t.isInline && t == Rational(numerator: 1, denominator: Int.max))
        #expect(hasCanonicalRepresentation(s) && hasCanonicalRepresentation(t))
    }

    @Test func comparisons() {
        let n = Int.max
        let a = Rational(numerator: n, denominator: n - 1)
        let b = Rational(numerator: n - 1, denominator: n - 2)
        // 1 + 1/(n-1) < 1 + 1/(n-2): needs the full 128-bit cross products.
        #expect(a < b && !(b < a) && a != b)
        #expect(Rational(numerator: -n, denominator: n - 1) > Rational(numerator: -(n - 1), denominator: n - 2))
        #expect(Rational(Int.max) < twoTo63 && twoTo63 > Rational(Int.max))
        #expect(Rational(Int.min) > -twoTo63 - 1 && -twoTo63 - 1 < Rational(Int.min))
        #expect(Rational(numerator: 1, denominator: 3) < Rational(numerator: 1, denominator: 2))
        #expect(Rational(-1) < .zero && Rational.zero < Rational(numerator: 1, denominator: Int.max))
        let big1 = twoTo63 * twoTo63, big2 = big1 + 1
        #expect(big1 < big2 && big2 > big1 && big1 <= big1 && big1 != big2)
        #expect([Rational(3), big2, -big1, .zero, Rational(numerator: -1, denominator: 2)].sorted()
            == [-big1, Rational(numerator: -1, denominator: 2), .zero, Rational(3), big2])
    }

    @Test func equalityAndHashingAcrossRepresentations() {
        // Built through GMP (19 digits) but normalised back inline.
        let viaText = Rational("9223372036854775807")
        #expect(viaText == Rational(Int.max) && viaText?.isInline == true)
        #expect(viaText?.hashValue == Rational(Int.max).hashValue)
        let viaOverflow = (Rational(Int.max) + Rational(Int.max)) - Rational(Int.max)
        #expect(viaOverflow.isInline && viaOverflow.hashValue == Rational(Int.max).hashValue)

        // Equal big values in distinct boxes.
        let x = twoTo63 * twoTo63 * Rational(numerator: 1, denominator: 3)
        let y = Rational("85070591730234615865843651857942052864/3")
        #expect(x == y && x.hashValue == y?.hashValue)
        let z = (Rational(exactly: 0x1p126) ?? .zero) / 3
        #expect(z == x && z.hashValue == x.hashValue)
        #expect(Set([x, z, Rational(Int.max), viaOverflow, .zero, Rational(0)]).count == 3)
        #expect(x != x + Rational(numerator: 1, denominator: 3))
    }

    @Test func copiesAreIndependent() {
        let original = twoTo63 * twoTo63
        var copy = original
        copy += 1
        copy *= 3
        copy.addProduct(twoTo63, twoTo63)
        #expect(original == Rational("85070591730234615865843651857942052864"))
        #expect(copy == (original + 1) * 3 + original)

        // A value held alone is updated in place; the result must still be canonical.
        var unique = twoTo63 * twoTo63
        unique -= twoTo63 * twoTo63 - 5
        #expect(unique == 5 && unique.isInline)
        var aliased = twoTo63 * twoTo63
        aliased += aliased
        #expect(aliased == original * 2)
        aliased *= aliased
        #expect(aliased == original * original * 4)
        aliased /= aliased
        #expect(aliased == 1 && aliased.isInline)
    }

    @Test func sharedAcrossTasks() async {
        let shared = twoTo63 * twoTo63 * Rational(numerator: 7, denominator: 11)
        let results = await withTaskGroup(of: Rational.self) { group in
            for i in 0..<8 {
                group.addTask {
                    var local = shared
                    for _ in 0..<200 { local += Rational(i); local -= Rational(i) }
                    local.addProduct(shared, Rational(i))
                    return local
                }
            }
            var all: [Rational] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(shared == Rational("595494142111642311060905563005594370048/11"))
        #expect(Set(results) == Set((0..<8).map { shared + shared * Rational($0) }))
    }

    @Test func numericConformance() {
        #expect(Rational(exactly: UInt64.max) == Rational("18446744073709551615"))
        #expect(Rational(exactly: Int8(-3)) == -3)
        #expect(Rational(exactly: Int64.min) == Rational(Int.min))
        var x: Rational = 5
        x.negate()
        #expect(x == -5)
    }

    @Test func preconditionsTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = Rational(1) / Rational(Int(0))
        }
        await #expect(processExitsWith: .failure) {
            _ = Rational(numerator: 1, denominator: 0)
        }
        await #expect(processExitsWith: .failure) {
            _ = Rational.zero.reciprocal
        }
    }
}
