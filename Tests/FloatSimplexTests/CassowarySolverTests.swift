import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

@Suite struct CassowarySolverTests {
    @Test("a solver reserved for n variables finds each by index, in whatever order rows name them")
    func reservedVariablesAreDense() throws {
        func add(_ solver: inout CassowarySolver) throws {
            try solver.addConstraint(constraint([(400, 1)], -10, .equal))          // v400 = 10
            try solver.addConstraint(constraint([(3, 1), (400, -1)], -5, .equal))   // v3 = v400 + 5
        }
        var reserved = CassowarySolver()
        reserved.reserveCapacity(constraints: 2, terms: 3, variables: 500)
        try add(&reserved)
        #expect(reserved.sparseSymbols.isEmpty)
        #expect(reserved.value(of: Variable(3)) == 15)
        // Grown from the first variable named, the table starts at 400, and 3 is hashed.
        var grown = CassowarySolver()
        try add(&grown)
        #expect(grown.sparseSymbols.count == 1)
        #expect(grown.value(of: Variable(3)) == 15)
    }

    @Test func solvesAChainOfEqualities() throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -8, .equal))                 // x0 = 8
        try solver.addConstraint(constraint([(1, 1)], -50, .equal, level: 1))      // w0 = 50 @1
        try solver.addConstraint(constraint([(1, 1)], -20, .greaterThanOrEqual))   // w0 >= 20
        try solver.addConstraint(constraint([(2, 1), (0, -1), (1, -1)], -8, .equal)) // x1 = x0 + w0 + 8
        #expect(solver.value(of: Variable(0)) == 8)
        #expect(solver.value(of: Variable(1)) == 50)
        #expect(solver.value(of: Variable(2)) == 66)
        #expect(solver.pivotCount == 0)
    }

    @Test func aStrongerLevelIsNeverTradedForWeakerOnes() throws {
        // One wish at level 1 against three at level 2 pulling the other way (priority-contest seed).
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -100, .equal, level: 1))
        try solver.addConstraint(constraint([(0, 1)], -200, .equal, level: 2))
        try solver.addConstraint(constraint([(0, 1)], -200, .greaterThanOrEqual, level: 2))
        try solver.addConstraint(constraint([(0, -1)], 200, .equal, level: 2))
        #expect(isClose(solver.value(of: Variable(0)), 100))
        #expect(solver.objective(levelCount: 2) == [0, 300])
    }

    @Test func manyWeakErrorsDoNotOutweighOneStrongError() throws {
        // 2,000 weak wishes for x = 0 against one strong wish for x = 1.
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -1, .equal, level: 1))
        for _ in 0..<2000 { try solver.addConstraint(constraint([(0, 1)], 0, .equal, level: 2)) }
        #expect(isClose(solver.value(of: Variable(0)), 1))
    }

    @Test func relabellingLevelsMonotonicallyChangesNothing() throws {
        var random = TestRandom(seed: 7)
        for _ in 0..<40 {
            var base: [LinearConstraint] = []
            for _ in 0..<12 {
                let terms = (0..<random.int(1...3)).map { _ in (random.int(0...4), Double(random.int(-3...3))) }
                let relation: Relation = random.chance(0.3) ? (random.chance(0.5) ? .lessThanOrEqual : .greaterThanOrEqual) : .equal
                base.append(constraint(terms, Double(random.int(-40...40)), relation, level: random.int(0...4)))
            }
            let relabel = [0, 3, 17, 18, 999]   // strictly increasing: same order of levels
            var a = CassowarySolver()
            var b = CassowarySolver()
            for c in base {
                var d = c
                d.strength = Strength(level: relabel[c.strength.level])
                let ra = Result { () throws(CassowaryError) in try a.addConstraint(c) }
                let rb = Result { () throws(CassowaryError) in try b.addConstraint(d) }
                #expect((try? ra.get()) == nil ? (try? rb.get()) == nil : (try? rb.get()) != nil)
            }
            for v in 0..<5 {
                #expect(a.value(of: Variable(v)).bitPattern == b.value(of: Variable(v)).bitPattern)
            }
        }
    }

    @Test func removingAConstraintRestoresTheOptimumWithoutIt() throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -10, .equal, level: 2))
        let strong = try solver.addConstraint(constraint([(0, 1)], -30, .equal, level: 1))
        #expect(isClose(solver.value(of: Variable(0)), 30))
        try solver.removeConstraint(strong)
        #expect(isClose(solver.value(of: Variable(0)), 10))
        #expect(throws: CassowaryError.unknownConstraint(strong)) { try solver.removeConstraint(strong) }
    }

    @Test func rejectsAnUnsatisfiableRequiredConstraintWithItsConflict() throws {
        var solver = CassowarySolver()
        let width = try solver.addConstraint(constraint([(1, 1)], -300, .equal))             // w = 300
        let leading = try solver.addConstraint(constraint([(0, 1)], -20, .equal))            // x = 20
        try solver.addConstraint(constraint([(2, 1)], -20, .equal))                          // y = 20 (unrelated)
        let before = solver.fingerprint
        #expect(throws: CassowaryError.unsatisfiable(conflict: [width, leading])) {
            try solver.addConstraint(constraint([(0, -1), (1, -1)], 355, .equal))            // x + w = 355
        }
        #expect(solver.fingerprint == before)
        #expect(solver.constraintCount == 3)
    }

    @Test func editVariablesFollowSuggestions() throws {
        // A chain pinned at both ends by an editable width W (variable 100).
        var solver = CassowarySolver()
        let n = 5
        for i in 0..<n {
            let x = 2 * i, w = 2 * i + 1
            if i == 0 {
                try solver.addConstraint(constraint([(x, 1)], -8, .equal))
            } else {
                try solver.addConstraint(constraint([(x, 1), (x - 2, -1), (x - 1, -1)], -8, .equal))
            }
            try solver.addConstraint(constraint([(w, 1)], -50, .equal, level: 2))
            try solver.addConstraint(constraint([(w, 1)], -20, .greaterThanOrEqual))
        }
        try solver.addConstraint(constraint([(100, 1), (2 * n - 2, -1), (2 * n - 1, -1)], -8, .equal))
        try solver.addEditVariable(Variable(100), strength: Strength(level: 1))
        #expect(isClose(solver.value(of: Variable(100)), 8 + 58 * Double(n)))
        for target in [400.0, 200, 150, 500, 8 + 28 * Double(n), 100] {
            try solver.suggestValue(Variable(100), target)
            let widths = (0..<n).map { solver.value(of: Variable(2 * $0 + 1)) }
            let reachable = max(target, 8 + 28 * Double(n))
            #expect(isClose(solver.value(of: Variable(100)), reachable))
            #expect(isClose(widths.reduce(0, +), reachable - 8 - 8 * Double(n)))
            #expect(widths.allSatisfy { $0 >= 20 - 1e-9 })
            // Lexicographic: the level-2 error is the least possible for this total.
            let error = widths.map { abs($0 - 50) }.reduce(0, +)
            #expect(isClose(error, abs(widths.reduce(0, +) - 50 * Double(n))))
        }
        #expect(throws: CassowaryError.requiredEditStrength) { try solver.addEditVariable(Variable(1), strength: .required) }
        #expect(throws: CassowaryError.duplicateEditVariable(Variable(100))) {
            try solver.addEditVariable(Variable(100), strength: Strength(level: 1))
        }
        try solver.removeEditVariable(Variable(100))
        #expect(isClose(solver.value(of: Variable(100)), 8 + 58 * Double(n)))
        #expect(throws: CassowaryError.unknownEditVariable(Variable(100))) { try solver.suggestValue(Variable(100), 1) }
    }

    @Test func severalEditVariablesEndInAnyOrder() throws {
        // Three independent sizes, each with a weak natural value, made editable; ending the
        // middle edit moves the last one into its slot, which must keep working.
        var solver = CassowarySolver()
        for v in 0..<3 { try solver.addConstraint(constraint([(v, 1)], -Double(10 * (v + 1)), .equal, level: 2)) }
        for v in 0..<3 { try solver.addEditVariable(Variable(v), strength: Strength(level: 1)) }
        for v in 0..<3 { try solver.suggestValue(Variable(v), Double(100 + v)) }
        try solver.removeEditVariable(Variable(1))
        #expect(!solver.hasEditVariable(Variable(1)) && solver.hasEditVariable(Variable(0)) && solver.hasEditVariable(Variable(2)))
        #expect(isClose(solver.value(of: Variable(1)), 20))
        try solver.suggestValue(Variable(2), 7)
        try solver.suggestValue(Variable(0), 3)
        #expect(isClose(solver.value(of: Variable(0)), 3) && isClose(solver.value(of: Variable(2)), 7))
        #expect(throws: CassowaryError.unknownEditVariable(Variable(1))) { try solver.suggestValue(Variable(1), 1) }
        // Removing an edit's constraint by handle ends the edit too; the variable can be edited again.
        let handles = (0..<solver.records.count).map { ConstraintHandle(id: $0) }.filter {
            solver.constraint($0)?.strength == Strength(level: 1) && solver.constraint($0)?.terms.first?.variable == Variable(2)
        }
        try #require(handles.count == 1)
        try solver.removeConstraint(handles[0])
        #expect(!solver.hasEditVariable(Variable(2)) && solver.hasEditVariable(Variable(0)))
        #expect(isClose(solver.value(of: Variable(2)), 30))
        try solver.addEditVariable(Variable(2), strength: Strength(level: 1))
        try solver.suggestValue(Variable(2), 5)
        #expect(isClose(solver.value(of: Variable(2)), 5) && isClose(solver.value(of: Variable(0)), 3))
    }

    @Test func theEnteringDirectionThatAlsoCostsAWeakerLevelWaits() throws {
        // A table cell: its height h >= 44 and == 60 at the weakest level; a label inside it of
        // height h - 16 - s (s >= 0 its slack to the bottom) wants 21 at the strongest level.
        // Lowering h or growing s reduce the label's error at the same rate; lowering h also
        // costs the weak level. Taking s first solves it in one pivot; taking h first (kiwi's
        // first-negative rule picks it: it is older) costs two more to give h back.
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1)], -44, .greaterThanOrEqual))            // h >= 44
        try solver.addConstraint(constraint([(0, 1)], -60, .equal, level: 3))               // h == 60 @3
        try solver.addConstraint(constraint([(1, 1), (0, -1)], 16, .lessThanOrEqual))      // t <= h - 16
        let before = solver.pivotCount
        try solver.addConstraint(constraint([(1, 1)], -21, .equal, level: 1))               // t == 21 @1
        #expect(solver.pivotCount - before == 1)
        #expect(isClose(solver.value(of: Variable(0)), 60) && isClose(solver.value(of: Variable(1)), 21))
    }

    @Test func rejectsNonFiniteInput() {
        var solver = CassowarySolver()
        #expect(throws: CassowaryError.self) { try solver.addConstraint(constraint([(0, .infinity)], 0, .equal)) }
        #expect(throws: CassowaryError.self) { try solver.addConstraint(constraint([(0, 1)], .nan, .equal)) }
        #expect(throws: CassowaryError.self) { try solver.addConstraint(constraint([(0, 1)], 0, .equal, level: -1)) }
        #expect(solver.constraintCount == 0)
    }

    @Test func ambiguityFollowsFreeDirections() throws {
        var solver = CassowarySolver()
        try solver.addConstraint(constraint([(0, 1), (1, -1)], -10, .equal))   // child.x = parent.x + 10, parent.x free
        try solver.addConstraint(constraint([(2, 1)], -5, .equal))             // determined
        try solver.addConstraint(constraint([(3, 1)], 0, .greaterThanOrEqual)) // 3 ≥ 0, nothing else: free upwards
        try solver.addConstraint(constraint([(4, 1)], -5, .equal, level: 1))   // pulled to 5: determined
        #expect(solver.ambiguousVariables() == [Variable(0), Variable(1), Variable(3)])
    }
}
