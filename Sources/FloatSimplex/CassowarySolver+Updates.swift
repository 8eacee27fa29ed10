import BackendContract

extension CassowarySolver {
    /// Changes the constants of held constraints in place and re-optimises once, with the
    /// dual simplex (Cassowary's edit constraints, for any constraint).
    ///
    /// A constraint's row reads `Σ terms + constant + s·marker (+ …) = 0`. Changing the
    /// constant by Δ is the same as replacing its marker `m` by `m + Δ/s` everywhere: only the
    /// rows that name the marker change constant, the basis stays dual feasible (reduced costs
    /// do not move), and where a basic symbol left its bounds dual pivots restore it. Several
    /// changes (every row naming the root on a rotation, an intrinsic size's hugging and
    /// resistance rows) share one re-optimisation.
    ///
    /// Atomic: a change that makes the required constraints infeasible throws
    /// ``CassowaryError/unsatisfiable(conflict:)`` (the held constraints of the row that
    /// proves it, the changed ones among them), a budget that runs out throws
    /// ``CassowaryError/budgetExceeded``; either way the solver is exactly as before the call.
    public mutating func setConstants(_ changes: [(handle: ConstraintHandle, constant: Double)]) throws(CassowaryError) {
        try setConstants(changes, rebuildOnBreakdown: true)
    }

    private mutating func setConstants(
        _ changes: [(handle: ConstraintHandle, constant: Double)], rebuildOnBreakdown: Bool
    ) throws(CassowaryError) {
        for change in changes {
            guard change.constant.isFinite else { throw .invalidInput("constant \(change.constant)") }
            guard hasConstraint(change.handle) else { throw .unknownConstraint(change.handle) }
        }
        beginCall()
        let checkpoint = tableau.beginAttempt()
        // The solver's scratch list (no array allocated per call: a drag makes one call a pass).
        var previous = previousConstants
        previousConstants = []
        previous.removeAll(keepingCapacity: true)
        defer { previousConstants = previous }
        var requiredChanged = false
        for change in changes {
            let id = change.handle.id
            // Read field by field: binding the record would copy it (and retain its terms).
            guard let old = records[id]?.constant else { continue }
            let delta = change.constant - old
            if delta == 0 { continue }
            previous.append((id, old))
            records[id]?.constant = change.constant
            heldConstants.replace(old, with: change.constant)
            if records[id]?.strength.isRequired == true { requiredChanged = true }
            tableau.tolerance.include(value: change.constant)
            let (marker, start, count) = records[id].map { ($0.marker, $0.start, $0.count) } ?? (-1, 0, 0)
            var coefficient = 0.0
            for index in start..<start + count where recordTerms[index].symbol == marker {
                coefficient += recordTerms[index].coefficient
            }
            tableau.journaledShift(marker, by: delta / coefficient)
        }
        if previous.isEmpty {
            tableau.commitAttempt()
            return
        }
        #if LAYOUTBENCH_FAULTS
        // Planted fault: the constants move but nothing re-optimises (suggestions and
        // sequences alike reach it through this call).
        if PlantedFault.isActive(.incrementalSuggestSkipsOptimize) {
            tableau.commitAttempt()
            return
        }
        #endif
        do {
            try reoptimize(requiredChanged ? .mayConflict(pending: -1) : .keepsRequiredFeasible)
            tableau.commitAttempt()
        } catch {
            tableau.rollBack(to: checkpoint)
            for (id, constant) in previous.reversed() {
                if let now = records[id]?.constant { heldConstants.replace(now, with: constant) }
                records[id]?.constant = constant
            }
            switch error {
            case .infeasible(let owners):
                throw .unsatisfiable(conflict: owners.filter { $0 >= 0 && hasConstraint(ConstraintHandle(id: $0)) }.sorted().map {
                    ConstraintHandle(id: $0)
                })
            case .budgetExceeded: throw .budgetExceeded
            case .breakdown(let why):
                // As an addition does (``addConstraint(_:)``): the rows rebuilt, once.
                guard rebuildOnBreakdown, rebuildAndReoptimize() else { throw .internalFailure(why) }
                rebuildsAfterBreakdown += 1
                try setConstants(changes, rebuildOnBreakdown: false)
                return
            }
        }
        refactorIfFilled(settled: true)
        tableau.compactIfWasteful()
    }

    /// Moves a held optional constraint to another optional level in place and re-optimises
    /// with the primal simplex (the point stays feasible; only its optimality changes).
    ///
    /// The constraint's error symbols move their cost from the old level to the new one: a
    /// non-basic one in its own reduced cost, a basic one through its reduced row, as an
    /// addition and a removal charge them. No symbol is made or retired, so toggling a
    /// priority back and forth does not grow the tableau. Atomic like ``setConstants(_:)``.
    public mutating func setStrength(_ handle: ConstraintHandle, to strength: Strength) throws(CassowaryError) {
        guard let record = hasConstraint(handle) ? records[handle.id] : nil else { throw .unknownConstraint(handle) }
        guard !strength.isRequired, !record.strength.isRequired, strength.level <= Int(Int32.max) else {
            throw .invalidInput("a strength may only move between optional levels")
        }
        if strength == record.strength { return }
        beginCall()
        let checkpoint = tableau.beginAttempt()
        let newLevel = Int32(strength.level)
        var moved: [(symbol: Int, level: Int32)] = []
        for symbol in [record.marker, record.other] where symbol >= 0 && tableau.symbols[symbol].costLevel != 0 {
            let old = LexVector(level: tableau.symbols[symbol].costLevel, value: 1)
            let new = LexVector(level: newLevel, value: 1)
            if tableau.symbols[symbol].isBasic {
                let reduced = tableau.reduce(symbol)
                for term in reduced.terms {
                    tableau.addToReducedCost(term.symbol, old, times: -term.coefficient)
                    tableau.addToReducedCost(term.symbol, new, times: term.coefficient)
                }
                tableau.recycle(reduced)
            } else {
                tableau.addToReducedCost(symbol, old, times: -1)
                tableau.addToReducedCost(symbol, new, times: 1)
            }
            moved.append((symbol, tableau.symbols[symbol].costLevel))
            tableau.symbols[symbol].costLevel = newLevel
        }
        records[handle.id]?.strength = strength
        do {
            if !tableau.candidates.isEmpty { try reoptimize(.keepsRequiredFeasible) }
            tableau.commitAttempt()
        } catch {
            tableau.rollBack(to: checkpoint)
            for (symbol, level) in moved { tableau.symbols[symbol].costLevel = level }
            records[handle.id]?.strength = record.strength
            switch error {
            case .budgetExceeded: throw .budgetExceeded
            default: throw .internalFailure("strength change: \(error)")
            }
        }
        refactorIfFilled(settled: true)
        tableau.compactIfWasteful()
    }

    /// Changes one held constraint's constant (see ``setConstants(_:)``).
    public mutating func setConstant(_ handle: ConstraintHandle, to constant: Double) throws(CassowaryError) {
        try setConstants([(handle, constant)])
    }

    /// The number of symbols the tableau holds (retired ones included): with
    /// ``constraintCount``, what a long run's memory is made of.
    public var symbolCount: Int { tableau.symbolCount }

    /// Terms stored: the tableau's pool (rows and garbage) and the records' rows.
    public var storedTermCount: Int { tableau.terms.count + recordTerms.count }

    /// Constraint ids in use or ever handed out: with free ids reused, the most constraints
    /// held at once.
    public var recordCapacity: Int { records.count }

    /// The tableau's and the records' free lists against what they list, and the count of
    /// records naming each variable against the records (debug builds, after
    /// every public call that changes the constraints: on small solvers always, on large ones
    /// every 64th call, so that debug test runs stay linear).
    func _checkInvariants() {
        #if DEBUG
        tableau._checkInvariants()
        var isFree = [Bool](repeating: false, count: records.count)
        for id in freeRecords {
            precondition(id >= 0 && id < records.count && !isFree[id] && records[id] == nil, "free record id \(id) in use or twice")
            isFree[id] = true
        }
        for id in records.indices where records[id] == nil {
            precondition(isFree[id], "removed record id \(id) not on the free list (leaked)")
        }
        precondition(records.count - freeRecords.count == liveCount, "live count \(liveCount) against the records")
        var census = BinadeCensus()
        for case let record? in records { census.insert(record.constant) }
        precondition(census.count == heldConstants.count && census.largest == heldConstants.largest,
                     "held constants' census \(heldConstants.count) (largest \(heldConstants.largest)) against the records' \(census.count) (\(census.largest))")
        var naming = [Int32](repeating: 0, count: tableau.symbolCount)
        for case let record? in records {
            for index in record.start..<record.start + record.count where tableau.symbols[recordTerms[index].symbol].kind == .external {
                naming[recordTerms[index].symbol] += 1
            }
        }
        for symbol in naming.indices {
            let counted = symbol < namingRecords.count ? namingRecords[symbol] : 0
            precondition(counted == naming[symbol], "symbol \(symbol) named by \(naming[symbol]) records, counted \(counted)")
        }
        #endif
    }

    /// ``_checkInvariants()`` when it is cheap enough to run now.
    @inline(__always)
    mutating func checkInvariantsNow() {
        #if DEBUG
        invariantCalls &+= 1
        if tableau.symbolCount <= 2_048 || invariantCalls % 64 == 0 { _checkInvariants() }
        #endif
    }
}

extension Tableau {
    /// ``shift(_:by:)``, with the rows it changes journaled first when an attempt is open,
    /// so that a rollback restores their constants.
    mutating func journaledShift(_ symbol: Int, by delta: Double) {
        if journaling {
            for user in users[symbol] { journalRow(of: user) }
            if symbols[symbol].isBasic { journalRow(of: symbol) }
        }
        shift(symbol, by: delta)
    }

    /// Recomputes the values that move with `symbol`, whose users' rows have just changed
    /// constant (a suggestion shifts an edit marker).
    ///
    /// Those are the basic symbols of its FTRAN column (``movingRows(of:)``), in rank order:
    /// the same rows kiwi's dense tableau updates on `suggestValue`. A row of the forward cone
    /// outside the column (it names moving symbols whose movements cancel exactly: a height
    /// between a top and a bottom that move together) keeps its value, so it is not
    /// evaluated; on a form, that halves the rows a keyboard or drag step reads. Entries the
    /// pivoting column drops as rounding (``column(of:)``) stay: a shift of 1e9 makes a
    /// coefficient of 5e-10 move a value by 0.5 (the guided fuzzer's chain through
    /// `v2.width == 1e-9 * v1.width`, Corpora/regressions/). The first call computes the
    /// column and remembers it; later calls for the same symbol, until some row changes,
    /// evaluate the remembered rows in one plain loop, each from its row (no accumulated
    /// increments, so no drift over long runs).
    mutating func refreshValues(downstreamOfShifted symbol: Int) {
        var slot = shiftCones.firstIndex { $0.symbol == symbol } ?? -1
        if slot < 0 {
            let order = movingRows(of: symbol)
            // A handful of edit variables at most are suggested in turn (a window's width and height).
            if shiftCones.count >= 8 { shiftCones.removeFirst() }
            shiftCones.append((symbol, order))
            slot = shiftCones.count - 1
        }
        let order = shiftCones[slot].order
        var restricted = touched
        touched = []
        restricted.removeAll(keepingCapacity: true)
        // Inside an attempt (an atomic change of constants) the old values are journaled.
        var oldValues = shiftedValues
        shiftedValues = []
        oldValues.removeAll(keepingCapacity: true)
        let journal = journaling
        let pool = terms
        pool.withUnsafeBufferPointer { pool in
            symbols.withUnsafeMutableBufferPointer { symbols in
                for basic in order {
                    var sum = symbols[basic].constant
                    for index in symbols[basic].rowRange { sum += pool[index].coefficient * symbols[pool[index].symbol].value }
                    if sum != symbols[basic].value {
                        if journal { oldValues.append((basic, symbols[basic].value)) }
                        symbols[basic].value = sum
                        // Only restricted symbols can turn infeasible.
                        if symbols[basic].kind != .external { restricted.append(basic) }
                    }
                }
            }
        }
        for (basic, value) in oldValues { record(.value(symbol: basic, old: value)) }
        for basic in restricted { updateFeasibility(basic) }
        touched = restricted
        touchedCount = 0
        shiftedValues = oldValues
    }

    private mutating func journalRow(of symbol: Int) {
        record(.row(
            symbol: symbol, start: symbols[symbol].rowStart, count: symbols[symbol].rowCount,
            constant: symbols[symbol].constant, wasBasic: symbols[symbol].isBasic, rank: symbols[symbol].rank))
    }
}
