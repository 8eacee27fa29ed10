import BackendContract
import ExactSimplex
import Foundation
import Generator
import LayoutModel
import Testing

/// A generated system, by family name.
private func generated(_ family: String, size: Int, seed: UInt64 = 1) throws -> ConstraintSystem {
    let family = try #require(Families.named(family))
    return generate(family: family, size: size, seed: seed).system
}

@Suite("Budgets")
struct BudgetTests {
    /// The conflict's deletion filter pivots once per member: a conflict as long as the
    /// layout is a long run of cheap pivots, each charged to the meter.
    @Test("an iteration budget ends a long conflict search")
    func iterations() throws {
        let system = try generated("conflict-late", size: 300)
        let full = try ExactSimplexBackend().solve(system, budget: .unlimited)
        #expect(full.solution.status == .unsatisfiable)
        #expect(full.statistics.iterations > 100)
        let cut = try ExactSimplexBackend().solve(system, budget: Budget(iterations: 100))
        #expect(cut.solution.status == .budgetExceeded)
        #expect(cut.statistics.iterations <= 101)
    }

    /// These solves need no pivot at all (the crash basis is optimal and the determinacy
    /// test needs no LP), so only the clock checks between pivots can stop them.
    @Test("a time budget ends solves that never pivot", arguments: ["centered", "table-cells", "conflict-late"])
    func wallTime(_ family: String) throws {
        let system = try generated(family, size: 1000)
        let result = try ExactSimplexBackend().solve(system, budget: Budget(wallTime: .microseconds(1)))
        #expect(result.solution.status == .budgetExceeded)
    }
}
