import BackendContract
import GaussianBackend
import LayoutModel
import Testing
import Generator

/// A solved `.layout` text, read back by name.
struct Solved {
    let system: ConstraintSystem
    let result: BackendResult

    var solution: Solution { result.solution }
    var status: SolveStatus { solution.status }
    var ambiguous: [String] { solution.ambiguous.map(system.unknownName) }
    var broken: [String] { solution.broken.map(system.constraintName) }
    var conflict: [String] { solution.conflict.map(system.constraintName) }

    /// The root-space frame `[x, y, w, h]` of a view.
    func frame(_ item: String) throws -> [Double] {
        let index = try #require(system.itemIndex(named: item))
        let first = Unknown(item: index, component: .x).variable
        return Array(solution.values[first..<first + 4])
    }
}

func solve(
    _ text: String, backend: GaussianEliminationBackend = GaussianEliminationBackend(), budget: Budget = .unlimited
) throws -> Solved {
    let system = try LayoutParser.parse(text)
    return Solved(system: system, result: try backend.solve(system, budget: budget))
}

/// Equal within a relative 1e-9 (the frames here are a few hundred points).
func isClose(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($1)) }
}

/// A small fixed-seed generator for the property tests (SplitMix64, Steele et al. 2014).
extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }
}
