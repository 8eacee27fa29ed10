import BackendContract

/// An undo record, written while an addition may still be rejected.
///
/// A replaced row's terms stay in the pool until the attempt ends, so its entry is the old
/// row's place there, not a copy.
enum JournalEntry: Sendable {
    case row(symbol: Int, start: Int32, count: Int32, constant: Double, wasBasic: Bool, rank: Int)
    case value(symbol: Int, old: Double)
    /// An old reduced cost of at most two levels (almost all of them): no storage owned, so
    /// the journal's entries are plain values and overwriting one costs no release.
    case reducedCost(symbol: Int, old: LexVector.Inline)
    /// A longer one, kept at `Tableau.journalSpill[slot]`.
    case spilledReducedCost(symbol: Int, slot: Int)
    /// One level's old entry (0: none) of a reduced cost longer than two levels, when only
    /// that level changes: a copy of the whole vector would make each such change as long
    /// as the vector (and the change itself a copy, the array being shared with the journal).
    case reducedCostEntry(symbol: Int, level: Int32, old: Double)
}

/// Everything an addition can change that is not journaled entry by entry.
struct Checkpoint: Sendable {
    /// Symbols numbered from here on were made by the attempt and are dropped.
    var symbolCount: Int
    /// The term pool is cut back to this length: rows written since live past it.
    var poolCount: Int
    /// Dead terms in the pool before it: the compaction trigger's count.
    var garbage: Int
    /// The rank range (``Tableau/lowRank``, ``Tableau/highRank``), widened by new rows.
    var lowRank: Int
    var highRank: Int
    /// The largest constant and coefficient seen, which a new row may have raised.
    var tolerance: Tolerance
}

extension Tableau {
    // MARK: Journal

    @inline(__always)
    mutating func record(_ entry: JournalEntry) {
        if journalLength < journal.count { journal[journalLength] = entry } else { journal.append(entry) }
        journalLength += 1
    }

    @inline(__always)
    mutating func recordReducedCost(of symbol: Int) {
        if let inline = reducedCosts[symbol].inline {
            record(.reducedCost(symbol: symbol, old: inline))
        } else {
            journalSpill.append(reducedCosts[symbol])
            record(.spilledReducedCost(symbol: symbol, slot: journalSpill.count - 1))
        }
    }

    mutating func beginAttempt() -> Checkpoint {
        journalLength = 0
        if !journalSpill.isEmpty { journalSpill.removeAll(keepingCapacity: true) }
        journaling = true
        journalBase = symbolCount
        if !reusedSymbols.isEmpty { reusedSymbols.removeAll(keepingCapacity: true) }
        if !savedCandidates.isEmpty { savedCandidates.removeAll(keepingCapacity: true) }
        if !savedInfeasible.isEmpty { savedInfeasible.removeAll(keepingCapacity: true) }
        if !candidates.isEmpty { savedCandidates.append(contentsOf: candidates.members) }
        if !infeasible.isEmpty { savedInfeasible.append(contentsOf: infeasible.members) }
        return Checkpoint(
            symbolCount: symbolCount, poolCount: terms.count, garbage: garbage, lowRank: lowRank, highRank: highRank,
            tolerance: tolerance)
    }

    mutating func commitAttempt() {
        journaling = false
        journalLength = 0
        checkInvariantsAfterMutation()
    }

    /// Restores the state at `checkpoint` exactly: rows, ranks, values, reduced costs,
    /// column index (as sets), lists and scales.
    mutating func rollBack(to checkpoint: Checkpoint) {
        journaling = false
        #if LAYOUTBENCH_FAULTS
        // Planted fault: one journal entry is not undone — the value of the first symbol (in
        // recording order) whose value the attempt journaled and that is basic once the rest is
        // rolled back keeps the attempt's value (a number, not structure: the tableau stays
        // usable, and its answer wrong).
        var attemptValues: [(symbol: Int, value: Double)] = []
        if PlantedFault.isActive(.incrementalRollbackKeepsEntry) {
            for entry in journal[..<journalLength] {
                if case .value(let symbol, _) = entry, symbol < checkpoint.symbolCount, !attemptValues.contains(where: { $0.symbol == symbol }) {
                    attemptValues.append((symbol, symbols[symbol].value))
                }
            }
        }
        #endif
        while journalLength > 0 {
            journalLength -= 1
            switch journal[journalLength] {
            case .row(let symbol, let start, let count, let constant, let wasBasic, let oldRank):
                place(symbol, start: start, count: count, constant: constant, basic: wasBasic, rank: oldRank)
            case .value(let symbol, let old):
                symbols[symbol].value = old
            case .reducedCost(let symbol, let old):
                reducedCosts[symbol] = LexVector(old)
            case .spilledReducedCost(let symbol, let slot):
                reducedCosts[symbol] = journalSpill[slot]
            case .reducedCostEntry(let symbol, let level, let old):
                reducedCosts[symbol].setValue(old, atLevel: level)
            }
        }
        let count = checkpoint.symbolCount
        candidates.replaceMembers(with: savedCandidates, recordCount: count, records: &symbols)
        infeasible.replaceMembers(with: savedInfeasible, recordCount: count, records: &symbols)
        symbols.removeSubrange(count...)
        reducedCosts.removeSubrange(count...)
        terms.removeSubrange(checkpoint.poolCount...)
        garbage = checkpoint.garbage
        users.removeSymbols(from: count)
        // Reused symbols go back to their retired state and onto the free list in the order
        // they left it. (The journal has already restored their rows, so no row names them.)
        while let (symbol, state) = reusedSymbols.popLast() {
            symbols[symbol] = state
            reducedCosts[symbol] = LexVector()
            freeSymbols.append(symbol)
        }
        lowRank = checkpoint.lowRank
        highRank = checkpoint.highRank
        tolerance = checkpoint.tolerance
        // No invariant check here: what the journal does not hold (the kinds of a failed
        // removal's retired markers) is restored by the caller, which checks after it.
        #if LAYOUTBENCH_FAULTS
        if let kept = attemptValues.first(where: { symbols[$0.symbol].isBasic }) { symbols[kept.symbol].value = kept.value }
        #endif
    }
}
