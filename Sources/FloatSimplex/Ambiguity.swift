import BackendContract
import LayoutModel
import SeededRandom

extension CassowarySolver {
    /// Variables that the final tableau shows can move without changing the objective: an
    /// estimate of the unknowns that are not determined (spec §5).
    ///
    /// A non-basic symbol whose reduced cost is zero at every level is a direction along which
    /// the objective is flat. If a step of positive length is possible along it (restricted
    /// symbols only grow; free ones either way) before some restricted basic symbol hits zero,
    /// the external variables it moves, itself included, are marked ambiguous. Variables named
    /// by no constraint are ambiguous too.
    ///
    /// Limits: it looks at one column at a time from one optimal vertex. At a degenerate
    /// vertex a flat direction may be blocked at step zero although a different basis of the
    /// same point would show it (a false "determined"); a movement that only a combination of
    /// columns can make is also missed. Reduced costs and steps are compared against the
    /// tolerances, so near-flat directions are decided by the epsilon policy. The exact
    /// backend decides; this one estimates. ``ambiguityEstimate()`` also names the variables
    /// this test leaves undecided, which ``movesOnOptimalSet(_:probeLevel:)`` can settle.
    public func ambiguousVariables() -> [Variable] { ambiguityEstimate().ambiguous }

    /// The one-column estimate of ``ambiguousVariables()``, and the variables it leaves
    /// undecided: those (not marked) downstream of a flat column that a degenerate row
    /// blocks at step zero, whatever the column's coefficients on them. At a degenerate
    /// vertex (the apex of a cone `x, y ≥ 0, x ≤ 2y, y ≤ 2x`) every single column is
    /// blocked, yet a combination of them moves.
    public func ambiguityEstimate() -> (ambiguous: [Variable], undecided: [Variable]) {
        // Without a deadline the estimate always finishes.
        ambiguityEstimate(deadline: nil)!
    }

    /// ``ambiguityEstimate()``, or nil once the clock passes `deadline` (read every 64 flat
    /// columns): on a tableau whose rows are as long as the layout a column can walk all of
    /// it, and the one-shot solve's budget covers its estimate too.
    func ambiguityEstimate(deadline: ContinuousClock.Instant?) -> (ambiguous: [Variable], undecided: [Variable])? {
        var copy = self
        return copy.ambiguityEstimateInPlace(deadline: deadline)
    }

    /// ``ambiguityEstimate(deadline:)`` on this solver's own tableau, for a caller that owns
    /// the solver (the one-shot solve). The walks write only the tableau's scratch marks
    /// (epochs, the walk's heap), never a row, value or reduced cost; on a copy the first
    /// mark copied every symbol.
    mutating func ambiguityEstimateInPlace(deadline: ContinuousClock.Instant?) -> (ambiguous: [Variable], undecided: [Variable])? {
        // Moved out and back, not copied: the walks below mutate it.
        var scratch = Tableau()
        swap(&scratch, &tableau)
        defer { swap(&scratch, &tableau) }
        var flatColumns = 0
        // Membership by symbol index (flags and the list of members): a `Set<Int>` hashed
        // every reached symbol, 1 M instructions of `aspect-images`' 4 M estimate at 1,000 views.
        var isMarked = [Bool](repeating: false, count: scratch.symbolCount)
        var marked: [Int] = []
        func mark(_ symbol: Int) {
            if !isMarked[symbol] {
                isMarked[symbol] = true
                marked.append(symbol)
            }
        }
        // Flat columns blocked at step zero in every direction: what they reach is undecided.
        var blockedSources: [Int] = []
        var reached: [Int] = []
        // The scratch tableau's rows and values stay as they are: the rounding checks of all
        // flat columns share one memo of cone magnitudes.
        var coneMagnitudes = SymbolMemo()
        for symbol in 0..<scratch.symbolCount where !scratch.symbols[symbol].isBasic {
            let kind = scratch.symbols[symbol].kind
            switch kind {
            case .external, .slack, .error: break
            case .dummy, .retired: continue
            }
            #if LAYOUTBENCH_FAULTS
            let misread = kind == .slack && PlantedFault.isActive(.floatUpperBoundAmbiguity)
                && records.indices.contains(scratch.symbols[symbol].owner)
                && records[scratch.symbols[symbol].owner]?.relation == .lessThanOrEqual
                && records[scratch.symbols[symbol].owner]?.strength.isRequired == true
            #else
            let misread = false
            #endif
            guard misread || scratch.reducedCosts[symbol].isZero || scratch.hasResidueCost(symbol) else { continue }
            if kind == .external && scratch.users.isEmpty(symbol) {
                mark(symbol)
                continue
            }
            flatColumns += 1
            if let deadline, flatColumns % 64 == 0, ContinuousClock.now > deadline { return nil }
            reached.removeAll(keepingCapacity: true)
            if scratch.isMovable(alongFlat: symbol, reached: &reached, coneMagnitudes: &coneMagnitudes) {
                if kind == .external { mark(symbol) }
                for symbol in reached { mark(symbol) }
            } else {
                blockedSources.append(symbol)
            }
        }
        // The external symbols a blocked column may move: the blocked external symbols and
        // the external basic symbols downstream of any blocked column. A superset of what the
        // columns themselves reach (a coefficient that cancels, a width between two edges that
        // both move, still counts), found in one walk instead of one whole column each.
        var isBlocked = [Bool](repeating: false, count: scratch.symbolCount)
        var undecided: [Int] = []
        func block(_ symbol: Int) {
            if !isBlocked[symbol] && !isMarked[symbol] {
                isBlocked[symbol] = true
                undecided.append(symbol)
            }
        }
        for source in blockedSources where scratch.symbols[source].kind == .external { block(source) }
        for symbol in scratch.forwardCone(of: blockedSources) where scratch.symbols[symbol].kind == .external {
            block(symbol)
        }
        return (Self.variablesInOrder(owning: marked, in: scratch), Self.variablesInOrder(owning: undecided, in: scratch))
    }

    /// The variables owning external `symbols` (each owned once), in index order: read off
    /// flags by index, where sorting a thousand variables cost a fifth of the estimate.
    private static func variablesInOrder(owning symbols: [Int], in tableau: Tableau) -> [Variable] {
        guard let largest = symbols.lazy.map({ tableau.symbols[$0].owner }).max() else { return [] }
        let smallest = symbols.lazy.map { tableau.symbols[$0].owner }.min() ?? 0
        guard smallest >= 0, largest < 4 * symbols.count + 64 else {
            // Negative or sparse owners (any `Int` names a variable): sorting is cheaper than flags.
            return symbols.map { Variable(tableau.symbols[$0].owner) }.sorted()
        }
        var owned = [Bool](repeating: false, count: largest + 1)
        for symbol in symbols { owned[tableau.symbols[symbol].owner] = true }
        var variables: [Variable] = []
        variables.reserveCapacity(symbols.count)
        for (index, isOwned) in owned.enumerated() where isOwned { variables.append(Variable(index)) }
        return variables
    }

    /// The variables that move, `variable` among them, when a probe at `probeLevel` (weaker
    /// than every level in use) pulls `variable` up, then down, by the larger of 1, its value
    /// and the system's value scale; empty when it moves neither way by more than the
    /// feasibility tolerance and a millionth of the pull.
    ///
    /// A constraint weaker than all others cannot buy a better value at any stronger level,
    /// so the probe moves only along the lexicographically optimal set: a move shows the
    /// variable is not determined. A move within the tolerances is not one: where values
    /// reach 1e9, an equality whose sides differ by 1 already holds to the solver, and
    /// sliding along such slack is no freedom of the layout. The solver is unchanged (the
    /// probes run on a copy; ``probeMovesOnOptimalSet(_:probeLevel:)`` needs none).
    public func movesOnOptimalSet(_ variable: Variable, probeLevel: Int) -> [Variable] {
        var probe = self
        return probe.probeMovesOnOptimalSet(variable, probeLevel: probeLevel)
    }

    /// ``movesOnOptimalSet(_:probeLevel:)`` without copying the solver: each probe is added
    /// inside an attempt and rolled back like a rejected constraint, so it costs what it
    /// changes, not the size of the tableau (a copy per probe made the probes of a one-shot
    /// solve most of its time on layouts with many degenerate rows). Afterwards the solver
    /// holds the same rows, values, reduced costs and pivot count as before; only the
    /// suggestions' cached FTRAN columns are dropped.
    public mutating func probeMovesOnOptimalSet(_ variable: Variable, probeLevel: Int) -> [Variable] {
        guard let own = symbol(of: variable) else { return [variable] }
        let current = value(of: variable)
        let step = max(1, abs(current), tableau.tolerance.valueScale)
        let threshold = max(tableau.tolerance.feasibility, 1e-6 * step)
        for (relation, target) in [(Relation.greaterThanOrEqual, current + step), (.lessThanOrEqual, current - step)] {
            let constraint = LinearConstraint(
                [.init(variable, 1)], constant: -target, relation: relation, strength: Strength(level: probeLevel))
            guard let probed = rolledBackProbe(constraint, reading: [(own, 1)]) else { continue }
            guard abs(probed.value - current) > threshold else { continue }
            // Only symbols whose row or value the attempt journaled can read differently.
            var moved: [Variable] = []
            for (symbol, value) in probed.changed where abs(value - self.value(ofSymbol: symbol)) > threshold {
                moved.append(Variable(tableau.symbols[symbol].owner))
            }
            return moved.isEmpty ? [variable] : moved
        }
        return []
    }

    /// Whether none of `variables` moves on the optimal set, found by one pull (up, then
    /// down) on a weighted sum of them all at `probeLevel`, weaker than every level in use.
    /// `false` says only that something may move: each variable's own probe
    /// (``probeMovesOnOptimalSet(_:probeLevel:)``) must then tell which.
    ///
    /// At a degenerate vertex the estimate leaves many variables undecided that nothing
    /// moves (every one of a stack's cells below a blocked row), and their own probes, two
    /// each, were most of a one-shot solve of 100 table cells (11 of its 14 M instructions).
    /// A direction of the optimal set that moves some of the variables moves the sum unless
    /// it is orthogonal to the weights; the weights are generic (the project's seeded
    /// generator, a fixed seed, in [1, 2)), which makes that a coincidence of measure zero.
    /// The threshold is the smallest of the variables' own probe thresholds, so a move one of
    /// their probes would report moves the sum past it (weights are at least 1).
    ///
    /// The pull reads only the sum's optimum, which does not depend on the pivots that reach
    /// it, so its ratio tests take the first well-conditioned row that blocks at step zero
    /// instead of walking each entering column whole
    /// (``Tableau/column(of:throughFirstDegenerateBlockMoving:)``): at the degenerate vertex
    /// of a stack of cells that walk was most of the pull (`aspect-images`, 1,000 views: 4.8
    /// of 33 M instructions; now 0.7). `shortWalks` false walks them whole (for the tests
    /// that compare the two).
    public mutating func noneMovesOnOptimalSet(_ variables: [Variable], probeLevel: Int) -> Bool {
        noneMovesOnOptimalSet(variables, probeLevel: probeLevel, shortWalks: true)
    }

    /// `flatColumns` false skips ``pullOnFlatColumns(of:probeLevel:threshold:)`` and pulls the
    /// sum itself (for the tests that compare the two).
    mutating func noneMovesOnOptimalSet(
        _ variables: [Variable], probeLevel: Int, shortWalks: Bool, flatColumns: Bool = true
    ) -> Bool {
        var generator = SeededGenerator(seed: Self.probeWeightSeed)
        var sum: [(symbol: Int, weight: Double)] = []
        var terms: [LinearConstraint.Term] = []
        var current = 0.0
        var smallestMagnitude = Double.infinity
        sum.reserveCapacity(variables.count)
        terms.reserveCapacity(variables.count)
        for variable in variables {
            guard let own = symbol(of: variable) else { return false }
            let weight = 1 + generator.unitInterval()
            let value = value(of: variable)
            sum.append((own, weight))
            terms.append(.init(variable, weight))
            current += weight * value
            smallestMagnitude = min(smallestMagnitude, abs(value))
        }
        guard !terms.isEmpty else { return true }
        walksWholeEnteringColumns = !shortWalks
        defer { walksWholeEnteringColumns = false }
        let step = max(1, abs(current), tableau.tolerance.valueScale)
        let threshold = max(tableau.tolerance.feasibility, 1e-6 * max(1, smallestMagnitude, tableau.tolerance.valueScale))
        if flatColumns, let settled = pullOnFlatColumns(of: sum, probeLevel: probeLevel, threshold: threshold) {
            return settled
        }
        for (relation, target) in [(Relation.greaterThanOrEqual, current + step), (.lessThanOrEqual, current - step)] {
            let constraint = LinearConstraint(terms, constant: -target, relation: relation, strength: Strength(level: probeLevel))
            guard let probed = rolledBackProbe(constraint, reading: sum) else { return false }
            if abs(probed.value - current) > threshold { return false }
        }
        return true
    }

    /// Whether the weighted `sum` stays put on the optimal set, settled by one pull on the flat
    /// columns it rests on instead of two on the sum itself; nil when one of them is an
    /// external symbol (free both ways: the caller pulls the sum up and down).
    ///
    /// Reduced to non-basic symbols, the sum moves only if one of its non-basic symbols does,
    /// and on the optimal set only flat ones can (any other costs at some level, and a
    /// required equality's marker stays at 0). Flat slack and error columns sit at 0 and can
    /// only grow, so pulling their plain total up shows whether any of them moves: if none
    /// does, neither does the sum (true); if one does, the sum may still not (its columns'
    /// moves can cancel on the variables), and false sends the caller to each variable's own
    /// probe, which decides. No flat column at all: nothing moves, and nothing is added.
    ///
    /// Cheaper than the pulls on the sum: one reduction of the sum, then one row over
    /// non-basic symbols (nothing to substitute) added once; the sum's two pulls each
    /// substituted the rows of up to 64 variables (100 views of `aspect-images`: 0.69 M
    /// instructions, a quarter of the one-shot solve).
    private mutating func pullOnFlatColumns(
        of sum: [(symbol: Int, weight: Double)], probeLevel: Int, threshold: Double
    ) -> Bool? {
        let reduced = tableau.reduce(expression: sum.map { Term($0.symbol, $0.weight) })
        var columns: [Term] = []
        // The sum's largest coefficient on them: a move of their total by t moves the sum by
        // at most that times t.
        var largest = 1.0
        var external = false
        for term in reduced.terms {
            let symbol = term.symbol
            guard tableau.reducedCosts[symbol].isZero || tableau.hasResidueCost(symbol) else { continue }
            switch tableau.symbols[symbol].kind {
            case .slack, .error:
                columns.append(Term(symbol, 1))
                largest = max(largest, abs(term.coefficient))
            case .external: external = true
            case .dummy, .retired: continue
            }
        }
        tableau.recycle(reduced)
        if external { return nil }
        guard !columns.isEmpty else { return true }
        let step = max(1, tableau.tolerance.valueScale)
        let pull = ProbeRow.symbols(columns, constant: -step, relation: .greaterThanOrEqual, strength: Strength(level: probeLevel))
        guard let probed = rolledBackProbe(pull, reading: columns.map { ($0.symbol, 1) }) else { return false }
        return probed.value <= threshold / largest
    }

    /// The seed of ``noneMovesOnOptimalSet(_:probeLevel:)``'s weights (any fixed value: the
    /// answer must not depend on it).
    static let probeWeightSeed: UInt64 = 0x5EED_0F_A3B1_9017

    /// The variables of `undecided` (the estimate's, in its order) and those they drag along
    /// that probes find moving on the optimal set: first one pull on all of them together
    /// (``noneMovesOnOptimalSet(_:probeLevel:)``), and only when that moves, each one's own
    /// probe, for the first `limit` not already `known` ambiguous or found moving, while the
    /// probes have read fewer than `workLimit` row terms (``Tableau/termsRead``).
    ///
    /// The one-shot solve and the sequence driver's passes both settle the estimate this way.
    mutating func probeUndecided(
        _ undecided: [Variable], known: (Variable) -> Bool, probeLevel: Int, limit: Int, workLimit: Int = .max
    ) -> Set<Variable> {
        let probed = undecided.prefix(limit).filter { !known($0) }
        var found = Set<Variable>()
        guard !probed.isEmpty else { return found }
        let workStart = tableau.termsRead
        if probed.count > 1 && noneMovesOnOptimalSet(probed, probeLevel: probeLevel) { return found }
        for variable in probed where !found.contains(variable) {
            guard tableau.termsRead &- workStart < workLimit else { break }
            found.formUnion(probeMovesOnOptimalSet(variable, probeLevel: probeLevel))
        }
        return found
    }

    /// A symbol's value as ``value(of:)`` reads it: its row's value when basic, else 0.
    private func value(ofSymbol symbol: Int) -> Double {
        tableau.symbols[symbol].isBasic ? tableau.symbols[symbol].value : 0
    }

    /// Adds `constraint` as ``addConstraint(_:)`` would, reads the weighted `sum` of symbols'
    /// values (one symbol of weight 1: its value, exactly) and every external symbol the
    /// attempt touched (journaled row or value, each once, with its value then), and rolls
    /// everything back; nil when the addition fails.
    private mutating func rolledBackProbe(
        _ constraint: LinearConstraint, reading sum: [(symbol: Int, weight: Double)]
    ) -> (value: Double, changed: [(symbol: Int, value: Double)])? {
        rolledBackProbe(.constraint(constraint), reading: sum)
    }

    /// What a probe adds: a constraint over variables, or a row over symbols (the pull on
    /// flat slack and error columns, which no variable names).
    private enum ProbeRow {
        case constraint(LinearConstraint)
        case symbols([Term], constant: Double, relation: Relation, strength: Strength)
    }

    private mutating func rolledBackProbe(
        _ probe: ProbeRow, reading sum: [(symbol: Int, weight: Double)]
    ) -> (value: Double, changed: [(symbol: Int, value: Double)])? {
        // What the journal does not restore: a copy's budget meter and counters were its own.
        let savedMeter = meter
        let savedPivots = tableau.pivots
        let savedSmallPivot = (tableau.sawSmallPivot, tableau.everSawSmallPivot)
        defer {
            meter = savedMeter
            tableau.pivots = savedPivots
            tableau.sawSmallPivot = savedSmallPivot.0
            tableau.everSawSmallPivot = savedSmallPivot.1
        }
        beginCall()
        let checkpoint = tableau.beginAttempt()
        let recordTermCount = recordTerms.count
        let owner = freeRecords.last ?? records.count
        let succeeded: Bool
        switch probe {
        case .constraint(let constraint):
            succeeded = (try? insert(
                constraint.terms, constant: constraint.constant, relation: constraint.relation,
                strength: constraint.strength, owner: owner)) != nil
        case .symbols(let terms, let constant, let relation, let strength):
            // What `insert` does before it hands over the row.
            tableau.tolerance.include(value: constant)
            for term in terms { tableau.tolerance.include(coefficient: term.coefficient) }
            let start = recordTerms.count
            recordTerms.append(contentsOf: terms)
            succeeded = (try? insertRecorded(
                from: start, constant: constant, relation: relation, strength: strength, owner: owner)) != nil
        }
        var read: (value: Double, changed: [(symbol: Int, value: Double)])?
        if succeeded {
            var changed: [(symbol: Int, value: Double)] = []
            var seen = Set<Int>()
            for entry in tableau.journal[..<tableau.journalLength] {
                let touched: Int
                switch entry {
                case .row(let symbol, _, _, _, _, _): touched = symbol
                case .value(let symbol, _): touched = symbol
                case .reducedCost, .spilledReducedCost, .reducedCostEntry: continue
                }
                if tableau.symbols[touched].kind == .external && seen.insert(touched).inserted {
                    changed.append((touched, value(ofSymbol: touched)))
                }
            }
            var total = 0.0
            for (symbol, weight) in sum { total += weight * value(ofSymbol: symbol) }
            read = (total, changed)
        }
        abandonAttempt(at: checkpoint, recordTermCount: recordTermCount)
        return read
    }

    /// Whether the solver has ever seen `variable` in a constraint it holds or held.
    public func knows(_ variable: Variable) -> Bool { symbol(of: variable) != nil }
}
