import BackendContract
import LayoutModel

/// The incremental Cassowary solver (Badros, Borning & Stuckey, ACM TOCHI 2001) in `Double`,
/// with true lexicographic priorities.
///
/// In the spirit of kiwi's `Solver`: add and remove constraints, make variables editable and
/// suggest values for them; after every call the values are those of a lexicographically
/// optimal point (spec §5) of the constraints added so far. Differences from kiwi:
///
/// - Strengths are levels compared lexicographically (``Strength``), never packed into one
///   number, so no amount of weaker error buys any stronger error.
/// - A required constraint that cannot hold is rejected with its conflict set and leaves no
///   trace: every change the attempt made is undone from a journal, so the solver is
///   exactly as before (rows, values, reduced costs).
/// - The tableau is kept in triangular form (see `Tableau`), so chains and trees of views do
///   not grow rows as long as the chain.
/// - An edit variable starts at its current value, not at 0.
///
/// `CassowarySolver` is a value type: copying it copies the whole state (lazily, by the
/// standard library's copy-on-write arrays).
public struct CassowarySolver: Sendable {
    struct Record: Sendable {
        var constraint: LinearConstraint
        /// The constraint over symbols, markers included: `Σ terms + constant = 0` (what a
        /// refactorisation starts from), its terms at `recordTerms[start ..< start + count]`
        /// and its constant the constraint's.
        // Stored in 32 bits (a record is kept per constraint, thousands per solver or per
        // thousand small solvers), read as `Int`.
        private var storedStart: Int32
        private var storedCount: Int32
        private var storedMarker: Int32
        private var storedOther: Int32

        var start: Int {
            get { Int(storedStart) }
            set { storedStart = Int32(truncatingIfNeeded: newValue) }
        }
        var count: Int { Int(storedCount) }
        var marker: Int { Int(storedMarker) }
        var other: Int { Int(storedOther) }

        init(constraint: LinearConstraint, start: Int, count: Int, marker: Int, other: Int) {
            self.constraint = constraint
            storedStart = Int32(truncatingIfNeeded: start)
            storedCount = Int32(truncatingIfNeeded: count)
            storedMarker = Int32(truncatingIfNeeded: marker)
            storedOther = Int32(truncatingIfNeeded: other)
        }
    }

    struct Edit: Sendable {
        var variable: Variable
        var handle: ConstraintHandle
        var target: Double
    }

    var tableau = Tableau()
    var records: [Record?] = []
    /// Ids of removed constraints (nil in `records`), handed out again by `addConstraint`, so
    /// that `records` is as long as the most constraints ever held at once, not the number
    /// ever added. A handle is therefore valid until its constraint is removed, and no longer.
    var freeRecords: [Int] = []
    /// Public calls so far (debug builds: how often the invariants are checked).
    var invariantCalls = 0
    /// The records' rows, one run each (one array for all, as the tableau's term pool).
    var recordTerms: [Term] = []
    /// Terms of removed records still in `recordTerms`.
    var recordGarbage = 0
    var liveCount = 0
    /// The edit variables, each found through its symbol's `editSlot`. Not a dictionary:
    /// edits are few, and the first dictionary keyed by `Variable` in a process costs the
    /// runtime a conformance lookup several times longer than making the edit itself.
    var edits: [Edit] = []
    /// Symbols of variables numbered `denseBase…`, stored as symbol + 1 (0: none).
    var denseSymbols: [Int] = []
    var denseBase = 0
    var sparseSymbols: [Int: Int] = [:]
    var meter: BudgetMeter?
    /// `meter != nil`, without copying the meter out to ask (once per pivot).
    var metered = false
    /// The budget the meter is started from.
    var budget: Budget = .unlimited
    /// Whether every public call gets the whole budget (a long-lived solver), rather than
    /// the solver's whole life (the one-shot backend).
    var budgetPerCall = false
    /// Σ terms over the records' own rows: the size a refactorised tableau has.
    var originalTerms = 0
    /// Per symbol, how many held records name it (external symbols only; 0 for the rest):
    /// a removal that takes the count to 0 purges the variable from the tableau
    /// (``purgeUnnamed(_:changed:)``).
    var namingRecords: [Int32] = []

    /// Variables numbered this far above `denseBase` or more are looked up in a dictionary.
    static let denseLimit = 1 << 22

    /// A solver with no constraints. With a budget, every pivot and the clock are charged to
    /// it, and an addition that exhausts it is undone and throws ``CassowaryError/budgetExceeded``.
    ///
    /// With `perCall`, the budget applies to each call (`addConstraint`, `removeConstraint`,
    /// `suggestValue`, `setConstants`) on its own, so a solver kept alive across many calls
    /// never runs out; otherwise it applies to everything the solver does in its life.
    public init(budget: Budget = .unlimited, perCall: Bool = false) {
        self.budget = budget
        budgetPerCall = perCall
        if budget.iterations != nil || budget.wallTime != nil {
            meter = BudgetMeter(budget)
            metered = true
        }
    }

    /// Starts the budget afresh (and replaces it, when `budget` is given): what an
    /// incremental driver does at each layout pass.
    public mutating func restartBudget(_ budget: Budget? = nil) {
        if let budget { self.budget = budget }
        metered = self.budget.iterations != nil || self.budget.wallTime != nil
        meter = metered ? BudgetMeter(self.budget) : nil
    }

    /// What is left of the budget now: work done outside the solver on its behalf (the
    /// conflict filtering of ``CassowaryBackend``) runs under it, not beside it.
    public var remainingBudget: Budget {
        guard let meter else { return budget }
        return Budget(iterations: budget.iterations.map { $0 - meter.iterations },
                      wallTime: budget.wallTime.map { $0 - meter.elapsed })
    }

    /// Charges the budget for `iterations` done on the solver's behalf; false once it is spent.
    public mutating func chargeBudget(_ iterations: Int) -> Bool {
        guard metered, iterations > 0 else { return true }
        return meter?.spend(iterations) != false
    }

    /// At the start of a public call: a per-call budget starts afresh.
    mutating func beginCall() {
        if budgetPerCall && metered { meter = BudgetMeter(budget) }
    }

    /// The number of constraints currently held (edit constraints included).
    public var constraintCount: Int { liveCount }

    /// Pivots performed so far (the solver's unit of work).
    public var pivotCount: Int { tableau.pivots }

    /// Whether `handle` names a constraint currently held.
    public func hasConstraint(_ handle: ConstraintHandle) -> Bool {
        handle.id >= 0 && handle.id < records.count && records[handle.id] != nil
    }

    /// The constraint `handle` names, if it is held.
    public func constraint(_ handle: ConstraintHandle) -> LinearConstraint? {
        hasConstraint(handle) ? records[handle.id]?.constraint : nil
    }

    /// The variable's value at the current optimum (0 for a variable never constrained).
    public func value(of variable: Variable) -> Double {
        guard let symbol = symbol(of: variable) else { return 0 }
        return tableau.symbols[symbol].isBasic ? tableau.symbols[symbol].value : 0
    }

    /// E(level) for levels 1…`levelCount`: the summed errors of the optional constraints held
    /// at each level, at the current point.
    public func objective(levelCount: Int) -> [Double] {
        var sums = Array(repeating: 0.0, count: max(levelCount, 0))
        for record in records {
            guard let record else { continue }
            let level = record.constraint.strength.level
            if level >= 1 && level <= levelCount {
                sums[level - 1] += record.constraint.error(at: value(of:))
            }
        }
        return sums
    }

    // MARK: Variables

    func symbol(of variable: Variable) -> Int? {
        let slot = variable.index &- denseBase
        if slot >= 0 && slot < denseSymbols.count {
            let stored = denseSymbols[slot]
            if stored != 0 { return stored - 1 }
        }
        return sparseSymbols.isEmpty ? nil : sparseSymbols[variable.index]
    }

    mutating func makeSymbol(for variable: Variable) -> Int {
        if let existing = symbol(of: variable) { return existing }
        let symbol = tableau.newSymbol(.external, owner: variable.index)
        let index = variable.index
        // Dense from the first variable's index while the numbering stays compact (the
        // backend's unknowns, or one table cell's run of numbers among many); a solver handed
        // scattered numbers keeps the stragglers in the dictionary.
        if denseSymbols.isEmpty && index >= 0 && index < Int.max - Self.denseLimit { denseBase = index }
        var slot = index &- denseBase
        if index >= 0 && slot < 0 && -slot <= denseSymbols.count + 64 {
            // A number just below the range: grow the range downwards (by doubling, so a
            // numbering met in descending order stays linear).
            let grow = min(max(-slot, denseSymbols.count), denseBase)
            denseSymbols.insert(contentsOf: repeatElement(0, count: grow), at: 0)
            denseBase -= grow
            slot += grow
        }
        if slot >= 0 && slot < Self.denseLimit && slot < 2 * (denseSymbols.count + tableau.symbolCount) + 64 {
            if slot >= denseSymbols.count {
                // A plain loop: appending a `repeatElement` goes through a generic path several
                // times dearer, once per small solver.
                let grow = max(slot + 1 - denseSymbols.count, denseSymbols.count, 8)
                denseSymbols.reserveCapacity(denseSymbols.count + grow)
                for _ in 0..<grow { denseSymbols.append(0) }
            }
            denseSymbols[slot] = symbol + 1
        } else {
            if sparseSymbols.isEmpty { sparseSymbols.reserveCapacity(16) }
            sparseSymbols[index] = symbol
        }
        return symbol
    }

    mutating func forget(_ variable: Variable) {
        let slot = variable.index &- denseBase
        if slot >= 0 && slot < denseSymbols.count { denseSymbols[slot] = 0 }
        sparseSymbols[variable.index] = nil
    }

    // MARK: Adding

    /// Adds a constraint and re-optimises.
    ///
    /// A required constraint that cannot hold together with the required constraints held
    /// throws ``CassowaryError/unsatisfiable(conflict:)`` and leaves the solver exactly as it
    /// was. Optional constraints are always accepted.
    @discardableResult
    public mutating func addConstraint(_ constraint: LinearConstraint) throws(CassowaryError) -> ConstraintHandle {
        try Self.validate(constraint)
        beginCall()
        // A removed constraint's id is handed out again (see `freeRecords`).
        let id = freeRecords.last ?? records.count
        let checkpoint = tableau.beginAttempt()
        let recordTermCount = recordTerms.count
        do {
            let pivotsBefore = tableau.pivots
            let record = try insert(constraint, owner: id)
            tableau.commitAttempt()
            if tableau.pivots == pivotsBefore { tableau.cleanTermCount = tableau.termCount }
            liveCount += 1
            originalTerms += record.count
            countNames(in: record, by: 1)
            if id < records.count {
                freeRecords.removeLast()
                records[id] = consume record
            } else {
                records.append(consume record)
            }
            tableau.compactIfWasteful()
            checkInvariantsNow()
            return ConstraintHandle(id: id)
        } catch {
            recordTerms.removeSubrange(recordTermCount...)
            // Variables first seen in the attempt are the external symbols it created.
            for symbol in checkpoint.symbolCount..<tableau.symbolCount where tableau.symbols[symbol].kind == .external {
                forget(Variable(tableau.symbols[symbol].owner))
            }
            for (symbol, _) in tableau.reusedSymbols where tableau.symbols[symbol].kind == .external {
                forget(Variable(tableau.symbols[symbol].owner))
            }
            tableau.rollBack(to: checkpoint)
            checkInvariantsNow()
            switch error {
            case .infeasible(let owners):
                throw .unsatisfiable(conflict: owners.filter { $0 != id }.sorted().map { ConstraintHandle(id: $0) })
            case .budgetExceeded: throw .budgetExceeded
            case .breakdown(let why): throw .internalFailure(why)
            }
        }
    }

    static func validate(_ constraint: LinearConstraint) throws(CassowaryError) {
        guard constraint.constant.isFinite else { throw .invalidInput("constant \(constraint.constant)") }
        for term in constraint.terms where !term.coefficient.isFinite {
            throw .invalidInput("coefficient \(term.coefficient) of \(term.variable)")
        }
        guard constraint.strength.level >= 0 else { throw .invalidInput("negative level \(constraint.strength.level)") }
    }

    /// Why the simplex stopped short.
    enum Failure: Error {
        /// The constraints owning these ids cannot all hold.
        case infeasible([Int])
        case budgetExceeded
        case breakdown(String)
    }

    /// The constraint's own row (`Σ terms + constant = 0`, markers included).
    func row(of record: Record) -> Row {
        Row(constant: record.constraint.constant, terms: Array(recordTerms[record.start..<record.start + record.count]))
    }

    /// Adds `amount` to ``namingRecords`` for every external symbol `record` names.
    mutating func countNames(in record: Record, by amount: Int32) {
        if namingRecords.count < tableau.symbolCount {
            namingRecords.append(contentsOf: repeatElement(0, count: tableau.symbolCount - namingRecords.count))
        }
        for index in record.start..<record.start + record.count where tableau.symbols[recordTerms[index].symbol].kind == .external {
            namingRecords[recordTerms[index].symbol] += amount
        }
    }

    private mutating func insert(_ constraint: LinearConstraint, owner: Int) throws(Failure) -> Record {
        tableau.tolerance.include(value: constraint.constant)
        // The constraint's row goes straight into the record pool: `start...` is its run.
        if recordTerms.isEmpty { recordTerms.reserveCapacity(40) }
        if records.isEmpty { records.reserveCapacity(12) }
        let start = recordTerms.count
        let constant = constraint.constant
        for term in constraint.terms where term.coefficient != 0 {
            tableau.tolerance.include(coefficient: term.coefficient)
            let symbol = makeSymbol(for: term.variable)
            var merged = false
            for index in start..<recordTerms.count where recordTerms[index].symbol == symbol {
                recordTerms[index].coefficient += term.coefficient
                merged = true
            }
            if !merged { recordTerms.append(Term(symbol, term.coefficient)) }
        }
        // Drop terms that cancelled (a variable named twice with opposite coefficients).
        var kept = start
        for index in start..<recordTerms.count where recordTerms[index].coefficient != 0 {
            recordTerms[kept] = recordTerms[index]
            kept += 1
        }
        if kept < recordTerms.count { recordTerms.removeSubrange(kept...) }
        var residual = constant
        var residualMagnitude = abs(constant)
        for index in start..<recordTerms.count {
            let product = recordTerms[index].coefficient * tableau.symbols[recordTerms[index].symbol].value
            residual += product
            residualMagnitude = max(residualMagnitude, abs(product))
        }

        // Markers. Rows read `expression + markers = 0`.
        let level = Int32(clamping: constraint.strength.level)
        let marker: Int
        var other = -1
        var subject: Int
        switch (constraint.relation, constraint.strength.isRequired) {
        case (.equal, true):
            marker = tableau.newSymbol(.dummy, owner: owner)
            recordTerms.append(Term(marker, 1))
            subject = marker
        case (.equal, false):
            marker = tableau.newSymbol(.error, owner: owner, costLevel: level)
            other = tableau.newSymbol(.error, owner: owner, costLevel: level)
            recordTerms.append(Term(marker, -1))
            recordTerms.append(Term(other, 1))
            subject = residual >= 0 ? marker : other
        case (let relation, let required):
            let sign: Double = relation == .lessThanOrEqual ? 1 : -1
            marker = tableau.newSymbol(.slack, owner: owner)
            recordTerms.append(Term(marker, sign))
            subject = marker
            if !required {
                other = tableau.newSymbol(.error, owner: owner, costLevel: level)
                recordTerms.append(Term(other, -sign))
                // The slack can take up the residual when the inequality holds; otherwise the error does.
                if sign * residual > Tolerance.decision * residualMagnitude { subject = other }
            }
        }
        // New error symbols start non-basic at their own cost (`newSymbol`), which improves nothing.

        // A fresh external variable (named by no other row) absorbs the constraint for free:
        // no other value moves, and the new markers start non-basic at their own costs.
        var bestFresh = -1
        var bestMagnitude = 0.0
        for index in start..<recordTerms.count {
            let term = recordTerms[index]
            if abs(term.coefficient) > bestMagnitude && tableau.isFresh(term.symbol) {
                bestFresh = term.symbol
                bestMagnitude = abs(term.coefficient)
            }
        }
        // The coefficient is the input's own, not computed: any non-zero one is exact. (A
        // threshold scaled by the largest coefficient anywhere read the 1 of
        // `b.width == 1e10 * a.width` as zero.)
        if bestFresh >= 0 && bestMagnitude > tableau.tolerance.pivot { subject = bestFresh }

        let record = Record(constraint: constraint, start: start, count: recordTerms.count - start, marker: marker, other: other)
        defineSubject(subject, from: record)
        if tableau.symbols[subject].costLevel != 0 {
            // The subject carries cost while basic: its reduced row joins the objective.
            let cost = LexVector(level: tableau.symbols[subject].costLevel, value: 1)
            let reduced = tableau.reduce(subject)
            for term in reduced.terms { tableau.addToReducedCost(term.symbol, cost, times: term.coefficient) }
            tableau.recycle(reduced)
        }
        try reoptimize(constraint.strength.isRequired ? .mayConflict(pending: owner) : .keepsRequiredFeasible)
        return record
    }

    /// Solves the record's row (`Σ terms + constant = 0`) for `subject` and makes it basic,
    /// above every rank (its row may name any symbol).
    private mutating func defineSubject(_ subject: Int, from record: Record) {
        let range = record.start..<record.start + record.count
        var coefficient = 0.0
        for index in range where recordTerms[index].symbol == subject { coefficient = recordTerms[index].coefficient }
        let scale = -1 / coefficient
        let start = tableau.terms.count
        for index in range where recordTerms[index].symbol != subject {
            tableau.terms.append(Term(recordTerms[index].symbol, recordTerms[index].coefficient * scale))
        }
        tableau.highRank += 1
        if !tableau.reducedCosts[subject].isZero { tableau.setReducedCost(subject, LexVector()) }
        tableau.setRow(subject, constant: record.constraint.constant * scale, termsFrom: start, rank: tableau.highRank)
        tableau.setValue(subject, tableau.evaluate(subject))
    }

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
    mutating func optimize() throws(Failure) {
        var iterations = 0
        while true {
            let bland = iterations > blandThreshold
            guard let entering = chooseEntering(bland: bland) else { return }
            let direction = Double(tableau.improvingDirection(entering))
            let column = tableau.column(of: entering)
            let pivotTolerance = tableau.tolerance.pivot
            var leaving = -1
            var bestRatio = Double.infinity
            var bestRate = 0.0
            for term in column {
                let symbol = term.symbol
                let rate = term.coefficient * direction
                let ratio: Double
                switch tableau.symbols[symbol].kind {
                case .external, .retired: continue
                case .dummy:
                    if abs(rate) <= pivotTolerance { continue }
                    ratio = 0
                case .slack, .error:
                    if rate >= -pivotTolerance { continue }
                    ratio = max(tableau.symbols[symbol].value, 0) / -rate
                }
                let better: Bool
                // Ratios within the decision precision of each other tie (relative: a ratio
                // is a length along the entering symbol, in its own units).
                let tie = Tolerance.decision * bestRatio
                if leaving < 0 || ratio < bestRatio - tie {
                    better = true
                } else if ratio <= bestRatio + tie {
                    better = bland ? symbol < leaving : abs(rate) > abs(bestRate) || (abs(rate) == abs(bestRate) && symbol < leaving)
                } else {
                    better = false
                }
                if better {
                    leaving = symbol
                    bestRatio = min(ratio, bestRatio)
                    bestRate = rate
                }
            }
            tableau.recycle(column)
            if leaving < 0 {
                // An improving direction with nothing in the way cannot exist (errors are ≥ 0);
                // the reduced cost was rounding residue.
                tableau.removeCandidate(entering)
                continue
            }
            let reduced = tableau.reduce(leaving)
            guard reduced.terms.contains(where: { $0.symbol == entering && abs($0.coefficient) > pivotTolerance }) else {
                tableau.recycle(reduced)
                tableau.removeCandidate(entering)
                continue
            }
            tableau.pivot(entering: entering, leaving: leaving, reducedLeavingRow: reduced)
            try spend()
            iterations += 1
            if iterations > iterationLimit { throw .breakdown("primal simplex did not converge") }
            refactorIfFilled()
        }
    }

    /// The candidate whose improving direction is lexicographically steepest: the strongest
    /// level first, the largest rate within it, and on a tie the next levels (so a direction
    /// that also costs something weaker loses to one that does not: taking the dearer one
    /// first would cost two more pivots to undo at the weaker level); with `bland`, the
    /// lowest-numbered candidate.
    private func chooseEntering(bland: Bool) -> Int? {
        var best = -1
        var bestDirection = 0.0
        for symbol in tableau.candidates {
            if bland {
                if best < 0 || symbol < best { best = symbol }
                continue
            }
            let direction = Double(tableau.improvingDirection(symbol))
            if direction == 0 { continue }
            if best >= 0 {
                let order = LexVector.compare(
                    tableau.reducedCosts[symbol], scaledBy: direction,
                    tableau.reducedCosts[best], scaledBy: bestDirection)
                if order > 0 || (order == 0 && symbol > best) { continue }
            }
            best = symbol
            bestDirection = direction
        }
        return best < 0 ? nil : best
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

    static let reoptimizeRounds = 4

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
            var leaving = -1
            var worst = 0.0
            for symbol in tableau.infeasible {
                let violation = abs(tableau.symbols[symbol].value)
                if leaving < 0 || (bland ? symbol < leaving : violation > worst || (violation == worst && symbol < leaving)) {
                    leaving = symbol
                    worst = violation
                }
            }
            let reduced = tableau.reduce(leaving)
            let direction: Double = tableau.symbols[leaving].kind == .dummy && tableau.symbols[leaving].value > 0 ? -1 : 1
            let pivotTolerance = tableau.tolerance.pivot
            var entering = -1
            var enteringRate = 0.0
            var enteringCost = LexVector()
            for term in reduced.terms {
                let symbol = term.symbol
                let rate = term.coefficient * direction
                var cost: LexVector
                switch tableau.symbols[symbol].kind {
                case .dummy, .retired: continue
                case .external:
                    if abs(rate) <= pivotTolerance { continue }
                    cost = LexVector()
                case .slack, .error:
                    if rate <= pivotTolerance { continue }
                    cost = tableau.reducedCosts[symbol]
                }
                let better: Bool
                if entering < 0 {
                    better = true
                } else {
                    let order = LexVector.compare(
                        cost, scaledBy: 1 / abs(rate), enteringCost, scaledBy: 1 / abs(enteringRate))
                    if order != 0 {
                        better = order < 0
                    } else {
                        better = bland ? symbol < entering : abs(rate) > abs(enteringRate) || (abs(rate) == abs(enteringRate) && symbol < entering)
                    }
                }
                if better {
                    entering = symbol
                    enteringRate = rate
                    enteringCost = cost
                }
            }
            if entering < 0 {
                guard isResidue(leaving, after: change) else {
                    throw .infeasible(explanation(of: leaving, reduced: reduced, pending: pending))
                }
                tableau.recycle(reduced)
                settle(leaving)
                iterations += 1
                if iterations > iterationLimit { throw .breakdown("dual simplex did not converge") }
                continue
            }
            tableau.pivot(entering: entering, leaving: leaving, reducedLeavingRow: reduced)
            try spend()
            iterations += 1
            if iterations > iterationLimit { throw .breakdown("dual simplex did not converge") }
            refactorIfFilled()
        }
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
        var sum = abs(record.constraint.constant)
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
            if owner == pending || (owner >= 0 && owner < records.count && records[owner]?.constraint.strength.isRequired == true) {
                owners.insert(owner)
            }
        }
        consider(leaving)
        for term in reduced.terms where abs(term.coefficient) > pivotTolerance { consider(term.symbol) }
        return owners.sorted()
    }

    // MARK: Removing

    /// Removes a constraint and re-optimises. Removing an edit variable's constraint this way
    /// also ends the edit. A removal that fails (budget, breakdown) leaves the solver exactly
    /// as it was: the attempt is journaled like an addition.
    public mutating func removeConstraint(_ handle: ConstraintHandle) throws(CassowaryError) {
        guard hasConstraint(handle), let record = records[handle.id] else { throw .unknownConstraint(handle) }
        beginCall()
        // What `remove` changes outside the journal.
        let saved = (liveCount, originalTerms, recordGarbage, recordTerms.count)
        let markers = [record.marker, record.other].filter { $0 >= 0 }.map { ($0, tableau.symbols[$0].kind, tableau.symbols[$0].costLevel) }
        let checkpoint = tableau.beginAttempt()
        countNames(in: record, by: -1)
        do {
            try remove(handle.id)
            tableau.commitAttempt()
        } catch {
            tableau.rollBack(to: checkpoint)
            countNames(in: record, by: 1)
            for (symbol, kind, costLevel) in markers {
                tableau.symbols[symbol].kind = kind
                tableau.symbols[symbol].costLevel = costLevel
            }
            (liveCount, originalTerms, recordGarbage) = (saved.0, saved.1, saved.2)
            precondition(recordTerms.count == saved.3, "records compacted during a failed removal")
            records[handle.id] = record
            switch error {
            case .budgetExceeded: throw .budgetExceeded
            default: throw .internalFailure("removal: \(error)")
            }
        }
        if let slot = edits.firstIndex(where: { $0.handle == handle }) { removeEdit(at: slot) }
        recycle(record, id: handle.id)
        refactorIfFilled(settled: true)
        tableau.compactIfWasteful()
        compactRecordsIfWasteful()
        checkInvariantsNow()
    }

    private mutating func remove(_ id: Int) throws(Failure) {
        guard let record = records[id] else { return }
        records[id] = nil
        liveCount -= 1
        originalTerms -= record.count
        recordGarbage += record.count
        // Costs first: a pivot below would otherwise carry them into the objective.
        #if LAYOUTBENCH_FAULTS
        let keepsCost = PlantedFault.isActive(.incrementalRemovalKeepsErrorCost)
        #else
        let keepsCost = false
        #endif
        for symbol in [record.marker, record.other] where symbol >= 0 && tableau.symbols[symbol].costLevel != 0 && !keepsCost {
            let cost = LexVector(level: tableau.symbols[symbol].costLevel, value: 1)
            if tableau.symbols[symbol].isBasic {
                let reduced = tableau.reduce(symbol)
                for term in reduced.terms { tableau.addToReducedCost(term.symbol, cost, times: -term.coefficient) }
                tableau.recycle(reduced)
            } else {
                tableau.addToReducedCost(symbol, cost, times: -1)
            }
            tableau.symbols[symbol].costLevel = 0
        }
        let marker = record.marker
        if !tableau.symbols[marker].isBasic, let leaving = markerLeavingRow(marker) {
            let reduced = tableau.reduce(leaving)
            if reduced.terms.contains(where: { $0.symbol == marker && $0.coefficient != 0 }) {
                tableau.pivot(entering: marker, leaving: leaving, reducedLeavingRow: reduced)
            } else {
                tableau.recycle(reduced)
            }
        }
        var changed: [Int] = []
        for symbol in [marker, record.other] where symbol >= 0 {
            if tableau.symbols[symbol].isBasic {
                // Rows that name the basic symbol take its definition instead, then it goes.
                let definition = tableau.row(symbol)
                for user in Array(tableau.users[symbol]) {
                    tableau.setRow(user, substituting: symbol, by: definition)
                    changed.append(user)
                }
                tableau.setRow(symbol, nil)
            }
            // Whatever still names it is cancellation residue of an eliminated constraint.
            for user in Array(tableau.users[symbol]) {
                tableau.setRow(user, substituting: symbol, by: Row(constant: 0, terms: []))
                changed.append(user)
            }
            tableau.setValue(symbol, 0)
            tableau.setReducedCost(symbol, LexVector())
            tableau.symbols[symbol].kind = .retired
            tableau.updateCandidacy(symbol)
            tableau.updateFeasibility(symbol)
        }
        for index in record.start..<record.start + record.count {
            let symbol = recordTerms[index].symbol
            if tableau.symbols[symbol].kind == .external && namingRecords[symbol] == 0 { purgeUnnamed(symbol, changed: &changed) }
        }
        tableau.refreshValues(of: changed)
        try reoptimize(.keepsRequiredFeasible)
    }

    /// Takes a variable that no held constraint names any more out of every row.
    ///
    /// In exact arithmetic the removal of the last constraint naming it leaves it non-basic
    /// with an empty column: every row is then a combination of the constraints held, none of
    /// which names it. Rounding can leave it basic, or named by rows with a residue (after
    /// `remove view v1` with a `1e-9 * v1.left` and a `0.9999999 * v1.left`, a coefficient of
    /// 3.3e-10 in `v6.left`'s row): a free symbol of zero cost, which the next dual simplex
    /// took as its entering symbol and divided by, writing rows of 3e9 and values of 3e18
    /// whose rounding moved the views left by hundreds of points. A basic one's users take its
    /// definition (their reduced forms do not change) and its row goes; residue in other rows
    /// is dropped; it is then fresh, and ``recycle(_:id:)`` forgets it.
    private mutating func purgeUnnamed(_ symbol: Int, changed: inout [Int]) {
        if tableau.symbols[symbol].isBasic {
            let definition = tableau.row(symbol)
            for user in Array(tableau.users[symbol]) {
                tableau.setRow(user, substituting: symbol, by: definition)
                changed.append(user)
            }
            tableau.setRow(symbol, nil)
        }
        for user in Array(tableau.users[symbol]) {
            tableau.setRow(user, substituting: symbol, by: Row(constant: 0, terms: []))
            changed.append(user)
        }
        tableau.setValue(symbol, 0)
        if !tableau.reducedCosts[symbol].isZero { tableau.setReducedCost(symbol, LexVector()) }
    }

    /// After a removal commits: the record's id, its retired markers and the variables it
    /// named that nothing names any more (non-basic, in no row: no constraint held names
    /// them, and their value is 0 whether known or not) go to the free lists.
    private mutating func recycle(_ record: Record, id: Int) {
        freeRecords.append(id)
        for symbol in [record.marker, record.other] where symbol >= 0 && tableau.symbols[symbol].kind == .retired {
            tableau.free(symbol)
        }
        for index in record.start..<record.start + record.count {
            let symbol = recordTerms[index].symbol
            if tableau.isFresh(symbol) && tableau.symbols[symbol].editSlot < 0 {
                forget(Variable(tableau.symbols[symbol].owner))
                tableau.free(symbol)
            }
        }
    }

    /// Rewrites the record pool without the runs of removed records.
    private mutating func compactRecordsIfWasteful() {
        guard recordGarbage > 64, recordGarbage > originalTerms else { return }
        var packed: [Term] = []
        packed.reserveCapacity(originalTerms + originalTerms / 2 + 16)
        for id in records.indices {
            guard let record = records[id] else { continue }
            records[id]?.start = packed.count
            packed.append(contentsOf: recordTerms[record.start..<record.start + record.count])
        }
        recordTerms = packed
        recordGarbage = 0
    }

    /// kiwi's choice of the row a non-basic marker enters through: the restricted row it
    /// drives to zero first when growing, else the restricted row it drives to zero first when
    /// shrinking, else any unrestricted row; so the point stays feasible.
    ///
    /// Where kiwi takes any row (among unrestricted rows, and among restricted rows whose
    /// ratios tie), this takes the one where the marker weighs most against the row's own
    /// coefficients (``relativePivot(_:in:)``): the marker's new row is that row divided by
    /// the pivot element, so a small one multiplies everything else. After `v4.left ==
    /// -1e-9 * v1.left` the marker of `v1.left == 0` reached `v4.left` with 1e-9 and `v1.left`
    /// with 1; pivoting on the first (kiwi's first unrestricted row) wrote rows of 1e9 and
    /// values of 1e18, whose rounding (~100) became the positions of views left after `remove
    /// view v1`.
    private mutating func markerLeavingRow(_ marker: Int) -> Int? {
        let column = tableau.column(of: marker)
        let pivotTolerance = tableau.tolerance.pivot
        var first = -1
        var firstRatio = Double.infinity
        var firstPivot = 0.0
        var second = -1
        var secondRatio = Double.infinity
        var secondPivot = 0.0
        var third = -1
        var thirdPivot = 0.0
        /// Whether `ratio` (with relative pivot `pivot`) beats the best so far: a smaller
        /// ratio, or a tie (within the decision precision) with a larger pivot.
        func beats(_ ratio: Double, _ pivot: Double, _ bestRatio: Double, _ bestPivot: Double) -> Bool {
            let tie = Tolerance.decision * min(ratio, bestRatio)
            if ratio < bestRatio - tie { return true }
            return ratio <= bestRatio + tie && pivot > bestPivot
        }
        for term in column where abs(term.coefficient) > pivotTolerance {
            let symbol = term.symbol
            switch tableau.symbols[symbol].kind {
            case .retired: continue
            case .external:
                let pivot = relativePivot(term.coefficient, in: symbol)
                if third < 0 || pivot > thirdPivot { third = symbol; thirdPivot = pivot }
            case .slack, .error, .dummy:
                let value = max(tableau.symbols[symbol].value, 0)
                let pivot = relativePivot(term.coefficient, in: symbol)
                if term.coefficient < 0 {
                    let ratio = value / -term.coefficient
                    if first < 0 || beats(ratio, pivot, firstRatio, firstPivot) {
                        first = symbol; firstRatio = ratio; firstPivot = pivot
                    }
                } else {
                    let ratio = value / term.coefficient
                    if second < 0 || beats(ratio, pivot, secondRatio, secondPivot) {
                        second = symbol; secondRatio = ratio; secondPivot = pivot
                    }
                }
            }
        }
        tableau.recycle(column)
        if first >= 0 { return first }
        if second >= 0 { return second }
        return third >= 0 ? third : nil
    }

    /// `|pivot|` against the largest coefficient of `symbol`'s own row (and the pivot itself):
    /// how far dividing that row by the pivot would magnify it. Invariant under scaling the
    /// row's symbol, unlike `|pivot|` alone; the own row stands in for the reduced one (what
    /// the division actually applies to), which would cost a BTRAN per candidate.
    private func relativePivot(_ pivot: Double, in symbol: Int) -> Double {
        var largest = abs(pivot)
        for index in tableau.symbols[symbol].rowRange { largest = max(largest, abs(tableau.terms[index].coefficient)) }
        return abs(pivot) / largest
    }

    // MARK: Edit variables

    /// Makes `variable` editable at `strength` (optional), starting at its current value.
    public mutating func addEditVariable(_ variable: Variable, strength: Strength) throws(CassowaryError) {
        guard !strength.isRequired else { throw .requiredEditStrength }
        guard editSlot(of: variable) == nil else { throw .duplicateEditVariable(variable) }
        let current = value(of: variable)
        let handle = try addConstraint(
            LinearConstraint([.init(variable, 1)], constant: -current, relation: .equal, strength: strength))
        guard let symbol = symbol(of: variable) else { return }
        tableau.symbols[symbol].editSlot = Int32(truncatingIfNeeded: edits.count)
        edits.append(Edit(variable: variable, handle: handle, target: current))
    }

    /// Ends the edit of `variable`, removing its edit constraint.
    public mutating func removeEditVariable(_ variable: Variable) throws(CassowaryError) {
        guard let slot = editSlot(of: variable) else { throw .unknownEditVariable(variable) }
        try removeConstraint(edits[slot].handle)
    }

    /// Whether `variable` is an edit variable.
    public func hasEditVariable(_ variable: Variable) -> Bool { editSlot(of: variable) != nil }

    /// The index of `variable`'s edit in `edits`.
    func editSlot(of variable: Variable) -> Int? {
        guard let symbol = symbol(of: variable) else { return nil }
        let slot = Int(tableau.symbols[symbol].editSlot)
        return slot >= 0 && slot < edits.count && edits[slot].variable == variable ? slot : nil
    }

    private mutating func removeEdit(at slot: Int) {
        if let symbol = symbol(of: edits[slot].variable) { tableau.symbols[symbol].editSlot = -1 }
        let last = edits.removeLast()
        guard slot < edits.count else { return }
        edits[slot] = last
        if let symbol = symbol(of: last.variable) { tableau.symbols[symbol].editSlot = Int32(truncatingIfNeeded: slot) }
    }

    /// Suggests a value for an edit variable and re-optimises with the dual simplex.
    ///
    /// Changing the edit constraint's constant by δ is the same as shifting its error marker
    /// by δ, so only the rows that name the marker change (and the values downstream of them);
    /// the basis stays optimal and, where it became infeasible, dual pivots restore it.
    public mutating func suggestValue(_ variable: Variable, _ value: Double) throws(CassowaryError) {
        guard value.isFinite else { throw .invalidInput("suggested value \(value)") }
        guard let slot = editSlot(of: variable), hasConstraint(edits[slot].handle) else {
            throw .unknownEditVariable(variable)
        }
        // The edit constraint reads `variable − target = 0`: its constant is −target.
        try setConstants([(edits[slot].handle, -value)])
        edits[slot].target = value
    }
}

extension Tableau {
    /// Replaces `symbol` by `symbol + delta` in every row: rows naming it change constant, and
    /// its own row (when basic) absorbs −delta.
    mutating func shift(_ symbol: Int, by delta: Double) {
        for user in users[symbol] {
            var coefficient = 0.0
            for index in symbols[user].rowRange where terms[index].symbol == symbol { coefficient += terms[index].coefficient }
            symbols[user].constant += coefficient * delta
        }
        if symbols[symbol].isBasic {
            symbols[symbol].constant -= delta
            setValue(symbol, symbols[symbol].value - delta)
        } else {
            refreshValues(downstreamOfShifted: symbol)
        }
    }

    /// Rewrites a basic symbol's row with `symbol` replaced by `definition` (same rank).
    mutating func setRow(_ user: Int, substituting symbol: Int, by definition: Row) {
        var row = self.row(user)
        var factor = 0.0
        row.terms.removeAll { term in
            if term.symbol == symbol { factor += term.coefficient; return true }
            return false
        }
        row.constant += factor * definition.constant
        for term in definition.terms {
            let amount = factor * term.coefficient
            if let index = row.terms.firstIndex(where: { $0.symbol == term.symbol }) {
                let old = row.terms[index].coefficient
                let sum = old + amount
                row.terms[index].coefficient = Tolerance.isCancelled(sum, of: Swift.max(abs(old), abs(amount))) ? 0 : sum
            } else {
                row.terms.append(Term(term.symbol, amount))
            }
        }
        row.terms.removeAll { $0.coefficient == 0 }
        setRow(user, row, rank: symbols[user].rank)
    }

    /// Recomputes the given basic symbols and everything downstream of them, in rank order.
    mutating func refreshValues(of basics: [Int]) {
        var all: [Int] = []
        for symbol in basics where symbols[symbol].isBasic {
            setValue(symbol, evaluate(symbol))
            all.append(symbol)
        }
        refreshValues(downstreamOf: all)
    }
}
