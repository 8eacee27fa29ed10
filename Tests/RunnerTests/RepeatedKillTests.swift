import ChildProcesses
import Foundation
import Generator
import Testing

/// `kill -9` at seeded random moments, again and again (issue 18): a campaign killed while it
/// starts, while it judges, while it reduces or writes, and resumed each time, ends with the
/// findings of an uninterrupted run, leaves no temporary file, and never a worker behind.
@Suite(.serialized) struct RepeatedKillTests {
    static let arguments = IsolationTests.common + ["--cases", "200", "--backend", "exact,gaussian,test-trap", "--jobs", "2"]

    @Test(arguments: [UInt64(18), 1_018])
    func killedAgainAndAgainResumesToTheSameFindings(seed: UInt64) throws {
        let reference = temporaryDirectory("kill-loop-reference")
        // test-trap crashes its worker on some cases: the findings are wrong ones (exit 1).
        #expect(try runCLI(Self.arguments + ["--out", reference.path], testbed: true) == 1)

        let url = temporaryDirectory("kill-loop")
        var random = SeededGenerator(seed: seed)
        var kills = 0
        for round in 0..<6 {
            let resume = FileManager.default.fileExists(atPath: url.appendingPathComponent("checkpoint.json").path)
            let arguments = Self.arguments + ["--out", url.path] + (resume ? ["--resume"] : [])
            // A moment from the start to a few seconds in: in the parent's setup, among the
            // workers' cases, in a reduction, in a write.
            let moment = Duration.milliseconds(Int.random(in: 50...1_500, using: &random))
            let started = ContinuousClock.now
            var workers: Set<pid_t> = []
            var killed = false
            let child = try ChildProcess(
                executable: try layoutbenchExecutable(testbed: true).path, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.merging(["LAYOUTBENCH_HISTORY": "off"]) { $1 },
                inheritStandardError: false, connected: false)
            while !child.hasExited {
                workers.formUnion(childProcesses(of: child.pid))
                if ContinuousClock.now - started >= moment {
                    child.kill()
                    killed = true
                    break
                }
                usleep(10_000)
            }
            child.waitForExit()
            if killed { kills += 1 }
            // The killed parent's workers follow it (parent-death signal), whatever they were doing.
            let gone = ContinuousClock.now + .seconds(10)
            func alive() -> [pid_t] { workers.filter { kill($0, 0) == 0 && !isZombie($0) } }
            while !alive().isEmpty && ContinuousClock.now < gone { usleep(50_000) }
            #expect(alive().isEmpty, "round \(round): workers outlived their killed parent")
            for pid in alive() { kill(pid, SIGKILL) }
            if !killed { break }  // the campaign finished before its moment came
        }
        print("kill loop, seed \(seed): \(kills) kills")
        // However many kills it took, one more resume finishes the campaign.
        let resume = FileManager.default.fileExists(atPath: url.appendingPathComponent("checkpoint.json").path)
        let status = try runCLI(Self.arguments + ["--out", url.path] + (resume ? ["--resume"] : []), testbed: true)
        #expect(status == 1, "the finished campaign holds the crash findings")
        #expect(kills >= 1, "no kill landed: the moments are too late for this machine")
        #expect(outcome(try readReport(url)) == outcome(try readReport(reference)))
        #expect(temporaryFiles(in: url).isEmpty, "a temporary file of a killed run was left behind")
    }
}
