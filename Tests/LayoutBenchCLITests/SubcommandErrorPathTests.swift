import Foundation
import Testing

/// Every subcommand's error paths, through the built executable (issue 19): a missing file,
/// a malformed one, an unknown name, a value out of range. Each must exit with the status of
/// the one exit contract (2 for invalid input and usage) and say what is wrong, naming the
/// file with its position or the option at fault, never a trap or ArgumentParser's generic
/// status 1.
@Suite struct SubcommandErrorPathTests {
    /// Inputs shared by the cases: a `.layout` with an error at 3:16, a truncated JSON
    /// report, an MPS file naming an unknown row at 6:10, a malformed storyboard, and paths
    /// that do not exist.
    struct Inputs {
        let folder: String
        var badLayout: String { folder + "/bad.layout" }
        var badJSON: String { folder + "/bad.json" }
        var badMPS: String { folder + "/bad.mps" }
        var badStoryboard: String { folder + "/bad.storyboard" }
        var missing: String { folder + "/missing" }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-errors-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("root s 100 100\nview a\na.width == 10 @\n".utf8).write(to: URL(fileURLWithPath: badLayout))
            try Data(#"{"schema":"#.utf8).write(to: URL(fileURLWithPath: badJSON))
            try Data("NAME x\nROWS\n N obj\n L r1\nCOLUMNS\n x obj 1 r9 2\n".utf8).write(to: URL(fileURLWithPath: badMPS))
            try Data("<?xml version=\"1.0\"?>\n<document <scenes>\n".utf8).write(to: URL(fileURLWithPath: badStoryboard))
        }
    }

    /// One error path: the arguments (with `{bad.layout}`-style placeholders), the status and
    /// a fragment the message on standard error must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let message: String
        init(_ arguments: [String], _ message: String, status: Int32 = 2) {
            self.arguments = arguments
            self.status = status
            self.message = message
        }
        var testDescription: String { arguments.joined(separator: " ") }

        func resolved(_ inputs: Inputs) -> (arguments: [String], message: String) {
            let names = [("{bad.layout}", inputs.badLayout), ("{bad.json}", inputs.badJSON), ("{bad.mps}", inputs.badMPS),
                         ("{bad.storyboard}", inputs.badStoryboard), ("{missing}", inputs.missing), ("{folder}", inputs.folder)]
            func fill(_ text: String) -> String { names.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) } }
            return (arguments.map(fill), fill(message))
        }
    }

    static let cases: [Case] = [
        Case(["validate", "{missing}.layout"], "{missing}.layout: cannot read the file"),
        Case(["validate", "{bad.layout}"], "{bad.layout}:3:16: expected a priority"),
        Case(["validate", "{bad.layout}", "--rules", "nosuch"], "The value 'nosuch' is invalid for '--rules <rules>'"),
        Case(["solve", "{bad.layout}"], "{bad.layout}:3:16: expected a priority"),
        Case(["solve", "{bad.layout}", "--backend", "nosuch"], "unknown backend 'nosuch'"),
        Case(["solve", "{bad.layout}", "--along", "--certify"], "--certify checks each pass solved alone"),
        Case(["backends", "extra"], "Unexpected argument 'extra'"),
        Case(["generate", "--family", "nosuch"], "unknown family 'nosuch'"),
        Case(["generate", "--size", "3"], "--family is required (or use --list)"),
        Case(["bench", "--backend", "nosuch"], "unknown backend 'nosuch'"),
        Case(["bench", "--suite", "nosuch"], "--suite"),
        Case(["bench", "--sizes", "0"], "--sizes"),
        Case(["bench", "--sizes", "10,,100"], "--sizes"),
        Case(["bench-incremental", "--steps", "0"], "--steps"),
        Case(["bench-incremental", "--sizes", "abc"], "--sizes"),
        Case(["bench-incremental", "--sequences", "drag", "--views", "10,x"], "--views"),
        Case(["bench-incremental", "--sequences", "nosuch"], "unknown sequence family nosuch"),
        Case(["bench-incremental", "--kiwi-time-limit", "nan"], "--kiwi-time-limit"),
        Case(["fuzz", "--backend", "nosuch", "--cases", "1"], "unknown backend 'nosuch'"),
        Case(["fuzz", "--shard", "9/8", "--cases", "1"], "--shard takes K/N with 0 <= K < N"),
        Case(["guided", "seeds"], "--out"),
        Case(["guided", "findings", "{missing}", "--out", "{folder}/findings"], "{missing}:1:1: cannot read the artefact"),
        Case(["guided", "show", "{missing}"], "{missing}:1:1: cannot read the input"),
        Case(["replay", "{missing}"], "no .layout files under {missing}"),
        Case(["replay", "{bad.layout}"], "{bad.layout}:3:16: expected a priority"),
        Case(["print", "{bad.layout}"], "{bad.layout}:3:16: expected a priority"),
        Case(["print", "{missing}.layout"], "{missing}.layout: cannot read the file"),
        Case(["export-lp", "{bad.layout}"], "--level"),
        Case(["export-lp", "{bad.layout}", "--level", "1"], "{bad.layout}:3:16: expected a priority"),
        Case(["export-lp", "{missing}.layout", "--level", "1"], "{missing}.layout: cannot read the file"),
        Case(["report", "html", "{missing}.json"], "{missing}.json: cannot read the file"),
        Case(["report", "markdown", "{bad.json}"], "{bad.json}: not a layoutbench report"),
        Case(["report", "compare", "{bad.json}", "{bad.json}"], "{bad.json}: not a layoutbench report"),
        Case(["report", "compare", "{bad.json}", "{bad.json}", "--min-change=-1"], "--min-change must be a percentage"),
        Case(["report", "html", "{bad.json}", "--min-change=nan"], "--min-change must be a percentage"),
        Case(["report", "merge", "{missing}-1", "{missing}-2", "--output", "{folder}/merged"], "{missing}-1: no such folder"),
        Case(["report", "merge", "--output", "{folder}/merged"], "Missing expected argument '<inputs> ...'"),
        Case(["import", "ib", "{bad.storyboard}"], "give --out DIR, --check or --manifest FILE"),
        Case(["import", "ib", "{bad.storyboard}", "--check"], "{bad.storyboard}:2:11: malformed XML"),
        Case(["import", "mps", "{bad.mps}"], "{bad.mps}:6:10: unknown row 'r9'"),
        Case(["import", "mps", "{missing}.mps"], "{missing}.mps:1:1: cannot read the file"),
        Case(["history", "import", "{bad.json}", "--history", "{folder}/history.sqlite"], "{bad.json}: malformed report"),
        Case(["history", "verify", "--history", "{bad.json}"], "{bad.json}: not a LayoutBench history"),
        Case(["history", "findings", "--history", "{missing}.sqlite"], "{missing}.sqlite: no history here"),
        Case(["history", "findings", "--history", "{missing}.sqlite", "--since", "yesterday"], "--since takes a date"),
        Case(["history", "findings", "--history", "{missing}.sqlite", "--state", "closed"], "--state takes new, open, fixed and back"),
        Case(["history", "steps", "--history", "{bad.json}"], "{bad.json}: not a LayoutBench history"),
        Case(["history", "steps", "--history", "{bad.json}", "--format", "xml"], "The value 'xml' is invalid for '--format <format>'"),
        Case(["history", "html", "--history", "{bad.json}", "--output", "{folder}/trend.html"], "{bad.json}: not a LayoutBench history"),
        Case(["solve-lp", "{bad.mps}"], "{bad.mps}:6:10: unknown row 'r9'"),
        Case(["solve-lp", "{missing}.mps"], "{missing}.mps:1:1: cannot read the file"),
        Case(["solve-lp", "{bad.mps}", "--backend", "nosuch"], "unknown LP backend 'nosuch'"),
        Case(["bench-netlib", "--corpus", "{missing}"], "{missing}/koch-quick.solu:1:1: cannot read the file"),
        Case(["vfl-diff", "--gtk-vfl", "{folder}", "--lines", "5"], "--gtk-vfl: no executable file at {folder}"),
        Case(["vfl-diff", "--lines", "-5"], "--lines"),
    ]

    @Test(arguments: cases)
    func exitsWithItsStatusAndSaysWhy(_ errorCase: Case) throws {
        let inputs = try Inputs()
        defer { try? FileManager.default.removeItem(atPath: inputs.folder) }
        let (arguments, message) = errorCase.resolved(inputs)
        let run = try SequenceCommandTests.run(arguments)
        #expect(run.status == errorCase.status, "\(arguments): \(run.error)")
        #expect(run.error.contains(message), "\(arguments): \(run.error)")
        #expect(!run.error.contains("Fatal error"), "\(run.error)")
    }

    /// The subcommands `layoutbench arguments --help` lists (without `help`), by name.
    static func subcommands(_ arguments: [String]) throws -> [String] {
        let help = try SequenceCommandTests.run(arguments + ["--help"])
        guard help.output.contains("SUBCOMMANDS:") else { return [] }
        return help.output.components(separatedBy: "SUBCOMMANDS:").last?
            .components(separatedBy: "\n\n").first?
            .split(separator: "\n")
            .compactMap { line -> String? in
                let trimmed = line.drop { $0 == " " }
                // Subcommand lines are indented by two spaces; wrapped abstracts by more.
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let name = trimmed.split(separator: " ").first else { return nil }
                return String(name)
            }
            .filter { $0 != "help" } ?? []
    }

    /// Every subcommand the executable lists appears in the table above (or in the worker
    /// test below), and so does every subcommand of a group (`report html`, `history steps`,
    /// …), so that a new subcommand cannot arrive without its error paths.
    @Test func everySubcommandHasErrorPaths() throws {
        let listed = try Self.subcommands([])
        #expect(listed.count >= 15, "\(listed)")
        let covered = Set(Self.cases.map(\.arguments[0]))
        var groups = 0
        for name in listed {
            #expect(covered.contains(name), "no error-path case for `\(name)`")
            let members = try Self.subcommands([name])
            if !members.isEmpty { groups += 1 }
            let coveredMembers = Set(Self.cases.filter { $0.arguments[0] == name && $0.arguments.count > 1 }.map(\.arguments[1]))
            for member in members {
                #expect(coveredMembers.contains(member), "no error-path case for `\(name) \(member)`")
            }
        }
        #expect(groups >= 4, "guided, import, report and history have subcommands")
    }

    /// The hidden `worker` reads frames from its parent: anything else on its input is invalid
    /// input (status 2, said on stderr), not a silent success or a trap.
    @Test(arguments: ["garbage\n", "\u{0}\u{0}\u{0}\u{5}nope!"])
    func workerRefusesWhatIsNotAFrame(_ input: String) throws {
        let process = Process()
        process.executableURL = try SequenceCommandTests.executable()
        process.arguments = ["worker"]
        let stdin = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(error)")
        #expect(error.contains("worker: malformed request"), "\(error)")
    }

    /// A worker whose parent closes its input without a word has nothing to do: success.
    @Test func workerWithClosedInputEndsQuietly() throws {
        let process = Process()
        process.executableURL = try SequenceCommandTests.executable()
        process.arguments = ["worker"]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// `replay`'s summary line counts the expected failures (xfail) and the files marked
/// expect-fail that pass (XPASS), so a fixed bug is seen in a nightly log's last line.
@Suite struct ReplaySummaryTests {
    @Test func theSummaryCountsXfailAndXpass() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let layout = "# expect-fail: float\nroot superview 375 667\nview V\nV.leading == superview.leading + 20\nV.top == superview.top + 20\nV.width == 100\nV.height == 2.0 * V.width\n"
        let expected = #"{"status": "optimal", "frames": {"V": [20, 20, 100, WIDTH]}, "objective": [], "ambiguous": [], "broken": [], "conflict": []}"#
        // Right expectation: float passes a file marked expect-fail (XPASS); wrong one: it
        // fails as marked (xfail).
        for (name, height) in [("fixed", "200"), ("still-failing", "201")] {
            try Data(layout.utf8).write(to: folder.appendingPathComponent("\(name).layout"))
            try Data(expected.replacingOccurrences(of: "WIDTH", with: height).utf8)
                .write(to: folder.appendingPathComponent("\(name).expected.json"))
        }
        let run = try SequenceCommandTests.run(["replay", folder.path, "--backend", "float"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("1 passed (1 XPASS), 0 failed, 1 xfail"), "\(run.output)")
        #expect(run.output.contains("XPASS \(folder.path)/fixed.layout [float]"), "\(run.output)")
    }

    /// The judge runs too: this repro's frames match its expectation within rounding, but a
    /// small required row is broken at its own scale, so float still fails it as marked.
    @Test func theJudgeFailsFramesThatOnlyMatchWithinRounding() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("Corpora/regressions/infeasible-point-float-87711d56e71718a1.layout").path
        let run = try SequenceCommandTests.run(["replay", file, "--backend", "float", "--verbose"])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("0 passed (0 XPASS), 0 failed, 1 xfail"), "\(run.output)")
        #expect(run.output.contains("infeasible-point"), "\(run.output)")
    }
}

/// `solve` prints frame values as the shortest text that reads back as the same `Double`, so a
/// value can be compared digit for digit or pasted back into a `.layout` file (issue 19).
@Suite struct SolveNumberFormatTests {
    @Test(arguments: ["exact", "float"])
    func framesRoundTrip(_ backend: String) throws {
        let file = try SequenceCommandTests.file("numbers.layout", """
            root superview 375 667
            view a
            a.left == superview.left + 0.1
            a.height == 0.3333333333333333 * superview.height
            a.width == 100.123456789
            a.top == superview.top + 50
            """)
        let run = try SequenceCommandTests.run(["solve", file, "--backend", backend])
        #expect(run.status == 0, "\(run.error)")
        let row = try #require(run.output.split(separator: "\n").first { $0.hasPrefix("a ") })
        let cells = row.split(separator: " ").map(String.init)
        #expect(cells == ["a", "0.1", "50", "100.123456789", "222.33333333333331"], "\(row)")
        #expect(Double(cells[4]) == 0.3333333333333333 * 667)
    }
}
