import BackendContract
import ExactArithmetic
import LayoutModel

/// How far a floating-point answer may stray from the exact one.
///
/// A quantity q (a constraint's violation, an error sum, a determined value) agrees with
/// its reference when `|q − q*| ≤ absolute + relative × S`, where S is the system's scale:
/// the largest magnitude among its lowered constants and the root's frame (at least 1).
/// Error sums at a level get the bound once per optional row at that level, since each row
/// may contribute its own rounding. The defaults (1e-6 absolute, 1e-9 relative) accept the
/// rounding of a well-conditioned Double solve and reject anything a user could see.
public struct Tolerance: Sendable, Hashable, Codable {
    public var absolute: Double
    public var relative: Double

    public init(absolute: Double = 1e-6, relative: Double = 1e-9) {
        self.absolute = absolute
        self.relative = relative
    }

    /// The bound for one quantity in a system of this scale.
    public func bound(scale: Double) -> Double { absolute + relative * scale }

    /// S: the largest constant magnitude of the lowered rows and the root's frame, at least 1.
    public static func scale(of system: ConstraintSystem, rows: LinearSystem<Rational>) -> Double {
        var s = 1.0
        for row in rows.rows { s = max(s, abs(row.constant.doubleValue)) }
        for value in system.root.frame ?? [] { s = max(s, abs(value.doubleValue)) }
        return s
    }
}

/// What one backend did with one system.
public struct BackendOutcome: Sendable {
    public var backend: String
    /// The result, or why there is none (thrown error, trap, kill, hang).
    public var result: Result<BackendResult, BackendFailure>

    public init(backend: String, result: Result<BackendResult, BackendFailure>) {
        self.backend = backend
        self.result = result
    }
}

/// A backend that produced no result.
public struct BackendFailure: Error, Sendable, Hashable {
    public var message: String
    /// The backend said the solution is beyond `Double`'s range
    /// (``BackendContract/BackendError/outOfRange(backend:constraint:message:)``): the honest
    /// answer when the reference says so too.
    public var isOutOfRange: Bool
    /// The backend declined the system only when it came to solve it
    /// (``BackendContract/BackendError/unsupported(backend:reason:)``: an outside solver that
    /// finds out in its adapter, e.g. a priority GTK has no strength for). That is no answer
    /// and no fault: such an outcome is left out of the judging, as if `supports` had said so.
    public var isUnsupported: Bool
    public init(_ message: String, isOutOfRange: Bool = false, isUnsupported: Bool = false) {
        self.message = message
        self.isOutOfRange = isOutOfRange
        self.isUnsupported = isUnsupported
    }

    /// The failure a thrown error stands for.
    public init(_ error: any Error) {
        switch error {
        case BackendError.outOfRange: self.init("\(error)", isOutOfRange: true)
        case BackendError.unsupported: self.init("\(error)", isUnsupported: true)
        default: self.init("\(error)")
        }
    }
}

/// Judges backends' answers against the spec's meaning of a solution (§5), never trusting a
/// backend's own claims: points are checked for feasibility and their objective is
/// recomputed, exactly; conflicts are re-checked with the exact reference. Each disagreement
/// of a floating-point backend then gets its verdict (``BackwardErrorJudge``); the
/// perturbation that explains it and the case's conditioning are measured when a finding
/// is reported (``FuzzCampaign/measured(_:system:seed:)``).
public struct Comparator: Sendable {
    public var tolerance: Tolerance
    /// The exact backend: its outcome is the reference, and it re-checks conflict sets.
    public var reference: any LayoutBackend
    /// Declared relative precisions by backend name (``BackendContract/relativePrecision(of:)``);
    /// a name not listed is judged with ``BackendContract/defaultRelativePrecision``.
    public var precisions: [String: Double]
    /// Backends that compute exactly: every disagreement of theirs is wrong.
    public var exactBackends: Set<String>
    /// What each of the reference's own checks (a conflict's feasibility, a weighted optimum)
    /// may spend: the campaign's per-solve budget. A check that runs out or fails is a
    /// finding against the reference, never a silent "no claim".
    public var referenceBudget: Budget

    public init(
        reference: any LayoutBackend, tolerance: Tolerance = Tolerance(), backends: [any LayoutBackend] = [],
        referenceBudget: Budget = Budget(iterations: 1_000_000, wallTime: .seconds(10))
    ) {
        self.reference = reference
        self.tolerance = tolerance
        self.referenceBudget = referenceBudget
        var precisions: [String: Double] = [:]
        var exact: Set<String> = [reference.name]
        for backend in backends {
            if let p = relativePrecision(of: backend) { precisions[backend.name] = p } else { exact.insert(backend.name) }
        }
        self.precisions = precisions
        self.exactBackends = exact
    }

    /// The relative precision a backend is judged with (nil: exact).
    public func precision(of backend: String) -> Double? {
        exactBackends.contains(backend) ? nil : precisions[backend] ?? defaultRelativePrecision
    }

    /// Findings about every outcome; the outcome named like the reference is the reference.
    public func compare(_ system: ConstraintSystem, outcomes: [BackendOutcome]) -> [Finding] {
        var findings: [Finding] = []
        let referenceOutOfRange = outcomes.contains {
            if $0.backend == reference.name, case .failure(let failure) = $0.result { failure.isOutOfRange } else { false }
        }
        for outcome in outcomes {
            if case .failure(let failure) = outcome.result {
                // Agreeing with the reference that the solution is no Double is right.
                if failure.isOutOfRange && referenceOutOfRange || failure.isUnsupported { continue }
                findings.append(Finding(kind: .crash, backends: [outcome.backend], detail: failure.message))
            } else if case .success(let result) = outcome.result, result.solution.status == .budgetExceeded {
                findings.append(Finding(
                    kind: .budget, backends: [outcome.backend],
                    detail: "budget exceeded after \(result.statistics.iterations) iterations"))
            }
        }
        if referenceOutOfRange {
            // Whoever answers with a point claims what cannot be: the point is not the solution.
            for outcome in outcomes where outcome.backend != reference.name {
                guard case .success(let result) = outcome.result, result.solution.status != .budgetExceeded else { continue }
                findings.append(Finding(
                    kind: .statusMismatch, backends: [outcome.backend, reference.name],
                    detail: "\(result.solution.status.rawValue); reference: the solution is beyond Double's range"))
            }
            return findings
        }
        guard let referenceOutcome = outcomes.first(where: { $0.backend == reference.name }),
              case .success(let referenceResult) = referenceOutcome.result,
              referenceResult.solution.status != .budgetExceeded
        else { return findings }
        let rows = system.lowered(as: Rational.self)
        let scale = Tolerance.scale(of: system, rows: rows)
        let judge = PointJudge(system: system, rows: rows, bound: tolerance.bound(scale: scale))
        let ref = referenceResult.solution
        // The reference's own point must be feasible and attain its objective.
        findings += judge.check(ref, backend: reference.name, against: ref, referenceName: reference.name)
        findings += checkConflict(system, ref, backend: reference.name)
        let verdicts = BackwardErrorJudge(system: system, rows: rows)
        for outcome in outcomes where outcome.backend != reference.name {
            guard case .success(let result) = outcome.result, result.solution.status != .budgetExceeded else { continue }
            let s = result.solution
            var own: [Finding] = []
            if s.status != ref.status || s.broken != ref.broken {
                own.append(Finding(
                    kind: .statusMismatch, backends: [outcome.backend, reference.name],
                    detail: "\(s.status.rawValue) broken \(s.broken.map(system.constraintName)); reference \(ref.status.rawValue) broken \(ref.broken.map(system.constraintName))"))
            } else {
                own += judge.check(s, backend: outcome.backend, against: ref, referenceName: reference.name)
                if s.ambiguous != ref.ambiguous {
                    own.append(Finding(
                        kind: .ambiguityMismatch, backends: [outcome.backend, reference.name],
                        detail: "ambiguous \(s.ambiguous.map(system.unknownName)); reference \(ref.ambiguous.map(system.unknownName))"))
                }
                own += checkConflict(system, s, backend: outcome.backend)
            }
            let precision = precision(of: outcome.backend)
            findings += own.map { verdicts.classify($0, answer: s, reference: ref, precision: precision) }
        }
        return findings
    }

    /// A reported conflict must contain the first broken constraint, be infeasible on its own,
    /// and become feasible without any one of its members (checked by the exact reference:
    /// for another backend's conflict, one solve when the reference's conflict of the
    /// reported rows is all of them; else one more per member).
    func checkConflict(_ system: ConstraintSystem, _ s: Solution, backend: String) -> [Finding] {
        guard let first = s.broken.first else {
            if !s.conflict.isEmpty {
                return [Finding(kind: .badConflict, backends: [backend], detail: "a conflict without broken constraints")]
            }
            return []
        }
        let names = s.conflict.map(system.constraintName)
        guard s.conflict.contains(first) else {
            return [Finding(kind: .badConflict, backends: [backend],
                            detail: "conflict \(names) misses the first broken \(system.constraintName(first))")]
        }
        guard s.conflict.allSatisfy({ system.constraints.indices.contains($0) && system.constraints[$0].priority.isRequired }) else {
            return [Finding(kind: .badConflict, backends: [backend], detail: "conflict \(names) names optional or unknown constraints")]
        }
        switch feasibility(of: s.conflict, in: system) {
        case .feasible:
            return [Finding(kind: .badConflict, backends: [backend], detail: "conflict \(names) is feasible")]
        case .undecided(let finding):
            return [finding(names)]
        case .infeasible(let irreducible) where irreducible.count == s.conflict.count && backend != reference.name:
            // The reference's own conflict of these rows is irreducible (its certificate
            // shows it): all of them, so the reported one is irreducible too. Not for the
            // reference's own conflict: a fault there would repeat itself on the subset, so
            // that one is checked member by member.
            return []
        case .infeasible:
            break
        }
        for member in s.conflict {
            switch feasibility(of: s.conflict.filter { $0 != member }, in: system) {
            case .infeasible:
                return [Finding(kind: .badConflict, backends: [backend],
                                detail: "conflict \(names) is not irreducible: still infeasible without \(system.constraintName(member))")]
            case .undecided(let finding):
                return [finding(names)]
            case .feasible:
                continue
            }
        }
        return []
    }

    /// What the reference says of a set of required constraints.
    enum Feasibility {
        case feasible
        /// Infeasible, with the reference's irreducible conflict among them (indices into
        /// the rows asked about).
        case infeasible(conflict: [Int])
        /// The reference ran out of ``referenceBudget`` or failed: the finding against it,
        /// given the conflict's names.
        case undecided(@Sendable ([String]) -> Finding)
    }

    /// Whether the listed required constraints can hold together, decided by the reference
    /// within ``referenceBudget``.
    func feasibility(of indices: [Int], in system: ConstraintSystem) -> Feasibility {
        var subsystem = system
        subsystem.constraints = indices.map { system.constraints[$0] }
        subsystem.rowScales = [:]
        let name = reference.name
        let result: BackendResult
        do {
            result = try reference.solve(subsystem, budget: referenceBudget)
        } catch {
            let message = "\(error)"
            return .undecided { names in
                Finding(kind: .crash, backends: [name], detail: "the reference failed checking conflict \(names): \(message)")
            }
        }
        switch result.solution.status {
        case .optimal: return .feasible
        case .unsatisfiable: return .infeasible(conflict: result.solution.conflict)
        case .budgetExceeded:
            let iterations = result.statistics.iterations
            return .undecided { names in
                Finding(kind: .budget, backends: [name],
                        detail: "the reference ran out of its budget checking conflict \(names) (\(iterations) iterations)")
            }
        }
    }
}

/// Checks one point against the system exactly: feasibility of the kept required rows,
/// the objective per level, and determined values against a reference solution.
struct PointJudge {
    let system: ConstraintSystem
    let rows: LinearSystem<Rational>
    let bound: Double

    /// The point as exact rationals: the backend's exact values when it has them, else its
    /// Doubles converted exactly.
    func exactPoint(_ s: Solution) -> [Rational]? {
        if let exact = s.exactValues, exact.count == rows.variableCount {
            let values = exact.compactMap(Rational.init)
            if values.count == exact.count { return values }
        }
        guard s.values.count == rows.variableCount else { return nil }
        var point: [Rational] = []
        point.reserveCapacity(s.values.count)
        for v in s.values {
            guard let r = Rational(exactly: v) else { return nil }
            point.append(r)
        }
        return point
    }

    /// The error of a row at a point: |d|, max(0, d) or max(0, −d).
    static func error(_ d: Rational, _ relation: Relation) -> Rational {
        switch relation {
        case .equal: return d.sign < 0 ? -d : d
        case .lessThanOrEqual: return d.sign > 0 ? d : .zero
        case .greaterThanOrEqual: return d.sign < 0 ? -d : .zero
        }
    }

    /// The exact objective vector E(p) at a point.
    func objective(at point: [Rational]) -> [Rational] {
        var sums = Array(repeating: Rational.zero, count: rows.levels.count)
        for row in rows.rows where row.level > 0 {
            sums[row.level - 1] += Self.error(row.value(at: point), row.relation)
        }
        return sums
    }

    func check(_ s: Solution, backend: String, against ref: Solution, referenceName: String) -> [Finding] {
        guard let point = exactPoint(s) else {
            return [Finding(kind: .infeasiblePoint, backends: [backend], detail: "the point has \(s.values.count) values, not \(rows.variableCount), or is not finite")]
        }
        var findings: [Finding] = []
        let broken = Set(s.broken)
        var worst: (Int, Double)?
        for row in rows.rows where row.isRequired && !broken.contains(row.constraintIndex) {
            let violation = Self.error(row.value(at: point), row.relation).doubleValue
            if violation > bound && violation > (worst?.1 ?? 0) { worst = (row.constraintIndex, violation) }
        }
        if let (index, violation) = worst {
            findings.append(Finding(
                kind: .infeasiblePoint, backends: [backend],
                detail: "required \(system.constraintName(index)) violated by \(violation) (bound \(bound))"))
        }
        let mine = objective(at: point)
        let theirs: [Rational] = ref.exactObjective.flatMap { texts in
            let values = texts.compactMap(Rational.init)
            return values.count == texts.count ? values : nil
        } ?? ref.objective.compactMap { Rational(exactly: $0) }
        if theirs.count == mine.count {
            for level in mine.indices {
                let rowsAtLevel = rows.rows.lazy.filter { $0.level == level + 1 }.count
                let excess = (mine[level] - theirs[level]).doubleValue
                if excess > bound * Double(max(rowsAtLevel, 1)) {
                    findings.append(Finding(
                        kind: .suboptimal, backends: [backend, referenceName],
                        detail: "error at @\(rows.levels[level]) is \(mine[level].doubleValue), optimum \(theirs[level].doubleValue)"))
                    break
                }
            }
        }
        if backend != referenceName, let refPoint = exactPoint(ref) {
            let ambiguous = Set(ref.ambiguous.map(\.variable))
            for v in 0..<rows.variableCount where !ambiguous.contains(v) {
                let difference = (point[v] - refPoint[v]).doubleValue
                if abs(difference) > bound {
                    findings.append(Finding(
                        kind: .determinedMismatch, backends: [backend, referenceName],
                        detail: "\(system.unknownName(Unknown(variable: v))) = \(s.values[v]), reference \(refPoint[v].doubleValue)"))
                    break
                }
            }
        }
        return findings
    }
}
