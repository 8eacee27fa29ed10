import ExactArithmetic
import ExactSimplex
import Foundation
import MathematicalProgramming

/// The exact simplex on a factored basis (the revised simplex), QSopt_ex's way of finishing
/// from a floating-point basis: the basis matrix is factored exactly (ExactSimplex's sparse
/// LU, with product-form updates between refactorizations), and each iteration solves for
/// what it needs — the duals `yᵀB = c_Bᵀ` to price, the entering column `B α = a_q` for the
/// ratio test — instead of carrying a dense rational tableau `B⁻¹[A −I]`, whose entries
/// and size grow with every pivot. A basis a float run got right costs one factorization
/// and no pivot; one a few pivots away costs those pivots only.
///
/// The rules are ``BoundedSimplex``'s: the variables are `z = (x, s)` with `[A −I]·z = 0`,
/// bounds live in the ratio test, phase 1 minimises the sum of infeasibilities of the basic
/// variables (re-weighted each iteration), pricing is Dantzig's, and Bland's rule takes over
/// after a run of degenerate pivots until a step makes progress. Every value is exact; the
/// answer is read off the final basis and carries its certificate.
struct RevisedExactSimplex {
    let lp: ExactLinearProgram
    let options: ExactLPSolver.Options
    let m: Int
    let n: Int
    /// The columns of `A` as sparse entries (the activity columns `−e_i` are implicit).
    let columns: [[SparseEntry]]
    /// Minimisation costs of all n + m variables (activities cost 0).
    let cost: [Rational]
    let lower: [Rational?]
    let upper: [Rational?]
    /// The variable in each basis slot.
    var basis: [Int]
    /// The slot of a basic variable, or -1.
    var basisSlot: [Int]
    var value: [Rational]
    var factors: BasisFactorization
    var pivots = 0
    var flips = 0
    var phaseOnePivots = 0
    var blandPivots = 0
    var degenerateRun = 0
    /// Basis columns exchanged for activity columns because the start basis was singular.
    var repairedSlots = 0
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    /// Starts from `startBasis` (one variable per row; a singular or malformed one is
    /// completed with activity columns), nonbasic variables at the bound `atUpper` names.
    init(lp: ExactLinearProgram, options: ExactLPSolver.Options, startBasis: [Int], atUpper: [Bool]) {
        self.lp = lp
        self.options = options
        started = clock.now
        let m = lp.rowCount, n = lp.columnCount
        self.m = m
        self.n = n
        let columns = lp.columns.map { $0.map { SparseEntry($0.row, $0.value) } }
        self.columns = columns
        let objective = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        cost = objective + [Rational](repeating: .zero, count: m)
        lower = lp.columnLower + lp.rowLower
        upper = lp.columnUpper + lp.rowUpper
        let slack = Array(n..<(n + m))
        var start = startBasis.count == m && Set(startBasis).count == m && startBasis.allSatisfy({ (0..<(n + m)).contains($0) })
            ? startBasis : slack
        var factored: BasisFactorization?
        var repaired = 0
        for _ in 0..<3 {
            switch BasisFactorization.factorize(columns: start.map { Self.column($0, columns, n) }) {
            case .factorized(let f):
                factored = f
            case .singular(let slots, let rows):
                // Give each dependent slot the activity column of an unpivoted row.
                let basic = Set(start)
                for (slot, row) in zip(slots, rows.filter { !basic.contains(n + $0) }) {
                    start[slot] = n + row
                    repaired += 1
                }
                if Set(start).count != m { start = slack }
            }
            if factored != nil { break }
        }
        if factored == nil {
            start = slack
            guard case .factorized(let f) = BasisFactorization.factorize(columns: slack.map { Self.column($0, columns, n) })
            else { preconditionFailure("−I is regular") }
            factored = f
        }
        factors = factored!
        repairedSlots = repaired
        basis = start
        basisSlot = [Int](repeating: -1, count: n + m)
        for (slot, k) in start.enumerated() { basisSlot[k] = slot }
        value = [Rational](repeating: .zero, count: n + m)
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            let up = k < atUpper.count && atUpper[k]
            value[k] = up ? (upper[k] ?? lower[k] ?? .zero) : (lower[k] ?? upper[k] ?? .zero)
        }
        recomputeBasicValues()
    }

    /// Column `k` of `[A −I]`.
    static func column(_ k: Int, _ columns: [[SparseEntry]], _ n: Int) -> [SparseEntry] {
        k < n ? columns[k] : [SparseEntry(k - n, -1)]
    }

    /// `z_B` from the nonbasic values: `B z_B = −Σ_k a_k z_k`.
    mutating func recomputeBasicValues() {
        var rightHandSide = [Rational](repeating: .zero, count: m)
        for k in 0..<(n + m) where basisSlot[k] < 0 && !value[k].isZero {
            for entry in Self.column(k, columns, n) { rightHandSide[entry.index].addProduct(-entry.value, value[k]) }
        }
        let basic = factors.solve(rightHandSide.enumerated().compactMap { $0.element.isZero ? nil : SparseEntry($0.offset, $0.element) })
        for (slot, k) in basis.enumerated() { value[k] = basic[slot] }
    }

    var timedOut: Bool {
        guard let limit = options.timeLimit else { return false }
        return clock.now - started > limit
    }

    var useBland: Bool { degenerateRun >= options.degenerateRunBeforeBland }

    mutating func run() -> ExactLPResult {
        while true {
            if timedOut { return result(.stopped, certificate: nil) }
            // +1 for a basic variable above its upper bound, −1 below its lower bound.
            let weights: [Int] = basis.map { k in
                if let u = upper[k], u < value[k] { return 1 }
                if let l = lower[k], value[k] < l { return -1 }
                return 0
            }
            let phaseOne = weights.contains { $0 != 0 }
            let y = factors.solveTransposed(phaseOne ? weights.map { Rational($0) } : basis.map { cost[$0] })
            guard let (entering, direction) = price(y: y, phaseOne: phaseOne) else {
                if phaseOne { return result(.infeasible, certificate: .infeasible(y: y)) }
                return result(.optimal, certificate: .optimal(x: Array(value[0..<n]), y: y))
            }
            let alpha = factors.solve(Self.column(entering, columns, n))
            guard let leaving = ratioTest(alpha: alpha, entering: entering, direction: direction, phaseOne: phaseOne) else {
                var ray = [Rational](repeating: .zero, count: n)
                if entering < n { ray[entering] = Rational(direction) }
                for (slot, k) in basis.enumerated() where k < n && !alpha[slot].isZero {
                    ray[k] = direction > 0 ? -alpha[slot] : alpha[slot]
                }
                return result(.unbounded, certificate: .unbounded(x: Array(value[0..<n]), ray: ray))
            }
            if leaving.step.isZero { degenerateRun += 1 } else { degenerateRun = 0 }
            if !leaving.step.isZero {
                let signedStep = direction > 0 ? -leaving.step : leaving.step
                for (slot, k) in basis.enumerated() where !alpha[slot].isZero { value[k].addProduct(signedStep, alpha[slot]) }
                value[entering] += direction > 0 ? leaving.step : -leaving.step
            }
            guard let slot = leaving.slot else {
                flips += 1
                continue
            }
            let old = basis[slot]
            value[old] = leaving.target
            basisSlot[old] = -1
            basis[slot] = entering
            basisSlot[entering] = slot
            factors.replace(slot: slot, alpha: alpha)
            pivots += 1
            if phaseOne { phaseOnePivots += 1 }
            if useBland { blandPivots += 1 }
            if factors.prefersRefactorization {
                guard case .factorized(let f) = BasisFactorization.factorize(columns: basis.map { Self.column($0, columns, n) })
                else { return result(.stopped, certificate: nil) }  // unreachable: a pivot on α ≠ 0 keeps B regular
                factors = f
            }
        }
    }

    /// The entering variable and its direction (+1 up, −1 down) by Dantzig's rule (Bland's
    /// smallest index after a degenerate run), or nil when no reduced cost improves.
    func price(y: [Rational], phaseOne: Bool) -> (Int, Int)? {
        var best: (Int, Int)?
        var bestMagnitude = Rational.zero
        for k in 0..<(n + m) where basisSlot[k] < 0 {
            var d = phaseOne ? Rational.zero : cost[k]
            if k < n {
                for entry in columns[k] where !y[entry.index].isZero { d.addProduct(-y[entry.index], entry.value) }
            } else {
                d += y[k - n]
            }
            if d.isZero { continue }
            let direction: Int
            if d.sign < 0 {
                if let u = upper[k], !(value[k] < u) { continue }
                direction = 1
            } else {
                if let l = lower[k], !(l < value[k]) { continue }
                direction = -1
            }
            if useBland { return (k, direction) }
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
    func ratioTest(alpha: [Rational], entering q: Int, direction: Int, phaseOne: Bool)
        -> (step: Rational, slot: Int?, target: Rational)?
    {
        var limit: Rational?
        var leavingSlot: Int?
        var target = Rational.zero
        if let l = lower[q], let u = upper[q] { limit = u - l }
        for (slot, t) in alpha.enumerated() where !t.isZero {
            let rate = direction > 0 ? -t : t
            let k = basis[slot]
            let v = value[k]
            var bound: Rational?
            if rate.sign > 0 {
                if phaseOne, let l = lower[k], v < l {
                    bound = l
                } else if let u = upper[k], !(u < v) {
                    bound = u
                }
            } else {
                if phaseOne, let u = upper[k], u < v {
                    bound = u
                } else if let l = lower[k], !(v < l) {
                    bound = l
                }
            }
            guard let bound else { continue }
            let ratio = (bound - v) / rate
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

    func result(_ status: ExactLPResult.Status, certificate: LPCertificate?) -> ExactLPResult {
        let x = Array(value[0..<n])
        return ExactLPResult(
            status: status, objective: status == .optimal ? lp.objectiveValue(x) : nil, certificate: certificate, pivots: pivots,
            boundFlips: flips, phaseOnePivots: phaseOnePivots, blandPivots: blandPivots)
    }
}
