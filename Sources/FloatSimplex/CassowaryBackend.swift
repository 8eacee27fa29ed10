import BackendContract
import ExactArithmetic
import LayoutModel

/// The `float` backend: the incremental Cassowary solver run once over a whole system.
///
/// The system is lowered exactly (`Rational`) and each coefficient rounded to `Double` once.
/// Rows are added in file order, optional ones among the required, closing links pulled
/// forward (``additionOrder(_:)``);
/// a required row that the solver rejects is *broken* and, for the first, its conflict is
/// the tableau's explanation shrunk to an irreducible subset by deletion filtering (each test
/// a fresh solve of the required rows in question). Optional rows are added at their levels.
/// The objective vector is evaluated at the returned point; ambiguity is
/// ``CassowarySolver/ambiguityEstimate()``'s, with the variables it leaves undecided
/// (degenerate vertices) settled by one pull on their weighted sum
/// (``CassowarySolver/noneMovesOnOptimalSet(_:probeLevel:)``) and, when that moves, each one's
/// own probe (``CassowarySolver/movesOnOptimalSet(_:probeLevel:)``). A tableau the additions
/// left denser than twice its constraints is rebuilt before the estimate
/// (``CassowarySolver/refactorIfDenserThanConstraints(allowance:)``).
public struct CassowaryBackend: LayoutBackend {
    /// Conflicts larger than this are reported as the tableau explains them, unfiltered:
    /// deletion filtering costs one solve per member.
    public var conflictFilterLimit: Int

    /// At most this many undecided variables are probed per solve: one pull on their weighted
    /// sum, and only when it moves, each one's own probe (two additions each, rolled back),
    /// within ``ambiguityProbeWorkFloor``; the rest keep the one-column estimate.
    public var ambiguityProbeLimit: Int

    /// The probes of a solve may read at least this many row terms, and at most as many as
    /// the solve read if that is more (``Tableau/termsRead``); the undecided variables left
    /// keep the one-column estimate. Below it (the small layouts a fuzz campaign generates;
    /// `form` at 100 views reads well under a million terms in all) every one of the
    /// ``ambiguityProbeLimit`` probes runs.
    public var ambiguityProbeWorkFloor: Int

    /// The walk's rows are rebuilt from the constraints between additions once its walks
    /// have read this many times the constraints' terms since the last rebuild
    /// (``CassowarySolver/rebuildIfWalksOutgrewRows(factor:)``); 0 never rebuilds.
    public var walkRebuildFactor: Int

    public init(
        conflictFilterLimit: Int = 256, ambiguityProbeLimit: Int = 64, ambiguityProbeWorkFloor: Int = 4_000_000,
        walkRebuildFactor: Int = 32
    ) {
        self.conflictFilterLimit = conflictFilterLimit
        self.ambiguityProbeLimit = ambiguityProbeLimit
        self.ambiguityProbeWorkFloor = ambiguityProbeWorkFloor
        self.walkRebuildFactor = walkRebuildFactor
    }

    public var name: String { "float" }

    public var summary: String {
        "incremental Cassowary simplex in Double, lexicographic priorities; estimates ambiguity"
    }

    /// Supported when every number of the lowering is finite in `Double`. Moderate literals
    /// guarantee it (``LayoutModel/ConstraintSystem/largestLiteralMagnitude``), so only a
    /// system with huge numbers is lowered to find out: `solve` lowers, `supports` need not.
    public func supports(_ system: ConstraintSystem) -> Support {
        if system.largestLiteralMagnitude <= 0x1p250 { return .supported }
        return Self.lowerPooled(system) == nil ? .unsupported("coefficients beyond Double range") : .supported
    }

    /// The exact lowering rounded to `Double` once, or nil if a number does not fit. Rows
    /// whose numbers are exact in `Double` are lowered in `Double` (the same numbers); the
    /// others through `Rational`.
    public static func lower(_ system: ConstraintSystem) -> LinearSystem<Double>? {
        lowerPooled(system)?.unpooled
    }

    /// ``lower(_:)``'s rows in one term pool: what ``solve(_:budget:)`` adds from.
    public static func lowerPooled(_ system: ConstraintSystem) -> PooledLinearSystem? {
        let linear = system.pooledRoundingOnce { index, level in
            (system.lower(system.constraints[index], index: index, level: level) as LinearRow<Rational>).mapScalars(\.doubleValue)
        }
        for row in linear.rows where !row.constant.isFinite { return nil }
        for term in linear.terms where !term.coefficient.isFinite { return nil }
        return linear
    }

    public func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        try solveReportingOrder(system, budget: budget).result
    }

    /// ``solve(_:budget:)``, and the order the rows of ``lowerPooled(_:)`` held at the end
    /// were added in (``additionOrder(_:)``; a link taken back counts at its later addition):
    /// what a benchmark of the incremental core beside this solve adds.
    public func solveReportingOrder(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> (result: BackendResult, order: [Int]) {
        let start = ContinuousClock.now
        guard let linear = Self.lowerPooled(system) else {
            throw .unsupported(backend: name, reason: "coefficients beyond Double range")
        }
        let lowering = ContinuousClock.now - start
        var (result, order) = try solveReportingOrder(linear, budget: budget)
        result.statistics.duration = ContinuousClock.now - start
        result.statistics.phases?.lowering = lowering
        return (try result.checkedRepresentable(in: system, backend: name), order)
    }

    /// Solves lowered rows (spec §5 semantics over `LinearRow` levels).
    public func solve(_ linear: LinearSystem<Double>, budget: Budget) throws(BackendError) -> BackendResult {
        try solve(PooledLinearSystem(linear), budget: budget)
    }

    /// Solves pooled lowered rows (spec §5 semantics over their levels).
    ///
    /// The rows go in in ``additionOrder(_:)``, which pulls links ahead of their place in the
    /// file, and the walk's verdicts (spec §5.1, defined in the file's order) are kept: see
    /// ``AdditionWalk``.
    public func solve(_ linear: PooledLinearSystem, budget: Budget) throws(BackendError) -> BackendResult {
        try solveReportingOrder(linear, budget: budget).result
    }

    /// ``solve(_:budget:)`` on pooled rows, and the order the rows were added in
    /// (``AdditionWalk/order``).
    func solveReportingOrder(_ linear: PooledLinearSystem, budget: Budget) throws(BackendError) -> (result: BackendResult, order: [Int]) {
        let start = ContinuousClock.now
        var clock = PhaseClock()
        var phases = SolvePhases()
        var solver = CassowarySolver(budget: budget)
        solver.reserveCapacity(constraints: linear.rows.count, terms: linear.terms.count, variables: linear.variableCount)
        var broken: [Int] = []
        var conflict: [Int] = []
        var filterPivots = 0
        var walk = AdditionWalk(linear)
        var split = WalkTimeSplit()
        func exceeded() -> (result: BackendResult, order: [Int]) {
            (BackendResult(
                solution: .budgetExceeded(variableCount: linear.variableCount),
                statistics: SolveStatistics(iterations: solver.pivotCount + filterPivots, duration: ContinuousClock.now - start)),
             walk.order)
        }
        var strengths = (0...linear.levels.count).map(Strength.init(level:))
        #if LAYOUTBENCH_FAULTS
        if PlantedFault.isActive(.floatMergesNearPriorities) {
            strengths = [.required] + Self.levelsMergedByIntegralPart(linear.levels).map(Strength.init(level:))
        }
        #endif
        while true {
            let found: (row: Int, explanation: [ConstraintHandle])?
            do {
                found = try walk.addUntilBroken(
                    to: &solver, linear, strengths: strengths, rebuildFactor: walkRebuildFactor
                ) { rowsAdded in
                    split.note(rowsAdded)
                    if split.isDue { split.charge(clock.lap(), to: &phases) }
                }
            } catch {
                if error == .budgetExceeded { return exceeded() }
                throw .internalFailure(backend: name, message: error.description)
            }
            guard let (index, explanation) = found else { break }
            if broken.isEmpty {
                split.note(walk.rowsAdded)
                split.charge(clock.lap(), to: &phases)
                var trials = TrialBudget(solver.remainingBudget)
                let found = irreducibleConflict(
                    failing: linear.row(index), explanation: walk.rows(of: explanation).map(linear.row(_:)),
                    kept: walk.heldRequired.map(linear.row(_:)), trials: &trials)
                // The filter's pivots count as the solve's: the budget is charged for them.
                filterPivots = trials.pivots
                guard let found, solver.chargeBudget(trials.pivots) else { return exceeded() }
                conflict = found
                phases.conflict += clock.lap()
            }
            #if LAYOUTBENCH_FAULTS
            if !broken.isEmpty && PlantedFault.isActive(.floatConflictUnion) {
                let found = irreducibleConflict(
                    failing: linear.row(index), explanation: walk.rows(of: explanation).map(linear.row(_:)),
                    kept: walk.heldRequired.map(linear.row(_:)), budget: .unlimited) ?? []
                conflict = Array(Set(conflict).union(found)).sorted()
            }
            #endif
            broken.append(linear.rows[index].constraintIndex)
        }
        split.note(walk.rowsAdded)
        split.charge(clock.lap(), to: &phases)
        // The additions' pivots wrote reduced rows, as long as their backward cones (on `form`
        // every label's width tied to one: 932 rows of up to 1,498 terms at 1,000 views); the
        // estimate and its probes walk them. Rebuilt from the constraints for the same basis
        // (kept only when every value and reduced cost is unchanged, bit for bit), they are
        // the constraints' own length again, as the sequence driver's are after each pass.
        // A pivot on an element far below its row (a 1e-9 multiplier) left its rounding,
        // amplified, in the rows: rebuilt, they give the point without it.
        if !solver.refactorAfterSmallPivot() { solver.refactorIfDenserThanConstraints() }
        phases.ambiguity += clock.lap()
        // A plain loop: a closure reading `solver` would copy the whole solver per variable.
        var values: [Double] = []
        values.reserveCapacity(linear.variableCount)
        for variable in 0..<linear.variableCount { values.append(solver.value(of: Variable(variable))) }
        var objective = Array(repeating: 0.0, count: linear.levels.count)
        for index in linear.rows.indices {
            let row = linear.rows[index]
            guard !row.isRequired && row.level <= objective.count else { continue }
            objective[row.level - 1] += LinearConstraint.error(linear.value(ofRow: index, at: values), row.relation)
        }
        _ = clock.lap()
        // The probes together may read as many row terms as the solve did (at least
        // `ambiguityProbeWorkFloor`): on a tableau whose rows have grown as long as the layout
        // (`form`: every label's width tied to one) each probe walks all of it, and 64 of them
        // cost many solves.
        let probeWorkLimit = max(ambiguityProbeWorkFloor, solver.tableau.termsRead)
        guard let estimate = solver.ambiguityEstimateInPlace(deadline: budget.wallTime.map { start + $0 }) else { return exceeded() }
        // Flags by variable, not a set: read off in order at the end.
        var isAmbiguous = [Bool](repeating: false, count: linear.variableCount)
        for variable in estimate.ambiguous where variable.index >= 0 && variable.index < linear.variableCount {
            isAmbiguous[variable.index] = true
        }
        let marked = isAmbiguous
        for moved in solver.probeUndecided(
            estimate.undecided, known: { $0.index >= 0 && $0.index < marked.count && marked[$0.index] },
            probeLevel: linear.levels.count + 1, limit: ambiguityProbeLimit, workLimit: probeWorkLimit)
        where moved.index >= 0 && moved.index < linear.variableCount {
            isAmbiguous[moved.index] = true
        }
        for variable in 0..<linear.variableCount where !solver.knows(Variable(variable)) { isAmbiguous[variable] = true }
        var ambiguous: [Unknown] = []
        for (variable, flag) in isAmbiguous.enumerated() where flag { ambiguous.append(Unknown(variable: variable)) }
        phases.ambiguity += clock.lap()
        let solution = Solution(
            status: broken.isEmpty ? .optimal : .unsatisfiable, values: values, objective: objective,
            ambiguous: ambiguous, broken: broken, conflict: conflict)
        return (BackendResult(
            solution: solution,
            statistics: SolveStatistics(
                iterations: solver.pivotCount + filterPivots, duration: ContinuousClock.now - start, phases: phases)),
            walk.order)
    }

    /// Shrinks an infeasible set of required rows that contains `failing` to an irreducible
    /// one by deletion filtering: drop a member whenever the rest is still infeasible. The
    /// trial solves (up to ``conflictFilterLimit`` of them) share `budget`, what the caller's
    /// solve has left; nil when it runs out.
    func irreducibleConflict(
        failing: LinearRow<Double>, explanation: [LinearRow<Double>], kept: @autoclosure () -> [LinearRow<Double>],
        budget: Budget
    ) -> [Int]? {
        var trials = TrialBudget(budget)
        return irreducibleConflict(failing: failing, explanation: explanation, kept: kept(), trials: &trials)
    }

    /// ``irreducibleConflict(failing:explanation:kept:budget:)`` charging `trials`. `kept` is
    /// read only when the explanation turns out feasible.
    func irreducibleConflict(
        failing: LinearRow<Double>, explanation: [LinearRow<Double>], kept: @autoclosure () -> [LinearRow<Double>],
        trials: inout TrialBudget
    ) -> [Int]? {
        var members = (explanation + [failing]).sorted { $0.constraintIndex < $1.constraintIndex }
        // An explanation of equalities that proves itself infeasible and irreducible needs no
        // trial solve to confirm it (on a chain of a thousand views, `conflict-late`, the
        // trial re-solved two thirds of the layout).
        if Self.isIrreducibleEqualityConflict(members, failing: failing) { return members.map(\.constraintIndex) }
        guard let explained = trials.isFeasible(members) else { return nil }
        if explained {
            // Rounding hid a member from the explanation: start from everything kept.
            members = (kept() + [failing]).sorted { $0.constraintIndex < $1.constraintIndex }
        }
        if members.count <= conflictFilterLimit && !Self.isIrreducibleEqualityConflict(members, failing: failing) {
            var index = 0
            while index < members.count {
                if members[index].constraintIndex == failing.constraintIndex {
                    index += 1
                    continue
                }
                var trial = members
                trial.remove(at: index)
                guard let feasible = trials.isFeasible(trial) else { return nil }
                if feasible { index += 1 } else { members = trial }
            }
        }
        return members.map(\.constraintIndex)
    }

    /// Whether an infeasible set of required equalities is irreducible without a trial per
    /// member: deletion filtering costs one solve per member, quadratic on a chain of
    /// hundreds (`conflict-late`).
    ///
    /// When every member but `failing` names a variable that no earlier member names (in
    /// file order), those rows are linearly independent, so the set's rows have exactly one
    /// combination `y` that cancels every variable (up to scale; the set is infeasible, so
    /// one exists). Dropping a member `j` leaves a feasible set exactly when `y_j ≠ 0` (a set
    /// of independent equalities always holds), so the set is irreducible when every `y_j` is
    /// nonzero. `y` is found by back-substitution, each member's weight cancelling the
    /// variable it was first to name; the set counts as irreducible only when every weight is
    /// clearly nonzero and the combination clearly cancels every variable and not its
    /// constant. Anything else (an inequality, no such order, a weight near zero) answers
    /// false and the deletion filter decides.
    static func isIrreducibleEqualityConflict(_ members: [LinearRow<Double>], failing: LinearRow<Double>) -> Bool {
        guard members.count > 1, members.allSatisfy({ $0.relation == .equal }) else { return false }
        let others = members.filter { $0.constraintIndex != failing.constraintIndex }
        guard others.count == members.count - 1 else { return false }
        // Flags and sums indexed by variable, not a set and a dictionary: hashing was most of
        // the cost on a chain of a thousand equalities.
        var variableCount = 0
        for row in members { for term in row.terms { variableCount = max(variableCount, term.variable + 1) } }
        // Each row's first-named variable (the one whose coefficient is largest among those
        // no earlier row names), as a place in its terms.
        var named = Array(repeating: false, count: variableCount)
        var pivots: [Int] = []
        pivots.reserveCapacity(others.count)
        for row in others {
            var pivot = -1
            for (place, term) in row.terms.enumerated() where !named[term.variable] {
                if pivot < 0 || abs(term.coefficient) > abs(row.terms[pivot].coefficient) { pivot = place }
            }
            guard pivot >= 0 else { return false }
            pivots.append(pivot)
            for term in row.terms { named[term.variable] = true }
        }
        // Σ y_r · row_r per variable, with the largest magnitude summed into each (the scale
        // its cancellation is judged against); y_failing = 1.
        var sums = Array(repeating: (sum: 0.0, scale: 0.0), count: variableCount)
        var touched: [Int] = []
        func accumulate(_ row: LinearRow<Double>, times weight: Double) {
            for term in row.terms {
                let product = weight * term.coefficient
                let old = sums[term.variable]
                if old == (0, 0) { touched.append(term.variable) }
                sums[term.variable] = (old.sum + product, max(old.scale, abs(product)))
            }
        }
        accumulate(failing, times: 1)
        var constant = failing.constant
        var constantScale = abs(failing.constant)
        var weights = Array(repeating: 0.0, count: others.count)
        for index in others.indices.reversed() {
            let row = others[index]
            let pivot = row.terms[pivots[index]]
            let (sum, scale) = sums[pivot.variable]
            let weight = -sum / pivot.coefficient
            // A weight within rounding of zero: the member may not be needed.
            guard weight.isFinite, abs(sum) > 1e-9 * scale else { return false }
            weights[index] = weight
            accumulate(row, times: weight)
            constant += weight * row.constant
            constantScale = max(constantScale, abs(weight * row.constant))
        }
        let largest = max(1, weights.lazy.map(abs).max() ?? 1)
        guard weights.allSatisfy({ abs($0) > 1e-9 * largest }) else { return false }
        // Every variable cancels, and the constants do not: a proof of infeasibility.
        for variable in touched where abs(sums[variable].sum) > 1e-9 * sums[variable].scale { return false }
        return abs(constant) > 1e-9 * constantScale
    }

    /// One budget spread over a sequence of fresh solves: each gets what the earlier ones left.
    struct TrialBudget {
        var iterationsLeft: Int?
        let deadline: ContinuousClock.Instant?
        /// Pivots of the trial solves so far.
        private(set) var pivots = 0

        init(_ budget: Budget) {
            iterationsLeft = budget.iterations
            deadline = budget.wallTime.map { ContinuousClock.now + $0 }
        }

        /// Whether the rows can hold together; nil when the budget is spent.
        mutating func isFeasible(_ rows: [LinearRow<Double>]) -> Bool? {
            let now = ContinuousClock.now
            if let deadline, now >= deadline { return nil }
            if let iterationsLeft, iterationsLeft < 0 { return nil }
            var solver = CassowarySolver(budget: Budget(iterations: iterationsLeft, wallTime: deadline.map { $0 - now }))
            defer {
                iterationsLeft = iterationsLeft.map { $0 - solver.pivotCount }
                pivots += solver.pivotCount
            }
            for row in rows {
                do {
                    try solver.addConstraint(row, strength: Strength(level: row.level))
                } catch {
                    return error == .budgetExceeded ? nil : false
                }
            }
            return true
        }
    }

    #if LAYOUTBENCH_FAULTS
    /// For the planted fault: each level mapped to the first (strongest) level whose
    /// priority has the same integral part.
    static func levelsMergedByIntegralPart(_ levels: [Priority]) -> [Int] {
        levels.indices.map { k in
            let whole = levels[k].value.doubleValue.rounded(.down)
            return (levels.firstIndex { $0.value.doubleValue.rounded(.down) == whole } ?? k) + 1
        }
    }
    #endif
}

/// Double arithmetic deciding at a relative 1e-9 of each number's own summands or row: the
/// judge forgives rounding up to that relative size (`docs/fuzzing.md`, "Verdicts").
extension CassowaryBackend: DeclaresPrecision {
    public var relativePrecision: Double? { defaultRelativePrecision }
}
