import Foundation
import BackendContract
import LayoutModel
import SolverBenchmarks
import Testing
@testable import FloatSimplex

/// The epsilon policy on redundant and near-degenerate systems.
@Suite struct NumericsTests {
    func solve(_ text: String) throws -> Solution {
        try CassowaryBackend().solve(LayoutParser.parse(text), budget: .unlimited).solution
    }

    @Test func duplicatedRequiredConstraintsAreRedundantNotBroken() throws {
        var text = "root r 375 667\nview a\n"
        for _ in 0..<6 { text += "a.leading == r.leading + 20\na.width == 100\na.top == r.top + 10\na.height == 0.1 * a.width\n" }
        let solution = try solve(text)
        #expect(solution.status == .optimal)
        #expect(solution.broken.isEmpty)
        #expect(solution.values == [20, 10, 100, 10])
    }

    @Test func cyclesOfEqualitiesAreConsistent() throws {
        // a.w = b.w = c.w = d.w = a.w, one of them fixed; and a cycle of multipliers 2·3·(1/6).
        let text = """
            root r 375 667
            view a
            view b
            view c
            view d
            a.width == b.width
            b.width == c.width
            c.width == d.width
            d.width == a.width
            c.width == 42
            a.height == 2 * b.height
            b.height == 3 * c.height
            c.height == 0.1666666666666666666666 * a.height
            d.height == 12
            c.height == d.height
            """
        let solution = try solve(text)
        // Exactly, 2·3·0.1666…6 ≠ 1, so the heights are forced to 0 and `c.height == d.height`
        // (12) conflicts. In Double the product rounds to 1 within the tolerance: the cycle
        // looks redundant and the heights follow d. Either way nothing on the width cycle breaks.
        #expect(solution.values[2] == 42 && solution.values[6] == 42 && solution.values[10] == 42 && solution.values[14] == 42)
        #expect(solution.broken.allSatisfy { $0 >= 9 })
    }

    @Test func reciprocalMultipliersWithAnExactProductAreRedundant() throws {
        // 1.6 · 0.625 = 1 exactly in decimal; in binary each is rounded, the product is 1 within an ulp.
        let text = """
            root r 375 667
            view a
            a.leading == r.leading
            a.top == r.top
            a.width == 1.6 * a.height
            a.height == 0.625 * a.width
            a.width == 320 @750
            """
        let solution = try solve(text)
        #expect(solution.status == .optimal)
        #expect(isClose(solution.values[2], 320) && isClose(solution.values[3], 200))
        #expect(solution.objective == [0])
    }

    @Test func nearlyParallelConstraintsAboveTheToleranceAreSolvedExactly() throws {
        // Two required equalities whose normals differ by 1e-6: well above the 1e-9 policy.
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1), (1, 1)], -10, .equal))
        try solver.addConstraint(constraint([(0, 1), (1, 1.000001)], -10.000002, .equal))
        #expect(isClose(solver.value(of: Variable(1)), 2, tolerance: 1e-6))
        #expect(isClose(solver.value(of: Variable(0)), 8, tolerance: 1e-6))
    }

    @Test func scaleDoesNotChangeDecisions() throws {
        // The same conflicting system in points and in millionths of a point.
        for scale in [1.0, 1e-6, 1e6] {
            var solver = CassowarySolver()
            try solver.addConstraint(constraint([(0, 1)], -300 * scale, .equal))
            try solver.addConstraint(constraint([(1, 1)], -20 * scale, .equal))
            #expect(throws: CassowaryError.self) {
                try solver.addConstraint(constraint([(0, 1), (1, 1)], -320.001 * scale, .equal))
            }
            try solver.addConstraint(constraint([(0, 1), (1, 1)], -320 * scale, .equal))
            #expect(solver.constraintCount == 3)
        }
    }

    @Test func relabellingPrioritiesInALayoutChangesNoAnswer() throws {
        let original = """
            root s 375 667
            view box
            box.leading == s.leading + 20
            box.top == s.top + 20
            box.height == 40
            box.width == 100 @251
            box.width == 200 @250
            box.width >= 200 @250
            s.trailing == box.trailing + 155 @250
            box.height == 80 @1
            """
        let relabelled = original.replacingOccurrences(of: "@251", with: "@999")
            .replacingOccurrences(of: "@250", with: "@3").replacingOccurrences(of: "@1\n", with: "@2\n")
        let a = try solve(original + "\n"), b = try solve(relabelled + "\n")
        #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern))
        #expect(a.objective == b.objective)
        #expect(a.values[2] == 100)
    }

    @Test func budgetIsHonoured() throws {
        let system = IncrementalWorkload.treeSystem(200)
        let result = try CassowaryBackend().solve(system, budget: Budget(iterations: 3))
        #expect(result.solution.status == .budgetExceeded)
    }
}
