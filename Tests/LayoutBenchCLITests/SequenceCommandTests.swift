import Foundation
import LayoutModel
import Testing

/// `validate`, `print` and `solve` on update sequences, JSON input and broken input, through
/// the built executable: output and exit status as a user sees them.
@Suite struct SequenceCommandTests {
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// The `layoutbench` executable beside the test bundle (built by `swift build --build-tests`),
    /// or with `testbed` the test bed: `layoutbench` plus the backends that trap or hang on
    /// purpose (`test-trap`, …), which the shipped binary does not have.
    static func executable(testbed: Bool = false) throws -> URL {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = directory.appendingPathComponent(testbed ? "LayoutBenchTestbed" : "layoutbench")
        try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "build the executable first: swift build --build-tests")
        return candidate
    }

    static func run(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and stall the child.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   error: String(decoding: error, as: UTF8.self))
    }

    /// Writes `text` to a fresh file named `name` and returns its path.
    static func file(_ name: String, _ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let sequence = """
        root superview 375 667
        view card
        card.left == superview.left + 20
        card.top == superview.top + 20
        card.width == 300
        card.height == 200
        layout
        set c3 constant 40
        set root 667 375
        view extra in card
        extra.left == card.left
        extra.top == card.top + 4
        extra.width == 10
        extra.height == 10 @750
        layout

        """

    @Test func validateCountsPassesAndSteps() throws {
        let path = try Self.file("s.layout", Self.sequence)
        let run = try Self.run(["validate", path])
        #expect(run.status == 0)
        #expect(run.output == "\(path): ok (1 views, 4 constraints, 2 passes, 7 steps)\n")
    }

    @Test func printRoundTripsTextAndJSON() throws {
        let path = try Self.file("s.layout", Self.sequence)
        let text = try Self.run(["print", path])
        #expect(text.status == 0)
        #expect(text.output.hasSuffix("layout\nset c3 constant 40\nset root 667 375\nview extra in card\nextra.left == card.left\nextra.top == card.top + 4\nextra.width == 10\nextra.height == 10 @750\nlayout\n"))
        let json = try Self.run(["print", "--format", "json", path])
        #expect(json.status == 0 && json.output.contains("\"updates\""))
        let jsonPath = try Self.file("s.json", json.output)
        let reprinted = try Self.run(["print", jsonPath])
        #expect(reprinted.output == text.output)
    }

    @Test func solveGivesEveryPass() throws {
        let path = try Self.file("s.layout", Self.sequence)
        let text = try Self.run(["solve", path])
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("pass 1:\nstatus: optimal"))
        #expect(text.output.contains("\n\npass 2:\nstatus: optimal"))
        let json = try Self.run(["solve", "--format", "json", path])
        #expect(json.status == 0)
        let document = try JSONDecoder().decode(ResultDocument.self, from: Data(json.output.utf8))
        #expect(document.passes?.count == 2)
        #expect(document.frames["card"] == [20, 20, 40, 200])
        #expect(document.passes?.first?.frames["card"] == [20, 20, 300, 200])
        #expect(document.passes?.last == ResultDocument(
            status: document.status, frames: document.frames, objective: document.objective, ambiguous: document.ambiguous,
            broken: document.broken, conflict: document.conflict, exact: document.exact))
        // The float backend answers every pass too, and the JSON form reads the same.
        let float = try Self.run(["solve", "--backend", "float", "--format", "json", try Self.file("s.json", try Self.run(["print", "--format", "json", path]).output)])
        #expect(float.status == 0)
        #expect(try JSONDecoder().decode(ResultDocument.self, from: Data(float.output.utf8)).frames == document.frames)
    }

    /// `--along` takes the backend's own way through the passes: for float, one incremental
    /// solver, whose first pass here once read a slack's reduced cost of -7.5e-8 (rounding the
    /// primal simplex had dropped) as no freedom, and called `v1.x` determined.
    @Test func solveAlongFollowsTheSequenceAsTheBackendDoes() throws {
        let path = try Self.file("along.layout", """
            root root 568 320
            view v1
            root.left >= -1e-9 * v1.left @750
            view v3
            root.left == v3.left + 17
            view v4
            v4.left == v3.left @750
            v4.right == v1.left
            layout
            layout

            """)
        for arguments in [["solve", "--backend", "float", path], ["solve", "--backend", "float", "--along", path]] {
            let run = try Self.run(arguments + ["--format", "json"])
            #expect(run.status == 0, "\(arguments): \(run.error)")
            let document = try JSONDecoder().decode(ResultDocument.self, from: Data(run.output.utf8))
            #expect(document.passes?.count == 2)
            for pass in document.passes ?? [] {
                #expect(pass.ambiguous.contains("v1.x") && pass.ambiguous.contains("v4.w"), "\(arguments): \(pass.ambiguous)")
                #expect(pass.frames["v3"]?[0] == -17)
            }
        }
        let text = try Self.run(["solve", "--backend", "float", "--along", path])
        #expect(text.output.hasPrefix("pass 1:\nstatus: optimal   (backend float"))
        let certified = try Self.run(["solve", "--along", "--certify", path])
        #expect(certified.status == 2)
        #expect(certified.error.contains("--certify"), "\(certified.error)")
    }

    /// A one-pass file prints no `passes` and no pass headers.
    @Test func onePassOutputIsUnchanged() throws {
        let path = try Self.file("one.layout", "root r 100 100\nview a\na.left == r.left\na.top == r.top\na.width == 10\na.height == 10\nlayout\n")
        let text = try Self.run(["solve", path])
        #expect(text.status == 0 && text.output.hasPrefix("status: optimal"))
        let json = try Self.run(["solve", "--format", "json", path])
        #expect(!json.output.contains("passes"))
    }

    /// (file name, contents, the error line's start after the path)
    static let invalid: [(String, String, String)] = [
        ("bad.layout", "root r 1 1\nview a\na.width == 1\nlayout\nset c2 constant 3\n", ":5:5: no constraint named 'c2'"),
        ("bad.layout", "root r 1 1\nview a\na.width == 1 @750\nlayout\nset c1 priority 1000\n", ":5:17: a priority may not move to 1000"),
        ("crlf.layout", "root s 375 667\r\nview a\r\na.width == 100 # c\r\na.height == 50 extra\r\n", ":4:16: "),
        ("empty.json", #"{"direction": "ltr", "items": [], "constraints": []}"#, ":1:31: items: a system has at least its root"),
        ("loop.json", #"{"direction": "ltr", "items": [{"name": "r", "frame": ["0", "0", "1", "1"], "parent": 0}], "constraints": []}"#,
         ":1:87: items[0].parent"),
        ("missing.json", #"{"items": []}"#, ":1:1: missing key 'direction'"),
    ]

    @Test(arguments: 0..<invalid.count)
    func invalidInputExitsTwoWithAPosition(index: Int) throws {
        let (name, contents, expected) = Self.invalid[index]
        let path = try Self.file(name, contents)
        for command in [["validate"], ["print"], ["solve"]] {
            let run = try Self.run(command + [path])
            #expect(run.status == 2, "\(command) \(name): \(run.error)")
            #expect(run.error.hasPrefix(path + expected), "\(command) \(name): \(run.error)")
            #expect(!run.error.contains("DecodingError"))
        }
    }

    @Test func certificateOutTakesOnePass() throws {
        let path = try Self.file("s.layout", Self.sequence)
        let run = try Self.run(["solve", "--certify", "--certificate-out", path + ".cert", path])
        #expect(run.status == 2 && run.error.contains("one pass"))
        let certified = try Self.run(["solve", "--certify", path])
        #expect(certified.status == 0)
        #expect(certified.error == "pass 1: certificate: verified by the independent checker\npass 2: certificate: verified by the independent checker\n")
    }
}

/// `fuzz --sequences`: a campaign of update sequences from the command line.
@Suite struct FuzzSequencesCommandTests {
    @Test func aSequenceCampaignRunsAndSaysSo() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-fuzz-seq-\(UUID().uuidString)")
        let run = try SequenceCommandTests.run([
            "fuzz", "--cases", "4", "--sequences", "drag,priority-toggle", "--families", "form", "--max-steps", "4",
            "--backend", "exact,float", "--no-isolate", "--no-history", "--jobs", "1", "--quiet", "--out", out.path,
        ])
        #expect(run.status == 0, "\(run.error)")
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("\"sequenceFamilies\""))
        let checkpoint = try String(contentsOf: out.appendingPathComponent("checkpoint.json"), encoding: .utf8)
        #expect(checkpoint.contains("priority-toggle") && checkpoint.contains("\"maxSteps\":4"))
        let help = try SequenceCommandTests.run(["fuzz", "--help"])
        #expect(help.output.contains("--sequences") && help.output.contains("--max-steps") && help.output.contains("from-scratch"))
    }
}
