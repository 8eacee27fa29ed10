import BackendContract
import ExactArithmetic
import LayoutModel

/// Judges a backend by the semantics it declares (``BackendCapabilities``) rather than by
/// the format's alone: outside solvers that weigh priorities instead of ordering them, or
/// that do not report ambiguity or conflicts (docs/outside-solvers.md).
///
/// What is wrong by any semantics stays a finding: a crash or hang, a violated accepted
/// required constraint, a broken list that differs from the required walk's (a false
/// "unsatisfiable" or a false accept), a point worse than the optimum of the solver's own
/// objective, a wrong determined value where the solver did reach the lexicographic
/// optimum, a wrong reported ambiguity or conflict. For a weighted solver (Σ w(p)·E(p)), a
/// point that attains its own weighted optimum but not the lexicographic one is a
/// `semantics` note: the weighting explains the difference. Parts a backend does not report
/// are not judged.
struct SemanticsJudge: Sendable {
    let comparator: Comparator

    /// Findings about `outcome`, against the reference's solution when there is one.
    func judge(_ system: ConstraintSystem, _ outcome: BackendOutcome, capabilities: BackendCapabilities, reference: Solution?) -> [Finding] {
        let backend = outcome.backend
        let result: BackendResult
        switch outcome.result {
        case .failure(let failure):
            if failure.isUnsupported { return [] }
            return [Finding(kind: .crash, backends: [backend], detail: failure.message)]
        case .success(let r):
            result = r
        }
        if result.solution.status == .budgetExceeded {
            return [Finding(kind: .budget, backends: [backend], detail: "budget exceeded (the adapter ran out of the request's time)")]
        }
        guard let ref = reference else { return [] }
        let referenceName = comparator.reference.name
        let s = result.solution
        let reports = result.reports ?? capabilities.reports
        let rows = system.lowered(as: Rational.self)
        let bound = Self.rounded(comparator.tolerance.bound(scale: Tolerance.scale(of: system, rows: rows)),
                                 unit: capabilities.roundingUnit, rows: rows)
        let judge = PointJudge(system: system, rows: rows, bound: bound)
        guard let point = judge.exactPoint(s) else {
            return [Finding(kind: .infeasiblePoint, backends: [backend],
                            detail: "the point has \(s.values.count) values, not \(rows.variableCount), or is not finite")]
        }
        var findings: [Finding] = []
        if let violated = violatedRequired(point, rows: rows, broken: Set(s.broken), bound: bound) {
            findings.append(Finding(
                kind: .infeasiblePoint, backends: [backend],
                detail: "accepted required \(system.constraintName(violated.index)) violated by \(violated.amount) (bound \(bound))"))
        }
        if reports.broken, s.broken != ref.broken {
            findings.append(Finding(
                kind: .statusMismatch, backends: [backend, referenceName],
                detail: Self.brokenDifference(system, mine: s.broken, reference: ref.broken)))
            return findings
        }
        guard findings.isEmpty else { return findings }

        let mine = judge.objective(at: point)
        let lexicographic = exactObjective(ref)
        switch capabilities.priorities {
        case .lexicographic:
            // Feasibility was checked above; the objective per level and the determined values
            // (those the reference finds determined) as the comparator does.
            findings += judge.check(s, backend: backend, against: ref, referenceName: referenceName)
                .filter { $0.kind != .infeasiblePoint }
        case .weighted(let mapping):
            findings += judgeWeighted(system, s, point: point, mine: mine, lexicographic: lexicographic, mapping: mapping,
                                      rows: rows, bound: bound, judge: judge, reference: ref, backend: backend,
                                      rounds: capabilities.roundingUnit != nil)
        }
        if reports.ambiguity, findings.isEmpty, s.ambiguous != ref.ambiguous {
            findings.append(Finding(
                kind: .ambiguityMismatch, backends: [backend, referenceName],
                detail: "ambiguous \(s.ambiguous.map(system.unknownName)); reference \(ref.ambiguous.map(system.unknownName))"))
        }
        if reports.conflict {
            findings += comparator.checkConflict(system, s, backend: backend)
        }
        return findings
    }

    /// The bound for a backend that rounds its values to `unit` (whole pixels): each value
    /// may be off by one unit, so a row by the unit times the sum of its coefficients'
    /// magnitudes; the bound grows by the largest such amount. A wrong choice between
    /// solutions, a violated required row or a wrongly traded priority moves a value by more.
    static func rounded(_ bound: Double, unit: Double?, rows: LinearSystem<Rational>) -> Double {
        guard let unit, unit > 0 else { return bound }
        var widest = 1.0
        for row in rows.rows { widest = max(widest, row.terms.reduce(0) { $0 + abs($1.coefficient.doubleValue) }) }
        return bound + unit * widest
    }

    /// The worst violated required row that the backend kept.
    func violatedRequired(_ point: [Rational], rows: LinearSystem<Rational>, broken: Set<Int>, bound: Double) -> (index: Int, amount: Double)? {
        var worst: (index: Int, amount: Double)?
        for row in rows.rows where row.isRequired && !broken.contains(row.constraintIndex) {
            let violation = PointJudge.error(row.value(at: point), row.relation).doubleValue
            if violation > bound && violation > (worst?.amount ?? 0) { worst = (row.constraintIndex, violation) }
        }
        return worst
    }

    static func brokenDifference(_ system: ConstraintSystem, mine: [Int], reference: [Int]) -> String {
        let falseRejects = mine.filter { !reference.contains($0) }.map(system.constraintName)
        let falseAccepts = reference.filter { !mine.contains($0) }.map(system.constraintName)
        var parts = ["rejected \(mine.map(system.constraintName)); the required walk breaks \(reference.map(system.constraintName))"]
        if !falseRejects.isEmpty { parts.append("false 'unsatisfiable' for \(falseRejects)") }
        if !falseAccepts.isEmpty { parts.append("false accept of \(falseAccepts)") }
        return parts.joined(separator: "; ")
    }

    func exactObjective(_ s: Solution) -> [Rational] {
        s.exactObjective.flatMap { texts in
            let values = texts.compactMap(Rational.init)
            return values.count == texts.count ? values : nil
        } ?? s.objective.compactMap { Rational(exactly: $0) }
    }

    /// The weights of the levels under a mapping, exactly.
    static func weights(_ mapping: BackendCapabilities.WeightMapping, levels: [Priority]) -> [Rational] {
        levels.map { level in
            let (scale, priority) = mapping.weight(of: level)
            return Rational(literal: scale) * Rational(literal: priority)
        }
    }

    /// The exact optimum of the weighted objective for the kept required rows, from the
    /// reference within the comparator's ``Comparator/referenceBudget``: nil when the
    /// reference cannot compute one at all, the error when it failed or ran out.
    func weightedOptimum(_ system: ConstraintSystem, broken: [Int], weights: [Rational]) -> Result<WeightedOptimum, BackendError>? {
        guard let exact = comparator.reference as? any WeightedOptimumComputing else { return nil }
        do {
            return .success(try exact.weightedOptimum(system, broken: broken, weights: weights.map(\.description),
                                                      budget: comparator.referenceBudget))
        } catch {
            return .failure(error)
        }
    }

    func judgeWeighted(
        _ system: ConstraintSystem, _ s: Solution, point: [Rational], mine: [Rational], lexicographic: [Rational],
        mapping: BackendCapabilities.WeightMapping, rows: LinearSystem<Rational>, bound: Double, judge: PointJudge,
        reference ref: Solution, backend: String, rounds: Bool = false
    ) -> [Finding] {
        let referenceName = comparator.reference.name
        let weights = Self.weights(mapping, levels: rows.levels)
        let optimum: WeightedOptimum
        switch weightedOptimum(system, broken: ref.broken, weights: weights) {
        case nil:
            return []  // a reference without weighted optima: no claim
        case .failure(let error)?:
            return [Finding(kind: .crash, backends: [referenceName],
                            detail: "the reference failed computing the weighted optimum (\(mapping.description)): \(error)")]
        case .success(let found)?:
            optimum = found
        }
        guard let best = Rational(optimum.value) else {
            return [Finding(kind: .crash, backends: [referenceName], detail: "the reference's weighted optimum \(optimum.value) is not a rational")]
        }
        var value = Rational.zero
        var slack = 0.0
        for (k, w) in weights.enumerated() {
            value += w * mine[k]
            slack += w.doubleValue * Double(max(rows.rows.lazy.filter { $0.level == k + 1 }.count, 1))
        }
        if (value - best).doubleValue > bound * max(slack, 1) {
            return [Finding(
                kind: .suboptimal, backends: [backend, referenceName],
                detail: "weighted objective \(value.doubleValue) is worse than the exact optimum \(best.doubleValue) of the solver's own objective (\(mapping.description))",
                verdict: .wrong)]
        }
        guard lexicographic.count == mine.count else { return [] }
        for level in mine.indices {
            let rowsAtLevel = rows.rows.lazy.filter { $0.level == level + 1 }.count
            let difference = (mine[level] - lexicographic[level]).doubleValue
            if abs(difference) > bound * Double(max(rowsAtLevel, 1)) {
                return [Finding(
                    kind: .suboptimal, backends: [backend, referenceName],
                    detail: "weighted priorities (\(mapping.description)) trade levels: error at @\(rows.levels[level]) is \(mine[level].doubleValue), lexicographically \(lexicographic[level].doubleValue); the point attains the weighted optimum \(best.doubleValue)",
                    verdict: .semantics)]
            }
        }
        // On the lexicographic optimal face: the determined unknowns are the reference's.
        let mismatches = judge.check(s, backend: backend, against: ref, referenceName: referenceName)
            .filter { $0.kind == .determinedMismatch }
        // A rounding solver's level errors are compared with a pixel's allowance per row, which
        // can hide a trade of a few pixels between levels (a label 5 px narrower than its
        // compression resistance asks). Both the lexicographic optimum's weighted objective and
        // the weighted optimum are exact: when the first is larger, the weights themselves move
        // the values, and the difference is the solver's declared semantics.
        let lexicographicValue = zip(weights, lexicographic).reduce(Rational.zero) { $0 + $1.0 * $1.1 }
        if rounds, !mismatches.isEmpty, lexicographicValue > best {
            return mismatches.map { finding in
                var finding = finding
                finding.verdict = .semantics
                finding.verdictNote = "weighted priorities (\(mapping.description)) move determined values: the lexicographic optimum's weighted objective \(lexicographicValue.doubleValue) exceeds the weighted optimum \(best.doubleValue)"
                return finding
            }
        }
        return mismatches
    }
}
