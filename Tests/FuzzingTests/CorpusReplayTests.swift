import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import GaussianBackend
import Testing
@testable import Fuzzing
import LayoutModel

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/FuzzingTests/<file>
    return parts.joined(separator: "/")
}()

/// Every backend the corpus is replayed with.
let allBackends: [any LayoutBackend] = [ExactSimplexBackend(), CassowaryBackend(), GaussianEliminationBackend()]

@Suite struct CorpusReplayTests {
    static let files = CorpusReplay.layoutFiles(under: [repositoryRoot + "/Corpora"])

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 20)
        for file in Self.files where file.contains("/seeds/") {
            #expect(FileManager.default.fileExists(atPath: ExpectedResult.url(for: URL(fileURLWithPath: file)).path),
                    "\(file) has no expected result")
        }
    }

    /// Every corpus file, every backend that supports it: the expected result.
    @Test(arguments: files)
    func replay(file: String) throws {
        let replay = CorpusReplay(backends: allBackends, comparator: Comparator(reference: ExactSimplexBackend()))
        let outcomes = try replay.replay(file: file)
        for outcome in outcomes {
            switch outcome.verdict {
            case .passed, .expectedFailure:
                break
            case .unexpectedPass:
                Issue.record("\(outcome.backend) passes \((file as NSString).lastPathComponent), which is marked expect-fail: remove the marker")
            case .unsupported(let reason):
                #expect(!reason.isEmpty)
            case .failed(let problems):
                Issue.record("\(outcome.backend) on \((file as NSString).lastPathComponent): \(problems.joined(separator: "; "))")
            }
        }
    }

    /// The baseline supports exactly the seeds made of required equalities, and says why not
    /// for the others.
    @Test func gaussianSupportMatchesTheSystems() throws {
        var supported = 0
        for file in Self.files {
            // A sequence repro is judged by its first pass's support (the replay asks the same).
            let system = try LayoutParser.parseSequence(String(contentsOfFile: file, encoding: .utf8), file: file).system(atPass: 0)
            let onlyRequiredEqualities = system.constraints.allSatisfy { $0.relation == .equal && $0.priority.isRequired }
            switch GaussianEliminationBackend().supports(system) {
            case .supported:
                supported += 1
                #expect(onlyRequiredEqualities, "\(file)")
            case .unsupported(let reason):
                #expect(!onlyRequiredEqualities, "\(file)")
                #expect(reason.contains("inequalities") || reason.contains("optional"), "\(file): \(reason)")
            }
        }
        #expect(supported >= 5)
    }
}

@Suite struct ExpectedResultTests {
    static let system = try! LayoutParser.parse("root r 100 100\nview a\na.width == 10\n")

    @Test func reportsEachDifference() {
        let expected = ExpectedResult(
            status: .optimal, frames: ["a": [0, nil, 10, 5]], objective: [], ambiguous: ["a.x"], broken: [], conflict: [])
        let good = Solution(status: .optimal, values: [0, 7, 10, 5], ambiguous: [Unknown(variable: 0)])
        #expect(expected.mismatches(in: good, of: Self.system).isEmpty)
        var bad = good
        bad.values[2] = 11
        bad.ambiguous = []
        bad.broken = [0]
        let problems = expected.mismatches(in: bad, of: Self.system)
        #expect(problems.count == 3)
        #expect(problems.contains { $0.contains("a.w") })
        bad.status = .unsatisfiable
        #expect(expected.mismatches(in: bad, of: Self.system) == ["status unsatisfiable, expected optimal"])
    }

    @Test func comparesExactFramesExactly() {
        let expected = ExpectedResult(
            status: .optimal, frames: ["a": [nil, nil, 10, nil]], objective: [], ambiguous: [], broken: [], conflict: [],
            exact: ResultDocument.ExactFrames(frames: ["a": ["1/3", nil, nil, nil]]))
        var solution = Solution(status: .optimal, values: [1.0 / 3, 0, 10, 0], exactValues: ["1/3", "0", "10", "0"])
        #expect(expected.mismatches(in: solution, of: Self.system).isEmpty)
        solution.exactValues = ["333333/1000000", "0", "10", "0"]
        #expect(expected.mismatches(in: solution, of: Self.system).count == 1)
    }
}

/// `replay` refuses a case whose expectation would let any answer pass.
@Suite struct ReplayExpectationTests {
    static let system = "root s 0 0 100 100\nview a\na.width == 10\na.height == 20\n"

    /// Writes `case.layout` (and `case.expected.json` when given) to a fresh folder.
    func writeCase(expected: String?) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("case.layout")
        try Data(Self.system.utf8).write(to: file)
        if let expected { try Data(expected.utf8).write(to: folder.appendingPathComponent("case.expected.json")) }
        return file.path
    }

    func expectation(frames: String) -> String {
        #"{"status": "optimal", "frames": \#(frames), "objective": [], "ambiguous": ["a.x", "a.y"], "broken": [], "conflict": []}"#
    }

    func refusal(_ file: String) -> String? {
        do {
            _ = try CorpusReplay(backends: [ExactSimplexBackend()]).replay(file: file)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aCompleteExpectationPasses() throws {
        let file = try writeCase(expected: expectation(frames: #"{"a": [null, null, 10, 20]}"#))
        let outcomes = try CorpusReplay(backends: [ExactSimplexBackend()]).replay(file: file)
        #expect(outcomes.map(\.verdict) == [.passed])
    }

    @Test func aCaseWithoutExpectedResultIsRefused() throws {
        let file = try writeCase(expected: nil)
        let message = try #require(refusal(file))
        #expect(message.contains(file) && message.contains("case.expected.json is missing"))
    }

    @Test(arguments: [
        (#"[]"#, "not an expected result"),
        (#"{}"#, "\"frames\" is empty"),
        (#"{"a": []}"#, "has 0 components"),
        (#"{"a": [null, null, 10]}"#, "has 3 components"),
        (#"{"a": [null, null, 10, 20], "ghost": [1, 2, 3, 4]}"#, "ghost, which is not a view"),
    ])
    func anExpectationThatChecksNothingIsRefused(frames: String, reason: String) throws {
        let file = try writeCase(expected: expectation(frames: frames))
        let message = try #require(refusal(file))
        #expect(message.contains("case.expected.json") && message.contains(reason), "\(message)")
    }
}
