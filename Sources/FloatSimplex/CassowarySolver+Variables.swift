import BackendContract
import LayoutModel

extension CassowarySolver {
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
        symbolMapVersion &+= 1
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
        symbolMapVersion &+= 1
        let slot = variable.index &- denseBase
        if slot >= 0 && slot < denseSymbols.count { denseSymbols[slot] = 0 }
        sparseSymbols[variable.index] = nil
    }
}
