import LayoutModel
import SolverBenchmarks
import Testing
@testable import FloatSimplex

@Suite struct RefactorisationTests {
    /// Rebuilding the rows for the current basis keeps the point and the objective, whatever
    /// the workload, and leaves no more terms than the constraints themselves.
    @Test(arguments: IncrementalWorkload.Kind.allCases)
    func refactorisationKeepsThePoint(_ kind: IncrementalWorkload.Kind) throws {
        let workload = IncrementalWorkload.make(kind, size: kind == .form ? 3 : 40)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        for edit in workload.edits { try solver.addEditVariable(edit.variable, strength: edit.strength) }
        for step in workload.suggestions.prefix(60) {
            for (variable, value) in step { try solver.suggestValue(variable, value) }
        }
        let before = (0..<workload.variableCount).map { solver.value(of: Variable($0)) }
        let objective = solver.objective(levelCount: workload.levelCount)
        let rebuilt = solver.refactor()
        #expect(rebuilt)
        #expect(solver.tableau.termCount <= solver.originalTerms)
        for (v, old) in before.enumerated() {
            #expect(isClose(solver.value(of: Variable(v)), old, tolerance: 1e-9), "\(kind) v\(v)")
        }
        #expect(solver.objective(levelCount: workload.levelCount) == objective || zip(solver.objective(levelCount: workload.levelCount), objective).allSatisfy { isClose($0, $1) })
        #expect(solver.tableau.candidates.isEmpty && solver.tableau.infeasible.isEmpty)
    }

    /// Adding and removing constraints many times leaves garbage in both term pools; once it
    /// outweighs the live terms it is compacted away. The rows must survive that: the solver
    /// still answers as a fresh one, before and after a refactorisation (which rebuilds from
    /// the records' rows).
    @Test func termPoolsSurviveManyRemovals() throws {
        let workload = IncrementalWorkload.make(.chain, size: 12)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        let termsBefore = solver.recordTerms.count
        var random = TestRandom(seed: 77)
        for _ in 0..<300 {
            // A wish on some width at a level between the chain's own, added and taken back.
            let v = random.int(0...(workload.variableCount - 1))
            let wish = constraint([(v, 1)], -random.double(0...400), .equal, level: random.int(1...3))
            let handle = try solver.addConstraint(wish)
            try solver.removeConstraint(handle)
        }
        #expect(solver.recordTerms.count < termsBefore + 64, "removed records' terms were never compacted")
        var fresh = CassowarySolver()
        for c in workload.constraints { try fresh.addConstraint(c) }
        func matchesFresh() {
            for v in 0..<workload.variableCount {
                #expect(isClose(solver.value(of: Variable(v)), fresh.value(of: Variable(v)), tolerance: 1e-9), "v\(v)")
            }
        }
        matchesFresh()
        let rebuilt = solver.refactor()
        #expect(rebuilt)
        matchesFresh()
    }
}
