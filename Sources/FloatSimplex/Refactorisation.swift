extension CassowarySolver {
    /// Refactorises when pivots have filled the tableau past three times the constraints' own size.
    ///
    /// A pivot row is written in reduced form (non-basic symbols only), which on a chain is
    /// as long as the chain; a few such rows are cheap, an accumulation of them makes every
    /// cone walk quadratic. Rebuilding from the constraints themselves for the current basis
    /// restores short rows. Never during an addition: its journal would have to hold the
    /// whole tableau.
    ///
    /// With `settled` (the end of a suggestion or removal, when the rows just written will be
    /// walked by every later call) the bar is lower: 50% more terms than the last rebuild left.
    ///
    /// With `afterRemoval`, also when a pivot since the last rebuild divided by an element far
    /// below its row (``Tableau/sawSmallPivot``): the rows it wrote carry that pivot's
    /// amplified rounding, which a removal can leave in the answer (a 1e-9 multiplier on a
    /// removed view left the error at @750 at 3.3 on a 1e9 layout, where a fresh solve has 0).
    /// And when the removed constraint's numbers at the point (`removedMagnitude`) were
    /// beyond 1/``Tableau/smallPivotRatio`` times the largest constant still held: the rows
    /// its pivots touched carry rounding at its scale, which the constraints left do not
    /// explain (`v1.height >= 31420000000` and `v1.bottom == 0.001 * v2.centerY @750`
    /// removed with their view left 0.0018, the ulp of 3.1e13, in an error at @750 of a
    /// layout whose numbers are below 1,024).
    mutating func refactorIfFilled(settled: Bool = false, afterRemoval: Bool = false, removedMagnitude: Double = 0) {
        guard !tableau.journaling else { return }
        let clean = max(tableau.cleanTermCount, 64)
        let limit = settled ? clean + clean / 2 : 3 * max(originalTerms, clean) + 1024
        let leftBehind = heldConstants.largest
        let outscaled = leftBehind > 0 && removedMagnitude * Tableau.smallPivotRatio > leftBehind
        guard tableau.termCount > limit || (afterRemoval && (tableau.sawSmallPivot || outscaled)) else { return }
        rebuildAndReoptimize()
    }

    /// Rebuilds the rows from the constraints when a pivot since the last rebuild divided by
    /// an element far below its row (``Tableau/sawSmallPivot``), then re-optimises; returns
    /// whether it rebuilt. For the end of a solve or a pass, before values are read.
    ///
    /// Such a pivot writes rows whose constants carry its amplified rounding: with
    /// `v2.left == -1e-9 * v1.left @0.001` and `v1.left == root.left`, the optimum held `v1` as
    /// `1e9 · (error − 24)` and answered `v1.x = -3.8e-6`, a required row of small numbers off
    /// by more than float's bound for it. The rebuilt rows are the constraints' own solved for
    /// the same basis (`v1 = root.left`), and the point is read again from them. Layouts
    /// without such pivots (every realistic family) pay one flag test.
    ///
    /// With `sinceEver`, also when such a pivot came in an earlier call (the incremental
    /// driver, at the end of each pass): rows rebuilt once and then updated pass after pass
    /// carry the rounding of those updates at the scale of the wide rows (a corpus file with
    /// `-970980000 * v3.trailing` and generated steps ended its third pass 1.9e-6 above an
    /// optimum of 0, beyond its bound, where a fresh solve has 0).
    @discardableResult
    public mutating func refactorAfterSmallPivot(sinceEver: Bool = false) -> Bool {
        guard !tableau.journaling, sinceEver ? tableau.everSawSmallPivot : tableau.sawSmallPivot else { return false }
        return rebuildAndReoptimize()
    }

    /// ``refactor(rebuildingIndex:)``, then the primal and dual simplex for what the rebuilt
    /// rows' rounding left to do.
    @discardableResult
    private mutating func rebuildAndReoptimize() -> Bool {
        guard refactor() else { return false }
        do {
            try reoptimize(.keepsRequiredFeasible)
        } catch {
            // Rounding residue only: the basis was optimal before the rebuild.
        }
        return true
    }

    /// Rebuilds the rows from the constraints when the tableau holds more than twice their
    /// own terms, and keeps the rebuild only if it changes no value, reduced cost, basis or
    /// feasibility, bit for bit. Returns whether it rebuilt.
    ///
    /// For a long-lived solver between calls (``IncrementalPassSolver`` after a pass that
    /// added rows). Additions never refactorise (their journal would have to hold the whole
    /// tableau), and each pivot they make writes a reduced row (non-basic symbols only): on
    /// 1,000 stacked table cells the first pass leaves 490,000 terms for 6,000 constraints
    /// (rows as long as the stack above them), and ``refactorIfFilled(settled:afterRemoval:)``
    /// never fires, since an addition without pivots takes the tableau as it is for clean.
    /// Every later constant change then walks those rows (a shift, its FTRAN column and the
    /// refreshed values: 1.6 ms a cell-reuse pass). Rebuilt, the rows are the constraints'
    /// own solved for the basis.
    ///
    /// The rebuilt tableau describes the same point with other rows; where evaluating them
    /// rounds differently (a value or reduced cost off in its last bit), or leaves anything to
    /// re-optimise, the solver is put back exactly as it was and no rebuild is tried again
    /// until the tableau has doubled.
    ///
    /// `allowance`: terms beyond twice the constraints' that never call for a rebuild (a
    /// small tableau is walked cheaply whatever its rows).
    @inline(__always) @discardableResult
    public mutating func refactorIfDenserThanConstraints(allowance: Int = 1024) -> Bool {
        // Inlined: the test is all most passes pay (a call was 44 instructions a 10-view pass).
        guard tableau.termCount > 2 * originalTerms + allowance, tableau.termCount > denseRefactorFloor, !tableau.journaling else {
            return false
        }
        return refactorKeepingEverything()
    }

    /// ``refactorIfDenserThanConstraints(allowance:)`` once its test has passed.
    private mutating func refactorKeepingEverything() -> Bool {
        let saved = self
        let rebuilt = refactor(rebuildingIndex: true)
        var same = rebuilt && tableau.infeasible.isEmpty && tableau.candidates.isEmpty
            && tableau.symbolCount == saved.tableau.symbolCount
        if same {
            tableau.symbols.withUnsafeBufferPointer { now in
                saved.tableau.symbols.withUnsafeBufferPointer { before in
                    for symbol in now.indices where now[symbol].isBasic != before[symbol].isBasic
                        || (now[symbol].isBasic && now[symbol].value.bitPattern != before[symbol].value.bitPattern) {
                        same = false
                        break
                    }
                }
            }
        }
        if same {
            for symbol in 0..<tableau.symbolCount where tableau.reducedCosts[symbol] != saved.tableau.reducedCosts[symbol] {
                same = false
                break
            }
        }
        guard same else {
            self = saved
            denseRefactorFloor = 2 * tableau.termCount
            return false
        }
        tableau.compactIfWasteful()
        denseRefactorsKept &+= 1
        return true
    }

    /// Rebuilds every basic symbol's row from the records' rows for the current basis: a
    /// sparse LU of the basis by peeling row singletons (lower triangle, ranks counting up),
    /// column singletons (upper triangle, ranks counting down) and, where neither exists,
    /// eliminating one symbol from the cycle it closes (a Markowitz choice). Values and the
    /// reduced objective are then recomputed. Returns false, changing nothing, when a pivot
    /// would be numerically unsafe or the basis does not match the records.
    ///
    /// With `rebuildingIndex`, the rewritten rows go in at once and the column index is
    /// rebuilt in one sweep (``Tableau/replaceRows(_:)``): unlinking each old row's users one
    /// by one walks every named symbol's list, quadratic when long rows share their symbols
    /// (three quarters of a 1,000-cell table's first pass). The lists' order then differs.
    @discardableResult
    mutating func refactor(rebuildingIndex: Bool = false) -> Bool {
        let symbolCount = tableau.symbolCount
        var work: [Row] = []
        for record in records { if let record { work.append(row(of: record)) } }
        var basics: [Int] = []
        for symbol in 0..<symbolCount where tableau.symbols[symbol].isBasic { basics.append(symbol) }
        guard basics.count == work.count else { return false }

        var isBasicSymbol = Array(repeating: false, count: symbolCount)
        for b in basics { isBasicSymbol[b] = true }
        var rowsOf = Array(repeating: [Int](), count: symbolCount)   // filled for basic symbols only
        var colCount = Array(repeating: 0, count: symbolCount)
        var count = Array(repeating: 0, count: work.count)
        for (r, row) in work.enumerated() {
            for term in row.terms where isBasicSymbol[term.symbol] {
                colCount[term.symbol] += 1
                count[r] += 1
            }
        }
        // Counted first, so that each list is allocated once at its size: appended from empty,
        // the lists' regrowths were a tenth of a rebuild.
        for b in basics where colCount[b] > 0 { rowsOf[b].reserveCapacity(colCount[b]) }
        for (r, row) in work.enumerated() {
            for term in row.terms where isBasicSymbol[term.symbol] { rowsOf[term.symbol].append(r) }
        }
        var assigned = Array(repeating: false, count: symbolCount)
        var rowDone = Array(repeating: false, count: work.count)
        var rowQueue = (0..<work.count).filter { count[$0] == 1 }
        var columnQueue = basics.filter { colCount[$0] == 1 }
        var definitions: [(symbol: Int, row: Row, rank: Int)] = []
        definitions.reserveCapacity(basics.count)
        var forward = 0
        var backward = 1 << 40

        func contains(_ r: Int, _ symbol: Int) -> Bool { work[r].terms.contains { $0.symbol == symbol } }

        /// Solves row r for b (rejecting small pivots, relative to the row, unless r names no
        /// other unassigned basic symbol) and retires both.
        ///
        /// A row singleton leaves no choice: its last basic symbol is what it determines, and
        /// dividing by its coefficient keeps the relative accuracy of the rest of the row
        /// (`v2.left == -1e-9 * v1.left` with `v2.left` known gives `v1.left` to the last bit).
        /// Refusing it gave up the whole rebuild, and kept rows that had reached `v1` through
        /// 1e10-sized intermediates (5.1e10 − 1389 for 5.1e10).
        func assign(_ b: Int, _ r: Int, rank: Int, singleton: Bool = false) -> Bool {
            var coefficient = 0.0
            var largest = 0.0
            for term in work[r].terms {
                if term.symbol == b { coefficient += term.coefficient }
                largest = max(largest, abs(term.coefficient))
            }
            guard abs(coefficient) > (singleton ? 0 : 1e-7 * largest) else { return false }
            let scale = -1 / coefficient
            var terms: [Term] = []
            terms.reserveCapacity(work[r].terms.count - 1)
            for term in work[r].terms where term.symbol != b { terms.append(Term(term.symbol, term.coefficient * scale)) }
            definitions.append((b, Row(constant: work[r].constant * scale, terms: terms), rank))
            rowDone[r] = true
            assigned[b] = true
            for term in work[r].terms where isBasicSymbol[term.symbol] && !assigned[term.symbol] {
                colCount[term.symbol] -= 1
                if colCount[term.symbol] == 1 { columnQueue.append(term.symbol) }
            }
            for other in rowsOf[b] where !rowDone[other] && contains(other, b) {
                count[other] -= 1
                if count[other] == 1 { rowQueue.append(other) }
            }
            return true
        }

        while definitions.count < basics.count {
            if let r = rowQueue.popLast() {
                guard !rowDone[r], count[r] == 1 else { continue }
                guard let b = work[r].terms.first(where: { isBasicSymbol[$0.symbol] && !assigned[$0.symbol] })?.symbol else { return false }
                forward += 1
                guard assign(b, r, rank: forward, singleton: true) else { return false }
            } else if let b = columnQueue.popLast() {
                guard !assigned[b], colCount[b] == 1 else { continue }
                guard let r = rowsOf[b].first(where: { !rowDone[$0] && contains($0, b) }) else { return false }
                backward -= 1
                guard assign(b, r, rank: backward) else { return false }
            } else {
                // A cycle: eliminate the unassigned symbol of least Markowitz cost.
                var best: (r: Int, b: Int, cost: Int, magnitude: Double)?
                for r in work.indices where !rowDone[r] && count[r] >= 1 {
                    var largest = 0.0
                    for term in work[r].terms { largest = max(largest, abs(term.coefficient)) }
                    for term in work[r].terms where isBasicSymbol[term.symbol] && !assigned[term.symbol] {
                        guard abs(term.coefficient) > 0.1 * largest else { continue }
                        let cost = (count[r] - 1) * (colCount[term.symbol] - 1)
                        if best == nil || cost < best!.cost || (cost == best!.cost && abs(term.coefficient) > best!.magnitude) {
                            best = (r, term.symbol, cost, abs(term.coefficient))
                        }
                    }
                }
                guard let (r, b, _, _) = best else { return false }
                var coefficient = 0.0
                for term in work[r].terms where term.symbol == b { coefficient += term.coefficient }
                for other in rowsOf[b] where other != r && !rowDone[other] && contains(other, b) {
                    var factor = 0.0
                    var merged: [Term] = []
                    for term in work[other].terms {
                        if term.symbol == b { factor += term.coefficient } else { merged.append(term) }
                    }
                    let k = -factor / coefficient
                    for term in work[r].terms where term.symbol != b {
                        if let index = merged.firstIndex(where: { $0.symbol == term.symbol }) {
                            let old = merged[index].coefficient
                            let amount = k * term.coefficient
                            let sum = old + amount
                            merged[index].coefficient = Tolerance.isCancelled(sum, of: max(abs(old), abs(amount))) ? 0 : sum
                        } else {
                            merged.append(Term(term.symbol, k * term.coefficient))
                            if isBasicSymbol[term.symbol] && !assigned[term.symbol] {
                                rowsOf[term.symbol].append(other)
                                colCount[term.symbol] += 1
                            }
                        }
                    }
                    merged.removeAll { term in
                        guard term.coefficient == 0 else { return false }
                        if isBasicSymbol[term.symbol] && !assigned[term.symbol] { colCount[term.symbol] -= 1 }
                        return true
                    }
                    work[other] = Row(constant: work[other].constant + k * work[r].constant, terms: merged)
                    colCount[b] -= 1
                    count[other] = merged.reduce(0) { $0 + (isBasicSymbol[$1.symbol] && !assigned[$1.symbol] ? 1 : 0) }
                    if count[other] == 1 { rowQueue.append(other) }
                }
                for term in work[r].terms where isBasicSymbol[term.symbol] && !assigned[term.symbol] && term.symbol != b {
                    if colCount[term.symbol] == 1 { columnQueue.append(term.symbol) }
                }
                backward -= 1
                guard assign(b, r, rank: backward) else { return false }
            }
        }

        // Apply: rows and ranks, then values in rank order, then the reduced objective.
        tableau.shiftCones.removeAll()
        var rewritten: [(symbol: Int, row: Row, rank: Int)] = []
        for definition in definitions {
            // Most rows come out as they were: only the region the pivots touched is rewritten.
            if tableau.rowEquals(definition.symbol, definition.row) {
                tableau.symbols[definition.symbol].rank = definition.rank
            } else if rebuildingIndex {
                rewritten.append(definition)
            } else {
                tableau.setRow(definition.symbol, definition.row, rank: definition.rank)
            }
        }
        if !rewritten.isEmpty { tableau.replaceRows(rewritten) }
        tableau.lowRank = 0
        tableau.highRank = 1 << 40
        // Rank order without sorting: forward ranks count up from 1 and backward ones down
        // from 2⁴⁰ in the order the definitions were made, so it is the forward definitions
        // in that order, then the backward ones in reverse.
        var ordered: [Int] = []
        ordered.reserveCapacity(definitions.count)
        for definition in definitions where definition.rank < 1 << 39 { ordered.append(definition.symbol) }
        for definition in definitions.reversed() where definition.rank >= 1 << 39 { ordered.append(definition.symbol) }
        assert(ordered.count == basics.count && zip(ordered, ordered.dropFirst()).allSatisfy {
            tableau.symbols[$0.0].rank < tableau.symbols[$0.1].rank
        }, "the basics in rank order")
        for b in ordered { tableau.setValue(b, tableau.evaluate(b)) }
        var weight = Array(repeating: LexVector(), count: symbolCount)
        for symbol in 0..<symbolCount where tableau.symbols[symbol].costLevel != 0 && tableau.symbols[symbol].kind == .error {
            weight[symbol] = LexVector(level: tableau.symbols[symbol].costLevel, value: 1)
        }
        for b in ordered.reversed() where !weight[b].isZero {
            let w = weight[b]
            for index in tableau.symbols[b].rowRange {
                let term = tableau.terms[index]
                weight[term.symbol].add(w, times: term.coefficient)
            }
        }
        for symbol in 0..<symbolCount where tableau.symbols[symbol].kind != .retired {
            tableau.setReducedCost(symbol, tableau.symbols[symbol].isBasic ? LexVector() : weight[symbol])
        }
        tableau.refactorisations += 1
        tableau.cleanTermCount = tableau.termCount
        tableau.sawSmallPivot = false
        tableau.checkInvariantsAfterMutation()
        return true
    }
}
