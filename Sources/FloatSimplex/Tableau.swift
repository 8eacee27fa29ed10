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

/// `coefficient × symbol` in a row.
struct Term: Sendable, Hashable {
    var symbol: Int
    var coefficient: Double

    init(_ symbol: Int, _ coefficient: Double) {
        self.symbol = symbol
        self.coefficient = coefficient
    }
}

/// A basic symbol's definition: `basic = constant + Σ coefficient·symbol`.
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
    private var keys: [Int] = []
    private var symbols: [Int] = []

    var isEmpty: Bool { keys.isEmpty }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        symbols.removeAll(keepingCapacity: true)
    }

    mutating func push(_ symbol: Int, key: Int) {
        var i = keys.count
        keys.append(key)
        symbols.append(symbol)
        while i > 0 {
            let parent = (i - 1) / 2
            if keys[parent] <= key { break }
            keys[i] = keys[parent]
            symbols[i] = symbols[parent]
            i = parent
        }
        keys[i] = key
        symbols[i] = symbol
    }

    mutating func pop() -> Int? {
        guard let topSymbol = symbols.first else { return nil }
        let lastKey = keys.removeLast()
        let lastSymbol = symbols.removeLast()
        let count = keys.count
        if count > 0 {
            var i = 0
            while true {
                let left = 2 * i + 1
                if left >= count { break }
                let right = left + 1
                let child = right < count && keys[right] < keys[left] ? right : left
                if keys[child] >= lastKey { break }
                keys[i] = keys[child]
                symbols[i] = symbols[child]
                i = child
            }
            keys[i] = lastKey
            symbols[i] = lastSymbol
        }
        return topSymbol
    }
}

/// An undo record, written while an addition may still be rejected.
enum JournalEntry: Sendable {
    case row(symbol: Int, row: Row, wasBasic: Bool, rank: Int)
    case value(symbol: Int, old: Double)
    case reducedCost(symbol: Int, old: LexVector)
}

/// Everything an addition can change that is not journaled entry by entry.
struct Checkpoint: Sendable {
    var symbolCount: Int
    var lowRank: Int
    var highRank: Int
    var tolerance: Tolerance
    var candidates: [Int]
    var infeasible: [Int]
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
    // Per symbol.
    var kind: [SymbolKind] = []
    var isBasic: [Bool] = []
    var rows: [Row] = []
    var rank: [Int] = []
    var value: [Double] = []
    /// Column index: the basic symbols whose rows name this symbol directly.
    var users: [[Int]] = []
    /// The reduced cost of a non-basic symbol (zero for basic ones).
    var reducedCost: [LexVector] = []
    /// The cost level of an error symbol (0: none).
    var costLevel: [Int32] = []
    /// The constraint a marker, slack or error symbol belongs to (-1 for externals).
    var owner: [Int] = []
    var candidateSlot: [Int] = []
    var infeasibleSlot: [Int] = []

    /// Non-basic symbols whose reduced cost shows an improving direction.
    var candidates: [Int] = []
    /// Basic symbols outside their bounds.
    var infeasible: [Int] = []

    // Scratch space for cone walks.
    var seen: [UInt32] = []
    var accumulator: [Double] = []
    var epoch: UInt32 = 0
    var heap = KeyedHeap()
    var touched: [Int] = []

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

    var journal: [JournalEntry] = []
    var journaling = false
    var journalBase = 0

    var symbolCount: Int { kind.count }

    // MARK: Symbols

    mutating func newSymbol(_ kind: SymbolKind, owner: Int, costLevel: Int32 = 0) -> Int {
        let symbol = self.kind.count
        if symbol == 0 { reserve(32) }
        self.kind.append(kind)
        isBasic.append(false)
        rows.append(.empty)
        rank.append(0)
        value.append(0)
        users.append([])
        reducedCost.append(LexVector())
        self.costLevel.append(costLevel)
        self.owner.append(owner)
        candidateSlot.append(-1)
        infeasibleSlot.append(-1)
        seen.append(0)
        accumulator.append(0)
        return symbol
    }

    /// Small solvers (one table cell) would otherwise spend more on growing thirteen arrays
    /// than on solving.
    private mutating func reserve(_ capacity: Int) {
        kind.reserveCapacity(capacity); isBasic.reserveCapacity(capacity); rows.reserveCapacity(capacity)
        rank.reserveCapacity(capacity); value.reserveCapacity(capacity); users.reserveCapacity(capacity)
        reducedCost.reserveCapacity(capacity); costLevel.reserveCapacity(capacity); owner.reserveCapacity(capacity)
        candidateSlot.reserveCapacity(capacity); infeasibleSlot.reserveCapacity(capacity)
        seen.reserveCapacity(capacity); accumulator.reserveCapacity(capacity)
    }

    func isFresh(_ symbol: Int) -> Bool {
        kind[symbol] == .external && !isBasic[symbol] && users[symbol].isEmpty
    }

    // MARK: Journaled primitives

    /// Makes `symbol` basic with `row` at `rank`, or non-basic when `row` is nil, keeping the
    /// column index in step.
    mutating func setRow(_ symbol: Int, _ row: Row?, rank newRank: Int = 0) {
        if journaling {
            journal.append(.row(symbol: symbol, row: rows[symbol], wasBasic: isBasic[symbol], rank: rank[symbol]))
        }
        if isBasic[symbol] {
            termCount -= rows[symbol].terms.count
            for term in rows[symbol].terms { removeUser(symbol, of: term.symbol) }
        }
        if let row {
            termCount += row.terms.count
            for term in row.terms { users[term.symbol].append(symbol) }
            rows[symbol] = row
            isBasic[symbol] = true
            rank[symbol] = newRank
        } else {
            rows[symbol] = .empty
            isBasic[symbol] = false
        }
        updateCandidacy(symbol)
        updateFeasibility(symbol)
    }

    private mutating func removeUser(_ user: Int, of symbol: Int) {
        if let index = users[symbol].lastIndex(of: user) {
            users[symbol].swapAt(index, users[symbol].count - 1)
            users[symbol].removeLast()
        }
    }

    mutating func setValue(_ symbol: Int, _ newValue: Double) {
        if journaling && symbol < journalBase { journal.append(.value(symbol: symbol, old: value[symbol])) }
        value[symbol] = newValue
        updateFeasibility(symbol)
    }

    mutating func setReducedCost(_ symbol: Int, _ cost: LexVector) {
        if journaling && symbol < journalBase {
            journal.append(.reducedCost(symbol: symbol, old: reducedCost[symbol]))
        }
        reducedCost[symbol] = cost
        updateCandidacy(symbol)
    }

    mutating func addToReducedCost(_ symbol: Int, _ cost: LexVector, times factor: Double) {
        var updated = reducedCost[symbol]
        reducedCost[symbol] = LexVector()
        if journaling && symbol < journalBase { journal.append(.reducedCost(symbol: symbol, old: updated)) }
        updated.add(cost, times: factor, drop: tolerance.drop)
        reducedCost[symbol] = updated
        updateCandidacy(symbol)
    }

    // MARK: Membership of the candidate and infeasible lists

    /// The direction in which a non-basic symbol improves the objective (0: none).
    func improvingDirection(_ symbol: Int) -> Int {
        if isBasic[symbol] { return 0 }
        switch kind[symbol] {
        case .external: return -reducedCost[symbol].sign(tolerance: tolerance.cost)
        case .slack, .error: return reducedCost[symbol].sign(tolerance: tolerance.cost) < 0 ? 1 : 0
        case .dummy, .retired: return 0
        }
    }

    mutating func updateCandidacy(_ symbol: Int) {
        let wanted = improvingDirection(symbol) != 0
        let slot = candidateSlot[symbol]
        if wanted && slot < 0 {
            candidateSlot[symbol] = candidates.count
            candidates.append(symbol)
        } else if !wanted && slot >= 0 {
            removeCandidate(symbol)
        }
    }

    /// Drops a candidate until its reduced cost next changes (used when a direction turns out
    /// to be numerical noise: improving in sign, unbounded in fact).
    mutating func removeCandidate(_ symbol: Int) {
        let slot = candidateSlot[symbol]
        guard slot >= 0 else { return }
        let last = candidates.removeLast()
        if last != symbol {
            candidates[slot] = last
            candidateSlot[last] = slot
        }
        candidateSlot[symbol] = -1
    }

    func isInfeasible(_ symbol: Int) -> Bool {
        guard isBasic[symbol] else { return false }
        switch kind[symbol] {
        case .slack, .error: return value[symbol] < -tolerance.feasibility
        case .dummy: return abs(value[symbol]) > tolerance.feasibility
        case .external, .retired: return false
        }
    }

    mutating func updateFeasibility(_ symbol: Int) {
        let wanted = isInfeasible(symbol)
        let slot = infeasibleSlot[symbol]
        if wanted && slot < 0 {
            infeasibleSlot[symbol] = infeasible.count
            infeasible.append(symbol)
        } else if !wanted && slot >= 0 {
            let last = infeasible.removeLast()
            if last != symbol {
                infeasible[slot] = last
                infeasibleSlot[last] = slot
            }
            infeasibleSlot[symbol] = -1
        }
    }

    // MARK: Journal

    mutating func beginAttempt() -> Checkpoint {
        journal.removeAll(keepingCapacity: true)
        journaling = true
        journalBase = symbolCount
        return Checkpoint(
            symbolCount: symbolCount, lowRank: lowRank, highRank: highRank, tolerance: tolerance,
            candidates: candidates, infeasible: infeasible)
    }

    mutating func commitAttempt() {
        journaling = false
        journal.removeAll(keepingCapacity: true)
    }

    /// Restores the state at `checkpoint` exactly: rows, ranks, values, reduced costs,
    /// column index (as sets), lists and scales.
    mutating func rollBack(to checkpoint: Checkpoint) {
        journaling = false
        while let entry = journal.popLast() {
            switch entry {
            case .row(let symbol, let row, let wasBasic, let oldRank):
                setRow(symbol, wasBasic ? row : nil, rank: oldRank)
                if !wasBasic { rank[symbol] = oldRank }
            case .value(let symbol, let old):
                value[symbol] = old
            case .reducedCost(let symbol, let old):
                reducedCost[symbol] = old
            }
        }
        let count = checkpoint.symbolCount
        for list in [candidates, infeasible] {
            for symbol in list where symbol < count {
                candidateSlot[symbol] = -1
                infeasibleSlot[symbol] = -1
            }
        }
        kind.removeSubrange(count...)
        isBasic.removeSubrange(count...)
        rows.removeSubrange(count...)
        rank.removeSubrange(count...)
        value.removeSubrange(count...)
        users.removeSubrange(count...)
        reducedCost.removeSubrange(count...)
        costLevel.removeSubrange(count...)
        owner.removeSubrange(count...)
        candidateSlot.removeSubrange(count...)
        infeasibleSlot.removeSubrange(count...)
        seen.removeSubrange(count...)
        accumulator.removeSubrange(count...)
        candidates = checkpoint.candidates
        infeasible = checkpoint.infeasible
        for (slot, symbol) in candidates.enumerated() { candidateSlot[symbol] = slot }
        for (slot, symbol) in infeasible.enumerated() { infeasibleSlot[symbol] = slot }
        lowRank = checkpoint.lowRank
        highRank = checkpoint.highRank
        tolerance = checkpoint.tolerance
        journal.removeAll(keepingCapacity: true)
    }

    // MARK: Cone walks

    private mutating func nextEpoch() {
        epoch &+= 1
        if epoch == 0 {
            for i in seen.indices { seen[i] = 0 }
            epoch = 1
        }
        heap.removeAll()
        touched.removeAll(keepingCapacity: true)
    }

    /// The reduced form of `row`: the same equation over non-basic symbols only (a BTRAN).
    /// Walks the backward cone from the highest rank down, so each basic symbol is expanded
    /// once, after every row that names it has contributed to its coefficient.
    mutating func reduce(_ row: Row) -> Row {
        nextEpoch()
        var constant = row.constant
        for term in row.terms { accumulate(term.symbol, term.coefficient) }
        while let basic = heap.pop() {
            let factor = accumulator[basic]
            accumulator[basic] = 0
            if factor == 0 { continue }
            let definition = rows[basic]
            constant += factor * definition.constant
            for term in definition.terms { accumulate(term.symbol, factor * term.coefficient) }
        }
        var terms: [Term] = []
        terms.reserveCapacity(touched.count)
        let drop = tolerance.drop
        for symbol in touched where !isBasic[symbol] {
            let coefficient = accumulator[symbol]
            if abs(coefficient) > drop { terms.append(Term(symbol, coefficient)) }
        }
        return Row(constant: constant, terms: terms)
    }

    @inline(__always)
    private mutating func accumulate(_ symbol: Int, _ amount: Double) {
        if seen[symbol] != epoch {
            seen[symbol] = epoch
            accumulator[symbol] = amount
            touched.append(symbol)
            if isBasic[symbol] { heap.push(symbol, key: -rank[symbol]) }
        } else {
            accumulator[symbol] += amount
        }
    }

    /// The column of a non-basic symbol: `∂basic/∂symbol` for every basic symbol that depends
    /// on it (an FTRAN), in rank order. Walks the forward cone through the column index.
    mutating func column(of symbol: Int) -> [Term] {
        nextEpoch()
        seen[symbol] = epoch
        accumulator[symbol] = 1
        for user in users[symbol] { enqueueForward(user) }
        var result: [Term] = []
        let drop = tolerance.drop
        while let basic = heap.pop() {
            var sum = 0.0
            for term in rows[basic].terms where seen[term.symbol] == epoch {
                sum += term.coefficient * accumulator[term.symbol]
            }
            accumulator[basic] = sum
            if abs(sum) > drop {
                result.append(Term(basic, sum))
                for user in users[basic] { enqueueForward(user) }
            } else {
                accumulator[basic] = 0
            }
        }
        return result
    }

    @inline(__always)
    private mutating func enqueueForward(_ symbol: Int) {
        if seen[symbol] != epoch {
            seen[symbol] = epoch
            accumulator[symbol] = 0
            heap.push(symbol, key: rank[symbol])
        }
    }

    /// Recomputes the values of every basic symbol downstream of `changed` from their rows,
    /// in rank order (so each is computed once, from final inputs).
    mutating func refreshValues(downstreamOf changed: [Int]) {
        nextEpoch()
        for symbol in changed {
            for user in users[symbol] where seen[user] != epoch {
                seen[user] = epoch
                heap.push(user, key: rank[user])
            }
        }
        while let basic = heap.pop() {
            let definition = rows[basic]
            var sum = definition.constant
            for term in definition.terms { sum += term.coefficient * value[term.symbol] }
            if sum != value[basic] {
                setValue(basic, sum)
                for user in users[basic] where seen[user] != epoch {
                    seen[user] = epoch
                    heap.push(user, key: rank[user])
                }
            }
        }
    }

    /// `constant + Σ coefficient·value` at the current point.
    func evaluate(_ row: Row) -> Double {
        var sum = row.constant
        for term in row.terms { sum += term.coefficient * value[term.symbol] }
        return sum
    }

    // MARK: Pivoting

    /// Exchanges `entering` (non-basic) and `leaving` (basic), given the reduced row of
    /// `leaving`. The entering symbol's new row is that reduced row solved for it, so it names
    /// only non-basic symbols and takes the lowest rank; rows that named `entering` keep
    /// naming it (now a basic symbol) instead of being rewritten: that is what keeps rows short.
    mutating func pivot(entering: Int, leaving: Int, reducedLeavingRow reduced: Row) {
        var alpha = 0.0
        for term in reduced.terms where term.symbol == entering { alpha = term.coefficient }
        let inverse = 1 / alpha
        var terms: [Term] = []
        terms.reserveCapacity(reduced.terms.count)
        for term in reduced.terms where term.symbol != entering {
            terms.append(Term(term.symbol, -term.coefficient * inverse))
        }
        terms.append(Term(leaving, inverse))
        let row = Row(constant: -reduced.constant * inverse, terms: terms)

        let enteringCost = reducedCost[entering]
        setReducedCost(entering, LexVector())
        setRow(leaving, nil)
        setValue(leaving, 0)
        lowRank -= 1
        setRow(entering, row, rank: lowRank)
        setValue(entering, row.constant)
        if !enteringCost.isZero {
            for term in row.terms { addToReducedCost(term.symbol, enteringCost, times: term.coefficient) }
        }
        refreshValues(downstreamOf: [entering, leaving])
        pivots += 1
    }
}
