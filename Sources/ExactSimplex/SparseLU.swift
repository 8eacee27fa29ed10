import ExactArithmetic

/// A sparse LU factorization of a basis matrix `B` (columns indexed by basis slot, rows by
/// LP row) with product-form (eta) updates for the columns replaced since, in either
/// arithmetic of ``SimplexScalar``.
///
/// Elimination takes column singletons, then row singletons, then a Markowitz pivot (the
/// sparsest column, then its sparsest row). In `Double` a pivot must also be at least
/// ``SimplexScalar/pivotThreshold`` times the largest entry of its column (threshold
/// partial pivoting, for stability) and entries the elimination leaves below
/// ``SimplexScalar/isDroppable`` are dropped; in `Rational` any nonzero pivot is as good as
/// another and nothing is dropped. ExactLP's revised simplex runs it in both. The layout
/// backend keeps its own ``BasisFactorization``, specialised to `Rational` with sparse
/// dictionaries: measured side by side (release, 1,000 views), routing it through this
/// generic type made exact's form, centered and table-cells solves 1.17–1.25× slower.
///
/// A step `k` pivots on row `pivotRows[k]` and slot `pivotSlots[k]`; `lower[k]` lists the
/// rows `i` that had `l × row(pivotRows[k])` subtracted, `upper[k]` the pivot row's
/// remaining entries, all in slots pivoted after `k`.
public struct SparseLU<Scalar: SimplexScalar>: Sendable {
    /// A basis change: slot `slot` now holds a column whose representation in the previous
    /// basis was `α` (`pivot` = α[slot], `entries` the other nonzeros).
    @usableFromInline
    struct Eta: Sendable {
        @usableFromInline var slot: Int
        @usableFromInline var pivot: Scalar
        @usableFromInline var entries: [(index: Int, value: Scalar)]

        @usableFromInline
        init(slot: Int, pivot: Scalar, entries: [(index: Int, value: Scalar)]) {
            self.slot = slot
            self.pivot = pivot
            self.entries = entries
        }
    }

    @usableFromInline let size: Int
    @usableFromInline var pivotRows: [Int] = []
    @usableFromInline var pivotSlots: [Int] = []
    @usableFromInline var pivotValues: [Scalar] = []
    /// Step k: the rows that had a multiple of the pivot row subtracted, with the multiplier.
    @usableFromInline var lower: [[(index: Int, value: Scalar)]] = []
    /// Step k: the pivot row's other entries, by slot.
    @usableFromInline var upper: [[(index: Int, value: Scalar)]] = []
    @usableFromInline var etas: [Eta] = []
    /// Nonzeros of L and U (the cost of a solve without updates).
    @usableFromInline var baseNonzeros = 0
    @usableFromInline var etaNonzeros = 0

    /// How a factorization attempt ended.
    public enum Outcome {
        case factorized(SparseLU)
        /// Singular (numerically, in `Double`): these slots, paired with these rows, are
        /// left; giving each slot the unit column of its row makes the basis regular.
        case singular(slots: [Int], rows: [Int])
    }

    /// Factorizes the basis whose slot `s` holds `columns[s]` (entries indexed by row).
    @inlinable
    public static func factorize(columns: [[(index: Int, value: Scalar)]]) -> Outcome {
        let m = columns.count
        var f = SparseLU(size: m)
        var rowEntries = [[Int: Scalar]](repeating: [:], count: m)
        var columnRows = [Set<Int>](repeating: [], count: m)
        for (slot, column) in columns.enumerated() {
            for entry in column where !entry.value.isDroppable {
                rowEntries[entry.index][slot] = entry.value
                columnRows[slot].insert(entry.index)
            }
        }
        var rowDone = [Bool](repeating: false, count: m)
        var slotDone = [Bool](repeating: false, count: m)
        var columnStack = (0..<m).reversed().filter { columnRows[$0].count == 1 }
        var rowStack = (0..<m).reversed().filter { rowEntries[$0].count == 1 }
        /// Whether `a` at (row, slot) is large enough against the rest of its column.
        func stable(_ a: Scalar, slot: Int) -> Bool {
            guard let threshold = Scalar.pivotThreshold else { return true }
            var largest = Scalar.zero
            for i in columnRows[slot] { if let v = rowEntries[i][slot], largest < v.magnitude { largest = v.magnitude } }
            return !(a.magnitude < threshold * largest)
        }
        for _ in 0..<m {
            var chosen: (row: Int, slot: Int)?
            while chosen == nil, let s = columnStack.popLast() {
                if !slotDone[s], columnRows[s].count == 1, let r = columnRows[s].first { chosen = (r, s) }
            }
            while chosen == nil, let r = rowStack.popLast() {
                if !rowDone[r], rowEntries[r].count == 1, let (s, a) = rowEntries[r].first, stable(a, slot: s) { chosen = (r, s) }
            }
            if chosen == nil {
                var best: (count: Int, slot: Int)?
                for s in 0..<m where !slotDone[s] && !columnRows[s].isEmpty {
                    if best == nil || columnRows[s].count < best?.count ?? Int.max { best = (columnRows[s].count, s) }
                }
                if let best {
                    var largest = Scalar.zero
                    for i in columnRows[best.slot] { if let v = rowEntries[i][best.slot], largest < v.magnitude { largest = v.magnitude } }
                    let floor = Scalar.pivotThreshold.map { $0 * largest } ?? .zero
                    var bestRow: (count: Int, row: Int)?
                    for r in columnRows[best.slot].sorted() {
                        guard let v = rowEntries[r][best.slot], !(v.magnitude < floor) else { continue }
                        if bestRow == nil || rowEntries[r].count < bestRow?.count ?? Int.max { bestRow = (rowEntries[r].count, r) }
                    }
                    if let bestRow { chosen = (bestRow.row, best.slot) }
                }
            }
            guard let (r, s) = chosen, let pivot = rowEntries[r][s] else {
                return .singular(slots: (0..<m).filter { !slotDone[$0] }, rows: (0..<m).filter { !rowDone[$0] })
            }
            let others = rowEntries[r].filter { $0.key != s }.map { (index: $0.key, value: $0.value) }.sorted { $0.index < $1.index }
            for entry in rowEntries[r] { columnRows[entry.key].remove(r) }
            var multipliers: [(index: Int, value: Scalar)] = []
            for i in columnRows[s].sorted() {
                guard let a = rowEntries[i][s] else { continue }
                let multiplier = a / pivot
                multipliers.append((i, multiplier))
                rowEntries[i][s] = nil
                for entry in others {
                    var value = rowEntries[i][entry.index] ?? .zero
                    let wasZero = value == .zero
                    value.addProduct(-multiplier, entry.value)
                    if value.isDroppable {
                        rowEntries[i][entry.index] = nil
                        columnRows[entry.index].remove(i)
                    } else {
                        rowEntries[i][entry.index] = value
                        if wasZero { columnRows[entry.index].insert(i) }
                    }
                }
                if rowEntries[i].count == 1 { rowStack.append(i) }
            }
            columnRows[s] = []
            for entry in others where columnRows[entry.index].count == 1 { columnStack.append(entry.index) }
            rowEntries[r] = [:]
            rowDone[r] = true
            slotDone[s] = true
            f.pivotRows.append(r)
            f.pivotSlots.append(s)
            f.pivotValues.append(pivot)
            f.lower.append(multipliers)
            f.upper.append(others)
            f.baseNonzeros += 1 + multipliers.count + others.count
        }
        return .factorized(f)
    }

    @usableFromInline
    init(size: Int) {
        self.size = size
    }

    /// The factorization of the empty basis.
    @inlinable
    public static var empty: SparseLU { SparseLU(size: 0) }

    /// Solves `B z = a` for a sparse `a` indexed by row; `z` is dense, indexed by slot.
    @inlinable
    public func solve(_ a: [(index: Int, value: Scalar)]) -> [Scalar] {
        var work = [Scalar](repeating: .zero, count: size)
        for entry in a { work[entry.index] = entry.value }
        for k in 0..<pivotRows.count {
            let v = work[pivotRows[k]]
            if v == .zero { continue }
            let negated = -v
            for entry in lower[k] { work[entry.index].addProduct(negated, entry.value) }
        }
        var z = [Scalar](repeating: .zero, count: size)
        for k in stride(from: pivotRows.count - 1, through: 0, by: -1) {
            var v = work[pivotRows[k]]
            for entry in upper[k] {
                let known = z[entry.index]
                if !(known == .zero) { v.addProduct(-entry.value, known) }
            }
            if !(v == .zero) { z[pivotSlots[k]] = v / pivotValues[k] }
        }
        for eta in etas {
            let zs = z[eta.slot]
            if zs == .zero { continue }
            let t = zs / eta.pivot
            z[eta.slot] = t
            let negated = -t
            for entry in eta.entries { z[entry.index].addProduct(negated, entry.value) }
        }
        return z
    }

    /// Solves `yᵀ B = cᵀ` for a dense `c` indexed by slot; `y` is indexed by row.
    @inlinable
    public func solveTransposed(_ c: [Scalar]) -> [Scalar] {
        var c = c
        for eta in etas.reversed() {
            var v = c[eta.slot]
            for entry in eta.entries {
                let ci = c[entry.index]
                if !(ci == .zero) { v.addProduct(-ci, entry.value) }
            }
            c[eta.slot] = v == .zero ? v : v / eta.pivot
        }
        var w = [Scalar](repeating: .zero, count: size)
        for k in 0..<pivotRows.count {
            let v = c[pivotSlots[k]]
            if v == .zero { continue }
            let wk = v / pivotValues[k]
            w[pivotRows[k]] = wk
            let negated = -wk
            for entry in upper[k] { c[entry.index].addProduct(negated, entry.value) }
        }
        for k in stride(from: pivotRows.count - 1, through: 0, by: -1) {
            var v = w[pivotRows[k]]
            var changed = false
            for entry in lower[k] {
                let wi = w[entry.index]
                if !(wi == .zero) {
                    v.addProduct(-entry.value, wi)
                    changed = true
                }
            }
            if changed { w[pivotRows[k]] = v }
        }
        return w
    }

    /// Records that slot `slot` now holds a column whose solve `B z = column` gave `alpha`.
    @inlinable
    public mutating func replace(slot: Int, alpha: [Scalar]) {
        var entries: [(index: Int, value: Scalar)] = []
        for (index, value) in alpha.enumerated() where index != slot && !(value == .zero) { entries.append((index, value)) }
        etaNonzeros += entries.count + 1
        etas.append(Eta(slot: slot, pivot: alpha[slot], entries: entries))
    }

    /// Records that slot `slot` now holds the negation of its column.
    @inlinable
    public mutating func negate(slot: Int) {
        etas.append(Eta(slot: slot, pivot: -Scalar.one, entries: []))
        etaNonzeros += 1
    }

    /// The basis changes recorded since the factorization.
    @inlinable
    public var updateCount: Int { etas.count }

    /// Whether refactorizing would now be cheaper (and, in `Double`, more accurate) than
    /// carrying the updates along.
    @inlinable
    public var prefersRefactorization: Bool {
        etas.count >= Scalar.updatesBeforeRefactorization || etaNonzeros > 2 * baseNonzeros + size
    }
}
