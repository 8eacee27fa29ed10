import BackendContract
import ExactSimplex
import Foundation
@testable import Fuzzing
import Generator
import LayoutModel
@testable import OutsideSolvers
import Testing

/// `.layout` update sequences (spec §7) through the outside solvers' update steps: every pass
/// is judged, by the adapter's own semantics, against the exact backend's fresh solve of the
/// pass's system.
@Suite struct SequenceThroughStepsTests {
    /// Non-semantics findings of every pass of `sequence` on `name`, labelled by pass.
    func findings(_ name: String, _ sequence: UpdateSequence) -> [(pass: Int, finding: Finding)] {
        let backend = Solvers.backend(name)
        let passes = backend.solve(sequence, budget: Budget(wallTime: .seconds(10))).passes
        let judge = campaign([backend], families: ["random"], oracles: [])
        var found: [(Int, Finding)] = []
        sequence.forEachPass { pass, system in
            let outcomes = [
                BackendOutcome(backend: name, result: passes[pass].result.mapError { BackendFailure("\($0)") }),
                BackendOutcome(backend: "exact", result: Result { try ExactSimplexBackend().solve(system, budget: .unlimited) }
                    .mapError { BackendFailure("\($0)") }),
            ]
            for finding in judge.judgeOutcomes(system, outcomes) where finding.verdict != .semantics { found.append((pass, finding)) }
        }
        return found
    }

    /// The realistic families and the adversarial ones on a small form: a correct solver's
    /// steps give nothing but semantics notes.
    func generatedSequencesAreClean(_ name: String) throws {
        let form = try #require(Families.named("form"))
        for family in SequenceFamilies.all where family.kind != .random {
            for seed in UInt64(0)..<2 {
                let generated = try #require(generateSequence(family: family, base: form, size: 3, steps: 6, seed: seed))
                let found = findings(name, generated.sequence)
                #expect(found.isEmpty, "\(name) on \(generated.description): \(found.map { "pass \($0.pass + 1): \($0.finding.detail)" })")
            }
        }
    }

    @Test(.enabled(if: Solvers.installed("z3"), "z3-solver is not installed (scripts/install-outside-solvers.sh)"))
    func z3() throws { try generatedSequencesAreClean("z3") }

    @Test(.enabled(if: Solvers.installed("cassowary"), "cassowary is not installed (scripts/install-outside-solvers.sh)"))
    func cassowary() throws { try generatedSequencesAreClean("cassowary") }

    /// kiwisolver's rollback bug reached through a sequence: the first pass is right; adding a
    /// conflicting required constraint in the second makes kiwi reject it (rightly) and then
    /// return values that violate a constraint it accepted before.
    @Test(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
    func kiwiRollbackBugThroughASequence() throws {
        let sequence = try LayoutParser.parseSequence("""
            root superview 0 0 375 667
            view a
            view b
            a.width == -1.79603123 * b.width - 5.853285621
            b.width <= -7.610482872
            layout
            a.width == 2.995209007
            """)
        let found = findings("kiwisolver", sequence)
        #expect(!found.contains { $0.pass == 0 }, "\(found.map(\.finding.detail))")
        #expect(found.contains { $0.pass == 1 && $0.finding.kind == .infeasiblePoint && $0.finding.detail.contains("c2") },
                "\(found.map(\.finding.detail))")
    }
}
