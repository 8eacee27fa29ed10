import BackendContract
import LayoutModel

extension CassowarySolver {
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
        do {
            try remove(handle.id)
            tableau.commitAttempt()
        } catch {
            tableau.rollBack(to: checkpoint)
            for (symbol, kind, costLevel) in markers {
                tableau.symbols[symbol].kind = kind
                tableau.symbols[symbol].costLevel = costLevel
            }
            tableau.checkInvariantsAfterMutation()
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
        tableau.refreshValues(of: changed)
        try reoptimize(.keepsRequiredFeasible)
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
    private mutating func markerLeavingRow(_ marker: Int) -> Int? {
        let column = tableau.column(of: marker)
        let pivotTolerance = tableau.tolerance.pivot
        var first = -1
        var firstRatio = Double.infinity
        var second = -1
        var secondRatio = Double.infinity
        var third = -1
        for term in column where abs(term.coefficient) > pivotTolerance {
            let symbol = term.symbol
            switch tableau.symbols[symbol].kind {
            case .retired: continue
            case .external:
                if third < 0 { third = symbol }
            case .slack, .error, .dummy:
                let value = max(tableau.symbols[symbol].value, 0)
                if term.coefficient < 0 {
                    let ratio = value / -term.coefficient
                    if ratio < firstRatio { first = symbol; firstRatio = ratio }
                } else {
                    let ratio = value / term.coefficient
                    if ratio < secondRatio { second = symbol; secondRatio = ratio }
                }
            }
        }
        tableau.recycle(column)
        if first >= 0 { return first }
        if second >= 0 { return second }
        return third >= 0 ? third : nil
    }
}
