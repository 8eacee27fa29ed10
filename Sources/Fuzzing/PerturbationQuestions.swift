import ExactArithmetic
import LayoutModel

/// The questions the backward-error verdict asks of a ``PerturbedSystem``. Each is a linear
/// program (with branch and bound over the signs of multipliers or directions where a
/// magnitude `|y|` enters), decided in exact arithmetic. A question answered `.infeasible`
/// is a proof that no allowed perturbation does what it asks.
extension PerturbedSystem {
    /// The kept required rows x breaks beyond any allowed perturbation, with the relative
    /// perturbation each would need (Oettli–Prager: exact).
    func rowsBeyondReach(at x: [Rational], kept: Set<Int>) -> [(row: Int, needed: Rational)] {
        var out: [(Int, Rational)] = []
        for (r, row) in rows.enumerated() where row.isRequired && kept.contains(row.constraintIndex) {
            let needed = neededPerturbation(r, at: x)
            if needed > epsilon { out.append((r, needed)) }
        }
        return out
    }

    /// The largest relative perturbation the kept required rows need to hold at x.
    func neededForFeasibility(at x: [Rational], kept: Set<Int>) -> Rational {
        var worst = Rational.zero
        for (r, row) in rows.enumerated() where row.isRequired && kept.contains(row.constraintIndex) {
            let needed = neededPerturbation(r, at: x)
            if needed > worst { worst = needed }
        }
        return worst
    }

    /// Whether x can be optimal at level k (levels above it held at x's own error sums) in
    /// some perturbed system in which it is feasible: a dual certificate of the level
    /// (`docs/exact-backend.md`) for the perturbed system, with complementary slackness at x.
    ///
    /// Multipliers go only on rows that some perturbation makes active at x; an optional row
    /// that no perturbation brings to zero fixes its multiplier at its error weight. The
    /// coefficient perturbation enters the stationarity as `|Σ y_r a_r| ≤ ε Σ |y_r||a_r|`.
    /// A relaxation in two respects, both in the direction that keeps a refutation certain:
    /// each level may use its own coefficient perturbation, and the perturbation that moves
    /// a row's value at x is not tied to the one that moves its multiplier's column.
    func canBeOptimal(level k: Int, at x: [Rational], kept: Set<Int>) -> ComplementarityProgram.Result {
        var program = ComplementarityProgram()
        var contributions = emptyContributions()
        var weights: [Int: Int] = [:]  // level i < k → its ν variable
        for i in 1..<k { weights[i] = program.variable() }
        // Rows whose multiplier may be zero (required rows, optional rows some perturbation
        // makes active at x) and that have a private unknown drop out: their multiplier is zero.
        let candidates = rows.indices.filter { r in
            rows[r].isRequired ? kept.contains(rows[r].constraintIndex) : rows[r].level <= k
        }
        let participating = Set(peeled(candidates) { r in self.rows[r].isRequired || self.canBeActive(r, at: x) })
        for (r, row) in rows.enumerated() where participating.contains(r) {
            if row.isRequired {
                guard kept.contains(row.constraintIndex) else { continue }
                let active = canBeActive(r, at: x)
                switch row.relation {
                case .equal:
                    _ = addMultiplier(r, positive: true, negative: true, into: &program, contributions: &contributions)
                case .lessThanOrEqual:
                    if active { _ = addMultiplier(r, positive: true, negative: false, into: &program, contributions: &contributions) }
                case .greaterThanOrEqual:
                    if active { _ = addMultiplier(r, positive: false, negative: true, into: &program, contributions: &contributions) }
                }
                continue
            }
            guard row.level <= k else { continue }
            let (wPlus, wMinus): (Bool, Bool)
            switch row.relation {
            case .equal: (wPlus, wMinus) = (true, true)
            case .lessThanOrEqual: (wPlus, wMinus) = (true, false)
            case .greaterThanOrEqual: (wPlus, wMinus) = (false, true)
            }
            // y ∈ [−W·w⁻, W·w⁺], W the level's weight (1 at level k, ν_i above it).
            func bound(_ variable: Int, relation: Relation) {
                if let nu = weights[row.level] {
                    program.constrain([(variable, .one), (nu, -Rational.one)], relation, .zero)
                } else {
                    program.constrain([(variable, .one)], relation, .one)
                }
            }
            if canBeActive(r, at: x) {
                let (p, m) = addMultiplier(r, positive: wPlus, negative: wMinus, into: &program, contributions: &contributions)
                if p >= 0 { bound(p, relation: .lessThanOrEqual) }
                if m >= 0 { bound(m, relation: .lessThanOrEqual) }
            } else if residual(r, at: x).sign > 0 {
                if wPlus {
                    let (p, _) = addMultiplier(r, positive: true, negative: false, into: &program, contributions: &contributions)
                    bound(p, relation: .equal)
                }
            } else if wMinus {
                let (_, m) = addMultiplier(r, positive: false, negative: true, into: &program, contributions: &contributions)
                bound(m, relation: .equal)
            }
        }
        addPerturbedStationarity(contributions, into: &program)
        return program.solve()
    }

    /// Whether some perturbation makes the rows `selected` (indices into `rows`, required)
    /// infeasible: a Farkas certificate `λ` of the perturbed rows, `Σ λ_r ã_r = 0` and
    /// `Σ λ_r c̃_r > 0`, normalised to `Σ λ_r c_r + Σ R_r|λ_r| = 1` (R_r the row's ``constantReach(_:)``, εS without rounding). Exact.
    func canBeInfeasible(_ selected: [Int], nodeLimit: Int = 48) -> ComplementarityProgram.Result {
        var program = ComplementarityProgram()
        var contributions = emptyContributions()
        var normalisation: [(Int, Rational)] = []
        for r in peeled(selected) {
            let row = rows[r]
            let (p, m) = addMultiplier(
                r, positive: row.relation != .greaterThanOrEqual, negative: row.relation != .lessThanOrEqual,
                into: &program, contributions: &contributions)
            let allowance = constantReach(r)
            if p >= 0 { normalisation.append((p, row.constant + allowance)) }
            if m >= 0 { normalisation.append((m, -row.constant + allowance)) }
        }
        addPerturbedStationarity(contributions, into: &program)
        program.constrain(normalisation, .equal, .one)
        return program.solve(nodeLimit: nodeLimit)
    }

    /// Whether some perturbation makes the rows `selected` feasible: a point u with
    /// `|a·u + c| ≤ ε(Σ|a_j||u_j| + S)` on equalities and the one-sided forms on inequalities
    /// (Oettli–Prager and Gerlach for interval systems), `u = u⁺ − u⁻`. Exact.
    func canBeFeasible(_ selected: [Int]) -> ComplementarityProgram.Result {
        var program = ComplementarityProgram()
        var split: [Int: (Int, Int)] = [:]
        let selected = peeled(selected)
        for r in selected {
            for term in rows[r].terms where split[term.variable] == nil {
                let plus = program.variable(), minus = program.variable()
                program.complementary(plus, minus)
                split[term.variable] = (plus, minus)
            }
        }
        for r in selected {
            let row = rows[r]
            let allowance = constantReach(r)
            // A − R ≤ 0 (the row can reach ≤ 0) and −A − R ≤ 0 (it can reach ≥ 0).
            var below: [(Int, Rational)] = []
            var above: [(Int, Rational)] = []
            for term in row.terms {
                guard let (plus, minus) = split[term.variable] else { continue }
                let a = term.coefficient, slack = epsilon * term.coefficient.magnitude
                below += [(plus, a - slack), (minus, -a - slack)]
                above += [(plus, -a - slack), (minus, a - slack)]
            }
            if row.relation != .greaterThanOrEqual { program.constrain(below, .lessThanOrEqual, -row.constant + allowance) }
            if row.relation != .lessThanOrEqual { program.constrain(above, .lessThanOrEqual, row.constant + allowance) }
        }
        return program.solve()
    }

    /// Whether, in some perturbed system in which x is feasible, x can move along a
    /// direction h with `h_v = direction` without leaving the lexicographically optimal set:
    /// the direction keeps every required equality (as it may be perturbed) and every
    /// required inequality that no perturbation can leave inactive at x, and changes no
    /// level's error to first order.
    ///
    /// A row that some perturbation makes active and another inactive may be either; an
    /// optional row whose value at x some perturbation brings to zero may sit on either side
    /// of its kink or at it, so its error's derivative along h lies between
    /// `−(w⁺q⁻ + w⁻q⁺)` and `w⁺q⁺ + w⁻q⁻` (q = ã·h = q⁺ − q⁻, the perturbed rate). A
    /// relaxation (each row's perturbation along h is not tied to the one at x), so
    /// `.infeasible` proves v determined in every perturbed system in which x is optimal.
    func canMoveOnOptimalSet(_ v: Int, direction: Int, at x: [Rational], kept: Set<Int>) -> ComplementarityProgram.Result {
        var program = ComplementarityProgram()
        var split: [Int: (Int, Int)] = [:]
        func parts(_ j: Int) -> (Int, Int) {
            if let existing = split[j] { return existing }
            let plus = program.variable(), minus = program.variable()
            program.complementary(plus, minus)
            split[j] = (plus, minus)
            return (plus, minus)
        }
        let (vPlus, vMinus) = parts(v)
        program.constrain([(vPlus, .one), (vMinus, -Rational.one)], .equal, Rational(direction))
        /// Terms of `±a·h − ε Σ|a||h|` (the least the perturbed rate can be, for sign +1).
        func rate(_ r: Int, sign: Rational) -> [(Int, Rational)] {
            var terms: [(Int, Rational)] = []
            for term in rows[r].terms {
                let (plus, minus) = parts(term.variable)
                let a = sign * term.coefficient, slack = epsilon * term.coefficient.magnitude
                terms += [(plus, a - slack), (minus, -a - slack)]
            }
            return terms
        }
        var levelTerms = [[(Int, Rational)]](repeating: [], count: levelCount)
        // Rows with a private unknown (not v) drop out: the unknown absorbs a required
        // equality, and makes an optional row's rate, hence its level's sum, anything at all.
        let candidates = rows.indices.filter { r in
            !rows[r].terms.isEmpty && (rows[r].isRequired
                ? kept.contains(rows[r].constraintIndex) && canBeActive(r, at: x) && mustBeActive(r, at: x) : true)
        }
        let participating = Set(peeled(candidates, pinned: [v]))
        var freeLevels = Set<Int>()
        for r in candidates where !participating.contains(r) && !rows[r].isRequired {
            // Its error's rate is anything, unless its error cannot change (a satisfied `>=` or `<=` side).
            let d = residual(r, at: x)
            let weighted = canBeActive(r, at: x) || (d.sign > 0 ? rows[r].relation != .greaterThanOrEqual : rows[r].relation != .lessThanOrEqual)
            if weighted { freeLevels.insert(rows[r].level) }
        }
        for (r, row) in rows.enumerated() where participating.contains(r) {
            if row.isRequired {
                // ã·h can be ≤ 0 (≤ rows), ≥ 0 (≥ rows), or both (equalities).
                if row.relation != .greaterThanOrEqual { program.constrain(rate(r, sign: .one), .lessThanOrEqual, .zero) }
                if row.relation != .lessThanOrEqual { program.constrain(rate(r, sign: -Rational.one), .lessThanOrEqual, .zero) }
                continue
            }
            // q = q⁺ − q⁻ = ã·h, within ε Σ|a||h| of a·h.
            let qPlus = program.variable(), qMinus = program.variable()
            program.constrain([(qPlus, .one), (qMinus, -Rational.one)] + rate(r, sign: -Rational.one), .lessThanOrEqual, .zero)
            program.constrain([(qPlus, -Rational.one), (qMinus, .one)] + rate(r, sign: .one), .lessThanOrEqual, .zero)
            let wPlus: Rational = row.relation == .greaterThanOrEqual ? .zero : .one
            let wMinus: Rational = row.relation == .lessThanOrEqual ? .zero : .one
            if canBeActive(r, at: x) {
                program.complementary(qPlus, qMinus)
                let e = program.variable(.free)
                program.constrain([(e, .one), (qPlus, -wPlus), (qMinus, -wMinus)], .lessThanOrEqual, .zero)
                program.constrain([(e, -Rational.one), (qMinus, -wPlus), (qPlus, -wMinus)], .lessThanOrEqual, .zero)
                levelTerms[row.level - 1].append((e, .one))
            } else if residual(r, at: x).sign > 0 {
                levelTerms[row.level - 1] += [(qPlus, wPlus), (qMinus, -wPlus)]
            } else {
                levelTerms[row.level - 1] += [(qPlus, -wMinus), (qMinus, wMinus)]
            }
        }
        for (index, terms) in levelTerms.enumerated() where !terms.isEmpty && !freeLevels.contains(index + 1) {
            program.constrain(terms, .equal, .zero)
        }
        return program.solve()
    }

    /// Whether v is ambiguous in every perturbed system: a direction h with
    /// `h_v = direction` that no allowed perturbation of any row (kept required or
    /// optional) turns against, so that from any lexicographically optimal point of any
    /// perturbed system a step along h stays optimal.
    ///
    /// Inequalities must loosen along h even when perturbed (`a·h + εΣ|a||h| ≤ 0` for ≤);
    /// an equality must not meet h, unless it has a private unknown (named by no other row,
    /// and not v) that can absorb the step. A restriction: a feasible program proves
    /// robust ambiguity; an infeasible one proves nothing.
    func isAmbiguousInEveryPerturbation(_ v: Int, direction: Int, kept: Set<Int>) -> Bool {
        let live = rows.indices.filter { !rows[$0].isRequired || kept.contains(rows[$0].constraintIndex) }
        var occurrences = [Int](repeating: 0, count: variableCount)
        for r in live { for term in rows[r].terms { occurrences[term.variable] += 1 } }
        var program = ComplementarityProgram()
        let plus = (0..<variableCount).map { _ in program.variable() }
        let minus = (0..<variableCount).map { _ in program.variable() }
        program.constrain([(plus[v], .one), (minus[v], -Rational.one)], .equal, Rational(direction))
        for r in live {
            let row = rows[r]
            if row.relation == .equal {
                let hasPrivate = row.terms.contains { $0.variable != v && occurrences[$0.variable] == 1 }
                if hasPrivate { continue }
                for term in row.terms {
                    program.constrain([(plus[term.variable], .one)], .lessThanOrEqual, .zero)
                    program.constrain([(minus[term.variable], .one)], .lessThanOrEqual, .zero)
                }
                continue
            }
            // ≤: a·h + ε Σ|a|(h⁺ + h⁻) ≤ 0; ≥: −a·h + ε Σ|a|(h⁺ + h⁻) ≤ 0.
            let sign: Rational = row.relation == .lessThanOrEqual ? .one : -Rational.one
            var terms: [(Int, Rational)] = []
            for term in row.terms {
                let a = sign * term.coefficient, slack = epsilon * term.coefficient.magnitude
                terms += [(plus[term.variable], a + slack), (minus[term.variable], -a + slack)]
            }
            program.constrain(terms, .lessThanOrEqual, .zero)
        }
        if case .feasible = program.solve(nodeLimit: 1) { return true }
        return false
    }
}
