import BackendContract
import Foundation
import ExactSimplex
import LayoutModel
import Testing
@testable import Fuzzing

/// A backend that says `supports` yes and declines only when it solves (as an outside solver
/// does when its adapter finds a priority it has no strength for) gave no answer and made no
/// mistake: no finding, and `replay` calls it unsupported.
@Suite struct LateUnsupportedTests {
    static let lateDecliner = ThrowingBackend(
        name: "late-decliner", error: .unsupported(backend: "late-decliner", reason: "priority 257.1 has no whole strength"))

    static let text = "root s 0 0 100 100\nview a\na.width == 40 @257.1\na.width == 60 @250\n"

    @Test func aLateUnsupportedIsNoFinding() throws {
        let system = try LayoutParser.parse(Self.text, file: "late.layout")
        let reference = ExactSimplexBackend()
        let outcomes = [
            BackendOutcome(backend: reference.name, result: .success(try reference.solve(system, budget: Budget()))),
            BackendOutcome(backend: "late-decliner", result: Result { try Self.lateDecliner.solve(system, budget: Budget()) }.mapError { BackendFailure($0) }),
        ]
        guard case .failure(let failure) = outcomes[1].result else { Issue.record("it should have declined"); return }
        #expect(failure.isUnsupported)
        #expect(Comparator(reference: reference).compare(system, outcomes: outcomes).isEmpty)
    }

    @Test func aCrashIsStillAFinding() throws {
        let system = try LayoutParser.parse(Self.text, file: "late.layout")
        let reference = ExactSimplexBackend()
        let outcomes = [
            BackendOutcome(backend: reference.name, result: .success(try reference.solve(system, budget: Budget()))),
            BackendOutcome(backend: "crasher", result: .failure(BackendFailure(BackendError.internalFailure(backend: "crasher", message: "the adapter died")))),
        ]
        #expect(Comparator(reference: reference).compare(system, outcomes: outcomes).map(\.kind) == [.crash])
    }
}

extension LateUnsupportedTests {
    @Test func replayCallsALateDeclineUnsupported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lb-late-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("late.layout")
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        let system = try LayoutParser.parse(Self.text, file: "late.layout")
        let solution = try ExactSimplexBackend().solve(system, budget: Budget()).solution
        try JSONEncoder().encode(ExpectedResult(solution: solution, of: system))
            .write(to: folder.appendingPathComponent("late.expected.json"))
        let outcomes = try CorpusReplay(backends: [ExactSimplexBackend(), Self.lateDecliner]).replay(file: file.path)
        #expect(outcomes.first { $0.backend == "exact" }?.verdict == .passed)
        guard case .unsupported(let reason)? = outcomes.first(where: { $0.backend == "late-decliner" })?.verdict else {
            Issue.record("\(outcomes.map(\.verdict))")
            return
        }
        #expect(reason.contains("257.1"))
    }
}
