import ExactArithmetic
import Foundation
import MathematicalProgramming

/// What ``BoundedSimplex`` found.
public struct ExactLPResult: Sendable {
    /// The outcome.
    public enum Status: String, Sendable, Equatable {
        case optimal, infeasible, unbounded
        /// The time limit ran out first.
        case stopped
    }

    public var status: Status
    /// The optimal objective in the program's own sense, constant included (optimal only).
    public var objective: Rational?
    /// The proof of `status` (nil when stopped), for ``LPCertificateVerifier``.
    public var certificate: LPCertificate?
    /// Basis changes.
    public var pivots: Int
    /// Steps where the entering variable went from one bound to the other (no basis change).
    public var boundFlips: Int
    /// Basis changes spent finding a feasible point.
    public var phaseOnePivots: Int
    /// Basis changes made under Bland's rule after a run of degenerate pivots.
    public var blandPivots: Int
}

/// A bounded primal simplex on a dense exact tableau: the general exact LP solver.
///
/// Each row `i` gets an activity variable `s_i = a_i·x` carrying the row's range as bounds,
/// so every constraint is `[A −I]·z = 0` with `z = (x, s)` boxed (infinite bounds allowed);
/// bounds are kept in the ratio test, never as rows. The start basis is the activities.
/// Phase 1 minimises the sum of infeasibilities of the basic variables, re-weighting the
/// cost each iteration; a step never lets a feasible basic variable leave its box and stops
/// an infeasible one as it reaches the bound it violates, so the phase-1 objective is linear
/// along every step. Pricing is Dantzig's largest reduced cost; after a run of degenerate
/// pivots the rule switches to Bland's smallest index (entering and leaving), which cannot
/// cycle, until a step makes progress again.
///
/// The tableau `B⁻¹[A −I]` is dense but updated sparsely (only rows with a nonzero in the
/// pivot column, only columns with a nonzero in the pivot row). The duals are read from the
/// activity columns of the tableau, `y = −c_Bᵀ·T[:, n+i]`.
public struct BoundedSimplex {
    /// Limits.
    public struct Options: Sendable {
        /// Give up (status `stopped`) after this long.
        public var timeLimit: Duration?
        /// Consecutive degenerate pivots before Bland's rule takes over.
        public var degenerateRunBeforeBland: Int
        public init(timeLimit: Duration? = nil, degenerateRunBeforeBland: Int = 50) {
            self.timeLimit = timeLimit
            self.degenerateRunBeforeBland = degenerateRunBeforeBland
        }
    }

    let lp: ExactLinearProgram
    let options: Options
    let m: Int
    let n: Int
    /// Minimisation costs of all n + m variables (activities cost 0).
    var cost: [Rational]
    var lower: [Rational?]
    var upper: [Rational?]
    /// The tableau `B⁻¹[A −I]`, one array per basis row.
    var tableau: [[Rational]]
    /// The variable basic in each row.
    var basis: [Int]
    /// The row a basic variable sits in, or -1.
    var basisRow: [Int]
    /// Every variable's current value.
    var value: [Rational]
    var pivots = 0
    var flips = 0
    var phaseOnePivots = 0
    var blandPivots = 0
    var degenerateRun = 0
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    /// Solves `lp` exactly.
    public static func solve(_ lp: ExactLinearProgram, options: Options = Options()) -> ExactLPResult {
        var simplex = BoundedSimplex(lp: lp, options: options)
        return simplex.run()
    }

    init(lp: ExactLinearProgram, options: Options) {
        self.lp = lp
        self.options = options
        started = clock.now
        m = lp.rowCount
        n = lp.columnCount
        let objective = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        cost = objective + [Rational](repeating: .zero, count: m)
        lower = lp.columnLower + lp.rowLower
        upper = lp.columnUpper + lp.rowUpper
        let width = n + m
        tableau = []
        tableau.reserveCapacity(m)
        for i in 0..<m {
            var row = [Rational](repeating: .zero, count: width)
            row[n + i] = .one
            tableau.append(row)
        }
        for j in 0..<n {
            for entry in lp.columns[j] { tableau[entry.row][j] = -entry.value }
        }
        basis = Array(n..<width)
        basisRow = [Int](repeating: -1, count: n) + Array(0..<m)
        value = [Rational](repeating: .zero, count: width)
        for j in 0..<n { value[j] = lp.columnLower[j] ?? lp.columnUpper[j] ?? .zero }
        let activity = lp.rowActivities(Array(value[0..<n]))
        for i in 0..<m { value[n + i] = activity[i] }
    }

    var timedOut: Bool {
        guard let limit = options.timeLimit else { return false }
        return clock.now - started > limit
    }

    mutating func run() -> ExactLPResult {
        // Phase 1.
        while true {
            if timedOut { return result(.stopped, certificate: nil) }
            let weights = infeasibilityWeights()
            if weights.allSatisfy({ $0 == 0 }) { break }
            let reduced = phaseOneReducedCosts(weights)
            guard let (entering, direction) = choosePricing(reduced) else {
                // No improving direction with infeasibility left: the phase-1 duals are a Farkas proof.
                var y = [Rational](repeating: .zero, count: m)
                for i in 0..<m {
                    var sum = Rational.zero
                    for r in 0..<m where weights[r] != 0 && !tableau[r][n + i].isZero {
                        sum.addProduct(Rational(-weights[r]), tableau[r][n + i])
                    }
                    y[i] = sum
                }
                return result(.infeasible, certificate: .infeasible(y: y))
            }
            let pivoted = step(entering: entering, direction: direction, phaseOne: true)
            precondition(pivoted != nil, "phase 1 cannot be unbounded")
            if pivoted == true { phaseOnePivots += 1 }
        }
        // Phase 2 with a maintained reduced-cost row.
        var reduced = cost
        for r in 0..<m where !cost[basis[r]].isZero {
            let c = cost[basis[r]]
            for k in 0..<(n + m) where !tableau[r][k].isZero { reduced[k].addProduct(-c, tableau[r][k]) }
        }
        while true {
            if timedOut { return result(.stopped, certificate: nil) }
            guard let (entering, direction) = choosePricing(reduced) else {
                let x = Array(value[0..<n])
                let y = Array(reduced[n..<(n + m)])
                return result(.optimal, certificate: .optimal(x: x, y: y))
            }
            let pivotRow: Int?
            switch step(entering: entering, direction: direction, phaseOne: false) {
            case nil:
                var ray = [Rational](repeating: .zero, count: n)
                if entering < n { ray[entering] = Rational(direction) }
                for r in 0..<m where basis[r] < n && !tableau[r][entering].isZero {
                    ray[basis[r]] = direction > 0 ? -tableau[r][entering] : tableau[r][entering]
                }
                return result(.unbounded, certificate: .unbounded(x: Array(value[0..<n]), ray: ray))
            case false?: pivotRow = nil
            case true?: pivotRow = basisRow[entering]
            }
            if let r = pivotRow {
                // The pivot row is already scaled to 1 in the entering column.
                let factor = reduced[entering]
                if !factor.isZero {
                    for k in 0..<(n + m) where !tableau[r][k].isZero { reduced[k].addProduct(-factor, tableau[r][k]) }
                }
            }
        }
    }

    func result(_ status: ExactLPResult.Status, certificate: LPCertificate?) -> ExactLPResult {
        var objective: Rational?
        if status == .optimal { objective = lp.objectiveValue(Array(value[0..<n])) }
        return ExactLPResult(
            status: status, objective: objective, certificate: certificate, pivots: pivots, boundFlips: flips,
            phaseOnePivots: phaseOnePivots, blandPivots: blandPivots)
    }

    /// +1 for a basic variable above its upper bound, −1 below its lower bound, else 0.
    func infeasibilityWeights() -> [Int] {
        basis.map { k in
            if let u = upper[k], value[k] > u { return 1 }
            if let l = lower[k], value[k] < l { return -1 }
            return 0
        }
    }

    func phaseOneReducedCosts(_ weights: [Int]) -> [Rational] {
        var reduced = [Rational](repeating: .zero, count: n + m)
        for r in 0..<m where weights[r] != 0 {
            let w = Rational(-weights[r])
            for k in 0..<(n + m) where !tableau[r][k].isZero { reduced[k].addProduct(w, tableau[r][k]) }
        }
        for r in 0..<m { reduced[basis[r]] = .zero }
        return reduced
    }

    var useBland: Bool { degenerateRun >= options.degenerateRunBeforeBland }

    /// The entering variable and its direction (+1 up, −1 down), or nil at optimality.
    func choosePricing(_ reduced: [Rational]) -> (Int, Int)? {
        var best: (Int, Int)?
        var bestMagnitude = Rational.zero
        for k in 0..<(n + m) where basisRow[k] < 0 {
            let d = reduced[k]
            if d.isZero { continue }
            let direction: Int
            if d.sign < 0 {
                if let u = upper[k], value[k] >= u { continue }
                direction = 1
            } else {
                if let l = lower[k], value[k] <= l { continue }
                direction = -1
            }
            if useBland { return (k, direction) }
            let magnitude = d.magnitude
            if best == nil || magnitude > bestMagnitude {
                best = (k, direction)
                bestMagnitude = magnitude
            }
        }
        return best
    }

    /// Moves `entering` in `direction` as far as the ratio test allows. Returns nil when
    /// nothing limits the step (unbounded), false for a bound flip, true for a pivot.
    mutating func step(entering q: Int, direction: Int, phaseOne: Bool) -> Bool? {
        // Rates of change of the basic variables per unit step: −T[r][q]·direction.
        var limit: Rational?
        var leavingRow = -1
        var leavingValue = Rational.zero
        if let l = lower[q], let u = upper[q] { limit = u - l }
        for r in 0..<m {
            let t = tableau[r][q]
            if t.isZero { continue }
            let rate = direction > 0 ? -t : t
            let k = basis[r]
            let v = value[k]
            var target: Rational?
            if rate.sign > 0 {
                if let l = lower[k], phaseOne, v < l { target = l } else if let u = upper[k], v <= u { target = u }
            } else {
                if let u = upper[k], phaseOne, v > u { target = u } else if let l = lower[k], v >= l { target = l }
            }
            guard let target else { continue }
            let ratio = (target - v) / rate
            let better: Bool
            if let current = limit {
                better = ratio < current || (ratio == current && leavingRow >= 0 && k < basis[leavingRow])
            } else {
                better = true
            }
            if better {
                limit = ratio
                leavingRow = r
                leavingValue = target
            }
        }
        guard let stepLength = limit else { return nil }
        if stepLength.isZero { degenerateRun += 1 } else { degenerateRun = 0 }
        // Move every basic variable, then the entering one.
        if !stepLength.isZero {
            let signedStep = direction > 0 ? -stepLength : stepLength
            for r in 0..<m where !tableau[r][q].isZero { value[basis[r]].addProduct(signedStep, tableau[r][q]) }
            value[q] += direction > 0 ? stepLength : -stepLength
        }
        if leavingRow < 0 {
            flips += 1
            return false
        }
        let leaving = basis[leavingRow]
        value[leaving] = leavingValue
        pivot(row: leavingRow, column: q)
        pivots += 1
        if useBland { blandPivots += 1 }
        return true
    }

    /// Makes `column` basic in `row`: scales the row to 1 there and clears the column elsewhere.
    mutating func pivot(row r: Int, column q: Int) {
        let inverse = tableau[r][q].reciprocal
        var support: [Int] = []
        for k in 0..<(n + m) where !tableau[r][k].isZero {
            tableau[r][k] *= inverse
            support.append(k)
        }
        let pivotRow = tableau[r]
        for i in 0..<m where i != r {
            let factor = tableau[i][q]
            if factor.isZero { continue }
            let negated = -factor
            for k in support { tableau[i][k].addProduct(negated, pivotRow[k]) }
        }
        basisRow[basis[r]] = -1
        basis[r] = q
        basisRow[q] = r
    }
}
