import Foundation
import History
import Testing

/// Finding signatures across recorded fuzz runs: new, open, fixed, back.
@Suite struct FindingStateTests {
    /// Records one nightly fuzz run per entry of `nights` (the signatures it saw), and
    /// returns the history's timeline.
    func timeline(_ nights: [[String]], interrupted: Set<Int> = [], fixedAfter: Int = 3) throws -> (FindingTimeline, [Int64]) {
        let folder = try HistoryFixtures.folder()
        let history = try HistoryDatabase.open(folder.appendingPathComponent("history.sqlite").path, mode: .createIfMissing)
        var ids: [Int64] = []
        for (night, signatures) in nights.enumerated() {
            let data = try HistoryFixtures.fuzz(seed: UInt64(night + 1), signatures: signatures, interrupted: interrupted.contains(night))
            let outcome = try HistoryFixtures.record(
                data, named: "night-\(night).json", in: folder, into: history,
                startedAt: Timestamp.date(HistoryFixtures.nightTime(night + 1)))
            ids.append(outcome.run.id)
        }
        return (FindingTimeline(observations: try history.fuzzObservations(), fixedAfter: fixedAfter), ids)
    }

    @Test func findingGoesNewOpenFixedBack() throws {
        let bug = "status-mismatch/float"
        let (timeline, ids) = try timeline([[bug], [bug], [], [], [], [bug], [bug]])
        let states = ids.map { timeline.states(atRun: $0)?.states[bug] }
        #expect(states == [.new, .open, nil, nil, .fixed, .back, .open])
        let history = try #require(timeline.signatures.first)
        #expect(history.signature == bug)
        #expect(history.state == .open)
        #expect(history.runsSeen == 4)
        #expect(history.changes.map(\.state) == [.new, .open, .fixed, .back, .open])
        #expect(history.firstSeen == HistoryFixtures.nightTime(1))
        #expect(history.lastSeen == HistoryFixtures.nightTime(7))
        #expect(history.replayCommand?.hasPrefix("layoutbench replay ") == true)
        #expect(history.replayCommand?.hasSuffix("/findings/0.layout") == true)
    }

    @Test func runsThatDidNotLookDoNotFixAnything() throws {
        let bug = "suboptimal/float"
        // Three runs without it, but one was interrupted: it is still open after them.
        let (timeline, ids) = try timeline([[bug], [], [], []], interrupted: [2])
        #expect(timeline.signatures.first?.state == .open)
        #expect(timeline.signatures.first?.missedSince == 2)
        #expect(ids.compactMap { timeline.states(atRun: $0)?.states[bug] } == [.new])
    }

    @Test func otherSignaturesKeepTheirOwnStates() throws {
        let a = "crash/float", b = "budget/float@ill-conditioned"
        let (timeline, _) = try timeline([[a], [a, b], [b], [b], [b], [b]])
        let byName = Dictionary(uniqueKeysWithValues: timeline.signatures.map { ($0.signature, $0) })
        #expect(byName[a]?.state == .fixed)
        #expect(byName[b]?.state == .open)
        #expect(byName[a]?.isWrong == true)
        #expect(byName[b]?.isWrong == false)
        #expect(timeline.signatures(in: [.fixed]).map(\.signature) == [a])
        #expect(timeline.signatures(in: [.open], since: HistoryFixtures.nightTime(6)).map(\.signature) == [b])
    }

    @Test func fixedAfterIsConfigurable() throws {
        let bug = "crash/float"
        let nights: [[String]] = [[bug], [], []]
        #expect(try timeline(nights).0.signatures.first?.state == .open)
        #expect(try timeline(nights, fixedAfter: 2).0.signatures.first?.state == .fixed)
    }
}
