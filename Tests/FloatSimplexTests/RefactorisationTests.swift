import LayoutModel
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
}
