import BackendContract
import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

/// The ambiguity estimate stops walking a flat column once every direction is blocked at
/// step zero, and finds what blocked columns may move in one walk of their forward cones.
/// These tests hold it to the definition it replaces: each flat column computed whole.
@Suite struct AmbiguityEstimateTests {
    /// The definition: a step of positive length along `symbol` in some direction, read off
    /// the whole column; and the external symbols that column moves.
    static func wholeColumn(_ tableau: inout Tableau, _ symbol: Int) -> (movable: Bool, reached: Set<Int>) {
        let kind = tableau.symbols[symbol].kind
        let directions: [Double] = kind == .external ? [1, -1] : [1]
        let column = tableau.column(of: symbol)
        let pivotTolerance = tableau.tolerance.pivot
        let movable = directions.contains { direction in
            var step = Double.infinity
            for term in column {
                let rate = term.coefficient * direction
                switch tableau.symbols[term.symbol].kind {
                case .dummy:
                    if abs(rate) > pivotTolerance { step = 0 }
                case .slack, .error:
                    if rate < -pivotTolerance {
                        let value = tableau.symbols[term.symbol].value
                        let room = value > 0 && tableau.isBeyondRounding(value, of: term.symbol) ? value : 0
                        step = min(step, room / -rate)
                    }
                case .external, .retired:
                    break
                }
            }
            return step > 0
        }
        var reached: Set<Int> = kind == .external ? [symbol] : []
        for term in column where tableau.symbols[term.symbol].kind == .external && abs(term.coefficient) > pivotTolerance {
            reached.insert(term.symbol)
        }
        return (movable, reached)
    }

    /// Solvers at the end of a one-shot solve of generated layouts (several families, sizes
    /// and seeds), degenerate vertices included.
    static func solvers(
        families: [String] = ["table-cells", "centered", "form", "equal-spacing", "equal-hugging", "hugging-contest", "random", "cassowary-benchmark"]
    ) -> [(name: String, solver: CassowarySolver)] {
        var result: [(String, CassowarySolver)] = []
        for name in families {
            guard let family = Families.named(name) else { continue }
            for (size, seed) in [(3, UInt64(1)), (12, 2), (40, 3)] {
                let system = generate(family: family, size: size, seed: seed).system
                guard let linear = CassowaryBackend.lower(system) else { continue }
                var solver = CassowarySolver()
                for row in CassowaryBackend.additionOrder(linear) { _ = try? solver.addConstraint(LinearConstraint(row)) }
                result.append(("\(name) n\(size) s\(seed)", solver))
            }
        }
        return result
    }

    @Test func earlyStopDecidesEveryFlatColumnAsTheWholeColumnDoes() throws {
        var flatColumns = 0, blockedColumns = 0
        for (name, solver) in Self.solvers() {
            var tableau = solver.tableau
            var expectedMarked = Set<Int>(), expectedBlocked = Set<Int>()
            for symbol in 0..<tableau.symbolCount where !tableau.symbols[symbol].isBasic {
                let kind = tableau.symbols[symbol].kind
                guard kind == .external || kind == .slack || kind == .error, tableau.reducedCosts[symbol].isZero else { continue }
                guard !(kind == .external && tableau.users.isEmpty(symbol)) else { continue }
                flatColumns += 1
                let whole = Self.wholeColumn(&tableau, symbol)
                var reached: [Int] = []
                var coneMagnitudes = SymbolMemo()
                let movable = tableau.isMovable(alongFlat: symbol, reached: &reached, coneMagnitudes: &coneMagnitudes)
                #expect(movable == whole.movable, "\(name): symbol \(symbol)")
                if movable {
                    #expect(Set(reached).union(kind == .external ? [symbol] : []) == whole.reached, "\(name): symbol \(symbol)")
                    expectedMarked.formUnion(whole.reached)
                } else {
                    blockedColumns += 1
                    expectedBlocked.formUnion(whole.reached)
                }
            }
            // What the whole columns leave undecided is undecided in the estimate too (which
            // may add variables a cancelling coefficient kept out of a column).
            let estimate = solver.ambiguityEstimate()
            let variable = { (symbol: Int) in Variable(tableau.symbols[symbol].owner) }
            #expect(Set(estimate.ambiguous) == Set(expectedMarked.map(variable)), "\(name)")
            #expect(Set(expectedBlocked.subtracting(expectedMarked).map(variable)).isSubset(of: Set(estimate.undecided)), "\(name)")
        }
        // The cases exercise both outcomes.
        #expect(flatColumns > 100)
        #expect(blockedColumns > 10)
        #expect(blockedColumns < flatColumns)
    }
}

/// The probes' work limit (``CassowaryBackend/ambiguityProbeWorkFloor``) spares large
/// layouts whose probes would each walk the whole tableau; below the floor it must change
/// nothing, so the fuzzer's answers on layouts of generated sizes are those of unlimited probes.
@Suite struct ProbeWorkLimitTests {
    @Test(arguments: ["form", "table-cells", "equal-spacing", "equal-hugging", "centered", "ambiguous"])
    func belowTheFloorTheProbesAreThoseOfNoLimit(_ familyName: String) throws {
        let family = try #require(Families.named(familyName))
        for (size, seed) in [(5, UInt64(1)), (20, 2), (60, 3)] {
            let system = generate(family: family, size: size, seed: seed).system
            let limited = try CassowaryBackend().solve(system, budget: .unlimited).solution
            let unlimited = try CassowaryBackend(ambiguityProbeWorkFloor: .max).solve(system, budget: .unlimited).solution
            #expect(limited == unlimited, "\(familyName) n\(size) s\(seed)")
        }
    }
}

/// One pull on a weighted sum of the undecided variables (``CassowarySolver/noneMovesOnOptimalSet(_:probeLevel:)``)
/// stands in for their own probes when nothing moves; it must never say "nothing moves"
/// where one of their own probes finds a move.
@Suite struct BatchProbeTests {
    @Test func aSumThatStaysPutMeansEveryOwnProbeFindsNothing() throws {
        var batchesStill = 0, batchesMoving = 0
        // The estimate's families, and those where what it leaves undecided does move.
        let families = ["table-cells", "centered", "form", "equal-spacing", "equal-hugging", "hugging-contest", "random",
                        "cassowary-benchmark", "degenerate-cones", "ambiguous", "reciprocal-multipliers"]
        for (name, solver) in AmbiguityEstimateTests.solvers(families: families) {
            let undecided = solver.ambiguityEstimate().undecided
            guard undecided.count > 1 else { continue }
            let probeLevel = 1_000
            var probe = solver
            let still = probe.noneMovesOnOptimalSet(undecided, probeLevel: probeLevel)
            let moving = undecided.filter { !solver.movesOnOptimalSet($0, probeLevel: probeLevel).isEmpty }
            if still {
                batchesStill += 1
                #expect(moving.isEmpty, "\(name): the sum stayed put, yet \(moving) move")
            } else {
                batchesMoving += 1
            }
            // The pull is rolled back: the solver answers as before.
            #expect(probe.tableau.symbolCount == solver.tableau.symbolCount, "\(name)")
            for variable in undecided { #expect(probe.value(of: variable) == solver.value(of: variable), "\(name)") }
        }
        // The cases exercise both outcomes.
        #expect(batchesStill > 0)
        #expect(batchesMoving > 0, "\(batchesStill) sums stayed put, none moved")
    }

    /// The pulls' systems: those of 12 families whose estimate leaves more than one variable
    /// undecided, with those variables.
    static func undecidedSystems() -> [(name: String, solver: CassowarySolver, undecided: [Variable])] {
        let families = ["table-cells", "aspect-images", "centered", "form", "equal-spacing", "equal-hugging", "hugging-contest",
                        "random", "cassowary-benchmark", "degenerate-cones", "ambiguous", "reciprocal-multipliers"]
        return AmbiguityEstimateTests.solvers(families: families).compactMap { name, solver in
            let undecided = solver.ambiguityEstimate().undecided
            return undecided.count > 1 ? (name, solver, undecided) : nil
        }
    }

    /// The pull's ratio tests stop at the first well-conditioned row that blocks at step
    /// zero: another path to the same optimum of the sum, so the same answer as whole
    /// columns, with fewer row terms read where the vertex is degenerate.
    @Test func shortColumnWalksAnswerAsWholeOnes() throws {
        var compared = 0, shorter = 0
        for (name, solver, undecided) in Self.undecidedSystems() {
            var short = solver, whole = solver
            let shortStart = short.tableau.termsRead, wholeStart = whole.tableau.termsRead
            let shortAnswer = short.noneMovesOnOptimalSet(undecided, probeLevel: 1_000, shortWalks: true)
            let wholeAnswer = whole.noneMovesOnOptimalSet(undecided, probeLevel: 1_000, shortWalks: false)
            #expect(shortAnswer == wholeAnswer, "\(name)")
            #expect(!whole.walksWholeEnteringColumns, "\(name): the whole walks end with the pull")
            compared += 1
            if short.tableau.termsRead &- shortStart < whole.tableau.termsRead &- wholeStart { shorter += 1 }
        }
        #expect(compared > 0)
        #expect(shorter > 0, "no pull of \(compared) read fewer terms with short walks")
    }

    /// The pull on the flat columns under the sum says "stays put" only where the pulls on
    /// the sum itself say so too (a move of the sum moves one of its flat columns), and
    /// answers as they do on most systems (where its columns move but the sum does not, the
    /// variables' own probes decide).
    @Test func theFlatColumnPullAgreesWithThePullsOnTheSum() throws {
        var bothStill = 0, bothMoving = 0, onlySumStill = 0
        for (name, solver, undecided) in Self.undecidedSystems() {
            var columns = solver, sum = solver
            let columnsStill = columns.noneMovesOnOptimalSet(undecided, probeLevel: 1_000, shortWalks: true)
            let sumStill = sum.noneMovesOnOptimalSet(undecided, probeLevel: 1_000, shortWalks: true, flatColumns: false)
            if columnsStill { #expect(sumStill, "\(name): the flat columns stayed put, yet the sum moved") }
            switch (columnsStill, sumStill) {
            case (true, true): bothStill += 1
            case (false, false): bothMoving += 1
            case (false, true): onlySumStill += 1
            case (true, false): break
            }
            // Rolled back: the solver answers as before.
            #expect(columns.tableau.symbolCount == solver.tableau.symbolCount, "\(name)")
            for variable in undecided { #expect(columns.value(of: variable) == solver.value(of: variable), "\(name)") }
        }
        #expect(bothStill > 0 && bothMoving > 0, "\(bothStill) still, \(bothMoving) moving")
        #expect(onlySumStill <= (bothStill + bothMoving) / 10, "\(onlySumStill) sums stayed put while their columns moved")
    }

    /// The apex of the cone `x, y ≥ 0, x ≤ 2y, y ≤ 2x`: each column alone is blocked at step
    /// zero, yet the two move together; the sum moves, and each own probe finds it.
    @Test func theConesApexMovesTogether() throws {
        let x = Variable(0), y = Variable(1)
        var solver = CassowarySolver()
        try solver.addConstraint(LinearConstraint([.init(x, 1)], relation: .greaterThanOrEqual))
        try solver.addConstraint(LinearConstraint([.init(y, 1)], relation: .greaterThanOrEqual))
        try solver.addConstraint(LinearConstraint([.init(x, 1), .init(y, -2)], relation: .lessThanOrEqual))
        try solver.addConstraint(LinearConstraint([.init(y, 1), .init(x, -2)], relation: .lessThanOrEqual))
        var probe = solver
        let still = probe.noneMovesOnOptimalSet([x, y], probeLevel: 1)
        #expect(!still)
        #expect(!solver.movesOnOptimalSet(x, probeLevel: 1).isEmpty)
        let found = probe.probeUndecided([x, y], known: { _ in false }, probeLevel: 1, limit: 64)
        #expect(found == [x, y])
    }

    /// Two views pinned by required equalities: nothing moves, and one pull says so.
    @Test func pinnedVariablesStayPut() throws {
        let x = Variable(0), y = Variable(1)
        var solver = CassowarySolver()
        try solver.addConstraint(LinearConstraint([.init(x, 1)], constant: -10, relation: .equal))
        try solver.addConstraint(LinearConstraint([.init(y, 1), .init(x, -1)], constant: -5, relation: .equal))
        var probe = solver
        let still = probe.noneMovesOnOptimalSet([x, y], probeLevel: 1)
        #expect(still)
        let found = probe.probeUndecided([x, y], known: { _ in false }, probeLevel: 1, limit: 64)
        #expect(found.isEmpty)
    }
}
