import BackendContract
import ChildProcesses
import ExactSimplex
import Foundation
import Fuzzing
import GaussianBackend
import LayoutModel
import Reporting
import Testing
@testable import Runner

/// A backend that is wrong on purpose, so that campaigns have findings to shard, merge and
/// resume: it answers like the exact backend, with widths 0.01 too large on systems whose
/// constraint count is even.
struct SloppyBackend: LayoutBackend {
    var name: String { "sloppy" }
    var summary: String { "test only: exact, plus 0.01 on every width of even-sized systems" }
    func supports(_ system: ConstraintSystem) -> Support { .supported }
    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        var result = try ExactSimplexBackend().solve(system, budget: budget)
        if system.constraints.count % 2 == 0 {
            for v in result.solution.values.indices where v % 4 == 2 { result.solution.values[v] += 0.01 }
            result.solution.exactValues = nil
        }
        return result
    }
}

let catalog = BackendCatalog(backends: [ExactSimplexBackend(), GaussianEliminationBackend(), SloppyBackend()], referenceName: "exact")

let spec = CampaignSpec(
    seed: 5, families: ["equal-widths", "random", "conflict-late", "hugging-contest"], minSize: 2, maxSize: 6,
    backends: ["exact", "gaussian", "sloppy"], perSignature: 2)

func temporaryDirectory(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func run(_ shard: Shard = .whole, cases: Int = 24, jobs: Int, into url: URL, resume: Bool = false,
         stopAfter: Int? = nil) throws -> FuzzReport {
    let counter = Counter()
    let options = FuzzRunOptions(spec: spec, shard: shard, cases: cases, jobs: jobs, isolation: nil, outDirectory: url, resume: resume)
    return try FuzzRunner(options: options, catalog: catalog, shouldStop: {
        guard let stopAfter else { return false }
        return counter.next() > stopAfter
    }).run()
}

/// Counts calls across threads.
final class Counter: Sendable {
    private let value = Locked(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}


/// The parts of a report that must not depend on how a campaign was run.
func outcome(_ r: FuzzReport) -> [String] {
    ["cases \(r.cases)", "occurrences \(r.occurrences.sorted { $0.key < $1.key })",
     "crashed \(r.crashedCases)"] + r.findings.map { entry in
        // Digests in key order: a dictionary's description is not.
        var bare = entry
        bare.digests = nil
        return "\(bare) \((entry.digests ?? [:]).sorted { $0.key < $1.key })"
     }
}

func reproFiles(_ url: URL) throws -> [String: Data] {
    let findings = url.appendingPathComponent("findings")
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: findings.path) where !name.hasPrefix(".") {
        files[name] = try Data(contentsOf: findings.appendingPathComponent(name))
    }
    return files
}

@Suite(.serialized) struct FuzzRunnerTests {
    @Test func findingsDoNotDependOnJobs() throws {
        let one = try run(jobs: 1, into: temporaryDirectory("jobs1"))
        let two = try run(jobs: 2, into: temporaryDirectory("jobs2"))
        #expect(!one.findings.isEmpty)
        #expect(one.findings.contains { $0.backends.first == "sloppy" })
        #expect(outcome(one) == outcome(two))
        #expect(one.cases == 24)
    }

    @Test func shardsMergedEqualTheUnshardedRun() throws {
        let wholeURL = temporaryDirectory("whole")
        let whole = try run(jobs: 2, into: wholeURL)
        let shardURLs = (0..<3).map { temporaryDirectory("shard\($0)") }
        for (k, url) in shardURLs.enumerated() {
            let report = try run(Shard(index: k, count: 3), jobs: 1, into: url)
            #expect(report.cases == 8)
        }
        let mergedURL = temporaryDirectory("merged")
        let merged = try ReportMerge.merge(inputs: shardURLs, into: mergedURL)
        #expect(merged.missingShards.isEmpty)
        #expect(outcome(merged) == outcome(whole))
        #expect(try reproFiles(mergedURL) == reproFiles(wholeURL))

        // Idempotent: merging again, or merging the merge with a shard, changes nothing.
        let again = try ReportMerge.merge(inputs: shardURLs + [mergedURL], into: temporaryDirectory("again"))
        #expect(again.withoutTimings == merged.withoutTimings)
        let twice = try ReportMerge.merge(inputs: [mergedURL, mergedURL], into: mergedURL)
        #expect(twice.withoutTimings == merged.withoutTimings)
    }

    @Test func mergeNamesMissingShards() throws {
        let a = temporaryDirectory("s0"), b = temporaryDirectory("s2")
        _ = try run(Shard(index: 0, count: 3), jobs: 1, into: a)
        _ = try run(Shard(index: 2, count: 3), jobs: 1, into: b)
        let missingURL = temporaryDirectory("missing")
        let merged = try ReportMerge.merge(inputs: [a, b, temporaryDirectory("empty")], into: missingURL)
        #expect(merged.missingShards == [1])
        // Running the missing shard completes the campaign.
        let c = temporaryDirectory("s1")
        _ = try run(Shard(index: 1, count: 3), jobs: 1, into: c)
        let complete = try ReportMerge.merge(inputs: [missingURL, c], into: temporaryDirectory("complete"))
        #expect(complete.missingShards.isEmpty)
        #expect(outcome(complete) == outcome(try run(jobs: 2, into: temporaryDirectory("reference"))))
    }

    @Test func interruptedRunResumesToTheSameFindings() throws {
        let url = temporaryDirectory("resume")
        let partial = try run(jobs: 2, into: url, stopAfter: 10)
        #expect(partial.interrupted)
        #expect(partial.cases < 24)
        // A fresh run refuses to overwrite it.
        #expect(throws: CampaignError.self) { try run(jobs: 1, into: url) }
        let resumed = try run(jobs: 2, into: url, resume: true)
        #expect(!resumed.interrupted)
        #expect(outcome(resumed) == outcome(try run(jobs: 1, into: temporaryDirectory("uninterrupted"))))
    }

    @Test func completedPositionsStaySmall() {
        var completed = CompletedPositions()
        for p in [3, 0, 1, 5, 2, 4] as [UInt64] { completed.insert(p) }
        #expect(completed.below == 6 && completed.above.isEmpty && completed.count == 6)
        completed.insert(9)
        #expect(completed.contains(9) && !completed.contains(7) && completed.count == 7)
    }

    @Test func shardsFromTheEnvironment() throws {
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"], shards: nil) == Shard(index: 3, count: 8))
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"], shards: nil) == Shard(index: 3, count: 8))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: 4) == Shard(index: 2, count: 4))
        // A re-submitted array of some shards: --shards wins over the array's own count and minimum.
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "17", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "3"], shards: 32) == Shard(index: 17, count: 32))
        #expect(try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "3"], shards: 8) == Shard(index: 3, count: 8))
        #expect(try Shard.fromEnvironment([:], shards: 4) == nil)
        #expect(throws: CampaignError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "2"], shards: nil) }
        #expect(throws: CampaignError.self) { try Shard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_COUNT": "8"], shards: nil) }
        #expect(Shard(parsing: "7/8") == Shard(index: 7, count: 8))
        #expect(Shard(parsing: "8/8") == nil)
        #expect(Shard(index: 2, count: 3).caseIndex(4) == 14)
    }
}

/// The `layoutbench` executable beside the test bundle (built by `swift build --build-tests`),
/// or with `testbed` the test bed: `layoutbench` plus the backends that trap or hang on purpose
/// (`test-trap`, `test-hang`, `test-trap-reduce`), which the shipped binary does not have.
func layoutbenchExecutable(testbed: Bool = false) throws -> URL {
    let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let candidate = bundle.appendingPathComponent(testbed ? "LayoutBenchTestbed" : "layoutbench")
    try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "build the executable first: swift build --build-tests")
    return candidate
}

/// Runs the CLI (the test bed with `testbed`) and returns its exit status (-1 when a signal ended it). `until`, polled
/// while it runs, may return true to have it killed with SIGKILL. Started and reaped through
/// the runner's own `ChildProcess`, which also works under Thread Sanitizer.
@discardableResult
func runCLI(_ arguments: [String], environment: [String: String] = [:], testbed: Bool = false, until: (() -> Bool)? = nil) throws -> Int32 {
    var env = ProcessInfo.processInfo.environment
    env["LAYOUTBENCH_HISTORY"] = "off"  // the suite's campaigns are not nights to remember
    for (k, v) in environment { env[k] = v }
    let child = try ChildProcess(
        executable: try layoutbenchExecutable(testbed: testbed).path, arguments: arguments, environment: env,
        inheritStandardError: false, connected: false)
    if let until {
        while !child.hasExited {
            if until() { child.kill(); break }
            usleep(20_000)
        }
    }
    child.waitForExit()
    return child.exitStatus ?? -1
}

func readReport(_ url: URL) throws -> FuzzReport {
    guard case .fuzz(let report) = try ReportDocument.decode(Data(contentsOf: url.appendingPathComponent("report.json"))) else {
        throw CampaignError("not a fuzz report")
    }
    return report
}

@Suite(.serialized) struct IsolationTests {
    static let common = ["fuzz", "--seed", "2", "--families", "equal-widths,random", "--min-size", "2", "--max-size", "5", "--quiet"]

    @Test func trappingWorkerBecomesAFindingAndTheCampaignGoesOn() throws {
        let url = temporaryDirectory("trap")
        let status = try runCLI(Self.common + ["--cases", "30", "--backend", "exact,test-trap", "--jobs", "2", "--out", url.path],
                                testbed: true)
        #expect(status == 1)  // the campaign completed, and holds wrong findings (the crashes)
        let report = try readReport(url)
        #expect(report.cases == 30)
        #expect(!report.crashedCases.isEmpty)
        #expect(report.findings.contains { $0.kind == "crash" && $0.backends == ["test-trap"] && $0.detail.contains("signal") })
        // The repro of a crash is the whole case; where the trap fired on the case itself (not
        // on an oracle's transform of it), the repro has the trap's trigger.
        let crashes = report.findings.filter { $0.kind == "crash" && $0.oracle == nil }
        #expect(!crashes.isEmpty)
        for crash in crashes {
            let repro = try LayoutParser.parse(String(contentsOf: url.appendingPathComponent(crash.repro), encoding: .utf8))
            #expect(repro.constraints.count % 7 == 3)
        }
    }

    /// Workers start with the Swift runtime's backtracer off, as their stderr goes nowhere:
    /// every crashed worker used to leave a `swift-backtrace` blocked on a read behind it.
    /// Shown stderr (`LAYOUTBENCH_WORKER_STDERR=inherit`) or a caller's own setting keeps it.
    @Test func workersStartWithoutTheBacktracerUnlessTheirStderrIsShown() {
        let isolation = Isolation(executable: URL(fileURLWithPath: "/bin/true"), environment: ["EXTRA": "1"])
        let plain = isolation.workerEnvironment(inheriting: ["PATH": "/bin", "EXTRA": "0"])
        #expect(plain == ["PATH": "/bin", "EXTRA": "1", "SWIFT_BACKTRACE": "enable=no"])
        let shown = isolation.workerEnvironment(inheriting: ["LAYOUTBENCH_WORKER_STDERR": "inherit"])
        #expect(shown["SWIFT_BACKTRACE"] == nil)
        let chosen = isolation.workerEnvironment(inheriting: ["SWIFT_BACKTRACE": "enable=yes,interactive=no"])
        #expect(chosen["SWIFT_BACKTRACE"] == "enable=yes,interactive=no")
    }

    @Test func hangingWorkerIsKilledAndReported() throws {
        let url = temporaryDirectory("hang")
        let status = try runCLI(Self.common + ["--cases", "12", "--backend", "exact,test-hang", "--jobs", "2",
                                               "--case-timeout", "2", "--out", url.path],
                                testbed: true)
        #expect(status == 1)
        let report = try readReport(url)
        #expect(report.cases == 12)
        #expect(report.findings.contains { $0.kind == "budget" && $0.backends == ["test-hang"] && $0.detail.contains("hung") })
    }

    /// A worker that traps while it reduces a finding (the reducer's re-check of the empty
    /// system trips `test-trap-reduce`) becomes a crash finding of the case, stored whole,
    /// and the finding being reduced is kept whole too; nothing is lost.
    @Test func trapWhileReducingBecomesACrashFindingWithTheWholeCase() throws {
        let url = temporaryDirectory("trap-reduce")
        let status = try runCLI(Self.common + ["--cases", "4", "--backend", "test-trap-reduce", "--jobs", "1",
                                               "--families", "equal-widths", "--out", url.path],
                                testbed: true)
        #expect(status == 1)
        let report = try readReport(url)
        #expect(report.cases == 4)
        let crashes = report.findings.filter { $0.kind == "crash" }
        #expect(!crashes.isEmpty)
        #expect(report.crashedCases == crashes.map(\.caseIndex).sorted() || Set(crashes.map(\.caseIndex)).isSubset(of: report.crashedCases))
        for crash in crashes {
            #expect(crash.detail.contains("while reducing") && crash.detail.contains("signal 4"), "\(crash.detail)")
            #expect(crash.reducedConstraints == crash.originalConstraints, "the crash's repro is the whole case")
            // The finding whose reduction crashed is stored too, whole.
            let reduced = report.findings.filter { $0.caseIndex == crash.caseIndex && $0.kind != "crash" }
            #expect(!reduced.isEmpty)
            #expect(reduced.allSatisfy { $0.reducedConstraints == $0.originalConstraints })
        }
        #expect(report.occurrences.keys.contains("crash/test-trap-reduce"))
    }

    /// Wrong findings exit 1 (as every finding of the CLI does); `--no-fail-on-wrong`, as a
    /// Slurm shard runs, exits 0 with the same findings in its report.
    @Test func wrongFindingsExitOneUnlessToldNotToFail() throws {
        let arguments = Self.common + ["--cases", "2", "--backend", "test-trap-reduce", "--jobs", "1", "--families", "equal-widths",
                                       "--no-reduce"]
        let failing = temporaryDirectory("wrong-exit")
        #expect(try runCLI(arguments + ["--out", failing.path], testbed: true) == 1)
        let lenient = temporaryDirectory("wrong-no-fail")
        #expect(try runCLI(arguments + ["--out", lenient.path, "--no-fail-on-wrong"], testbed: true) == 0)
        let (a, b) = (try readReport(failing), try readReport(lenient))
        #expect(a.findings.contains { $0.verdict == "wrong" })
        #expect(a.findings.map(\.fingerprint) == b.findings.map(\.fingerprint))
    }

    @Test func killedRunResumesToTheSameFindings() throws {
        let arguments = Self.common + ["--cases", "40", "--backend", "exact,gaussian", "--jobs", "2", "--no-isolate"]
        let reference = temporaryDirectory("uninterrupted-cli")
        #expect(try runCLI(arguments + ["--out", reference.path]) == 0)

        let url = temporaryDirectory("killed-cli")
        let checkpoint = url.appendingPathComponent("checkpoint.json")
        try runCLI(arguments + ["--out", url.path]) {
            // Kill -9 once some cases are checkpointed.
            guard let data = try? Data(contentsOf: checkpoint), let text = String(data: data, encoding: .utf8) else { return false }
            return text.contains("\"below\":") && !text.contains("\"below\":0,") && !text.contains("\"below\":40")
        }
        #expect(try runCLI(arguments + ["--out", url.path, "--resume"]) == 0)
        #expect(outcome(try readReport(url)) == outcome(try readReport(reference)))
        #expect(temporaryFiles(in: url).isEmpty, "a temporary file of the killed run was left behind")
    }

    @Test func workersDieWithAKilledParent() throws {
        let url = temporaryDirectory("orphans")
        let environment = ProcessInfo.processInfo.environment
        let cli = try ChildProcess(
            executable: try layoutbenchExecutable(testbed: true).path,
            arguments: Self.common + ["--cases", "40", "--backend", "exact,test-hang", "--jobs", "2",
                                      "--case-timeout", "600", "--out", url.path],
            environment: environment, inheritStandardError: false, connected: false)
        // Wait until both workers have started (and, most likely, one hangs in a case).
        let deadline = ContinuousClock.now + .seconds(60)
        var workers: [pid_t] = []
        while workers.count < 2 && ContinuousClock.now < deadline && !cli.hasExited {
            usleep(100_000)
            workers = childProcesses(of: cli.pid)
        }
        try #require(workers.count == 2, "the campaign did not start its workers")
        usleep(1_000_000)
        cli.kill()  // SIGKILL: the parent gets no chance to clean up
        let gone = ContinuousClock.now + .seconds(10)
        func alive() -> [pid_t] { workers.filter { kill($0, 0) == 0 && !isZombie($0) } }
        while !alive().isEmpty && ContinuousClock.now < gone { usleep(50_000) }
        #expect(alive().isEmpty, "workers outlived their parent")
        for pid in alive() { kill(pid, SIGKILL) }
    }
}

/// The `.NAME.PID.tmp` files of atomic writes under `url`.
func temporaryFiles(in url: URL) -> [String] {
    (FileManager.default.enumerator(atPath: url.path)?.allObjects as? [String] ?? [])
        .filter { ($0 as NSString).lastPathComponent.hasPrefix(".") && $0.hasSuffix(".tmp") }
}

/// The pids whose parent is `parent` (from /proc).
func childProcesses(of parent: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
        guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return false }
        let text = String(decoding: stat, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return false }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 && pid_t(fields[1]) == parent
    }
}

/// True when `pid` is a zombie or gone.
func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return true }
    let text = String(decoding: stat, as: UTF8.self)
    guard let close = text.lastIndex(of: ")") else { return false }
    return text[text.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
}

/// `report merge` and `--resume` refuse inputs that differ from what was written.
@Suite(.serialized) struct IntegrityTests {
    /// A two-shard campaign with findings, run once for all the tests of the suite.
    static let shards: [URL] = {
        let urls = [temporaryDirectory("integrity-s0"), temporaryDirectory("integrity-s1")]
        for (k, url) in urls.enumerated() { _ = try? run(Shard(index: k, count: 2), jobs: 1, into: url) }
        return urls
    }()

    /// A fresh copy of shard `k`'s folder, to spoil.
    func copy(_ k: Int) throws -> URL {
        let url = temporaryDirectory("integrity-copy")
        try FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: Self.shards[k], to: url)
        return url
    }

    /// The repro file of the first finding in a shard folder.
    func firstRepro(in folder: URL) throws -> URL {
        let report = try readReport(folder)
        let entry = try #require(report.findings.first)
        #expect(entry.digests?["layout"] != nil)
        return folder.appendingPathComponent(entry.repro)
    }

    /// The merge's refusal, or nil when it merged.
    func refusal(_ inputs: [URL]) -> String? {
        do {
            _ = try ReportMerge.merge(inputs: inputs, into: temporaryDirectory("integrity-out"))
            return nil
        } catch let error as ReportMerge.MergeError {
            return error.description
        } catch {
            return "unexpected error \(error)"
        }
    }

    @Test func untouchedShardsMergeAndDigestsSurviveTheMerge() throws {
        let merged = temporaryDirectory("integrity-merged")
        let report = try ReportMerge.merge(inputs: Self.shards, into: merged)
        #expect(!report.findings.isEmpty)
        #expect(report.digest == report.contentDigest)
        #expect(report.shards.allSatisfy { $0.digest != nil && $0.digest == $0.contentDigest })
        // The merged folder is itself a verified input.
        #expect(refusal([merged] + Self.shards) == nil)
    }

    @Test func aHandEditedReproIsRefused() throws {
        let folder = try copy(0)
        let repro = try firstRepro(in: folder)
        try (String(contentsOf: repro, encoding: .utf8) + "a.width == 1\n").write(to: repro, atomically: true, encoding: .utf8)
        let message = try #require(refusal([folder, Self.shards[1]]))
        #expect(message.hasPrefix(repro.path) && message.contains("edited"), "\(message)")
    }

    @Test func aTruncatedReproIsRefused() throws {
        let folder = try copy(0)
        let repro = try firstRepro(in: folder)
        let data = try Data(contentsOf: repro)
        try data.prefix(data.count / 2).write(to: repro)
        let message = try #require(refusal([folder, Self.shards[1]]))
        #expect(message.hasPrefix(repro.path) && message.contains("truncated"), "\(message)")
    }

    @Test func aMissingReproIsRefused() throws {
        let folder = try copy(1)
        let repro = try firstRepro(in: folder)
        try FileManager.default.removeItem(at: repro)
        let message = try #require(refusal([Self.shards[0], folder]))
        #expect(message.hasPrefix(repro.path) && message.contains("missing"), "\(message)")
    }

    @Test func aHandEditedReportIsRefused() throws {
        let folder = try copy(0)
        let url = folder.appendingPathComponent("report.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var shards = try #require(json["shards"] as? [[String: Any]])
        shards[0]["cases"] = 99_999
        json["shards"] = shards
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        let message = try #require(refusal([folder, Self.shards[1]]))
        #expect(message.hasPrefix(url.path) && message.contains("changed after it was written"), "\(message)")
    }

    @Test func twoDifferentCopiesOfOneShardAreRefused() throws {
        let partial = temporaryDirectory("integrity-partial")
        _ = try run(Shard(index: 0, count: 2), jobs: 1, into: partial, stopAfter: 3)
        let message = try #require(refusal([Self.shards[0], partial, Self.shards[1]]))
        #expect(message.contains(partial.path) && message.contains(Self.shards[0].path) && message.contains("shard 0 differs"),
                "\(message)")
        // The same shard twice is one shard.
        #expect(refusal([Self.shards[0], Self.shards[0], Self.shards[1]]) == nil)
    }

    @Test func aNonexistentFolderIsRefused() throws {
        let ghost = temporaryDirectory("integrity-ghost")
        try FileManager.default.removeItem(at: ghost)
        let message = try #require(refusal(Self.shards + [ghost]))
        #expect(message == "\(ghost.path): no such folder")
    }

    @Test func aCheckpointInconsistentWithTheCampaignIsRefused() throws {
        let folder = temporaryDirectory("integrity-resume")
        _ = try run(jobs: 1, into: folder, stopAfter: 5)
        let url = folder.appendingPathComponent("checkpoint.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var completed = try #require(json["completed"] as? [String: Any])
        completed["below"] = 99_999
        json["completed"] = completed
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        let error = try #require(throws: CampaignError.self) { try run(jobs: 1, into: folder, resume: true) }
        #expect(error.description.hasPrefix(url.path) && error.description.contains("99999"), "\(error.description)")
        // Not JSON at all: refused naming the file too.
        try Data("{\"spec\": ".utf8).write(to: url)
        let garbled = try #require(throws: CampaignError.self) { try run(jobs: 1, into: folder, resume: true) }
        #expect(garbled.description.hasPrefix(url.path + ": not a checkpoint"), "\(garbled.description)")
    }
}

/// `fuzz --sequences`: campaigns of update sequences run, shard and report like campaigns of
/// systems, and campaigns of systems write what they wrote before.
@Suite struct SequenceCampaignRunnerTests {
    static var sequenceSpec: CampaignSpec {
        var sequences = spec
        sequences.sequenceFamilies = ["drag", "rows-insert-delete", "priority-toggle"]
        sequences.maxSteps = 6
        return sequences
    }

    @Test func findingsNameTheirPassAndDoNotDependOnJobs() throws {
        func run(jobs: Int) throws -> FuzzReport {
            let options = FuzzRunOptions(spec: Self.sequenceSpec, cases: 12, jobs: jobs, isolation: nil,
                                         outDirectory: temporaryDirectory("sequences\(jobs)"))
            return try FuzzRunner(options: options, catalog: catalog).run()
        }
        let one = try run(jobs: 1), two = try run(jobs: 2)
        #expect(outcome(one) == outcome(two))
        #expect(one.sequenceFamilies == ["drag", "rows-insert-delete", "priority-toggle"])
        let sloppy = one.findings.filter { $0.backends.first == "sloppy" }
        #expect(!sloppy.isEmpty)
        for finding in sloppy {
            #expect(finding.base != nil && finding.pass != nil && finding.step != nil, "\(finding)")
            #expect(finding.reducedSteps.map { $0 <= (finding.originalSteps ?? 0) } == true, "\(finding)")
            #expect(Self.sequenceSpec.sequenceFamilies?.contains(finding.family) == true)
        }
    }

    @Test func campaignsOfSystemsKeepTheirSchema() throws {
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        #expect(!json.contains("sequenceFamilies") && !json.contains("maxSteps"))
        #expect(try JSONDecoder().decode(CampaignSpec.self, from: Data(json.utf8)) == spec)
        let url = temporaryDirectory("systems")
        _ = try FuzzRunner(options: FuzzRunOptions(spec: spec, cases: 8, jobs: 1, isolation: nil, outDirectory: url), catalog: catalog).run()
        let report = try String(contentsOf: url.appendingPathComponent("report.json"), encoding: .utf8)
        for key in ["sequenceFamilies", "\"pass\"", "\"step\"", "\"base\"", "reducedSteps"] {
            #expect(!report.contains(key), "\(key) in a campaign of systems")
        }
    }
}
