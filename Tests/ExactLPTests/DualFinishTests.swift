import ExactArithmetic
@testable import ExactLP
import ExactSimplex
import Foundation
import MathematicalProgramming
import Testing

/// The exact dual simplex that finishes from a basis the float run got slightly wrong
/// (``RevisedSimplex/runDualFinish()``).
@Suite("Exact dual finish")
struct DualFinishTests {
    /// A covering program: from the slack basis every reduced cost is a nonnegative cost
    /// (dual feasible) and every row is short of its right-hand side (primal infeasible),
    /// the shape of a float optimum whose basic values are a rounding error off.
    static let covering = """
        NAME
        ROWS
         N  COST
         G  R1
         G  R2
         G  R3
        COLUMNS
            X  COST  3  R1  1
            X  R2  1  R3  2
            Y  COST  2  R1  1
            Y  R2  3
            W  COST  4  R2  1
            W  R3  1
        RHS
            RHS  R1  4  R2  6
            RHS  R3  3
        BOUNDS
         UP BND W 5
        ENDATA
        """

    @Test func dualFinishFromADualFeasibleBasisReachesTheOptimumWithoutPhaseOne() throws {
        let lp = try read(Self.covering)
        let reference = try solveChecked(lp, warm: false)
        let slack = Array(lp.columnCount..<(lp.columnCount + lp.rowCount))
        var exact = RevisedSimplex<Rational>(lp: lp, options: .init(), startBasis: slack)
        guard case .optimal(let result) = exact.runDualFinish() else {
            Issue.record("the dual finish did not end optimal from a dual feasible basis")
            return
        }
        #expect(result.objective == reference.objective)
        #expect(result.pivots == exact.dualFinishPivots && result.pivots > 0)
        #expect(result.phaseOnePivots == 0)
        let certificate = try #require(result.certificate)
        #expect(LPCertificateVerifier.failure(of: certificate, for: lp) == nil)
    }

    /// A boxed nonbasic variable whose reduced cost favours its other bound is moved there
    /// (no shift): W starts at its upper bound 5 though its cost pulls it down.
    @Test func boxedVariablesMoveToTheBoundTheirCostFavours() throws {
        let lp = try read(Self.covering)
        let reference = try solveChecked(lp, warm: false)
        let n = lp.columnCount
        var atUpper = [Bool](repeating: false, count: n + lp.rowCount)
        atUpper[2] = true
        var exact = RevisedSimplex<Rational>(
            lp: lp, options: .init(), startBasis: Array(n..<(n + lp.rowCount)), atUpper: atUpper)
        guard case .optimal(let result) = exact.runDualFinish() else {
            Issue.record("the dual finish did not end optimal")
            return
        }
        #expect(result.objective == reference.objective)
        #expect(LPCertificateVerifier.failure(of: try #require(result.certificate), for: lp) == nil)
    }

    /// A free variable with a nonzero reduced cost cannot move to a favourable bound: its
    /// cost is shifted, the dual simplex reaches a feasible basis, the costs come back and
    /// the primal simplex finishes (phase 2 only) at the program's own optimum.
    @Test func shiftedCostsAreRestoredAndThePrimalFinishes() throws {
        // The covering program with a free Z costing 1 and bounded below through Z − X ≥ −10.
        let lp = try read("""
            NAME
            ROWS
             N  COST
             G  R1
             G  R2
             G  R3
             G  R4
            COLUMNS
                X  COST  3  R1  1
                X  R2  1  R3  2
                X  R4  -1
                Y  COST  2  R1  1
                Y  R2  3
                W  COST  4  R2  1
                W  R3  1
                Z  COST  1  R4  1
            RHS
                RHS  R1  4  R2  6
                RHS  R3  3  R4  -10
            BOUNDS
             UP BND W 5
             FR BND Z
            ENDATA
            """)
        let reference = try solveChecked(lp, warm: false)
        let n = lp.columnCount
        var exact = RevisedSimplex<Rational>(lp: lp, options: .init(), startBasis: Array(n..<(n + lp.rowCount)))
        let programCost = exact.cost
        guard case .primalFeasible(let shifted) = exact.runDualFinish() else {
            Issue.record("a start needing a shifted cost did not hand over a feasible basis")
            return
        }
        #expect(shifted == 1)
        #expect(exact.cost == programCost, "the shifted costs were not restored")
        let phaseOneBefore = exact.phaseOnePivots
        let result = exact.run()
        #expect(exact.phaseOnePivots == phaseOneBefore, "the primal finish needed phase 1")
        #expect(result.status == .optimal)
        #expect(result.objective == reference.objective)
        #expect(LPCertificateVerifier.failure(of: try #require(result.certificate), for: lp) == nil)
    }
}
