import ArgumentParser
import BackendContract

/// `layoutbench backends`
struct BackendsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends",
        abstract: "List the solver backends and what each supports.")

    func run() {
        let width = BackendRegistry.all.map(\.name.count).max() ?? 0
        for backend in BackendRegistry.all {
            let marker = backend.name == BackendRegistry.defaultName ? " (default)" : ""
            print(backend.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + backend.summary + marker)
        }
    }
}
