import ExactArithmetic

/// A sparse LU factorization of a basis matrix `B` (columns indexed by basis slot, rows by
/// LP row) with product-form (eta) updates for the columns replaced since, in either
/// arithmetic of ``SimplexScalar``.
///
/// Elimination takes column singletons, then row singletons, then a Markowitz pivot (the
/// least (row count − 1)(column count − 1) among the entries of the four sparsest columns).
/// In `Double` a pivot must also be at least
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
/// remaining entries, all in slots pivoted after `k`. Both solves run in scatter form
/// (`upperByStep`, `lowerByStep` are the transposed copies), skipping every zero.
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
    @usableFromInline var lower = FlatSteps<Scalar>()
    /// Step k: the pivot row's other entries, by slot.
    @usableFromInline var upper = FlatSteps<Scalar>()
    @usableFromInline var etas: [Eta] = []
    /// Step k: U's entries in the slot pivoted at step k, by the pivot row of their step.
    @usableFromInline var upperByStep = FlatSteps<Scalar>()
    /// Step k: L's multipliers in row `pivotRows[k]`, by the pivot row of their step.
    @usableFromInline var lowerByStep = FlatSteps<Scalar>()
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
    ///
    /// The active submatrix is kept in flat per-row arrays of (slot, value) with per-slot
    /// lists of rows, and the slots are bucketed by their active count: the hashed rows and
    /// the scan of every slot per step this replaced made refactorization a quarter of all
    /// instructions on scfxm2 and dominate dfl001, whose factors fill in.
    @inlinable
    public static func factorize(columns: [[(index: Int, value: Scalar)]]) -> Outcome {
        let m = columns.count
        var f = SparseLU(size: m)
        var active = ActiveSubmatrix<Scalar>(size: m)
        var seen = [Int](repeating: -1, count: m)
        for (slot, column) in columns.enumerated() {
            for entry in column where !entry.value.isDroppable {
                if seen[entry.index] == slot {
                    // A repeated entry: the last one counts, as in a dictionary.
                    let p = active.rowSlots[entry.index].lastIndex(of: slot)!
                    active.rowValues[entry.index][p] = entry.value
                    continue
                }
                seen[entry.index] = slot
                active.rowSlots[entry.index].append(slot)
                active.rowValues[entry.index].append(entry.value)
                active.columnRows[slot].append(entry.index)
            }
        }
        active.buildBuckets()
        var rowDone = [Bool](repeating: false, count: m)
        var slotDone = [Bool](repeating: false, count: m)
        var rowStack = (0..<m).reversed().filter { active.rowSlots[$0].count == 1 }
        /// Whether `a` in `slot` is large enough against the rest of its column.
        func stable(_ a: Scalar, slot: Int) -> Bool {
            guard let threshold = Scalar.pivotThreshold else { return true }
            return !(a.magnitude < threshold * active.largestMagnitude(slot: slot))
        }
        var position = [Int](repeating: -1, count: m)
        var others: [(index: Int, value: Scalar)] = []
        for _ in 0..<m {
            var chosen: (row: Int, slot: Int)?
            if let s = active.firstSlot(count: 1) {
                chosen = (active.columnRows[s][0], s)
            }
            while chosen == nil, let r = rowStack.popLast() {
                if !rowDone[r], active.rowSlots[r].count == 1 {
                    let s = active.rowSlots[r][0]
                    if stable(active.rowValues[r][0], slot: s) { chosen = (r, s) }
                }
            }
            if chosen == nil {
                // Markowitz: among the sparsest few slots, the stable entry with the least
                // (row count − 1)(column count − 1).
                var best: (cost: Int, row: Int, slot: Int)?
                var examined = 0
                var count = 2
                while count <= active.largestCount, examined < 4 {
                    var s = active.bucketHead[count]
                    while s >= 0, examined < 4 {
                        let rows = active.columnRows[s]
                        var largest = Scalar.zero
                        var values = [Scalar]()
                        values.reserveCapacity(rows.count)
                        for i in rows {
                            let v = active.value(row: i, slot: s)
                            values.append(v)
                            if largest < v.magnitude { largest = v.magnitude }
                        }
                        let floor = Scalar.pivotThreshold.map { $0 * largest } ?? .zero
                        for (i, v) in zip(rows, values) where !(v.magnitude < floor) {
                            let cost = (active.rowSlots[i].count - 1) * (count - 1)
                            if best == nil || cost < best!.cost || (cost == best!.cost && (s, i) < (best!.slot, best!.row)) {
                                best = (cost, i, s)
                            }
                        }
                        examined += 1
                        s = active.bucketNext[s]
                    }
                    if let best, best.cost <= (count - 1) * (count - 1) { break }
                    count += 1
                }
                if let best { chosen = (best.row, best.slot) }
            }
            guard let (r, s) = chosen else {
                return .singular(slots: (0..<m).filter { !slotDone[$0] }, rows: (0..<m).filter { !rowDone[$0] })
            }
            let pivot = active.value(row: r, slot: s)
            others.removeAll(keepingCapacity: true)
            for (j, v) in zip(active.rowSlots[r], active.rowValues[r]) {
                active.removeRow(r, fromSlot: j)
                if j != s { others.append((j, v)) }
            }
            active.rowSlots[r] = []
            active.rowValues[r] = []
            let eliminated = active.columnRows[s]
            for i in eliminated {
                // Take slot s out of row i, then add −multiplier × the pivot row into it.
                var slots = active.rowSlots[i]
                var values = active.rowValues[i]
                active.rowSlots[i] = []
                active.rowValues[i] = []
                let p = slots.firstIndex(of: s)!
                let multiplier = values[p] / pivot
                f.lower.append(i, multiplier)
                slots[p] = slots[slots.count - 1]
                values[p] = values[values.count - 1]
                slots.removeLast()
                values.removeLast()
                for (q, j) in slots.enumerated() { position[j] = q }
                var dropped = false
                let negated: Scalar = -multiplier
                for entry in others {
                    let q = position[entry.index]
                    if q >= 0 {
                        values[q].addProduct(negated, entry.value)
                        if values[q].isDroppable { dropped = true }
                    } else {
                        var value = Scalar.zero
                        value.addProduct(negated, entry.value)
                        if value.isDroppable { continue }
                        position[entry.index] = slots.count
                        slots.append(entry.index)
                        values.append(value)
                        active.addRow(i, toSlot: entry.index)
                    }
                }
                for j in slots { position[j] = -1 }
                if dropped {
                    var kept = 0
                    for q in 0..<slots.count {
                        if values[q].isDroppable {
                            active.removeRow(i, fromSlot: slots[q])
                        } else {
                            slots[kept] = slots[q]
                            values[kept] = values[q]
                            kept += 1
                        }
                    }
                    slots.removeLast(slots.count - kept)
                    values.removeLast(values.count - kept)
                }
                if slots.count == 1 { rowStack.append(i) }
                active.rowSlots[i] = slots
                active.rowValues[i] = values
            }
            active.retire(slot: s)
            rowDone[r] = true
            slotDone[s] = true
            f.pivotRows.append(r)
            f.pivotSlots.append(s)
            f.pivotValues.append(pivot)
            f.lower.closeStep()
            for entry in others { f.upper.append(entry.index, entry.value) }
            f.upper.closeStep()
            f.baseNonzeros += 1 + eliminated.count + others.count
        }
        f.buildTransposes()
        return .factorized(f)
    }

    /// The copies of L and U the solves scatter from: `upperByStep[k]` holds, for the slot
    /// pivoted at step `k`, the earlier pivot rows whose U entries lie in that slot;
    /// `lowerByStep[k]` the earlier pivot rows whose L multipliers lie in row
    /// `pivotRows[k]`. With them `B z = a` and `yᵀB = cᵀ` both skip every step whose value
    /// is zero instead of taking a dot product over all of L or U.
    @inlinable
    mutating func buildTransposes() {
        let steps = pivotRows.count
        var stepOfSlot = [Int](repeating: -1, count: size)
        var stepOfRow = [Int](repeating: -1, count: size)
        for k in 0..<steps {
            stepOfSlot[pivotSlots[k]] = k
            stepOfRow[pivotRows[k]] = k
        }
        upperByStep = upper.transposed(steps: steps, rowOfStep: pivotRows, stepOf: stepOfSlot)
        lowerByStep = lower.transposed(steps: steps, rowOfStep: pivotRows, stepOf: stepOfRow)
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
            for p in lower.start[k]..<lower.start[k + 1] { work[lower.index[p]].addProduct(negated, lower.value[p]) }
        }
        var z = [Scalar](repeating: .zero, count: size)
        for k in stride(from: pivotRows.count - 1, through: 0, by: -1) {
            let v = work[pivotRows[k]]
            if v == .zero { continue }
            let zk = v / pivotValues[k]
            z[pivotSlots[k]] = zk
            let negated = -zk
            for p in upperByStep.start[k]..<upperByStep.start[k + 1] {
                work[upperByStep.index[p]].addProduct(negated, upperByStep.value[p])
            }
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
            for p in upper.start[k]..<upper.start[k + 1] { c[upper.index[p]].addProduct(negated, upper.value[p]) }
        }
        for k in stride(from: pivotRows.count - 1, through: 0, by: -1) {
            let v = w[pivotRows[k]]
            if v == .zero { continue }
            let negated = -v
            for p in lowerByStep.start[k]..<lowerByStep.start[k + 1] {
                w[lowerByStep.index[p]].addProduct(negated, lowerByStep.value[p])
            }
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

/// The part of the basis matrix not yet eliminated, for ``SparseLU/factorize(columns:)``:
/// each row's entries as parallel arrays of slots and values, each slot's rows, and the
/// slots in doubly linked buckets by their number of rows, so the sparsest slot is found
/// without a scan.
@usableFromInline
struct ActiveSubmatrix<Scalar: SimplexScalar> {
    @usableFromInline var rowSlots: [[Int]]
    @usableFromInline var rowValues: [[Scalar]]
    @usableFromInline var columnRows: [[Int]]
    /// The first slot with each count, or -1.
    @usableFromInline var bucketHead: [Int]
    @usableFromInline var bucketNext: [Int]
    @usableFromInline var bucketPrevious: [Int]
    /// The bucket a slot is in (-1 once retired).
    @usableFromInline var bucketOf: [Int]
    /// No slot has had more rows than this.
    @usableFromInline var largestCount = 0

    @inlinable
    init(size m: Int) {
        rowSlots = [[Int]](repeating: [], count: m)
        rowValues = [[Scalar]](repeating: [], count: m)
        columnRows = [[Int]](repeating: [], count: m)
        bucketHead = [Int](repeating: -1, count: m + 1)
        bucketNext = [Int](repeating: -1, count: m)
        bucketPrevious = [Int](repeating: -1, count: m)
        bucketOf = [Int](repeating: -1, count: m)
    }

    /// Puts every slot in the bucket of its count, lower slots first.
    @inlinable
    mutating func buildBuckets() {
        for s in stride(from: columnRows.count - 1, through: 0, by: -1) { insert(s, count: columnRows[s].count) }
    }

    @inlinable
    mutating func insert(_ s: Int, count: Int) {
        bucketOf[s] = count
        bucketPrevious[s] = -1
        bucketNext[s] = bucketHead[count]
        if bucketHead[count] >= 0 { bucketPrevious[bucketHead[count]] = s }
        bucketHead[count] = s
        if largestCount < count { largestCount = count }
    }

    @inlinable
    mutating func unlink(_ s: Int) {
        let count = bucketOf[s]
        if count < 0 { return }
        let next = bucketNext[s], previous = bucketPrevious[s]
        if previous >= 0 { bucketNext[previous] = next } else { bucketHead[count] = next }
        if next >= 0 { bucketPrevious[next] = previous }
        bucketOf[s] = -1
    }

    @inlinable
    func firstSlot(count: Int) -> Int? {
        count < bucketHead.count && bucketHead[count] >= 0 ? bucketHead[count] : nil
    }

    /// Takes row `i` out of slot `s`'s rows.
    @inlinable
    mutating func removeRow(_ i: Int, fromSlot s: Int) {
        if let p = columnRows[s].firstIndex(of: i) {
            columnRows[s].swapAt(p, columnRows[s].count - 1)
            columnRows[s].removeLast()
        }
        if bucketOf[s] >= 0 {
            unlink(s)
            insert(s, count: columnRows[s].count)
        }
    }

    /// Adds row `i` (a fill-in) to slot `s`'s rows.
    @inlinable
    mutating func addRow(_ i: Int, toSlot s: Int) {
        columnRows[s].append(i)
        if bucketOf[s] >= 0 {
            unlink(s)
            insert(s, count: columnRows[s].count)
        }
    }

    /// Slot `s` is pivoted: out of the buckets for good.
    @inlinable
    mutating func retire(slot s: Int) {
        unlink(s)
        columnRows[s] = []
    }

    /// The entry of row `i` in slot `s` (zero when absent).
    @inlinable
    func value(row i: Int, slot s: Int) -> Scalar {
        guard let p = rowSlots[i].firstIndex(of: s) else { return .zero }
        return rowValues[i][p]
    }

    /// The largest magnitude in slot `s`'s column.
    @inlinable
    func largestMagnitude(slot s: Int) -> Scalar {
        var largest = Scalar.zero
        for i in columnRows[s] {
            let v = value(row: i, slot: s).magnitude
            if largest < v { largest = v }
        }
        return largest
    }
}

/// The entries of L or U step by step in three flat arrays (step `k`'s are
/// `index[start[k]..<start[k + 1]]` with `value` alongside): an array per step cost an
/// allocation per step at every refactorization and a retain and release per step in every
/// solve.
@usableFromInline
struct FlatSteps<Scalar: SimplexScalar>: Sendable {
    @usableFromInline var start: [Int] = [0]
    @usableFromInline var index: [Int] = []
    @usableFromInline var value: [Scalar] = []

    @inlinable
    init() {}

    /// Adds an entry to the step being built.
    @inlinable
    mutating func append(_ i: Int, _ v: Scalar) {
        index.append(i)
        value.append(v)
    }

    /// Ends the step being built.
    @inlinable
    mutating func closeStep() { start.append(index.count) }

    /// The same entries regrouped by the step `stepOf[index]` they point to, each indexed
    /// by `rowOfStep` of the step it came from.
    @inlinable
    func transposed(steps: Int, rowOfStep: [Int], stepOf: [Int]) -> FlatSteps {
        var t = FlatSteps()
        t.start = [Int](repeating: 0, count: steps + 1)
        for i in index { t.start[stepOf[i] + 1] += 1 }
        for k in 0..<steps { t.start[k + 1] += t.start[k] }
        var next = t.start
        t.index = [Int](repeating: 0, count: index.count)
        t.value = [Scalar](repeating: .zero, count: index.count)
        for k in 0..<steps {
            for p in start[k]..<start[k + 1] {
                let target = stepOf[index[p]]
                t.index[next[target]] = rowOfStep[k]
                t.value[next[target]] = value[p]
                next[target] += 1
            }
        }
        return t
    }
}
