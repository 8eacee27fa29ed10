import LayoutModel
import Testing
@testable import Generator

/// The textbook LPs, typed here independently of the generator's table.
///
/// Beale's example: E. M. L. Beale, "Cycling in the dual simplex algorithm", Naval Research
/// Logistics Quarterly 2 (1955), in its common textbook form:
/// minimise -3/4 x4 + 20 x5 - 1/2 x6 + 6 x7 subject to
///   1/4 x4 -  8 x5 -     x6 + 9 x7 <= 0
///   1/2 x4 - 12 x5 - 1/2 x6 + 3 x7 <= 0
///                        x6        <= 1,   x >= 0;   minimum -5/4 at x4 = x6 = 1.
///
/// Kuhn's example, as in R. G. Bland, "New finite pivoting rules for the simplex method",
/// Math. Oper. Res. 2 (1977), and V. Chvátal, Linear Programming (1983), ch. 3:
/// minimise -2 x4 - 3 x5 + x6 + 12 x7 subject to
///     -2 x4 - 9 x5 +     x6 +  9 x7 <= 0
///    1/3 x4 +   x5 - 1/3 x6 -  2 x7 <= 0
///      2 x4 + 3 x5 -     x6 - 12 x7 <= 2,   x >= 0;   minimum -2 (e.g. at x4 = x6 = 2).
struct Textbook {
    var name: String
    var objective: [Fraction]
    var rows: [[Fraction]]
    var bounds: [Fraction]
    var optimum: [Fraction]
    var optimalValue: Fraction

    static let beale = Textbook(
        name: "beale",
        objective: [Fraction(-3, 4), Fraction(20), Fraction(-1, 2), Fraction(6)],
        rows: [[Fraction(1, 4), Fraction(-8), Fraction(-1), Fraction(9)],
               [Fraction(1, 2), Fraction(-12), Fraction(-1, 2), Fraction(3)],
               [Fraction(0), Fraction(0), Fraction(1), Fraction(0)]],
        bounds: [Fraction(0), Fraction(0), Fraction(1)],
        optimum: [Fraction(1), Fraction(0), Fraction(1), Fraction(0)],
        optimalValue: Fraction(-5, 4))

    static let kuhn = Textbook(
        name: "kuhn",
        objective: [Fraction(-2), Fraction(-3), Fraction(1), Fraction(12)],
        rows: [[Fraction(-2), Fraction(-9), Fraction(1), Fraction(9)],
               [Fraction(1, 3), Fraction(1), Fraction(-1, 3), Fraction(-2)],
               [Fraction(2), Fraction(3), Fraction(-1), Fraction(-12)]],
        bounds: [Fraction(0), Fraction(0), Fraction(2)],
        optimum: [Fraction(2), Fraction(0), Fraction(2), Fraction(0)],
        optimalValue: Fraction(-2))
}

/// The layout point where the LP variables of one example take `x`: every other unknown
/// follows from the required equalities.
func layoutPoint(_ system: ConstraintSystem, prefix: String, x: [Fraction]) throws -> [Fraction] {
    var e = ExactElimination()
    for row in system.lowered(as: Fraction.self).rows where row.isRequired && row.relation == .equal {
        #expect(e.add(row) != .inconsistent)
    }
    // The example's variables take x; every other example's variables are held at 0.
    for (index, item) in system.items.enumerated() {
        // Variable views are named EXAMPLE_xJ; term views EXAMPLE_rowI_xJ.
        let parts = item.name.split(separator: "_")
        guard parts.count == 2, let j = ["x4", "x5", "x6", "x7"].firstIndex(where: { $0 == parts[1] }) else { continue }
        let value = item.name.hasPrefix(prefix) ? x[j] : .zero
        #expect(e.fix(Unknown(item: index, component: .w).variable, at: value) != .inconsistent)
    }
    return try (0..<system.variableCount).map { v in
        try #require(e.value(of: v), "\(system.unknownName(Unknown(variable: v))) is not fixed")
    }
}

@Suite("simplex-cycling")
struct SimplexCyclingTests {
    /// One copy of both examples, in textbook order.
    func cyclingSystem() throws -> ConstraintSystem {
        generate(family: try family("simplex-cycling"), size: 36, seed: 1).system
    }

    /// The rows of one example in file order: its `<=` rows, its `x >= 0` rows and its
    /// objective row.
    func rows(of prefix: String, in system: ConstraintSystem)
        -> (le: [LinearRow<Fraction>], nonnegative: [LinearRow<Fraction>], objective: LinearRow<Fraction>?)
    {
        let lowered = system.lowered(as: Fraction.self)
        let owned = lowered.rows.filter {
            system.items[system.constraints[$0.constraintIndex].first.item].name.hasPrefix(prefix)
        }
        return (owned.filter { $0.isRequired && $0.relation == .lessThanOrEqual },
                owned.filter { $0.isRequired && $0.relation == .greaterThanOrEqual },
                owned.first { !$0.isRequired })
    }

    @Test("the layouts encode the textbook LPs row by row", arguments: [Textbook.beale, Textbook.kuhn])
    func encodesTextbook(lp: Textbook) throws {
        let system = try cyclingSystem()
        let prefix = lp.name + "_"
        let (le, nonnegative, objective) = rows(of: prefix, in: system)
        #expect(le.count == 3 && nonnegative.count == 4)
        let z = try #require(objective)
        let origin = try layoutPoint(system, prefix: prefix, x: Array(repeating: .zero, count: 4))
        for (i, row) in le.enumerated() {
            // Row i at x is a_i·x - b_i (Kuhn's second row is stored times 3).
            let scale = lp.name == "kuhn" && i == 1 ? Fraction(3) : .one
            #expect(row.value(at: origin) == -lp.bounds[i] * scale)
            for j in 0..<4 {
                var unit = Array(repeating: Fraction.zero, count: 4)
                unit[j] = .one
                let point = try layoutPoint(system, prefix: prefix, x: unit)
                #expect(row.value(at: point) - row.value(at: origin) == lp.rows[i][j] * scale, "row \(i + 1), x\(j + 4)")
                #expect(z.value(at: point) - z.value(at: origin) == lp.objective[j])
            }
        }
        // The objective row's error is c·x + 1000 while c·x >= -1000.
        #expect(z.relation == .lessThanOrEqual && z.value(at: origin) == Fraction(1000))
        for (j, row) in nonnegative.enumerated() {
            var unit = Array(repeating: Fraction.zero, count: 4)
            unit[j] = Fraction(5)
            #expect(row.value(at: try layoutPoint(system, prefix: prefix, x: unit)) == Fraction(5))
        }
        // The known optimum is feasible and has the known value.
        let best = try layoutPoint(system, prefix: prefix, x: lp.optimum)
        #expect(le.allSatisfy { !(Fraction.zero < $0.value(at: best)) })
        #expect(nonnegative.allSatisfy { !($0.value(at: best) < .zero) })
        #expect(z.value(at: best) - Fraction(1000) == lp.optimalValue)
    }

    @Test("the origin is a degenerate vertex: six constraints tight in four dimensions",
          arguments: [Textbook.beale, Textbook.kuhn])
    func degenerateOrigin(lp: Textbook) throws {
        let system = try cyclingSystem()
        let prefix = lp.name + "_"
        let (le, nonnegative, _) = rows(of: prefix, in: system)
        let origin = try layoutPoint(system, prefix: prefix, x: Array(repeating: .zero, count: 4))
        let tight = (le + nonnegative).filter { $0.value(at: origin).isZero }
        let slack = (le + nonnegative).filter { !$0.value(at: origin).isZero }
        #expect(tight.count == 6)
        #expect(slack.count == 1)
        // Feasible: the origin is a vertex of the polyhedron, with 2 more tight constraints
        // than a nondegenerate vertex would have.
        #expect(le.allSatisfy { !(Fraction.zero < $0.value(at: origin)) })
    }

    @Test("larger sizes add shuffled copies; the first copy keeps textbook order")
    func copies() throws {
        let big = generate(family: try family("simplex-cycling"), size: 200, seed: 5).system
        #expect(big.viewCount == 6 * 36)
        #expect(big.itemIndex(named: "beale4_x4") != nil)
        let first = generate(family: try family("simplex-cycling"), size: 36, seed: 5).system
        let prefixLength = first.constraints.count
        #expect(Array(big.constraints.prefix(prefixLength)) == first.constraints)
        #expect(TextbookLinearProgram.beale.encodedViewCount + TextbookLinearProgram.kuhn.encodedViewCount == 36)
    }
}
