extension Tableau {
    // MARK: Symbols

    mutating func newSymbol(_ kind: SymbolKind, owner: Int, costLevel: Int32 = 0) -> Int {
        let symbol = symbols.count
        if symbol == 0 {
            // One allocation per array, sized for a dozen constraints (a table cell: about 24
            // symbols and 40 row terms), instead of a run of regrowths from empty for each.
            // Not more: thousands of such solvers live at once, and their footprint, not
            // their instruction count, is what bounds them once it outgrows the caches.
            symbols.reserveCapacity(24); reducedCosts.reserveCapacity(24); terms.reserveCapacity(40)
            users.reserveCapacity(24)
            candidates.reserveCapacity(4)
            heap.reserveCapacity(8); touched.reserveCapacity(16)
            termBuffer.reserveCapacity(12)
            journal.reserveCapacity(16)
        }
        // An error symbol is born non-basic, costing 1 per unit at its level.
        let cost = kind == .error && costLevel != 0 ? LexVector(level: costLevel, value: 1) : LexVector()
        if let reused = freeSymbols.popLast() {
            if journaling { reusedSymbols.append((reused, symbols[reused])) }
            symbols[reused] = SymbolState(kind: kind, costLevel: costLevel, owner: owner)
            reducedCosts[reused] = cost
            return reused
        }
        symbols.append(SymbolState(kind: kind, costLevel: costLevel, owner: owner))
        reducedCosts.append(cost)
        users.appendSymbol()
        return symbol
    }

    /// Hands a symbol that no row names any more to `newSymbol` (outside attempts only: a
    /// retirement inside one is undone by the rollback, so it is freed once the attempt commits).
    mutating func free(_ symbol: Int) {
        precondition(!journaling && !symbols[symbol].isBasic && users.isEmpty(symbol), "freeing a symbol in use")
        symbols[symbol].kind = .retired
        symbols[symbol].costLevel = 0
        symbols[symbol].editSlot = -1
        symbols[symbol].value = 0
        if !reducedCosts[symbol].isZero { reducedCosts[symbol] = LexVector() }
        updateCandidacy(symbol)
        updateFeasibility(symbol)
        freeSymbols.append(symbol)
        checkInvariantsAfterMutation()
    }

    func isFresh(_ symbol: Int) -> Bool {
        symbols[symbol].kind == .external && !symbols[symbol].isBasic && users.isEmpty(symbol)
    }
}

extension Tableau {
    /// Sizes the symbol arrays for `symbols` symbols and the term pool and column index for
    /// `terms` row terms, so that a caller who knows the system's size (a one-shot solve)
    /// does not regrow them: on 100 self-sizing table cells the regrowths copied more than
    /// the additions wrote.
    mutating func reserveCapacity(symbols symbolCount: Int, terms termCount: Int) {
        symbols.reserveCapacity(symbolCount)
        reducedCosts.reserveCapacity(symbolCount)
        terms.reserveCapacity(termCount)
        users.reserveCapacity(symbolCount, entries: termCount)
    }
}
