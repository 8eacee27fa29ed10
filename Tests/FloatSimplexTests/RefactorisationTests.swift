import BackendContract
import ExactSimplex
import LayoutModel
import SolverBenchmarks
import Testing
@testable import FloatSimplex

@Suite struct RefactorisationTests {
    /// Rebuilding the rows for the current basis keeps the point and the objective, whatever
    /// the workload, and leaves no more terms than the constraints themselves.
    @Test(arguments: IncrementalWorkload.Kind.allCases)
    func refactorisationKeepsThePoint(_ kind: IncrementalWorkload.Kind) throws {
        let workload = IncrementalWorkload.make(kind, size: kind == .form ? 3 : 40)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        for edit in workload.edits { try solver.addEditVariable(edit.variable, strength: edit.strength) }
        for step in workload.suggestions.prefix(60) {
            for (variable, value) in step { try solver.suggestValue(variable, value) }
        }
        let before = (0..<workload.variableCount).map { solver.value(of: Variable($0)) }
        let objective = solver.objective(levelCount: workload.levelCount)
        let rebuilt = solver.refactor()
        #expect(rebuilt)
        #expect(solver.tableau.termCount <= solver.originalTerms)
        for (v, old) in before.enumerated() {
            #expect(isClose(solver.value(of: Variable(v)), old, tolerance: 1e-9), "\(kind) v\(v)")
        }
        #expect(solver.objective(levelCount: workload.levelCount) == objective || zip(solver.objective(levelCount: workload.levelCount), objective).allSatisfy { isClose($0, $1) })
        #expect(solver.tableau.candidates.isEmpty && solver.tableau.infeasible.isEmpty)
    }

    /// Adding and removing constraints many times leaves garbage in both term pools; once it
    /// outweighs the live terms it is compacted away. The rows must survive that: the solver
    /// still answers as a fresh one, before and after a refactorisation (which rebuilds from
    /// the records' rows).
    /// `v2.left == -1e-9 * v1.left` is a small pivot wherever it is solved; at the end of the
    /// one-shot solve the rows are rebuilt from the constraints. The basis factorisation
    /// reaches that row as a column singleton (no other open row names `v1.left`) and must
    /// take it: refusing gave up the whole rebuild, and `v3.left` stayed 2⁻²⁰ off 8.5, read
    /// through 1e10-sized intermediates (guided fuzz, `infeasible-point-float-82ff0ea357bc2cc7`).
    @Test func aSmallColumnSingletonPivotIsTakenAndTheRowsHold() throws {
        let system = try LayoutParser.parse("""
            root root 568 320
            view v1
            view v2
            view v3
            v3.width <= 0
            v2.left == -1e-9 * v1.left
            v3.centerXWithinMargins == 0.1 * v1.left
            v2.left == v3.left + 17
            v2.left == 3 * v3.left
            """)
        let lowered = try #require(CassowaryBackend.lower(system))
        var built = CassowarySolver()
        for row in lowered.rows { try built.addConstraint(row, strength: .required) }
        #expect(built.factorBasis() != nil)
        let solution = try CassowaryBackend().solve(system, budget: .unlimited).solution
        func x(_ view: String) throws -> Double {
            let item = try #require(system.itemIndex(named: view))
            return solution.values[Unknown(item: item, component: .x).variable]
        }
        #expect(abs(try x("v3") - 8.5) <= 1e-14)
        #expect(abs(try x("v2") - 3 * (try x("v3"))) <= 1e-13)
        #expect(abs(try x("v1") / -2.55e10 - 1) <= 1e-15)
    }

    /// While the rebuild at the end of a one-shot solve writes its rows one by one, a new row
    /// can name a symbol whose old row still names it back. The rounding check of each
    /// written row walked that cycle without end: this system (guided fuzz, a timeout) took
    /// gigabytes within seconds. (The walk reads no clock, so a budget would not stop it:
    /// a regression hangs this test.)
    @Test func aRebuildThroughACycleOfOldAndNewRowsEnds() throws {
        let system = try LayoutParser.parse("""
            root root 568 320
            view v1 intrinsic 173 17.333 hug 251 250 resist 751 50
            view v2 intrinsic 177 21 hug 251 250 resist 751 750
            view v3 intrinsic 545 21 hug 251 250
            view v4 intrinsic - 21 hug 251 250
            v1.top == root.topMargin
            v2.leading == v1.trailing + 8
            v2.centerY == v1.centerY
            root.trailingMargin == 1.0000001 * v2.trailing @0.000001
            v3.leading == root.leadingMargin @0.000001
            v3.top == v1.bottom + 8
            v4.leading == v4.trailing + 8
            v4.centerY == v3.centerY
            root.trailingMargin == v4.trailing
            v2.centerY == v1.centerY
            v1.bottom >= v4.bottom + 667 @0.001
            v1.rightMargin == 0.000001 * v3.centerX + 1000000000000 @251
            v1.height >= 10 * v4.height + 20 @750
            v1.trailing <= 0.5 * v2.centerX + 0.5

            """)
        let result = try CassowaryBackend().solve(system, budget: .unlimited)
        #expect(result.solution.status == .optimal)
        let exact = try ExactSimplexBackend().solve(system, budget: .unlimited).solution
        #expect(result.solution.objective.count == exact.objective.count)
        #expect(result.solution.objective[0...1] == exact.objective[0...1])
    }

    @Test func termPoolsSurviveManyRemovals() throws {
        let workload = IncrementalWorkload.make(.chain, size: 12)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        let termsBefore = solver.recordTerms.count
        var random = TestRandom(seed: 77)
        for _ in 0..<300 {
            // A wish on some width at a level between the chain's own, added and taken back.
            let v = random.int(0...(workload.variableCount - 1))
            let wish = constraint([(v, 1)], -random.double(0...400), .equal, level: random.int(1...3))
            let handle = try solver.addConstraint(wish)
            try solver.removeConstraint(handle)
        }
        #expect(solver.recordTerms.count < termsBefore + 64, "removed records' terms were never compacted")
        var fresh = CassowarySolver()
        for c in workload.constraints { try fresh.addConstraint(c) }
        func matchesFresh() {
            for v in 0..<workload.variableCount {
                #expect(isClose(solver.value(of: Variable(v)), fresh.value(of: Variable(v)), tolerance: 1e-9), "v\(v)")
            }
        }
        matchesFresh()
        let rebuilt = solver.refactor()
        #expect(rebuilt)
        matchesFresh()
    }
}

@Suite struct DenseRebuildTests {
    /// The rebuild between calls (``CassowarySolver/refactorIfDenserThanConstraints(allowance:)``)
    /// judges the rebuilt rows before writing them. When it keeps them, every value and
    /// reduced cost is the solver's to the bit, both lists are empty and the rows are no
    /// longer than the constraints'; when it does not, the solver is as it was, row for row.
    ///
    /// Straight after the additions every workload's rebuild is kept; after a run of
    /// suggestions, whose updates leave values rounded along other paths, most are refused.
    @Test(arguments: IncrementalWorkload.Kind.allCases, [0, 40])
    func aKeptRebuildMovesNothingAndARefusedOneChangesNothing(_ kind: IncrementalWorkload.Kind, suggestions: Int) throws {
        let workload = IncrementalWorkload.make(kind, size: kind == .form ? 6 : 40)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        for edit in workload.edits { try solver.addEditVariable(edit.variable, strength: edit.strength) }
        for step in workload.suggestions.prefix(suggestions) {
            for (variable, value) in step { try solver.suggestValue(variable, value) }
        }
        let kept = try Self.rebuildExpectingNothingMoved(&solver, "\(kind)")
        #expect(kept, "\(kind): the rebuild after \(suggestions) suggestions was refused")
    }

    /// Chains through decimal multipliers (0.1, 0.3, 0.7, …) pulled by wishes at three levels:
    /// rows written by pivots sum their terms in another order than the constraints do, so
    /// some rebuilds would move a value by its last bit, and are refused.
    @Test func aRebuildThatWouldMoveALastBitIsRefused() throws {
        var random = TestRandom(seed: 11)
        var refused = 0
        var kept = 0
        for _ in 0..<60 {
            var solver = CassowarySolver()
            let count = 12
            for v in 1..<count {
                let multiplier = [0.1, 0.3, 0.7, 1.1, 3.0][random.int(0...4)]
                let from = random.int(0...(v - 1))
                try solver.addConstraint(constraint([(v, 1), (from, -multiplier)], -random.double(0...50), .equal))
            }
            for _ in 0..<8 {
                let v = random.int(0...(count - 1))
                let relation: Relation = random.chance(0.5) ? .equal : .greaterThanOrEqual
                try solver.addConstraint(constraint([(v, 1)], -random.double(0...100), relation, level: random.int(1...3)))
            }
            if try Self.rebuildExpectingNothingMoved(&solver, "random") { kept += 1 } else { refused += 1 }
        }
        #expect(refused > 0 && kept > 0, "kept \(kept), refused \(refused)")
    }

    /// Tries the rebuild and expects what it promises (see above); returns whether it kept it.
    static func rebuildExpectingNothingMoved(_ solver: inout CassowarySolver, _ label: String) throws -> Bool {
        let before = solver.tableau
        let keptBefore = solver.denseRefactorsKept
        let kept = solver.refactorIfDenserThanConstraints(allowance: -(1 << 40))
        let after = solver.tableau
        #expect(after.symbolCount == before.symbolCount)
        for symbol in 0..<before.symbolCount {
            #expect(after.symbols[symbol].isBasic == before.symbols[symbol].isBasic, "\(label) symbol \(symbol)")
            #expect(after.symbols[symbol].value.bitPattern == before.symbols[symbol].value.bitPattern, "\(label) symbol \(symbol)")
            #expect(after.reducedCosts[symbol] == before.reducedCosts[symbol], "\(label) symbol \(symbol)")
        }
        if kept {
            #expect(solver.denseRefactorsKept == keptBefore + 1)
            #expect(after.candidates.isEmpty && after.infeasible.isEmpty)
            #expect(after.termCount <= solver.originalTerms, "\(label): \(after.termCount) terms for \(solver.originalTerms)")
        } else {
            #expect(solver.denseRefactorsKept == keptBefore)
            for symbol in 0..<before.symbolCount where before.symbols[symbol].isBasic {
                #expect(after.row(symbol) == before.row(symbol), "\(label) symbol \(symbol)")
            }
        }
        after._checkInvariants()
        return kept
    }

    /// The factors solve the records for the basis: each definition evaluated at the solver's
    /// point gives its symbol's value (to rounding), and every basic symbol is defined once,
    /// the rank order naming only symbols defined before or non-basic ones.
    @Test(arguments: IncrementalWorkload.Kind.allCases)
    func theFactorsDefineEveryBasicSymbolInRankOrder(_ kind: IncrementalWorkload.Kind) throws {
        let workload = IncrementalWorkload.make(kind, size: kind == .form ? 6 : 40)
        var solver = CassowarySolver()
        for c in workload.constraints { try solver.addConstraint(c) }
        let factors = try #require(solver.factorBasis())
        let basics = (0..<solver.tableau.symbolCount).filter { solver.tableau.symbols[$0].isBasic }
        #expect(factors.definitions.map(\.symbol).sorted() == basics)
        var defined = Set<Int>()
        for index in factors.rankOrder() {
            let definition = factors.definitions[index]
            for position in definition.range {
                let named = factors.terms[position].symbol
                #expect(!solver.tableau.symbols[named].isBasic || defined.contains(named), "\(kind): \(definition.symbol) names \(named) before its definition")
            }
            defined.insert(definition.symbol)
            let value = factors.evaluate(definition, values: solver.tableau.symbols)
            #expect(isClose(value, solver.tableau.symbols[definition.symbol].value, tolerance: 1e-9), "\(kind) symbol \(definition.symbol)")
        }
    }
}
