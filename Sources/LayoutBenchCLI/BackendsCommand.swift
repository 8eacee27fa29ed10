import ArgumentParser
import BackendContract
import OutsideSolvers

/// `layoutbench backends`
struct BackendsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backends",
        abstract: "List the solver backends and what each supports, outside solvers with their version and whether they are installed.")

    func run() {
        let width = BackendRegistry.all.map(\.name.count).max() ?? 0
        func pad(_ name: String) -> String { name.padding(toLength: width + 2, withPad: " ", startingAt: 0) }
        for backend in BackendRegistry.all {
            if let solver = backend as? OutsideSolverBackend {
                print(pad(backend.name) + Self.describe(solver))
                continue
            }
            let marker = backend.name == BackendRegistry.defaultName ? " (default)" : ""
            print(pad(backend.name) + backend.summary + marker)
        }
    }

    /// An outside solver's line: its version and semantics from its adapter's hello, or why
    /// it is not available.
    static func describe(_ solver: OutsideSolverBackend) -> String {
        guard solver.isInstalled else {
            return "not installed — \(solver.summary); install: \(solver.definition.install)"
        }
        switch solver.hello() {
        case .failure(let failure):
            return "installed, but its adapter fails: \(failure)"
        case .success(let hello):
            let capabilities = solver.capabilities
            let priorities: String
            switch capabilities.priorities {
            case .lexicographic: priorities = "lexicographic"
            case .weighted(let mapping): priorities = "weighted (\(mapping.description))"
            }
            var reports = ["values"]
            if capabilities.reports.broken { reports.append("rejected") }
            if capabilities.reports.conflict { reports.append("conflicts") }
            if capabilities.reports.ambiguity { reports.append("ambiguity") }
            if capabilities.reports.exactValues { reports.append("exact values") }
            return "\(hello.name) \(hello.version), installed — \(solver.summary); priorities \(priorities); reports \(reports.joined(separator: ", "))"
        }
    }
}
