import Foundation
import Testing

/// `guided seeds` and `guided findings` through the built executable: a layout becomes a seed,
/// an input the backends answer rightly gives an empty report, and with a planted fault the
/// same input becomes a stored, reduced finding.
@Suite struct GuidedCommandTests {
    static let nearPriorities = """
        root root 0 0 375 667
        view a
        a.left == root.left
        a.top == root.top
        a.height == 20
        a.width == 100 @999.9999
        a.width == 200 @999
        """

    @Test func aLayoutBecomesASeedAndASeedAFinding() throws {
        let layout = try SequenceCommandTests.file("near.layout", Self.nearPriorities)
        let folder = URL(fileURLWithPath: layout).deletingLastPathComponent()
        let seeds = folder.appendingPathComponent("seeds").path
        let made = try SequenceCommandTests.run(["guided", "seeds", "--out", seeds, layout])
        #expect(made.status == 0, "\(made.error)")
        let names = try FileManager.default.contentsOfDirectory(atPath: seeds)
        let seed = try #require(names.first { $0.hasSuffix("near") }, "\(names.prefix(5))")
        #expect(names.count > 1, "the families' seeds are written too")

        let clean = folder.appendingPathComponent("clean").path
        let judged = try SequenceCommandTests.run(["guided", "findings", seeds + "/" + seed, "--out", clean])
        #expect(judged.status == 0, "\(judged.output)\(judged.error)")
        let report = try String(contentsOfFile: clean + "/report.json", encoding: .utf8)
        #expect(report.contains("\"findings\" : [\n\n  ]") || report.contains("\"findings\" : []"), "\(report)")

        let faulty = folder.appendingPathComponent("faulty").path
        let found = try SequenceCommandTests.run(
            ["guided", "findings", seeds + "/" + seed, "--out", faulty, "--planted-fault", "float-merges-near-priorities"])
        if found.status == 2 && found.error.contains("no planted faults") { return }  // a release build
        #expect(found.status == 1, "\(found.output)\(found.error)")
        let stored = try FileManager.default.contentsOfDirectory(atPath: faulty + "/findings").filter { $0.hasSuffix(".layout") }
        #expect(!stored.isEmpty)
        for name in stored {
            let text = try String(contentsOfFile: faulty + "/findings/" + name, encoding: .utf8)
            #expect(text.contains("# expect-fail: float") && text.contains("family guided"), "\(text)")
        }
    }

    @Test func anUnreadableArtefactIsInvalidInput() throws {
        let run = try SequenceCommandTests.run(["guided", "findings", "/nonexistent/crash-0", "--out", NSTemporaryDirectory() + "guided-\(UUID().uuidString)"])
        #expect(run.status == 2)
        #expect(run.error.contains("/nonexistent/crash-0:1:1:"))
    }
}
