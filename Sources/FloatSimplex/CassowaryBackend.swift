import BackendContract
import ExactArithmetic
import LayoutModel

/// The `float` backend: the incremental Cassowary solver run once over a whole system.
///
/// The system is lowered exactly (`Rational`) and each coefficient rounded to `Double` once.
/// Required rows are added in file order; one that the solver rejects is *broken* and, for
/// the first, its conflict is the tableau's explanation shrunk to an irreducible subset by
/// deletion filtering (each test a fresh solve of the required rows in question). Optional
/// rows follow, each at its level. The objective vector is evaluated at the returned point;
/// ambiguity is ``CassowarySolver/ambiguityEstimate()``'s, with the variables it leaves
/// undecided (degenerate vertices) settled by probes (``CassowarySolver/movesOnOptimalSet(_:probeLevel:)``).
public struct CassowaryBackend: LayoutBackend {
    /// Conflicts larger than this are reported as the tableau explains them, unfiltered:
    /// deletion filtering costs one solve per member.
    public var conflictFilterLimit: Int

    /// At most this many undecided variables are probed per solve (two additions each, on
    /// a copy of the solver); the rest keep the one-column estimate.
    public var ambiguityProbeLimit: Int

    public init(conflictFilterLimit: Int = 256, ambiguityProbeLimit: Int = 64) {
        self.conflictFilterLimit = conflictFilterLimit
        self.ambiguityProbeLimit = ambiguityProbeLimit
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
        return Self.lower(system) == nil ? .unsupported("coefficients beyond Double range") : .supported
    }

    /// The exact lowering rounded to `Double` once, or nil if a number does not fit. Rows
    /// whose numbers are exact in `Double` are lowered in `Double` (the same numbers); the
    /// others through `Rational`.
    public static func lower(_ system: ConstraintSystem) -> LinearSystem<Double>? {
        let linear = system.loweredRoundingOnce { constraint, index, level in
            (system.lower(constraint, index: index, level: level) as LinearRow<Rational>).mapScalars(\.doubleValue)
        }
        for row in linear.rows {
            guard row.constant.isFinite, row.terms.allSatisfy({ $0.coefficient.isFinite }) else { return nil }
        }
        return linear
    }

    public func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        let start = ContinuousClock.now
        guard let linear = Self.lower(system) else {
            throw .unsupported(backend: name, reason: "coefficients beyond Double range")
        }
        let lowering = ContinuousClock.now - start
        var result = try solve(linear, budget: budget)
        result.statistics.duration = ContinuousClock.now - start
        result.statistics.phases?.lowering = lowering
        return try result.checkedRepresentable(in: system, backend: name)
    }

    /// Solves lowered rows (spec §5 semantics over `LinearRow` levels).
    public func solve(_ linear: LinearSystem<Double>, budget: Budget) throws(BackendError) -> BackendResult {
        let start = ContinuousClock.now
        var clock = PhaseClock()
        var phases = SolvePhases()
        var solver = CassowarySolver(budget: budget)
        var broken: [Int] = []
        var conflict: [Int] = []
        // Accepted constraints get handles 0, 1, 2, … in order: the required rows come first,
        // so a handle's id is its row's place here.
        var keptRequired: [LinearRow<Double>] = []
        var filterPivots = 0
        func exceeded() -> BackendResult {
            BackendResult(
                solution: .budgetExceeded(variableCount: linear.variableCount),
                statistics: SolveStatistics(iterations: solver.pivotCount + filterPivots, duration: ContinuousClock.now - start))
        }
        #if LAYOUTBENCH_FAULTS
        let merged = PlantedFault.isActive(.floatMergesNearPriorities) ? Self.levelsMergedByIntegralPart(linear.levels) : nil
        func constraint(_ row: LinearRow<Double>) -> LinearConstraint {
            var c = LinearConstraint(row)
            if let merged, row.level > 0 { c.strength = Strength(level: merged[row.level - 1]) }
            return c
        }
        #else
        func constraint(_ row: LinearRow<Double>) -> LinearConstraint { LinearConstraint(row) }
        #endif
        for row in linear.rows where row.isRequired {
            do {
                try solver.addConstraint(constraint(row))
                keptRequired.append(row)
            } catch {
                switch error {
                case .unsatisfiable(let explanation):
                    if broken.isEmpty {
                        phases.solve += clock.lap()
                        let members = explanation.compactMap { $0.id < keptRequired.count ? keptRequired[$0.id] : nil }
                        var trials = TrialBudget(solver.remainingBudget)
                        let found = irreducibleConflict(failing: row, explanation: members, kept: keptRequired, trials: &trials)
                        // The filter's pivots count as the solve's: the budget is charged for them.
                        filterPivots = trials.pivots
                        guard let found, solver.chargeBudget(trials.pivots) else { return exceeded() }
                        conflict = found
                        phases.conflict += clock.lap()
                    }
                    #if LAYOUTBENCH_FAULTS
                    if !broken.isEmpty && PlantedFault.isActive(.floatConflictUnion) {
                        let members = explanation.compactMap { $0.id < keptRequired.count ? keptRequired[$0.id] : nil }
                        let found = irreducibleConflict(failing: row, explanation: members, kept: keptRequired, budget: .unlimited) ?? []
                        conflict = Array(Set(conflict).union(found)).sorted()
                    }
                    #endif
                    broken.append(row.constraintIndex)
                case .budgetExceeded:
                    return exceeded()
                default:
                    throw .internalFailure(backend: name, message: error.description)
                }
            }
        }
        phases.solve += clock.lap()
        for row in linear.rows where !row.isRequired {
            do {
                try solver.addConstraint(constraint(row))
            } catch {
                if error == .budgetExceeded { return exceeded() }
                throw .internalFailure(backend: name, message: error.description)
            }
        }
        phases.levels += clock.lap()
        // A plain loop: a closure reading `solver` would copy the whole solver per variable.
        var values: [Double] = []
        values.reserveCapacity(linear.variableCount)
        for variable in 0..<linear.variableCount { values.append(solver.value(of: Variable(variable))) }
        var objective = Array(repeating: 0.0, count: linear.levels.count)
        for row in linear.rows where !row.isRequired && row.level <= objective.count {
            let d = row.value(at: values)
            let error: Double
            switch row.relation {
            case .equal: error = abs(d)
            case .lessThanOrEqual: error = max(0, d)
            case .greaterThanOrEqual: error = max(0, -d)
            }
            objective[row.level - 1] += error
        }
        _ = clock.lap()
        let estimate = solver.ambiguityEstimate()
        var ambiguous = Set(estimate.ambiguous.map(\.index).filter { $0 >= 0 && $0 < linear.variableCount })
        for variable in estimate.undecided.prefix(ambiguityProbeLimit) where !ambiguous.contains(variable.index) {
            for moved in solver.probeMovesOnOptimalSet(variable, probeLevel: linear.levels.count + 1)
            where moved.index >= 0 && moved.index < linear.variableCount {
                ambiguous.insert(moved.index)
            }
        }
        for variable in 0..<linear.variableCount where !solver.knows(Variable(variable)) { ambiguous.insert(variable) }
        phases.ambiguity += clock.lap()
        let solution = Solution(
            status: broken.isEmpty ? .optimal : .unsatisfiable, values: values, objective: objective,
            ambiguous: ambiguous.sorted().map { Unknown(variable: $0) }, broken: broken, conflict: conflict)
        return BackendResult(
            solution: solution,
            statistics: SolveStatistics(
                iterations: solver.pivotCount + filterPivots, duration: ContinuousClock.now - start, phases: phases))
    }

    /// Shrinks an infeasible set of required rows that contains `failing` to an irreducible
    /// one by deletion filtering: drop a member whenever the rest is still infeasible. The
    /// trial solves (up to ``conflictFilterLimit`` of them) share `budget`, what the caller's
    /// solve has left; nil when it runs out.
    func irreducibleConflict(
        failing: LinearRow<Double>, explanation: [LinearRow<Double>], kept: [LinearRow<Double>], budget: Budget
    ) -> [Int]? {
        var trials = TrialBudget(budget)
        return irreducibleConflict(failing: failing, explanation: explanation, kept: kept, trials: &trials)
    }

    /// ``irreducibleConflict(failing:explanation:kept:budget:)`` charging `trials`.
    func irreducibleConflict(
        failing: LinearRow<Double>, explanation: [LinearRow<Double>], kept: [LinearRow<Double>], trials: inout TrialBudget
    ) -> [Int]? {
        var members = (explanation + [failing]).sorted { $0.constraintIndex < $1.constraintIndex }
        guard let explained = trials.isFeasible(members) else { return nil }
        if explained {
            // Rounding hid a member from the explanation: start from everything kept.
            members = (kept + [failing]).sorted { $0.constraintIndex < $1.constraintIndex }
        }
        if members.count <= conflictFilterLimit {
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
                    try solver.addConstraint(LinearConstraint(row))
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
