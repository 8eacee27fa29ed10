#if LAYOUTBENCH_FAULTS
import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// Faults planted in the float backend's incremental path (debug builds only), each caught
/// by a check that compares the incremental solver with one built afresh from the
/// constraints it holds (what sequence fuzzing will do on `.layout` update sequences), or
/// with its own state before a rejected addition. Without the fault, the same checks pass.
@Suite struct IncrementalFaultTests {
    /// The values of `variables` in a solver built afresh from `constraints`.
    static func fresh(_ constraints: [LinearConstraint], variables: Int) throws -> [Double] {
        var solver = CassowarySolver()
        for c in constraints { try solver.addConstraint(c) }
        return (0..<variables).map { solver.value(of: Variable($0)) }
    }

    /// A suggestion past a required bound: re-optimising clamps the edit variable to it.
    static func suggestionPastABound() throws -> (incremental: [Double], fresh: [Double]) {
        let bound = constraint([(0, 1)], -100, .lessThanOrEqual)  // x ≤ 100
        let lower = constraint([(0, 1)], 0, .greaterThanOrEqual)  // x ≥ 0
        var solver = CassowarySolver()
        try solver.addConstraint(bound)
        try solver.addConstraint(lower)
        try solver.addEditVariable(Variable(0), strength: Strength(level: 1))
        try solver.suggestValue(Variable(0), 150)
        let edit = constraint([(0, 1)], -150, .equal, level: 1)
        return ([solver.value(of: Variable(0))], try fresh([bound, lower, edit], variables: 1))
    }

    @Test func aSuggestionThatSkipsReoptimisingIsCaught() throws {
        let right = try Self.suggestionPastABound()
        #expect(right.incremental == right.fresh && right.fresh == [100])
        let wrong = try withFault(.incrementalSuggestSkipsOptimize) { try Self.suggestionPastABound() }
        #expect(wrong.incremental != wrong.fresh, "the planted fault went unnoticed: \(wrong)")
    }

    /// Random systems with optional constraints at three levels; after each removal of a
    /// random constraint, the objective vector of the incremental solver's point is compared
    /// with that of a solver built afresh from what remains. Returns (removals, mismatches).
    static func removalsDisagreeingWithAFreshSolve() throws -> (removals: Int, mismatches: Int) {
        var random = TestRandom(seed: 91)
        var removals = 0, mismatches = 0
        for _ in 0..<40 {
            var solver = CassowarySolver()
            var held: [(ConstraintHandle, LinearConstraint)] = []
            for _ in 0..<12 {
                let level = random.chance(0.4) ? 0 : random.int(1...3)
                let c = RollbackTests.randomConstraint(&random, variables: 5, inequality: 0.3, level: level, base: held.map(\.1))
                if let handle = try? solver.addConstraint(c) { held.append((handle, c)) }
            }
            for _ in 0..<4 where !held.isEmpty {
                let (handle, _) = held.remove(at: random.int(0...(held.count - 1)))
                try solver.removeConstraint(handle)
                removals += 1
                var reference = CassowarySolver()
                for (_, c) in held { try reference.addConstraint(c) }
                let mine = solver.objective(levelCount: 3), theirs = reference.objective(levelCount: 3)
                if zip(mine, theirs).contains(where: { !isClose($0, $1) }) { mismatches += 1 }
            }
        }
        return (removals, mismatches)
    }

    @Test func aRemovalThatLeavesItsErrorCostIsCaught() throws {
        let right = try Self.removalsDisagreeingWithAFreshSolve()
        #expect(right.removals > 0 && right.mismatches == 0)
        let wrong = try withFault(.incrementalRemovalKeepsErrorCost) { try Self.removalsDisagreeingWithAFreshSolve() }
        #expect(wrong.mismatches > 0, "the planted fault went unnoticed in \(wrong.removals) removals")
    }

    /// Random required systems as in `RollbackTests`: how many rejections leave a trace
    /// (the solver's whole state differs from before the attempt).
    static func rejectionsLeavingATrace() -> (rejections: Int, traces: Int) {
        var random = TestRandom(seed: 77)
        var rejections = 0, traces = 0
        for _ in 0..<60 {
            var solver = CassowarySolver()
            var kept: [LinearConstraint] = []
            for _ in 0..<16 {
                let c = RollbackTests.randomConstraint(&random, variables: 8, inequality: 0.2, level: 0, base: kept)
                let before = solver.fingerprint
                do {
                    try solver.addConstraint(c)
                    kept.append(c)
                } catch {
                    rejections += 1
                    if solver.fingerprint != before { traces += 1 }
                }
            }
        }
        return (rejections, traces)
    }

    @Test func aRollbackThatKeepsOneJournalEntryIsCaught() {
        let right = Self.rejectionsLeavingATrace()
        #expect(right.rejections > 0 && right.traces == 0)
        let wrong = withFault(.incrementalRollbackKeepsEntry) { Self.rejectionsLeavingATrace() }
        #expect(wrong.traces > 0, "the planted fault went unnoticed in \(wrong.rejections) rejections")
    }
}
#endif
