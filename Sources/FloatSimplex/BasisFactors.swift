/// The current basis solved for its basic symbols from the records' own rows
/// (``CassowarySolver/factorBasis()``): per basic symbol a definition
/// `symbol = constant + Σ coefficient·other`, naming only symbols of lower rank, its terms a
/// run of one pool.
///
/// One pool for every definition rather than an array per row: a rebuild of `form` at 100
/// views makes 650 definitions, and an allocation and a release each were a third of it.
struct BasisFactors {
    struct Definition {
        var symbol: Int
        var constant: Double
        var start: Int
        var count: Int
        /// Forward ranks count up from 1, backward ones down from 2⁴⁰ (see ``rankOrder``).
        var rank: Int

        var range: Range<Int> { start..<start + count }
    }

    /// In the order the elimination made them.
    var definitions: [Definition] = []
    var terms: [Term] = []

    /// The first backward rank (ranks at or above are backward ones).
    static let firstBackwardRank = 1 << 40
    /// Ranks below this are forward ones.
    static let backwardRankFloor = 1 << 39

    /// Indices into ``definitions`` in rank order, read off the order they were made in:
    /// forward ranks count up and backward ones down, so it is the forward definitions in
    /// that order, then the backward ones in reverse (no sort).
    func rankOrder() -> [Int] {
        var ordered: [Int] = []
        ordered.reserveCapacity(definitions.count)
        for index in definitions.indices where definitions[index].rank < Self.backwardRankFloor { ordered.append(index) }
        for index in definitions.indices.reversed() where definitions[index].rank >= Self.backwardRankFloor { ordered.append(index) }
        assert(zip(ordered, ordered.dropFirst()).allSatisfy { definitions[$0.0].rank < definitions[$0.1].rank }, "definitions in rank order")
        return ordered
    }

    /// `constant + Σ coefficient·value` of a definition, with `value` the symbols' current
    /// values, in the order of its terms (as ``Tableau/evaluate(_:)`` sums a stored row).
    @inline(__always)
    func evaluate(_ definition: Definition, values symbols: [SymbolState]) -> Double {
        var sum = definition.constant
        for index in definition.range { sum += terms[index].coefficient * symbols[terms[index].symbol].value }
        return sum
    }
}

extension CassowarySolver {
    /// A working row of the elimination: a run of its pool and the row's constant.
    private struct EliminatedRow {
        var start: Int
        var count: Int
        var constant: Double
        var range: Range<Int> { start..<start + count }
    }

    /// Solves the records' rows for the current basis: a sparse LU of the basis by peeling row
    /// singletons (lower triangle, ranks counting up), column singletons (upper triangle,
    /// ranks counting down) and, where neither exists, eliminating one symbol from the cycle
    /// it closes (a Markowitz choice). Nil when a pivot would be numerically unsafe or the
    /// basis does not match the records. Changes nothing.
    ///
    /// The working rows start as the records' own runs of ``recordTerms`` (shared, not
    /// copied); a cycle's elimination appends the rows it rewrites to that pool. The basic
    /// symbols' lists of rows are one array cut at counted offsets, and the rows a cycle adds
    /// to a list go to `addedRowsOf`.
    func factorBasis() -> BasisFactors? {
        let symbolCount = tableau.symbolCount
        var pool = recordTerms
        var work: [EliminatedRow] = []
        work.reserveCapacity(records.count)
        for record in records { if let record { work.append(EliminatedRow(start: record.start, count: record.count, constant: record.constant)) } }
        var basics: [Int] = []
        basics.reserveCapacity(work.count)
        for symbol in 0..<symbolCount where tableau.symbols[symbol].isBasic { basics.append(symbol) }
        guard basics.count == work.count else { return nil }

        var isBasicSymbol = Array(repeating: false, count: symbolCount)
        for b in basics { isBasicSymbol[b] = true }
        var colCount = Array(repeating: 0, count: symbolCount)
        var count = Array(repeating: 0, count: work.count)
        for r in work.indices {
            for index in work[r].range where isBasicSymbol[pool[index].symbol] {
                colCount[pool[index].symbol] += 1
                count[r] += 1
            }
        }
        // rowsOf[b] = listed[listStart[b] ..< listStart[b + 1]] (rows in increasing order),
        // then addedRowsOf[b].
        var listStart = Array(repeating: 0, count: symbolCount + 1)
        for symbol in 0..<symbolCount { listStart[symbol + 1] = listStart[symbol] + colCount[symbol] }
        var listed = Array(repeating: 0, count: listStart[symbolCount])
        do {
            var next = listStart
            for r in work.indices {
                for index in work[r].range where isBasicSymbol[pool[index].symbol] {
                    listed[next[pool[index].symbol]] = r
                    next[pool[index].symbol] += 1
                }
            }
        }
        var addedRowsOf: [Int: [Int]] = [:]

        var assigned = Array(repeating: false, count: symbolCount)
        var rowDone = Array(repeating: false, count: work.count)
        var rowQueue = work.indices.filter { count[$0] == 1 }
        var columnQueue = basics.filter { colCount[$0] == 1 }
        var factors = BasisFactors()
        factors.definitions.reserveCapacity(basics.count)
        factors.terms.reserveCapacity(pool.count)
        var forward = 0
        var backward = BasisFactors.firstBackwardRank

        func contains(_ r: Int, _ symbol: Int) -> Bool {
            for index in work[r].range where pool[index].symbol == symbol { return true }
            return false
        }

        /// Every row of b's list that is not done and still names b, in list order.
        func forEachOpenRow(of b: Int, _ body: (Int) -> Void) {
            for position in listStart[b]..<listStart[b + 1] {
                let r = listed[position]
                if !rowDone[r] && contains(r, b) { body(r) }
            }
            if let added = addedRowsOf[b] {
                for r in added where !rowDone[r] && contains(r, b) { body(r) }
            }
        }

        /// Solves row r for b (rejecting small pivots, relative to the row, unless r is a row
        /// singleton or b a column singleton) and retires both.
        ///
        /// A row singleton leaves no choice: its last basic symbol is what it determines, and
        /// dividing by its coefficient keeps the relative accuracy of the rest of the row
        /// (`v2.left == -1e-9 * v1.left` with `v2.left` known gives `v1.left` to the last bit).
        /// Refusing it gave up the whole rebuild, and kept rows that had reached `v1` through
        /// 1e10-sized intermediates (5.1e10 − 1389 for 5.1e10).
        ///
        /// A column singleton leaves none either: r is the only open row naming b, so b is
        /// what r determines once the rest is known, and no other row takes b's coefficient
        /// (nothing fills in). The same row with `v1.left` named by no other open row was
        /// refused as a small pivot, and the whole rebuild with it: `v3.left` stayed 2⁻²⁰ off
        /// 8.5, read through 1e10-sized intermediates, past the judge's bound on
        /// `v2.left == 3 * v3.left` (guided fuzz, `infeasible-point-float-82ff0ea357bc2cc7`).
        func assign(_ b: Int, _ r: Int, rank: Int, singleton: Bool = false) -> Bool {
            let row = work[r]
            var coefficient = 0.0
            var largest = 0.0
            for index in row.range {
                if pool[index].symbol == b { coefficient += pool[index].coefficient }
                largest = max(largest, abs(pool[index].coefficient))
            }
            guard abs(coefficient) > (singleton ? 0 : 1e-7 * largest) else { return false }
            let scale = -1 / coefficient
            let start = factors.terms.count
            for index in row.range where pool[index].symbol != b {
                factors.terms.append(Term(pool[index].symbol, pool[index].coefficient * scale))
            }
            factors.definitions.append(BasisFactors.Definition(
                symbol: b, constant: row.constant * scale, start: start, count: factors.terms.count - start, rank: rank))
            rowDone[r] = true
            assigned[b] = true
            for index in row.range where isBasicSymbol[pool[index].symbol] && !assigned[pool[index].symbol] {
                let symbol = pool[index].symbol
                colCount[symbol] -= 1
                if colCount[symbol] == 1 { columnQueue.append(symbol) }
            }
            forEachOpenRow(of: b) { other in
                count[other] -= 1
                if count[other] == 1 { rowQueue.append(other) }
            }
            return true
        }

        var merged: [Term] = []
        while factors.definitions.count < basics.count {
            if let r = rowQueue.popLast() {
                guard !rowDone[r], count[r] == 1 else { continue }
                var found: Int?
                for index in work[r].range where isBasicSymbol[pool[index].symbol] && !assigned[pool[index].symbol] {
                    found = pool[index].symbol
                    break
                }
                guard let b = found else { return nil }
                forward += 1
                guard assign(b, r, rank: forward, singleton: true) else { return nil }
            } else if let b = columnQueue.popLast() {
                guard !assigned[b], colCount[b] == 1 else { continue }
                var found: Int?
                forEachOpenRow(of: b) { r in if found == nil { found = r } }
                guard let r = found else { return nil }
                backward -= 1
                guard assign(b, r, rank: backward, singleton: true) else { return nil }
            } else {
                // A cycle: eliminate the unassigned symbol of least Markowitz cost.
                var best: (r: Int, b: Int, cost: Int, magnitude: Double)?
                for r in work.indices where !rowDone[r] && count[r] >= 1 {
                    var largest = 0.0
                    for index in work[r].range { largest = max(largest, abs(pool[index].coefficient)) }
                    for index in work[r].range where isBasicSymbol[pool[index].symbol] && !assigned[pool[index].symbol] {
                        let term = pool[index]
                        guard abs(term.coefficient) > 0.1 * largest else { continue }
                        let cost = (count[r] - 1) * (colCount[term.symbol] - 1)
                        if best == nil || cost < best!.cost || (cost == best!.cost && abs(term.coefficient) > best!.magnitude) {
                            best = (r, term.symbol, cost, abs(term.coefficient))
                        }
                    }
                }
                guard let (r, b, _, _) = best else { return nil }
                let pivotRow = work[r]
                var coefficient = 0.0
                for index in pivotRow.range where pool[index].symbol == b { coefficient += pool[index].coefficient }
                var others: [Int] = []
                for position in listStart[b]..<listStart[b + 1] { others.append(listed[position]) }
                others += addedRowsOf[b] ?? []
                for other in others where other != r && !rowDone[other] && contains(other, b) {
                    var factor = 0.0
                    merged.removeAll(keepingCapacity: true)
                    for index in work[other].range {
                        if pool[index].symbol == b { factor += pool[index].coefficient } else { merged.append(pool[index]) }
                    }
                    let k = -factor / coefficient
                    for index in pivotRow.range where pool[index].symbol != b {
                        let term = pool[index]
                        if let at = merged.firstIndex(where: { $0.symbol == term.symbol }) {
                            let old = merged[at].coefficient
                            let amount = k * term.coefficient
                            let sum = old + amount
                            merged[at].coefficient = Tolerance.isCancelled(sum, of: max(abs(old), abs(amount))) ? 0 : sum
                        } else {
                            merged.append(Term(term.symbol, k * term.coefficient))
                            if isBasicSymbol[term.symbol] && !assigned[term.symbol] {
                                addedRowsOf[term.symbol, default: []].append(other)
                                colCount[term.symbol] += 1
                            }
                        }
                    }
                    merged.removeAll { term in
                        guard term.coefficient == 0 else { return false }
                        if isBasicSymbol[term.symbol] && !assigned[term.symbol] { colCount[term.symbol] -= 1 }
                        return true
                    }
                    let start = pool.count
                    pool.append(contentsOf: merged)
                    work[other] = EliminatedRow(start: start, count: merged.count, constant: work[other].constant + k * pivotRow.constant)
                    colCount[b] -= 1
                    count[other] = merged.reduce(0) { $0 + (isBasicSymbol[$1.symbol] && !assigned[$1.symbol] ? 1 : 0) }
                    if count[other] == 1 { rowQueue.append(other) }
                }
                for index in pivotRow.range where isBasicSymbol[pool[index].symbol] && !assigned[pool[index].symbol] && pool[index].symbol != b {
                    if colCount[pool[index].symbol] == 1 { columnQueue.append(pool[index].symbol) }
                }
                backward -= 1
                guard assign(b, r, rank: backward) else { return nil }
            }
        }
        return factors
    }
}
