import ExactArithmetic
import ExactSimplex
import MathematicalProgramming

/// The exact dual simplex that finishes from a floating-point basis. A float run that
/// declares optimal leaves a basis whose reduced costs are right in sign (the dual is
/// feasible) but whose basic values may lie a rounding error outside their bounds: dfl001's
/// left 5 basic variables out of bounds. The primal simplex repairs that with a phase 1
/// that ignores the costs and then has to regain optimality by pricing (thousands of exact
/// pivots there); the dual simplex keeps every reduced cost on its side and only removes
/// the few primal infeasibilities, so from such a basis it needs about as many pivots as
/// there are violations.
///
/// Everything is exact: the reduced costs are computed once from `yᵀB = c_Bᵀ` and then
/// carried from pivot to pivot with the pivot row (`d_j −= d_q·α_rj/α_rq`), which in
/// `Rational` cannot drift; the leaving row is the largest violation (Dantzig's dual rule)
/// and, after a run of degenerate pivots, the smallest variable index (Bland's rule for the
/// dual, which cannot cycle); the entering variable is the nearest breakpoint of the ratio
/// test, ties to the smallest index.
extension RevisedSimplex where Scalar == Rational {
    /// What ``runDualFinish()`` ended with.
    enum DualFinish {
        /// The basis is optimal; the certificate is the exact `(x, y)`.
        case optimal(ExactLPResult)
        /// The basis is primal feasible, but some costs had to be shifted to make the start
        /// dual feasible; the costs are restored and the primal simplex (phase 2 only) must
        /// finish, usually in a few pivots since the shifts are rounding-sized.
        case primalFeasible(shiftedCosts: Int)
        /// The dual is unbounded (the program is infeasible), the time ran out or the basis
        /// needed repair: the primal run, which proves infeasibility with a Farkas
        /// certificate, takes over from where this stopped (costs restored).
        case handedBack
    }

    /// Runs the exact dual simplex from the current basis. Each boxed nonbasic variable is
    /// first put at the bound its reduced cost favours; a reduced cost still on the wrong
    /// side (a variable that cannot move to its other bound) has its cost shifted by minus
    /// itself, SoPlex's and QSopt_ex's cost shifting, so that the start is dual feasible.
    /// Without shifts the end is optimal; with shifts the costs are restored and the primal
    /// simplex finishes from a feasible basis.
    mutating func runDualFinish() -> DualFinish {
        var reduced = reducedCosts(y: factors.solveTransposed(basis.map { cost[$0] }), phaseOne: false)
        let programCost = cost
        defer { cost = programCost }
        var shifted = 0
        var atUpper = atUpperBounds()
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            let d = reduced[k]
            if d.isZero { continue }
            let l = lower[k], u = upper[k]
            if l != nil && u != nil && l! == u! { continue }
            if d.sign > 0 ? l == nil : u == nil {
                cost[k] -= d
                reduced[k] = .zero
                shifted += 1
            } else {
                atUpper[k] = d.sign < 0
            }
        }
        placeNonbasic(atUpper: atUpper)
        var degenerate = 0
        while true {
            if timedOut { return .handedBack }
            let useBlandRule = degenerate >= options.degenerateRunBeforeBland
            guard let (r, toUpper) = mostViolatedRow(smallestIndex: useBlandRule) else {
                if shifted > 0 { return .primalFeasible(shiftedCosts: shifted) }
                let y = factors.solveTransposed(basis.map { cost[$0] })
                return .optimal(result(.optimal, certificate: .optimal(x: Array(value[0..<n]), y: y)))
            }
            let row = pivotRow(slot: r)
            guard let (q, rowPivot) = exactDualRatioTest(row: row, reduced: reduced, toUpper: toUpper) else {
                return .handedBack
            }
            let leaving = basis[r]
            let alpha = factors.solve(column(q))
            let target = (toUpper ? upper[leaving] : lower[leaving])!
            let primalStep = (value[leaving] - target) / alpha[r]
            for (slot, k) in basis.enumerated() where !alpha[slot].isZero { value[k].addProduct(-primalStep, alpha[slot]) }
            value[q] += primalStep
            value[leaving] = target
            let dualStep = reduced[q] / rowPivot
            if dualStep.isZero {
                degenerate += 1
            } else {
                degenerate = 0
                for (j, a) in row { reduced[j].addProduct(-dualStep, a) }
            }
            reduced[q] = .zero
            reduced[leaving] = -dualStep
            exchange(slot: r, entering: q, alpha: alpha)
            dualFinishPivots += 1
            if useBlandRule { blandPivots += 1 }
            if factors.prefersRefactorization {
                let repairsBefore = repairedSlots
                refactorize()
                // A repaired basis moved the values and invalidated the carried reduced
                // costs (never expected in exact arithmetic, where the basis stays regular).
                if repairedSlots != repairsBefore { return .handedBack }
            }
        }
    }

    /// The basic variable to leave and whether it leaves at its upper bound: the largest
    /// violation, or with `smallestIndex` the violated variable of smallest index. Nil when
    /// every basic variable is within its bounds.
    func mostViolatedRow(smallestIndex: Bool) -> (slot: Int, toUpper: Bool)? {
        var best: (slot: Int, toUpper: Bool, variable: Int)?
        var largest = Rational.zero
        for (slot, k) in basis.enumerated() {
            let v = value[k]
            let violation: Rational
            let toUpper: Bool
            if let u = upper[k], u < v {
                violation = v - u
                toUpper = true
            } else if let l = lower[k], v < l {
                violation = l - v
                toUpper = false
            } else {
                continue
            }
            if smallestIndex {
                if best == nil || k < best!.variable { best = (slot, toUpper, k) }
            } else if best == nil || largest < violation {
                best = (slot, toUpper, k)
                largest = violation
            }
        }
        return best.map { ($0.slot, $0.toUpper) }
    }

    /// The textbook dual ratio test in exact arithmetic: among the nonbasic variables whose
    /// move in the pivot row's direction is allowed by their bound, the smallest ratio
    /// `d_j / a_j` (with `a_j` the entry signed towards the leaving bound), ties to the
    /// smallest index. Ratios are first compared as `Double` and only the near-ties exactly,
    /// since each exact division costs a gcd. Nil when no variable limits the step.
    func exactDualRatioTest(row: [(index: Int, value: Rational)], reduced: [Rational], toUpper: Bool)
        -> (entering: Int, pivot: Rational)?
    {
        var candidates: [(k: Int, entry: Rational, approximate: Double)] = []
        var nearest = Double.infinity
        for (k, entry) in row where !entry.isZero {
            let l = lower[k], u = upper[k]
            if let l, let u, l == u { continue }
            let a = toUpper ? entry.sign : -entry.sign
            let d = reduced[k]
            if l == nil && u == nil {
                // A free nonbasic variable has d = 0 and may move either way.
                candidates.append((k, entry, 0))
                nearest = 0
                continue
            }
            if let u, value[k] == u { guard a < 0 else { continue } } else { guard a > 0 else { continue } }
            let ratio = d.isZero ? 0 : Swift.abs(d.doubleValue / entry.doubleValue)
            if ratio.isFinite && (ratio == 0 || ratio.isNormal) {
                candidates.append((k, entry, ratio))
                nearest = Swift.min(nearest, ratio)
            } else {
                // Out of `Double`'s range: always compared exactly.
                candidates.append((k, entry, -.infinity))
            }
        }
        if candidates.isEmpty { return nil }
        // Within a relative 10⁻⁶ of the nearest breakpoint the exact ratios decide.
        let cutoff = nearest * (1 + 1e-6)
        var best: (k: Int, entry: Rational, ratio: Rational)?
        for candidate in candidates where candidate.approximate <= cutoff {
            let d = reduced[candidate.k]
            let ratio = d.isZero ? Rational.zero : (d / candidate.entry).magnitude
            if let current = best, current.ratio < ratio || (current.ratio == ratio && current.k < candidate.k) { continue }
            best = (candidate.k, candidate.entry, ratio)
        }
        return best.map { ($0.k, $0.entry) }
    }
}

