import BackendContract
import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

/// The one-shot solve's order of additions: links pulled ahead of the row that first names
/// their last variable (``CassowaryBackend/linksPulledForward(_:_:)``), and the walk's verdicts
/// kept when a required row fails in that order (issue 17).
@Suite struct AdditionOrderTests {
    static func parse(_ lines: [String]) throws -> ConstraintSystem {
        try LayoutParser.parse((["root superview 0 0 1024 768"] + lines).joined(separator: "\n") + "\n", file: "order.layout")
    }

    /// Required equalities that name no variable a row before them names: each is a marker
    /// subject and dual pivots as long as what it joins.
    static func closingLinks(_ order: [Int], _ linear: PooledLinearSystem) -> Int {
        var named = Set<Int>()
        var closing = 0
        for index in order {
            let row = linear.rows[index]
            let variables = row.termRange.map { linear.terms[$0].variable }
            if row.isRequired && row.relation == .equal && variables.allSatisfy(named.contains) { closing += 1 }
            named.formUnion(variables)
        }
        return closing
    }

    /// `form` writes its vertical line last: in the file's order every link closes, pulled
    /// forward none does, and the order is a permutation of the file's.
    @Test func formsLinksNameAFreshVariable() throws {
        let family = try #require(Families.named("form"))
        let system = generate(family: family, size: 100, seed: 1).system
        let linear = try #require(CassowaryBackend.lowerPooled(system))
        let walk = CassowaryBackend.walkOrder(linear)
        let order = CassowaryBackend.linksPulledForward(walk, linear)
        #expect(order.sorted() == walk)
        #expect(Self.closingLinks(walk, linear) >= 49)
        #expect(Self.closingLinks(order, linear) == 0)
    }

    /// A link is not moved where the row it would go before is a required equality left with
    /// no fresh variable of its own (that row would close instead).
    @Test func aMoveThatWouldCloseAnotherRowIsNotMade() throws {
        let system = try Self.parse(["view a", "view b", "b.width == 10", "a.width == b.width"])
        let linear = try #require(CassowaryBackend.lowerPooled(system))
        #expect(CassowaryBackend.linksPulledForward([0, 1], linear) == [0, 1])
    }

    /// Every generated family at small sizes: the pulled-forward solve gives the walk's
    /// status, broken list, conflict and ambiguity, and the same values up to rounding where
    /// they are determined, as adding the rows in the file's order does.
    @Test(arguments: ["form", "centered", "table-cells", "cassowary-benchmark", "random", "conflict-late", "equal-widths-rtl", "redundant-required"])
    func answersEqualTheFilesOrder(_ name: String) throws {
        let family = try #require(Families.named(name))
        for (size, seed) in [(10, UInt64(1)), (40, 2), (100, 3)] {
            let system = generate(family: family, size: size, seed: seed).system
            let linear = try #require(CassowaryBackend.lowerPooled(system))
            let result = try CassowaryBackend().solve(linear, budget: .unlimited)
            // The walk by hand: required rows in the file's order, a failing one broken.
            var solver = CassowarySolver()
            var broken: [Int] = []
            let walk = CassowaryBackend.walkOrder(linear)
            for index in walk {
                let row = linear.rows[index]
                do {
                    try solver.addConstraint(linear.terms[row.termRange], constant: row.constant, relation: row.relation, strength: Strength(level: row.level))
                } catch {
                    #expect(row.isRequired, "\(name) n\(size): an optional row failed: \(error)")
                    broken.append(row.constraintIndex)
                }
            }
            #expect(result.solution.broken == broken, "\(name) n\(size) s\(seed)")
            let ambiguous = Set(result.solution.ambiguous.map(\.variable))
            for variable in 0..<linear.variableCount where !ambiguous.contains(variable) {
                let walked = solver.value(of: Variable(variable))
                let value = result.solution.values[variable]
                #expect(abs(walked - value) <= 1e-7 * max(1, abs(walked)), "\(name) n\(size) s\(seed) v\(variable): \(value) against \(walked)")
            }
        }
    }

    /// `b.width == a.width` comes last in the file and is pulled ahead of `b.width >= 0` (the
    /// row that first names `b.width`); then `b.width <= 5` fails with that link held, where
    /// the walk holds it and breaks the link. The link is taken back and the rest goes in in
    /// the file's order: the walk's verdicts (and the exact backend's).
    @Test func aLinkFromFurtherOnIsTakenBack() throws {
        let system = try Self.parse(["view a", "view b", "a.width == 10", "b.width >= 0", "b.width <= 5", "b.width == a.width"])
        let linear = try #require(CassowaryBackend.lowerPooled(system))
        let walk = Array(linear.rows.indices)
        #expect(CassowaryBackend.linksPulledForward(walk, linear) == [0, 3, 1, 2])
        let (result, order) = try CassowaryBackend().solveReportingOrder(system, budget: .unlimited)
        #expect(result.solution.status == .unsatisfiable)
        #expect(result.solution.broken == [3])
        #expect(Set(result.solution.conflict) == [0, 2, 3])
        #expect(order == [0, 1, 2, 3])
        #expect(result.solution.values[Unknown(item: 2, component: .w).variable] <= 5)
    }

    /// A failure where the rows added so far are exactly the file's before it needs no taking
    /// back: `form` with a conflicting top at the end keeps the pulled-forward order.
    @Test func aFailureInTheWalksPlaceKeepsTheOrder() throws {
        let family = try #require(Families.named("form"))
        let text = generate(family: family, size: 20, seed: 1).system.canonicalText + "field0.top == superview.top + 30\n"
        let system = try LayoutParser.parse(text, file: "form.layout")
        let linear = try #require(CassowaryBackend.lowerPooled(system))
        let (result, order) = try CassowaryBackend().solveReportingOrder(system, budget: .unlimited)
        #expect(result.solution.status == .unsatisfiable)
        #expect(result.solution.broken == [system.constraints.count - 1])
        let walk = CassowaryBackend.walkOrder(linear)
        #expect(order == CassowaryBackend.linksPulledForward(walk, linear))
        #expect(order != walk)
    }

    /// A sequence's first pass builds its solver as the one-shot solve does
    /// (``AdditionWalk``): on `form` it pivots as often and answers the same. (In the file's
    /// order, with the optional rows after the required ones, it pivoted twice per field on
    /// rows as long as the stack.)
    @Test(arguments: ["form", "table-cells", "centered", "conflict-late"])
    func aSequencesFirstPassAddsInTheOneShotOrder(_ name: String) throws {
        let family = try #require(Families.named(name))
        let system = generate(family: family, size: 100, seed: 1).system
        var driver = IncrementalPassSolver(sequence: UpdateSequence(system), reportsAmbiguity: false)
        let first = try driver.solveNextPass([])
        let oneShot = try CassowaryBackend().solve(system, budget: .unlimited)
        #expect(first.solution.status == oneShot.solution.status)
        #expect(first.solution.broken == oneShot.solution.broken)
        if oneShot.solution.broken.isEmpty {
            #expect(first.statistics.iterations == oneShot.statistics.iterations)
        }
        for (walked, value) in zip(first.solution.values, oneShot.solution.values) {
            #expect(abs(walked - value) <= 1e-9 * max(1, abs(value)), "\(name): \(walked) against \(value)")
        }
    }
}
