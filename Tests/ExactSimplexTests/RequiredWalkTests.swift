import BackendContract
import ExactArithmetic
import Generator
import LayoutModel
import Testing
@testable import ExactSimplex

/// The warm-started required walk (``ExactSolve/requiredWalk(_:)``): one LP whose rows are
/// dropped and restored, against the walk's definition checked row by row from scratch.
@Suite struct RequiredWalkTests {
    /// §5.1 by its definition: each required row, in file order, kept iff a cold check finds
    /// it feasible with the rows kept before it.
    static func walkedRowByRow(_ system: ConstraintSystem) throws -> (kept: [Int], broken: [Int]) {
        var solve = ExactSolve(system: system, budget: .unlimited, determinacy: .finalBasis)
        var kept: [Int] = []
        var broken: [Int] = []
        for row in solve.lowered.rows.indices where solve.lowered.rows[row].isRequired {
            switch try solve.check(kept + [row]) {
            case .feasible: kept.append(row)
            case .infeasible: broken.append(row)
            }
        }
        return (kept, broken)
    }

    /// Families that break rows early, late, often and in runs; rows walked in chunks, with
    /// the broken ones and their neighbours at every place in a chunk. Every broken row's
    /// certificate proves it infeasible with the rows kept before it (the checker's test).
    @Test(arguments: ["cassowary-benchmark", "random", "conflict-early", "conflict-late", "multi-route-conflicts", "near-conflicts"])
    func brokenRowsAreTheDefinitions(_ name: String) throws {
        let family = try #require(Families.named(name))
        var brokenRows = 0
        for (size, seed) in [(10, UInt64(1)), (30, 2), (60, 3), (60, 4), (150, 5)] {
            let system = generate(family: family, size: size, seed: seed).system
            var solve = ExactSolve(system: system, budget: .unlimited, determinacy: .finalBasis)
            let required = solve.lowered.rows.indices.filter { solve.lowered.rows[$0].isRequired }
            let walk = try solve.requiredWalk(required)
            let expected = try Self.walkedRowByRow(system)
            #expect(walk.kept == expected.kept, "\(name) n\(size) s\(seed)")
            #expect(walk.broken.map(\.row) == expected.broken, "\(name) n\(size) s\(seed)")
            brokenRows += walk.broken.count
            _ = try solveCertified(system)
        }
        #expect(brokenRows > 0)
    }

    /// Rows that break one after another, each right after a chunk's end or inside the
    /// chunk restored after a broken row: the walk keeps exactly the first of each run of
    /// contradicting widths, and the second of a pair only once the first is gone.
    @Test func runsOfBrokenRowsAcrossChunks() throws {
        var lines = ["root r 400 400", "view a", "a.left == r.left", "a.top == r.top", "a.height == 10"]
        // 100 rows: a width, then alternately a row that holds and one that contradicts it.
        lines.append("a.width == 50")
        for k in 0..<100 {
            lines.append(k % 3 == 0 ? "a.width == \(60 + k)" : "a.width <= \(100 + k)")
        }
        let system = try LayoutParser.parse(lines.joined(separator: "\n") + "\n", file: "runs.layout")
        var solve = ExactSolve(system: system, budget: .unlimited, determinacy: .finalBasis)
        let required = solve.lowered.rows.indices.filter { solve.lowered.rows[$0].isRequired }
        let walk = try solve.requiredWalk(required)
        let expected = try Self.walkedRowByRow(system)
        #expect(walk.kept == expected.kept)
        #expect(walk.broken.map(\.row) == expected.broken)
        #expect(walk.broken.count == 34)
        _ = try solveCertified(system)
    }
}
