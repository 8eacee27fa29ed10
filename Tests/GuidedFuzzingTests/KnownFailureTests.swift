import BackendContract
import Foundation
import Fuzzing
import LayoutModel
import Testing
@testable import GuidedFuzzing

/// Findings the corpus records as expected failures are known, not fatal: the harness passes
/// over them (the input itself is the corpus entry) and the artefact conversion reports them
/// apart (the reduced repro is the entry); a new wrong finding is still fatal.
@Suite struct KnownFailureTests {
    /// Float's answer to this is right; with `float-merges-near-priorities` planted it is
    /// wrong (999.9999 and 999 share a level).
    static let nearPriorities = GuidedJudgeTests.nearPriorities
    /// Another input the same fault breaks (999.5 and 999 share a level too), whose reduced
    /// repro is another system.
    static let otherNearPriorities = nearPriorities.replacingOccurrences(of: "@999.9999", with: "@999.5")
        .replacingOccurrences(of: "== 200", with: "== 180")

    static func input(_ text: String) throws -> [UInt8] { GuidedCase(sequence: try LayoutParser.parseSequence(text)).bytes }

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-known-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Only marked files are known failures; a marked file that does not parse is an error.
    @Test func onlyMarkedFilesCount() throws {
        let folder = try Self.folder()
        try ("# expect-fail: float\n" + Self.nearPriorities).write(to: folder.appendingPathComponent("a.layout"), atomically: true, encoding: .utf8)
        try ("# expect-ill-conditioned: gaussian\n" + Self.otherNearPriorities).write(to: folder.appendingPathComponent("b.layout"), atomically: true, encoding: .utf8)
        try Self.nearPriorities.write(to: folder.appendingPathComponent("c.layout"), atomically: true, encoding: .utf8)
        // Known to fail on the incremental path only: still a known failure to the fuzzer.
        try ("# expect-fail-incremental: float\n" + Self.otherNearPriorities).write(to: folder.appendingPathComponent("e.layout"), atomically: true, encoding: .utf8)
        let known = try KnownFailures(paths: [folder.path, folder.appendingPathComponent("missing").path])
        #expect(known.entries.map(\.fingerprint).sorted() == ["a", "b", "e"])
        #expect(known.entries.first { $0.fingerprint == "b" }?.backends == ["gaussian"])
        #expect(known.entries.first { $0.fingerprint == "e" }?.backends == ["float"])
        try "# expect-fail: float\nroot r 1 1\nview\n".write(to: folder.appendingPathComponent("d.layout"), atomically: true, encoding: .utf8)
        #expect(throws: LayoutError.self) { try KnownFailures(paths: [folder.path]) }
    }

    #if LAYOUTBENCH_FAULTS
    /// A seed corpus holding an expected failure, and a fault planted: the harness passes over
    /// the corpus entry (an input that is the entry, under any item names) but stops at the
    /// fault's other input; the conversion calls the entry's reduced finding known and the
    /// other one new.
    @Test func theKnownOnePassesAndTheNewOneFails() throws {
        let fault = PlantedFault.floatMergesNearPriorities
        let judge = GuidedJudge()
        let recorded = try Self.input(Self.nearPriorities)
        let renamed = try Self.input(Self.nearPriorities.replacingOccurrences(of: "view a", with: "view label")
            .replacingOccurrences(of: "a.", with: "label."))
        let other = try Self.input(Self.otherNearPriorities)

        // The corpus: the recorded input's reduced finding, stored as `fuzz` stores it
        // (`# expect-fail: float`, named by its fingerprint) — what `Corpora/regressions` holds.
        let corpus = try Self.folder()
        let first = withFault(fault) { ArtefactConversion().reports(of: recorded, index: 0) }
        #expect(first.known.isEmpty)
        let report = try #require(first.new.first, "the fault shows on the recorded input")
        try FindingStore.addToCorpus(report, directory: corpus, date: "2026-11-25")
        // And the whole input as a seed with its expectation, as a hand-recorded entry.
        try ("# expect-fail: float\n" + Self.nearPriorities).write(to: corpus.appendingPathComponent("seed.layout"), atomically: true, encoding: .utf8)
        let known = try KnownFailures(paths: [corpus.path])
        #expect(known.entries.count == 2)

        // The harness: fatal without the corpus, passed over with it; the new input stays fatal.
        #expect(withFault(fault) { judge.firstFatal(GuidedCase(bytes: recorded), seed: 1) } != nil)
        #expect(withFault(fault) { judge.firstFatal(GuidedCase(bytes: recorded), seed: 1, known: known) } == nil)
        #expect(withFault(fault) { judge.firstFatal(GuidedCase(bytes: renamed), seed: 1, known: known) } == nil)
        let fatal = try #require(withFault(fault) { judge.firstFatal(GuidedCase(bytes: other), seed: 2, known: known) })
        #expect(fatal.occurrence.finding.backends.first == "float")
        // Without the fault nothing is fatal: the new finding is the fault's.
        #expect(judge.firstFatal(GuidedCase(bytes: other), seed: 2, known: known) == nil)

        // The conversion: known apart, new as new.
        let conversion = ArtefactConversion(known: known)
        let again = withFault(fault) { conversion.reports(of: recorded, index: 0) }
        #expect(again.new.isEmpty && !again.known.isEmpty)
        let fresh = withFault(fault) { conversion.reports(of: other, index: 1) }
        #expect(!fresh.new.isEmpty && fresh.known.isEmpty, "\(fresh.new.map(\.repro))")

        // A known failure of another backend does not excuse float.
        var gaussianOnly = KnownFailures()
        for var entry in known.entries {
            entry.backends = ["gaussian"]
            gaussianOnly.add(entry)
        }
        #expect(withFault(fault) { judge.firstFatal(GuidedCase(bytes: recorded), seed: 1, known: gaussianOnly) } != nil)
    }
    #endif

    /// The regression corpus's own expected failures that still fail are passed over, each on
    /// its own input (those since fixed are fatal-free anyway).
    @Test func theCorpusExpectedFailuresAreKnown() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let known = try KnownFailures(paths: [root.appendingPathComponent("Corpora").path])
        #expect(known.entries.count >= 10)
        let judge = GuidedJudge()
        var stillFailing = 0
        for entry in known.entries {
            let text = try String(contentsOfFile: entry.file, encoding: .utf8)
            let bytes = try Self.input(text)
            let guided = GuidedCase(bytes: bytes)
            if judge.firstFatal(guided, seed: 1) != nil { stillFailing += 1 }
            let fatal = judge.firstFatal(guided, seed: 1, known: known)
            #expect(fatal == nil, "\(entry.file): \(fatal.map { "\($0.occurrence.finding.signature): \($0.occurrence.finding.detail)" } ?? "")")
        }
        print("known failures: \(known.entries.count) corpus entries, \(stillFailing) still fail")
    }
}
