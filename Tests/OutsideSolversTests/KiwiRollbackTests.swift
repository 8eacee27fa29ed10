import BackendContract
import ExactArithmetic
import Foundation
@testable import Fuzzing
import LayoutModel
@testable import OutsideSolvers
import Testing

/// kiwisolver 1.5.1, after rejecting an unsatisfiable required constraint, returns values
/// that violate constraints it accepted before (issue 15's three-constraint case).
@Suite(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
struct KiwiRollbackTests {
    /// The issue's rows, `0.9222*x7 + 1.6563*x8 + 5.3979 == 0`, `-1.2115*x8 - 9.2201 >= 0`,
    /// `1.6698*x7 - 5.0014 == 0`, sent as update steps to a live kiwi solver.
    @Test func theIssueRowsThroughUpdateSteps() throws {
        func row(_ terms: [(Int, String)], _ constant: String, _ relation: Relation) throws -> LinearRow<Rational> {
            LinearRow(terms: try terms.map { LinearTerm(variable: $0.0, coefficient: try #require(ExactText.parse($0.1))) },
                      constant: try #require(ExactText.parse(constant)), relation: relation, level: 0, constraintIndex: 0)
        }
        let rows = [
            try row([(7, "0.9222"), (8, "1.6563")], "5.3979", .equal),
            try row([(8, "-1.2115")], "-9.2201", .greaterThanOrEqual),
            try row([(7, "1.6698")], "-5.0014", .equal),
        ]
        let live = try Solvers.backend("kiwisolver").openLiveSystem(variables: 9)
        for r in rows { try live.add([(r, .required)]) }
        let result = try live.values()
        #expect(result.solution.broken == [2], "kiwi rightly rejects the third row")
        let point = result.solution.values.map { Rational(exactly: $0)! }
        let second = rows[1].value(at: point)
        // The accepted second row no longer holds: the rollback bug.
        #expect(second.sign < 0, "row 2 at the returned point: \(second.doubleValue) (kiwi's x8 = \(result.solution.values[8]))")
    }

    /// The same three constraints as a layout (each row divided by its first coefficient, so
    /// that it reads as `a.width == m × b.width + c`): the judge finds the violated accepted
    /// constraint, the reducer keeps at most 5 constraints, and the reproducer shows the bug
    /// with kiwisolver alone.
    @Test func theCampaignFindsReducesAndWritesAReproducer() throws {
        let system = try parse("""
            root superview 0 0 375 667
            view a
            view b
            a.width == -1.79603123 * b.width - 5.853285621
            b.width <= -7.610482872
            a.width == 2.995209007
            """)
        let kiwi = Solvers.backend("kiwisolver")
        let fuzz = campaign([kiwi], families: ["random"], oracles: [], reducer: Reducer())
        let found = fuzz.judge(system, oracle: nil, seed: 0).map(\.finding)
        let bug = try #require(found.first { $0.kind == .infeasiblePoint && $0.backends.first == "kiwisolver" }, "\(found)")
        #expect(bug.detail.contains("c2"), "the second constraint is the violated one: \(bug.detail)")
        let spec = FuzzCampaign.CaseSpec(index: 0, family: "hand-written", size: 2, seed: 0, oracle: nil)
        let report = fuzz.report(bug, transform: nil, system: system, spec: spec)
        #expect(report.reducedConstraints <= 5)
        let script = try #require(report.reproducers?.first { $0.suffix == "repro.py" })
        #expect(script.contents.contains("import kiwisolver"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiwi-\(UUID().uuidString).repro.py")
        try Data(script.contents.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try run(["python3", file.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("BUG: accepted required row"), "\(output)")
    }

    /// Without being told where: a campaign over the random family finds a violated accepted
    /// required constraint in kiwisolver.
    @Test func aRandomCampaignFindsTheRollbackBug() {
        let run = campaign([Solvers.backend("kiwisolver")], families: ["random"], sizes: 1...10, oracles: [])
        let found = findings(run, cases: 0..<150).filter { $0.2.kind == .infeasiblePoint && $0.2.backends.first == "kiwisolver" }
        #expect(!found.isEmpty)
    }

    /// kiwi weighs priorities: 251 × 100 < 250 × 200, so it leaves the @251 constraint 100 off
    /// where the format keeps it. That is its declared semantics: a note, not a bug.
    @Test func weightedTradesAreSemanticsNotes() throws {
        let system = try parse("""
            root superview 0 0 400 300
            view a
            a.width == 100 @251
            a.width == 0 @250
            a.width <= 0 @250
            """)
        let found = campaign([Solvers.backend("kiwisolver")], families: ["random"], oracles: [])
            .judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(found.contains { $0.kind == .suboptimal && $0.verdict == .semantics }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .semantics }, "\(found)")
    }
}
