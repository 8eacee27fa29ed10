import BackendContract
import LayoutModel

extension CassowarySolver {
    // MARK: Simplex

    private mutating func spend() throws(Failure) {
        guard metered else { return }
        if meter?.spend() == false { throw .budgetExceeded }
    }

    /// The iteration count after which ties are broken by Bland's rule (which cannot cycle),
    /// and the count after which the solver gives up.
    private var blandThreshold: Int { 64 + tableau.symbolCount }
    private var iterationLimit: Int { 10_000 + 20 * tableau.symbolCount }

    /// Primal simplex on the lexicographic objective, from a feasible basis.
    ///
    /// Many candidates at once (``EnteringQueue/minimumCandidates``) are kept in an
    /// ``EnteringQueue`` instead of being compared anew per pivot. The ratio test reads the
    /// entering column only up to its first degenerate block of rate at least 1 (the least
    /// ratio there is), except under Bland's rule: on a degenerate vertex the whole column is
    /// the entering symbol's forward cone (every chip after it in a row), while the block is
    /// its own row's other inequality.
    mutating func optimize() throws(Failure) {
        var iterations = 0
        var passedEntries = 0
        var queue: EnteringQueue?
        defer { if queue != nil { EnteringQueue.stopWatching(&tableau) } }
        while true {
            let bland = iterations > blandThreshold
            let chosen: Int?
            if !bland && (queue != nil || (queuesManyCandidates && tableau.candidates.count >= EnteringQueue.minimumCandidates)) {
                if queue == nil {
                    queue = EnteringQueue(watching: &tableau)
                    enteringQueuesBuilt &+= 1
                } else {
                    queue!.refresh(from: &tableau)
                }
                chosen = queue!.popBest(in: tableau)
            } else {
                chosen = chooseEntering(bland: bland)
            }
            guard let entering = chosen else { return }
            let direction = Double(tableau.improvingDirection(entering))
            let cutShort = !bland && !walksWholeEnteringColumns
            let column = cutShort
                ? tableau.column(of: entering, throughFirstDegenerateBlockMoving: direction)
                : tableau.column(of: entering)
            let pivotRow = primalPivotRow(
                entering: entering, direction: direction, column: column, cutShort: cutShort, bland: bland,
                passedEntries: &passedEntries)
            // A few entries per call are residue; dozens per pivot mean the rows no longer
            // agree with each other (entries of 130 against 20, of 1e28 against 25: `random`
            // at 3,000 and 5,000 views after pivots through 2⁻⁴⁰), and every answer read
            // from them would be wrong.
            if passedEntries > Self.passedEntryAllowance + iterations {
                throw .breakdown("primal simplex: the tableau's rows and columns disagree")
            }
            guard let (leaving, reduced) = pivotRow else {
                // An improving direction with nothing in the way cannot exist (errors are ≥ 0);
                // the reduced cost was rounding residue.
                tableau.removeCandidate(entering)
                continue
            }
            try takePivot(entering: entering, leaving: leaving, reduced: reduced, counting: &iterations, of: "primal")
            // A primal pivot keeps every row feasible, exactly; a row it left beyond its
            // rounding was missed by the ratio test (an entry that cancelled within rounding
            // in the column but not in the row). The dual simplex restores it before the
            // primal goes on (``reoptimize(_:)``): pivoting further from an infeasible point
            // reads its rows as blocking at step zero and jumps backwards through them.
            if !tableau.infeasible.isEmpty { return }
        }
    }

    /// One pivot of either simplex: taken, charged to the budget, counted against
    /// ``iterationLimit``, then the rows refactored if they have filled in.
    @inline(__always)
    private mutating func takePivot(
        entering: Int, leaving: Int, reduced: consuming Row, counting iterations: inout Int, of method: StaticString
    ) throws(Failure) {
        tableau.pivot(entering: entering, leaving: leaving, reducedLeavingRow: reduced)
        // A pivot entry of 2⁻⁴⁰ (a chain of forty multipliers 0.5) is a coefficient, and the
        // vertex it leads to may lie beyond Double's range; the values after it would be
        // infinities and NaNs that no comparison reads as infeasible.
        guard tableau.symbols[entering].value.isFinite else {
            throw .breakdown("\(method) simplex: a pivot moved a value beyond Double's range")
        }
        try spend()
        try count(&iterations, of: method)
        refactorIfFilled()
    }

    /// Counts an iteration of `method`'s simplex; throws once there have been more than
    /// ``iterationLimit`` (cycling or numerical breakdown).
    @inline(__always)
    private func count(_ iterations: inout Int, of method: StaticString) throws(Failure) {
        iterations += 1
        if iterations > iterationLimit { throw .breakdown("\(method) simplex did not converge") }
    }

    /// The candidate whose improving direction is lexicographically steepest: the strongest
    /// level first, the largest rate within it, and on a tie the next levels (so a direction
    /// that also costs something weaker loses to one that does not: taking the dearer one
    /// first would cost two more pivots to undo at the weaker level); with `bland`, the
    /// lowest-numbered candidate.
    private func chooseEntering(bland: Bool) -> Int? {
        if bland { return tableau.candidates.members.min() }
        // Read in place: a cost copied out of its array retains its tail's storage, per
        // candidate, per pivot (`long-row` compares hundreds of candidates per pivot).
        return tableau.reducedCosts.withUnsafeBufferPointer { costs in
            var best = -1
            var bestDirection = 0.0
            for symbol in tableau.candidates.members {
                let direction = Double(tableau.improvingDirection(symbol))
                if direction == 0 { continue }
                if best >= 0 {
                    let order = LexVector.compareWithEqualityShortcut(
                        costs[symbol], scaledBy: direction, costs[best], scaledBy: bestDirection)
                    if order > 0 || (order == 0 && symbol > best) { continue }
                }
                best = symbol
                bestDirection = direction
            }
            return best < 0 ? nil : best
        }
    }

    /// The row `entering` pivots on, with its reduced form, or nil when nothing blocks
    /// `entering` as it moves in `direction` (`column` is its column, cut short at its first
    /// degenerate block when `cutShort`): the primal ratio test's choice
    /// (``primalLeavingRow(in:direction:bland:excluding:)``), unless its pivot entry is
    /// residue, in which case the row does not block and the test runs again without it.
    ///
    /// An entry is residue when the row's reduced form (BTRAN) and the column (FTRAN) read it
    /// differently (``Tolerance/agree(_:_:)``): each walk drops what cancels within its own
    /// summands, so an entry of 1.019e-8 in a row of 38 that the column reads as 1.020e-8
    /// (`random`, 3,000 views) is a sum of drops, not a coefficient; pivoting on it moved the
    /// entering symbol by 1e12 and left values of 1e29. An entry both walks agree on is a
    /// coefficient, however small against its row: `x1/2 + 1e12·x0` pivots on the 0.5.
    private mutating func primalPivotRow(
        entering: Int, direction: Double, column: consuming [Term], cutShort: Bool, bland: Bool,
        passedEntries: inout Int
    ) -> (leaving: Int, reduced: Row)? {
        var column = column
        var cutShort = cutShort
        var passed: [Int] = []
        defer { tableau.recycle(column) }
        while true {
            let (leaving, alpha) = primalLeavingRow(in: column, direction: direction, bland: bland, excluding: passed)
            if leaving < 0 { return nil }
            let reduced = tableau.reduce(leaving)
            let entry = reduced.terms.first(where: { $0.symbol == entering })?.coefficient ?? 0
            if abs(entry) <= tableau.tolerance.pivot || !Tolerance.agree(entry, alpha) {
                tableau.recycle(reduced)
                passed.append(leaving)
                passedEntries += 1
                if cutShort {
                    // The rows past the first degenerate block were not read.
                    tableau.recycle(column)
                    column = tableau.column(of: entering)
                    cutShort = false
                }
                continue
            }
            return (leaving, reduced)
        }
    }

    /// How many pivot entries one primal simplex may pass as residue beyond one per pivot
    /// before it gives up (``primalPivotRow(entering:direction:column:cutShort:bland:passedEntries:)``).
    static let passedEntryAllowance = 64

    /// The primal ratio test: the basic symbol that blocks `entering` first as it moves in
    /// `direction` (its column is `column`) and its entry in the column, or -1 when nothing
    /// does; the symbols in `excluded` are passed over.
    ///
    /// Which symbols block, and where: ``Tableau/blockingRatio(of:rate:)``. Ratios within
    /// ``Tolerance/decision`` of each other tie, and ``winsTie(_:rate:over:rate:bland:)``
    /// breaks the tie.
    @inline(__always)
    private func primalLeavingRow(in column: [Term], direction: Double, bland: Bool, excluding excluded: [Int]) -> (symbol: Int, entry: Double) {
        var leaving = -1
        var entry = 0.0
        var bestRatio = Double.infinity
        var bestRate = 0.0
        for term in column {
            let symbol = term.symbol
            if !excluded.isEmpty && excluded.contains(symbol) { continue }
            let rate = term.coefficient * direction
            guard let ratio = tableau.blockingRatio(of: symbol, rate: rate) else { continue }
            let better: Bool
            // Ratios within the decision precision of each other tie (relative: a ratio
            // is a length along the entering symbol, in its own units).
            let tie = Tolerance.decision * bestRatio
            if leaving < 0 || ratio < bestRatio - tie {
                better = true
            } else if ratio <= bestRatio + tie {
                better = Self.winsTie(symbol, rate: rate, over: leaving, rate: bestRate, bland: bland)
            } else {
                better = false
            }
            if better {
                leaving = symbol
                entry = term.coefficient
                bestRatio = min(ratio, bestRatio)
                bestRate = rate
            }
        }
        return (leaving, entry)
    }

    /// The cost of entering non-basic `symbol`, whose rate in the leaving row is `rate`
    /// (signed so that a positive rate moves the row towards its bound): nil when it cannot
    /// enter. An external symbol may move either way at no cost; a slack or error only
    /// upwards, at its reduced cost; a dummy never (it is a required equality's marker).
    @inline(__always)
    private func enteringCost(of symbol: Int, rate: Double) -> LexVector? {
        switch tableau.symbols[symbol].kind {
        case .dummy, .retired: return nil
        case .external: return abs(rate) <= tableau.tolerance.pivot ? nil : LexVector()
        case .slack, .error: return rate <= tableau.tolerance.pivot ? nil : tableau.reducedCosts[symbol]
        }
    }

    /// The tie-break of both ratio tests, between candidates whose ratios (or costs per unit
    /// of rate) tie: the larger rate (the better-conditioned pivot), then the lower symbol;
    /// with `bland`, the lower symbol alone (Bland's rule, which cannot cycle).
    @inline(__always)
    private static func winsTie(_ symbol: Int, rate: Double, over incumbent: Int, rate incumbentRate: Double, bland: Bool) -> Bool {
        if bland { return symbol < incumbent }
        return abs(rate) > abs(incumbentRate) || (abs(rate) == abs(incumbentRate) && symbol < incumbent)
    }

    /// What a call changed: it decides what a row the dual simplex cannot restore means.
    enum Change {
        /// Nothing that can make the held required constraints infeasible (an optional row
        /// added, a constraint removed, an optional constant changed, a refactorisation): a
        /// row that cannot be restored is rounding residue, and is settled.
        case keepsRequiredFeasible
        /// A required row added (the id of its owner, whose record is not held yet; -1: none)
        /// or a required constant changed: a row that cannot be restored proves a conflict,
        /// unless it belongs to a held constraint and is within the rounding of that
        /// constraint's own numbers.
        case mayConflict(pending: Int)
    }

    /// Dual simplex, then primal, until the basis is feasible and optimal.
    ///
    /// Repeated because a primal pivot can carry a residue that one row held within its
    /// rounding into a row of smaller numbers, where it reads as a violation: a slack of
    /// `w >= 225.500000001` basic as `-1e-9 - s` once `w <= 225.5` leaves the basis.
    mutating func reoptimize(_ change: Change) throws(Failure) {
        for _ in 0..<Self.reoptimizeRounds {
            if !tableau.infeasible.isEmpty { try dualOptimize(change) }
            if tableau.candidates.isEmpty { return }
            try optimize()
            if tableau.infeasible.isEmpty { return }
        }
        // Still infeasible after this many rounds: residue chased back and forth. Settle it
        // without more primal pivots (the point is optimal up to the residue).
        try dualOptimize(change)
    }

    static let reoptimizeRounds = 64

    /// Dual simplex: from an optimal but infeasible basis to an optimal feasible one. When a
    /// row proves infeasibility (no symbol can move it towards its bound), the constraints
    /// whose markers appear in it are the explanation — unless `change` says it is rounding
    /// residue (``isResidue(_:after:)``), which is then settled (``settle(_:)``).
    mutating func dualOptimize(_ change: Change) throws(Failure) {
        let pending: Int
        switch change {
        case .keepsRequiredFeasible: pending = -1
        case .mayConflict(let owner): pending = owner
        }
        var iterations = 0
        while !tableau.infeasible.isEmpty {
            let bland = iterations > blandThreshold
            let leaving = dualLeavingRow(bland: bland)
            let reduced = tableau.reduce(leaving)
            let direction: Double = tableau.symbols[leaving].kind == .dummy && tableau.symbols[leaving].value > 0 ? -1 : 1
            let entering = dualEnteringColumn(in: reduced, direction: direction, bland: bland)
            if entering < 0 {
                guard isResidue(leaving, after: change) else {
                    throw .infeasible(explanation(of: leaving, reduced: reduced, pending: pending))
                }
                tableau.recycle(reduced)
                settle(leaving)
                try count(&iterations, of: "dual")
                continue
            }
            try takePivot(entering: entering, leaving: leaving, reduced: reduced, counting: &iterations, of: "dual")
        }
    }

    /// The dual simplex's leaving row: the most violated infeasible basic symbol (the lower
    /// symbol on a tie); with `bland`, the lowest-numbered one.
    @inline(__always)
    private func dualLeavingRow(bland: Bool) -> Int {
        var leaving = -1
        var worst = 0.0
        for symbol in tableau.infeasible {
            let violation = abs(tableau.symbols[symbol].value)
            if leaving < 0 || (bland ? symbol < leaving : violation > worst || (violation == worst && symbol < leaving)) {
                leaving = symbol
                worst = violation
            }
        }
        return leaving
    }

    /// The dual ratio test: the non-basic symbol that enters to bring `leaving` back towards
    /// its bound (`reduced` is its reduced row, `direction` the sign that moves it there)
    /// while keeping the basis optimal, or -1 when none can (the row proves infeasibility).
    ///
    /// Which symbols may enter, and at what cost: ``enteringCost(of:rate:)``. The smallest
    /// cost per unit of rate wins (compared lexicographically);
    /// ``winsTie(_:rate:over:rate:bland:)`` breaks a tie.
    @inline(__always)
    private func dualEnteringColumn(in reduced: Row, direction: Double, bland: Bool) -> Int {
        var entering = -1
        var enteringRate = 0.0
        var bestCost = LexVector()
        for term in reduced.terms {
            let symbol = term.symbol
            let rate = term.coefficient * direction
            guard let cost = enteringCost(of: symbol, rate: rate) else { continue }
            let better: Bool
            if entering < 0 {
                better = true
            } else {
                let order = LexVector.compare(
                    cost, scaledBy: 1 / abs(rate), bestCost, scaledBy: 1 / abs(enteringRate))
                better = order != 0 ? order < 0 : Self.winsTie(symbol, rate: rate, over: entering, rate: enteringRate, bland: bland)
            }
            if better {
                entering = symbol
                enteringRate = rate
                bestCost = cost
            }
        }
        return entering
    }

    /// Whether a basic symbol that the dual simplex cannot bring back to its bound is off it
    /// by rounding alone.
    ///
    /// After a change that keeps the required constraints feasible, always: they held before
    /// (each judged when it was added), and exactly they still do, so throwing would break
    /// the promise that optional rows are always accepted. After a change that may conflict,
    /// when the symbol is a marker of a held constraint (not the pending one) and its value is
    /// within ``Tolerance/decision`` of that constraint's own numbers at the current point
    /// (``ownMagnitude(_:)``). The row it is basic in is no measure: after a pivot it may be
    /// much smaller than the numbers its constant was computed from (`-1e-9 - s`, left from
    /// `225.5 - 225.500000001`).
    private func isResidue(_ symbol: Int, after change: Change) -> Bool {
        guard case .mayConflict(let pending) = change else { return true }
        let owner = tableau.symbols[symbol].owner
        guard owner != pending, owner >= 0, owner < records.count, let record = records[owner] else { return false }
        return abs(tableau.symbols[symbol].value) <= Tolerance.decision * ownMagnitude(record)
    }

    /// `|constant| + Σ |coefficient · value|` over a constraint's own terms (its markers
    /// left out: they are its residual) at the current point: the size of the numbers its
    /// residual is computed from, whatever the basis.
    func ownMagnitude(_ record: Record) -> Double {
        var sum = abs(record.constant)
        for index in record.start..<record.start + record.count {
            let symbol = recordTerms[index].symbol
            guard tableau.symbols[symbol].kind == .external, tableau.symbols[symbol].isBasic else { continue }
            sum += abs(recordTerms[index].coefficient * tableau.symbols[symbol].value)
        }
        return sum
    }

    /// Puts a basic restricted or dummy symbol on its bound by taking its value out of its
    /// row's constant (journaled), and refreshes the values downstream: the residue is
    /// treated as zero from now on, instead of being judged again against every row a later
    /// pivot moves it into.
    private mutating func settle(_ symbol: Int) {
        var row = tableau.row(symbol)
        row.constant -= tableau.symbols[symbol].value
        tableau.setRow(symbol, row, rank: tableau.symbols[symbol].rank)
        tableau.refreshValues(of: [symbol])
    }

    /// The required constraints named by a row that proves infeasibility: the owner of the
    /// row's basic symbol and of every marker in it. An optional constraint's slack and error
    /// enter such a row with opposite coefficients and would have offered a pivot, so only
    /// required markers remain.
    private func explanation(of leaving: Int, reduced: Row, pending: Int) -> [Int] {
        var owners = Set<Int>([pending])
        let pivotTolerance = tableau.tolerance.pivot
        func consider(_ symbol: Int) {
            let kind = tableau.symbols[symbol].kind
            guard kind == .slack || kind == .dummy else { return }
            let owner = tableau.symbols[symbol].owner
            if owner == pending || (owner >= 0 && owner < records.count && records[owner]?.strength.isRequired == true) {
                owners.insert(owner)
            }
        }
        consider(leaving)
        for term in reduced.terms where abs(term.coefficient) > pivotTolerance { consider(term.symbol) }
        return owners.sorted()
    }
}
