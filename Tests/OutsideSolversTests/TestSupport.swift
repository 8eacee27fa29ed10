import BackendContract
import ChildProcesses
import ExactSimplex
import Foundation
@testable import Fuzzing
import Generator
import LayoutModel
import OutsideSolvers

/// Where the repository's files are, found from this file's path.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let seeds = root.appendingPathComponent("Corpora/seeds")
    static let manifest = root.appendingPathComponent("scripts/solvers/manifest.json")
    static let brokenAdapter = root.appendingPathComponent("Tests/OutsideSolversTests/Fixtures/broken_adapter.py")
}

/// The shipped adapters, from the shipped manifest. A test that needs one is enabled only
/// when it is installed (CI installs them all through scripts/ensure-dependencies.sh).
enum Solvers {
    static let manifest: AdapterManifest? = try? AdapterManifest.load(Repository.manifest)

    static let backends: [String: OutsideSolverBackend] = {
        guard let manifest else { return [:] }
        var table: [String: OutsideSolverBackend] = [:]
        for definition in manifest.adapters { table[definition.name] = OutsideSolverBackend(definition: definition, manifest: manifest) }
        return table
    }()

    static func installed(_ name: String) -> Bool { backends[name]?.isInstalled ?? false }

    static func backend(_ name: String) -> OutsideSolverBackend {
        guard let backend = backends[name] else { fatalError("\(name) is not in the manifest") }
        return backend
    }

    /// A backend for the deliberately broken adapter in `Fixtures/` (it answers like z3 but
    /// misbehaves in `mode` on systems of 7k+3 rows).
    static func broken(_ mode: String, marker: String) -> OutsideSolverBackend {
        let manifest = AdapterManifest(directory: Repository.brokenAdapter.deletingLastPathComponent(), adapters: [])
        let backend = OutsideSolverBackend(
            definition: AdapterDefinition(
                name: "broken-\(mode)", summary: "test only", command: ["python3", Repository.brokenAdapter.path, mode, marker],
                install: "none"),
            manifest: manifest)
        backend.startTimeout = .seconds(20)
        backend.grace = .milliseconds(500)
        return backend
    }
}

func parse(_ text: String) throws -> ConstraintSystem {
    try LayoutParser.parse(text, file: "test.layout")
}

/// A campaign judging `backends` against the exact backend.
func campaign(
    _ backends: [any LayoutBackend], families: [String], sizes: ClosedRange<Int> = 1...6, seed: UInt64 = 1,
    oracles: [MetamorphicOracle] = MetamorphicOracle.allCases, budget: Budget = Budget(wallTime: .seconds(10)),
    reducer: Reducer? = nil
) -> FuzzCampaign {
    FuzzCampaign(FuzzCampaign.Configuration(
        seed: seed, families: families.compactMap(Families.named), sizes: sizes, backends: backends,
        reference: ExactSimplexBackend(), oracles: oracles, budget: budget, reducer: reducer))
}

/// The findings of one case, after judging.
func findings(_ campaign: FuzzCampaign, cases: Range<UInt64>) -> [(UInt64, ConstraintSystem, Finding)] {
    var all: [(UInt64, ConstraintSystem, Finding)] = []
    for index in cases {
        let judged = campaign.judge(index)
        for occurrence in judged.findings { all.append((index, judged.system, occurrence.finding)) }
    }
    return all
}

/// Processes whose command line contains `marker` (read from /proc).
func processes(containing marker: String) -> [pid_t] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
        let text = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        return text.contains(marker) ? pid : nil
    }
}

/// Runs a program to its end and returns its exit status and standard output.
func run(_ command: [String], environment extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lb-run-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: out) }
    let shell = ["sh", "-c", command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ") + " > '\(out.path)' 2>&1"]
    var environment = ProcessInfo.processInfo.environment
    for (key, value) in extra { environment[key] = value }
    let child = try ChildProcess(
        executable: "/bin/sh", arguments: Array(shell.dropFirst()), environment: environment,
        inheritStandardError: false, connected: false)
    child.waitForExit()
    let output = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    return (child.exitStatus ?? -1, output)
}

/// The `layoutbench` executable built beside the tests.
func layoutbenchExecutable() throws -> String {
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let candidate = bundle.appendingPathComponent("layoutbench")
    guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidate.path])
    }
    return candidate.path
}
