import BackendContract
@testable import FloatSimplex
import Generator
import LayoutModel
import Testing

@Suite("The one-shot solve's split of its additions' time")
struct WalkTimeSplitTests {
    @Test("a lap is due only after 64 rows, and is split by the rows of each kind it covers")
    func splitsByRows() {
        var split = WalkTimeSplit()
        var phases = SolvePhases()
        split.note((required: 30, optional: 33))
        #expect(!split.isDue)
        split.note((required: 30, optional: 34))
        #expect(split.isDue)
        // 30 required and 34 optional rows: 30/64 of the lap to `solve`, the rest to `levels`.
        split.charge(.milliseconds(64), to: &phases)
        #expect(phases.solve == .milliseconds(30))
        #expect(phases.levels == .milliseconds(34))
        #expect(!split.isDue)
        // The next lap covers only what came after: 10 required rows.
        split.note((required: 40, optional: 34))
        split.charge(.milliseconds(5), to: &phases)
        #expect(phases.solve == .milliseconds(35))
        #expect(phases.levels == .milliseconds(34))
        // No rows at all (a lap at a conflict found at once): all of it to `solve`.
        split.charge(.milliseconds(2), to: &phases)
        #expect(phases.solve == .milliseconds(37))
        #expect(phases.levels == .milliseconds(34))
    }

    @Test("interleaved required and optional rows charge both phases, and the phases stay within the solve")
    func interleavedFamily() throws {
        let family = try #require(Families.named("cassowary-benchmark"))
        let system = generate(family: family, size: 300, seed: 1).system
        let result = try CassowaryBackend().solve(system, budget: .unlimited)
        let phases = try #require(result.statistics.phases)
        #expect(phases.solve > .zero && phases.levels > .zero)
        let charged = phases.lowering + phases.solve + phases.levels + phases.ambiguity + phases.conflict
        #expect(charged <= result.statistics.duration)
    }
}
