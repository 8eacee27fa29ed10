import BackendContract
import ExactSimplex
import Foundation
import LayoutModel

/// Backends that trap or hang on purpose, registered only when LAYOUTBENCH_TEST_BACKENDS=1:
/// the runner's tests use them to show that a dying worker becomes a finding and the
/// campaign goes on. On other systems they answer like the exact backend.
enum TestOnlyBackends {
    static let all: [any LayoutBackend] = [
        Misbehaving(name: "test-trap", behaviour: .trap),
        Misbehaving(name: "test-hang", behaviour: .hang),
    ]

    struct Misbehaving: LayoutBackend {
        enum Behaviour: Sendable { case trap, hang }
        let name: String
        let behaviour: Behaviour
        var summary: String { "test only: \(behaviour == .trap ? "traps" : "hangs") on systems with 7k+3 constraints" }

        func supports(_ system: ConstraintSystem) -> Support { .supported }

        func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
            if system.constraints.count % 7 == 3 {
                switch behaviour {
                case .trap:
                    let values: [Int] = []
                    _ = values[system.constraints.count]  // an out-of-range index traps
                case .hang:
                    while true { sleep(1) }
                }
            }
            return try ExactSimplexBackend().solve(system, budget: budget)
        }
    }
}
