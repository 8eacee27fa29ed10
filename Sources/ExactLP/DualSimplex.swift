import ExactSimplex

/// The dual simplex phase of the `Double` warm start, run before the primal one: Netlib
/// programs are mostly dual feasible from the slack basis once each nonbasic variable sits on
/// the bound its cost favours, and from there the dual simplex needs far fewer pivots than the
/// primal (measured in docs/netlib.md). Variables whose cost pulls towards an infinite bound
/// get a temporary artificial bound (the "big box" dual phase 1); the dual simplex then keeps
/// every reduced cost on its side while it removes the primal infeasibilities, leaving
/// rows by dual Devex pricing and entering by Harris's two-pass ratio test. The artificial
/// bounds are dropped afterwards; whatever is left (a variable still at an artificial bound,
/// drift) is the primal run's to finish, and only the exact check decides.
extension RevisedSimplex where Scalar == Double {
    /// The artificial bound's distance from the variable's other bound (or from zero).
    static var artificialBound: Double { 1e6 }
    /// Pivots smaller than this in the pivot row are not taken.
    static var dualPivotTolerance: Double { 1e-7 }

    /// Runs the dual simplex from the current basis until no basic variable violates its
    /// bounds, the dual is unbounded (the program, with its artificial bounds, is infeasible)
    /// or the pivot cap or time limit ends it; then restores the program's bounds. Returns the
    /// number of variables that were left at an artificial bound.
    @discardableResult
    mutating func runDual() -> Int {
        defer {
            // The primal run after it gets a pivot budget of its own.
            pivotCap = pivots + flips + 20 * (n + m) + 1000
        }
        let programLower = lower, programUpper = upper
        var artificial: [Int] = []
        var reduced = pricedReducedCosts()
        // Each nonbasic variable on the side its reduced cost favours; an infinite side gets
        // an artificial bound.
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            let d = reduced[k]
            if d.isNegligible { continue }
            if d > 0 {
                if lower[k] == nil {
                    lower[k] = Swift.min(upper[k] ?? 0, 0) - Self.artificialBound
                    artificial.append(k)
                }
                value[k] = lower[k]!
            } else {
                if upper[k] == nil {
                    upper[k] = Swift.max(lower[k] ?? 0, 0) + Self.artificialBound
                    artificial.append(k)
                }
                value[k] = upper[k]!
            }
        }
        recomputeBasicValues()
        var weights = [Double](repeating: 1, count: m)
        while !timedOut {
            guard let (r, toUpper) = chooseLeavingRow(weights: weights) else { break }
            let row = pivotRow(slot: r)
            let leaving = basis[r]
            let slope = toUpper ? value[leaving] - upper[leaving]! : lower[leaving]! - value[leaving]
            guard let (q, rowPivot, flipped) = dualRatioTest(row: row, reduced: reduced, toUpper: toUpper, slope: slope) else { break }
            let alpha = factors.solve(column(q))
            let pivot = alpha[r]
            if Swift.abs(pivot - rowPivot) > 1e-7 * (1 + Swift.abs(pivot)) || Swift.abs(pivot) < Self.dualPivotTolerance {
                // The row and the column disagree on the pivot: the factors have drifted.
                if factors.updateCount == 0 { break }
                refactorize()
                placeNonbasic(atUpper: atUpperBounds())
                reduced = pricedReducedCosts()
                continue
            }
            if !flipped.isEmpty {
                // The flipped variables move to their other bounds; the basic ones follow.
                var moved = [Double](repeating: 0, count: m)
                for k in flipped {
                    let l = lower[k]!, u = upper[k]!
                    let change = value[k] == u ? l - u : u - l
                    value[k] = value[k] == u ? l : u
                    for entry in column(k) { moved[entry.index] += entry.value * change }
                }
                let shift = factors.solve(moved.enumerated().compactMap { $0.element == 0 ? nil : ($0.offset, $0.element) })
                for (slot, k) in basis.enumerated() where shift[slot] != 0 { value[k] -= shift[slot] }
                flips += flipped.count
            }
            let target = (toUpper ? upper[leaving] : lower[leaving])!
            let primalStep = (value[leaving] - target) / pivot
            for (slot, k) in basis.enumerated() where alpha[slot] != 0 { value[k] -= primalStep * alpha[slot] }
            value[q] += primalStep
            value[leaving] = target
            // A reduced cost within the tolerance on the wrong side takes a zero step rather
            // than pushing the others back.
            var dualStep = reduced[q] / rowPivot
            if (toUpper ? dualStep : -dualStep) < 0 { dualStep = 0 }
            for (j, a) in row { reduced[j] -= dualStep * a }
            reduced[q] = 0
            reduced[leaving] = -dualStep
            let leavingWeight = weights[r]
            var largestWeight = 0.0
            for slot in 0..<m where slot != r && alpha[slot] != 0 {
                let ratio = alpha[slot] / pivot
                weights[slot] = Swift.max(weights[slot], ratio * ratio * leavingWeight)
                largestWeight = Swift.max(largestWeight, weights[slot])
            }
            weights[r] = Swift.max(leavingWeight / (pivot * pivot), 1)
            // Devex weights only grow: beyond 10¹⁰⁰ (or NaN) the reference framework
            // restarts. Without it dfl001's weights ran out of range, no row scored above 0,
            // and the dual phase stopped with 950 rows still infeasible. (Restarting at 10⁶,
            // as the primal does, stalled dfl001's dual instead: 49,000 pivots, still 1,554
            // infeasible.)
            if !(Swift.max(largestWeight, weights[r]) <= 1e100) { weights = [Double](repeating: 1, count: m) }
            exchange(slot: r, entering: q, alpha: alpha)
            if factors.prefersRefactorization {
                refactorize()
                placeNonbasic(atUpper: atUpperBounds())
                reduced = pricedReducedCosts()
            }
        }
        var stranded = 0
        for k in artificial {
            if basisSlot[k] < 0 && (value[k] == lower[k] && programLower[k] == nil || value[k] == upper[k] && programUpper[k] == nil) {
                value[k] = programLower[k] ?? programUpper[k] ?? 0
                stranded += 1
            }
            lower[k] = programLower[k]
            upper[k] = programUpper[k]
        }
        recomputeBasicValues()
        return stranded
    }

    /// `c − Aᵀy` with `yᵀB = c_Bᵀ`, afresh.
    func pricedReducedCosts() -> [Double] {
        reducedCosts(y: factors.solveTransposed(basis.map { cost[$0] }), phaseOne: false)
    }

    /// The basic variable to leave: the largest squared bound violation over its dual Devex
    /// weight, and whether it leaves at its upper bound. Nil when the basis is primal feasible.
    func chooseLeavingRow(weights: [Double]) -> (slot: Int, toUpper: Bool)? {
        var best: (slot: Int, toUpper: Bool)?
        var bestScore = 0.0
        for (slot, k) in basis.enumerated() {
            let v = value[k]
            let violation: Double
            let toUpper: Bool
            if let u = upper[k], v.violates(u, above: true) {
                violation = v - u
                toUpper = true
            } else if let l = lower[k], v.violates(l, above: false) {
                violation = l - v
                toUpper = false
            } else {
                continue
            }
            let score = violation * violation / weights[slot]
            if bestScore < score {
                best = (slot, toUpper)
                bestScore = score
            }
        }
        return best
    }

    /// The bound-flipping ("long-step") dual ratio test with Harris's tolerances. The
    /// breakpoints `d_j / a_j` of the pivot row are passed in order while the leaving
    /// variable's infeasibility `slope` stays positive: a boxed variable passed flips to its
    /// other bound (taking `|a_j|·(u_j − l_j)` off the slope) instead of entering, so one pivot
    /// does the work of many. Among the breakpoints left, Harris's two passes pick the largest
    /// pivot within the tolerance of the nearest. Returns the entering variable, its pivot-row
    /// entry and the variables to flip; nil when no variable limits the step (dual unbounded).
    func dualRatioTest(row: [(index: Int, value: Double)], reduced: [Double], toUpper: Bool, slope: Double)
        -> (entering: Int, pivot: Double, flips: [Int])?
    {
        let tolerance = 1e-9
        let sign: Double = toUpper ? 1 : -1
        var candidates: [(k: Int, entry: Double, ratio: Double, relaxed: Double)] = []
        for (k, entry) in row {
            let a = sign * entry
            if Swift.abs(a) < Self.dualPivotTolerance { continue }
            let l = lower[k], u = upper[k]
            if let l, let u, l == u { continue }
            let d = reduced[k]
            let ratio: Double, relaxed: Double
            if l == nil && u == nil {
                ratio = Swift.abs(d) / Swift.abs(a)
                relaxed = (Swift.abs(d) + tolerance) / Swift.abs(a)
            } else if let u, value[k] == u {
                guard a < 0 else { continue }
                ratio = d / a
                relaxed = (d - tolerance) / a
            } else {
                guard a > 0 else { continue }
                ratio = d / a
                relaxed = (d + tolerance) / a
            }
            candidates.append((k, entry, Swift.max(ratio, 0), relaxed))
        }
        if candidates.isEmpty { return nil }
        // The breakpoints come out of a binary heap ordered by (ratio, k): only those passed
        // are ordered, where sorting the whole pivot row (dense on dfl001) took a sixth of
        // the time.
        func precedes(_ a: Int, _ b: Int) -> Bool {
            (candidates[a].ratio, candidates[a].k) < (candidates[b].ratio, candidates[b].k)
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                if left >= candidates.count { return }
                var child = left
                if left + 1 < candidates.count && precedes(left + 1, left) { child = left + 1 }
                if !precedes(child, parent) { return }
                candidates.swapAt(child, parent)
                parent = child
            }
        }
        for start in stride(from: candidates.count / 2 - 1, through: 0, by: -1) { siftDown(start) }
        var remaining = slope
        var flips: [Int] = []
        while candidates.count > 1 {
            let candidate = candidates[0]
            // Flips at a zero step change the primal point without moving the dual one: they
            // can undo each other forever (grow7 did), so only breakpoints past zero flip.
            guard candidate.ratio > 0, let l = lower[candidate.k], let u = upper[candidate.k] else { break }
            let after = remaining - Swift.abs(candidate.entry) * (u - l)
            if after <= 0 { break }
            remaining = after
            flips.append(candidate.k)
            candidates.swapAt(0, candidates.count - 1)
            candidates.removeLast()
            siftDown(0)
        }
        // Harris's second pass over the breakpoints left: the largest pivot within the
        // relaxed bound of the nearest, ties to the earliest breakpoint.
        var bound = candidates[0].relaxed
        for candidate in candidates where candidate.relaxed < bound { bound = candidate.relaxed }
        var chosen = candidates[0]
        for candidate in candidates where candidate.ratio <= bound {
            let a = Swift.abs(candidate.entry), b = Swift.abs(chosen.entry)
            if b < a || (a == b && (candidate.ratio, candidate.k) < (chosen.ratio, chosen.k)) { chosen = candidate }
        }
        return (chosen.k, chosen.entry, flips)
    }
}
