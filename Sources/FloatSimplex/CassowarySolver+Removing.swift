import BackendContract
import LayoutModel

extension CassowarySolver {
    // MARK: Removing

    /// Removes a constraint and re-optimises. Removing an edit variable's constraint this way
    /// also ends the edit. A removal that fails (budget, breakdown) leaves the solver exactly
    /// as it was: the attempt is journaled like an addition.
    public mutating func removeConstraint(_ handle: ConstraintHandle) throws(CassowaryError) {
        guard hasConstraint(handle), let record = records[handle.id] else { throw .unknownConstraint(handle) }
        let runMagnitude = removalRunMagnitude
        beginCall()
        // What `remove` changes outside the journal.
        let saved = (liveCount, originalTerms, recordGarbage, recordTerms.count)
        let markers = [record.marker, record.other].filter { $0 >= 0 }.map { ($0, tableau.symbols[$0].kind, tableau.symbols[$0].costLevel) }
        // The constraint's numbers at the current point, before its rows go.
        let removedMagnitude = max(magnitude(of: record), runMagnitude)
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
        heldConstants.remove(record.constant)
        recycle(record, id: handle.id)
        let rebuilt = refactorIfFilled(settled: true, afterRemoval: true, removedMagnitude: removedMagnitude)
        removalRunMagnitude = rebuilt ? 0 : removedMagnitude
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
            eliminate(symbol, changed: &changed)
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
    /// whose rounding moved the views left by hundreds of points. It is eliminated like a
    /// removed marker (``eliminate(_:changed:)``); it is then fresh, and ``recycle(_:id:)``
    /// forgets it.
    private mutating func purgeUnnamed(_ symbol: Int, changed: inout [Int]) {
        eliminate(symbol, changed: &changed)
        if !tableau.reducedCosts[symbol].isZero { tableau.setReducedCost(symbol, LexVector()) }
    }

    /// Takes `symbol` out of every row, adding the rows it rewrites to `changed`, and sets it
    /// to 0: when basic, the rows that name it take its definition instead (their reduced
    /// forms do not change) and its row goes; whatever still names it then is cancellation
    /// residue of an eliminated constraint, and is dropped.
    private mutating func eliminate(_ symbol: Int, changed: inout [Int]) {
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
    }

    /// `|constant| + Σ |coefficient · value|` over the record's own terms at the current
    /// point: the size of the numbers its rows mixed into the tableau.
    private func magnitude(of record: Record) -> Double {
        var sum = abs(record.constant)
        for index in record.start..<record.start + record.count {
            sum += abs(recordTerms[index].coefficient * tableau.symbols[recordTerms[index].symbol].value)
        }
        return sum
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
}
