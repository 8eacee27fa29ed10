import BackendContract
import Generator
import LayoutModel
import OutsideSolvers
import Reporting
import Runner
import Testing

/// `bench --suite sequences` with outside solvers: each update pass, followed through the
/// adapter's steps, is one sample of the solver's own time, its overhead one of `overhead`.
@Suite struct SequenceBenchTests {
    static let suite = SequenceSuite(
        name: "sequences-test", families: ["drag", "rows-insert-delete"], sizes: [10], steps: 5,
        budget: Budget(wallTime: .seconds(30)), rowTimeLimit: .seconds(3600))

    func perPassSamples(_ name: String) throws {
        let backend = Solvers.backend(name)
        defer { backend.shutdown() }
        let sequences = try Self.suite.sequences()
        let report = try Self.suite.run(backends: [backend], jobs: 1, machine: MachineFacts.current(toolVersion: "test"))
        #expect(report.results.count == sequences.count)
        for (row, sequence) in zip(report.results, sequences) {
            let updates = sequence.sequence.updates.count
            #expect(row.family == sequence.family && row.backend == name)
            #expect(row.status == "optimal", "\(row.family): \(row.note ?? "")")
            #expect(row.passes == updates)
            #expect(row.timing?.samples == updates, "one sample of the solver's own time per update pass")
            #expect(row.overhead?.samples == updates, "and one of the rest of the pass")
            #expect(row.initialSolve != nil)
        }
    }

    @Test(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
    func kiwisolverGivesPerPassSolverTimes() throws { try perPassSamples("kiwisolver") }

    @Test(.enabled(if: Solvers.installed("cassowary"), "cassowary is not installed (scripts/install-outside-solvers.sh)"))
    func cassowaryGivesPerPassSolverTimes() throws { try perPassSamples("cassowary") }

    /// Every pass followed through steps has the solver's own time (its steps' replies and
    /// its values reply), a part of the pass's whole duration.
    @Test(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
    func aPassSolverTimeIsNeverMoreThanItsDuration() throws {
        let backend = Solvers.backend("kiwisolver")
        defer { backend.shutdown() }
        let sequence = try #require(Self.suite.sequences().first).sequence
        let passes = backend.solve(sequence, budget: Self.suite.budget).passes
        #expect(passes.count == sequence.passCount)
        for pass in passes {
            let statistics = try #require(pass.answer?.statistics)
            let solverTime = try #require(statistics.solverTime, "pass \(pass.pass) has no solver time")
            #expect(solverTime <= statistics.duration)
        }
    }
}
