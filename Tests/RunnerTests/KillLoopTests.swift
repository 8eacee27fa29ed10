import ChildProcesses
import Foundation
import Generator
import Reporting
import Testing
@testable import Runner

/// Issue 18: `kill -9` of a campaign parent at random moments, in a loop. Each kill comes at
/// a seeded moment — a number of polls after the start (before or while workers start), or
/// once the checkpoint has reached a seeded count of cases — and each time no worker
/// outlives its parent; the run is resumed each time, and at the end its report equals an
/// uninterrupted run's, with no temporary file left.
@Suite(.serialized) struct KillLoopTests {
    static let arguments = ["fuzz", "--seed", "3", "--families", "equal-widths,random", "--min-size", "2", "--max-size", "5",
                            "--quiet", "--cases", "120", "--backend", "exact,gaussian", "--jobs", "2"]

    /// The cases below which every case is checkpointed (`"below":N`), 0 before the first
    /// checkpoint.
    static func checkpointed(_ url: URL) -> Int {
        guard let data = try? Data(contentsOf: url.appendingPathComponent("checkpoint.json")),
              let text = String(data: data, encoding: .utf8), let range = text.range(of: "\"below\":")
        else { return 0 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? 0
    }

    @Test func killedAtSeededMomentsAndResumedEqualsTheUninterruptedRun() throws {
        let reference = temporaryDirectory("kill-loop-reference")
        #expect(try runCLI(Self.arguments + ["--out", reference.path]) == 0)

        let url = temporaryDirectory("kill-loop")
        var random = SplitMix64(state: 20_261_124_18)
        var kills = 0
        for round in 0..<6 {
            // Early rounds kill by polls (20 ms each) from the start; later ones once the
            // checkpoint holds a seeded number of cases beyond what it held.
            let byPolls = round < 2 || random.next() % 2 == 0
            let polls = Int(random.next() % 15)
            let target = min(Self.checkpointed(url) + 1 + Int(random.next() % 16), 119)
            let cli = try ChildProcess(
                executable: try layoutbenchExecutable().path, arguments: Self.arguments + ["--out", url.path, "--resume"],
                environment: ProcessInfo.processInfo.environment.merging(["LAYOUTBENCH_HISTORY": "off"]) { $1 },
                inheritStandardError: false, connected: false)
            var workers = Set<pid_t>()
            var waited = 0
            while !cli.hasExited {
                workers.formUnion(childProcesses(of: cli.pid))
                if byPolls ? waited >= polls : Self.checkpointed(url) >= target { break }
                usleep(20_000)
                waited += 1
            }
            if cli.hasExited {
                cli.waitForExit()
                #expect(cli.exitStatus == 0, "round \(round): the run ended with \(String(describing: cli.exitStatus))")
                break
            }
            workers.formUnion(childProcesses(of: cli.pid))
            cli.kill()  // SIGKILL: the parent gets no chance to clean up
            cli.waitForExit()
            kills += 1
            let gone = ContinuousClock.now + .seconds(10)
            func alive() -> [pid_t] { workers.filter { kill($0, 0) == 0 && !isZombie($0) } }
            while !alive().isEmpty && ContinuousClock.now < gone { usleep(50_000) }
            #expect(alive().isEmpty, "round \(round): workers outlived their killed parent")
            for pid in alive() { kill(pid, SIGKILL) }
        }
        #expect(kills >= 2, "the campaign finished before the loop could kill it twice")
        // Whatever the kills left, the resumed run completes the campaign.
        #expect(try runCLI(Self.arguments + ["--out", url.path, "--resume"]) == 0)
        #expect(outcome(try readReport(url)) == outcome(try readReport(reference)))
        #expect(temporaryFiles(in: url).isEmpty, "a temporary file of a killed run was left behind")
    }
}
