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
    /// layout is a long run of cheap pivots, each charged to the meter. (By default this
    /// conflict's independent rows prove it without the filter, and without a pivot.)
    @Test("an iteration budget ends a long conflict search")
    func iterations() throws {
        let system = try generated("conflict-late", size: 300)
        let filter = ExactSimplexBackend(conflictProof: .witnesses)
        let full = try filter.solve(system, budget: .unlimited)
        #expect(full.solution.status == .unsatisfiable)
        #expect(full.statistics.iterations > 100)
        let cut = try filter.solve(system, budget: Budget(iterations: 100))
        #expect(cut.solution.status == .budgetExceeded)
        #expect(cut.statistics.iterations <= 101)
        let proved = try ExactSimplexBackend().solve(system, budget: Budget(iterations: 100))
        #expect(proved.solution.conflict == full.solution.conflict)
    }

    /// Thousands of priority levels on one view: every level's optimality check is charged
    /// as an iteration, so `--max-iterations` ends the walk over the levels (before, it
    /// counted 0 iterations and ran for minutes in hundreds of megabytes).
    @Test("an iteration budget ends a walk over 3,000 priority levels")
    func manyLevels() throws {
        var text = "root s 0 0 1000 1000\nview a\n"
        for i in 0..<3000 { text += "a.width == \(i) @\(1 + Double(i) * 998 / 3000)\n" }
        let system = try LayoutParser.parse(text)
        #expect(system.optionalLevels.count == 3000)
        let cut = try ExactSimplexBackend().solve(system, budget: Budget(iterations: 20))
        #expect(cut.solution.status == .budgetExceeded)
        #expect(cut.statistics.iterations <= 21)
        // A few dozen levels solve, with the level checks counted.
        var small = "root s 0 0 1000 1000\nview a\n"
        for i in 0..<30 { small += "a.width == \(i) @\(1 + Double(i) * 30)\n" }
        let full = try ExactSimplexBackend().solve(try LayoutParser.parse(small), budget: .unlimited)
        #expect(full.solution.status == .optimal)
        #expect(full.solution.values[2] == 29)
        #expect(full.statistics.iterations >= 30)
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
