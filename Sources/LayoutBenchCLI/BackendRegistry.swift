import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import GaussianBackend
import OutsideSolvers
import Runner
import Synchronization

/// The backends `--backend` can name.
enum BackendRegistry {
    static let all: [any LayoutBackend] = {
        var backends: [any LayoutBackend] = [
            ExactSimplexBackend(),
            CassowaryBackend(),
            GaussianEliminationBackend(),
        ]
        // Deliberately broken backends for the runner's own tests (crash isolation, hangs), which
        // only the test bed adds (Tests/LayoutBenchTestbed): the shipped binary has none.
        backends += added.withLock { $0 }
        return backends + outside
    }()

    /// Backends the executable adds before the command line runs (``LayoutBench/main(addingBackends:)``).
    /// A lock rather than a plain static: Swift 6 admits no unguarded global state, though in
    /// practice it is written once, before any thread starts.
    private static let added = Mutex<[any LayoutBackend]>([])

    /// Adds `backends` to the ones `--backend` can name; only before ``all`` is first read.
    static func add(_ backends: [any LayoutBackend]) {
        added.withLock { $0 += backends }
    }

    /// The outside solvers of the manifest (scripts/solvers/manifest.json), installed or not:
    /// nothing is started until one is used.
    static let outside: [OutsideSolverBackend] = {
        guard let url = AdapterManifest.locate() else { return [] }
        do {
            let manifest = try AdapterManifest.load(url)
            return manifest.adapters.map { OutsideSolverBackend(definition: $0, manifest: manifest) }
        } catch {
            printError("\(error)")
            return []
        }
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

    /// Backends named in a comma-separated list, or every backend for `all` (the outside
    /// solvers that are installed, when `outsideInAll`; each missing one is skipped with a
    /// line on stderr); exits 2 for an unknown name or a named outside solver that is not
    /// installed.
    static func select(_ list: String, outsideInAll: Bool = true) throws -> [any LayoutBackend] {
        if list == "all" {
            let builtIn = all.filter { backend in !outside.contains { $0.name == backend.name } }
            guard outsideInAll else { return builtIn }
            var installed: [any LayoutBackend] = []
            for solver in outside {
                if solver.isInstalled {
                    installed.append(solver)
                } else {
                    printError("skipping \(solver.name): not installed (install: \(solver.definition.install))")
                }
            }
            return builtIn + installed
        }
        var chosen: [any LayoutBackend] = []
        for name in list.split(separator: ",").map({ String($0).trimmingCharacters(in: .whitespaces) }) {
            guard let backend = backend(named: name) else {
                printError("unknown backend '\(name)'; choose from: \(names), or all")
                throw ExitStatus.invalidInput
            }
            if let solver = backend as? OutsideSolverBackend, !solver.isInstalled {
                printError("backend '\(name)' is not installed; install: \(solver.definition.install)")
                throw ExitStatus.invalidInput
            }
            chosen.append(backend)
        }
        return chosen
    }
}
