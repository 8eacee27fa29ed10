import ExactArithmetic
import Generator
import Testing
@testable import LayoutModel

/// `loweredRoundingOnce` must give bit for bit the rows of the exact lowering rounded once,
/// computing in `Double` only where that changes nothing.
@Suite struct RoundedLoweringTests {
    /// The reference: exact rows, each number rounded once.
    static func reference(_ system: ConstraintSystem) -> LinearSystem<Double> {
        system.lowered(as: Rational.self).mapScalars(\.doubleValue)
    }

    /// The rows under test, and the constraint indices that went through exact arithmetic.
    static func rounded(_ system: ConstraintSystem) -> (LinearSystem<Double>, [Int]) {
        var exact: [Int] = []
        let linear = system.loweredRoundingOnce { index, level in
            exact.append(index)
            return (system.lower(system.constraints[index], index: index, level: level) as LinearRow<Rational>).mapScalars(\.doubleValue)
        }
        return (linear, exact)
    }

    /// Equal including the sign of zero and NaN payloads: bit patterns, not `==`.
    static func bitwiseEqual(_ a: LinearSystem<Double>, _ b: LinearSystem<Double>) -> Bool {
        guard a.variableCount == b.variableCount, a.levels == b.levels, a.rows.count == b.rows.count else { return false }
        for (x, y) in zip(a.rows, b.rows) {
            guard x.relation == y.relation, x.level == y.level, x.constraintIndex == y.constraintIndex,
                  x.constant.bitPattern == y.constant.bitPattern, x.terms.count == y.terms.count else { return false }
            for (s, t) in zip(x.terms, y.terms) where s.variable != t.variable || s.coefficient.bitPattern != t.coefficient.bitPattern {
                return false
            }
        }
        return true
    }

    @Test(arguments: Families.all.map(\.name))
    func everyFamilyMatchesTheExactLoweringRoundedOnce(family: String) throws {
        let chosen = try #require(Families.named(family))
        for seed in UInt64(1)...4 {
            let system = generate(family: chosen, size: 12, seed: seed).system
            let (linear, _) = Self.rounded(system)
            #expect(Self.bitwiseEqual(linear, Self.reference(system)), "\(family) seed \(seed)")
        }
    }

    @Test func exactAndOnceRoundedRowsStayInDouble() throws {
        let system = try parse("""
            root r 100 200
            view a
            view b in a
            a.width == 0.5 * b.width + 3
            a.centerX == 3 * b.centerX - 2.25
            a.width == 0.1 * b.width + 0.2
            a.left == 1.7 * b.centerX + 8
            a.top >= b.top + 1e-5 @750
            a.topMargin == b.top + 0.3
            a.left == 0.1 * a.right
            a.centerY == 0.3 * b.centerY

            """)
        // Decimals fit fractions of 64-bit integers: nothing needs the caller's exact arithmetic.
        let (linear, exact) = Self.rounded(system)
        #expect(exact.isEmpty)
        #expect(Self.bitwiseEqual(linear, Self.reference(system)))
        // The rows `Double` alone can take: every number exact, or one literal rounded once
        // (negated, halved); not 8 − 0.3 (two roundings) nor −0.1 + 0.1 (a rounded sum).
        let inDouble = (0..<system.constraints.count).map { index -> Bool in
            let row: LinearRow<CheckedDouble> = system.lower(system.constraints[index], index: index, level: 0)
            return row.constant.isRoundedOnce && row.terms.allSatisfy(\.coefficient.isRoundedOnce)
        }
        #expect(inDouble == [true, true, true, true, true, false, false, true])
    }

    /// Numbers beyond 64-bit fractions go to the caller's exact lowering, rounded once.
    @Test func hugeFractionsGoToTheExactPath() throws {
        let system = try parse("""
            root r 100 200
            view a
            view b in a
            a.width == 0.1 * b.width + 3
            a.left == 0.1234567890123456789 * a.right
            a.topMargin == b.top + 0.000000000000000000001
            a.width == 0.99999999999999999999 * a.width + 1

            """)
        let (linear, exact) = Self.rounded(system)
        #expect(exact == [1, 2, 3])
        // 1 − 0.99999999999999999999 is 10⁻²⁰, although in `Double` it cancels to 0.
        #expect(linear.rows[3].terms.map(\.coefficient) == [1e-20])
        #expect(Self.bitwiseEqual(linear, Self.reference(system)))
    }

    /// Where `Double` arithmetic would round twice, overflow or underflow, the exact path
    /// decides, and the answer is still the exact value rounded once.
    @Test func extremeNumbersMatchTheReference() throws {
        let lines = [
            "a.width == 0.1 * b.width + 0.2",
            "a.centerX == 0.3 * b.centerX + 1e-320",
            "a.width == 1e300 * b.width + 1e300",
            "a.width == 1e-300 * b.width + 1e-300",
            "a.centerY == 12345678901234567 * b.centerY",
            "a.centerY == 0.000000000000000000001 * b.centerY + 4503599627370497",
            "a.width == 3 * b.width",
        ]
        for line in lines {
            let system = try parse("root r 100 200\nview a\nview b in a\n\(line)\n")
            let (linear, _) = Self.rounded(system)
            #expect(Self.bitwiseEqual(linear, Self.reference(system)), "\(line)")
        }
    }

    /// Short dyadic literals (multiples of 2⁻⁶ below 2¹⁶) are what the plain-`Double` path
    /// takes; a decimal that only rounds onto one is not.
    @Test func shortDyadicLiterals() throws {
        let short = ["0", "8", "-8", "0.5", "0.5625", "0.015625", "65535.984375", "-65535.984375", "1024", "1.5"]
        let other = ["65536", "0.0078125", "0.1", "1e-300", "0.015625000000000001", "2.1", "1e5", "0.6666666667"]
        for text in short { #expect(try #require(NumericLiteral(parsing: text)).isShortDyadic, "\(text)") }
        for text in other { #expect(!(try #require(NumericLiteral(parsing: text)).isShortDyadic), "\(text)") }
    }

    /// Rows of short dyadic literals lower in plain `Double`, untracked: still the exact rows
    /// bit for bit, with literals at the edges of what that path takes (2¹⁶ − 2⁻⁶, 2⁻⁶, their
    /// negatives), centres, margins, baselines, nested views and a right-to-left layout,
    /// where partial sums and products come closest to the 53 bits they must fit.
    @Test func shortDyadicRowsAreExactInPlainDouble() throws {
        var rng = SeededGenerator(seed: 11)
        let edges = ["65535.984375", "-65535.984375", "0.015625", "-0.015625", "32767.5", "1", "-1", "0.5625", "0"]
        func literal() -> String {
            Bool.random(using: &rng) ? edges[Int.random(in: 0..<edges.count, using: &rng)]
                : String(Double(Int.random(in: -4_194_303...4_194_303, using: &rng)) / 64)
        }
        // Positions with positions, sizes with sizes, on one axis (rule V1); leading and
        // trailing apart from left and right (V4).
        let groups = [
            ["left", "right", "leftMargin", "rightMargin", "centerX", "centerXWithinMargins"],
            ["leading", "trailing", "leadingMargin", "trailingMargin", "centerX", "centerXWithinMargins"],
            ["top", "bottom", "centerY", "topMargin", "bottomMargin", "centerYWithinMargins", "firstBaseline", "lastBaseline"],
            ["width"], ["height"],
        ]
        var plainRows = 0
        for _ in 0..<150 {
            var text = Bool.random(using: &rng) ? "direction rtl\n" : ""
            let width = String(Double(Int.random(in: 1...4_194_303, using: &rng)) / 64)
            text += "root r \(width) 65535.984375 margins \(literal()) \(literal()) \(literal()) \(literal())\n"
            text += "view a margins \(literal()) \(literal()) \(literal()) \(literal()) baseline \(literal()) \(literal())\n"
            text += "view b in a margins \(literal()) \(literal()) \(literal()) \(literal())\n"
            text += "view c in b baseline \(literal()) \(literal())\n"
            for _ in 0..<6 {
                let items = ["r", "a", "b", "c"]
                let first = items[Int.random(in: 1..<4, using: &rng)], second = items[Int.random(in: 0..<4, using: &rng)]
                let pool = groups[Int.random(in: 0..<groups.count, using: &rng)]
                let a1 = pool[Int.random(in: 0..<pool.count, using: &rng)], a2 = pool[Int.random(in: 0..<pool.count, using: &rng)]
                let constant = literal()
                let signed = constant.hasPrefix("-") ? "- \(constant.dropFirst())" : "+ \(constant)"
                var multiplier = literal()
                while Double(multiplier) == 0 { multiplier = literal() }  // rule V5
                text += "\(first).\(a1) == \(multiplier) * \(second).\(a2) \(signed)\n"
            }
            let system = try parse(text)
            let (linear, exact) = Self.rounded(system)
            #expect(exact.isEmpty)
            #expect(Self.bitwiseEqual(linear, Self.reference(system)), "\(text)")
            if system.itemLiteralsAreShortDyadic {
                plainRows += system.constraints.indices.filter { system.rowIsShortDyadic($0) }.count
            }
        }
        // Most systems take the plain path for every row.
        #expect(plainRows > 500)
    }

    @Test func exactLiterals() throws {
        let exact = ["0", "1", "-8", "0.5", "26.25", "0.375", "123456789012345", "1e14", "0.000030517578125"]
        let inexact = ["0.1", "1.7", "1e-5", "1234567890123456789", "0.0000030517578125", "1e-400"]
        for text in exact { #expect(try #require(NumericLiteral(parsing: text)).doubleValueIsExact, "\(text)") }
        for text in inexact { #expect(!(try #require(NumericLiteral(parsing: text)).doubleValueIsExact), "\(text)") }
        #expect(try #require(NumericLiteral(parsing: "1000.0")).isThousand)
        #expect(!(try #require(NumericLiteral(parsing: "999.99999999999999999")).isThousand))
        #expect(!(try #require(NumericLiteral(parsing: "100")).isThousand))
    }

    /// Literals as fractions of 64-bit integers, read from their `Double`: the same fraction
    /// as the exact reading wherever one is given, over many seeded decimals.
    @Test func smallFractionsOfLiteralsAreExact() throws {
        var rng = SeededGenerator(seed: 7)
        var texts = ["0", "-0.5", "2.1", "0.1", "999999999999999", "0.000000000000001", "123456789.012345", "1e15",
                     "-7.25e-3", "1e-18", "1e-19", "12345678901234567", "0.3333333333333333"]
        for _ in 0..<2000 {
            let digits = Int.random(in: 1...17, using: &rng)
            var text = (0..<digits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            text += "e\(Int.random(in: -22...4, using: &rng))"
            if Bool.random(using: &rng) { text = "-" + text }
            texts.append(text)
        }
        var converted = 0
        for text in texts {
            let literal = try #require(NumericLiteral(parsing: text))
            let fraction = SmallFraction(literal: literal)
            guard fraction.fits else { continue }
            converted += 1
            let exact = Rational(literal: literal)
            let written = fraction.denominator == 1 ? "\(fraction.numerator)" : "\(fraction.numerator)/\(fraction.denominator)"
            #expect(written == exact.description, "\(text)")
        }
        #expect(converted > texts.count / 2)
    }

    @Test func largestLiteralMagnitudeSeesEveryNumber() throws {
        let system = try parse("""
            root r 1024 768
            view a margins 1 2 3 4096 baseline 5 6
            a.width == 2 * r.width + 9

            """)
        #expect(system.largestLiteralMagnitude == 4096)
        var scaled = system
        scaled.rowScales[0] = NumericLiteral(5000)
        #expect(scaled.largestLiteralMagnitude == 5000)
    }
}
