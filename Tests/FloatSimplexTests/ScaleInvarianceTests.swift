import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// The tolerance policy's scale invariance: a large multiplier or constant somewhere must not
/// change what the solver decides about the numbers elsewhere (docs/float-backend.md,
/// "Epsilon policy"). Each test is one root cause the guided fuzzer found.
@Suite struct ScaleInvarianceTests {
    static let multipliers: [Double] = [1e3, 1e6, 42_200_120, 1e9, 1e10, 1e12]

    /// Root cause 1: the pivot threshold for a fresh subject scaled with the largest
    /// coefficient anywhere, so in `b == k·a` the coefficient 1 of `b` read as zero for
    /// k ≥ 1e9 and the feasible system was reported unsatisfiable.
    @Test(arguments: multipliers)
    func aUnitCoefficientBesideALargeMultiplierIsAPivot(multiplier: Double) throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -1, .equal))              // a == 1
        try solver.addConstraint(constraint([(1, 1), (0, -multiplier)], 0, .equal)) // b == k·a
        #expect(solver.value(of: Variable(0)) == 1)
        #expect(solver.value(of: Variable(1)) == multiplier)
        // The reverse order (b named first) too: a is then a fresh variable of coefficient 1/k.
        var reversed = CassowarySolver()
        try reversed.addConstraint(constraint([(1, 1), (0, -multiplier)], 0, .equal))
        try reversed.addConstraint(constraint([(0, 1)], -1, .equal))
        #expect(isClose(reversed.value(of: Variable(1)), multiplier))
    }

    /// Root cause 2: computed entries (columns, reduced rows, substitutions) were dropped or
    /// refused as pivots below a threshold scaled with the largest coefficient, so the
    /// `1/k` by which `v4.x` follows the others in `v5.x + v5.w <= k·v4.x` read as zero and
    /// `v4.x` was called determined. Entries are now judged against their own summands.
    @Test(arguments: multipliers)
    func theInverseOfALargeMultiplierIsNotZero(multiplier: Double) throws {
        var solver = CassowarySolver()
        // x1 + x2 - k·x0 <= 0: every variable is free to move.
        try solver.addConstraint(constraint([(1, 1), (2, 1), (0, -multiplier)], 0, .lessThanOrEqual))
        #expect(solver.ambiguousVariables() == [Variable(0), Variable(1), Variable(2)])
    }

    /// Root cause 2, on an optimum: `x0` must follow `x1` through `x1 <= k·x0` without the
    /// weak preference on `x0` being bought by the strong one on `x1`'s neighbour.
    @Test(arguments: multipliers)
    func aStrongPreferenceThroughALargeMultiplierIsMet(multiplier: Double) throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(1, 1), (0, -multiplier)], 0, .lessThanOrEqual)) // x1 <= k·x0
        try solver.addConstraint(constraint([(1, 1)], -8, .equal, level: 1))                  // x1 == 8 strong
        try solver.addConstraint(constraint([(0, 1)], 0, .equal, level: 2))                   // x0 == 0 weak
        #expect(isClose(solver.value(of: Variable(1)), 8))
        #expect(isClose(solver.value(of: Variable(0)), 8 / multiplier))
        #expect(solver.objective(levelCount: 2)[0] <= 1e-9)
    }

    /// Root cause 3: the feasibility tolerance was one global number, 1e-9 × the largest
    /// constant × the largest coefficient, so `width <= 177000000030` made it 354 and a
    /// violation of 20 in a row of small numbers held. Each row's own magnitudes now set it.
    @Test(arguments: [1.77e11, 1e12, 1e15])
    func aLargeConstantElsewhereDoesNotHideAViolation(constant: Double) throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1), (3, -2)], -constant, .lessThanOrEqual)) // x0 - 2·x3 <= c
        try solver.addConstraint(constraint([(1, 1)], -20.000000001, .greaterThanOrEqual))   // x1 >= 20.000000001
        #expect(throws: CassowaryError.self) {
            try solver.addConstraint(constraint([(1, 1)], 0, .lessThanOrEqual))               // x1 <= 0
        }
        // An equality: x2 == 5 and x2 == 7 conflict whatever the other rows' constants.
        try solver.addConstraint(constraint([(2, 1)], -5, .equal))
        #expect(throws: CassowaryError.self) {
            try solver.addConstraint(constraint([(2, 1)], -7, .equal))
        }
    }

    /// The layout-level form of root cause 3, through the one-shot backend.
    @Test func aHugeRequiredBoundLeavesSmallConflictsVisible() throws {
        let text = """
            root root 1024 768
            view v1
            view v6
            v1.width <= 177000000030
            v6.width >= 20.000000001
            v6.width <= 0
            """
        let solution = try CassowaryBackend().solve(LayoutParser.parse(text), budget: .unlimited).solution
        #expect(solution.status == .unsatisfiable)
        #expect(solution.broken == [2])
    }

    /// Root cause 3's fix, in the triangular tableau: a row may name another basic symbol
    /// whose value is itself residue, so a value is judged against its backward cone when its
    /// own row does not settle it. Judged by its own row alone, the duplicate's marker
    /// (`= -s`, `s` 2.8e-14 left over from positions near 667) read as a violation and the
    /// feasible system as unsatisfiable.
    @Test func aDuplicateBehindResidueIsRedundant() throws {
        let text = """
            direction rtl
            root superview 667 375
            view gap0
            gap0.leading == superview.leading
            view button0 intrinsic 76 30
            button0.leading == gap0.trailing
            view gap1
            gap1.leading == button0.trailing
            gap1.width == gap0.width
            view button1 intrinsic 49 30
            button1.leading == gap1.trailing
            view gap2
            gap2.leading == button1.trailing
            gap2.width == gap0.width
            superview.trailing == gap2.trailing
            superview.trailing == gap2.trailing
            """
        let solution = try CassowaryBackend().solve(LayoutParser.parse(text), budget: .unlimited).solution
        #expect(solution.status == .optimal)
        #expect(solution.broken.isEmpty)
    }

    /// Root cause 4: reduced costs were judged against the largest term ever summed into an
    /// entry of their level (1, an error's unit cost), so the `1/(2k)` by which the strong
    /// error grows per unit of the weak one through `x1/2 <= -k·(8 + x0)` read as zero for
    /// k near 1e9, and the solver gave up 8 at the strong level to save 16k at the weak one
    /// (the guided fuzzer's `-970980000 * v3.trailing`). An entry computed as one product is
    /// no residue, however small.
    @Test(arguments: multipliers + [970_980_000])
    func aSmallReducedCostThroughALargeMultiplierCounts(multiplier: Double) throws {
        for strongFirst in [true, false] {
            var solver = CassowarySolver()
            let strong = constraint([(0, 1)], 0, .greaterThanOrEqual, level: 1)  // x0 >= 0 strong
            let weak = constraint([(1, 1)], 0, .equal, level: 2)                 // x1 == 0 weak
            try solver.addConstraint(constraint([(1, 0.5), (0, multiplier)], 8 * multiplier, .lessThanOrEqual))
            for c in strongFirst ? [strong, weak] : [weak, strong] { try solver.addConstraint(c) }
            // Rounding may leave x0 a few ulps of 8 below 0 (not 8 below).
            #expect(abs(solver.value(of: Variable(0))) <= 1e-12)
            #expect(isClose(solver.value(of: Variable(1)), -16 * multiplier))
            #expect(solver.objective(levelCount: 2)[0] <= 1e-12)
        }
    }

    /// Root cause 4 through the one-shot backend: the corpus case.
    @Test func theStrongLevelIsKeptThroughAMultiplierNearMinusOneBillion() throws {
        let text = """
            root root 1024 768
            view v3
            v3.width >= 0 @750
            v3.leading == root.leadingMargin
            view v5
            v5.width == 0 @749.9999
            v5.left == root.left
            v5.centerXWithinMargins <= -970980000 * v3.trailing
            """
        let solution = try CassowaryBackend().solve(LayoutParser.parse(text), budget: .unlimited).solution
        #expect(solution.status == .optimal)
        #expect(solution.values[2] == 0)            // v3.width
        #expect(solution.values[6] == -15_535_680_000)  // v5.width
        #expect(solution.objective[0] == 0)
    }
}
