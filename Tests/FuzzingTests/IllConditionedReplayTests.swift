import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import LayoutModel
import Testing
@testable import Fuzzing

/// `# expect-ill-conditioned: BACKEND` in a corpus file: the backend passes when the judge
/// explains every difference from the expected result by rounding, and fails when it calls
/// one wrong or the backend does not answer.
@Suite struct IllConditionedReplayTests {
    static let source = repositoryRoot + "/Corpora/regressions/crash-float-375bc64e7f234f2b"

    /// The near-conflict case (float answers `optimal` where exact breaks c5) with `header`
    /// in place of its own marker, replayed as `layoutbench replay` does (no comparator given).
    func replay(header: String) throws -> [String: CorpusReplay.Outcome.Verdict] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ill-conditioned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try String(contentsOfFile: Self.source + ".layout", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("# expect-") ? header : String($0) }
            .joined(separator: "\n")
        let layout = folder.appendingPathComponent("case.layout")
        try text.write(to: layout, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Self.source + ".expected.json"), to: folder.appendingPathComponent("case.expected.json"))
        let backends: [any LayoutBackend] = [
            ExactSimplexBackend(), CassowaryBackend(), FaultyBackend(base: CassowaryBackend(), fault: .looseEpsilon),
            ThrowingBackend(name: "failing", error: .internalFailure(backend: "failing", message: "unsatisfiable required constraint")),
        ]
        let outcomes = try CorpusReplay(backends: backends).replay(file: layout.path)
        return Dictionary(uniqueKeysWithValues: outcomes.map { ($0.backend, $0.verdict) })
    }

    @Test func anIllConditionedAnswerPassesOnlyWhereTheFileAllowsIt() throws {
        let marked = try replay(header: "# expect-ill-conditioned: float, faulty-loose-epsilon, failing")
        #expect(marked["exact"] == .passed)
        #expect(marked["float"] == .passed)
        // Values 1e-3 off are not rounding; no answer is no answer.
        guard case .failed(let wrong) = marked["faulty-loose-epsilon"] else {
            Issue.record("faulty-loose-epsilon: \(String(describing: marked["faulty-loose-epsilon"]))")
            return
        }
        #expect(wrong.contains { !$0.contains("ill-conditioned") })
        guard case .failed = marked["failing"] else {
            Issue.record("failing: \(String(describing: marked["failing"]))")
            return
        }
        // Without the marker, float's status differs from the expectation: a failure.
        let unmarked = try replay(header: "# (no marker)")
        guard case .failed(let problems) = unmarked["float"] else {
            Issue.record("float: \(String(describing: unmarked["float"]))")
            return
        }
        #expect(problems.contains { $0.contains("status optimal, expected unsatisfiable") })
    }
}
