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
    var candidateSlot = -1
    var infeasibleSlot = -1
    /// The reduced cost of a non-basic symbol (zero for basic ones).
    var reducedCost = LexVector()

    init(kind: SymbolKind, costLevel: Int32, owner: Int) {
        self.kind = kind
        self.costLevel = costLevel
        self.owner = owner
    }
}

/// A symbol's slot in the scratch space of cone walks.
struct ConeSlot: Sendable {
    var seen: UInt32 = 0
    var accumulator = 0.0
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
    /// Per symbol, everything but its row and users (one array of records rather than a
    /// dozen parallel arrays: a symbol's state is read together, and a small solver — one
    /// table cell — allocates four arrays instead of thirteen).
    var symbols: [SymbolState] = []
    /// A basic symbol's definition (`.empty` for non-basic ones).
    var rows: [Row] = []
    /// Column index: the basic symbols whose rows name this symbol directly.
    var users = ColumnIndex()

    /// Non-basic symbols whose reduced cost shows an improving direction.
    var candidates: [Int] = []
    /// Basic symbols outside their bounds.
    var infeasible: [Int] = []

    // Scratch space for cone walks, one slot per symbol.
    var scratch: [ConeSlot] = []
    var epoch: UInt32 = 0
    var heap = KeyedHeap()
    /// The forward cones of the symbols last shifted, each in rank order (see
    /// `refreshValues(downstreamOfShifted:)`); emptied by any change of a row.
    var shiftCones: [(symbol: Int, order: [Int])] = []
    /// A spent column's storage, handed back through `recycle` for the next `column` to reuse.
    var columnBuffer: [Term] = []
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

    var symbolCount: Int { symbols.count }

    // MARK: Symbols

    mutating func newSymbol(_ kind: SymbolKind, owner: Int, costLevel: Int32 = 0) -> Int {
        let symbol = symbols.count
        if symbol == 0 {
            symbols.reserveCapacity(32); rows.reserveCapacity(32)
            users.reserveCapacity(32); scratch.reserveCapacity(32)
        }
        symbols.append(SymbolState(kind: kind, costLevel: costLevel, owner: owner))
        rows.append(.empty)
        users.appendSymbol()
        scratch.append(ConeSlot())
        return symbol
    }

    func isFresh(_ symbol: Int) -> Bool {
        symbols[symbol].kind == .external && !symbols[symbol].isBasic && users.isEmpty(symbol)
    }

    // MARK: Journaled primitives

    /// Makes `symbol` basic with `row` at `rank`, or non-basic when `row` is nil, keeping the
    /// column index in step.
    mutating func setRow(_ symbol: Int, _ row: Row?, rank newRank: Int = 0) {
        if !shiftCones.isEmpty { shiftCones.removeAll() }
        if journaling {
            journal.append(.row(symbol: symbol, row: rows[symbol], wasBasic: symbols[symbol].isBasic, rank: symbols[symbol].rank))
        }
        if symbols[symbol].isBasic {
            termCount -= rows[symbol].terms.count
            for term in rows[symbol].terms { users.remove(symbol, from: term.symbol) }
        }
        if let row {
            termCount += row.terms.count
            for term in row.terms { users.add(symbol, to: term.symbol) }
            rows[symbol] = row
            symbols[symbol].isBasic = true
            symbols[symbol].rank = newRank
        } else {
            rows[symbol] = .empty
            symbols[symbol].isBasic = false
        }
        updateCandidacy(symbol)
        updateFeasibility(symbol)
    }

    mutating func setValue(_ symbol: Int, _ newValue: Double) {
        if journaling && symbol < journalBase { journal.append(.value(symbol: symbol, old: symbols[symbol].value)) }
        symbols[symbol].value = newValue
        updateFeasibility(symbol)
    }

    mutating func setReducedCost(_ symbol: Int, _ cost: LexVector) {
        if journaling && symbol < journalBase {
            journal.append(.reducedCost(symbol: symbol, old: symbols[symbol].reducedCost))
        }
        symbols[symbol].reducedCost = cost
        updateCandidacy(symbol)
    }

    mutating func addToReducedCost(_ symbol: Int, _ cost: LexVector, times factor: Double) {
        if journaling && symbol < journalBase {
            journal.append(.reducedCost(symbol: symbol, old: symbols[symbol].reducedCost))
        }
        symbols[symbol].reducedCost.add(cost, times: factor, drop: tolerance.drop)
        updateCandidacy(symbol)
    }

    // MARK: Membership of the candidate and infeasible lists

    /// The direction in which a non-basic symbol improves the objective (0: none).
    func improvingDirection(_ symbol: Int) -> Int {
        if symbols[symbol].isBasic { return 0 }
        switch symbols[symbol].kind {
        case .external: return -symbols[symbol].reducedCost.sign(tolerance: tolerance.cost)
        case .slack, .error: return symbols[symbol].reducedCost.sign(tolerance: tolerance.cost) < 0 ? 1 : 0
        case .dummy, .retired: return 0
        }
    }

    mutating func updateCandidacy(_ symbol: Int) {
        let wanted = improvingDirection(symbol) != 0
        let slot = symbols[symbol].candidateSlot
        if wanted && slot < 0 {
            symbols[symbol].candidateSlot = candidates.count
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
            candidates[slot] = last
            symbols[last].candidateSlot = slot
        }
        symbols[symbol].candidateSlot = -1
    }

    func isInfeasible(_ symbol: Int) -> Bool {
        guard symbols[symbol].isBasic else { return false }
        switch symbols[symbol].kind {
        case .slack, .error: return symbols[symbol].value < -tolerance.feasibility
        case .dummy: return abs(symbols[symbol].value) > tolerance.feasibility
        case .external, .retired: return false
        }
    }

    mutating func updateFeasibility(_ symbol: Int) {
        let wanted = isInfeasible(symbol)
        let slot = symbols[symbol].infeasibleSlot
        if wanted && slot < 0 {
            symbols[symbol].infeasibleSlot = infeasible.count
            infeasible.append(symbol)
        } else if !wanted && slot >= 0 {
            let last = infeasible.removeLast()
            if last != symbol {
                infeasible[slot] = last
                symbols[last].infeasibleSlot = slot
            }
            symbols[symbol].infeasibleSlot = -1
        }
    }

    // MARK: Journal

    mutating func beginAttempt() -> Checkpoint {
        if !journal.isEmpty { journal.removeAll(keepingCapacity: true) }
        journaling = true
        journalBase = symbolCount
        return Checkpoint(
            symbolCount: symbolCount, lowRank: lowRank, highRank: highRank, tolerance: tolerance,
            // A copy of an empty list would share its buffer and make the next append copy it.
            candidates: candidates.isEmpty ? [] : candidates, infeasible: infeasible.isEmpty ? [] : infeasible)
    }

    mutating func commitAttempt() {
        journaling = false
        if !journal.isEmpty { journal.removeAll(keepingCapacity: true) }
    }

    /// Restores the state at `checkpoint` exactly: rows, ranks, values, reduced costs,
    /// column index (as sets), lists and scales.
    mutating func rollBack(to checkpoint: Checkpoint) {
        journaling = false
        while let entry = journal.popLast() {
            switch entry {
            case .row(let symbol, let row, let wasBasic, let oldRank):
                setRow(symbol, wasBasic ? row : nil, rank: oldRank)
                if !wasBasic { symbols[symbol].rank = oldRank }
            case .value(let symbol, let old):
                symbols[symbol].value = old
            case .reducedCost(let symbol, let old):
                symbols[symbol].reducedCost = old
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
        rows.removeSubrange(count...)
        users.removeSymbols(from: count)
        scratch.removeSubrange(count...)
        candidates = checkpoint.candidates
        infeasible = checkpoint.infeasible
        for (slot, symbol) in candidates.enumerated() { symbols[symbol].candidateSlot = slot }
        for (slot, symbol) in infeasible.enumerated() { symbols[symbol].infeasibleSlot = slot }
        lowRank = checkpoint.lowRank
        highRank = checkpoint.highRank
        tolerance = checkpoint.tolerance
        journal.removeAll(keepingCapacity: true)
    }

    // MARK: Cone walks

    private mutating func nextEpoch() {
        epoch &+= 1
        if epoch == 0 {
            for i in scratch.indices { scratch[i].seen = 0 }
            epoch = 1
        }
        // Emptying an empty array still costs a generic call: skip it.
        if !heap.isEmpty { heap.removeAll() }
        if !touched.isEmpty { touched.removeAll(keepingCapacity: true) }
    }

    /// The reduced form of `row`: the same equation over non-basic symbols only (a BTRAN).
    /// Walks the backward cone from the highest rank down, so each basic symbol is expanded
    /// once, after every row that names it has contributed to its coefficient.
    mutating func reduce(_ row: Row) -> Row {
        nextEpoch()
        var constant = row.constant
        for term in row.terms { accumulate(term.symbol, term.coefficient) }
        while let basic = heap.pop() {
            let factor = scratch[basic].accumulator
            scratch[basic].accumulator = 0
            if factor == 0 { continue }
            let definition = rows[basic]
            constant += factor * definition.constant
            for term in definition.terms { accumulate(term.symbol, factor * term.coefficient) }
        }
        var terms: [Term] = []
        terms.reserveCapacity(touched.count)
        let drop = tolerance.drop
        for symbol in touched where !symbols[symbol].isBasic {
            let coefficient = scratch[symbol].accumulator
            if abs(coefficient) > drop { terms.append(Term(symbol, coefficient)) }
        }
        return Row(constant: constant, terms: terms)
    }

    @inline(__always)
    private mutating func accumulate(_ symbol: Int, _ amount: Double) {
        if scratch[symbol].seen != epoch {
            scratch[symbol].seen = epoch
            scratch[symbol].accumulator = amount
            touched.append(symbol)
            if symbols[symbol].isBasic { heap.push(symbol, key: -symbols[symbol].rank) }
        } else {
            scratch[symbol].accumulator += amount
        }
    }

    /// The column of a non-basic symbol: `∂basic/∂symbol` for every basic symbol that depends
    /// on it (an FTRAN), in rank order. Walks the forward cone through the column index.
    mutating func column(of symbol: Int) -> [Term] {
        nextEpoch()
        scratch[symbol].seen = epoch
        scratch[symbol].accumulator = 1
        for user in users[symbol] { enqueueForward(user) }
        var result = columnBuffer
        columnBuffer = []
        result.removeAll(keepingCapacity: true)
        let drop = tolerance.drop
        while let basic = heap.pop() {
            var sum = 0.0
            for term in rows[basic].terms where scratch[term.symbol].seen == epoch {
                sum += term.coefficient * scratch[term.symbol].accumulator
            }
            scratch[basic].accumulator = sum
            if abs(sum) > drop {
                result.append(Term(basic, sum))
                for user in users[basic] { enqueueForward(user) }
            } else {
                scratch[basic].accumulator = 0
            }
        }
        return result
    }

    /// Takes back a column's storage once the caller is done with it.
    mutating func recycle(_ column: consuming [Term]) { columnBuffer = column }

    @inline(__always)
    private mutating func enqueueForward(_ symbol: Int) {
        if scratch[symbol].seen != epoch {
            scratch[symbol].seen = epoch
            scratch[symbol].accumulator = 0
            heap.push(symbol, key: symbols[symbol].rank)
        }
    }

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

    @inline(__always)
    private mutating func enqueueUsers(of symbol: Int) {
        for user in users[symbol] where scratch[user].seen != epoch {
            scratch[user].seen = epoch
            heap.push(user, key: symbols[user].rank)
        }
    }

    private mutating func propagateValues() {
        while let basic = heap.pop() {
            let sum = evaluate(rows[basic])
            if sum != symbols[basic].value {
                setValue(basic, sum)
                enqueueUsers(of: basic)
            }
        }
    }

    /// Recomputes every value downstream of `symbol`, whose users' rows have just changed
    /// constant (a suggestion shifts an edit marker).
    ///
    /// The first time, the forward cone is walked through the heap in rank order and the
    /// order is remembered; later calls for the same symbol, until some row changes, evaluate
    /// the remembered rows in one plain loop — the hot path of a resize, where a run of
    /// suggestions changes no row.
    mutating func refreshValues(downstreamOfShifted symbol: Int) {
        if !journaling, let cone = shiftCones.first(where: { $0.symbol == symbol }) {
            var restricted = touched
            touched = []
            restricted.removeAll(keepingCapacity: true)
            let rows = self.rows
            symbols.withUnsafeMutableBufferPointer { symbols in
                for basic in cone.order {
                    let definition = rows[basic]
                    var sum = definition.constant
                    for term in definition.terms { sum += term.coefficient * symbols[term.symbol].value }
                    if sum != symbols[basic].value {
                        symbols[basic].value = sum
                        // Only restricted symbols can turn infeasible.
                        if symbols[basic].kind != .external { restricted.append(basic) }
                    }
                }
            }
            for basic in restricted { updateFeasibility(basic) }
            touched = restricted
            return
        }
        nextEpoch()
        enqueueUsers(of: symbol)
        var order: [Int] = []
        while let basic = heap.pop() {
            order.append(basic)
            let sum = evaluate(rows[basic])
            if sum != symbols[basic].value { setValue(basic, sum) }
            enqueueUsers(of: basic)
        }
        // A handful of edit variables at most are suggested in turn (a window's width and height).
        if shiftCones.count >= 8 { shiftCones.removeFirst() }
        shiftCones.append((symbol, order))
    }

    /// `constant + Σ coefficient·value` at the current point.
    func evaluate(_ row: Row) -> Double {
        var sum = row.constant
        for term in row.terms { sum += term.coefficient * symbols[term.symbol].value }
        return sum
    }

    // MARK: Pivoting

    /// Exchanges `entering` (non-basic) and `leaving` (basic), given the reduced row of
    /// `leaving`. The entering symbol's new row is that reduced row solved for it, so it names
    /// only non-basic symbols and takes the lowest rank; rows that named `entering` keep
    /// naming it (now a basic symbol) instead of being rewritten: that is what keeps rows short.
    mutating func pivot(entering: Int, leaving: Int, reducedLeavingRow reduced: consuming Row) {
        // The reduced row is rewritten in place into the entering symbol's row: it is
        // freshly computed and owned here, so this costs no allocation.
        var row = reduced
        var alpha = 0.0
        if let position = row.terms.firstIndex(where: { $0.symbol == entering }) {
            alpha = row.terms[position].coefficient
            row.terms.swapAt(position, row.terms.count - 1)
            row.terms.removeLast()
        }
        let inverse = 1 / alpha
        for index in row.terms.indices { row.terms[index].coefficient *= -inverse }
        row.terms.append(Term(leaving, inverse))
        row.constant *= -inverse

        let enteringCost = symbols[entering].reducedCost
        setReducedCost(entering, LexVector())
        setRow(leaving, nil)
        setValue(leaving, 0)
        lowRank -= 1
        setRow(entering, row, rank: lowRank)
        setValue(entering, row.constant)
        if !enteringCost.isZero {
            for term in row.terms { addToReducedCost(term.symbol, enteringCost, times: term.coefficient) }
        }
        refreshValues(downstreamOf: entering, leaving)
        pivots += 1
    }
}
