extension Tableau {
    /// Checks the free list and the candidate and infeasible lists against the symbols
    /// (between calls; debug builds). Fails with a precondition naming the first broken rule.
    func _checkInvariants() {
        precondition(!journaling, "invariants checked inside an attempt")
        precondition(reducedCosts.count == symbols.count && users.symbolCount == symbols.count, "per-symbol arrays out of step")
        var isFree = [Bool](repeating: false, count: symbols.count)
        for symbol in freeSymbols {
            precondition(symbol >= 0 && symbol < symbols.count && !isFree[symbol], "free list: \(symbol) out of range or twice")
            isFree[symbol] = true
            let state = symbols[symbol]
            precondition(state.kind == .retired && !state.isBasic && users.isEmpty(symbol), "free symbol \(symbol) still in use")
            precondition(reducedCosts[symbol].isZero && state.value == 0, "free symbol \(symbol) carries a cost or value")
            precondition(state.candidateSlot < 0 && state.infeasibleSlot < 0 && state.editSlot < 0, "free symbol \(symbol) on a list")
        }
        for symbol in symbols.indices where symbols[symbol].kind == .retired {
            precondition(isFree[symbol], "retired symbol \(symbol) not on the free list (leaked)")
        }
        for (slot, symbol) in candidates.enumerated() {
            precondition(Int(symbols[symbol].candidateSlot) == slot, "candidate slot of \(symbol)")
        }
        for (slot, symbol) in infeasible.enumerated() {
            precondition(Int(symbols[symbol].infeasibleSlot) == slot, "infeasible slot of \(symbol)")
        }
    }
}
