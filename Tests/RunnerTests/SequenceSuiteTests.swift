import BackendContract
import ExactSimplex
import FloatSimplex
import GaussianBackend
import Generator
import LayoutModel
import Reporting
import Testing
@testable import Runner

/// `bench --suite sequences`: one row per (sequence family, size, backend), one sample per
/// update pass.
@Suite struct SequenceSuiteTests {
    /// Two families, 5 steps, a budget and a row time limit no pass comes near.
    static let tiny = SequenceSuite(
        name: "sequences-test", families: ["keyboard", "conflict-then-remove"], sizes: [10], steps: 5,
        budget: Budget(wallTime: .seconds(60)), rowTimeLimit: .seconds(3600))

    /// What the row's status must be: the statuses of the update passes as the exact backend
    /// answers each of them from scratch, or `mixed`.
    static func expectedStatus(_ sequence: UpdateSequence) -> String {
        let statuses = Set(ExactSimplexBackend().solvePassesFromScratch(sequence, budget: .unlimited).passes.dropFirst()
            .compactMap { $0.answer?.solution.status.rawValue })
        return statuses.count == 1 ? statuses.first! : "mixed"
    }

    @Test func floatAndExactGiveOneSamplePerUpdatePass() throws {
        let sequences = try Self.tiny.sequences()
        #expect(sequences.map(\.family) == ["keyboard", "conflict-then-remove"])
        let report = try Self.tiny.run(backends: [CassowaryBackend(), ExactSimplexBackend()], jobs: 2, machine: MachineFacts.current(toolVersion: "test"))
        #expect(report.suite == "sequences-test")
        #expect(report.results.count == 4)
        for (sequence, rows) in zip(sequences, [report.results.prefix(2), report.results.suffix(2)]) {
            #expect(rows.map(\.backend) == ["float", "exact"])
            let updates = sequence.sequence.updates.count
            #expect(updates >= 5)
            for row in rows {
                #expect(row.family == sequence.family && row.size == 10 && row.views == sequence.sequence.initial.viewCount)
                #expect(row.status == Self.expectedStatus(sequence.sequence), "\(row.family) \(row.backend): \(row.note ?? "")")
                #expect(row.passes == updates)
                #expect(row.timing?.samples == updates)
                #expect(row.initialSolve != nil)
                #expect(row.overhead == nil, "only outside solvers have an overhead")
            }
        }
        // A sequence whose passes end differently says how many of each.
        for row in report.results where row.status == "mixed" {
            #expect(row.note?.contains("optimal") == true && row.note?.contains("unsatisfiable") == true, "\(row.note ?? "")")
        }
    }

    @Test func aBackendThatRejectsTheBaseLayoutGivesAnUnsupportedRowWithItsReason() throws {
        let report = try Self.tiny.run(backends: [GaussianEliminationBackend()], jobs: 1, machine: MachineFacts.current(toolVersion: "test"))
        #expect(report.results.count == 2)
        for row in report.results {
            #expect(row.status == "unsupported")
            #expect(row.timing == nil && row.passes == nil)
            let initial = try #require(Self.tiny.sequences().first { $0.family == row.family }).sequence.initial
            guard case .unsupported(let reason) = GaussianEliminationBackend().supports(initial) else {
                Issue.record("gaussian supports the form layout after all")
                continue
            }
            #expect(row.note == reason)
        }
    }

    @Test func aRowOverItsTimeLimitAnswersOnlyTheFirstPassesAndSaysSo() throws {
        var suite = Self.tiny
        suite.families = ["keyboard"]
        suite.rowTimeLimit = .zero
        let report = try suite.run(backends: [CassowaryBackend()], jobs: 1, machine: MachineFacts.current(toolVersion: "test"))
        let row = try #require(report.results.first)
        let updates = try suite.sequences()[0].sequence.updates.count
        #expect(row.passes == suite.probePasses)
        #expect(row.note?.contains("first \(suite.probePasses) of \(updates) update passes") == true, "\(row.note ?? "")")
    }

    @Test func largeSizesAreOnlyForTheNamedBackends() throws {
        var suite = Self.tiny
        suite.families = ["keyboard"]
        suite.sizes = [3]
        suite.largeSizes = [10]
        suite.largeSizeBackends = ["float"]
        let report = try suite.run(backends: [CassowaryBackend(), ExactSimplexBackend()], jobs: 2, machine: MachineFacts.current(toolVersion: "test"))
        #expect(report.results.map { "\($0.size) \($0.backend)" } == ["3 float", "3 exact", "10 float"])
    }

    @Test func anUnknownSequenceFamilyIsAnError() {
        var suite = Self.tiny
        suite.families = ["drag", "no-such-family"]
        #expect(throws: CampaignError.self) { try suite.sequences() }
    }
}
