import BackendContract
import ExactSimplex
import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

/// Agreement with the exact backend on generated systems: status, broken constraints, the
/// objective vector within tolerance and the values of every unknown the exact backend
/// finds determined. Conflicts are checked to be irreducible infeasible subsets (they need
/// not be the exact backend's: a system can have several). Ambiguity is an estimate; its
/// disagreements are counted, and must stay rare.
@Suite struct ExactAgreementTests {
    static let sizes = [1, 2, 3, 5]
    static let seedsPerSize: UInt64 = 16

    struct Tally {
        var systems = 0
        var ambiguityDisagreements = 0
    }

    /// Families built so that a difference of about 1e-9 (gaps, overlaps, reciprocal
    /// products 1 ± 1e-10) decides the answer: below the epsilon policy by design, so the
    /// exact backend decides and this one is only required to be self-consistent.
    static let belowTolerance: Set<String> = ["reciprocal-multipliers", "near-conflicts"]

    @Test(arguments: Families.all.map(\.name).filter { !belowTolerance.contains($0) })
    func agreesWithTheExactBackend(_ familyName: String) throws {
        let family = try #require(Families.named(familyName))
        var tally = Tally()
        for size in Self.sizes {
            for seed in 0..<Self.seedsPerSize {
                let generated = generate(family: family, size: size, campaign: 8, index: seed)
                try check(generated, tally: &tally)
            }
        }
        // The heuristic may disagree on degenerate vertices; it must not do so often.
        #expect(tally.ambiguityDisagreements * 10 <= tally.systems, "ambiguity disagreed on \(tally.ambiguityDisagreements) of \(tally.systems)")
    }

    /// Below the tolerance the backend treats 1e-9 gaps and overlaps, and near-reciprocal
    /// pairs, as exact: every kept required constraint holds within the tolerance, nothing is
    /// broken, and the objective vector matches the returned point.
    @Test(arguments: belowTolerance.sorted())
    func isSelfConsistentBelowTheTolerance(_ familyName: String) throws {
        let family = try #require(Families.named(familyName))
        for size in Self.sizes {
            for seed in 0..<Self.seedsPerSize {
                let system = generate(family: family, size: size, campaign: 8, index: seed).system
                let linear = try #require(CassowaryBackend.lower(system))
                let solution = try CassowaryBackend().solve(system, budget: .unlimited).solution
                #expect(solution.status == .optimal)
                let scale = linear.rows.map { abs($0.constant) }.max() ?? 1
                for row in linear.rows where row.isRequired {
                    let d = row.value(at: solution.values)
                    let slack = switch row.relation {
                    case .equal: abs(d)
                    case .lessThanOrEqual: max(0, d)
                    case .greaterThanOrEqual: max(0, -d)
                    }
                    #expect(slack <= 1e-8 * max(1, scale))
                }
            }
        }
    }

    func check(_ generated: GeneratedCase, tally: inout Tally) throws {
        let system = generated.system
        let exact = try ExactSimplexBackend().solve(system, budget: Budget(wallTime: .seconds(20))).solution
        guard exact.status != .budgetExceeded else { return }
        let float = try CassowaryBackend().solve(system, budget: .unlimited).solution
        tally.systems += 1
        if try !checkAgreement(float, exact, system: system, name: generated.fileName) { tally.ambiguityDisagreements += 1 }
    }

    /// Checks a float answer against the exact one on `system` (see the suite's comment);
    /// returns whether their ambiguity estimates agree.
    func checkAgreement(_ float: Solution, _ exact: Solution, system: ConstraintSystem, name: String) throws -> Bool {
        #expect(float.status == exact.status, "\(name): status \(float.status) vs \(exact.status)")
        #expect(float.broken == exact.broken, "\(name): broken \(float.broken) vs \(exact.broken)")
        let scale = system.constraints.map { abs($0.constant.doubleValue) }.max() ?? 1
        let tolerance = 1e-7 * max(1, scale)
        #expect(float.objective.count == exact.objective.count)
        for (f, e) in zip(float.objective, exact.objective) {
            #expect(abs(f - e) <= tolerance * max(1, abs(e) / max(1, scale)) + tolerance, "\(name): objective \(float.objective) vs \(exact.objective)")
        }
        let undetermined = Set(exact.ambiguous)
        for variable in 0..<system.variableCount where !undetermined.contains(Unknown(variable: variable)) {
            let f = float.values[variable], e = exact.values[variable]
            #expect(abs(f - e) <= tolerance * 10, "\(name): \(system.unknownName(Unknown(variable: variable))) = \(f) vs \(e)")
        }
        if !float.conflict.isEmpty {
            try checkIrreducible(float.conflict, first: float.broken.first, system: system, name: name)
        }
        return Set(float.ambiguous) == undetermined
    }

    /// The conflict contains the first broken constraint, is infeasible, and every proper
    /// subset one smaller is feasible (by the independent dense simplex).
    func checkIrreducible(_ conflict: [Int], first: Int?, system: ConstraintSystem, name: String) throws {
        #expect(first.map(conflict.contains) == true, "\(name): conflict \(conflict) lacks first broken \(String(describing: first))")
        let linear = try #require(CassowaryBackend.lower(system))
        let rows = conflict.map { LinearConstraint(linear.rows[$0]) }
        #expect(!denseIsFeasible(rows, variableCount: linear.variableCount), "\(name): conflict \(conflict) is feasible")
        guard rows.count <= 12 else { return }
        for index in rows.indices {
            var subset = rows
            subset.remove(at: index)
            #expect(denseIsFeasible(subset, variableCount: linear.variableCount), "\(name): conflict \(conflict) is reducible")
        }
    }
}
