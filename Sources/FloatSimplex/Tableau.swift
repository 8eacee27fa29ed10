import BackendContract
/// What a tableau symbol stands for.
enum SymbolKind: UInt8, Sendable {
    /// A caller's variable: unrestricted in sign.
    case external
    /// ≥ 0: an inequality's marker.
    case slack
    /// ≥ 0, costs one unit per unit at its constraint's level.
    case error
    /// Fixed at 0: a required equality's marker. Never enters the basis.
    case dummy
    /// Belonged to a removed constraint; appears in no row.
    case retired

    var isRestricted: Bool { self == .slack || self == .error }
}

/// A symbol's state apart from its row and column index.
struct SymbolState: Sendable {
    var kind: SymbolKind
    var isBasic = false
    /// The cost level of an error symbol (0: none).
    var costLevel: Int32
    /// A basic symbol's place in the topological order of rows.
    var rank = 0
    var value = 0.0
    /// The constraint a marker, slack or error symbol belongs to (the variable's index for
    /// externals).
    var owner: Int
    var candidateSlot: Int32 = -1
    var infeasibleSlot: Int32 = -1
    /// A basic symbol's row: `value = constant + Σ terms`, the terms at
    /// `Tableau.terms[rowStart ..< rowStart + rowCount]`.
    var constant = 0.0
    var rowStart: Int32 = 0
    var rowCount: Int32 = 0

    @inline(__always)
    var rowRange: Range<Int> { Int(rowStart)..<Int(rowStart) + Int(rowCount) }
    /// Cone-walk scratch: the walk (epoch) that last reached the symbol, and what it has
    /// accumulated there. Beside the fields a walk reads anyway (basic flag, rank, row).
    var seen: UInt32 = 0
    /// An external symbol's place in the solver's list of edits (-1: not an edit variable).
    var editSlot: Int32 = -1
    var accumulator = 0.0

    init(kind: SymbolKind, costLevel: Int32, owner: Int) {
        self.kind = kind
        self.costLevel = costLevel
        self.owner = owner
    }
}

/// `coefficient × symbol` in a row.
struct Term: Sendable, Hashable {
    var symbol: Int
    var coefficient: Double

    init(_ symbol: Int, _ coefficient: Double) {
        self.symbol = symbol
        self.coefficient = coefficient
    }
}

/// A row outside the tableau's storage: `basic = constant + Σ coefficient·symbol` (a
/// definition), or `Σ terms + constant = 0` (a constraint). Rows inside the tableau live in
/// its term pool; this is for the rarer paths (refactorisation, removal, tests) and for the
/// reduced rows handed between a BTRAN and a pivot.
struct Row: Sendable, Hashable {
    var constant: Double
    var terms: [Term]

    init(constant: Double, terms: [Term]) {
        self.constant = constant
        self.terms = terms
    }

    static let empty = Row(constant: 0, terms: [])
}

/// A min-heap of symbols keyed by an integer (a rank, or a negated rank for a max-heap).
struct KeyedHeap: Sendable {
    private var entries: [(key: Int, symbol: Int)] = []

    var isEmpty: Bool { entries.isEmpty }

    mutating func reserveCapacity(_ count: Int) { entries.reserveCapacity(count) }

    mutating func removeAll() { entries.removeAll(keepingCapacity: true) }

    mutating func push(_ symbol: Int, key: Int) {
        entries.append((key, symbol))
        // One uniqueness check for the whole sift rather than one per move.
        entries.withUnsafeMutableBufferPointer { entries in
            var i = entries.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                if entries[parent].key <= key { break }
                entries[i] = entries[parent]
                i = parent
            }
            entries[i] = (key, symbol)
        }
    }

    mutating func pop() -> Int? {
        guard let top = entries.first else { return nil }
        let last = entries.removeLast()
        if entries.isEmpty { return top.symbol }
        entries.withUnsafeMutableBufferPointer { entries in
            let count = entries.count
            var i = 0
            while true {
                let left = 2 * i + 1
                if left >= count { break }
                let right = left + 1
                let child = right < count && entries[right].key < entries[left].key ? right : left
                if entries[child].key >= last.key { break }
                entries[i] = entries[child]
                i = child
            }
            entries[i] = last
        }
        return top.symbol
    }
}

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
}

/// Everything an addition can change that is not journaled entry by entry.
struct Checkpoint: Sendable {
    var symbolCount: Int
    var poolCount: Int
    var garbage: Int
    var lowRank: Int
    var highRank: Int
    var tolerance: Tolerance
}

/// The simplex tableau in triangular form.
///
/// A dense Cassowary tableau (kiwi's) writes every basic variable in terms of non-basic ones
/// only. On a chain of views that makes the row of the i-th position as long as the chain:
/// the tableau holds Θ(n²) entries and each addition substitutes into Θ(n) rows. Here a
/// basic symbol's row may also name *other basic symbols*, provided the references form no
/// cycle; `rank` is a topological order (a row names only symbols of lower rank). This is
/// an LU factorisation of the basis kept in product form: on chains, trees and grids, whose
/// bases are triangular, rows stay as short as the constraints that made them.
///
/// The reduced (fully non-basic) form of a row is computed on demand by walking its
/// backward cone (`reduce`, a BTRAN); the effect of a non-basic column on the basic
/// variables by walking the forward cone through the column index `users` (`column`, an
/// FTRAN). Values of basic variables are cached and refreshed along forward cones; the
/// reduced objective (one lexicographic vector per non-basic symbol) is maintained
/// incrementally, as in kiwi.
struct Tableau: Sendable {
    /// Per symbol, everything but its reduced cost, its row's terms and its users (one array of records rather than a
    /// dozen parallel arrays: a symbol's state is read together, and a small solver — one
    /// table cell — allocates one array for it instead of a dozen).
    var symbols: [SymbolState] = []
    /// Per symbol, the reduced cost of a non-basic symbol (zero for basic ones). Kept apart
    /// from `SymbolState` so that the record stays trivially copyable (a `LexVector` may own
    /// an array): reading a symbol's state then copies no reference.
    var reducedCosts: [LexVector] = []
    /// The term pool: every basic symbol's row is a run of it (`SymbolState.rowRange`).
    ///
    /// One array for all rows instead of one per row: a solver of a dozen constraints (one
    /// table cell) would otherwise allocate and release an array for every row it writes.
    /// A row is never rewritten in place: a new one is appended and the old run becomes
    /// garbage, so a journal entry needs only the old run's place, and a rollback restores
    /// places and truncates the pool. `compactIfWasteful()` drops garbage between calls.
    var terms: [Term] = []
    /// Terms in the pool that no row owns.
    var garbage = 0
    /// Column index: the basic symbols whose rows name this symbol directly.
    var users = ColumnIndex()

    /// Non-basic symbols whose reduced cost shows an improving direction.
    var candidates: [Int] = []
    /// Basic symbols outside their bounds.
    var infeasible: [Int] = []

    // Cone walks: the current walk's number (see `SymbolState.seen`) and its queue.
    var epoch: UInt32 = 0
    var heap = KeyedHeap()
    /// The FTRAN columns of the symbols last shifted, as the basic symbols that move with
    /// each, in rank order (see `refreshValues(downstreamOfShifted:)`); emptied by any change
    /// of a row.
    var shiftCones: [(symbol: Int, order: [Int])] = []
    /// Scratch of `refreshValues(downstreamOfShifted:)`: the old values it journals.
    var shiftedValues: [(symbol: Int, value: Double)] = []
    /// A spent column's or reduced row's storage, handed back through `recycle` for the next
    /// `column` or `reduce` to reuse.
    var termBuffer: [Term] = []
    /// The symbols the current walk reached: `touched[..<touchedCount]` (the rest is stale;
    /// overwriting instead of emptying the array saves a call per walk).
    var touched: [Int] = []
    var touchedCount = 0
    /// BTRAN scratch beside `SymbolState.accumulator`, indexed by symbol: the largest magnitude
    /// summed into it by this walk, the size of the numbers whose cancellation the sum may be
    /// left over from. Apart from `SymbolState` so that copying the symbols (a checkpoint, the
    /// ambiguity estimate's scratch tableau) copies no more than before.
    var accumulatedMagnitudes: [Double] = []

    /// Ranks handed to rows that name only non-basic symbols (below everything) and to rows
    /// that may name anything (above everything).
    var lowRank = 0
    var highRank = 0

    var tolerance = Tolerance()
    var pivots = 0
    /// Σ row lengths over basic symbols: with the records' own size, it tells how much fill-in
    /// pivots have added since the last refactorisation.
    var termCount = 0
    var refactorisations = 0
    /// `termCount` when the tableau was last known free of fill-in (after a refactorisation,
    /// or grown by additions, which add short rows).
    var cleanTermCount = 0

    /// Undo records of the current attempt: `journal[..<journalLength]` (entries beyond are
    /// stale, overwritten in place, so ending an attempt costs nothing).
    var journal: [JournalEntry] = []
    var journalLength = 0
    var journalSpill: [LexVector] = []
    var journaling = false
    /// The candidate and infeasible lists when the attempt began (restored on rollback).
    var savedCandidates: [Int] = []
    var savedInfeasible: [Int] = []
    var journalBase = 0

    /// Retired symbols (and forgotten external ones) waiting to be handed out again by
    /// `newSymbol`, most recently retired last. Without it a long-lived solver — a layout
    /// engine adding and removing rows for 100,000 passes — grows a record, a reduced cost and a
    /// column-index head per symbol it ever made, and every walk over all symbols (a
    /// refactorisation, the ambiguity estimate) slows with it. Each member is `.retired`,
    /// non-basic, named by no row, on no list, with a zero reduced cost and value.
    var freeSymbols: [Int] = []
    /// Symbols the current attempt took from `freeSymbols`, with their retired state: a
    /// rollback restores them and hands them back in the same order.
    var reusedSymbols: [(symbol: Int, state: SymbolState)] = []

    var symbolCount: Int { symbols.count }

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
    }

    func isFresh(_ symbol: Int) -> Bool {
        symbols[symbol].kind == .external && !symbols[symbol].isBasic && users.isEmpty(symbol)
    }

    // MARK: Journaled primitives

    /// A basic symbol's row, copied out of the pool (for the rare paths; hot loops read
    /// `terms[symbols[s].rowRange]` by index).
    func row(_ symbol: Int) -> Row {
        guard symbols[symbol].isBasic else { return .empty }
        return Row(constant: symbols[symbol].constant, terms: Array(terms[symbols[symbol].rowRange]))
    }

    /// Makes `symbol` basic with `row` at `rank`, or non-basic when `row` is nil.
    mutating func setRow(_ symbol: Int, _ row: Row?, rank newRank: Int = 0) {
        guard let row else {
            clearRow(symbol)
            return
        }
        let start = terms.count
        terms.append(contentsOf: row.terms)
        setRow(symbol, constant: row.constant, termsFrom: start, rank: newRank)
    }

    /// Makes `symbol` basic at `rank` with the row `constant + Σ terms[start...]` (the terms
    /// just appended to the pool), keeping the column index in step.
    mutating func setRow(_ symbol: Int, constant: Double, termsFrom start: Int, rank newRank: Int) {
        let count = terms.count - start
        place(symbol, start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: count), constant: constant, basic: true, rank: newRank)
    }

    /// Makes `symbol` non-basic.
    mutating func clearRow(_ symbol: Int) {
        place(symbol, start: 0, count: 0, constant: 0, basic: false, rank: symbols[symbol].rank)
    }

    /// Points `symbol`'s row at a run of the pool (journaled), moving its users.
    private mutating func place(_ symbol: Int, start: Int32, count: Int32, constant: Double, basic: Bool, rank newRank: Int) {
        if !shiftCones.isEmpty { shiftCones.removeAll() }
        let wasBasic = symbols[symbol].isBasic
        if journaling {
            record(.row(
                symbol: symbol, start: symbols[symbol].rowStart, count: symbols[symbol].rowCount,
                constant: symbols[symbol].constant, wasBasic: wasBasic, rank: symbols[symbol].rank))
        }
        if wasBasic {
            let count = Int(symbols[symbol].rowCount)
            termCount -= count
            garbage += count
            for index in symbols[symbol].rowRange { users.remove(symbol, from: terms[index].symbol) }
        }
        symbols[symbol].rowStart = start
        symbols[symbol].rowCount = count
        symbols[symbol].constant = constant
        symbols[symbol].isBasic = basic
        if basic {
            termCount += Int(count)
            symbols[symbol].rank = newRank
            for index in symbols[symbol].rowRange { users.add(symbol, to: terms[index].symbol) }
        }
        updateCandidacy(symbol)
        updateFeasibility(symbol)
    }

    /// Rewrites the pool without its garbage (between calls only: nothing may hold a run).
    mutating func compactIfWasteful() {
        guard !journaling, garbage > 64, garbage > termCount else { return }
        var packed: [Term] = []
        packed.reserveCapacity(termCount + termCount / 2 + 16)
        for symbol in symbols.indices where symbols[symbol].isBasic {
            let range = symbols[symbol].rowRange
            symbols[symbol].rowStart = Int32(truncatingIfNeeded: packed.count)
            for index in range { packed.append(terms[index]) }
        }
        terms = packed
        garbage = 0
    }

    @inline(__always)
    mutating func setValue(_ symbol: Int, _ newValue: Double) {
        if journaling && symbol < journalBase { record(.value(symbol: symbol, old: symbols[symbol].value)) }
        symbols[symbol].value = newValue
        updateFeasibility(symbol)
    }

    @inline(__always)
    mutating func setReducedCost(_ symbol: Int, _ cost: LexVector) {
        if journaling && symbol < journalBase {
            recordReducedCost(of: symbol)
        }
        reducedCosts[symbol] = cost
        updateCandidacy(symbol)
    }

    @inline(__always)
    mutating func addToReducedCost(_ symbol: Int, _ cost: LexVector, times factor: Double) {
        if journaling && symbol < journalBase {
            recordReducedCost(of: symbol)
        }
        reducedCosts[symbol].add(cost, times: factor)
        updateCandidacy(symbol)
    }

    // MARK: Membership of the candidate and infeasible lists

    /// The direction in which a non-basic symbol improves the objective (0: none).
    @inline(__always)
    func improvingDirection(_ symbol: Int) -> Int {
        if symbols[symbol].isBasic { return 0 }
        switch symbols[symbol].kind {
        case .external: return -reducedCosts[symbol].sign
        case .slack, .error: return reducedCosts[symbol].sign < 0 ? 1 : 0
        case .dummy, .retired: return 0
        }
    }

    @inline(__always)
    mutating func updateCandidacy(_ symbol: Int) {
        let wanted = improvingDirection(symbol) != 0
        let slot = symbols[symbol].candidateSlot
        if wanted && slot < 0 {
            symbols[symbol].candidateSlot = Int32(truncatingIfNeeded: candidates.count)
            candidates.append(symbol)
        } else if !wanted && slot >= 0 {
            removeCandidate(symbol)
        }
    }

    /// Drops a candidate until its reduced cost next changes (used when a direction turns out
    /// to be numerical noise: improving in sign, unbounded in fact).
    mutating func removeCandidate(_ symbol: Int) {
        let slot = symbols[symbol].candidateSlot
        guard slot >= 0 else { return }
        let last = candidates.removeLast()
        if last != symbol {
            candidates[Int(slot)] = last
            symbols[last].candidateSlot = slot
        }
        symbols[symbol].candidateSlot = -1
    }

    @inline(__always)
    func isInfeasible(_ symbol: Int) -> Bool {
        guard symbols[symbol].isBasic else { return false }
        switch symbols[symbol].kind {
        case .slack, .error:
            // The row's own numbers set the scale of its rounding: a global scale (the largest
            // constant times the largest coefficient) let `width <= 177000000030` hide a
            // violation of 20 in a row of small numbers.
            let value = symbols[symbol].value
            return value < 0 && isBeyondRounding(-value, of: symbol)
        case .dummy:
            // A required equality's marker must be 0, within the rounding of its own row.
            let value = abs(symbols[symbol].value)
            return value > 0 && isBeyondRounding(value, of: symbol)
        case .external, .retired: return false
        }
    }

    /// `|constant| + Σ |coefficient · value|` of a basic symbol's row: the size of the numbers
    /// its value is computed from.
    @inline(__always)
    func rowMagnitude(_ symbol: Int) -> Double {
        var sum = abs(symbols[symbol].constant)
        for index in symbols[symbol].rowRange { sum += abs(terms[index].coefficient * symbols[terms[index].symbol].value) }
        return sum
    }

    /// Whether a basic symbol's deviation `amount` (> 0) from its bound exceeds the rounding
    /// its value can carry: ``Tolerance/decision`` times the magnitude of the numbers it is
    /// computed from. Its own row's (``rowMagnitude(_:)``) settles almost every case; a row
    /// may name other basic symbols, though, whose values carry the rounding of theirs (a
    /// duplicated equality's marker is `-s` where `s` is 2.8e-14 left over from positions near
    /// 667), so beyond the own row the backward cone decides (``coneMagnitude(_:)``).
    @inline(__always)
    func isBeyondRounding(_ amount: Double, of symbol: Int) -> Bool {
        // The row's constant alone settles most residues without reading the row.
        amount > Tolerance.decision * abs(symbols[symbol].constant) && isBeyondRoundingOfRow(amount, of: symbol)
    }

    @inline(never)
    private func isBeyondRoundingOfRow(_ amount: Double, of symbol: Int) -> Bool {
        amount > Tolerance.decision * rowMagnitude(symbol) && amount > Tolerance.decision * coneMagnitude(symbol)
    }

    /// `M(s) = |constant| + Σ |coefficient| · (M(x) if x is basic, else |value of x|)` over
    /// the backward cone of a basic symbol: a bound on the magnitudes its value's rounding
    /// comes from. Allocates; computed only for values that the own row does not settle.
    func coneMagnitude(_ symbol: Int) -> Double {
        var memo: [Int: Double] = [:]
        var stack: [Int] = [symbol]
        while let top = stack.last {
            if memo[top] != nil { stack.removeLast(); continue }
            var pending = false
            for index in symbols[top].rowRange {
                let other = terms[index].symbol
                if symbols[other].isBasic && memo[other] == nil { stack.append(other); pending = true }
            }
            if pending { continue }
            var sum = abs(symbols[top].constant)
            for index in symbols[top].rowRange {
                let other = terms[index].symbol
                sum += abs(terms[index].coefficient) * (symbols[other].isBasic ? memo[other]! : abs(symbols[other].value))
            }
            memo[top] = sum
            stack.removeLast()
        }
        return memo[symbol] ?? 0
    }

    @inline(__always)
    mutating func updateFeasibility(_ symbol: Int) {
        let wanted = isInfeasible(symbol)
        let slot = symbols[symbol].infeasibleSlot
        if wanted && slot < 0 {
            symbols[symbol].infeasibleSlot = Int32(truncatingIfNeeded: infeasible.count)
            infeasible.append(symbol)
        } else if !wanted && slot >= 0 {
            let last = infeasible.removeLast()
            if last != symbol {
                infeasible[Int(slot)] = last
                symbols[last].infeasibleSlot = slot
            }
            symbols[symbol].infeasibleSlot = -1
        }
    }

    // MARK: Journal

    @inline(__always)
    mutating func record(_ entry: JournalEntry) {
        if journalLength < journal.count { journal[journalLength] = entry } else { journal.append(entry) }
        journalLength += 1
    }

    @inline(__always)
    private mutating func recordReducedCost(of symbol: Int) {
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
        if !candidates.isEmpty { savedCandidates.append(contentsOf: candidates) }
        if !infeasible.isEmpty { savedInfeasible.append(contentsOf: infeasible) }
        return Checkpoint(
            symbolCount: symbolCount, poolCount: terms.count, garbage: garbage, lowRank: lowRank, highRank: highRank,
            tolerance: tolerance)
    }

    mutating func commitAttempt() {
        journaling = false
        journalLength = 0
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
            }
        }
        let count = checkpoint.symbolCount
        for list in [candidates, infeasible] {
            for symbol in list where symbol < count {
                symbols[symbol].candidateSlot = -1
                symbols[symbol].infeasibleSlot = -1
            }
        }
        symbols.removeSubrange(count...)
        reducedCosts.removeSubrange(count...)
        terms.removeSubrange(checkpoint.poolCount...)
        garbage = checkpoint.garbage
        users.removeSymbols(from: count)
        candidates.removeAll(keepingCapacity: true)
        candidates.append(contentsOf: savedCandidates)
        infeasible.removeAll(keepingCapacity: true)
        infeasible.append(contentsOf: savedInfeasible)
        for (slot, symbol) in candidates.enumerated() { symbols[symbol].candidateSlot = Int32(truncatingIfNeeded: slot) }
        for (slot, symbol) in infeasible.enumerated() { symbols[symbol].infeasibleSlot = Int32(truncatingIfNeeded: slot) }
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
        #if LAYOUTBENCH_FAULTS
        if let kept = attemptValues.first(where: { symbols[$0.symbol].isBasic }) { symbols[kept.symbol].value = kept.value }
        #endif
    }

    // MARK: Cone walks

    private mutating func nextEpoch() {
        epoch &+= 1
        if epoch == 0 {
            for i in symbols.indices { symbols[i].seen = 0 }
            epoch = 1
        }
        // Emptying an empty array still costs a generic call: skip it.
        if !heap.isEmpty { heap.removeAll() }
        touchedCount = 0
    }

    /// The reduced form of `symbol`'s row: the same equation over non-basic symbols only (a
    /// BTRAN). Walks the backward cone from the highest rank down, so each basic symbol is
    /// expanded once, after every row that names it has contributed to its coefficient.
    ///
    /// The result's terms live in a buffer the tableau reuses: hand it back with
    /// ``recycle(_:)-(Row)`` (or to ``pivot(entering:leaving:reducedLeavingRow:)``).
    mutating func reduce(_ symbol: Int) -> Row {
        nextEpoch()
        if accumulatedMagnitudes.count < symbols.count {
            accumulatedMagnitudes.append(contentsOf: repeatElement(0, count: symbols.count - accumulatedMagnitudes.count))
        }
        var constant = symbols[symbol].constant
        for index in symbols[symbol].rowRange { accumulate(terms[index].symbol, terms[index].coefficient) }
        while let basic = heap.pop() {
            let factor = symbols[basic].accumulator
            symbols[basic].accumulator = 0
            if Tolerance.isCancelled(factor, of: accumulatedMagnitudes[basic]) { continue }
            constant += factor * symbols[basic].constant
            for index in symbols[basic].rowRange { accumulate(terms[index].symbol, factor * terms[index].coefficient) }
        }
        var reduced = termBuffer
        termBuffer = []
        reduced.removeAll(keepingCapacity: true)
        for slot in 0..<touchedCount {
            let symbol = touched[slot]
            if symbols[symbol].isBasic { continue }
            let coefficient = symbols[symbol].accumulator
            if !Tolerance.isCancelled(coefficient, of: accumulatedMagnitudes[symbol]) {
                reduced.append(Term(symbol, coefficient))
            }
        }
        return Row(constant: constant, terms: reduced)
    }

    /// Takes back a reduced row's storage once the caller is done with it.
    mutating func recycle(_ row: consuming Row) { termBuffer = row.terms }

    @inline(__always)
    private mutating func accumulate(_ symbol: Int, _ amount: Double) {
        if symbols[symbol].seen != epoch {
            symbols[symbol].seen = epoch
            symbols[symbol].accumulator = amount
            accumulatedMagnitudes[symbol] = abs(amount)
            if touchedCount < touched.count { touched[touchedCount] = symbol } else { touched.append(symbol) }
            touchedCount += 1
            if symbols[symbol].isBasic { heap.push(symbol, key: -symbols[symbol].rank) }
        } else {
            symbols[symbol].accumulator += amount
            accumulatedMagnitudes[symbol] = Swift.max(accumulatedMagnitudes[symbol], abs(amount))
        }
    }

    /// The column of a non-basic symbol: `∂basic/∂symbol` for every basic symbol that depends
    /// on it (an FTRAN), in rank order. Walks the forward cone through the column index.
    mutating func column(of symbol: Int) -> [Term] {
        nextEpoch()
        symbols[symbol].seen = epoch
        symbols[symbol].accumulator = 1
        enqueueUsers(of: symbol)
        var result = termBuffer
        termBuffer = []
        result.removeAll(keepingCapacity: true)
        while let basic = heap.pop() {
            var sum = 0.0
            var magnitude = 0.0
            for index in symbols[basic].rowRange {
                let term = terms[index]
                if symbols[term.symbol].seen == epoch {
                    let product = term.coefficient * symbols[term.symbol].accumulator
                    sum += product
                    magnitude = Swift.max(magnitude, abs(product))
                }
            }
            symbols[basic].accumulator = sum
            if !Tolerance.isCancelled(sum, of: magnitude) {
                result.append(Term(basic, sum))
                enqueueUsers(of: basic)
            } else {
                symbols[basic].accumulator = 0
            }
        }
        return result
    }

    /// Takes back a column's storage once the caller is done with it.
    mutating func recycle(_ column: consuming [Term]) { termBuffer = column }



    /// Recomputes the values of every basic symbol downstream of `changed` from their rows,
    /// in rank order (so each is computed once, from final inputs).
    mutating func refreshValues(downstreamOf changed: [Int]) {
        nextEpoch()
        for symbol in changed { enqueueUsers(of: symbol) }
        propagateValues()
    }

    /// `refreshValues(downstreamOf: [first, second])` without allocating the array.
    mutating func refreshValues(downstreamOf first: Int, _ second: Int) {
        nextEpoch()
        enqueueUsers(of: first)
        enqueueUsers(of: second)
        propagateValues()
    }

    /// Queues, in rank order, every basic symbol whose row names `symbol` and that this walk
    /// has not reached yet (its accumulator starts at 0, for an FTRAN).
    @inline(__always)
    private mutating func enqueueUsers(of symbol: Int) {
        var node = users.first(symbol)
        while node >= 0 {
            let user = users.user(at: node)
            if symbols[user].seen != epoch {
                symbols[user].seen = epoch
                symbols[user].accumulator = 0
                heap.push(user, key: symbols[user].rank)
            }
            node = users.next(after: node)
        }
    }

    private mutating func propagateValues() {
        while let basic = heap.pop() {
            let sum = evaluate(basic)
            if sum != symbols[basic].value {
                setValue(basic, sum)
                enqueueUsers(of: basic)
            }
        }
    }

    /// `constant + Σ coefficient·value` of `row` at the current point.
    func evaluate(_ row: Row) -> Double {
        var sum = row.constant
        for term in row.terms { sum += term.coefficient * symbols[term.symbol].value }
        return sum
    }

    /// A basic symbol's row evaluated at the current point.
    @inline(__always)
    func evaluate(_ symbol: Int) -> Double {
        var sum = symbols[symbol].constant
        for index in symbols[symbol].rowRange { sum += terms[index].coefficient * symbols[terms[index].symbol].value }
        return sum
    }

    // MARK: Pivoting

    /// Exchanges `entering` (non-basic) and `leaving` (basic), given the reduced row of
    /// `leaving`. The entering symbol's new row is that reduced row solved for it, so it names
    /// only non-basic symbols and takes the lowest rank; rows that named `entering` keep
    /// naming it (now a basic symbol) instead of being rewritten: that is what keeps rows short.
    mutating func pivot(entering: Int, leaving: Int, reducedLeavingRow reduced: consuming Row) {
        var alpha = 0.0
        for term in reduced.terms where term.symbol == entering { alpha = term.coefficient }
        let inverse = 1 / alpha
        let constant = reduced.constant * -inverse

        let enteringCost = reducedCosts[entering]
        setReducedCost(entering, LexVector())
        clearRow(leaving)
        setValue(leaving, 0)
        lowRank -= 1
        let start = terms.count
        for term in reduced.terms where term.symbol != entering { terms.append(Term(term.symbol, term.coefficient * -inverse)) }
        terms.append(Term(leaving, inverse))
        recycle(reduced)
        setRow(entering, constant: constant, termsFrom: start, rank: lowRank)
        setValue(entering, constant)
        #if LAYOUTBENCH_FAULTS
        let passedOn = enteringCost.count >= 2 && PlantedFault.isActive(.floatDropsWeakCostUpdate)
            ? enteringCost.withoutLastEntry : enteringCost
        #else
        let passedOn = enteringCost
        #endif
        if !passedOn.isZero {
            for index in symbols[entering].rowRange { addToReducedCost(terms[index].symbol, passedOn, times: terms[index].coefficient) }
        }
        refreshValues(downstreamOf: entering, leaving)
        pivots += 1
    }
}

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
