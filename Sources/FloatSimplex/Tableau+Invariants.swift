import BackendContract

extension Tableau {
    /// Every rule of the tableau's storage that does not hold now, one line each (empty when
    /// it is consistent).
    ///
    /// The rules: the per-symbol arrays are in step; the free list holds retired symbols that
    /// nothing uses; the candidate and infeasible lists agree with their slots and hold
    /// non-basic and basic symbols respectively; a basic symbol has a row inside the pool,
    /// zero reduced cost and a value its row evaluates to (within rounding), and its row names
    /// neither itself nor a retired symbol nor a basic symbol of rank not below its own (the
    /// triangular form); a non-basic symbol has no row and the value 0; `termCount` and
    /// `garbage` account for the pool; the column index lists exactly the rows that name
    /// each symbol.
    ///
    /// - Parameter betweenCalls: also the rules that hold only between the solver's public
    ///   calls: no attempt is open, and every retired symbol is on the free list (a removal
    ///   retires its markers inside its attempt and frees them once it has committed).
    func invariantViolations(betweenCalls: Bool) -> [String] {
        var violations: [String] = []
        if betweenCalls && journaling { violations.append("invariants checked inside an attempt") }
        guard reducedCosts.count == symbols.count && users.symbolCount == symbols.count else {
            return violations + ["per-symbol arrays out of step"]
        }
        var isFree = [Bool](repeating: false, count: symbols.count)
        for symbol in freeSymbols {
            guard symbol >= 0 && symbol < symbols.count && !isFree[symbol] else {
                violations.append("free list: \(symbol) out of range or twice")
                continue
            }
            isFree[symbol] = true
            let state = symbols[symbol]
            if !(state.kind == .retired && !state.isBasic && users.isEmpty(symbol)) { violations.append("free symbol \(symbol) still in use") }
            if !(reducedCosts[symbol].isZero && state.value == 0) { violations.append("free symbol \(symbol) carries a cost or value") }
            if !(state.candidateSlot < 0 && state.infeasibleSlot < 0 && state.editSlot < 0) { violations.append("free symbol \(symbol) on a list") }
        }
        if betweenCalls {
            for symbol in symbols.indices where symbols[symbol].kind == .retired && !isFree[symbol] {
                violations.append("retired symbol \(symbol) not on the free list (leaked)")
            }
        }
        violations += listViolations()
        violations += rowViolations()
        return violations
    }

    /// The candidate and infeasible lists against the slots the symbols record.
    private func listViolations() -> [String] {
        var violations = candidates.invariantViolations("candidate", records: symbols)
        violations += infeasible.invariantViolations("infeasible", records: symbols)
        for symbol in candidates where symbol >= 0 && symbol < symbols.count && symbols[symbol].isBasic {
            violations.append("basic symbol \(symbol) is a candidate")
        }
        for symbol in infeasible where symbol >= 0 && symbol < symbols.count && !symbols[symbol].isBasic {
            violations.append("non-basic symbol \(symbol) listed as infeasible")
        }
        return violations
    }

    /// The rows against the symbols, the pool's accounting and the column index.
    private func rowViolations() -> [String] {
        var violations: [String] = []
        /// Per symbol, how many row terms name it.
        var named = [Int](repeating: 0, count: symbols.count)
        var rowTerms = 0
        for symbol in symbols.indices {
            let state = symbols[symbol]
            guard state.isBasic else {
                if state.rowCount != 0 { violations.append("non-basic symbol \(symbol) has a row") }
                if state.value != 0 { violations.append("non-basic symbol \(symbol) has the value \(state.value)") }
                continue
            }
            if state.kind == .retired { violations.append("retired symbol \(symbol) is basic") }
            if !reducedCosts[symbol].isZero { violations.append("basic symbol \(symbol) has a reduced cost") }
            guard state.rowStart >= 0, state.rowCount >= 0, Int(state.rowStart) + Int(state.rowCount) <= terms.count else {
                violations.append("row of \(symbol) outside the pool")
                continue
            }
            rowTerms += Int(state.rowCount)
            var rowIsSound = true
            for index in state.rowRange {
                let other = terms[index].symbol
                guard other >= 0 && other < symbols.count else {
                    violations.append("row of \(symbol) names \(other), out of range")
                    rowIsSound = false
                    continue
                }
                named[other] += 1
                if other == symbol { violations.append("row of \(symbol) names its own basic symbol"); rowIsSound = false }
                if symbols[other].kind == .retired { violations.append("row of \(symbol) names retired symbol \(other)") }
                if symbols[other].isBasic && symbols[other].rank >= state.rank {
                    violations.append("row of \(symbol) (rank \(state.rank)) names basic \(other) of rank \(symbols[other].rank)")
                    rowIsSound = false
                }
                if !terms[index].coefficient.isFinite { violations.append("row of \(symbol) has coefficient \(terms[index].coefficient)") }
            }
            // A value is its row evaluated, up to the rounding of the numbers it came from
            // (values downstream of a shift are refreshed from their rows, not by increments).
            // Values beyond Double (a system whose solution overflows, which the backend
            // reports as such) are not judged.
            let evaluated = rowIsSound ? evaluate(symbol) : 0
            if rowIsSound && evaluated.isFinite && state.value.isFinite
                && !(abs(evaluated - state.value) <= Tolerance.invariantDrift * Swift.max(1, rowMagnitude(symbol))) {
                let row = state.rowRange.map { "\(terms[$0].coefficient)·s\(terms[$0].symbol)[\(symbols[terms[$0].symbol].value)]" }
                violations.append("value of \(symbol) is \(state.value), its row gives \(evaluated) (\(state.constant) + \(row.joined(separator: " + ")))")
            }
        }
        if rowTerms != termCount { violations.append("termCount \(termCount), rows hold \(rowTerms)") }
        if terms.count != termCount + garbage { violations.append("pool of \(terms.count) terms, \(termCount) in rows and \(garbage) garbage") }
        for symbol in symbols.indices {
            var listed = 0
            for user in users[symbol] {
                listed += 1
                guard user >= 0 && user < symbols.count, symbols[user].isBasic,
                      terms[symbols[user].rowRange].contains(where: { $0.symbol == symbol }) else {
                    violations.append("stale column index: \(user) listed as a user of \(symbol)")
                    continue
                }
            }
            if listed != named[symbol] { violations.append("column index lists \(listed) users of \(symbol), rows name it \(named[symbol]) times") }
        }
        return violations
    }

    /// Traps naming every broken rule of ``invariantViolations(betweenCalls:)``.
    func _checkInvariants(betweenCalls: Bool = true) {
        #if LAYOUTBENCH_FAULTS
        // A planted fault corrupts the tableau on purpose, for the judges to find from the
        // answers; the invariants stand aside rather than trap first.
        if PlantedFault.active != nil { return }
        #endif
        let violations = invariantViolations(betweenCalls: betweenCalls)
        precondition(violations.isEmpty, "tableau invariants: " + violations.joined(separator: "; "))
    }

    /// Debug builds: ``_checkInvariants(betweenCalls:)`` at the end of an operation that
    /// mutates the tableau (see docs/float-backend.md, "Invariants"). A check reads the whole
    /// tableau, so on tableaus above 128 symbols it runs at one mutation in `symbols / 32`:
    /// a bounded cost per mutation, so that debug test runs stay linear. Compiled out of
    /// release builds.
    @inline(__always)
    mutating func checkInvariantsAfterMutation() {
        #if DEBUG
        mutationChecks &+= 1
        if symbols.count <= 128 || mutationChecks % (symbols.count / 32) == 0 { _checkInvariants(betweenCalls: false) }
        #endif
    }
}
