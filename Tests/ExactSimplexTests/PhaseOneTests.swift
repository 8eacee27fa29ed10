import BackendContract
import ExactArithmetic
import Generator
import LayoutModel
import Testing
@testable import ExactSimplex

/// Phase one keeps its reduced costs in a table after its first pivots
/// (``SimplexEngine/makeFeasible(meter:)``); debug builds check the table against a full
/// pricing after every pivot, so these runs are long enough to reach it.
@Suite struct PhaseOneTests {
    /// Infeasible systems (`random` breaks rows) and a feasible one that needs a pivot per view
    /// (`almost-required`): phase one from the crash basis of every row runs past the pivots
    /// priced anew, and ends where it should: feasible with
    /// every basic value in bounds, or with multipliers the certificate checker accepts.
    @Test(arguments: [("random", 150, UInt64(1)), ("random", 150, 3), ("almost-required", 100, 1), ("random", 300, 2)])
    func aLongPhaseOneEndsRight(_ name: String, _ size: Int, _ seed: UInt64) throws {
        let family = try #require(Families.named(name))
        let system = generate(family: family, size: size, seed: seed).system
        var solve = ExactSolve(system: system, budget: .unlimited, determinacy: .finalBasis)
        switch try solve.check(Array(solve.lowered.rows.indices)) {
        case .feasible(let engine):
            #expect(engine.pivots > SimplexEngine.phaseOnePivotsPricedAnew, "\(name) n\(size) s\(seed)")
            #expect(engine.isPrimalFeasible)
            #expect(name == "almost-required")
        case .infeasible(let farkas, let engine):
            #expect(engine.pivots > SimplexEngine.phaseOnePivotsPricedAnew, "\(name) n\(size) s\(seed)")
            #expect(!farkas.isEmpty)
            #expect(name != "almost-required")
        }
        _ = try solveCertified(system)
    }
}
