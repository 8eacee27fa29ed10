import Foundation
import Testing

/// `bench` shows each row on stderr as it finishes, not only in the table at the end.
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
}
