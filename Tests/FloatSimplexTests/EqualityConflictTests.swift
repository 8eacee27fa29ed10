import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// The shortcut that declares a conflict of required equalities irreducible without a trial
/// solve per member (``CassowaryBackend/isIrreducibleEqualityConflict(_:failing:)``): it must
/// say yes only where deletion filtering would keep every member, and leave every other case
/// to the filter.
@Suite struct EqualityConflictTests {
    /// `Σ coefficient·x + constant == 0`, required, as constraint `index`.
    static func row(_ terms: [(Int, Double)], _ constant: Double, index: Int, relation: Relation = .equal) -> LinearRow<Double> {
        LinearRow(
            terms: terms.map { LinearTerm(variable: $0.0, coefficient: $0.1) }, constant: constant, relation: relation,
            level: 0, constraintIndex: index)
    }

    /// A chain `x0 == 0`, `x(i+1) == x(i) + gap(i)` over n unknowns, then `x(n-1) == total`
    /// with a total the gaps do not add up to: every member is needed.
    static func chain(_ n: Int, gaps: (Int) -> Double, total: Double) -> (members: [LinearRow<Double>], failing: LinearRow<Double>) {
        var rows = [row([(0, 1)], 0, index: 0)]
        for i in 0..<(n - 1) { rows.append(row([(i, -1), (i + 1, 1)], -gaps(i), index: i + 1)) }
        let failing = row([(n - 1, 1)], -total, index: n)
        return (rows + [failing], failing)
    }

    /// Irreducible by definition: the set is infeasible, and without any one member but the
    /// failing row it holds (each a fresh solve).
    static func isIrreducible(_ members: [LinearRow<Double>], failing: LinearRow<Double>) -> Bool {
        var trials = CassowaryBackend.TrialBudget(.unlimited)
        guard trials.isFeasible(members) == false else { return false }
        return members.indices.allSatisfy { j in
            members[j].constraintIndex == failing.constraintIndex
                || trials.isFeasible(members.enumerated().filter { $0.offset != j }.map(\.element)) == true
        }
    }

    @Test(arguments: [2, 3, 10, 200])
    func aChainOfEqualitiesIsIrreducibleWithoutTrials(n: Int) {
        let (members, failing) = Self.chain(n, gaps: { Double($0 % 7) + 0.5 }, total: -1)
        #expect(CassowaryBackend.isIrreducibleEqualityConflict(members, failing: failing))
        if n <= 10 { #expect(Self.isIrreducible(members, failing: failing)) }
    }

    @Test func theBackendReportsTheWholeChainAsTheFilterWould() throws {
        // The chain of `theShortcutAgreesWithTheFilter` as a layout: widths pinned, each view
        // after the last, and a last view that must end where the widths do not reach.
        var lines = ["root s 0 0 1000 1000"] + (0..<6).map { "view v\($0)" }
        lines.append("v0.left == s.left")
        for i in 0..<6 { lines.append("v\(i).width == \(10 + i)") }
        for i in 0..<5 { lines.append("v\(i + 1).left == v\(i).right + 8") }
        lines.append("v5.right == s.left + 50")
        let system = try LayoutParser.parse(lines.joined(separator: "\n") + "\n", file: "chain.layout")
        let result = try CassowaryBackend().solve(system, budget: .unlimited)
        #expect(result.solution.status == .unsatisfiable)
        #expect(result.solution.broken == [12])
        // Every position and width of the chain is needed, and nothing else is.
        #expect(result.solution.conflict == Array(0...12))
        let linear = try #require(CassowaryBackend.lower(system))
        let members = result.solution.conflict.map { linear.rows[$0] }
        #expect(Self.isIrreducible(members, failing: linear.rows[12]))
    }

    @Test func aMemberWhoseWeightIsZeroIsLeftToTheFilter() {
        // x1 == 5 takes no part in the contradiction x0 == 0, x0 == 3.
        let members = [Self.row([(0, 1)], 0, index: 0), Self.row([(1, 1)], -5, index: 1), Self.row([(0, 1)], -3, index: 2)]
        #expect(!CassowaryBackend.isIrreducibleEqualityConflict(members, failing: members[2]))
        #expect(!Self.isIrreducible(members, failing: members[2]))
    }

    @Test func anInequalityIsLeftToTheFilter() {
        let members = [Self.row([(0, 1)], 0, index: 0, relation: .greaterThanOrEqual), Self.row([(0, 1)], 3, index: 1)]
        #expect(!CassowaryBackend.isIrreducibleEqualityConflict(members, failing: members[1]))
    }

    @Test func rowsWithoutANewUnknownEachAreLeftToTheFilter() {
        // x0 + x1 == 0 and x0 − x1 == 0 pin both; 2·x0 == 0 names nothing new (redundant),
        // so the members but the failing x0 == 1 are not independent.
        let members = [
            Self.row([(0, 1), (1, 1)], 0, index: 0), Self.row([(0, 1), (1, -1)], 0, index: 1),
            Self.row([(0, 2)], 0, index: 2), Self.row([(0, 1)], -1, index: 3),
        ]
        #expect(!CassowaryBackend.isIrreducibleEqualityConflict(members, failing: members[3]))
        // Indeed reducible: without the redundant row it is still infeasible.
        #expect(!Self.isIrreducible(members, failing: members[3]))
    }

    @Test func aConsistentSetIsNotCalledAConflict() {
        // The gaps add up to the total: the combination cancels the constants too.
        let (members, failing) = Self.chain(5, gaps: { _ in 2 }, total: 8)
        #expect(!CassowaryBackend.isIrreducibleEqualityConflict(members, failing: failing))
    }
}
