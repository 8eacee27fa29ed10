extension Tableau {
    // MARK: Membership of the candidate and infeasible lists

    /// The direction in which a non-basic symbol improves the objective (0: none).
    @inline(__always)
    func improvingDirection(_ symbol: Int) -> Int {
        if symbols[symbol].isBasic { return 0 }
        switch symbols[symbol].kind {
        case .external: return -reducedCosts[symbol].sign
        case .slack, .error: return reducedCosts[symbol].sign < 0 ? 1 : 0
        case .dummy, .retired: return 0
        }
    }

    @inline(__always)
    mutating func updateCandidacy(_ symbol: Int) {
        candidates.update(symbol, to: improvingDirection(symbol) != 0, records: &symbols)
        if watchesCandidacy { candidacyUpdates.append(symbol) }
    }

    /// Whether `symbol`'s reduced cost improves in sign but the primal simplex dropped it as
    /// rounding residue (``removeCandidate(_:)``: nothing blocks the direction, or its pivot
    /// is below tolerance). The objective is bounded below (errors are ≥ 0), so an unblocked
    /// improving direction cannot exist: the true reduced cost is 0 and the column is flat.
    /// On a chain through `1e-9 * v1.left`, a slack's reduced cost came out -7.5e-8 (products
    /// of 1e9 summed), and the ambiguity estimate, reading only exact zeros, called `v1.x`
    /// determined where any value ≥ 0 is optimal.
    func hasResidueCost(_ symbol: Int) -> Bool {
        improvingDirection(symbol) != 0 && !candidates.contains(symbol, in: symbols)
    }

    /// Drops a candidate until its reduced cost next changes (used when a direction turns out
    /// to be numerical noise: improving in sign, unbounded in fact).
    mutating func removeCandidate(_ symbol: Int) {
        candidates.remove(symbol, records: &symbols)
    }

    @inline(__always)
    func isInfeasible(_ symbol: Int) -> Bool {
        guard symbols[symbol].isBasic else { return false }
        switch symbols[symbol].kind {
        case .slack, .error:
            // The row's own numbers set the scale of its rounding: a global scale (the largest
            // constant times the largest coefficient) let `width <= 177000000030` hide a
            // violation of 20 in a row of small numbers.
            let value = symbols[symbol].value
            return value < 0 && isBeyondRounding(-value, of: symbol)
        case .dummy:
            // A required equality's marker must be 0, within the rounding of its own row.
            let value = abs(symbols[symbol].value)
            return value > 0 && isBeyondRounding(value, of: symbol)
        case .external, .retired: return false
        }
    }

    /// `|constant| + Σ |coefficient · value|` of a basic symbol's row: the size of the numbers
    /// its value is computed from.
    @inline(__always)
    func rowMagnitude(_ symbol: Int) -> Double {
        var sum = abs(symbols[symbol].constant)
        for index in symbols[symbol].rowRange { sum += abs(terms[index].coefficient * symbols[terms[index].symbol].value) }
        return sum
    }

    /// Whether a basic symbol's deviation `amount` (> 0) from its bound exceeds the rounding
    /// its value can carry: ``Tolerance/decision`` times the magnitude of the numbers it is
    /// computed from. Its own row's (``rowMagnitude(_:)``) settles almost every case; a row
    /// may name other basic symbols, though, whose values carry the rounding of theirs (a
    /// duplicated equality's marker is `-s` where `s` is 2.8e-14 left over from positions near
    /// 667), so beyond the own row the backward cone decides (``coneMagnitude(_:)``).
    @inline(__always)
    func isBeyondRounding(_ amount: Double, of symbol: Int) -> Bool {
        // The row's constant alone settles most residues without reading the row.
        amount > Tolerance.decision * abs(symbols[symbol].constant) && isBeyondRoundingOfRow(amount, of: symbol)
    }

    /// ``isBeyondRounding(_:of:)`` remembering cone magnitudes in `coneMagnitudes` for the
    /// next call: valid while the tableau's rows and values do not change, as through the
    /// ambiguity estimate, whose flat columns ask about rows that share most of their cones
    /// (on `random` at 1,000 views, 798 cones of about a thousand symbols each, walked anew).
    @inline(__always)
    func isBeyondRounding(_ amount: Double, of symbol: Int, coneMagnitudes: inout SymbolMemo) -> Bool {
        amount > Tolerance.decision * abs(symbols[symbol].constant)
            && amount > Tolerance.decision * rowMagnitude(symbol)
            && amount > Tolerance.decision * coneMagnitude(symbol, memo: &coneMagnitudes)
    }

    @inline(never)
    private func isBeyondRoundingOfRow(_ amount: Double, of symbol: Int) -> Bool {
        amount > Tolerance.decision * rowMagnitude(symbol) && amount > Tolerance.decision * coneMagnitude(symbol)
    }

    /// `M(s) = |constant| + Σ |coefficient| · (M(x) if x is basic, else |value of x|)` over
    /// the backward cone of a basic symbol: a bound on the magnitudes its value's rounding
    /// comes from. Allocates; computed only for values that the own row does not settle.
    func coneMagnitude(_ symbol: Int) -> Double {
        var memo = SymbolMemo()
        return coneMagnitude(symbol, memo: &memo)
    }

    /// ``coneMagnitude(_:)``, reading and adding to the magnitudes in `memo` (which must come
    /// from this tableau, unchanged since).
    ///
    /// Rows name basic symbols of lower rank only, so the cone is acyclic, except while
    /// ``CassowarySolver/refactor()`` writes the rebuilt rows one by one: a new row can name a
    /// symbol whose old row still names it back. The walk then takes that symbol's own value
    /// for its magnitude instead of walking around the cycle. Before, it pushed the cycle
    /// onto its stack without end (guided fuzz: gigabytes within seconds, then killed).
    func coneMagnitude(_ symbol: Int, memo: inout SymbolMemo) -> Double {
        // A symbol whose row is being walked is remembered as -1 until its sum is known
        // (magnitudes are never negative).
        let walking = -1.0
        var stack: [Int] = [symbol]
        while let top = stack.last {
            if let known = memo[top] {
                if known != walking {
                    stack.removeLast()
                    continue
                }
            } else {
                memo.remember(walking, for: top)
                var pending = false
                for index in symbols[top].rowRange {
                    let other = terms[index].symbol
                    if symbols[other].isBasic && memo[other] == nil { stack.append(other); pending = true }
                }
                if pending { continue }
            }
            var sum = abs(symbols[top].constant)
            for index in symbols[top].rowRange {
                let other = terms[index].symbol
                var magnitude = abs(symbols[other].value)
                if symbols[other].isBasic, let known = memo[other], known != walking { magnitude = known }
                sum += abs(terms[index].coefficient) * magnitude
            }
            memo.remember(sum, for: top)
            stack.removeLast()
        }
        return memo[symbol] ?? 0
    }

    @inline(__always)
    mutating func updateFeasibility(_ symbol: Int) {
        infeasible.update(symbol, to: isInfeasible(symbol), records: &symbols)
    }
}
