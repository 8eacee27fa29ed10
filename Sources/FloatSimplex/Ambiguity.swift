import BackendContract
import LayoutModel

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
    /// backend decides; this one estimates. ``ambiguityEstimate()`` also names the variables
    /// this test leaves undecided, which ``movesOnOptimalSet(_:probeLevel:)`` can settle.
    public func ambiguousVariables() -> [Variable] { ambiguityEstimate().ambiguous }

    /// The one-column estimate of ``ambiguousVariables()``, and the variables it leaves
    /// undecided: those reached (and not marked) by a flat column that a degenerate row
    /// blocks at step zero. At a degenerate vertex (the apex of a cone `x, y ≥ 0, x ≤ 2y,
    /// y ≤ 2x`) every single column is blocked, yet a combination of them moves.
    public func ambiguityEstimate() -> (ambiguous: [Variable], undecided: [Variable]) {
        var scratch = tableau
        var marked = Set<Int>()
        var blocked = Set<Int>()
        let pivotTolerance = scratch.tolerance.pivot
        for symbol in 0..<scratch.symbolCount where !scratch.symbols[symbol].isBasic {
            let kind = scratch.symbols[symbol].kind
            let directions: [Double]
            switch kind {
            case .external: directions = [1, -1]
            case .slack, .error: directions = [1]
            case .dummy, .retired: continue
            }
            #if LAYOUTBENCH_FAULTS
            let misread = kind == .slack && PlantedFault.isActive(.floatUpperBoundAmbiguity)
                && records.indices.contains(scratch.symbols[symbol].owner)
                && records[scratch.symbols[symbol].owner]?.constraint.relation == .lessThanOrEqual
                && records[scratch.symbols[symbol].owner]?.constraint.strength.isRequired == true
            #else
            let misread = false
            #endif
            guard misread || scratch.reducedCosts[symbol].isZero else { continue }
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
                        // A value within its row's rounding of 0 is at its bound.
                        if rate < -pivotTolerance {
                            let value = scratch.symbols[term.symbol].value
                            let room = value > 0 && scratch.isBeyondRounding(value, of: term.symbol) ? value : 0
                            step = min(step, room / -rate)
                        }
                    case .external, .retired:
                        break
                    }
                }
                return step > 0
            }
            var reached: [Int] = kind == .external ? [symbol] : []
            for term in column where scratch.symbols[term.symbol].kind == .external && abs(term.coefficient) > pivotTolerance {
                reached.append(term.symbol)
            }
            if movable { marked.formUnion(reached) } else { blocked.formUnion(reached) }
        }
        let owner = { (symbol: Int) in Variable(scratch.symbols[symbol].owner) }
        return (marked.map(owner).sorted(), blocked.subtracting(marked).map(owner).sorted())
    }

    /// The variables that move, `variable` among them, when a probe at `probeLevel` (weaker
    /// than every level in use) pulls `variable` up, then down, by the larger of 1, its value
    /// and the system's value scale; empty when it moves neither way by more than the
    /// feasibility tolerance and a millionth of the pull.
    ///
    /// A constraint weaker than all others cannot buy a better value at any stronger level,
    /// so the probe moves only along the lexicographically optimal set: a move shows the
    /// variable is not determined. A move within the tolerances is not one: where values
    /// reach 1e9, an equality whose sides differ by 1 already holds to the solver, and
    /// sliding along such slack is no freedom of the layout. Each probe works on a copy; the
    /// solver is unchanged.
    public func movesOnOptimalSet(_ variable: Variable, probeLevel: Int) -> [Variable] {
        guard symbol(of: variable) != nil else { return [variable] }
        let current = value(of: variable)
        let step = max(1, abs(current), tableau.tolerance.valueScale)
        let threshold = max(tableau.tolerance.feasibility, 1e-6 * step)
        for (relation, target) in [(Relation.greaterThanOrEqual, current + step), (.lessThanOrEqual, current - step)] {
            var probe = self
            guard (try? probe.addConstraint(LinearConstraint(
                [.init(variable, 1)], constant: -target, relation: relation, strength: Strength(level: probeLevel)))) != nil
            else { continue }
            guard abs(probe.value(of: variable) - current) > threshold else { continue }
            var moved: [Variable] = []
            for symbol in 0..<tableau.symbolCount where tableau.symbols[symbol].kind == .external {
                let other = Variable(tableau.symbols[symbol].owner)
                if abs(probe.value(of: other) - value(of: other)) > threshold { moved.append(other) }
            }
            return moved.isEmpty ? [variable] : moved
        }
        return []
    }

    /// Whether the solver has ever seen `variable` in a constraint it holds or held.
    public func knows(_ variable: Variable) -> Bool { symbol(of: variable) != nil }
}
