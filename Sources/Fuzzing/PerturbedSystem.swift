import ExactArithmetic
import LayoutModel

/// A system's lowered rows with the perturbations the backward-error verdict allows: every
/// nonzero coefficient `a` may move by up to `ε·|a|`, every constant by up to `ε·S` (S the
/// system's scale), independently, while rows, relations and priorities stay. Zero
/// coefficients stay zero.
///
/// A backend that declares a rounding (GTK's whole pixels, ``BackendContract/BackendCapabilities/roundingUnit``)
/// reports each value up to one unit from the point it solved for, so row r's value may be
/// off by up to `unit·Σ_j|a_rj|` before any arithmetic error: its constant may move by that
/// much more (``rounding``). With no rounding (exact, float, kiwisolver, …) nothing changes.
///
/// Each question below is decided exactly (rationals, the exact simplex, branch and bound
/// over signs); see `docs/fuzzing.md`, "Verdicts", for which are exact and which are
/// necessary conditions.
struct PerturbedSystem {
    let rows: [LinearRow<Rational>]
    let levelCount: Int
    let variableCount: Int
    /// S: the largest magnitude among the lowered constants and the root's frame, at least 1.
    let scale: Rational
    /// ε, the relative precision.
    let epsilon: Rational
    /// Per row, how far its constant may move beyond `ε·S` for the backend's declared
    /// rounding: `unit·Σ_j|a_rj|`; empty when the backend declares none.
    let rounding: [Rational]

    /// `roundingUnit`: the unit the backend rounds its values to (nil or 0: none).
    init(system: ConstraintSystem, rows lowered: LinearSystem<Rational>, epsilon: Rational, roundingUnit: Double? = nil) {
        rows = lowered.rows
        levelCount = lowered.levels.count
        variableCount = lowered.variableCount
        scale = Self.scale(of: system, rows: lowered)
        self.epsilon = epsilon
        if let roundingUnit, roundingUnit > 0, let unit = Rational(exactly: roundingUnit) {
            rounding = lowered.rows.map { row in row.terms.reduce(Rational.zero) { $0 + $1.coefficient.magnitude } * unit }
        } else {
            rounding = []
        }
    }

    init(copying other: PerturbedSystem, epsilon: Rational) {
        rows = other.rows
        levelCount = other.levelCount
        variableCount = other.variableCount
        scale = other.scale
        self.epsilon = epsilon
        rounding = other.rounding
    }

    /// How far row r's constant may move: `ε·S`, plus the row's rounding allowance.
    func constantReach(_ r: Int) -> Rational {
        rounding.isEmpty ? epsilon * scale : epsilon * scale + rounding[r]
    }

    /// S, exactly (``Tolerance/scale(of:rows:)`` in rationals).
    static func scale(of system: ConstraintSystem, rows: LinearSystem<Rational>) -> Rational {
        var s = Rational.one
        for row in rows.rows where row.constant.magnitude > s { s = row.constant.magnitude }
        for value in system.root.frame ?? [] {
            let r = Rational(literal: value).magnitude
            if r > s { s = r }
        }
        return s
    }

    // MARK: At a point

    /// `d_r(x)`.
    func residual(_ r: Int, at x: [Rational]) -> Rational { rows[r].value(at: x) }

    /// How far the perturbations can move row r's value at x: `ε(Σ|a_rj x_j| + S)` (the
    /// Oettli–Prager bound: coefficient changes act on the value through `x`), plus the
    /// row's rounding allowance.
    func reach(_ r: Int, at x: [Rational]) -> Rational {
        var sum = Rational.zero
        for term in rows[r].terms { sum += (term.coefficient * x[term.variable]).magnitude }
        return epsilon * sum + constantReach(r)
    }

    /// The relative perturbation row r needs at x to hold: its violation (less the row's
    /// rounding allowance) over `Σ|a_rj x_j| + S` (zero when it holds).
    func neededPerturbation(_ r: Int, at x: [Rational]) -> Rational {
        let d = residual(r, at: x)
        var violation: Rational
        switch rows[r].relation {
        case .equal: violation = d.magnitude
        case .lessThanOrEqual: violation = d.sign > 0 ? d : .zero
        case .greaterThanOrEqual: violation = d.sign < 0 ? -d : .zero
        }
        if !rounding.isEmpty { violation = violation > rounding[r] ? violation - rounding[r] : .zero }
        if violation.isZero { return .zero }
        var sum = scale
        for term in rows[r].terms { sum += (term.coefficient * x[term.variable]).magnitude }
        return violation / sum
    }

    /// Whether some perturbation makes row r hold at x.
    func canHold(_ r: Int, at x: [Rational]) -> Bool { neededPerturbation(r, at: x) <= epsilon }

    /// Whether some perturbation makes row r hold with equality at x.
    func canBeActive(_ r: Int, at x: [Rational]) -> Bool { residual(r, at: x).magnitude <= reach(r, at: x) }

    /// Whether every perturbation that makes inequality row r hold at x makes it hold with
    /// equality (its value at x sits exactly at the edge of its reach).
    func mustBeActive(_ r: Int, at x: [Rational]) -> Bool {
        let d = residual(r, at: x), reach = reach(r, at: x)
        switch rows[r].relation {
        case .equal: return true
        case .lessThanOrEqual: return d - reach == .zero
        case .greaterThanOrEqual: return d + reach == .zero
        }
    }

    // MARK: Peeling

    /// The rows of `selected` that remain after peeling, repeatedly, every row with a
    /// *private* unknown: one that no other remaining row names (and that is not in
    /// `pinned`). Such a row holds whatever the other unknowns are (its private unknown
    /// absorbs it, its coefficient staying nonzero under any allowed perturbation), and in
    /// any certificate of infeasibility or optimality its multiplier is zero (stationarity
    /// at the private unknown). Layouts are mostly triangular, so peeling leaves only their
    /// cycles and conflicts, and keeps the branch and bound small.
    func peeled(_ selected: [Int], pinned: Set<Int> = [], removable: (Int) -> Bool = { _ in true }) -> [Int] {
        var alive = Set(selected)
        var occurrences: [Int: Int] = [:]
        var rowsOf: [Int: [Int]] = [:]
        for r in selected {
            for term in rows[r].terms {
                occurrences[term.variable, default: 0] += 1
                rowsOf[term.variable, default: []].append(r)
            }
        }
        var pending = selected
        while let r = pending.popLast() {
            guard alive.contains(r), removable(r) else { continue }
            guard rows[r].terms.contains(where: { occurrences[$0.variable] == 1 && !pinned.contains($0.variable) }) else { continue }
            alive.remove(r)
            for term in rows[r].terms {
                occurrences[term.variable, default: 1] -= 1
                if occurrences[term.variable] == 1 {
                    pending += (rowsOf[term.variable] ?? []).filter { alive.contains($0) }
                }
            }
        }
        return selected.filter { alive.contains($0) }
    }

    // MARK: Multipliers

    /// The stationarity terms gathered per unknown: the LP variable, the row's coefficient
    /// on the unknown, and the variable's sign in `y_r = p − m`.
    typealias Contributions = [[(variable: Int, coefficient: Rational, sign: Int)]]

    func emptyContributions() -> Contributions { Array(repeating: [], count: variableCount) }

    /// Adds multiplier variables `y_r = p − m` for row r (only `p` for a nonnegative
    /// multiplier, only `m` for a nonpositive one), registering the pair when both exist.
    /// Returns (p, m), -1 for a missing one.
    func addMultiplier(
        _ r: Int, positive: Bool, negative: Bool, into program: inout ComplementarityProgram,
        contributions: inout Contributions
    ) -> (p: Int, m: Int) {
        let p = positive ? program.variable() : -1
        let m = negative ? program.variable() : -1
        if p >= 0 && m >= 0 { program.complementary(p, m) }
        for term in rows[r].terms {
            if p >= 0 { contributions[term.variable].append((p, term.coefficient, 1)) }
            if m >= 0 { contributions[term.variable].append((m, term.coefficient, -1)) }
        }
        return (p, m)
    }

    /// `|Σ_r y_r a_rj| ≤ ε Σ_r |y_r||a_rj|` for every unknown j: a perturbation of the
    /// coefficients (ε relative) makes `Σ y_r ã_r = 0` (with `|y| = p + m`, exact once the
    /// pairs hold).
    func addPerturbedStationarity(_ contributions: Contributions, into program: inout ComplementarityProgram) {
        for terms in contributions where !terms.isEmpty {
            var upper: [(Int, Rational)] = []
            var lower: [(Int, Rational)] = []
            for (variable, a, sign) in terms {
                let signed = sign > 0 ? a : -a
                let slack = epsilon * a.magnitude
                upper.append((variable, signed - slack))
                lower.append((variable, -signed - slack))
            }
            program.constrain(upper, .lessThanOrEqual, .zero)
            program.constrain(lower, .lessThanOrEqual, .zero)
        }
    }
}
