import BackendContract
import ExactSimplex
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// A backend that rounds like GTK (declared `roundingUnit`, weighted priorities, rejected
/// required constraints reported, no ambiguity) and answers with the exact reference's point,
/// some values set to fixed ones and its broken list given.
struct RoundingAnswerBackend: DeclaresPrecision {
    var name: String { "rounding" }
    var summary: String { "test only: the exact answer with some values moved, rounding declared" }
    let moves: [(item: String, component: FrameComponent, value: Double)]
    let broken: [Int]
    let roundingUnit: Double?
    var relativePrecision: Double? { defaultRelativePrecision }

    var capabilities: BackendCapabilities {
        BackendCapabilities(priorities: .weighted(.linear(scale: .one)),
                            reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: false),
                            roundingUnit: roundingUnit)
    }

    func supports(_ system: ConstraintSystem) -> Support { .supported }

    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        var result = try MovedPointBackend(moves: moves, priorities: capabilities.priorities, relativePrecision: relativePrecision)
            .solve(system, budget: budget)
        result.solution.broken = broken
        result.solution.status = broken.isEmpty ? .optimal : .unsatisfiable
        result.solution.conflict = []
        return result
    }
}

/// Status questions (satisfiable or not, which required constraints are broken) for a
/// solver that declares a rounding: a disagreement that a perturbation of the constants
/// within the rounding explains is `ill-conditioned`, any other stays `wrong`.
@Suite struct RoundingSolverVerdictTests {
    /// A `near-conflicts` case GTK 4.8.3 answered in the 30-minute campaign: it ceils
    /// v0.width to 131 (c1 is then off by 0.97) and keeps both of v1's bounds at 237 (c2 off
    /// by 1e-9), where the required walk breaks c3.
    static let nearConflicts = """
        root superview 375 667
        view v0
        v0.width >= 130.03
        v0.width <= 130.030000001
        view v1
        v1.width >= 237.000000001
        v1.width <= 237
        """

    static func judged(_ backend: RoundingAnswerBackend, _ text: String) throws -> [Finding] {
        let system = try LayoutParser.parse(text, file: "case.layout")
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all, backends: [backend], reference: ExactSimplexBackend(), oracles: []))
        let outcomes = [backend, campaign.configuration.reference].map { campaign.solve($0, system) }
        return campaign.judgeOutcomes(system, outcomes).filter { $0.backends.first == backend.name }
    }

    static let gtkAnswer: [(item: String, component: FrameComponent, value: Double)] = [("v0", .w, 131), ("v1", .w, 237)]

    @Test func aFalseAcceptThatWholePixelsExplainIsIllConditioned() throws {
        let found = try Self.judged(RoundingAnswerBackend(moves: Self.gtkAnswer, broken: [], roundingUnit: 1), Self.nearConflicts)
        #expect(found.contains { $0.kind == .statusMismatch }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }

    @Test func withoutTheDeclaredRoundingTheSameAnswerIsWrong() throws {
        // At 1e-9 alone, c1 off by 0.97 at the point is no rounding of the arithmetic.
        let found = try Self.judged(RoundingAnswerBackend(moves: Self.gtkAnswer, broken: [], roundingUnit: nil), Self.nearConflicts)
        #expect(found.contains { $0.kind == .statusMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func aFalseAcceptBeyondThePixelIsWrong() throws {
        // v1 at 240 keeps c3 (width <= 237) off by 3 pixels: no rounding of one pixel explains it.
        let found = try Self.judged(RoundingAnswerBackend(moves: [("v0", .w, 131), ("v1", .w, 240)], broken: [], roundingUnit: 1),
                                    Self.nearConflicts)
        #expect(found.contains { $0.kind == .statusMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func aFalseRejectOfAWideRangeIsWrong() throws {
        // 100 <= w <= 200 has room for any rounding: rejecting c1 is no near-conflict.
        let text = "root superview 375 667\nview v0\nv0.width >= 100\nv0.width <= 200\n"
        let found = try Self.judged(RoundingAnswerBackend(moves: [("v0", .w, 150)], broken: [1], roundingUnit: 1), text)
        #expect(found.contains { $0.kind == .statusMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func aFalseRejectWithinThePixelIsIllConditioned() throws {
        // 130.03 <= w <= 130.030000001: a pixel's move of each constant makes the pair a conflict.
        let text = "root superview 375 667\nview v0\nv0.width >= 130.03\nv0.width <= 130.030000001\n"
        let found = try Self.judged(RoundingAnswerBackend(moves: [("v0", .w, 131)], broken: [1], roundingUnit: 1), text)
        #expect(found.contains { $0.kind == .statusMismatch }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }
}

/// A rounding weighted solver's level errors get a pixel's allowance per row, which can hide
/// a weighted trade of a few pixels; when the lexicographic optimum is not weighted-optimal
/// (both exact), its determined values moving is the declared semantics, not wrong.
@Suite struct RoundingWeightedTradeTests {
    /// Four views of one width: compression resistance 133 @750 on one, hugging 128 @251 on
    /// all four (weighted: 4 × 251 > 750, so 128; lexicographically 133). More @750 rows that
    /// hold and a centre row (Σ|a| = 3) widen the @750 allowance beyond the 5 px traded.
    static let text = """
        root superview 400 400
        view a
        view b
        view c
        view d
        a.width >= 133 @750
        a.width <= 128 @251
        b.width == a.width
        b.width <= 128 @251
        c.width == a.width
        c.width <= 128 @251
        d.width == a.width
        d.width <= 128 @251
        a.height >= 0 @750
        b.height >= 0 @750
        c.height >= 0 @750
        d.height >= 0 @750
        a.top >= superview.top @750
        b.top >= superview.top @750
        a.centerY == b.centerY
        """

    static func described(_ found: [Finding]) -> String {
        found.map { "\($0.kind.rawValue) \($0.verdict): \($0.detail)" }.joined(separator: "; ")
    }

    @Test func aTradeHiddenInTheLevelAllowanceIsSemantics() throws {
        let moves: [(item: String, component: FrameComponent, value: Double)] = ["a", "b", "c", "d"].map { ($0, .w, 128) }
        let found = try RoundingSolverVerdictTests.judged(RoundingAnswerBackend(moves: moves, broken: [], roundingUnit: 1), Self.text)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.verdict == .semantics }, "\(Self.described(found))")
    }

    @Test func aValueOffTheWeightedOptimumStaysWrong() throws {
        // 100 is no optimum of either objective: 33 px under the compression resistance, beyond
        // a pixel's allowance on every row of the weighted sum.
        let moves: [(item: String, component: FrameComponent, value: Double)] = ["a", "b", "c", "d"].map { ($0, .w, 100) }
        let found = try RoundingSolverVerdictTests.judged(RoundingAnswerBackend(moves: moves, broken: [], roundingUnit: 1), Self.text)
        #expect(found.contains { $0.verdict == .wrong }, "\(Self.described(found))")
    }
}

/// Metamorphic relations compare only values the reference finds determined: a view that
/// nothing places (GTK puts it at −100000 whatever the root) binds no relation.
@Suite struct UndeterminedValuesInOraclesTests {
    /// `b` has a size but no position.
    static let text = """
        root r 10 20 400 300
        view a
        a.leading == r.leading + 8
        a.top == r.top + 8
        a.width == 100
        a.height == 20
        view b
        b.width == 50
        b.height == 10
        """

    struct UnplacedBackend: DeclaresPrecision {
        var name: String { "unplaced" }
        var summary: String { "test only: unconstrained positions at -100000, no ambiguity reported" }
        var relativePrecision: Double? { defaultRelativePrecision }
        var capabilities: BackendCapabilities {
            BackendCapabilities(priorities: .lexicographic,
                                reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: false))
        }
        func supports(_ system: ConstraintSystem) -> Support { .supported }
        func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
            var result = try ExactSimplexBackend().solve(system, budget: budget)
            for unknown in result.solution.ambiguous where unknown.component == .x || unknown.component == .y {
                result.solution.values[unknown.variable] = -100000
            }
            result.solution.ambiguous = []
            result.solution.exactValues = nil
            return result
        }
    }

    static func answers(_ oracle: MetamorphicOracle) throws -> (MetamorphicOracle.Transformed, ConstraintSystem, Solution, Solution, Solution) {
        let system = try LayoutParser.parse(Self.text, file: "case.layout")
        var random = SeededGenerator(seed: 7)
        let transformed = try #require(oracle.apply(to: system, kept: Set(system.constraints.indices), random: &random))
        let backend = UnplacedBackend()
        let original = try backend.solve(system, budget: Budget()).solution
        let after = try backend.solve(transformed.system, budget: Budget()).solution
        let reference = try ExactSimplexBackend().solve(system, budget: Budget()).solution
        return (transformed, system, original, after, reference)
    }

    @Test(arguments: [MetamorphicOracle.translateRoot, .mirrorRTL])
    func valuesTheReferenceFindsAmbiguousAreNotCompared(oracle: MetamorphicOracle) throws {
        let (transformed, system, original, after, reference) = try Self.answers(oracle)
        #expect(!reference.ambiguous.isEmpty)
        // Held to b's free position, the relation fails …
        let naive = transformed.violation(original: system, original, transformed: after, tolerance: Tolerance())
        #expect(naive?.hasPrefix("b.") == true, "\(naive ?? "no violation")")
        // … but the reference says it is free: nothing to compare, and a's values still are.
        #expect(transformed.violation(original: system, original, transformed: after, tolerance: Tolerance(),
                                      undetermined: Set(reference.ambiguous)) == nil)
    }

    @Test func aDeterminedValueThatMovesIsStillAViolation() throws {
        let (transformed, system, original, after, reference) = try Self.answers(.translateRoot)
        var moved = after
        let a = try #require(system.items.firstIndex { $0.name == "a" })
        moved.values[Unknown(item: a, component: .x).variable] += 5
        let violation = transformed.violation(original: system, original, transformed: moved, tolerance: Tolerance(),
                                              undetermined: Set(reference.ambiguous))
        #expect(violation?.hasPrefix("a.x") == true, "\(violation ?? "no violation")")
    }

    @Test func aReductionCannotShrinkAViolationIntoAnUnconstrainedView() throws {
        // The reducer keeps a candidate only if the finding reproduces; for a backend that does
        // not report ambiguity the oracle does not bind where the reference finds anything
        // ambiguous, so b alone (all of it free) reproduces nothing.
        let system = try LayoutParser.parse("root r 10 20 400 300\nview b\n", file: "case.layout")
        let backend = UnplacedBackend()
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all, backends: [backend], reference: ExactSimplexBackend(), oracles: [.translateRoot]))
        for verdict in [Finding.Verdict.wrong, .illConditioned] {
            let finding = Finding(kind: .metamorphicViolation, backends: [backend.name], detail: "b.x should be …",
                                  oracle: MetamorphicOracle.translateRoot.rawValue, verdict: verdict)
            #expect(!campaign.reproduces(finding, on: system, seed: 3))
        }
    }
}
