import BackendContract
import ExactArithmetic
import ExactSimplex
import Foundation
@testable import Fuzzing
import Generator
import LayoutModel
@testable import OutsideSolvers
import Testing

/// A correct weighted solver: the required walk as the format has it, then the exact optimum
/// of Σ priority × E(p). It declares what it is, and a campaign on it must stay clean but
/// for `semantics` notes.
struct ExactWeightedBackend: LayoutBackend {
    var name: String { "exact-weighted" }
    var summary: String { "test only: the exact optimum of the weighted objective (weight = priority)" }
    var capabilities: BackendCapabilities {
        BackendCapabilities(
            priorities: .weighted(.linear(scale: .one)),
            reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: true))
    }

    func supports(_ system: ConstraintSystem) -> Support { .supported }

    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        let exact = ExactSimplexBackend()
        let walk = try exact.solve(system, budget: budget)
        guard walk.solution.status != .budgetExceeded else { return walk }
        let weights = system.optionalLevels.map { Rational(literal: $0.value).description }
        let optimum = try exact.weightedOptimum(system, broken: walk.solution.broken, weights: weights, budget: budget)
        let values = optimum.values.compactMap(Rational.init)
        return BackendResult(
            solution: Solution(
                status: walk.solution.status, values: values.map(\.doubleValue), broken: walk.solution.broken,
                exactValues: optimum.values),
            statistics: walk.statistics)
    }
}

@Suite struct SemanticsJudgeTests {
    @Test func aCorrectWeightedSolverStaysClean() {
        let families = Families.all.map(\.name).filter { $0 != "long-chain" }
        let run = campaign([ExactWeightedBackend()], families: families, sizes: 1...6, seed: 99)
        var notes = 0
        for (index, _, finding) in findings(run, cases: 0..<150) {
            if finding.verdict == .semantics { notes += 1; continue }
            Issue.record("case \(index) (\(finding.family ?? "?")): \(finding.kind.rawValue) \(finding.oracle ?? ""): \(finding.detail)")
        }
        #expect(notes > 0, "some cases trade priorities under weights")
    }

    /// 251 against 250: weighted, one unit at 251 outweighs one at 250, but two at 250 outweigh
    /// one at 251 — kiwi and the format disagree, and that is a note, not a bug.
    @Test func tradingNeighbouringPrioritiesIsASemanticsNote() throws {
        // Lexicographically width 100 (error 200 at @250); weighted, 251 × 100 < 250 × 200: width 0.
        let system = try parse("""
            root superview 0 0 400 300
            view a
            a.width == 100 @251
            a.width == 0 @250
            a.width <= 0 @250
            """)
        let run = campaign([ExactWeightedBackend()], families: ["random"], oracles: [])
        let found = run.judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(found.allSatisfy { $0.verdict == .semantics }, "\(found)")
        #expect(found.contains { $0.kind == .suboptimal && $0.verdict == .semantics }, "\(found)")
    }

    /// A weighted answer worse than its own optimum is wrong, whatever the model.
    @Test func worseThanItsOwnOptimumIsWrong() throws {
        struct Lazy: LayoutBackend {
            var name: String { "lazy-weighted" }
            var summary: String { "test only" }
            var capabilities: BackendCapabilities { ExactWeightedBackend().capabilities }
            func supports(_ system: ConstraintSystem) -> Support { .supported }
            func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
                var result = try ExactWeightedBackend().solve(system, budget: budget)
                result.solution.exactValues = nil
                result.solution.values[Unknown(item: 1, component: .w).variable] += 7
                return result
            }
        }
        let system = try parse("root superview 0 0 400 300\nview a\na.width == 100 @500\na.width >= 0\n")
        let found = campaign([Lazy()], families: ["random"], oracles: []).judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(found.contains { $0.kind == .suboptimal && $0.verdict == .wrong }, "\(found)")
    }

    /// The constraint-level request carries the items and the constraints as written.
    @Test func constraintLevelRequests() throws {
        let system = try parse("""
            root superview 0 0 375 667
            view red intrinsic 120 21
            H:|-20-[red]
            red.centerY == 0.5 * superview.centerY @750
            """)
        let data = try AdapterRequest.encode(AdapterRequest.solveConstraints(system))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["form"] as? String == "constraints")
        let items = try #require(object["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items[0]["frame"] as? [String] == ["0", "0", "375", "667"])
        #expect(items[1]["intrinsic"] as? [String] == ["120", "21"])
        let constraints = try #require(object["constraints"] as? [[String: Any]])
        #expect(constraints.count == system.constraints.count)
        let last = try #require(constraints.last)
        #expect(last["multiplier"] as? String == "0.5")
        #expect(last["priority"] as? String == "750")
        #expect((last["first"] as? [String: Any])?["attribute"] as? String == "centerY")
        #expect(constraints.contains { $0["origin"] as? String == "intrinsic" })
        #expect(constraints.contains { $0["origin"] as? String == "vfl" })
    }
}

/// The LP-file reproducers run the solver alone and agree where the solver is right.
@Suite(.enabled(if: Solvers.installed("qsopt-ex"), "esolver (qsopt-ex) is not installed (scripts/install-outside-solvers.sh)"))
struct LPReproducerTests {
    @Test func esolverReproducerAgreesOnACorrectCase() throws {
        let system = try parse("root superview 0 0 400 300\nview a\na.width == 100 @500\na.width <= 80\na.width >= 120\n")
        let backend = Solvers.backend("qsopt-ex")
        let expected = try ExactSimplexBackend().solve(system, budget: .unlimited).solution
        let files = backend.reproducer(for: system, expectation: ReproducerExpectation(
            broken: expected.broken, objective: expected.exactObjective ?? [], bound: 1e-6, finding: "a test"))
        #expect(files.map(\.suffix) == ["level0.lp", "level1.lp", "repro.sh"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lb-lp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in files { try Data(file.contents.utf8).write(to: folder.appendingPathComponent("case.\(file.suffix)")) }
        let (status, output) = try run(["bash", folder.appendingPathComponent("case.repro.sh").path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("level1: optimum 20 (agrees)"), "\(output)")
    }
}
