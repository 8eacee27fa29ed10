import BackendContract
import ExactArithmetic
import ExactSimplex
import LayoutModel
import Testing
@testable import Fuzzing

/// The backward-error verdicts on hand-built answers, both ways: each case pairs a
/// disagreement that a perturbation within 1e-9 explains (ill-conditioned) with one that
/// none does (wrong).
@Suite struct VerdictTests {
    static let exact = ExactSimplexBackend()

    /// The comparator's findings about a hand-made answer of a backend called "float"
    /// (judged with the default precision, 1e-9).
    static func findings(_ text: String, _ answer: (ConstraintSystem, Solution) -> Solution) throws -> [Finding] {
        let system = try LayoutParser.parse(text, file: "case.layout")
        let reference = try exact.solve(system, budget: .unlimited)
        let mine = answer(system, reference.solution)
        let comparator = Comparator(reference: exact)
        return comparator.compare(system, outcomes: [
            BackendOutcome(backend: "exact", result: .success(reference)),
            BackendOutcome(backend: "float", result: .success(BackendResult(solution: mine, statistics: SolveStatistics()))),
        ]).filter { $0.backends.first == "float" }
    }

    static func value(_ system: ConstraintSystem, _ name: String, _ component: FrameComponent) -> Int {
        let item = system.items.firstIndex { $0.name == name } ?? 0
        return Unknown(item: item, component: component).variable
    }

    /// Sets values (and drops exact ones, as a float backend would not give them).
    static func moved(_ s: Solution, _ changes: [Int: Double]) -> Solution {
        var s = s
        for (v, x) in changes { s.values[v] = x }
        s.exactValues = nil
        s.exactObjective = nil
        return s
    }

    // MARK: Points

    @Test func aViolationWithinTheReachOfPerturbationsIsIllConditionedBeyondItWrong() throws {
        // S = 1e6: the tolerance is about 1e-3; a perturbation of 1e-9 moves `a.width == 900000`
        // at the point by up to 1e-9 × (900000 + 1e6) = 1.9e-3.
        let text = "root r 1000000 1000\nview a\na.left == r.left + 100\na.top == r.top\na.width == 900000\na.height == 10\n"
        let near = try Self.findings(text) { system, s in Self.moved(s, [Self.value(system, "a", .w): 900000.0015]) }
        #expect(near.contains { $0.kind == .infeasiblePoint })
        #expect(near.allSatisfy { $0.verdict == .illConditioned }, "\(near)")
        let far = try Self.findings(text) { system, s in Self.moved(s, [Self.value(system, "a", .w): 900000.01]) }
        #expect(far.contains { $0.kind == .infeasiblePoint && $0.verdict == .wrong }, "\(far)")
    }

    // MARK: Optimality: the lexicographic trade on large constants

    static let gauge = """
        root r 100 100
        view gauge
        view needle
        needle.width == 0
        g: gauge.width == 10 @251
        n: needle.width == 1e9 * gauge.width @250
        gauge.left == r.left
        gauge.top == r.top
        gauge.height == 5
        needle.left == r.left
        needle.top == r.top
        needle.height == 5
        """

    @Test func givingUpAStrongerLevelForAWeakerIsWrong() throws {
        // gauge.width 0 saves 1e10 at @250 but costs 10 at @251.
        let found = try Self.findings(Self.gauge) { system, s in Self.moved(s, [Self.value(system, "gauge", .w): 0]) }
        #expect(found.contains { $0.kind == .suboptimal && $0.verdict == .wrong }, "\(found)")
    }

    // MARK: Determined values: reciprocal multipliers

    static func reciprocal(_ m: String, _ n: String) -> String {
        """
        root r 400 400
        view a
        a.left == r.left
        a.top == r.top
        a.width == \(m) * a.height
        a.height == \(n) * a.width
        a.width == 100 @750
        """
    }

    @Test func honouringAWishThatANearlySingularPairForbidsIsIllConditioned() throws {
        // 1.536 × 0.6510416666 = 1 − 1.1e-10: exactly, 0×0; a float solver keeps w = 100.
        let found = try Self.findings(Self.reciprocal("1.536", "0.6510416666")) { system, s in
            Self.moved(s, [Self.value(system, "a", .w): 100, Self.value(system, "a", .h): 65.10416666])
        }
        #expect(found.contains { $0.kind == .determinedMismatch })
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }

    @Test func honouringAWishThatAWellConditionedPairForbidsIsWrong() throws {
        let found = try Self.findings(Self.reciprocal("1.5", "0.6")) { system, s in
            Self.moved(s, [Self.value(system, "a", .w): 100, Self.value(system, "a", .h): 60])
        }
        #expect(found.contains { $0.verdict == .wrong }, "\(found)")
    }

    // MARK: Status: near conflicts

    static func pair(_ upper: String) -> String {
        "root r 100 100\nview a\na.left == r.left\na.top == r.top\na.height == 5\nlo: a.width >= 10\nhi: a.width <= \(upper)\n"
    }

    @Test func breakingABoundPairOneBillionthApartIsIllConditioned() throws {
        let found = try Self.findings(Self.pair("10.000000001")) { _, s in
            var s = s
            s.status = .unsatisfiable
            s.broken = [4]
            s.conflict = [3, 4]
            return s
        }
        #expect(found.contains { $0.kind == .statusMismatch })
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }

    @Test func breakingABoundPairOneThousandthApartIsWrong() throws {
        let found = try Self.findings(Self.pair("10.001")) { _, s in
            var s = s
            s.status = .unsatisfiable
            s.broken = [4]
            s.conflict = [3, 4]
            return s
        }
        #expect(found.contains { $0.kind == .statusMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func keepingAPairThatOverlapsByABillionthIsIllConditionedByAThousandthWrong() throws {
        for (upper, verdict) in [("9.999999999", Finding.Verdict.illConditioned), ("9.99", .wrong)] {
            let found = try Self.findings(Self.pair(upper)) { system, s in
                var s = Self.moved(s, [Self.value(system, "a", .w): 10])
                s.status = .optimal
                s.broken = []
                s.conflict = []
                s.objective = []
                return s
            }
            #expect(found.contains { $0.kind == .statusMismatch && $0.verdict == verdict }, "\(upper): \(found)")
        }
    }

    // MARK: Ambiguity

    static let cone = """
        root r 100 100
        view a
        view b
        a.left == r.left
        a.top == r.top
        a.height == 10
        b.left == r.left
        b.top == r.top
        b.height == 10
        a.width >= 0
        b.width >= 0
        a.width <= 2 * b.width
        b.width <= 2 * a.width
        """

    @Test func callingADegenerateConeDeterminedIsWrong() throws {
        // x, y ≥ 0, x ≤ 2y, y ≤ 2x: the ray (1, 1) stays open under any perturbation.
        let found = try Self.findings(Self.cone) { _, s in
            var s = Self.moved(s, [:])
            s.ambiguous = s.ambiguous.filter { $0.component != .w }
            return s
        }
        #expect(found.contains { $0.kind == .ambiguityMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func callingAWidthDeterminedThatABillionthGapLeavesOpenIsIllConditioned() throws {
        let found = try Self.findings(Self.pair("10.000000001")) { _, s in
            var s = s
            s.ambiguous = []
            return s
        }
        #expect(found.contains { $0.kind == .ambiguityMismatch }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }

    static let heldByUpperBound = """
        root r 400 400
        view a
        a.top == r.top
        a.width == 20
        a.height == 20
        a.left <= r.left + 100
        a.left >= r.left + 200 @250
        """

    @Test func callingAPositionHeldByAnActiveUpperBoundAmbiguousIsWrong() throws {
        let found = try Self.findings(Self.heldByUpperBound) { system, s in
            var s = s
            s.ambiguous = [Unknown(variable: Self.value(system, "a", .x))]
            return s
        }
        #expect(found.contains { $0.kind == .ambiguityMismatch && $0.verdict == .wrong }, "\(found)")
    }

    @Test func callingAPositionHeldByANearlyTightPairAmbiguousIsIllConditioned() throws {
        let text = "root r 100 100\nview a\na.top == r.top\na.width == 20\na.height == 20\na.left <= r.left + 100\na.left >= r.left + 100\n"
        let found = try Self.findings(text) { system, s in
            var s = s
            s.ambiguous = [Unknown(variable: Self.value(system, "a", .x))]
            return s
        }
        #expect(found.contains { $0.kind == .ambiguityMismatch }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
    }

    // MARK: Conflicts

    static let routes = """
        root r 100 100
        view a
        a.left == r.left
        a.top == r.top
        a.height == 5
        w: a.width == 10
        one: a.width == 11
        two: a.width >= 12
        """

    @Test func aConflictOneMemberTooBigIsWrong() throws {
        let found = try Self.findings(Self.routes) { _, s in
            var s = s
            s.conflict = [3, 4, 5]  // {w, one} is already infeasible; `two` is one too many
            return s
        }
        #expect(found.contains { $0.kind == .badConflict && $0.verdict == .wrong }, "\(found)")
    }

    static func chain(_ third: String) -> String {
        """
        root r 100 100
        view a
        a.left == r.left
        a.top == r.top
        a.height == 5
        lo: a.width >= 10
        hi: a.width <= 10.000000001
        third: a.width >= \(third)
        """
    }

    @Test func aConflictWithAMemberOnlyRoundingMakesNeededIsIllConditioned() throws {
        // Exactly, {hi, third} is the conflict and `lo` is one too many; moving the constants
        // by 1e-9 makes {hi, third} feasible, and then all three are needed.
        let found = try Self.findings(Self.chain("10.000000002")) { _, s in
            var s = s
            s.conflict = [3, 4, 5]
            return s
        }
        #expect(found.contains { $0.kind == .badConflict }, "\(found)")
        #expect(found.allSatisfy { $0.verdict == .illConditioned }, "\(found)")
        let far = try Self.findings(Self.chain("11")) { _, s in
            var s = s
            s.conflict = [3, 4, 5]
            return s
        }
        #expect(far.contains { $0.kind == .badConflict && $0.verdict == .wrong }, "\(far)")
    }
}
