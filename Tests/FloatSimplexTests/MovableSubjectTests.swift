import BackendContract
import Testing
@testable import FloatSimplex

/// A required equality that does not hold where the solver stands, with no fresh variable
/// of its own, takes a named external as its subject when only a few unrestricted values
/// depend on it (``CassowarySolver/movableSubject(from:limit:)``), instead of leaving its
/// marker infeasible for the dual simplex.
@Suite struct MovableSubjectTests {
    /// Rows of a form stacked at the end, as VFL writes them: each row's label (top `4k`,
    /// height `4k+1`) and field (top `4k+2`, height `4k+3`) have their heights and are
    /// centred on each other; then the fields are stacked 8 apart from 20. Each link names
    /// the field's top, on which only its label's top depends.
    static func stack(_ rows: Int, labelFloor: Bool = false) -> (centred: [LinearConstraint], links: [LinearConstraint]) {
        var centred: [LinearConstraint] = []
        for k in 0..<rows {
            let labelTop = 4 * k, labelHeight = 4 * k + 1, fieldTop = 4 * k + 2, fieldHeight = 4 * k + 3
            centred.append(constraint([(labelHeight, 1)], -21, .equal))
            centred.append(constraint([(fieldHeight, 1)], -34, .equal))
            centred.append(constraint([(labelTop, 1), (labelHeight, 0.5), (fieldTop, -1), (fieldHeight, -0.5)], 0, .equal))
            if labelFloor { centred.append(constraint([(labelTop, 1)], 0, .greaterThanOrEqual, level: 1)) }
        }
        var links = [constraint([(2, 1)], -20, .equal)]
        for k in 1..<rows {
            links.append(constraint([(4 * k + 2, 1), (4 * k - 2, -1), (4 * k - 1, -1)], -8, .equal))
        }
        return (centred, links)
    }

    @Test(arguments: [12, 300])
    func aStackOfLinksTakesNoPivotAndKeepsRowsShort(_ rows: Int) throws {
        let (centred, links) = Self.stack(rows)
        var solver = CassowarySolver()
        for c in centred { try solver.addConstraint(c) }
        let pivotsBefore = solver.tableau.pivots
        for c in links { try solver.addConstraint(c) }
        #expect(solver.tableau.pivots == pivotsBefore, "the links pivoted \(solver.tableau.pivots - pivotsBefore) times")
        #expect(solver.tableau.termCount <= 2 * solver.originalTerms, "\(solver.tableau.termCount) terms for \(solver.originalTerms)")
        for k in 0..<rows {
            #expect(solver.value(of: Variable(4 * k + 2)) == 20 + 42 * Double(k), "field \(k)")
            #expect(solver.value(of: Variable(4 * k)) == 26.5 + 42 * Double(k), "label \(k)")
        }
        solver.tableau._checkInvariants()
    }

    /// With a bound on each label's top, a restricted symbol depends on the field's top: the
    /// link leaves its marker to the dual simplex, as before, and the answer is the same.
    @Test func aBoundInTheConeLeavesTheLinkToTheDualSimplex() throws {
        let (centred, links) = Self.stack(40, labelFloor: true)
        var solver = CassowarySolver()
        for c in centred + links { try solver.addConstraint(c) }
        for k in 0..<40 {
            #expect(solver.value(of: Variable(4 * k + 2)) == 20 + 42 * Double(k), "field \(k)")
            #expect(solver.value(of: Variable(4 * k)) == 26.5 + 42 * Double(k), "label \(k)")
        }
        solver.tableau._checkInvariants()
    }

    /// An addition that moves a named subject and is then rolled back (a conflicting required
    /// row added in the same attempt cannot happen: the move breaks nothing) leaves the
    /// solver as it was: here a removal of the link and its re-addition give the same point.
    @Test func removingAndReaddingAMovedLinkGivesTheSamePoint() throws {
        let (centred, links) = Self.stack(30)
        var solver = CassowarySolver()
        for c in centred { try solver.addConstraint(c) }
        var handles: [ConstraintHandle] = []
        for c in links { handles.append(try solver.addConstraint(c)) }
        let before = (0..<120).map { solver.value(of: Variable($0)) }
        try solver.removeConstraint(handles[15])
        try solver.addConstraint(links[15])
        for v in 0..<120 { #expect(isClose(solver.value(of: Variable(v)), before[v], tolerance: 1e-12), "v\(v)") }
        solver.tableau._checkInvariants()
    }
}
