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
    private(set) var bitWidths = BitWidths()

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
        var rowEntries = [[Int: Rational]](repeating: [:], count: m)
        var columnRows = [Set<Int>](repeating: [], count: m)
        for (slot, column) in columns.enumerated() {
            for entry in column {
                rowEntries[entry.index][slot] = entry.value
                columnRows[slot].insert(entry.index)
            }
        }
        var rowDone = [Bool](repeating: false, count: m)
        var slotDone = [Bool](repeating: false, count: m)
        // Stacks in reverse index order so that the lowest index is tried first.
        var columnStack = (0..<m).reversed().filter { columnRows[$0].count == 1 }
        var rowStack = (0..<m).reversed().filter { rowEntries[$0].count == 1 }
        var remaining = m

        while remaining > 0 {
            var chosen: (row: Int, slot: Int)?
            while chosen == nil, let s = columnStack.popLast() {
                if !slotDone[s], columnRows[s].count == 1, let r = columnRows[s].first { chosen = (r, s) }
            }
            while chosen == nil, let r = rowStack.popLast() {
                if !rowDone[r], rowEntries[r].count == 1, let s = rowEntries[r].keys.first { chosen = (r, s) }
            }
            if chosen == nil {
                // Markowitz: the sparsest column, then its sparsest row (lowest indices on ties).
                var best: (count: Int, slot: Int)?
                for s in 0..<m where !slotDone[s] && !columnRows[s].isEmpty {
                    if best == nil || columnRows[s].count < best?.count ?? Int.max { best = (columnRows[s].count, s) }
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
            guard let pivot = pivotRow[s] else { break }
            let others = pivotRow.filter { $0.key != s }.map { SparseEntry($0.key, $0.value) }
                .sorted { $0.index < $1.index }
            for entry in pivotRow { columnRows[entry.key].remove(r) }
            var multipliers: [SparseEntry] = []
            for i in columnRows[s].sorted() {
                guard let a = rowEntries[i][s] else { continue }
                let multiplier = a / pivot
                multipliers.append(SparseEntry(i, multiplier))
                f.bitWidths.record(multiplier)
                rowEntries[i][s] = nil
                for entry in others {
                    var value = rowEntries[i][entry.index] ?? .zero
                    let wasZero = value.isZero
                    value.addProduct(-multiplier, entry.value)
                    if value.isZero {
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
        return .factorized(f)
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

    /// Solves `yᵀ B = cᵀ` for a dense `c` indexed by slot; `y` is indexed by row.
    public func solveTransposed(_ c: [Rational]) -> [Rational] {
        var c = c
        for eta in etas.reversed() {
            var v = c[eta.slot]
            for entry in eta.entries {
                let ci = c[entry.index]
                if !ci.isZero { v.addProduct(-ci, entry.value) }
            }
            c[eta.slot] = v.isZero ? v : v / eta.pivot
        }
        var w = [Rational](repeating: .zero, count: size)
        for k in 0..<pivotRows.count {
            let v = c[pivotSlots[k]]
            if v.isZero { continue }
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
                if !wi.isZero {
                    v.addProduct(-entry.value, wi)
                    changed = true
                }
            }
            if changed { w[pivotRows[k]] = v }
        }
        return w
    }

    /// Records that slot `slot` now holds a column whose solve `B z = column` gave `alpha`.
    mutating func replace(slot: Int, alpha: [Rational]) {
        var entries: [SparseEntry] = []
        for (index, value) in alpha.enumerated() where index != slot && !value.isZero {
            entries.append(SparseEntry(index, value))
            bitWidths.record(value)
        }
        bitWidths.record(alpha[slot])
        etaNonzeros += entries.count + 1
        etas.append(Eta(slot: slot, pivot: alpha[slot], entries: entries))
    }

    /// Records that slot `slot` now holds the negation of its column.
    mutating func negate(slot: Int) {
        etas.append(Eta(slot: slot, pivot: -Rational.one, entries: []))
        etaNonzeros += 1
    }

    /// Whether refactorizing would now be cheaper than carrying the updates along.
    var prefersRefactorization: Bool {
        etas.count >= 100 || etaNonzeros > 2 * baseNonzeros + size
    }
}
