import BackendContract
import FloatSimplex
import Generator
import LayoutModel
import Testing

/// The one-shot walk rebuilds the rows from the constraints when its walks outgrow them
/// (``CassowarySolver/rebuildIfWalksOutgrewRows(factor:)``, docs/float-backend.md,
/// "Seventeenth pass"): on `random` the cones its pivots build grow with the layout.
@Suite struct WalkRebuildTests {
    /// `random` at 1,000 views, seed 1: the walks read about a hundred times the
    /// constraints' terms, so the rows are rebuilt between additions. The rebuilt rows
    /// describe the same basis, so the verdicts are the same and every level's optimum
    /// agrees within rounding.
    @Test func walksThatOutgrowTheRowsRebuildThemAndTheAnswerHolds() throws {
        let family = try #require(Families.named("random"))
        let system = generate(family: family, size: 1_000, seed: 1).system
        guard let linear = CassowaryBackend.lower(system) else { Issue.record("no Double lowering"); return }

        // The core adding the same rows, with and without the rebuilds between additions.
        var rebuilding = CassowarySolver()
        var plain = CassowarySolver()
        for row in CassowaryBackend.additionOrder(linear) {
            rebuilding.rebuildIfWalksOutgrewRows(factor: 32)
            _ = try? rebuilding.addConstraint(row, strength: Strength(level: row.level))
            _ = try? plain.addConstraint(row, strength: Strength(level: row.level))
        }
        #expect(rebuilding.rebuildsForWalkWork > 0)
        #expect(plain.rebuildsForWalkWork == 0)

        // The one-shot solve, with its default factor and with none.
        let budget = Budget(wallTime: .seconds(600))
        let rebuilt = try CassowaryBackend().solve(system, budget: budget).solution
        let reference = try CassowaryBackend(walkRebuildFactor: 0).solve(system, budget: budget).solution
        #expect(rebuilt.status == reference.status)
        #expect(rebuilt.broken == reference.broken)
        #expect(rebuilt.conflict == reference.conflict)
        #expect(rebuilt.objective.count == reference.objective.count)
        for (level, (a, b)) in zip(rebuilt.objective, reference.objective).enumerated() {
            #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), "level \(level + 1): \(a) against \(b)")
        }
        // The solve did rebuild: its values carry other rounding.
        #expect(rebuilt != reference)
    }

    /// A realistic layout's walks stay near its rows (the whole solve reads about its own
    /// terms), so nothing is rebuilt and the answer is the same to the bit.
    @Test(arguments: ["table-cells", "form", "long-chain"])
    func walksThatStayNearTheRowsRebuildNothing(familyName: String) throws {
        let family = try #require(Families.named(familyName))
        let system = generate(family: family, size: 1_000, seed: 1).system
        let rebuilt = try CassowaryBackend().solve(system, budget: .unlimited).solution
        let reference = try CassowaryBackend(walkRebuildFactor: 0).solve(system, budget: .unlimited).solution
        #expect(rebuilt == reference)
    }
}
