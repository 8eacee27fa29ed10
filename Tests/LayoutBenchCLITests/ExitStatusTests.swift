import Foundation
import Testing

/// Hostile numbers on the command line are usage errors (exit 2) naming the option, never
/// traps (issue 18 item 2).
@Suite struct NumericArgumentTests {
    static let layout = "root superview 375 667\nview a\na.width == 100\na.height == 50\na.left == superview.left\na.top == superview.top\n"

    @Test(arguments: ["nan", "inf", "-inf", "1e16", "1e300", "-1", "0", "abc", ""])
    func solveTimeLimit(_ value: String) throws {
        let file = try SequenceCommandTests.file("a.layout", Self.layout)
        let run = try SequenceCommandTests.run(["solve", file, "--time-limit", value])
        #expect(run.status == 2, "\(value): \(run.error)")
        #expect(run.error.contains("--time-limit"))
    }

    @Test(arguments: ["--time", "--case-timeout", "--solve-timeout"], ["nan", "inf", "1e18", "-5"])
    func fuzzTimes(_ option: String, _ value: String) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-numbers-\(UUID().uuidString)")
        let run = try SequenceCommandTests.run(["fuzz", "--seed", "1", "--cases", "1", option, value, "--out", out.path, "--quiet"])
        #expect(run.status == 2, "\(option) \(value): \(run.error)")
        #expect(run.error.contains(option))
        #expect(!FileManager.default.fileExists(atPath: out.path), "a refused campaign must not create its folder")
    }

    @Test func sensibleTimesAreAccepted() throws {
        let file = try SequenceCommandTests.file("a.layout", Self.layout)
        let run = try SequenceCommandTests.run(["solve", file, "--time-limit", "2.5"])
        #expect(run.status == 0, "\(run.error)")
    }

    @Test(arguments: ["0", "-3"]) func solveMaxIterations(_ value: String) throws {
        let file = try SequenceCommandTests.file("a.layout", Self.layout)
        let run = try SequenceCommandTests.run(["solve", file, "--max-iterations", value])
        #expect(run.status == 2, "\(value): \(run.error)")
        #expect(run.error.contains("--max-iterations"))
    }
}

/// The one exit contract (README): 2 for usage and invalid input, 3 for a backend that
/// declines a valid system.
@Suite struct ExitStatusTests {
    /// A valid system whose solution is beyond Double's range: every backend exits 2 with the
    /// same positioned error, none prints an "optimal" point (issue 18 item 4).
    @Test(arguments: ["float", "gaussian", "exact"])
    func aSolutionBeyondDoubleIsAPositionedError(_ backend: String) throws {
        let file = try SequenceCommandTests.file(
            "overflow.layout", "root s 0 0 100 100\nview a\nview b\na.width == 1e300\nb.width == 1e300 * a.width\n")
        let run = try SequenceCommandTests.run(["solve", file, "--backend", backend])
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.hasPrefix("\(file):5:1: the solution is beyond Double's range at c2"), "\(run.error)")
    }

    @Test func aValidSystemTheBackendDeclinesExitsThree() throws {
        let file = try SequenceCommandTests.file("optional.layout", NumericArgumentTests.layout + "a.width == 80 @250\n")
        let run = try SequenceCommandTests.run(["solve", file, "--backend", "gaussian"])
        #expect(run.status == 3, "\(run.error)")
        #expect(run.error.contains("does not support"))
        #expect(try SequenceCommandTests.run(["solve", file, "--backend", "exact"]).status == 0)
    }

    @Test(arguments: [
        ["fuzz", "--seed", "1"],  // neither --cases nor --time
        ["fuzz", "--cases", "1", "--sequences", "no-such-family", "--out", "/nonexistent/fuzz-out", "--quiet"],
        ["fuzz", "--cases", "1", "--sequences", "drag", "--max-steps", "0", "--out", "/nonexistent/fuzz-out", "--quiet"],
        ["generate", "--family", "random", "--size", "0"],
        ["solve"],  // no file
        ["no-such-command"],
        ["solve", "x.layout", "--no-such-option"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let run = try SequenceCommandTests.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.error)")
        #expect(!run.error.isEmpty)
    }

    @Test func versionIsASuccessOnStandardOutput() throws {
        let run = try SequenceCommandTests.run(["--version"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("layoutbench "))
    }

    @Test func helpIsASuccessOnStandardOutput() throws {
        let run = try SequenceCommandTests.run(["solve", "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("--time-limit"))
        #expect(run.error.isEmpty)
    }
}
