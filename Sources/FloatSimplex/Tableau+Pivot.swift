import BackendContract

extension Tableau {
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
        beginReduction()
        for index in symbols[symbol].rowRange { accumulate(terms[index].symbol, terms[index].coefficient) }
        return finishReduction(constant: symbols[symbol].constant)
    }

    /// The reduced form of `Σ expression` (symbols basic or not, each named once): the same
    /// sum over non-basic symbols only, as ``reduce(_:)`` gives for a row. Hand the result
    /// back with ``recycle(_:)-(Row)``.
    mutating func reduce(expression: [Term]) -> Row {
        beginReduction()
        for term in expression { accumulate(term.symbol, term.coefficient) }
        return finishReduction(constant: 0)
    }

    @inline(__always)
    private mutating func beginReduction() {
        nextEpoch()
        if accumulatedMagnitudes.count < symbols.count {
            accumulatedMagnitudes.append(contentsOf: repeatElement(0, count: symbols.count - accumulatedMagnitudes.count))
        }
    }

    /// Expands the accumulated basic symbols from the highest rank down and collects what is
    /// left on non-basic ones.
    @inline(__always)
    private mutating func finishReduction(constant initial: Double) -> Row {
        var constant = initial
        while let basic = heap.pop() {
            let factor = symbols[basic].accumulator
            symbols[basic].accumulator = 0
            if Tolerance.isCancelled(factor, of: accumulatedMagnitudes[basic]) { continue }
            constant += factor * symbols[basic].constant
            termsRead &+= symbols[basic].rowRange.count
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

    /// Starts an FTRAN from the non-basic `symbol`: its users queued in rank order, its
    /// accumulator 1 (``nextColumnEntry()`` then yields the column).
    @inline(__always)
    private mutating func startColumnWalk(from symbol: Int) {
        nextEpoch()
        symbols[symbol].seen = epoch
        symbols[symbol].accumulator = 1
        enqueueUsers(of: symbol)
    }

    /// The column's next entry in rank order — a basic symbol and `∂basic/∂symbol`, summed
    /// from the entries of the symbols its row names — with its users queued; entries that
    /// cancel (within the rounding of their summands, or exactly with `dropsResidue` false)
    /// are skipped and reach nothing further.
    @inline(__always)
    private mutating func nextColumnEntry(dropsResidue: Bool = true) -> (basic: Int, coefficient: Double)? {
        while let basic = heap.pop() {
            var sum = 0.0
            var magnitude = 0.0
            termsRead &+= symbols[basic].rowRange.count
            for index in symbols[basic].rowRange {
                let term = terms[index]
                if symbols[term.symbol].seen == epoch {
                    let product = term.coefficient * symbols[term.symbol].accumulator
                    sum += product
                    magnitude = Swift.max(magnitude, abs(product))
                }
            }
            if dropsResidue ? Tolerance.isCancelled(sum, of: magnitude) : sum == 0 {
                symbols[basic].accumulator = 0
                continue
            }
            symbols[basic].accumulator = sum
            enqueueUsers(of: basic)
            return (basic, sum)
        }
        return nil
    }

    /// The column of a non-basic symbol: `∂basic/∂symbol` for every basic symbol that depends
    /// on it (an FTRAN), in rank order. Walks the forward cone through the column index.
    mutating func column(of symbol: Int) -> [Term] {
        startColumnWalk(from: symbol)
        var result = termBuffer
        termBuffer = []
        result.removeAll(keepingCapacity: true)
        while let (basic, coefficient) = nextColumnEntry() { result.append(Term(basic, coefficient)) }
        return result
    }

    /// ``column(of:)`` for the primal ratio test, cut short after the first entry that blocks
    /// `symbol` (moving in `direction`) at step zero with a rate of at least 1: the least
    /// ratio there is, at a pivot no worse conditioned than the layout's unit coefficients.
    /// At a degenerate vertex such a row usually lies near the column's start, while the
    /// whole column is the entering symbol's forward cone (every cell below it in a stack,
    /// every chip after it in a row). The pivot it leads to is a valid one (ratio 0 is the
    /// minimum) but not always the one the whole column's tie-break picks
    /// (``CassowarySolver/walksWholeEnteringColumns`` walks the whole column).
    mutating func column(of symbol: Int, throughFirstDegenerateBlockMoving direction: Double) -> [Term] {
        startColumnWalk(from: symbol)
        var result = termBuffer
        termBuffer = []
        result.removeAll(keepingCapacity: true)
        while let (basic, coefficient) = nextColumnEntry() {
            result.append(Term(basic, coefficient))
            let rate = coefficient * direction
            if abs(rate) >= 1 && blockingRatio(of: basic, rate: rate) == 0 { break }
        }
        return result
    }

    /// How far the entering symbol can move before basic `symbol`, whose value changes at
    /// `rate` per unit of it, blocks: nil when `symbol` does not block. External symbols are
    /// free; a required equality's marker (a dummy) must stay 0, so it blocks at once unless
    /// it does not move; a slack or error blocks where it reaches 0, if it falls.
    @inline(__always)
    func blockingRatio(of symbol: Int, rate: Double) -> Double? {
        switch symbols[symbol].kind {
        case .external, .retired: return nil
        case .dummy: return abs(rate) <= tolerance.pivot ? nil : 0
        case .slack, .error:
            return rate >= -tolerance.pivot ? nil : max(symbols[symbol].value, 0) / -rate
        }
    }

    /// The basic symbols whose values move when the non-basic `symbol` does, in rank order:
    /// ``column(of:)``'s symbols, with the entries that cancel only within rounding kept.
    ///
    /// A coefficient the column drops as rounding is still a coefficient: `-5e-10` (a chain
    /// through `1e-9 * v1.width`) times an edit of 1e9 moves a value by 0.5. Only entries
    /// that cancel exactly (a height between a top and a bottom that move together) keep
    /// their values, and so does the rounding of a real coefficient that came out 0.
    mutating func movingRows(of symbol: Int) -> [Int] {
        startColumnWalk(from: symbol)
        var result: [Int] = []
        while let (basic, _) = nextColumnEntry(dropsResidue: false) { result.append(basic) }
        return result
    }

    /// Takes back a column's storage once the caller is done with it.
    mutating func recycle(_ column: consuming [Term]) { termBuffer = column }

    /// Whether a step of positive length along the flat non-basic `symbol` is possible in
    /// some direction (both for an external symbol, upwards for a restricted one) before a
    /// restricted basic symbol reaches 0 or a required equality's marker moves; with the
    /// external basic symbols its column moves (coefficient beyond the pivot tolerance) in
    /// `reached` when it is.
    ///
    /// Walks the column in rank order as ``column(of:)`` computes it, and stops as soon as
    /// every direction meets a block at step zero: what the ambiguity estimate needs of most
    /// columns at a degenerate vertex, which a degenerate row near the column's start
    /// usually settles. A complete column costs its whole forward cone — every view below a
    /// cell in a stack — so computing each flat column whole made the estimate quadratic.
    ///
    /// `coneMagnitudes` carries what the rounding checks computed (``coneMagnitude(_:memo:)``)
    /// from one call to the next, on a tableau whose rows and values have not changed.
    mutating func isMovable(alongFlat symbol: Int, reached: inout [Int], coneMagnitudes: inout SymbolMemo) -> Bool {
        let pivotTolerance = tolerance.pivot
        var upBlocked = false
        var downBlocked = symbols[symbol].kind != .external
        startColumnWalk(from: symbol)
        while let (basic, sum) = nextColumnEntry() {
            switch symbols[basic].kind {
            case .dummy:
                if abs(sum) > pivotTolerance { upBlocked = true; downBlocked = true }
            case .slack, .error:
                // A value within its row's rounding of 0 is at its bound: no room.
                let value = symbols[basic].value
                if sum < -pivotTolerance && !upBlocked && !(value > 0 && isBeyondRounding(value, of: basic, coneMagnitudes: &coneMagnitudes)) {
                    upBlocked = true
                }
                if sum > pivotTolerance && !downBlocked && !(value > 0 && isBeyondRounding(value, of: basic, coneMagnitudes: &coneMagnitudes)) {
                    downBlocked = true
                }
            case .external:
                if abs(sum) > pivotTolerance { reached.append(basic) }
            case .retired:
                break
            }
            if upBlocked && downBlocked { return false }
        }
        return true
    }

    /// Every basic symbol downstream of `sources` (through the rows that name them, then the
    /// rows that name those, …), whatever the coefficients: a superset of the union of their
    /// columns, found in one walk over the column index (each row visited once, however many
    /// sources reach it).
    mutating func forwardCone(of sources: [Int]) -> [Int] {
        nextEpoch()
        var reached: [Int] = []
        var stack: [Int] = []
        for source in sources where symbols[source].seen != epoch {
            symbols[source].seen = epoch
            stack.append(source)
        }
        while let symbol = stack.popLast() {
            var node = users.first(symbol)
            while node >= 0 {
                let user = users.user(at: node)
                if symbols[user].seen != epoch {
                    symbols[user].seen = epoch
                    reached.append(user)
                    stack.append(user)
                }
                node = users.next(after: node)
            }
        }
        return reached
    }



    /// Recomputes the values of every basic symbol downstream of `changed` from their rows,
    /// in rank order (so each is computed once, from final inputs).
    mutating func refreshValues(downstreamOf changed: [Int]) {
        nextEpoch()
        for symbol in changed { enqueueUsers(of: symbol) }
        propagateValues()
        checkInvariantsAfterMutation()
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
            termsRead &+= symbols[basic].rowRange.count
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
        var largest = 0.0
        for term in reduced.terms {
            if term.symbol == entering { alpha = term.coefficient }
            largest = max(largest, abs(term.coefficient))
        }
        if abs(alpha) < Self.smallPivotRatio * largest { sawSmallPivot = true }
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
        checkInvariantsAfterMutation()
    }
}
