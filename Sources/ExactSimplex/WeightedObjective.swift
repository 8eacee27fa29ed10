import BackendContract
import ExactArithmetic
import LayoutModel

/// The exact optimum of a *weighted* objective, Σ w_k × E_k over the optional levels: what a
/// weighted solver such as kiwi (strength = priority) minimises instead of the format's
/// lexicographic order. The judge checks such a solver's point against it.
///
/// It is one LP on the same program as the lexicographic solve (the kept required rows and
/// every optional row with its error columns), with the level costs added up under their
/// weights; the unknowns not constant on its optimal face are found as for the lexicographic
/// face (optimal columns with a positive reduced cost fixed at zero first).
extension ExactSimplexBackend: WeightedOptimumComputing {
    public func weightedOptimum(
        _ system: ConstraintSystem, broken: [Int], weights: [String], budget: Budget
    ) throws(BackendError) -> WeightedOptimum {
        var parsed: [Rational] = []
        for text in weights {
            guard let w = Rational(text), w.sign >= 0 else {
                throw .internalFailure(backend: name, message: "weight '\(text)' is not a nonnegative rational")
            }
            parsed.append(w)
        }
        var solve = ExactSolve(system: system, budget: budget, determinacy: determinacy)
        guard parsed.count == solve.lowered.levels.count else {
            throw .internalFailure(backend: name, message: "\(parsed.count) weights for \(solve.lowered.levels.count) levels")
        }
        do {
            return try solve.weightedOptimum(weights: parsed, broken: Set(broken))
        } catch {
            switch error {
            case .budgetExceeded: throw .internalFailure(backend: name, message: "budget exceeded computing a weighted optimum")
            case .internalFailure(let message): throw .internalFailure(backend: name, message: message)
            }
        }
    }
}

extension ExactSolve {
    mutating func weightedOptimum(weights: [Rational], broken: Set<Int>) throws(SolveInterruption) -> WeightedOptimum {
        let rows = lowered.rows.indices.filter { !(lowered.rows[$0].isRequired && broken.contains($0)) }
        guard var engine = try feasibleEngine(rows: rows) else {
            throw .internalFailure("the required constraints less the broken ones are infeasible")
        }
        var costs: [Int: Rational] = [:]
        for (k, weight) in weights.enumerated() where !weight.isZero {
            for (column, cost) in engine.program.levelCosts(k + 1) { costs[column, default: .zero] += weight * cost }
        }
        guard case .optimal = try engine.minimize(costs: costs, meter: &meter) else {
            throw .internalFailure("the weighted objective is unbounded")
        }
        var optimum = Rational.zero
        for (column, cost) in costs { optimum.addProduct(cost, engine.value(of: column)) }
        let duals = engine.duals(costs: costs)
        _ = engine.fixPositiveReducedCosts(duals: duals, costs: costs)
        let ambiguous = try ambiguousUnknowns(engine)
        return WeightedOptimum(
            value: optimum.description, values: engine.unknownValues.map(\.description), ambiguous: ambiguous)
    }
}
