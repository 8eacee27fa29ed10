import SeededRandom
import Testing
@testable import ExactArithmetic

/// Field axioms on thousands of deterministic values mixing inline and GMP storage.
@Suite struct RationalPropertyTests {
    @Test func fieldAxioms() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var sawInline = 0, sawBig = 0
        for _ in 0..<2500 {
            let a = rng.rational(), b = rng.rational(), c = rng.rational()
            for value in [a, b, c] { if value.isInline { sawInline += 1 } else { sawBig += 1 } }

            #expect(a + b == b + a)
            #expect(a * b == b * a)
            #expect((a + b) + c == a + (b + c))
            #expect((a * b) * c == a * (b * c))
            #expect(a * (b + c) == a * b + a * c)
            #expect(a - b == a + -b)
            #expect(a - a == .zero && (a + -a).isZero)
            #expect(-(-a) == a)
            #expect(a * .one == a && a + .zero == a && a * .zero == .zero)
            if !b.isZero {
                #expect((a / b) * b == a)
                #expect(a / b == a * b.reciprocal)
            }
            if !a.isZero {
                #expect(a * a.reciprocal == .one)
                #expect(a.reciprocal.reciprocal == a)
            }
            #expect(a.magnitude == (a.sign < 0 ? -a : a))

            // Every result is in canonical form, so == and hashing never see two shapes.
            for r in [a + b, a - b, a * b, a * b + c, -a, a.magnitude] {
                #expect(hasCanonicalRepresentation(r), "\(r)")
            }
        }
        #expect(sawInline > 1000 && sawBig > 1000)
    }

    @Test func compoundOperatorsMatchBinaryOperators() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        for _ in 0..<2000 {
            let a = rng.rational(), b = rng.rational(), c = rng.rational()
            let snapshot = a.description
            var x = a
            x += b
            #expect(x == a + b)
            x = a
            x -= b
            #expect(x == a - b)
            x = a
            x *= b
            #expect(x == a * b)
            if !b.isZero {
                x = a
                x /= b
                #expect(x == a / b)
            }
            x = c
            x.addProduct(a, b)
            #expect(x == c + a * b)
            #expect(hasCanonicalRepresentation(x))
            // A value held alone is updated in place (the unique-reference path).
            var unique = a * b + c
            unique += a
            unique.addProduct(b, c)
            #expect(unique == a * b + c + a + b * c)
            // Mutating copies never changes the original.
            #expect(a.description == snapshot)
        }
    }

    @Test func orderHashAndTextAreConsistent() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        for _ in 0..<2500 {
            let a = rng.rational(), b = rng.rational()
            #expect((a < b) == ((a - b).sign < 0))
            #expect((a == b) == ((a - b).isZero))
            #expect((a < b) || (b < a) || (a == b))
            #expect(!(a < b && b < a))
            // Routing through GMP and back must not change the answer.
            let huge = Rational("1" + String(repeating: "7", count: 40)) ?? .one
            let detour = ((a + huge) + b) - huge
            #expect(detour == a + b && detour.hashValue == (a + b).hashValue)
            #expect(((a * huge) / huge) == a && ((a * huge) / huge).hashValue == a.hashValue)
            #expect(Rational(a.description) == a)
        }
    }
}
