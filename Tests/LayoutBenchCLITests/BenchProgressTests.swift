import Foundation
import Testing

/// `bench` shows each row on stderr as it finishes, and `fuzz` each new finding as it is
/// stored, not only in the table or summary at the end.
@Suite("bench progress")
struct BenchProgressTests {
    @Test func rowsArePrintedAsTheyFinishUnlessQuiet() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["bench", "--backend", "exact,float", "--families", "form", "--sizes", "3", "--repetitions", "2",
                         "--jobs", "1", "--out", out.path, "--no-history"]
        let run = try SequenceCommandTests.run(arguments)
        #expect(run.status == 0, "\(run.error)")
        let rows = run.error.split(separator: "\n").filter { $0.hasPrefix("form n=3 ") }
        #expect(rows.count == 2, "\(run.error)")
        #expect(rows.allSatisfy { $0.contains(": optimal, p50 ") && $0.contains("⚠ few samples (2)") }, "\(run.error)")
        // Not a terminal: no colour, and the table still comes on stdout at the end.
        #expect(!run.error.contains("\u{1B}["))
        #expect(run.output.contains("2 rows, suite standard"), "\(run.output)")
        let quiet = try SequenceCommandTests.run(arguments + ["--quiet"])
        #expect(quiet.status == 0 && !quiet.error.contains("form n=3"), "\(quiet.error)")
    }

    @Test func fuzzPrintsEachNewFindingAsItIsStored() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-progress-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try HistoryCommandTests.run(
            ["fuzz", "--families", "equal-widths,random", "--min-size", "2", "--max-size", "5", "--cases", "30", "--seed", "2",
             "--backend", "exact,test-trap", "--jobs", "1", "--no-history", "--out", out.path],
            testbed: true)
        #expect(run.status == 1, "\(run.output)\(run.error)")
        let lines = run.error.split(separator: "\n").filter { $0.hasPrefix("new finding crash/test-trap at case ") }
        // Cases run in order (one job), so every finding stored is among the lowest cases of
        // its signature and stays: at most --per-signature (3) of them.
        #expect((1...3).contains(lines.count), "\(run.error)")
        for line in lines {
            let repro = try #require(line.split(separator: ", ").last)
            #expect(repro.hasPrefix("findings/") && repro.hasSuffix(".layout"))
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(String(repro)).path), "\(line)")
        }
        #expect(!run.error.contains("\u{1B}["))
    }
}
