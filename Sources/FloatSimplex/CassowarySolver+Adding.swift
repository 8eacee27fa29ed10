import BackendContract
import LayoutModel

extension CassowarySolver {
    // MARK: Adding

    /// Makes room for `constraints` constraints of `terms` terms in all over variables
    /// numbered below `variables`, so that adding them regrows no array, and those variables'
    /// symbols are found by index, never hashed.
    ///
    /// A caller that knows the whole system (a one-shot solve) calls it once before adding:
    /// a solver grown from empty copies each array about once over in regrowths, which on
    /// 100 self-sizing table cells was a tenth of the additions' cost. A capacity, not a
    /// limit: more may still be added.
    ///
    /// Complexity: O(`constraints` + `terms` + `variables`) when the arrays move, else O(1).
    public mutating func reserveCapacity(constraints: Int, terms: Int, variables: Int) {
        // A constraint brings at most two symbols (a slack and an error, two errors, or a
        // marker) and its row at most two of them besides its own terms.
        let symbols = variables + 2 * constraints
        let rowTerms = terms + 2 * constraints
        tableau.reserveCapacity(symbols: symbols, terms: rowTerms)
        records.reserveCapacity(constraints)
        recordTerms.reserveCapacity(rowTerms)
        // One dense table for variables 0..<variables from the start. Grown from the first
        // variable named, the table starts there, and variables far below it go to the
        // dictionary: `cassowary-benchmark`'s rows name views at random, and 294 dictionary
        // lookups a 100-view solve (after `makeSymbol`'s own) were 2% of its instructions.
        if denseSymbols.isEmpty && sparseSymbols.isEmpty && variables > 0 && variables <= Self.denseLimit {
            denseBase = 0
            denseSymbols = Array(repeating: 0, count: variables)
        } else {
            denseSymbols.reserveCapacity(variables)
        }
    }

    /// Adds a constraint and re-optimises.
    ///
    /// A required constraint that cannot hold together with the required constraints held
    /// throws ``CassowaryError/unsatisfiable(conflict:)`` and leaves the solver exactly as it
    /// was. Optional constraints are always accepted.
    @discardableResult
    public mutating func addConstraint(_ constraint: LinearConstraint) throws(CassowaryError) -> ConstraintHandle {
        try addConstraint(constraint.terms, constant: constraint.constant, relation: constraint.relation, strength: constraint.strength)
    }

    /// Adds a lowered row at `strength` (usually `Strength(level: row.level)`), as
    /// ``addConstraint(_:)`` adds the same row as a ``LinearConstraint``, without converting it:
    /// the one-shot backend adds thousands of rows, each read once.
    @discardableResult
    public mutating func addConstraint(_ row: LinearRow<Double>, strength: Strength) throws(CassowaryError) -> ConstraintHandle {
        try addConstraint(row.terms, constant: row.constant, relation: row.relation, strength: strength)
    }

    /// Adds `Σ terms + constant  relation  0` at `strength`, as ``addConstraint(_:)`` adds the
    /// same constraint, reading the terms where they are (a lowered system's term pool).
    @discardableResult
    public mutating func addConstraint<Terms: Collection>(
        _ terms: Terms, constant: Double, relation: Relation, strength: Strength
    ) throws(CassowaryError) -> ConstraintHandle where Terms.Element: SolverTerm {
        try addConstraint(terms, constant: constant, relation: relation, strength: strength, rebuildOnBreakdown: true)
    }

    private mutating func addConstraint<Terms: Collection>(
        _ terms: Terms, constant: Double, relation: Relation, strength: Strength, rebuildOnBreakdown: Bool
    ) throws(CassowaryError) -> ConstraintHandle where Terms.Element: SolverTerm {
        try Self.validate(terms, constant: constant, strength: strength)
        beginCall()
        // A removed constraint's id is handed out again (see `freeRecords`).
        let id = freeRecords.last ?? records.count
        let checkpoint = tableau.beginAttempt()
        let recordTermCount = recordTerms.count
        do {
            let pivotsBefore = tableau.pivots
            let record = try insert(terms, constant: constant, relation: relation, strength: strength, owner: id)
            tableau.commitAttempt()
            if tableau.pivots == pivotsBefore { tableau.cleanTermCount = tableau.termCount }
            liveCount += 1
            originalTerms += record.count
            heldConstants.insert(record.constant)
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
            abandonAttempt(at: checkpoint, recordTermCount: recordTermCount)
            checkInvariantsNow()
            switch error {
            case .infeasible(let owners):
                throw .unsatisfiable(conflict: owners.filter { $0 != id }.sorted().map { ConstraintHandle(id: $0) })
            case .budgetExceeded: throw .budgetExceeded
            case .breakdown(let why):
                // The rows no longer describe one matrix (docs/float-backend.md, "Fourteenth
                // pass"): rebuilt from the constraints for the basis held before the attempt,
                // which drops the rounding the pivots wrote into them, the addition is tried
                // once more; a second breakdown is reported.
                guard rebuildOnBreakdown, rebuildAndReoptimize() else { throw .internalFailure(why) }
                rebuildsAfterBreakdown += 1
                return try addConstraint(terms, constant: constant, relation: relation, strength: strength, rebuildOnBreakdown: false)
            }
        }
    }

    /// Undoes an addition's attempt: its terms in the record pool, the variables it was first
    /// to name, and the tableau (rolled back to `checkpoint`).
    mutating func abandonAttempt(at checkpoint: Checkpoint, recordTermCount: Int) {
        recordTerms.removeSubrange(recordTermCount...)
        // Variables first seen in the attempt are the external symbols it created.
        for symbol in checkpoint.symbolCount..<tableau.symbolCount where tableau.symbols[symbol].kind == .external {
            forget(Variable(tableau.symbols[symbol].owner))
        }
        for (symbol, _) in tableau.reusedSymbols where tableau.symbols[symbol].kind == .external {
            forget(Variable(tableau.symbols[symbol].owner))
        }
        tableau.rollBack(to: checkpoint)
    }

    static func validate<Terms: Collection>(
        _ terms: Terms, constant: Double, strength: Strength
    ) throws(CassowaryError) where Terms.Element: SolverTerm {
        guard constant.isFinite else { throw .invalidInput("constant \(constant)") }
        for term in terms where !term.solverCoefficient.isFinite {
            throw .invalidInput("coefficient \(term.solverCoefficient) of \(Variable(term.solverVariable))")
        }
        guard strength.level >= 0 else { throw .invalidInput("negative level \(strength.level)") }
    }

    /// The constraint's own row (`Σ terms + constant = 0`, markers included).
    func row(of record: Record) -> Row {
        // A plain loop: `Array(_:)` of the slice took the generic path, a few hundred
        // instructions a row on top of the allocation (the refactorisation reads every record).
        var terms: [Term] = []
        terms.reserveCapacity(record.count)
        for index in record.start..<record.start + record.count { terms.append(recordTerms[index]) }
        return Row(constant: record.constant, terms: terms)
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

    mutating func insert<Terms: Collection>(
        _ terms: Terms, constant: Double, relation: Relation, strength: Strength, owner: Int
    ) throws(Failure) -> Record where Terms.Element: SolverTerm {
        tableau.tolerance.include(value: constant)
        // The constraint's row goes straight into the record pool: `start...` is its run.
        if recordTerms.isEmpty { recordTerms.reserveCapacity(40) }
        if records.isEmpty { records.reserveCapacity(12) }
        let start = recordTerms.count
        // The largest variable so far: a term beyond it names a new variable, hence a new
        // symbol, with nothing to merge into. Lowered rows and the probes' sums come in
        // increasing order, so only a row written by hand pays the scan (quadratic: a
        // 64-term pull scanned 2,000 terms).
        var largestVariable = Int.min
        for term in terms where term.solverCoefficient != 0 {
            let coefficient = term.solverCoefficient
            tableau.tolerance.include(coefficient: coefficient)
            let variable = term.solverVariable
            let symbol = makeSymbol(for: Variable(variable))
            var merged = false
            if variable <= largestVariable {
                for index in start..<recordTerms.count where recordTerms[index].symbol == symbol {
                    recordTerms[index].coefficient += coefficient
                    merged = true
                }
            }
            largestVariable = max(largestVariable, variable)
            if !merged { recordTerms.append(Term(symbol, coefficient)) }
        }
        // Drop terms that cancelled (a variable named twice with opposite coefficients).
        var kept = start
        for index in start..<recordTerms.count where recordTerms[index].coefficient != 0 {
            recordTerms[kept] = recordTerms[index]
            kept += 1
        }
        if kept < recordTerms.count { recordTerms.removeSubrange(kept...) }
        return try insertRecorded(from: start, constant: constant, relation: relation, strength: strength, owner: owner)
    }

    /// Adds a row over symbols whose terms (merged, none zero) stand at `recordTerms[start...]`,
    /// as ``insert(_:constant:relation:strength:owner:)`` adds one over variables once it has
    /// written them there: its markers, its subject, and the re-optimisation. Also the entry
    /// of the ambiguity pull on slack and error symbols, which no variable names.
    @inline(__always)
    mutating func insertRecorded(
        from start: Int, constant: Double, relation: Relation, strength: Strength, owner: Int
    ) throws(Failure) -> Record {
        var residual = constant
        var residualMagnitude = abs(constant)
        for index in start..<recordTerms.count {
            let product = recordTerms[index].coefficient * tableau.symbols[recordTerms[index].symbol].value
            residual += product
            residualMagnitude = max(residualMagnitude, abs(product))
        }

        // Markers. Rows read `expression + markers = 0`.
        let level = Int32(clamping: strength.level)
        let marker: Int
        var other = -1
        var subject: Int
        switch (relation, strength.isRequired) {
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

        let record = Record(constant: constant, relation: relation, strength: strength, start: start, count: recordTerms.count - start, marker: marker, other: other)
        defineSubject(subject, from: record)
        if tableau.symbols[subject].costLevel != 0 {
            // The subject carries cost while basic: its reduced row joins the objective.
            let cost = LexVector(level: tableau.symbols[subject].costLevel, value: 1)
            let reduced = tableau.reduce(subject)
            for term in reduced.terms { tableau.addToReducedCost(term.symbol, cost, times: term.coefficient) }
            tableau.recycle(reduced)
        }
        tableau.checkInvariantsAfterMutation()
        try reoptimize(strength.isRequired ? .mayConflict(pending: owner) : .keepsRequiredFeasible)
        return record
    }

    /// Solves the record's row (`Σ terms + constant = 0`) for `subject` and makes it basic,
    /// above every rank (its row may name any symbol).
    private mutating func defineSubject(_ subject: Int, from record: Record) {
        let range = record.start..<record.start + record.count
        var coefficient = 0.0
        var largest = 0.0, smallest = Double.infinity
        for index in range {
            let magnitude = abs(recordTerms[index].coefficient)
            if recordTerms[index].symbol == subject { coefficient = recordTerms[index].coefficient }
            largest = max(largest, magnitude)
            if magnitude > 0 { smallest = min(smallest, magnitude) }
        }
        // A row whose coefficients span more than 1/smallPivotRatio spreads its rounding
        // through every row it is substituted into, as a small pivot does.
        if smallest < Tableau.smallPivotRatio * largest { tableau.sawSmallPivot = true }
        let scale = -1 / coefficient
        let start = tableau.terms.count
        for index in range where recordTerms[index].symbol != subject {
            tableau.terms.append(Term(recordTerms[index].symbol, recordTerms[index].coefficient * scale))
        }
        tableau.highRank += 1
        if !tableau.reducedCosts[subject].isZero { tableau.setReducedCost(subject, LexVector()) }
        tableau.setRow(subject, constant: record.constant * scale, termsFrom: start, rank: tableau.highRank)
        tableau.setValue(subject, tableau.evaluate(subject))
    }
}
