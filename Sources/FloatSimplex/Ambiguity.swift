extension CassowarySolver {
    /// Variables that the final tableau shows can move without changing the objective: an
    /// estimate of the unknowns that are not determined (spec §5).
    ///
    /// A non-basic symbol whose reduced cost is zero at every level is a direction along which
    /// the objective is flat. If a step of positive length is possible along it (restricted
    /// symbols only grow; free ones either way) before some restricted basic symbol hits zero,
    /// the external variables it moves, itself included, are marked ambiguous. Variables named
    /// by no constraint are ambiguous too.
    ///
    /// Limits: it looks at one column at a time from one optimal vertex. At a degenerate
    /// vertex a flat direction may be blocked at step zero although a different basis of the
    /// same point would show it (a false "determined"); a movement that only a combination of
    /// columns can make is also missed. Reduced costs and steps are compared against the
    /// tolerances, so near-flat directions are decided by the epsilon policy. The exact
    /// backend decides; this one estimates.
    public func ambiguousVariables() -> [Variable] {
        var scratch = tableau
        var marked = Set<Int>()
        let costTolerance = scratch.tolerance.cost
        let pivotTolerance = scratch.tolerance.pivot
        let feasibility = scratch.tolerance.feasibility
        for symbol in 0..<scratch.symbolCount where !scratch.symbols[symbol].isBasic {
            let kind = scratch.symbols[symbol].kind
            let directions: [Double]
            switch kind {
            case .external: directions = [1, -1]
            case .slack, .error: directions = [1]
            case .dummy, .retired: continue
            }
            guard scratch.reducedCosts[symbol].leading(tolerance: costTolerance) == nil else { continue }
            if kind == .external && scratch.users.isEmpty(symbol) {
                marked.insert(symbol)
                continue
            }
            let column = scratch.column(of: symbol)
            let movable = directions.contains { direction in
                var step = Double.infinity
                for term in column {
                    let rate = term.coefficient * direction
                    switch scratch.symbols[term.symbol].kind {
                    case .dummy:
                        if abs(rate) > pivotTolerance { step = 0 }
                    case .slack, .error:
                        if rate < -pivotTolerance { step = min(step, max(scratch.symbols[term.symbol].value, 0) / -rate) }
                    case .external, .retired:
                        break
                    }
                }
                return step > feasibility
            }
            guard movable else { continue }
            if kind == .external { marked.insert(symbol) }
            for term in column where scratch.symbols[term.symbol].kind == .external && abs(term.coefficient) > pivotTolerance {
                marked.insert(term.symbol)
            }
        }
        return marked.map { Variable(scratch.symbols[$0].owner) }.sorted()
    }

    /// Whether the solver has ever seen `variable` in a constraint it holds or held.
    public func knows(_ variable: Variable) -> Bool { symbol(of: variable) != nil }
}
