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
    /// layout whose numbers are below 1,024). A view's removal is several removals in a row,
    /// and the constants left drop only as they go: `removedMagnitude` is the largest of the
    /// run (``CassowarySolver/removalRunMagnitude``), so the test holds at the removal that
    /// takes the last large constant (with `v2.centerX >= v1.leading + 123457` also removed,
    /// no single removal's own numbers passed it, and 1e-3 stayed at @751).
    @discardableResult
    mutating func refactorIfFilled(settled: Bool = false, afterRemoval: Bool = false, removedMagnitude: Double = 0) -> Bool {
        guard !tableau.journaling else { return false }
        let clean = max(tableau.cleanTermCount, 64)
        let limit = settled ? clean + clean / 2 : 3 * max(originalTerms, clean) + 1024
        let leftBehind = heldConstants.largest
        let outscaled = leftBehind > 0 && removedMagnitude * Tableau.smallPivotRatio > leftBehind
        guard tableau.termCount > limit || (afterRemoval && (tableau.sawSmallPivot || outscaled)) else { return false }
        return rebuildAndReoptimize()
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

    /// Rebuilds the rows from the constraints for the current basis, and re-optimises, once
    /// the walks since the last such rebuild (columns, value refreshes: ``Tableau/termsRead``)
    /// have read more than `factor` times the constraints' own terms (at least
    /// ``walkWorkFloor``); returns whether it rebuilt. For a caller between additions (the
    /// one-shot solve's walk): an addition's journal cannot hold a rebuild.
    ///
    /// Each pivot writes the entering symbol's row as the leaving row reduced to non-basic
    /// symbols, and rows that named the entering symbol go on naming it. On `random` the
    /// downstream cones this builds grow with the layout: at 3,000 views a pivot's value
    /// refresh read thousands of rows (158 K instructions a pivot, against 49 K at 1,000),
    /// where the constraints' own rows, solved for the same basis, give cones of a few rows.
    /// The rebuild costs about one pass over the constraints' terms, so at a factor of 32
    /// it is at most a small part of the work it is paid from. Layouts whose walks stay near
    /// their rows (every realistic family: at 10,000 views their whole solve reads at most
    /// 1.2 times their terms) never reach it, and their answers are unchanged to the bit.
    @discardableResult
    public mutating func rebuildIfWalksOutgrewRows(factor: Int) -> Bool {
        guard factor > 0, !tableau.journaling,
            tableau.termsRead &- termsReadAtWorkRebuild > factor * max(originalTerms, Self.walkWorkFloor) else { return false }
        let rebuilt = rebuildAndReoptimize()
        if rebuilt { rebuildsForWalkWork += 1 }
        // Also after a rebuild refused (an unsafe pivot): the next try waits for as much work again.
        termsReadAtWorkRebuild = tableau.termsRead
        return rebuilt
    }

    /// The fewest constraint terms ``rebuildIfWalksOutgrewRows(factor:)`` measures the walks
    /// against: a small layout is never rebuilt for work.
    static let walkWorkFloor = 4_096

    /// ``refactor(rebuildingIndex:)``, then the primal and dual simplex for what the rebuilt
    /// rows' rounding left to do.
    @discardableResult
    mutating func rebuildAndReoptimize() -> Bool {
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
    ///
    /// The rebuilt rows are judged before they are written: their values, rank by rank, and
    /// the reduced costs they imply are compared with the solver's, bit for bit, and no
    /// symbol may show an improving direction. A copy of the solver to fall back on (its
    /// arrays copied on the first write, the reduced costs' storage retained and released
    /// one by one) was a sixth of `form`'s one-shot solve at 100 views. Only where a basic
    /// restricted symbol sits below zero (or a marker off it) does feasibility depend on
    /// the new rows' rounding scale (or where one is listed infeasible already); then the
    /// rows are written and, if they call a symbol infeasible, the copy is put back.
    private mutating func refactorKeepingEverything() -> Bool {
        guard let factors = factorBasis() else {
            denseRefactorFloor = 2 * tableau.termCount
            return false
        }
        let order = factors.rankOrder()
        guard let weights = reducedCostsIfUnchanged(by: factors, order: order) else {
            denseRefactorFloor = 2 * tableau.termCount
            return false
        }
        let feasibilityDependsOnRows = !tableau.infeasible.isEmpty || tableau.symbols.contains {
            $0.isBasic && $0.kind != .external && ($0.kind == .dummy ? $0.value != 0 : $0.value < 0)
        }
        if feasibilityDependsOnRows {
            let saved = self
            apply(factors, order: order, weights: weights, rebuildingIndex: true)
            guard tableau.infeasible.isEmpty else {
                self = saved
                denseRefactorFloor = 2 * tableau.termCount
                return false
            }
        } else {
            apply(factors, order: order, weights: weights, rebuildingIndex: true, pointUnchanged: true)
        }
        tableau.compactIfWasteful()
        denseRefactorsKept &+= 1
        return true
    }

    /// The reduced costs the rows of `factors` give every symbol, when every basic symbol's
    /// value comes out of them to the bit, every reduced cost is the solver's, and neither
    /// list (candidates, infeasible) would keep a member once they are written; nil otherwise.
    ///
    /// Values are summed in rank order from the current values: while every earlier one
    /// matches to the bit, the current values are the rebuilt ones.
    private func reducedCostsIfUnchanged(by factors: BasisFactors, order: [Int]) -> [LexVector]? {
        // Members that writing the rows would not revisit (it updates every basic symbol's
        // feasibility and every live symbol's candidacy).
        for symbol in tableau.candidates where tableau.symbols[symbol].kind == .retired { return nil }
        for symbol in tableau.infeasible where !tableau.symbols[symbol].isBasic { return nil }
        for index in order {
            let definition = factors.definitions[index]
            guard factors.evaluate(definition, values: tableau.symbols).bitPattern == tableau.symbols[definition.symbol].value.bitPattern else {
                return nil
            }
        }
        let weights = reducedCosts(of: factors, order: order)
        for symbol in 0..<tableau.symbolCount where tableau.symbols[symbol].kind != .retired {
            let isBasic = tableau.symbols[symbol].isBasic
            guard tableau.reducedCosts[symbol] == (isBasic ? LexVector() : weights[symbol]) else { return nil }
            // Equal costs give the same direction; one the primal simplex dropped as residue
            // would be listed again once written.
            guard tableau.improvingDirection(symbol) == 0 else { return nil }
        }
        return weights
    }

    /// The reduced objective over the rows of `factors`: each error symbol's cost at its
    /// level, carried down the definitions in reverse rank order onto the symbols they name.
    private func reducedCosts(of factors: BasisFactors, order: [Int]) -> [LexVector] {
        var weight = Array(repeating: LexVector(), count: tableau.symbolCount)
        for symbol in 0..<tableau.symbolCount where tableau.symbols[symbol].costLevel != 0 && tableau.symbols[symbol].kind == .error {
            weight[symbol] = LexVector(level: tableau.symbols[symbol].costLevel, value: 1)
        }
        for index in order.reversed() {
            let definition = factors.definitions[index]
            guard !weight[definition.symbol].isZero else { continue }
            let w = weight[definition.symbol]
            for position in definition.range {
                let term = factors.terms[position]
                weight[term.symbol].add(w, times: term.coefficient)
            }
        }
        return weight
    }

    /// Rebuilds every basic symbol's row from the records' rows for the current basis
    /// (``factorBasis()``), then recomputes the values and the reduced objective. Returns
    /// false, changing nothing, when a pivot would be numerically unsafe or the basis does not
    /// match the records.
    ///
    /// With `rebuildingIndex`, the rewritten rows go in at once and the column index is
    /// rebuilt in one sweep (``Tableau/replaceRows(_:from:)``): unlinking each old row's users one
    /// by one walks every named symbol's list, quadratic when long rows share their symbols
    /// (three quarters of a 1,000-cell table's first pass). The lists' order then differs.
    @discardableResult
    mutating func refactor(rebuildingIndex: Bool = false) -> Bool {
        guard let factors = factorBasis() else { return false }
        let order = factors.rankOrder()
        apply(factors, order: order, weights: reducedCosts(of: factors, order: order), rebuildingIndex: rebuildingIndex)
        return true
    }

    /// Writes the rows of `factors` and their ranks, then the values in rank order and the
    /// reduced costs `weights` (``reducedCosts(of:order:)`` of the same factors).
    ///
    /// With `pointUnchanged` (``reducedCostsIfUnchanged(by:order:)`` found every value equal to
    /// the bit and every reduced cost equal, and no basic symbol's value can read as
    /// infeasible), the values and costs are left as they are: only a listed candidate
    /// without an improving direction is taken off its list, as writing its cost would.
    private mutating func apply(
        _ factors: BasisFactors, order: [Int], weights: [LexVector], rebuildingIndex: Bool, pointUnchanged: Bool = false
    ) {
        tableau.shiftCones.removeAll()
        var rewritten: [BasisFactors.Definition] = []
        for definition in factors.definitions {
            // Most rows come out as they were: only the region the pivots touched is rewritten.
            if tableau.rowEquals(definition.symbol, constant: definition.constant, terms: factors.terms[definition.range]) {
                tableau.symbols[definition.symbol].rank = definition.rank
            } else if rebuildingIndex {
                rewritten.append(definition)
            } else {
                let start = tableau.terms.count
                tableau.terms.append(contentsOf: factors.terms[definition.range])
                tableau.setRow(definition.symbol, constant: definition.constant, termsFrom: start, rank: definition.rank)
            }
        }
        if !rewritten.isEmpty { tableau.replaceRows(rewritten, from: factors.terms) }
        tableau.lowRank = 0
        tableau.highRank = BasisFactors.firstBackwardRank
        if pointUnchanged {
            for symbol in Array(tableau.candidates.members) { tableau.updateCandidacy(symbol) }
        } else {
            for index in order {
                let b = factors.definitions[index].symbol
                tableau.setValue(b, tableau.evaluate(b))
            }
            for symbol in 0..<tableau.symbolCount where tableau.symbols[symbol].kind != .retired {
                tableau.setReducedCost(symbol, tableau.symbols[symbol].isBasic ? LexVector() : weights[symbol])
            }
        }
        tableau.refactorisations += 1
        tableau.cleanTermCount = tableau.termCount
        tableau.sawSmallPivot = false
        tableau.checkInvariantsAfterMutation()
    }
}
