import BackendContract
import ExactSimplex
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// A backend that declares its own semantics (as an outside solver does) and answers with
/// the exact reference's point, some values set to fixed ones.
struct MovedPointBackend: DeclaresPrecision {
    var name: String { "moved" }
    var summary: String { "test only: the exact answer with some values moved" }
    let moves: [(item: String, component: FrameComponent, value: Double)]
    let priorities: BackendCapabilities.PriorityModel
    let relativePrecision: Double?

    var capabilities: BackendCapabilities {
        BackendCapabilities(priorities: priorities,
                            reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: relativePrecision == nil))
    }

    func supports(_ system: ConstraintSystem) -> Support { .supported }

    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        var result = try ExactSimplexBackend().solve(system, budget: budget)
        for move in moves {
            let index = system.items.firstIndex { $0.name == move.item } ?? 0
            result.solution.values[Unknown(item: index, component: move.component).variable] = move.value
        }
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

    static func judged(_ backend: MovedPointBackend, _ text: String = Self.text) throws -> [Finding] {
        let system = try LayoutParser.parse(text, file: "case.layout")
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all, backends: [backend], reference: ExactSimplexBackend(), oracles: []))
        let outcomes = [backend, campaign.configuration.reference].map { campaign.solve($0, system) }
        return campaign.judgeOutcomes(system, outcomes).filter { $0.backends.first == backend.name }
    }

    @Test(arguments: [BackendCapabilities.PriorityModel.lexicographic, .weighted(.linear(scale: .one))])
    func aFloatingPointOutsideSolversViolationIsIllConditionedOrWrongByItsSize(priorities: BackendCapabilities.PriorityModel) throws {
        let near = try Self.judged(MovedPointBackend(moves: [("a", .w, 900000.0015)], priorities: priorities,
                                                     relativePrecision: defaultRelativePrecision))
        #expect(near.contains { $0.kind == .infeasiblePoint }, "\(near)")
        #expect(near.allSatisfy { $0.verdict == .illConditioned }, "\(near)")
        let far = try Self.judged(MovedPointBackend(moves: [("a", .w, 900000.01)], priorities: priorities,
                                                    relativePrecision: defaultRelativePrecision))
        #expect(far.contains { $0.kind == .infeasiblePoint && $0.verdict == .wrong }, "\(far)")
    }

    @Test func anExactOutsideSolverIsForgivenNothing() throws {
        let near = try Self.judged(MovedPointBackend(moves: [("a", .w, 900000.0015)], priorities: .lexicographic,
                                                     relativePrecision: nil))
        #expect(near.contains { $0.kind == .infeasiblePoint && $0.verdict == .wrong }, "\(near)")
    }

    /// kiwisolver's answer to an `extreme-constants` case (a 1e-9 multiplier beside 1e9):
    /// dropping the two widths of 1 leaves every row within the tolerance (about 1 at this
    /// scale) but v3.x off by 2, a `determined-mismatch` at the (weighted and lexicographic)
    /// optimum. Constants may move by 1e-9 × 1e9 = 1 each, which explains it.
    static let extreme = """
        root superview 390 844
        view v0
        v0.leading == superview.leading
        v0.width == 1000000000
        view v1
        v1.leading == v0.trailing
        v1.width == 1e-9 * v0.width
        view v2
        v2.leading == v1.trailing
        v2.width == v1.width
        view v3
        v3.leading == v2.trailing
        """

    @Test(arguments: [BackendCapabilities.PriorityModel.lexicographic, .weighted(.linear(scale: .one))])
    func aDeterminedValueThatRoundingOfTheConstantsExplainsIsIllConditioned(priorities: BackendCapabilities.PriorityModel) throws {
        let kiwi = MovedPointBackend(
            moves: [("v1", .x, 1e9), ("v1", .w, 0), ("v2", .x, 1e9), ("v2", .w, 0), ("v3", .x, 1e9)],
            priorities: priorities, relativePrecision: defaultRelativePrecision)
        let found = try Self.judged(kiwi, Self.extreme)
        #expect(found.contains { $0.kind == .determinedMismatch }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }
}
