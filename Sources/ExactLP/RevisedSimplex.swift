import ExactArithmetic
import Foundation
import ExactSimplex
import MathematicalProgramming

/// The bounded primal simplex on a factored basis (the revised simplex), in `Double` for
/// the warm start and in `Rational` for the answer — QSopt_ex's way: the basis matrix is
/// factored (``SparseLU``, with product-form updates between refactorizations) and each
/// iteration solves for what it needs — the duals `yᵀB = c_Bᵀ` to price, the entering
/// column `B α = a_q` for the ratio test — instead of carrying a dense tableau `B⁻¹[A −I]`,
/// whose rational entries and size grow with every pivot. A float basis that is right
/// costs the exact run one factorization and no pivot; one a few pivots away, those pivots.
///
/// The variables are `z = (x, s)`: each row `i` gets an activity `s_i = a_i·x` carrying the
/// row's range, so every constraint is `[A −I]·z = 0` over the box of all bounds (infinite
/// allowed); bounds live in the ratio test, never as rows. Phase 1 minimises the sum of
/// infeasibilities of the basic variables, re-weighted each iteration; a feasible basic
/// variable never leaves its box and an infeasible one stops at the bound it violates, so
/// the phase-1 objective is linear along each step. Pricing is Devex in `Double` and
/// Dantzig's in `Rational`, where after a run of degenerate pivots Bland's rule (smallest
/// index entering and leaving) takes over until a step makes progress, which cannot cycle. Entering variables with two
/// finite bounds may flip from one to the other without a pivot.
///
/// The `Double` run solves a slightly perturbed program (every finite bound widened by a
/// deterministic tiny amount, against degenerate stalls) under a pivot cap; only its basis
/// is used, and every answer comes from the `Rational` run with its certificate.
struct RevisedSimplex<Scalar: SimplexScalar> {
    let lp: ExactLinearProgram
    let options: ExactLPSolver.Options
    let m: Int
    let n: Int
    /// The columns of `A` (the activity columns `−e_i` are implicit).
    let columns: [[(index: Int, value: Scalar)]]
    /// The rows of `A` for the pivot row, flat (compressed sparse rows): row `i`'s entries
    /// are `rowColumns[rowStart[i]..<rowStart[i + 1]]` with `rowValues` alongside. One
    /// array per row cost a retain and a release per row visited, a tenth of dfl001's time.
    let rowStart: [Int]
    let rowColumns: [Int]
    let rowValues: [Scalar]
    /// Scratch for ``pivotRow(slot:)``, all zero and false between calls, so each pivot
    /// row costs what its nonzeros cost rather than two fresh arrays of size n.
    var rowSum: [Scalar]
    var rowTouched: [Bool]
    /// Minimisation costs of all n + m variables (activities cost 0); the exact dual finish
    /// shifts some for a while (``runDualFinish()``).
    var cost: [Scalar]
    var lower: [Scalar?]
    var upper: [Scalar?]
    /// The variable in each basis slot.
    var basis: [Int]
    /// The slot of a basic variable, or -1.
    var basisSlot: [Int]
    var value: [Scalar]
    var factors: SparseLU<Scalar>
    var pivots = 0
    var flips = 0
    var phaseOnePivots = 0
    var blandPivots = 0
    /// Pivots of ``runDualFinish()`` (also counted in `pivots`).
    var dualFinishPivots = 0
    var degenerateRun = 0
    /// Basis columns exchanged for activity columns because they were (numerically) dependent.
    var repairedSlots = 0
    /// The `Double` run stops (as `stopped`) beyond this many pivots and flips.
    var pivotCap: Int
    /// Devex reference weights of the `Double` run's pricing (empty: Dantzig's rule).
    var devexWeights: [Double]
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    /// Starts from `startBasis` (one variable per row; the activities when nil; a singular
    /// one is completed with activity columns), nonbasic variables at the bound `atUpper`
    /// names (else at a finite bound, else 0).
    init(lp: ExactLinearProgram, options: ExactLPSolver.Options, startBasis: [Int]? = nil, atUpper: [Bool] = []) {
        self.lp = lp
        self.options = options
        started = clock.now
        let m = lp.rowCount, n = lp.columnCount
        self.m = m
        self.n = n
        let columns = lp.columns.map { $0.map { (index: $0.row, value: Scalar(exactValue: $0.value)) } }
        self.columns = columns
        var rowStart = [Int](repeating: 0, count: m + 1)
        for column in columns { for entry in column { rowStart[entry.index + 1] += 1 } }
        for i in 0..<m { rowStart[i + 1] += rowStart[i] }
        var next = rowStart
        var rowColumns = [Int](repeating: 0, count: rowStart[m])
        var rowValues = [Scalar](repeating: .zero, count: rowStart[m])
        for (j, column) in columns.enumerated() {
            for entry in column {
                rowColumns[next[entry.index]] = j
                rowValues[next[entry.index]] = entry.value
                next[entry.index] += 1
            }
        }
        self.rowStart = rowStart
        self.rowColumns = rowColumns
        self.rowValues = rowValues
        rowSum = [Scalar](repeating: .zero, count: n)
        rowTouched = [Bool](repeating: false, count: n)
        let objective = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        cost = (objective + [Rational](repeating: .zero, count: m)).map(Scalar.init(exactValue:))
        lower = (lp.columnLower + lp.rowLower).map { $0.map(Scalar.init(exactValue:)) }
        upper = (lp.columnUpper + lp.rowUpper).map { $0.map(Scalar.init(exactValue:)) }
        pivotCap = 20 * (n + m) + 1000
        devexWeights = Scalar.self == Double.self ? [Double](repeating: 1, count: n + m) : []
        let valid = startBasis.map { $0.count == m && Set($0).count == m && $0.allSatisfy { (0..<(n + m)).contains($0) } } ?? false
        basis = valid ? startBasis! : Array(n..<(n + m))
        basisSlot = []
        factors = .empty
        value = [Scalar](repeating: .zero, count: n + m)
        refactorize()
        if Scalar.self == Double.self { perturbBounds() }
        placeNonbasic(atUpper: atUpper)
    }

    /// Column `k` of `[A −I]`.
    func column(_ k: Int) -> [(index: Int, value: Scalar)] {
        k < n ? columns[k] : [(k - n, -Scalar.one)]
    }

    /// Factors the basis afresh; dependent columns give way to activity columns of the rows
    /// left over (the activities alone are always regular).
    mutating func refactorize() {
        let repairsBefore = repairedSlots
        defer { if repairedSlots != repairsBefore && !value.isEmpty { placeNonbasic(atUpper: atUpperBounds()) } }
        for _ in 0..<3 {
            switch SparseLU.factorize(columns: basis.map(column)) {
            case .factorized(let f):
                factors = f
                basisSlot = [Int](repeating: -1, count: n + m)
                for (slot, k) in basis.enumerated() { basisSlot[k] = slot }
                return
            case .singular(let slots, let rows):
                let basic = Set(basis)
                for (slot, row) in zip(slots, rows.filter { !basic.contains(n + $0) }) {
                    basis[slot] = n + row
                    repairedSlots += 1
                }
                if Set(basis).count != m { basis = Array(n..<(n + m)) }
            }
        }
        basis = Array(n..<(n + m))
        refactorize()
    }

    /// One pivot's change of basis: `entering` takes `slot` from the variable there, and the
    /// factors take the entering column `alpha` (`B⁻¹a`, by slot).
    mutating func exchange(slot: Int, entering: Int, alpha: [Scalar]) {
        basisSlot[basis[slot]] = -1
        basis[slot] = entering
        basisSlot[entering] = slot
        factors.replace(slot: slot, alpha: alpha)
        pivots += 1
    }

    /// Widens every finite bound of the floating-point run by a tiny amount that differs
    /// from variable to variable (a fixed hash, so runs repeat), the classic cure for the
    /// stalling and cycling degenerate vertices cause in floating point.
    mutating func perturbBounds() {
        for k in 0..<(n + m) {
            let spread = Scalar(exactValue: Rational(exactly: Double((k &* 2_654_435_761) % 1_000 + 1) * 1e-10)!)
            if let l = lower[k] { lower[k] = l - spread * (Scalar.one < l.magnitude ? l.magnitude : .one) }
            if let u = upper[k] { upper[k] = u + spread * (Scalar.one < u.magnitude ? u.magnitude : .one) }
        }
    }

    /// Restores the program's own bounds, keeping each nonbasic variable on its side.
    mutating func removePerturbation() {
        let atUpper = atUpperBounds()
        lower = (lp.columnLower + lp.rowLower).map { $0.map(Scalar.init(exactValue:)) }
        upper = (lp.columnUpper + lp.rowUpper).map { $0.map(Scalar.init(exactValue:)) }
        placeNonbasic(atUpper: atUpper)
    }

    /// For each variable, whether it sits at its (finite) upper bound.
    func atUpperBounds() -> [Bool] {
        (0..<(n + m)).map { k in upper[k].map { value[k] == $0 } ?? false }
    }

    /// Puts each nonbasic variable at its upper bound where `atUpper` says so (when finite),
    /// else at a finite bound, else at zero, and recomputes the basic values.
    mutating func placeNonbasic(atUpper: [Bool]) {
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            let up = k < atUpper.count && atUpper[k]
            value[k] = up ? (upper[k] ?? lower[k] ?? .zero) : (lower[k] ?? upper[k] ?? .zero)
        }
        recomputeBasicValues()
    }

    /// `z_B` from the nonbasic values: `B z_B = −Σ_k a_k z_k`.
    mutating func recomputeBasicValues() {
        var rightHandSide = [Scalar](repeating: .zero, count: m)
        for k in 0..<(n + m) where basisSlot[k] < 0 && !(value[k] == .zero) {
            for entry in column(k) { rightHandSide[entry.index].addProduct(-entry.value, value[k]) }
        }
        let basic = factors.solve(rightHandSide.enumerated().compactMap { $0.element == .zero ? nil : ($0.offset, $0.element) })
        for (slot, k) in basis.enumerated() { value[k] = basic[slot] }
    }

    var timedOut: Bool {
        if Scalar.self == Double.self && pivots + flips > pivotCap { return true }
        guard let limit = options.timeLimit else { return false }
        return clock.now - started > limit
    }

    /// The floating-point run never switches: Bland's rule is slow, and there a stall only
    /// costs the warm start (the pivot cap ends it), never the answer.
    var useBland: Bool { Scalar.self == Rational.self && degenerateRun >= options.degenerateRunBeforeBland }

    /// Whether reduced costs are carried from pivot to pivot (updated with the pivot row,
    /// which Devex needs anyway) rather than priced afresh from `y` each iteration: in
    /// `Double` only, refreshed at every refactorization and before optimality is declared.
    var carriesReducedCosts: Bool { !devexWeights.isEmpty }

    mutating func run() -> ExactLPResult {
        var reduced: [Scalar] = []
        var pricedWeights: [Int] = []
        var fresh = false
        while true {
            if timedOut { return result(.stopped, certificate: nil) }
            // +1 for a basic variable above its upper bound, −1 below its lower bound.
            let weights: [Int] = basis.map { k in
                if let u = upper[k], value[k].violates(u, above: true) { return 1 }
                if let l = lower[k], value[k].violates(l, above: false) { return -1 }
                return 0
            }
            let phaseOne = weights.contains { $0 != 0 }
            var y: [Scalar] = []
            if !carriesReducedCosts || weights != pricedWeights || reduced.isEmpty {
                y = factors.solveTransposed(phaseOne ? weights.map { Scalar($0) } : basis.map { cost[$0] })
                reduced = reducedCosts(y: y, phaseOne: phaseOne)
                pricedWeights = weights
                fresh = true
            }
            guard let (entering, direction) = choose(reduced) else {
                if !fresh {
                    reduced = []
                    continue
                }
                if phaseOne { return result(.infeasible, certificate: .infeasible(y: exact(y))) }
                return result(.optimal, certificate: .optimal(x: exact(Array(value[0..<n])), y: exact(y)))
            }
            let alpha = factors.solve(column(entering))
            guard let leaving = ratioTest(alpha: alpha, entering: entering, direction: direction, phaseOne: phaseOne) else {
                var ray = [Scalar](repeating: .zero, count: n)
                if entering < n { ray[entering] = Scalar(direction) }
                for (slot, k) in basis.enumerated() where k < n && !alpha[slot].isNegligible {
                    ray[k] = direction > 0 ? -alpha[slot] : alpha[slot]
                }
                return result(.unbounded, certificate: .unbounded(x: exact(Array(value[0..<n])), ray: exact(ray)))
            }
            if leaving.step.signum == 0 { degenerateRun += 1 } else { degenerateRun = 0 }
            if !(leaving.step == .zero) {
                let signedStep = direction > 0 ? -leaving.step : leaving.step
                for (slot, k) in basis.enumerated() where !(alpha[slot] == .zero) { value[k].addProduct(signedStep, alpha[slot]) }
                value[entering] += direction > 0 ? leaving.step : -leaving.step
            }
            guard let slot = leaving.slot else {
                // A bound flip: the entering variable lands exactly on its other bound.
                value[entering] = (direction > 0 ? upper[entering] : lower[entering]) ?? value[entering]
                flips += 1
                continue
            }
            let old = basis[slot]
            if carriesReducedCosts {
                let row = pivotRow(slot: slot)
                let pivot = alpha[slot]
                updateDevexWeights(row: row, entering: entering, leaving: old, pivot: pivot)
                let ratio = reduced[entering] / pivot
                for (k, a) in row { reduced[k].addProduct(-ratio, a) }
                reduced[entering] = .zero
                reduced[old] = -ratio
                fresh = false
            }
            value[old] = leaving.target
            exchange(slot: slot, entering: entering, alpha: alpha)
            if phaseOne { phaseOnePivots += 1 }
            if useBland { blandPivots += 1 }
            if factors.prefersRefactorization {
                refactorize()
                // In floating point the fresh factors also clear the drift of the values
                // and of the carried reduced costs.
                if Scalar.self == Double.self {
                    placeNonbasic(atUpper: atUpperBounds())
                    reduced = []
                }
            }
        }
    }

    /// The pivot row `ρᵀ[A −I]` over the nonbasic variables, `ρᵀB = e_slotᵀ`, computed row by
    /// row from the nonzeros of `ρ` (sparse), before the basis changes.
    mutating func pivotRow(slot: Int) -> [(index: Int, value: Scalar)] {
        var unit = [Scalar](repeating: .zero, count: m)
        unit[slot] = .one
        let rho = factors.solveTransposed(unit)
        var support: [Int] = []
        var row: [(index: Int, value: Scalar)] = []
        for i in 0..<m where !(rho[i] == .zero) {
            let r = rho[i]
            for p in rowStart[i]..<rowStart[i + 1] {
                let j = rowColumns[p]
                if !rowTouched[j] {
                    rowTouched[j] = true
                    support.append(j)
                }
                rowSum[j].addProduct(r, rowValues[p])
            }
            if basisSlot[n + i] < 0 { row.append((n + i, -r)) }
        }
        for k in support {
            if basisSlot[k] < 0 && !rowSum[k].isDroppable { row.append((k, rowSum[k])) }
            rowSum[k] = .zero
            rowTouched[k] = false
        }
        return row
    }

    /// Devex (Forrest and Goldfarb): each weight approximates the squared norm of its
    /// column's step direction in a reference framework, kept up to date from the pivot row
    /// before the basis changes; weights that grew past 10⁶ restart the framework. Far fewer
    /// pivots than Dantzig's rule on badly scaled programs.
    mutating func updateDevexWeights(row: [(index: Int, value: Scalar)], entering q: Int, leaving: Int, pivot: Scalar) {
        let pivotValue = pivot.approximation
        let enteringWeight = devexWeights[q]
        var largest = 0.0
        for (k, entry) in row where k != q {
            let ratio = entry.approximation / pivotValue
            devexWeights[k] = Swift.max(devexWeights[k], ratio * ratio * enteringWeight)
            largest = Swift.max(largest, devexWeights[k])
        }
        devexWeights[leaving] = Swift.max(enteringWeight / (pivotValue * pivotValue), 1)
        if largest > 1e6 { devexWeights = [Double](repeating: 1, count: n + m) }
    }

    /// The reduced costs `d_k = c_k − yᵀa_k` of the nonbasic variables (0 for basic ones);
    /// in phase 1 the nonbasic costs are 0.
    func reducedCosts(y: [Scalar], phaseOne: Bool) -> [Scalar] {
        var reduced = [Scalar](repeating: .zero, count: n + m)
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            var d = phaseOne ? Scalar.zero : cost[k]
            if k < n {
                for entry in columns[k] {
                    let yi = y[entry.index]
                    if !(yi == .zero) { d.addProduct(-yi, entry.value) }
                }
            } else {
                d += y[k - n]
            }
            reduced[k] = d
        }
        return reduced
    }

    /// The entering variable and its direction (+1 up, −1 down) by Dantzig's rule, Devex in
    /// the `Double` run (Bland's smallest index after a degenerate run in `Rational`), or nil
    /// when no reduced cost improves.
    func choose(_ reduced: [Scalar]) -> (Int, Int)? {
        var best: (Int, Int)?
        var bestMagnitude = Scalar.zero
        var bestScore = 0.0
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            let d = reduced[k]
            if d.isNegligible { continue }
            let direction: Int
            if d.signum < 0 {
                if let u = upper[k], !(value[k] < u) { continue }
                direction = 1
            } else {
                if let l = lower[k], !(l < value[k]) { continue }
                direction = -1
            }
            if useBland { return (k, direction) }
            if !devexWeights.isEmpty {
                let a = d.approximation
                let score = a * a / devexWeights[k]
                if best == nil || bestScore < score {
                    best = (k, direction)
                    bestScore = score
                }
                continue
            }
            let magnitude = d.magnitude
            if best == nil || bestMagnitude < magnitude {
                best = (k, direction)
                bestMagnitude = magnitude
            }
        }
        return best
    }

    /// How far the entering variable may move: the step, and the slot whose variable leaves
    /// at `target` (nil for a bound flip). Nil when nothing limits the step (unbounded). In
    /// phase 1 an infeasible basic variable stops at the bound it violates; a feasible one
    /// never leaves its box. Ties go to the smallest variable index (Bland).
    func ratioTest(alpha: [Scalar], entering q: Int, direction: Int, phaseOne: Bool) -> (step: Scalar, slot: Int?, target: Scalar)? {
        var limit: Scalar?
        var leavingSlot: Int?
        var target = Scalar.zero
        if let l = lower[q], let u = upper[q] { limit = u - l }
        for (slot, t) in alpha.enumerated() where !t.isNegligible {
            let rate = direction > 0 ? -t : t
            let k = basis[slot]
            let v = value[k]
            var bound: Scalar?
            if rate.signum > 0 {
                if phaseOne, let l = lower[k], v.violates(l, above: false) {
                    bound = l
                } else if let u = upper[k], !v.violates(u, above: true) {
                    bound = u
                }
            } else {
                if phaseOne, let u = upper[k], v.violates(u, above: true) {
                    bound = u
                } else if let l = lower[k], !v.violates(l, above: false) {
                    bound = l
                }
            }
            guard let bound else { continue }
            let ratio = ((bound - v) / rate).asStepLength
            let better: Bool
            if let current = limit {
                better = ratio < current || (ratio == current && leavingSlot.map { k < basis[$0] } ?? false)
            } else {
                better = true
            }
            if better {
                limit = ratio
                leavingSlot = slot
                target = bound
            }
        }
        guard let limit else { return nil }
        return (limit, leavingSlot, target)
    }

    /// The values as rationals; only a rational run has a certificate (the float run's
    /// answer is never reported, only its basis).
    func exact(_ values: [Scalar]) -> [Rational] {
        values.map { $0 as? Rational ?? .zero }
    }

    func result(_ status: ExactLPResult.Status, certificate: @autoclosure () -> LPCertificate?) -> ExactLPResult {
        let isExact = Scalar.self == Rational.self
        let objective = status == .optimal && isExact ? lp.objectiveValue(exact(Array(value[0..<n]))) : nil
        return ExactLPResult(
            status: status, objective: objective, certificate: isExact ? certificate() : nil, pivots: pivots, boundFlips: flips,
            phaseOnePivots: phaseOnePivots, blandPivots: blandPivots)
    }
}
