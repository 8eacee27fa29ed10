import ExactArithmetic

/// The largest numerator and denominator (in bits) of the rationals a solve produced.
public struct BitWidths: Sendable, Hashable, Codable {
    public var numerator: Int
    public var denominator: Int

    public init(numerator: Int = 0, denominator: Int = 0) {
        self.numerator = numerator
        self.denominator = denominator
    }

    mutating func record(_ value: Rational) {
        numerator = max(numerator, value.numeratorBitWidth)
        denominator = max(denominator, value.denominatorBitWidth)
    }

    mutating func record(_ other: BitWidths) {
        numerator = max(numerator, other.numerator)
        denominator = max(denominator, other.denominator)
    }
}

/// An exact sparse LU factorization of a basis matrix `B` (columns indexed by basis slot,
/// rows by LP row), followed by product-form (eta) updates for the columns replaced since.
///
/// Gaussian elimination picks column singletons, then row singletons, and only then a
/// Markowitz pivot (fewest entries in the column, then in the row). Layout bases are
/// nearly triangular — a chain's `xᵢ = xᵢ₋₁ + wᵢ₋₁ + 8` — so nearly every pivot is a
/// singleton and the factors are no denser than `B` itself, where an explicit tableau
/// `B⁻¹N` would be quadratic. Exactness means any nonzero pivot is as good as another;
/// there is no stability trade-off to make.
///
/// A step `k` pivots on row `pivotRows[k]` and slot `pivotSlots[k]`; `lower[k]` lists the
/// rows `i` that had `l × row(pivotRows[k])` subtracted, `upper[k]` the pivot row's
/// remaining entries, all in slots pivoted after `k`.
public struct BasisFactorization: Sendable {
    /// A basis change: slot `slot` now holds a column whose representation in the previous
    /// basis was `α` (`pivot` = α[slot], `entries` the other nonzeros).
    struct Eta: Sendable {
        var slot: Int
        var pivot: Rational
        var entries: [SparseEntry]
    }

    let size: Int
    private var pivotRows: [Int] = []
    private var pivotSlots: [Int] = []
    private var pivotValues: [Rational] = []
    private var lower: [[SparseEntry]] = []
    private var upper: [[SparseEntry]] = []
    private(set) var etas: [Eta] = []
    /// Nonzeros of L and U (the cost of a solve without updates).
    private(set) var baseNonzeros = 0
    private(set) var etaNonzeros = 0
    /// The eta nonzeros summed over the updates since the factorization: about what the
    /// updates have added to the solves so far (each solve between two updates reads them).
    private(set) var etaWork = 0
    /// The etas that only negate a slot (a long step's sign swaps): a solve reads each in
    /// O(1), so they do not count towards the updates that call for a refactorization.
    private var signEtas = 0
    private(set) var bitWidths = BitWidths()
    /// The step that pivoted on each row and on each slot, and L and U by the other index
    /// (`lowerByRow[i]`: the steps `k` whose `lower[k]` lists row `i`, with the multiplier;
    /// `upperBySlot[s]`: the steps whose `upper` lists slot `s`): the sparse solves visit
    /// only the steps a right-hand side reaches, in step order, so that a solve costs what
    /// it touches rather than the size of the basis.
    private var stepOfRow: [Int] = []
    private var stepOfSlot: [Int] = []
    private var lowerByRow: [[SparseEntry]] = []
    private var upperBySlot: [[SparseEntry]] = []
    /// Work vectors of the sparse solves, all zero between solves (only what a solve
    /// touched is cleared after it, so that a solve never costs O(size)).
    private var rowWork = SparseAccumulator(size: 0)
    private var slotWork = SparseAccumulator(size: 0)
    private var steps = StepQueue(size: 0)

    private init(size: Int) {
        self.size = size
    }

    /// The factorization of the empty basis.
    static let empty = BasisFactorization(size: 0)

    /// How a factorization attempt ended.
    public enum Outcome {
        case factorized(BasisFactorization)
        /// The columns are singular: pairing each slot here with a row here and giving the
        /// slot a unit column of its row makes them regular (the pivots found so far, on
        /// other rows and slots, stay valid).
        case singular(slots: [Int], rows: [Int])
    }

    /// Factorizes the basis whose slot `s` holds `columns[s]` (entries indexed by row).
    public static func factorize(columns: [[SparseEntry]]) -> Outcome {
        let m = columns.count
        var f = BasisFactorization(size: m)
        f.pivotRows.reserveCapacity(m)
        f.pivotSlots.reserveCapacity(m)
        f.pivotValues.reserveCapacity(m)
        f.lower.reserveCapacity(m)
        f.upper.reserveCapacity(m)
        // The active rows' entries by slot, unordered: layout rows have a handful of
        // entries, and short arrays searched linearly cost far less than a dictionary each.
        var rowEntries = [[SparseEntry]](repeating: [], count: m)
        var columnRows = [Set<Int>](repeating: [], count: m)
        for (slot, column) in columns.enumerated() {
            for entry in column {
                if let k = rowEntries[entry.index].firstIndex(where: { $0.index == slot }) {
                    rowEntries[entry.index][k].value = entry.value
                } else {
                    rowEntries[entry.index].append(SparseEntry(slot, entry.value))
                }
                columnRows[slot].insert(entry.index)
            }
        }
        var rowDone = [Bool](repeating: false, count: m)
        var slotDone = [Bool](repeating: false, count: m)
        // Stacks in reverse index order so that the lowest index is tried first.
        var columnStack = (0..<m).reversed().filter { columnRows[$0].count == 1 }
        var rowStack = (0..<m).reversed().filter { rowEntries[$0].count == 1 }
        var remaining = m
        // Markowitz candidates keyed `count × m + slot`, so that the smallest key is the
        // sparsest column, lowest slot on ties; entries go stale when a count changes (a
        // fresh one is pushed) and are dropped when popped. A scan of every slot per
        // Markowitz pivot was quadratic in the basis size.
        var markowitz = IntHeap()
        for s in 0..<m where !columnRows[s].isEmpty { markowitz.push(columnRows[s].count * m + s) }

        while remaining > 0 {
            var chosen: (row: Int, slot: Int)?
            while chosen == nil, let s = columnStack.popLast() {
                if !slotDone[s], columnRows[s].count == 1, let r = columnRows[s].first { chosen = (r, s) }
            }
            while chosen == nil, let r = rowStack.popLast() {
                if !rowDone[r], rowEntries[r].count == 1, let s = rowEntries[r].first?.index { chosen = (r, s) }
            }
            if chosen == nil {
                // Markowitz: the sparsest column, then its sparsest row (lowest indices on ties).
                var best: (count: Int, slot: Int)?
                while best == nil, let key = markowitz.pop() {
                    let s = key % m, count = key / m
                    if !slotDone[s] && columnRows[s].count == count && count > 0 { best = (count, s) }
                }
                if let best {
                    var bestRow: (count: Int, row: Int)?
                    for r in columnRows[best.slot].sorted() where bestRow == nil || rowEntries[r].count < bestRow?.count ?? Int.max {
                        bestRow = (rowEntries[r].count, r)
                    }
                    if let bestRow { chosen = (bestRow.row, best.slot) }
                }
            }
            guard let (r, s) = chosen else {
                // Every active row is empty in the active slots.
                return .singular(slots: (0..<m).filter { !slotDone[$0] }, rows: (0..<m).filter { !rowDone[$0] })
            }

            // Eliminate slot s from the other active rows.
            let pivotRow = rowEntries[r]
            guard let pivot = pivotRow.first(where: { $0.index == s })?.value else { break }
            let others = pivotRow.filter { $0.index != s }.sorted { $0.index < $1.index }
            for entry in pivotRow { columnRows[entry.index].remove(r) }
            var multipliers: [SparseEntry] = []
            for i in columnRows[s].sorted() {
                guard let at = rowEntries[i].firstIndex(where: { $0.index == s }) else { continue }
                let multiplier = rowEntries[i][at].value / pivot
                multipliers.append(SparseEntry(i, multiplier))
                f.bitWidths.record(multiplier)
                rowEntries[i].swapAt(at, rowEntries[i].count - 1)
                rowEntries[i].removeLast()
                let negated = -multiplier
                // A long row (fill-in) is searched through a map of its positions.
                var position: [Int: Int]?
                if rowEntries[i].count > 16 && others.count > 1 {
                    position = Dictionary(uniqueKeysWithValues: rowEntries[i].enumerated().map { ($0.element.index, $0.offset) })
                }
                var emptied: [Int] = []
                for entry in others {
                    let found = position.map { $0[entry.index] } ?? rowEntries[i].firstIndex(where: { $0.index == entry.index })
                    if let k = found {
                        rowEntries[i][k].value.addProduct(negated, entry.value)
                        if rowEntries[i][k].value.isZero {
                            emptied.append(k)
                            columnRows[entry.index].remove(i)
                        }
                    } else {
                        var value = Rational.zero
                        value.addProduct(negated, entry.value)
                        if position != nil { position?[entry.index] = rowEntries[i].count }
                        rowEntries[i].append(SparseEntry(entry.index, value))
                        columnRows[entry.index].insert(i)
                    }
                }
                // Cancelled entries leave after the pass, so that positions stay valid in it.
                for k in emptied.sorted(by: >) { rowEntries[i].remove(at: k) }
                if rowEntries[i].count == 1 { rowStack.append(i) }
            }
            columnRows[s] = []
            for entry in others where columnRows[entry.index].count == 1 { columnStack.append(entry.index) }
            for entry in others where !columnRows[entry.index].isEmpty {
                markowitz.push(columnRows[entry.index].count * m + entry.index)
            }
            rowEntries[r] = []
            rowDone[r] = true
            slotDone[s] = true
            remaining -= 1
            f.bitWidths.record(pivot)
            for entry in others { f.bitWidths.record(entry.value) }
            f.pivotRows.append(r)
            f.pivotSlots.append(s)
            f.pivotValues.append(pivot)
            f.lower.append(multipliers)
            f.upper.append(others)
            f.baseNonzeros += 1 + multipliers.count + others.count
        }
        f.indexSteps()
        return .factorized(f)
    }

    /// Fills the step maps and the transposed factors the sparse solves walk.
    private mutating func indexSteps() {
        stepOfRow = [Int](repeating: -1, count: size)
        stepOfSlot = [Int](repeating: -1, count: size)
        lowerByRow = [[SparseEntry]](repeating: [], count: size)
        upperBySlot = [[SparseEntry]](repeating: [], count: size)
        for k in pivotRows.indices {
            stepOfRow[pivotRows[k]] = k
            stepOfSlot[pivotSlots[k]] = k
            for entry in lower[k] { lowerByRow[entry.index].append(SparseEntry(k, entry.value)) }
            for entry in upper[k] { upperBySlot[entry.index].append(SparseEntry(k, entry.value)) }
        }
        rowWork = SparseAccumulator(size: size)
        slotWork = SparseAccumulator(size: size)
        steps = StepQueue(size: size)
    }

    /// Solves `B z = a` for a sparse `a` indexed by row; `z` is dense, indexed by slot.
    public func solve(_ a: [SparseEntry]) -> [Rational] {
        var work = [Rational](repeating: .zero, count: size)
        for entry in a { work[entry.index] = entry.value }
        for k in 0..<pivotRows.count {
            let v = work[pivotRows[k]]
            if v.isZero { continue }
            let negated = -v
            for entry in lower[k] { work[entry.index].addProduct(negated, entry.value) }
        }
        var z = [Rational](repeating: .zero, count: size)
        for k in stride(from: pivotRows.count - 1, through: 0, by: -1) {
            var v = work[pivotRows[k]]
            for entry in upper[k] {
                let known = z[entry.index]
                if !known.isZero { v.addProduct(-entry.value, known) }
            }
            if !v.isZero { z[pivotSlots[k]] = v / pivotValues[k] }
        }
        for eta in etas {
            let zs = z[eta.slot]
            if zs.isZero { continue }
            let t = zs / eta.pivot
            z[eta.slot] = t
            let negated = -t
            for entry in eta.entries { z[entry.index].addProduct(negated, entry.value) }
        }
        return z
    }

    /// Solves `B z = a` for a sparse `a` indexed by row; `z`'s nonzeros by slot, ascending.
    ///
    /// Hypersparse: L is applied forwards and U backwards over only the steps `a` reaches
    /// (a heap orders them), so a column of a nearly triangular layout basis costs its
    /// reach, not the basis size. Exact arithmetic makes the result equal to ``solve(_:)``'s.
    mutating func solveSparse(_ a: [SparseEntry]) -> [SparseEntry] {
        // A right-hand side this dense reaches most steps anyway: the plain loops are cheaper.
        if a.count * 4 > size {
            return solve(a).enumerated().compactMap { $0.element.isZero ? nil : SparseEntry($0.offset, $0.element) }
        }
        // L: forwards over the rows' steps, each pivot row pushed into the rows below it.
        steps.backward = false
        for entry in a where !entry.value.isZero {
            rowWork.set(entry.index, entry.value)
            steps.push(stepOfRow[entry.index])
        }
        while let k = steps.pop() {
            let v = rowWork[pivotRows[k]]
            if v.isZero { continue }
            let negated = -v
            for entry in lower[k] {
                rowWork.addProduct(entry.index, negated, entry.value)
                steps.push(stepOfRow[entry.index])
            }
        }
        // U: backwards, each solved slot pushed into the rows of the earlier steps using it.
        steps.backward = true
        for r in rowWork.touched where !rowWork[r].isZero { steps.push(stepOfRow[r]) }
        while let k = steps.pop() {
            let v = rowWork[pivotRows[k]]
            if v.isZero { continue }
            let s = pivotSlots[k]
            let z = v / pivotValues[k]
            slotWork.set(s, z)
            let negated = -z
            for entry in upperBySlot[s] {
                rowWork.addProduct(pivotRows[entry.index], negated, entry.value)
                steps.push(entry.index)
            }
        }
        rowWork.clear()
        for eta in etas {
            let zs = slotWork[eta.slot]
            if zs.isZero { continue }
            let t = zs / eta.pivot
            slotWork.set(eta.slot, t)
            let negated = -t
            for entry in eta.entries { slotWork.addProduct(entry.index, negated, entry.value) }
        }
        return slotWork.drain()
    }

    /// Solves `yᵀ B = cᵀ` for a sparse `c` indexed by slot; `y`'s nonzeros by row,
    /// ascending. Hypersparse like ``solveSparse(_:)``.
    public mutating func solveTransposedSparse(_ c: [SparseEntry]) -> [SparseEntry] {
        for entry in c where !entry.value.isZero { slotWork.set(entry.index, entry.value) }
        for eta in etas.reversed() {
            var v = slotWork[eta.slot]
            for entry in eta.entries {
                let ci = slotWork[entry.index]
                if !ci.isZero { v.addProduct(-ci, entry.value) }
            }
            if !v.isZero { slotWork.set(eta.slot, v / eta.pivot) } else if !slotWork[eta.slot].isZero { slotWork.set(eta.slot, v) }
        }
        // Uᵀ: forwards over the slots' steps; each solved row pushed into the slots
        // pivoted after it.
        steps.backward = false
        for s in slotWork.touched where !slotWork[s].isZero { steps.push(stepOfSlot[s]) }
        while let k = steps.pop() {
            let v = slotWork[pivotSlots[k]]
            if v.isZero { continue }
            let wk = v / pivotValues[k]
            rowWork.set(pivotRows[k], wk)
            let negated = -wk
            for entry in upper[k] {
                slotWork.addProduct(entry.index, negated, entry.value)
                steps.push(stepOfSlot[entry.index])
            }
        }
        slotWork.clear()
        // Lᵀ: backwards over the rows' steps; each final row pushed into the pivot rows
        // that eliminated it.
        steps.backward = true
        for r in rowWork.touched where !rowWork[r].isZero { steps.push(stepOfRow[r]) }
        while let k = steps.pop() {
            let row = pivotRows[k]
            let w = rowWork[row]
            if w.isZero { continue }
            let negated = -w
            for entry in lowerByRow[row] {
                rowWork.addProduct(pivotRows[entry.index], negated, entry.value)
                steps.push(entry.index)
            }
        }
        return rowWork.drain()
    }

    /// Records that slot `slot` now holds a column whose sparse solve gave `alpha`.
    mutating func replace(slot: Int, alpha: [SparseEntry]) {
        var entries: [SparseEntry] = []
        var pivot = Rational.zero
        for entry in alpha {
            bitWidths.record(entry.value)
            if entry.index == slot { pivot = entry.value } else { entries.append(entry) }
        }
        etaNonzeros += entries.count + 1
        etaWork += etaNonzeros
        etas.append(Eta(slot: slot, pivot: pivot, entries: entries))
    }

    /// Records that slot `slot` now holds the negation of its column.
    ///
    /// Before any update, by negating the slot's column of U (its pivot and its entries in
    /// the pivot rows of earlier steps; L's multipliers are ratios within one column and do
    /// not change): an eta per negated slot made every later solve pay for all of them,
    /// and a crash basis negates one slot per optional row whose error came out negative.
    mutating func negate(slot: Int) {
        guard etas.isEmpty, stepOfSlot.indices.contains(slot), stepOfSlot[slot] >= 0 else {
            etas.append(Eta(slot: slot, pivot: -Rational.one, entries: []))
            etaNonzeros += 1
            signEtas += 1
            return
        }
        pivotValues[stepOfSlot[slot]] = -pivotValues[stepOfSlot[slot]]
        for (n, use) in upperBySlot[slot].enumerated() {
            upperBySlot[slot][n].value = -use.value
            for (e, entry) in upper[use.index].enumerated() where entry.index == slot {
                upper[use.index][e].value = -entry.value
            }
        }
    }

    /// Whether refactorizing would now be cheaper than carrying the updates along.
    ///
    /// The solves are hypersparse, so the factors cost a solve little, and refactorizing
    /// costs far more per nonzero than a solve reading an eta entry (it allocates the
    /// active rows and the transposed factors anew): the updates are carried until the
    /// work they have added to the solves is a multiple of the factorization's size. The
    /// rule of etas against factors alone refactorized a form of 1,000 views every 12 pivots
    /// (each pivot's update had 3,000 entries: the labels' shared width reaches them all).
    /// The count of updates scales with the basis: short updates cost a solve little, and
    /// a fixed 100 refactorized `hugging-contest` at 10,000 views (2,500 pivots of a few
    /// entries each, on a basis of 30,000 rows) 25 times, half of its solve.
    var prefersRefactorization: Bool {
        etas.count - signEtas >= max(100, size / 8) || etaWork > 64 * (baseNonzeros + size)
    }
}

/// A dense work vector of `Rational`s that remembers which entries it touched, so that
/// reading its nonzeros and clearing it cost what was touched, not its length.
struct SparseAccumulator: Sendable {
    private var values: [Rational]
    private var isTouched: [Bool]
    private(set) var touched: [Int] = []

    init(size: Int) {
        values = [Rational](repeating: .zero, count: size)
        isTouched = [Bool](repeating: false, count: size)
    }

    subscript(i: Int) -> Rational { values[i] }

    mutating func set(_ i: Int, _ value: Rational) {
        touch(i)
        values[i] = value
    }

    /// `self[i] += a × b`.
    mutating func addProduct(_ i: Int, _ a: Rational, _ b: Rational) {
        touch(i)
        values[i].addProduct(a, b)
    }

    private mutating func touch(_ i: Int) {
        if !isTouched[i] {
            isTouched[i] = true
            touched.append(i)
        }
    }

    /// The nonzeros, ascending by index; the vector is left all zero.
    mutating func drain() -> [SparseEntry] {
        touched.sort()
        var result: [SparseEntry] = []
        result.reserveCapacity(touched.count)
        for i in touched {
            if !values[i].isZero { result.append(SparseEntry(i, values[i])) }
            values[i] = .zero
            isTouched[i] = false
        }
        touched.removeAll(keepingCapacity: true)
        return result
    }

    /// Zeroes what was touched.
    mutating func clear() {
        for i in touched {
            values[i] = .zero
            isTouched[i] = false
        }
        touched.removeAll(keepingCapacity: true)
    }
}

/// The steps a sparse solve still has to visit, in step order, each at most once.
struct StepQueue: Sendable {
    private var heap = IntHeap()
    private var queued: [Bool]
    /// Whether the pass visits steps from the last to the first.
    var backward = false

    init(size: Int) {
        queued = [Bool](repeating: false, count: size)
    }

    /// Queues step `k` unless it is waiting already. A step is never pushed after its pop:
    /// every push comes from a step visited before it.
    mutating func push(_ k: Int) {
        guard !queued[k] else { return }
        queued[k] = true
        heap.push(backward ? -k : k)
    }

    /// The next step of the pass, or nil when it is done.
    mutating func pop() -> Int? {
        guard let top = heap.pop() else { return nil }
        let k = backward ? -top : top
        queued[k] = false
        return k
    }
}

/// A binary min-heap of integers.
struct IntHeap: Sendable {
    private var items: [Int] = []

    mutating func push(_ key: Int) {
        items.append(key)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Int? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && items[left] < items[smallest] { smallest = left }
            if right < items.count && items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }
}
