extension Tableau {
    // MARK: Journaled primitives

    /// A basic symbol's row, copied out of the pool (for the rare paths; hot loops read
    /// `terms[symbols[s].rowRange]` by index).
    func row(_ symbol: Int) -> Row {
        guard symbols[symbol].isBasic else { return .empty }
        return Row(constant: symbols[symbol].constant, terms: Array(terms[symbols[symbol].rowRange]))
    }

    /// Whether `symbol`'s row is `constant + Σ terms` (as `row(symbol)` would say), read in
    /// place: the refactorisation asks it of every basic symbol, and a row copied out to
    /// compare was an allocation each.
    func rowEquals(_ symbol: Int, constant: Double, terms other: ArraySlice<Term>) -> Bool {
        guard symbols[symbol].isBasic else { return constant == 0 && other.isEmpty }
        let range = symbols[symbol].rowRange
        guard symbols[symbol].constant == constant, range.count == other.count else { return false }
        var position = other.startIndex
        for index in range {
            guard terms[index] == other[position] else { return false }
            position += 1
        }
        return true
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
    mutating func place(_ symbol: Int, start: Int32, count: Int32, constant: Double, basic: Bool, rank newRank: Int) {
        if !shiftCones.isEmpty { shiftCones.removeAll() }
        let wasBasic = symbols[symbol].isBasic
        if journaling {
            record(.row(
                symbol: symbol, start: symbols[symbol].rowStart, count: symbols[symbol].rowCount,
                constant: symbols[symbol].constant, wasBasic: wasBasic, rank: symbols[symbol].rank))
        }
        let oldRange = symbols[symbol].rowRange
        let newRange = Int(start)..<Int(start) + Int(count)
        // A row rewritten in place (a substitution) keeps most of its symbols: only those that
        // leave or enter it move in the column index. Removing and re-adding every one made
        // eliminating a symbol named by n rows that also name a common symbol O(n²) (each
        // removal walks that symbol's list past the users re-added before it): seconds per
        // removal on 1,000-view conflict-then-remove sequences.
        let keepsShared = wasBasic && basic && markShared(old: oldRange, new: newRange)
        let generation = placeGeneration << 2
        if wasBasic {
            termCount -= oldRange.count
            garbage += oldRange.count
            for index in oldRange where !keepsShared || placeMarks[terms[index].symbol] != generation | 3 {
                users.remove(symbol, from: terms[index].symbol)
            }
        }
        symbols[symbol].rowStart = start
        symbols[symbol].rowCount = count
        symbols[symbol].constant = constant
        symbols[symbol].isBasic = basic
        if basic {
            termCount += Int(count)
            symbols[symbol].rank = newRank
            for index in newRange where !keepsShared || placeMarks[terms[index].symbol] != generation | 3 {
                users.add(symbol, to: terms[index].symbol)
            }
        }
        updateCandidacy(symbol)
        updateFeasibility(symbol)
    }

    /// Marks, under a new ``placeGeneration``, the symbols of the pool's runs `old` and `new`
    /// (`generation << 2 | 3`: in both). False, when a run names a symbol twice (then every
    /// symbol moves, as the column index holds one entry per term).
    private mutating func markShared(old: Range<Int>, new: Range<Int>) -> Bool {
        if placeMarks.count < symbols.count { placeMarks.append(contentsOf: repeatElement(0, count: symbols.count - placeMarks.count)) }
        placeGeneration &+= 1
        let generation = placeGeneration << 2
        for index in old {
            let symbol = terms[index].symbol
            if placeMarks[symbol] == generation | 1 { return false }
            placeMarks[symbol] = generation | 1
        }
        for index in new {
            let symbol = terms[index].symbol
            let mark = placeMarks[symbol]
            if mark == generation | 2 || mark == generation | 3 { return false }
            placeMarks[symbol] = mark == generation | 1 ? generation | 3 : generation | 2
        }
        return true
    }

    /// Gives basic symbols new rows (same basis) all at once, then rebuilds the column index
    /// from every basic row in one sweep, instead of moving each old row's users (a walk of
    /// each named symbol's list, see ``place(_:start:count:constant:basic:rank:)``). Between
    /// calls only (not journaled).
    mutating func replaceRows(_ rows: [BasisFactors.Definition], from pool: [Term]) {
        precondition(!journaling, "rows replaced inside an attempt")
        if !shiftCones.isEmpty { shiftCones.removeAll() }
        // Room for every new run at once, and below for every (row, symbol) pair of the index:
        // grown term by term, both were copied over several times.
        var added = 0
        for row in rows { added += row.count }
        terms.reserveCapacity(terms.count + added)
        for row in rows {
            let symbol = row.symbol
            precondition(symbols[symbol].isBasic, "a replaced row's symbol is basic")
            let old = Int(symbols[symbol].rowCount)
            termCount -= old
            garbage += old
            symbols[symbol].rowStart = Int32(truncatingIfNeeded: terms.count)
            symbols[symbol].rowCount = Int32(truncatingIfNeeded: row.count)
            terms.append(contentsOf: pool[row.range])
            termCount += row.count
            symbols[symbol].constant = row.constant
            symbols[symbol].rank = row.rank
        }
        var index = ColumnIndex()
        index.reserveCapacity(symbols.count, entries: termCount)
        for _ in symbols.indices { index.appendSymbol() }
        for symbol in symbols.indices where symbols[symbol].isBasic {
            for position in symbols[symbol].rowRange { index.add(symbol, to: terms[position].symbol) }
        }
        users = index
        for row in rows {
            updateCandidacy(row.symbol)
            updateFeasibility(row.symbol)
        }
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
        checkInvariantsAfterMutation()
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
            if reducedCosts[symbol].count > 2, let level = cost.singleLevel {
                record(.reducedCostEntry(symbol: symbol, level: level, old: reducedCosts[symbol].value(atLevel: level)))
            } else {
                recordReducedCost(of: symbol)
            }
        }
        reducedCosts[symbol].add(cost, times: factor)
        updateCandidacy(symbol)
    }

    // MARK: Rewriting rows in place

    /// Replaces `symbol` by `symbol + delta` in every row: rows naming it change constant, and
    /// its own row (when basic) absorbs −delta.
    mutating func shift(_ symbol: Int, by delta: Double) {
        for user in users[symbol] {
            var coefficient = 0.0
            for index in symbols[user].rowRange where terms[index].symbol == symbol { coefficient += terms[index].coefficient }
            symbols[user].constant += coefficient * delta
        }
        if symbols[symbol].isBasic {
            symbols[symbol].constant -= delta
            setValue(symbol, symbols[symbol].value - delta)
        } else {
            refreshValues(downstreamOfShifted: symbol)
        }
        checkInvariantsAfterMutation()
    }

    /// Rewrites a basic symbol's row with `symbol` replaced by `definition` (same rank).
    mutating func setRow(_ user: Int, substituting symbol: Int, by definition: Row) {
        var row = self.row(user)
        var factor = 0.0
        row.terms.removeAll { term in
            if term.symbol == symbol { factor += term.coefficient; return true }
            return false
        }
        row.constant += factor * definition.constant
        for term in definition.terms {
            let amount = factor * term.coefficient
            if let index = row.terms.firstIndex(where: { $0.symbol == term.symbol }) {
                let old = row.terms[index].coefficient
                let sum = old + amount
                row.terms[index].coefficient = Tolerance.isCancelled(sum, of: Swift.max(abs(old), abs(amount))) ? 0 : sum
            } else {
                row.terms.append(Term(term.symbol, amount))
            }
        }
        row.terms.removeAll { $0.coefficient == 0 }
        setRow(user, row, rank: symbols[user].rank)
    }

    /// Recomputes the given basic symbols and everything downstream of them, in rank order.
    mutating func refreshValues(of basics: [Int]) {
        var all: [Int] = []
        for symbol in basics where symbols[symbol].isBasic {
            setValue(symbol, evaluate(symbol))
            all.append(symbol)
        }
        refreshValues(downstreamOf: all)
    }
}
