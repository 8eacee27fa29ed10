import BackendContract
import ChildProcesses
import Foundation
@testable import Fuzzing
import LayoutModel
@testable import OutsideSolvers
import Testing

/// A deliberately broken adapter: every way it fails becomes a crash finding against it, the
/// campaign goes on with a fresh adapter, and no process is left behind.
@Suite(.serialized, .enabled(if: Solvers.installed("z3"), "the broken test adapter answers through z3, which is not installed (scripts/install-outside-solvers.sh)"))
struct BrokenAdapterTests {
    /// Judges 21 small cases with the broken adapter and returns the failure details by case,
    /// and whether each case had 7k+3 constraints.
    func campaignWith(_ mode: String, marker: String) -> [(misbehaves: Bool, crash: String?, other: [Finding])] {
        let backend = Solvers.broken(mode, marker: marker)
        defer { backend.shutdown() }
        let run = campaign([backend], families: ["equal-widths", "centered", "random"], sizes: 1...3, oracles: [],
                           budget: Budget(wallTime: .milliseconds(1500)))
        return (0..<21).map { index -> (Bool, String?, [Finding]) in
            let judged = run.judge(UInt64(index))
            let mine = judged.findings.map(\.finding).filter { $0.backends.first == backend.name }
            let crash = mine.first { $0.kind == .crash }?.detail
            return (judged.system.constraints.count % 7 == 3, crash, mine.filter { $0.kind != .crash })
        }
    }

    @Test(arguments: [("crash", "SIGSEGV"), ("hang", "hung"), ("garbage", "garbage"), ("wrong-id", "protocol error")])
    func eachFailureIsAFindingAndTheCampaignGoesOn(mode: String, expected: String) throws {
        let marker = "lb-broken-\(UUID().uuidString)"
        defer { for pid in processes(containing: marker) { kill(pid, SIGKILL) } }
        let cases = campaignWith(mode, marker: marker)
        let misbehaving = cases.filter(\.misbehaves)
        try #require(!misbehaving.isEmpty, "the cases should include systems of 7k+3 constraints")
        for c in misbehaving {
            let detail = try #require(c.crash, "a \(mode) must be a crash finding")
            #expect(detail.contains(expected), "\(detail)")
        }
        // The cases after a failure are judged normally, by a fresh adapter.
        for c in cases where !c.misbehaves {
            #expect(c.crash == nil, "\(c.crash ?? "")")
            #expect(c.other.isEmpty, "\(c.other)")
        }
        // Killing a hung adapter ends its whole process group, its own children too.
        #expect(processes(containing: marker).isEmpty)
    }

    @Test func aWrongProtocolVersionFailsEveryCaseWithAClearMessage() {
        let cases = campaignWith("version", marker: "lb-version-\(UUID().uuidString)")
        for c in cases {
            #expect(c.crash?.contains("protocol 99; LayoutBench speaks 1") == true, "\(c.crash ?? "no crash")")
        }
    }

    @Test func anAdapterThatNeverSaysHelloIsACrash() {
        let marker = "lb-silent-\(UUID().uuidString)"
        let backend = Solvers.broken("silent", marker: marker)
        backend.startTimeout = .milliseconds(800)
        defer { backend.shutdown() }
        let system = try? parse("root superview 0 0 100 100\nview a\na.width == 5\n")
        #expect(throws: BackendError.self) { try backend.solve(system!, budget: Budget(wallTime: .seconds(1))) }
        #expect(processes(containing: marker).isEmpty)
    }

    @Test func theAdapterDiesWithLayoutBench() throws {
        let executable = URL(fileURLWithPath: try layoutbenchExecutable())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lb-orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = "lb-orphan-\(UUID().uuidString)"
        defer { for pid in processes(containing: marker) { kill(pid, SIGKILL) } }
        let manifest = """
            {"version": 1, "adapters": [{"name": "hanger", "summary": "test", "install": "none",
              "command": ["python3", "\(Repository.brokenAdapter.path)", "hang", "\(marker)"]}]}
            """
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("manifest.json"))
        let layout = folder.appendingPathComponent("three.layout")
        try Data("root superview 0 0 100 100\nview a\na.width == 5\na.height == 5\na.width <= 9\n".utf8).write(to: layout)
        var environment = ProcessInfo.processInfo.environment
        environment["LAYOUTBENCH_SOLVERS_MANIFEST"] = folder.appendingPathComponent("manifest.json").path
        let cli = try ChildProcess(
            executable: executable.path, arguments: ["solve", layout.path, "--backend", "hanger", "--time-limit", "300"],
            environment: environment, inheritStandardError: false, connected: false)
        // Wait until the adapter is hanging in the case (its child `sh` has started).
        let deadline = ContinuousClock.now + .seconds(30)
        while processes(containing: marker).count < 2 && ContinuousClock.now < deadline { usleep(50_000) }
        usleep(500_000)  // until the child has exec'd (a forked child shows its parent's command line)
        let adapters = processes(containing: marker).filter { pid in
            (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? "").contains("broken_adapter.py")
        }
        try #require(!adapters.isEmpty, "the adapter did not start")
        cli.kill()  // SIGKILL: no chance to clean up; the adapter must go by itself
        let gone = ContinuousClock.now + .seconds(10)
        while adapters.contains(where: { kill($0, 0) == 0 && !isZombie($0) }) && ContinuousClock.now < gone { usleep(50_000) }
        #expect(!adapters.contains(where: { kill($0, 0) == 0 && !isZombie($0) }), "the adapter outlived LayoutBench")
    }

    func isZombie(_ pid: pid_t) -> Bool {
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return true }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
