import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// The conflict filtering (up to 256 fresh solves) runs under the caller's budget, and its
/// pivots count as the solve's (issue 18, item 7).
@Suite struct ConflictBudgetTests {
    /// A chain `v0.width >= 5`, `v(i+1).width >= v(i).width + 1`, then `v29.width <= 20`:
    /// the conflict is the whole chain, so filtering it takes trial solves that pivot,
    /// while the solve itself pivots little.
    static let chain: ConstraintSystem = {
        let n = 30
        var lines = ["root s 0 0 1000 1000"] + (0..<n).map { "view v\($0)" } + ["v0.width >= 5"]
        lines += (0..<(n - 1)).map { "v\($0 + 1).width >= v\($0).width + 1" }
        lines += (0..<n).map { "v\($0).height == v\($0).width" }
        lines.append("v\(n - 1).width <= 20")
        // The chain is valid by construction.
        return try! LayoutParser.parse(lines.joined(separator: "\n") + "\n", file: "chain.layout")
    }()

    @Test func filteringIsChargedToTheBudget() throws {
        let unlimited = try CassowaryBackend().solve(Self.chain, budget: .unlimited)
        #expect(unlimited.solution.status == .unsatisfiable)
        #expect(unlimited.solution.conflict.count == 31)
        let total = unlimited.statistics.iterations
        #expect(total > 0)
        // Exactly the pivots it reports: the same answer.
        let enough = try CassowaryBackend().solve(Self.chain, budget: Budget(iterations: total))
        #expect(enough.solution == unlimited.solution)
        // One fewer: the budget runs out, whether in the solve or in the filtering.
        for iterations in [0, total / 2, total - 1] {
            let short = try CassowaryBackend().solve(Self.chain, budget: Budget(iterations: iterations))
            #expect(short.solution.status == .budgetExceeded, "\(iterations) of \(total)")
        }
    }
}
