import BackendContract
import ExactSimplex
import Foundation
import LayoutModel

/// Backends that trap or hang on purpose, which only the test bed registers: the runner's
/// tests use them to show that a dying worker becomes a finding and the campaign goes on.
/// On other systems they answer like the exact backend.
enum TestOnlyBackends {
    static let all: [any LayoutBackend] = [
        Misbehaving(name: "test-trap", behaviour: .trap),
        Misbehaving(name: "test-hang", behaviour: .hang),
        Misbehaving(name: "test-trap-reduce", behaviour: .trapWhileReducing),
    ]

    struct Misbehaving: LayoutBackend {
        enum Behaviour: Sendable { case trap, hang, trapWhileReducing }
        let name: String
        let behaviour: Behaviour
        var summary: String {
            switch behaviour {
            case .trap: "test only: traps on systems with 7k+3 constraints"
            case .hang: "test only: hangs on systems with 7k+3 constraints"
            case .trapWhileReducing: "test only: answers one point off, and traps on a system without constraints (which only the reducer tries)"
            }
        }

        func supports(_ system: ConstraintSystem) -> Support { .supported }

        func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
            if behaviour == .trapWhileReducing {
                if system.constraints.isEmpty {
                    let values: [Int] = []
                    _ = values[system.viewCount]  // an out-of-range index traps
                }
                var result = try ExactSimplexBackend().solve(system, budget: budget)
                result.solution.values = result.solution.values.map { $0 + 1 }
                result.solution.exactValues = nil
                return result
            }
            if system.constraints.count % 7 == 3 {
                switch behaviour {
                case .trap:
                    let values: [Int] = []
                    _ = values[system.constraints.count]  // an out-of-range index traps
                case .hang:
                    while true { sleep(1) }
                case .trapWhileReducing:
                    break
                }
            }
            return try ExactSimplexBackend().solve(system, budget: budget)
        }
    }
}
