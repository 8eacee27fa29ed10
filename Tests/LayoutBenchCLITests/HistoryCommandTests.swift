import Foundation
import Testing

/// The `history` commands and the recording hooks of `bench` and `fuzz`, through the built
/// executable and real history files.
@Suite struct HistoryCommandTests {
    /// Starts `layoutbench arguments` (the test bed with `testbed`) with `environment` added;
    /// the caller waits.
    static func start(_ arguments: [String], environment: [String: String] = [:], testbed: Bool = false) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = try SequenceCommandTests.executable(testbed: testbed)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["LAYOUTBENCH_HISTORY"] = "off"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    static func finish(_ started: (Process, Pipe, Pipe)) -> SequenceCommandTests.Run {
        let (process, out, err) = started
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }

    static func run(_ arguments: [String], environment: [String: String] = [:], testbed: Bool = false) throws -> SequenceCommandTests.Run {
        finish(try start(arguments, environment: environment, testbed: testbed))
    }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-history-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A small version-2 fuzz report of campaign `seed` that saw `signature`.
    static func fuzzReport(seed: Int, signature: String) -> String {
        """
        {"schema": "layoutbench.fuzz", "version": 2, "seed": \(seed), "shardCount": 1, "missingShards": [],
         "shards": [{"index": 0, "cases": 10, "interrupted": false, "occurrences": {"\(signature)": 1}, "seconds": 0.5}],
         "backends": ["exact", "float"], "families": ["form"], "perSignature": 1, "findings": []}
        """
    }

    /// Two processes record 100 runs each into one new file at once: 200 runs, no error.
    @Test func twoProcessesRecordIntoOneFile() throws {
        let folder = try Self.folder()
        var batches: [[String]] = [[], []]
        for index in 0..<200 {
            let url = folder.appendingPathComponent("run-\(index).json")
            try Data(Self.fuzzReport(seed: index, signature: "crash/float").utf8).write(to: url)
            batches[index % 2].append(url.path)
        }
        let history = folder.appendingPathComponent("history.sqlite").path
        let first = try Self.start(["history", "import", "--history", history] + batches[0])
        let second = try Self.start(["history", "import", "--history", history] + batches[1])
        let results = [Self.finish(first), Self.finish(second)]
        for result in results {
            #expect(result.status == 0, "\(result.error)")
            #expect(result.error.isEmpty)
            #expect(result.output.components(separatedBy: ": recorded run #").count == 101)
        }
        let verify = try Self.run(["history", "verify", "--history", history])
        #expect(verify.status == 0, "\(verify.error)")
        #expect(verify.output.contains(" 200 runs"))
        // Importing them again adds nothing.
        let again = try Self.run(["history", "import", "--history", history] + batches[0])
        #expect(again.output.components(separatedBy: ": already recorded as run #").count == 101)
        #expect(try Self.run(["history", "verify", "--history", history]).output.contains(" 200 runs"))
    }

    /// A second bench run names the first as the one it compared with.
    @Test func benchComparesWithThePreviousComparableRun() throws {
        let folder = try Self.folder()
        let history = folder.appendingPathComponent("h.sqlite").path
        let arguments = ["bench", "--backend", "exact", "--families", "form", "--sizes", "3", "--repetitions", "2", "--quiet", "--history", history]
        let first = try Self.run(arguments + ["--out", folder.appendingPathComponent("a").path])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.contains("history: recorded run #1 "))
        #expect(first.output.contains("no earlier run of suite"))
        let second = try Self.run(arguments + ["--out", folder.appendingPathComponent("b").path])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("history: recorded run #2 "))
        #expect(second.output.contains("history: compared with run #1 ("))
        #expect(second.output.contains(folder.appendingPathComponent("a/report.json").path))
        // --no-history records nothing; the steps of two runs are none.
        let third = try Self.run(arguments + ["--out", folder.appendingPathComponent("c").path, "--no-history"])
        #expect(!third.output.contains("history:"))
        #expect(try Self.run(["history", "verify", "--history", history]).output.contains(" 2 runs"))
        let steps = try Self.run(["history", "steps", "--history", history, "--format", "json"])
        #expect(steps.status == 0)
        #expect(try JSONSerialization.jsonObject(with: Data(steps.output.utf8)) as? [Any] != nil)
    }

    /// `fuzz --fail-on new` fails for a new wrong finding, not for the same one the next night.
    @Test func fuzzFailsOnlyForNewFindings() throws {
        let folder = try Self.folder()
        let history = folder.appendingPathComponent("h.sqlite").path
        let common = ["fuzz", "--families", "equal-widths,random", "--min-size", "2", "--max-size", "5", "--cases", "30",
                      "--backend", "exact,test-trap", "--jobs", "2", "--quiet", "--history", history, "--fail-on", "new"]
        let first = try Self.run(common + ["--seed", "2", "--out", folder.appendingPathComponent("n1").path], testbed: true)
        #expect(first.status == 1, "\(first.output)\(first.error)")
        #expect(first.output.contains("  new crash/test-trap"))
        #expect(first.error.contains("crash/test-trap"))
        let second = try Self.run(common + ["--seed", "3", "--out", folder.appendingPathComponent("n2").path], testbed: true)
        #expect(second.output.contains("history: findings 0 new, 2 open, 0 fixed, 0 back"), "\(second.output)")
        #expect(second.status == 0, "\(second.output)\(second.error)")
        let findings = try Self.run(["history", "findings", "--history", history, "--format", "json", "--state", "open"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(findings.output.utf8)) as? [[String: Any]])
        #expect(entries.contains { $0["signature"] as? String == "crash/test-trap" && $0["runsSeen"] as? Int == 2 })
        #expect(try Self.run(["fuzz", "--cases", "1", "--no-history", "--fail-on", "new"]).status == 2)
        // The report pages of the second night show the states.
        let report = folder.appendingPathComponent("n2/report.json").path
        let markdown = try Self.run(["report", "markdown", report, "--history", history])
        #expect(markdown.output.contains("### Across nights"))
        #expect(markdown.output.contains("| open | `crash/test-trap` | "))
        let page = folder.appendingPathComponent("n1.html").path
        #expect(try Self.run(["report", "html", folder.appendingPathComponent("n1/report.json").path, "--history", history, "-o", page]).status == 0)
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("<tr><td>new</td><td><code>crash/test-trap</code></td>"))
        // Without a history that recorded it, no such section.
        #expect(!(try Self.run(["report", "markdown", report]).output.contains("Across nights")))
    }

    @Test func readingCommandsRefuseMissingAndForeignFiles() throws {
        let folder = try Self.folder()
        let missing = folder.appendingPathComponent("none.sqlite").path
        let result = try Self.run(["history", "findings", "--history", missing])
        #expect(result.status == 2)
        #expect(result.error.contains("\(missing): no history here"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        let text = folder.appendingPathComponent("notes.txt")
        try Data("not a database".utf8).write(to: text)
        let refused = try Self.run(["history", "import", "--history", text.path, text.path])
        #expect(refused.status == 2)
        #expect(refused.error.contains("\(text.path): not a LayoutBench history"))
        #expect(try String(contentsOf: text, encoding: .utf8) == "not a database")
    }
}
