import ExactArithmetic
import Foundation
import ExactSimplex
import MathematicalProgramming

/// What ``ExactLPSolver`` found.
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
    /// Exact pivots of the dual simplex that finished from the floating-point basis
    /// (included in `pivots`).
    public var dualFinishPivots: Int = 0

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
        guard case .factorized(var factors) = BasisFactorization.factorize(columns: basis.map(column)) else { return nil }
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
        var y = [Rational](repeating: .zero, count: m)
        let basicCosts = basis.enumerated().compactMap { slot, k in k < n && !cost[k].isZero ? SparseEntry(slot, cost[k]) : nil }
        for entry in factors.solveTransposedSparse(basicCosts) { y[entry.index] = entry.value }
        let x = Array(z[0..<n])
        let certificate = LPCertificate.optimal(x: x, y: y)
        guard LPCertificateVerifier.failure(of: certificate, for: lp) == nil else { return nil }
        return ExactLPResult(
            status: .optimal, objective: lp.objectiveValue(x), certificate: certificate, pivots: 0, boundFlips: 0,
            phaseOnePivots: 0, blandPivots: 0)
    }
}

/// The general exact LP solver: an optional floating-point run of ``RevisedSimplex`` picks a
/// basis (as QSopt_ex and SoPlex do), that basis is factored and checked exactly, and when
/// it is not optimal the exact revised simplex continues from it to an answer it proves
/// itself. A wrong or failed float run costs time only: every answer comes from exact
/// arithmetic and carries a certificate.
public enum ExactLPSolver {
    /// Limits and the warm start.
    public struct Options: Sendable {
        /// Give up (status `stopped`) after this long.
        public var timeLimit: Duration?
        /// Consecutive degenerate pivots before Bland's rule takes over.
        public var degenerateRunBeforeBland: Int
        /// Start the exact simplex from the basis a `Double` run ends with.
        public var floatWarmStart: Bool
        /// Begin the `Double` run with the dual simplex (then the primal one finishes).
        public var floatDualSimplex: Bool

        public init(
            timeLimit: Duration? = nil, degenerateRunBeforeBland: Int = 50,
            floatWarmStart: Bool = true, floatDualSimplex: Bool = true
        ) {
            self.timeLimit = timeLimit
            self.degenerateRunBeforeBland = degenerateRunBeforeBland
            self.floatWarmStart = floatWarmStart
            self.floatDualSimplex = floatDualSimplex
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
        guard options.floatWarmStart else {
            var exact = RevisedSimplex<Rational>(lp: lp, options: options)
            return exact.run()
        }
        let started = ContinuousClock.now
        var float = RevisedSimplex<Double>(lp: lp, options: options)
        if options.floatDualSimplex { float.runDual() }
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
        if let limit = options.timeLimit, floatDuration > limit {
            // Out of time already: an exact factorization of a large basis would overrun it.
            var stopped = ExactLPResult(status: .stopped, objective: nil, certificate: nil, pivots: 0, boundFlips: 0, phaseOnePivots: 0, blandPivots: 0)
            stopped.floatPivots = float.pivots + float.flips
            stopped.floatDuration = floatDuration
            return stopped
        }
        // The exact revised simplex finishes from the float basis, with only the pivots
        // still needed; it proves its answer itself.
        var exact = RevisedSimplex<Rational>(
            lp: lp, options: remaining(options, since: started), startBasis: candidate.basis, atUpper: candidate.atUpper)
        // A float optimum is usually dual feasible in exact arithmetic with a few basic
        // values just outside their bounds: the exact dual simplex removes those and keeps
        // the costs optimal, where a primal phase 1 would throw optimality away.
        var result: ExactLPResult
        let finish = exact.runDualFinish()
        if case .optimal(let proven) = finish, LPCertificateVerifier.failure(of: proven.certificate!, for: lp) == nil {
            result = proven
        } else {
            result = exact.run()
        }
        result.dualFinishPivots = exact.dualFinishPivots
        result.floatPivots = float.pivots + float.flips
        result.floatDuration = floatDuration
        result.repairedBasisColumns = exact.repairedSlots
        return result
    }
}
