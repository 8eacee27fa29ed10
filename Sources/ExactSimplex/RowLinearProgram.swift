import BackendContract
import ExactArithmetic
import LayoutModel

/// A linear program written as lowered rows, solved exactly by the layout simplex: variables free or
/// nonnegative, constraints `Σ aⱼxⱼ REL b`, a linear objective to minimise.
///
/// The fuzzer's judge uses it for programs that are not layouts (the perturbation
/// programs of its backward-error verdicts). Every answer is checked before it is returned:
/// an optimal point is substituted into every constraint, an infeasibility certificate is
/// verified as a Farkas vector, so a wrong answer of the simplex becomes ``Outcome/failed(_:)``
/// rather than a wrong verdict.
public struct RowLinearProgram: Sendable {
    /// The values a variable may take.
    public enum Domain: Sendable, Hashable {
        case free
        case nonnegative
    }

    /// How a solve ended.
    public enum Outcome: Sendable {
        /// An optimal point (every variable) and the objective's value there.
        case optimal(values: [Rational], objective: Rational)
        /// No point satisfies the constraints (checked through a Farkas certificate).
        case infeasible
        /// The objective decreases without bound.
        case unbounded
        /// The budget ran out first.
        case budgetExceeded
        /// The simplex failed, or its answer did not check.
        case failed(String)
    }

    public private(set) var domains: [Domain] = []
    /// Constraints as lowered rows `Σ terms + constant REL 0` (level 0).
    public private(set) var constraints: [LinearRow<Rational>] = []

    public init() {}

    public var variableCount: Int { domains.count }

    /// Adds a variable and returns its index.
    @discardableResult
    public mutating func addVariable(_ domain: Domain) -> Int {
        domains.append(domain)
        return domains.count - 1
    }

    /// Adds `Σ coefficient·x[variable] REL rhs` (terms may repeat a variable; they are summed).
    public mutating func addConstraint(_ terms: [(variable: Int, coefficient: Rational)], _ relation: Relation, _ rhs: Rational) {
        var merged: [Int: Rational] = [:]
        for (variable, coefficient) in terms where !coefficient.isZero {
            merged[variable, default: .zero] += coefficient
        }
        let sorted = merged.filter { !$0.value.isZero }.sorted { $0.key < $1.key }
            .map { LinearTerm(variable: $0.key, coefficient: $0.value) }
        constraints.append(LinearRow(
            terms: sorted, constant: -rhs, relation: relation, level: 0, constraintIndex: constraints.count))
    }

    /// Minimises `Σ costs[j]·x[j]` (an empty dictionary asks for any feasible point).
    public func minimize(_ costs: [Int: Rational], budget: Budget = Budget(iterations: 200_000)) -> Outcome {
        let system = LinearSystem(variableCount: variableCount, rows: constraints, levels: [])
        var program = LinearProgram(system: system, selected: Array(constraints.indices))
        for (j, domain) in domains.enumerated() where domain == .nonnegative { program.kinds[j] = .nonnegative }
        var meter = BudgetMeter(budget)
        do {
            var engine = try SimplexEngine(program: program, order: ExactSolve.crashOrder(program))
            if let farkas = try engine.makeFeasible(meter: &meter) {
                return checkFarkas(farkas, program: program)
            }
            switch try engine.minimize(costs: costs, meter: &meter) {
            case .unbounded: return .unbounded
            case .optimal:
                let values = (0..<variableCount).map { engine.value(of: $0) }
                if let problem = violation(at: values) { return .failed("the optimum does not check: \(problem)") }
                var objective = Rational.zero
                for (j, c) in costs { objective.addProduct(c, values[j]) }
                return .optimal(values: values, objective: objective)
            }
        } catch {
            switch error {
            case .budgetExceeded: return .budgetExceeded
            case .internalFailure(let message): return .failed(message)
            }
        }
    }

    /// The first constraint or domain the point breaks, if any.
    public func violation(at values: [Rational]) -> String? {
        for (j, domain) in domains.enumerated() where domain == .nonnegative && values[j].sign < 0 {
            return "variable \(j) is negative"
        }
        for row in constraints where !row.holds(at: values) {
            return "constraint \(row.constraintIndex)"
        }
        return nil
    }

    /// Checks the engine's Farkas vector `y` (`yᵀA_j ≤ 0` on nonnegative columns, `= 0` on
    /// free ones, `= 0` on artificial ones being free to sign, `yᵀb > 0`).
    private func checkFarkas(_ y: [Rational], program: LinearProgram) -> Outcome {
        var rhs = Rational.zero
        for (r, value) in y.enumerated() { rhs.addProduct(value, program.rhs[r]) }
        guard rhs.sign > 0 else { return .failed("a Farkas vector with yᵀb ≤ 0") }
        for j in 0..<program.columnCount {
            let d = program.dot(y, column: j)
            switch program.kinds[j] {
            case .free: if !d.isZero { return .failed("a Farkas vector that does not cancel free column \(j)") }
            case .nonnegative: if d.sign > 0 { return .failed("a Farkas vector positive on column \(j)") }
            case .fixedZero: break
            }
        }
        return .infeasible
    }
}

extension LinearRow<Rational> {
    /// Whether the point satisfies the row exactly: `Σ terms + constant REL 0`.
    func holds(at point: [Rational]) -> Bool {
        let d = value(at: point)
        switch relation {
        case .equal: return d.isZero
        case .lessThanOrEqual: return d.sign <= 0
        case .greaterThanOrEqual: return d.sign >= 0
        }
    }
}
