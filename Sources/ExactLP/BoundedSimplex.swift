import ExactArithmetic
import Foundation
import ExactSimplex
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
    /// Pivots of the floating-point run whose final basis started the exact one (0 without).
    public var floatPivots: Int = 0
    /// How long the floating-point run took (zero without one).
    public var floatDuration: Duration = .zero
    /// Columns of the floating-point basis replaced by activity columns because they were
    /// dependent in exact arithmetic.
    public var repairedBasisColumns: Int = 0

    /// Every pivot and bound flip, floating-point and exact: the figure comparable with
    /// other solvers' iteration counts.
    public var totalIterations: Int { floatPivots + pivots + boundFlips }
}

extension ExactLPSolver {
    /// The optimum of `lp` read off a basis in exact arithmetic, QSopt_ex's way: factor the
    /// basis matrix exactly (ExactSimplex's sparse LU), put the nonbasic variables at their
    /// bounds, solve `B z_B = −N z_N` and `yᵀB = c_Bᵀ`, and keep the answer only when
    /// ``LPCertificateVerifier`` accepts `(x, y)`. Nil for a singular, infeasible or
    /// non-optimal basis (the caller then pivots exactly).
    static func verifiedBasis(_ lp: ExactLinearProgram, basis: [Int], atUpper: [Bool]) -> ExactLPResult? {
        let n = lp.columnCount, m = lp.rowCount
        func column(_ k: Int) -> [SparseEntry] {
            k < n ? lp.columns[k].map { SparseEntry($0.row, $0.value) } : [SparseEntry(k - n, -1)]
        }
        guard case .factorized(let factors) = BasisFactorization.factorize(columns: basis.map(column)) else { return nil }
        let isBasic = Set(basis)
        let lower = lp.columnLower + lp.rowLower, upper = lp.columnUpper + lp.rowUpper
        var z = [Rational](repeating: .zero, count: n + m)
        var rightHandSide = [Rational](repeating: .zero, count: m)
        for k in 0..<(n + m) where !isBasic.contains(k) {
            z[k] = atUpper[k] ? (upper[k] ?? lower[k] ?? .zero) : (lower[k] ?? upper[k] ?? .zero)
            if z[k].isZero { continue }
            for entry in column(k) { rightHandSide[entry.index].addProduct(-entry.value, z[k]) }
        }
        let basic = factors.solve(rightHandSide.enumerated().compactMap { $0.element.isZero ? nil : SparseEntry($0.offset, $0.element) })
        for (slot, k) in basis.enumerated() { z[k] = basic[slot] }
        let cost = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        let y = factors.solveTransposed(basis.map { $0 < n ? cost[$0] : .zero })
        let x = Array(z[0..<n])
        let certificate = LPCertificate.optimal(x: x, y: y)
        guard LPCertificateVerifier.failure(of: certificate, for: lp) == nil else { return nil }
        return ExactLPResult(
            status: .optimal, objective: lp.objectiveValue(x), certificate: certificate, pivots: 0, boundFlips: 0,
            phaseOnePivots: 0, blandPivots: 0)
    }
}

/// The general exact LP solver: an optional floating-point run of ``BoundedSimplex`` picks a
/// basis (as QSopt_ex and SoPlex do), the rational tableau is pivoted to that basis, and the
/// exact simplex continues from there to an answer it proves itself. A wrong or failed
/// float run costs time only: every exact answer comes from exact pivots and carries a
/// certificate.
public enum ExactLPSolver {
    /// Limits and the warm start.
    public struct Options: Sendable {
        /// Give up (status `stopped`) after this long.
        public var timeLimit: Duration?
        /// Consecutive degenerate pivots before Bland's rule takes over.
        public var degenerateRunBeforeBland: Int
        /// The largest dense tableau (rows × (columns + rows)) attempted; larger programs
        /// stop at once rather than take gigabytes.
        public var maximumTableauEntries: Int
        /// Start the exact simplex from the basis a `Double` run ends with.
        public var floatWarmStart: Bool

        public init(
            timeLimit: Duration? = nil, degenerateRunBeforeBland: Int = 50, maximumTableauEntries: Int = 40_000_000,
            floatWarmStart: Bool = true
        ) {
            self.timeLimit = timeLimit
            self.degenerateRunBeforeBland = degenerateRunBeforeBland
            self.maximumTableauEntries = maximumTableauEntries
            self.floatWarmStart = floatWarmStart
        }
    }

    /// `options` with the time limit shortened by what has passed since `started`.
    static func remaining(_ options: Options, since started: ContinuousClock.Instant) -> Options {
        var rest = options
        if let limit = options.timeLimit { rest.timeLimit = limit - (ContinuousClock.now - started) }
        return rest
    }

    /// Solves `lp` exactly.
    public static func solve(_ lp: ExactLinearProgram, options: Options = Options()) -> ExactLPResult {
        if lp.rowCount * (lp.rowCount + lp.columnCount) > options.maximumTableauEntries {
            return ExactLPResult(status: .stopped, objective: nil, certificate: nil, pivots: 0, boundFlips: 0, phaseOnePivots: 0, blandPivots: 0)
        }
        let started = ContinuousClock.now
        if options.floatWarmStart {
            var float = BoundedSimplex<Double>(lp: lp, options: options)
            let perturbed = float.run()
            var candidate = (basis: float.basis, atUpper: float.atUpperBounds())
            if perturbed.status == .optimal {
                if var proven = verifiedBasis(lp, basis: candidate.basis, atUpper: candidate.atUpper) {
                    proven.floatPivots = float.pivots + float.flips
                    proven.floatDuration = ContinuousClock.now - started
                    return proven
                }
                // Back to the true bounds, and on from the perturbed optimum's basis, for a
                // limited number of pivots (unperturbed degenerate programs may stall).
                float.removePerturbation()
                float.pivotCap = float.pivots + float.flips + lp.rowCount + lp.columnCount
                if float.run().status == .optimal {
                    let finished = (basis: float.basis, atUpper: float.atUpperBounds())
                    if var proven = verifiedBasis(lp, basis: finished.basis, atUpper: finished.atUpper) {
                        proven.floatPivots = float.pivots + float.flips
                        proven.floatDuration = ContinuousClock.now - started
                        return proven
                    }
                    candidate = finished
                }
            }
            let floatDuration = ContinuousClock.now - started
            // The exact revised simplex finishes from the float basis: a factorization
            // instead of a dense rational tableau, and only the pivots still needed.
            var revised = RevisedExactSimplex(lp: lp, options: remaining(options, since: started), startBasis: candidate.basis, atUpper: candidate.atUpper)
            var result = revised.run()
            result.floatPivots = float.pivots + float.flips
            result.floatDuration = floatDuration
            result.repairedBasisColumns = revised.repairedSlots
            return result
        }
        var exact = BoundedSimplex<Rational>(lp: lp, options: options)
        return exact.run()
    }
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
struct BoundedSimplex<Scalar: SimplexScalar> {
    typealias Options = ExactLPSolver.Options

    let lp: ExactLinearProgram
    let options: Options
    let m: Int
    let n: Int
    /// Minimisation costs of all n + m variables (activities cost 0).
    var cost: [Scalar]
    var lower: [Scalar?]
    var upper: [Scalar?]
    /// The tableau `B⁻¹[A −I]`, one array per basis row.
    var tableau: [[Scalar]]
    /// The variable basic in each row.
    var basis: [Int]
    /// The row a basic variable sits in, or -1.
    var basisRow: [Int]
    /// Every variable's current value.
    var value: [Scalar]
    var pivots = 0
    var flips = 0
    var phaseOnePivots = 0
    var blandPivots = 0
    var degenerateRun = 0
    /// The floating-point run stops (as `stopped`) beyond this many pivots and flips.
    var pivotCap: Int
    let clock = ContinuousClock()
    let started: ContinuousClock.Instant

    init(lp: ExactLinearProgram, options: Options) {
        self.lp = lp
        self.options = options
        started = clock.now
        m = lp.rowCount
        n = lp.columnCount
        pivotCap = 20 * (n + m) + 1000
        let objective = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        cost = (objective + [Rational](repeating: .zero, count: m)).map(Scalar.init(exactValue:))
        lower = (lp.columnLower + lp.rowLower).map { $0.map(Scalar.init(exactValue:)) }
        upper = (lp.columnUpper + lp.rowUpper).map { $0.map(Scalar.init(exactValue:)) }
        let width = n + m
        tableau = []
        tableau.reserveCapacity(m)
        for i in 0..<m {
            var row = [Scalar](repeating: .zero, count: width)
            row[n + i] = .one
            tableau.append(row)
        }
        for j in 0..<n {
            for entry in lp.columns[j] { tableau[entry.row][j] = Scalar(exactValue: -entry.value) }
        }
        basis = Array(n..<width)
        basisRow = [Int](repeating: -1, count: n) + Array(0..<m)
        value = [Scalar](repeating: .zero, count: width)
        if Scalar.self == Double.self { perturbBounds() }
        for j in 0..<n { value[j] = lower[j] ?? upper[j] ?? .zero }
        recomputeBasicValues()
    }

    /// Widens every finite bound of the floating-point run by a tiny amount that differs
    /// from variable to variable (a fixed hash, so runs repeat), the classic cure for the
    /// stalling and cycling degenerate vertices cause in floating point. The float run then
    /// solves a neighbouring program; only its basis is used, and the exact run decides.
    mutating func perturbBounds() {
        for k in 0..<(n + m) {
            let spread = Double((k &* 2_654_435_761) % 1_000 + 1) / 1_000
            if let l = lower[k] { lower[k] = l - Scalar(exactValue: Rational(exactly: 1e-7 * spread * max(1, abs(l as! Double)))!) }
            if let u = upper[k] { upper[k] = u + Scalar(exactValue: Rational(exactly: 1e-7 * spread * max(1, abs(u as! Double)))!) }
        }
    }

    /// For each variable, whether it sits at its (finite) upper bound.
    func atUpperBounds() -> [Bool] {
        (0..<(n + m)).map { k in upper[k].map { value[k] == $0 } ?? false }
    }

    /// Restores the program's own bounds, moving each nonbasic variable to the true bound
    /// on the side it was at, and recomputes the basic values.
    mutating func removePerturbation() {
        let atUpper = atUpperBounds()
        lower = (lp.columnLower + lp.rowLower).map { $0.map(Scalar.init(exactValue:)) }
        upper = (lp.columnUpper + lp.rowUpper).map { $0.map(Scalar.init(exactValue:)) }
        placeNonbasic(atUpper: atUpper)
    }

    /// Puts each nonbasic variable at its upper bound where `atUpper` says so (when finite),
    /// else at a finite bound, else at zero, and recomputes the basic values.
    mutating func placeNonbasic(atUpper: [Bool]) {
        for k in 0..<(n + m) where basisRow[k] < 0 {
            value[k] = atUpper[k] ? (upper[k] ?? lower[k] ?? .zero) : (lower[k] ?? upper[k] ?? .zero)
        }
        recomputeBasicValues()
    }

    /// The basic values from the nonbasic ones: `z_B = −Σ_k T[:, k]·z_k`.
    mutating func recomputeBasicValues() {
        for r in 0..<m {
            var sum = Scalar.zero
            for k in 0..<(n + m) where basisRow[k] < 0 && !value[k].isNegligible && !tableau[r][k].isNegligible {
                sum.addProduct(-tableau[r][k], value[k])
            }
            value[basis[r]] = sum
        }
    }

    var timedOut: Bool {
        // A floating-point run that has not settled by now is not worth finishing.
        if Scalar.self == Double.self && pivots + flips > pivotCap { return true }
        guard let limit = options.timeLimit else { return false }
        return clock.now - started > limit
    }

    mutating func run() -> ExactLPResult {
        // Phase 1.
        while true {
            if timedOut { return result(.stopped, certificate: { nil }) }
            let weights = infeasibilityWeights()
            if weights.allSatisfy({ $0 == 0 }) { break }
            let reduced = phaseOneReducedCosts(weights)
            guard let (entering, direction) = choosePricing(reduced) else {
                // No improving direction with infeasibility left: the phase-1 duals are a Farkas proof.
                var y = [Scalar](repeating: .zero, count: m)
                for i in 0..<m {
                    var sum = Scalar.zero
                    for r in 0..<m where weights[r] != 0 && !tableau[r][n + i].isNegligible {
                        sum.addProduct(Scalar(-weights[r]), tableau[r][n + i])
                    }
                    y[i] = sum
                }
                return result(.infeasible, certificate: { .infeasible(y: exact(y)) })
            }
            let pivoted = step(entering: entering, direction: direction, phaseOne: true)
            precondition(pivoted != nil, "phase 1 cannot be unbounded")
            if pivoted == true { phaseOnePivots += 1 }
        }
        // Phase 2 with a maintained reduced-cost row.
        var reduced = cost
        for r in 0..<m where !cost[basis[r]].isNegligible {
            let c = cost[basis[r]]
            for k in 0..<(n + m) where !tableau[r][k].isNegligible { reduced[k].addProduct(-c, tableau[r][k]) }
        }
        while true {
            if timedOut { return result(.stopped, certificate: { nil }) }
            guard let (entering, direction) = choosePricing(reduced) else {
                let x = Array(value[0..<n])
                let y = Array(reduced[n..<(n + m)])
                return result(.optimal, certificate: { .optimal(x: exact(x), y: exact(y)) })
            }
            let pivotRow: Int?
            switch step(entering: entering, direction: direction, phaseOne: false) {
            case nil:
                var ray = [Scalar](repeating: .zero, count: n)
                if entering < n { ray[entering] = Scalar(direction) }
                for r in 0..<m where basis[r] < n && !tableau[r][entering].isNegligible {
                    ray[basis[r]] = direction > 0 ? -tableau[r][entering] : tableau[r][entering]
                }
                return result(.unbounded, certificate: { .unbounded(x: exact(Array(value[0..<n])), ray: exact(ray)) })
            case false?: pivotRow = nil
            case true?: pivotRow = basisRow[entering]
            }
            if let r = pivotRow {
                // The pivot row is already scaled to 1 in the entering column.
                let factor = reduced[entering]
                if !factor.isNegligible {
                    for k in 0..<(n + m) where !tableau[r][k].isNegligible { reduced[k].addProduct(-factor, tableau[r][k]) }
                }
            }
        }
    }

    /// The values as rationals; only a rational run has a certificate (the float run's
    /// answer is never reported, only its basis).
    func exact(_ values: [Scalar]) -> [Rational] {
        values.map { $0 as? Rational ?? .zero }
    }

    func result(_ status: ExactLPResult.Status, certificate: () -> LPCertificate?) -> ExactLPResult {
        let isExact = Scalar.self == Rational.self
        var objective: Rational?
        if status == .optimal && isExact { objective = lp.objectiveValue(exact(Array(value[0..<n]))) }
        return ExactLPResult(
            status: status, objective: objective, certificate: isExact ? certificate() : nil, pivots: pivots, boundFlips: flips,
            phaseOnePivots: phaseOnePivots, blandPivots: blandPivots)
    }

    /// +1 for a basic variable above its upper bound, −1 below its lower bound, else 0.
    func infeasibilityWeights() -> [Int] {
        basis.map { k in
            if let u = upper[k], value[k].violates(u, above: true) { return 1 }
            if let l = lower[k], value[k].violates(l, above: false) { return -1 }
            return 0
        }
    }

    func phaseOneReducedCosts(_ weights: [Int]) -> [Scalar] {
        var reduced = [Scalar](repeating: .zero, count: n + m)
        for r in 0..<m where weights[r] != 0 {
            let w = Scalar(-weights[r])
            for k in 0..<(n + m) where !tableau[r][k].isNegligible { reduced[k].addProduct(w, tableau[r][k]) }
        }
        for r in 0..<m { reduced[basis[r]] = .zero }
        return reduced
    }

    /// The floating-point run never switches: Bland's rule is slow, and there a stall only
    /// costs the warm start (the pivot cap ends it), never the answer.
    var useBland: Bool { Scalar.self == Rational.self && degenerateRun >= options.degenerateRunBeforeBland }

    /// The entering variable and its direction (+1 up, −1 down), or nil at optimality.
    func choosePricing(_ reduced: [Scalar]) -> (Int, Int)? {
        var best: (Int, Int)?
        var bestMagnitude = Scalar.zero
        for k in 0..<(n + m) where basisRow[k] < 0 {
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
            let magnitude = d.magnitude
            if best == nil || bestMagnitude < magnitude {
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
        var limit: Scalar?
        var leavingRow = -1
        var leavingValue = Scalar.zero
        if let l = lower[q], let u = upper[q] { limit = u - l }
        for r in 0..<m {
            let t = tableau[r][q]
            if t.isNegligible { continue }
            let rate = direction > 0 ? -t : t
            let k = basis[r]
            let v = value[k]
            var target: Scalar?
            if rate.signum > 0 {
                if let l = lower[k], phaseOne, v.violates(l, above: false) {
                    target = l
                } else if let u = upper[k], !v.violates(u, above: true) {
                    target = u
                }
            } else {
                if let u = upper[k], phaseOne, v.violates(u, above: true) {
                    target = u
                } else if let l = lower[k], !v.violates(l, above: false) {
                    target = l
                }
            }
            guard let target else { continue }
            let ratio = ((target - v) / rate).asStepLength
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
        if stepLength.signum == 0 { degenerateRun += 1 } else { degenerateRun = 0 }
        // Move every basic variable, then the entering one.
        if !(stepLength == .zero) {
            let signedStep = direction > 0 ? -stepLength : stepLength
            for r in 0..<m where !tableau[r][q].isNegligible { value[basis[r]].addProduct(signedStep, tableau[r][q]) }
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
        for k in 0..<(n + m) where !tableau[r][k].isNegligible {
            tableau[r][k] *= inverse
            support.append(k)
        }
        let pivotRow = tableau[r]
        for i in 0..<m where i != r {
            let factor = tableau[i][q]
            if factor.isNegligible { continue }
            let negated = -factor
            for k in support { tableau[i][k].addProduct(negated, pivotRow[k]) }
        }
        basisRow[basis[r]] = -1
        basis[r] = q
        basisRow[q] = r
    }
}
