import BackendContract
import LayoutModel

/// The naive baseline: dense Gaussian elimination with partial pivoting in `Double`, O(n³),
/// no sparsity tricks. Selected as `gaussian`.
///
/// ## What it solves
///
/// Systems whose constraints are all required equalities. Anything else is unsupported, with
/// the reason: `"inequalities"`, `"optional constraints"`, or both (`intrinsic` sizes imply
/// inequalities, optional by default). A system whose lowered numbers overflow `Double` is
/// unsupported too (`"numbers beyond Double's range"`).
///
/// ## Method
///
/// The system is lowered straight into `Double` (`lowered(as: Double.self)`): each literal is
/// rounded once when read, and the few products lowering forms (a multiplier times ½ for a
/// centre, times the root's frame or a margin) round once more. The target depends on no
/// exact arithmetic, and the baseline is meant to see what a plain float pipeline sees.
///
/// Spec §5.1's greedy walk, in file order: each equation is reduced against the rows kept so
/// far (one row operation per basis row, over the whole dense row of `variableCount + 1`
/// entries); if a coefficient survives, the largest one in magnitude becomes the row's pivot
/// and the row joins the basis. Otherwise the equation is a combination of the basis: it is
/// kept as redundant when its reduced constant is negligible, and broken when it is not.
/// Until the first equation breaks, each basis row also carries its multipliers over the
/// original equations (the identity block of `[A c | I]`, a packed triangle); the first broken
/// equation gets the conflict {it} ∪ {the basis equations with a non-zero multiplier in its
/// combination}, which is irreducible (the proof is beside `EchelonBasis.conflictSet` in the
/// source). Broken equations never enter the basis, so they do not move the solution of the
/// kept ones.
///
/// Then back-substitution brings the basis to reduced row echelon form. A variable without
/// a pivot is free, and ambiguous; a pivot variable whose row keeps a non-negligible coefficient
/// on a free column is ambiguous too; every other variable is determined. The returned point
/// sets every free variable to 0. The status is `unsatisfiable` when anything was broken and
/// `optimal` otherwise; the objective is empty (there are no optional levels).
///
/// ## Rank tolerance
///
/// One rule decides every zero test, applied entry by entry to the equation under reduction
/// (each coefficient, the constant, and each multiplier tracked for the conflict): an entry is
/// zero when its magnitude is at most `relativeTolerance × M`, M the largest magnitude that went
/// into it — its starting value or any `factor × basis entry` subtracted from it. An entry judged
/// zero is set to exactly 0, so rounding noise never travels on as data. Back-substitution
/// judges each row's entries the same way, against the terms subtracted from them there.
/// - A reduced equation with no non-zero coefficient is a combination of the basis: redundant
///   when its constant is zero, broken otherwise. Otherwise its largest coefficient is its pivot.
/// - After back-substitution, a pivot variable is ambiguous when its row has a non-zero
///   coefficient on a free column.
/// - A basis equation is in the conflict when its multiplier is non-zero.
///
/// The rule measures cancellation where it happens: an entry that cancelled away from large
/// terms is judged against those terms, and an entry that no large term touched keeps its own
/// scale. So scaling an equation or an unknown by any factor changes no decision, there is no
/// absolute floor, and a decision about an equation depends only on the equations before it.
///
/// The default `relativeTolerance` is 1e-10, about 10⁶ units of rounding (2⁻⁵³ ≈ 1.1e-16):
/// room for the rounding that accumulates over long eliminations, and still far finer than any
/// difference a layout means. Consequences, by design:
/// - `a.width == 100` then `a.width == 100.000000000001` keeps both (the difference is 1e-14 of
///   the constants), while `a.width == 1e-20` then `a.width == 2e-20` breaks the second.
/// - `a.width == 1.1 * a.height` then `a.height == 0.9090909090909092 * a.width` (one unit of
///   rounding away from reciprocal) are treated as dependent: the second is kept as redundant
///   and `a.w`, `a.h` are ambiguous. With a tolerance of 0 they are independent and force
///   `a.w = a.h = 0`. The exact backend, which reads the literals as rationals, agrees with the
///   latter: this is a difference the comparator is expected to report.
/// - Pairs like `1.536` and `0.6510416666666666` are exact reciprocals once rounded to `Double`
///   (the literal is the double nearest 125/192); elimination cancels them exactly, so they
///   are dependent for every tolerance, though not for the exact backend.
///
/// ## Cost
///
/// With r the rank reached, the walk performs Σ (rank at each equation) row operations and
/// back-substitution r(r−1)/2, each over `variableCount + 1` entries, plus a packed triangle of
/// combination multipliers while no equation has been broken: O(m·r·n) time for m equations,
/// O(r·n) memory, allocated as the basis grows. One row operation is one iteration of the
/// ``Budget``; a budget of N iterations allows exactly N row operations, and a solve that needs
/// more returns ``Solution/budgetExceeded(variableCount:)`` with the statistics so far (whose
/// iteration count includes the operation that was refused).
///
/// Values whose magnitudes approach `Double`'s range can overflow during elimination; nothing
/// traps (a not-a-number entry never becomes a pivot), but the results are then meaningless.
public struct GaussianEliminationBackend: LayoutBackend {
    /// The tolerance of every zero test, relative to the magnitudes involved (see the type's
    /// documentation).
    public static let defaultRelativeTolerance = 1e-10

    /// The relative tolerance of every zero test; 0 makes them exact comparisons with 0.
    public let relativeTolerance: Double

    /// A backend with the given relative tolerance; a negative or not-a-number tolerance
    /// is taken as 0.
    public init(relativeTolerance: Double = GaussianEliminationBackend.defaultRelativeTolerance) {
        self.relativeTolerance = relativeTolerance > 0 ? relativeTolerance : 0
    }

    public var name: String { "gaussian" }

    public var summary: String {
        "Dense Gaussian elimination with partial pivoting in Double, O(n³): required equalities only."
    }

    public func supports(_ system: ConstraintSystem) -> Support {
        if let reason = Self.structuralObstacle(system) { return .unsupported(reason) }
        if case .failure(let reason) = Self.lower(system) { return .unsupported(reason.reason) }
        return .supported
    }

    public func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        // Started first: the statistics and the time budget cover lowering.
        var meter = BudgetMeter(budget)
        if let reason = Self.structuralObstacle(system) {
            throw .unsupported(backend: name, reason: reason)
        }
        let linear: LinearSystem<Double>
        switch Self.lower(system) {
        case .success(let lowered): linear = lowered
        case .failure(let obstacle): throw .unsupported(backend: name, reason: obstacle.reason)
        }
        for row in linear.rows {
            for term in row.terms where !(0..<linear.variableCount).contains(term.variable) {
                throw .internalFailure(backend: name, message: "lowering produced variable \(term.variable)")
            }
        }

        func statistics() -> SolveStatistics {
            SolveStatistics(iterations: meter.iterations, duration: meter.elapsed)
        }
        func exceeded() -> BackendResult {
            BackendResult(solution: .budgetExceeded(variableCount: linear.variableCount), statistics: statistics())
        }

        #if LAYOUTBENCH_FAULTS
        let tolerance = PlantedFault.isActive(.gaussianPivotTolerance) ? 1e-3 : relativeTolerance
        #else
        let tolerance = relativeTolerance
        #endif
        var basis = EchelonBasis(variableCount: linear.variableCount, relativeTolerance: tolerance)
        var broken: [Int] = []
        var conflict: [Int] = []
        for row in linear.rows {
            switch basis.insert(row, meter: &meter) {
            case .independent, .redundant:
                break
            case .inconsistent(let rowConflict):
                broken.append(row.constraintIndex)
                if let rowConflict { conflict = rowConflict }
            case .budgetExceeded:
                return exceeded()
            }
        }
        guard basis.reduceToReducedEchelonForm(meter: &meter) else { return exceeded() }
        let (values, undetermined) = basis.solution()
        let solution = Solution(
            status: broken.isEmpty ? .optimal : .unsatisfiable,
            values: values,
            objective: Array(repeating: 0, count: linear.levels.count),
            ambiguous: undetermined.map(Unknown.init(variable:)),
            broken: broken,
            conflict: conflict)
        return try BackendResult(solution: solution, statistics: statistics()).checkedRepresentable(in: system, backend: name)
    }

    /// Why the constraints themselves put the system out of reach, or nil.
    private static func structuralObstacle(_ system: ConstraintSystem) -> String? {
        let hasInequalities = system.constraints.contains { $0.relation != .equal }
        let hasOptional = system.constraints.contains { !$0.priority.isRequired }
        switch (hasInequalities, hasOptional) {
        case (true, true): return "inequalities and optional constraints"
        case (true, false): return "inequalities"
        case (false, true): return "optional constraints"
        case (false, false): return nil
        }
    }

    private struct LoweringObstacle: Error {
        var reason: String
    }

    /// The system in `Double`, or why it cannot be: a finite literal can still overflow once
    /// multiplied in lowering.
    private static func lower(_ system: ConstraintSystem) -> Result<LinearSystem<Double>, LoweringObstacle> {
        let linear = system.lowered(as: Double.self)
        let allFinite = linear.rows.allSatisfy { row in
            row.constant.isFinite && row.terms.allSatisfy { $0.coefficient.isFinite }
        }
        return allFinite ? .success(linear) : .failure(LoweringObstacle(reason: "numbers beyond Double's range"))
    }
}
