import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import GaussianBackend
import Runner

/// The backends `--backend` can name.
enum BackendRegistry {
    static let all: [any LayoutBackend] = {
        var backends: [any LayoutBackend] = [
            ExactSimplexBackend(),
            CassowaryBackend(),
            GaussianEliminationBackend(),
        ]
        // Deliberately broken backends for the runner's own tests (crash isolation, hangs).
        if ProcessInfo.processInfo.environment["LAYOUTBENCH_TEST_BACKENDS"] == "1" {
            backends += TestOnlyBackends.all
        }
        return backends
    }()

    /// The backend `solve` uses when none is named: the exact reference, which supports every system.
    static let defaultName = "exact"

    /// The exact backend that judges the others.
    static let referenceName = "exact"

    /// The registry as the runner sees it.
    static var catalog: BackendCatalog { BackendCatalog(backends: all, referenceName: referenceName) }

    static func backend(named name: String) -> (any LayoutBackend)? {
        all.first { $0.name == name }
    }

    static var names: String { all.map(\.name).joined(separator: ", ") }

    /// Backends named in a comma-separated list, or every backend for `all`; exits 2 for an
    /// unknown name.
    static func select(_ list: String) throws -> [any LayoutBackend] {
        if list == "all" { return all }
        var chosen: [any LayoutBackend] = []
        for name in list.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            guard let backend = backend(named: name) else {
                printError("unknown backend '\(name)'; choose from: \(names), or all")
                throw ExitStatus.invalidInput
            }
            chosen.append(backend)
        }
        return chosen
    }
}
