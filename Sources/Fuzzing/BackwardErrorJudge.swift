import BackendContract
import ExactArithmetic
import LayoutModel

/// Decides whether a floating-point backend's disagreement with the exact reference is
/// *wrong* or *ill-conditioned*: whether its answer can be exactly right for a system whose
/// numbers differ from the given one by at most the backend's declared relative precision ε
/// (each nonzero coefficient by ε of itself, each constant by ε of the system's scale S).
///
/// Every question is a linear program in exact arithmetic (``PerturbedSystem``). Each finding
/// class asks a *necessary* condition of "some allowed perturbation makes the answer exactly
/// right" (several are also sufficient); a condition that fails is a proof, so a `wrong`
/// verdict is certain. A finding whose conditions all hold (or whose branch and bound ran
/// out) is `ill-conditioned`, with the smallest ε, to a factor of 2, at which they hold.
/// What each class decides is listed in `docs/fuzzing.md`, "Verdicts".
///
/// A backend that declares a rounding (whole pixels) is judged with it in every question,
/// the status questions (satisfiable or not, which constraints are broken) included: each
/// row's constant may also move by the rounding of the row's value (``PerturbedSystem/rounding``),
/// so a near-conflict (`w ≥ 76.000000001`, `w ≤ 76`) that a pixel hides is ill-conditioned
/// for it, while a broken list no such perturbation explains stays wrong.
struct BackwardErrorJudge {
    let system: ConstraintSystem
    let rows: LinearSystem<Rational>
    private let unit: PerturbedSystem

    /// `roundingUnit`: the backend's declared rounding (``BackendContract/BackendCapabilities/roundingUnit``), nil for none.
    init(system: ConstraintSystem, rows: LinearSystem<Rational>, roundingUnit: Double? = nil) {
        self.system = system
        self.rows = rows
        self.unit = PerturbedSystem(system: system, rows: rows, epsilon: .zero, roundingUnit: roundingUnit)
    }

    /// The outcome of one question at one ε.
    enum Decision: Equatable {
        /// The conditions hold (a witness or a relaxation that could not be refuted).
        case explained(String)
        /// A condition fails: no allowed perturbation explains the answer.
        case refuted(String)
        /// The branch and bound stopped before deciding; treated as explained.
        case undecided(String)

        var isRefuted: Bool { if case .refuted = self { return true }; return false }
    }

    /// The finding with its verdict and a note on it.
    func classify(_ finding: Finding, answer: Solution, reference: Solution, precision: Double?) -> Finding {
        var finding = finding
        guard let precision, precision > 0, let epsilon = Rational(exactly: precision) else {
            finding.verdict = .wrong
            finding.verdictNote = "the backend computes exactly: nothing is forgiven"
            return finding
        }
        switch finding.kind {
        case .crash, .budget, .metamorphicViolation, .badCertificate:
            return finding
        default:
            break
        }
        let decision = decide(finding.kind, answer: answer, reference: reference, epsilon: epsilon)
        switch decision {
        case .refuted(let why):
            finding.verdict = .wrong
            finding.verdictNote = "not explained by a relative perturbation of \(precision): \(why)"
        case .explained:
            finding.verdict = .illConditioned
            finding.verdictNote = "explained by a relative perturbation of at most \(precision)"
        case .undecided(let why):
            finding.verdict = .illConditioned
            finding.verdictNote = "not refuted (\(why))"
        }
        return finding
    }

    /// The finding with the perturbation that explains it measured (ill-conditioned
    /// findings only) and its note saying so.
    func measured(_ finding: Finding, answer: Solution, reference: Solution, precision: Double) -> Finding {
        var finding = finding
        guard finding.verdict == .illConditioned else { return finding }
        let size = smallestExplainingPerturbation(finding.kind, answer: answer, reference: reference, precision: precision)
        finding.perturbation = size
        let base = finding.verdictNote ?? "explained"
        finding.verdictNote = base + "; " + (size.map { "the smallest relative perturbation found to explain it: \($0)" }
            ?? "explained at every perturbation size tried, down to 2⁻⁶⁰ of the precision (this class's conditions do not bound it)")
        return finding
    }

    /// The smallest ε = precision·2⁻ʲ (j ≤ 60) at which the finding is still explained, by
    /// bisection (the conditions only get easier as ε grows); nil when even 2⁻⁶⁰·precision
    /// explains it.
    func smallestExplainingPerturbation(_ kind: Finding.Kind, answer: Solution, reference: Solution, precision: Double) -> Double? {
        func explained(_ j: Int) -> Bool {
            guard let epsilon = Rational(exactly: precision * Double(sign: .plus, exponent: -j, significand: 1)) else { return false }
            return !decide(kind, answer: answer, reference: reference, epsilon: epsilon).isRefuted
        }
        if explained(60) { return nil }
        var lo = 0, hi = 60  // explained at lo, not at hi
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if explained(mid) { lo = mid } else { hi = mid }
        }
        return precision * Double(sign: .plus, exponent: -lo, significand: 1)
    }

    // MARK: The questions per class

    func decide(_ kind: Finding.Kind, answer: Solution, reference: Solution, epsilon: Rational) -> Decision {
        let perturbed = PerturbedSystem(copying: unit, epsilon: epsilon)
        let required = Set(rows.rows.indices.filter { rows.rows[$0].isRequired })
        let kept = required.subtracting(answer.broken)
        guard let x = PointJudge(system: system, rows: rows, bound: 0).exactPoint(answer) else {
            return .refuted("the point is missing or not finite")
        }
        switch kind {
        case .infeasiblePoint:
            return feasibility(perturbed, x, kept)
        case .suboptimal:
            if case .refuted(let why) = feasibility(perturbed, x, kept) { return .refuted(why) }
            let mine = PointJudge(system: system, rows: rows, bound: 0).objective(at: x)
            let theirs = reference.exactObjective?.compactMap(Rational.init) ?? []
            let flagged = (mine.indices.first { $0 < theirs.count && mine[$0] > theirs[$0] } ?? (mine.count - 1)) + 1
            return optimality(perturbed, x, kept, levels: flagged)
        case .determinedMismatch:
            if case .refuted(let why) = feasibility(perturbed, x, kept) { return .refuted(why) }
            return optimality(perturbed, x, kept, levels: rows.levels.count)
        case .statusMismatch:
            return status(perturbed, answer, reference, x, kept)
        case .ambiguityMismatch:
            return ambiguity(perturbed, answer, reference, x, kept)
        case .badConflict:
            return conflict(perturbed, answer)
        case .metamorphicViolation, .crash, .budget, .badCertificate:
            return .refuted("not a numerical disagreement")
        }
    }

    private func feasibility(_ p: PerturbedSystem, _ x: [Rational], _ kept: Set<Int>) -> Decision {
        if let (r, needed) = p.rowsBeyondReach(at: x, kept: kept).max(by: { $0.needed < $1.needed }) {
            return .refuted("required \(system.constraintName(r)) needs a relative perturbation of \(needed.doubleValue) to hold at the point")
        }
        return .explained("")
    }

    private func optimality(_ p: PerturbedSystem, _ x: [Rational], _ kept: Set<Int>, levels: Int) -> Decision {
        var undecided: String?
        for k in stride(from: 1, through: levels, by: 1) {
            switch p.canBeOptimal(level: k, at: x, kept: kept) {
            case .infeasible:
                return .refuted("no perturbed system has the point optimal at @\(rows.levels[k - 1]) (level \(k))")
            case .undecided(let why): undecided = undecided ?? "level \(k): \(why)"
            case .feasible: break
            }
        }
        return undecided.map { .undecided($0) } ?? .explained("")
    }

    private func status(_ p: PerturbedSystem, _ answer: Solution, _ reference: Solution, _ x: [Rational], _ kept: Set<Int>) -> Decision {
        let broken = answer.broken
        guard broken == broken.sorted(), Set(broken).count == broken.count,
              broken.allSatisfy({ rows.rows.indices.contains($0) && rows.rows[$0].isRequired })
        else { return .refuted("the broken list \(broken) is not a sorted list of distinct required constraints") }
        if case .refuted(let why) = feasibility(p, x, kept) { return .refuted(why) }
        var undecided: String?
        for b in broken where !reference.broken.contains(b) {
            let before = kept.filter { $0 < b }.sorted() + [b]
            switch p.canBeInfeasible(before) {
            case .infeasible:
                return .refuted("no perturbation makes \(system.constraintName(b)) infeasible with the constraints kept before it")
            case .undecided(let why): undecided = undecided ?? why
            case .feasible: break
            }
        }
        return undecided.map { .undecided($0) } ?? .explained("")
    }

    /// At most this many unknowns are examined per ambiguity finding (each costs two programs).
    static let ambiguityChecks = 8

    private func ambiguity(_ p: PerturbedSystem, _ answer: Solution, _ reference: Solution, _ x: [Rational], _ kept: Set<Int>) -> Decision {
        let mine = Set(answer.ambiguous.map(\.variable)), theirs = Set(reference.ambiguous.map(\.variable))
        var undecided: String?
        for v in mine.subtracting(theirs).sorted().prefix(Self.ambiguityChecks) {
            var refuted = true
            for direction in [1, -1] {
                switch p.canMoveOnOptimalSet(v, direction: direction, at: x, kept: kept) {
                case .infeasible: continue
                case .undecided(let why): undecided = undecided ?? why
                case .feasible: break
                }
                refuted = false
                break
            }
            if refuted {
                return .refuted("\(system.unknownName(Unknown(variable: v))) is determined in every perturbed system in which the point is optimal")
            }
        }
        for v in theirs.subtracting(mine).sorted().prefix(Self.ambiguityChecks) {
            if p.isAmbiguousInEveryPerturbation(v, direction: 1, kept: kept)
                || p.isAmbiguousInEveryPerturbation(v, direction: -1, kept: kept) {
                return .refuted("\(system.unknownName(Unknown(variable: v))) is ambiguous in every perturbed system")
            }
        }
        return undecided.map { .undecided($0) } ?? .explained("")
    }

    private func conflict(_ p: PerturbedSystem, _ answer: Solution) -> Decision {
        let conflict = answer.conflict
        guard let first = answer.broken.first else {
            return conflict.isEmpty ? .explained("") : .refuted("a conflict without broken constraints")
        }
        guard conflict.contains(first) else { return .refuted("the conflict misses the first broken constraint") }
        guard conflict.allSatisfy({ rows.rows.indices.contains($0) && rows.rows[$0].isRequired }) else {
            return .refuted("the conflict names optional or unknown constraints")
        }
        var undecided: String?
        switch p.canBeInfeasible(conflict) {
        case .infeasible: return .refuted("no perturbation makes the conflict infeasible")
        case .undecided(let why): undecided = why
        case .feasible: break
        }
        for member in conflict {
            switch p.canBeFeasible(conflict.filter { $0 != member }) {
            case .infeasible:
                return .refuted("the conflict stays infeasible without \(system.constraintName(member)) under every perturbation")
            case .undecided(let why): undecided = undecided ?? why
            case .feasible: break
            }
        }
        return undecided.map { .undecided($0) } ?? .explained("")
    }

    // MARK: Conditioning

    /// The case's conditioning, measured on the reference's answer.
    func conditioning(of reference: Solution) -> Finding.Conditioning {
        let required = Set(rows.rows.indices.filter { rows.rows[$0].isRequired })
        let kept = required.subtracting(reference.broken)
        var tight = 0
        if let x = PointJudge(system: system, rows: rows, bound: 0).exactPoint(reference) {
            for row in rows.rows where !row.isRequired || kept.contains(row.constraintIndex) {
                if row.value(at: x).isZero { tight += 1 }
            }
        }
        let keptRows = kept.sorted()
        func infeasibleAt(_ k: Int) -> Bool {
            let p = PerturbedSystem(copying: unit, epsilon: Rational.one / Self.powerOfTwo(k))
            if case .feasible = p.canBeInfeasible(keptRows, nodeLimit: 16) { return true }
            return false
        }
        // ε = 2⁻ᵏ for k in 7…70 (about 1e-2 down to 1e-21).
        var distance: Double?
        if !keptRows.isEmpty, infeasibleAt(7) {
            var lo = 7, hi = 71  // infeasible at 2^-lo; assume not at 2^-hi
            if infeasibleAt(70) { lo = 70 } else {
                hi = 70
                while hi - lo > 1 {
                    let mid = (lo + hi) / 2
                    if infeasibleAt(mid) { lo = mid } else { hi = mid }
                }
            }
            distance = lo == 70 ? 0 : Double(sign: .plus, exponent: -lo, significand: 1)
        }
        return Finding.Conditioning(distanceToInfeasibility: distance, tightRows: tight, unknowns: rows.variableCount)
    }

    static func powerOfTwo(_ k: Int) -> Rational {
        var r = Rational.one
        for _ in 0..<k { r *= Rational(2) }
        return r
    }
}
