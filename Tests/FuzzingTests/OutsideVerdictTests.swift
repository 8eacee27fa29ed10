import BackendContract
import ExactSimplex
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// A backend that declares its own semantics (as an outside solver does) and answers with
/// the exact reference's point moved by a fixed amount in one unknown.
struct MovedPointBackend: DeclaresPrecision {
    var name: String { "moved" }
    var summary: String { "test only: the exact answer with one value moved" }
    let item: String
    let component: FrameComponent
    let value: Double
    let priorities: BackendCapabilities.PriorityModel
    let relativePrecision: Double?

    var capabilities: BackendCapabilities {
        BackendCapabilities(priorities: priorities,
                            reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: relativePrecision == nil))
    }

    func supports(_ system: ConstraintSystem) -> Support { .supported }

    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        var result = try ExactSimplexBackend().solve(system, budget: budget)
        let index = system.items.firstIndex { $0.name == item } ?? 0
        result.solution.values[Unknown(item: index, component: component).variable] = value
        result.solution.exactValues = nil
        result.solution.exactObjective = nil
        result.solution.ambiguous = []
        return result
    }
}

/// Outside solvers' findings go through the ``SemanticsJudge`` and then get the same
/// backward-error verdicts as the built-in backends' (`FuzzCampaign.classified`).
@Suite struct OutsideVerdictTests {
    /// As in ``VerdictTests``: S = 1e6, so a perturbation of 1e-9 reaches 1.9e-3 at the point.
    static let text = "root r 1000000 1000\nview a\na.left == r.left + 100\na.top == r.top\na.width == 900000\na.height == 10\n"

    static func judged(_ backend: MovedPointBackend) throws -> [Finding] {
        let system = try LayoutParser.parse(Self.text, file: "case.layout")
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all, backends: [backend], reference: ExactSimplexBackend(), oracles: []))
        let outcomes = [backend, campaign.configuration.reference].map { campaign.solve($0, system) }
        return campaign.judgeOutcomes(system, outcomes).filter { $0.backends.first == backend.name }
    }

    @Test(arguments: [BackendCapabilities.PriorityModel.lexicographic, .weighted(.linear(scale: .one))])
    func aFloatingPointOutsideSolversViolationIsIllConditionedOrWrongByItsSize(priorities: BackendCapabilities.PriorityModel) throws {
        let near = try Self.judged(MovedPointBackend(item: "a", component: .w, value: 900000.0015, priorities: priorities,
                                                     relativePrecision: defaultRelativePrecision))
        #expect(near.contains { $0.kind == .infeasiblePoint }, "\(near)")
        #expect(near.allSatisfy { $0.verdict == .illConditioned }, "\(near)")
        let far = try Self.judged(MovedPointBackend(item: "a", component: .w, value: 900000.01, priorities: priorities,
                                                    relativePrecision: defaultRelativePrecision))
        #expect(far.contains { $0.kind == .infeasiblePoint && $0.verdict == .wrong }, "\(far)")
    }

    @Test func anExactOutsideSolverIsForgivenNothing() throws {
        let near = try Self.judged(MovedPointBackend(item: "a", component: .w, value: 900000.0015, priorities: .lexicographic,
                                                     relativePrecision: nil))
        #expect(near.contains { $0.kind == .infeasiblePoint && $0.verdict == .wrong }, "\(near)")
    }
}
