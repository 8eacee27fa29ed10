import Generator
import LayoutModel
import Testing
@testable import FloatSimplex

/// "A rejected constraint leaves no trace": randomised add/remove/reject sequences.
@Suite struct RollbackTests {
    /// A random row over `variables` unknowns; with `base`, sometimes a combination of two
    /// earlier rows (redundant and consistent when both are equalities), which is what naive
    /// implementations wrongly reject.
    static func randomConstraint(
        _ random: inout TestRandom, variables: Int, inequality: Double, level: Int, base: [LinearConstraint]
    ) -> LinearConstraint {
        let equalities = base.filter { $0.relation == .equal && $0.strength.isRequired }
        if equalities.count >= 2 && random.chance(0.3) {
            let a = equalities[random.int(0...(equalities.count - 1))]
            let b = equalities[random.int(0...(equalities.count - 1))]
            let ka = Double(random.int(1...3)), kb = Double(random.int(-2...2))
            var merged: [Int: Double] = [:]
            for t in a.terms { merged[t.variable.index, default: 0] += ka * t.coefficient }
            for t in b.terms { merged[t.variable.index, default: 0] += kb * t.coefficient }
            let terms = merged.sorted { $0.key < $1.key }.filter { $0.value != 0 }.map { ($0.key, $0.value) }
            return constraint(terms, ka * a.constant + kb * b.constant, .equal, level: level)
        }
        var used = Set<Int>()
        var terms: [(Int, Double)] = []
        for _ in 0..<random.int(1...3) {
            let v = random.int(0...(variables - 1))
            if used.insert(v).inserted { terms.append((v, Double(random.int(-3...3)) + (random.chance(0.5) ? 0 : 0.5))) }
        }
        terms.removeAll { $0.1 == 0 }
        if terms.isEmpty { terms = [(random.int(0...(variables - 1)), 1)] }
        let relation: Relation = random.chance(inequality) ? (random.chance(0.5) ? .lessThanOrEqual : .greaterThanOrEqual) : .equal
        return constraint(terms, Double(random.int(-60...60)), relation, level: level)
    }

    /// The brief's measurement: random required systems of 10 unknowns and 20 constraints with
    /// 12% inequalities. Every rejection must be right (the kept set plus the rejected
    /// constraint is infeasible, by an independent dense simplex), every acceptance too, the
    /// point must satisfy all kept constraints, and a rejection must leave no trace.
    @Test func requiredSystemsRejectExactlyTheInfeasibleAndLeaveNoTrace() throws {
        var random = TestRandom(seed: 2001)
        var rejections = 0
        for _ in 0..<200 {
            var solver = CassowarySolver()
            var kept: [LinearConstraint] = []
            for _ in 0..<20 {
                let c = Self.randomConstraint(&random, variables: 10, inequality: 0.12, level: 0, base: kept)
                let before = solver.fingerprint
                do {
                    try solver.addConstraint(c)
                    #expect(denseIsFeasible(kept + [c], variableCount: 10), "accepted an infeasible constraint")
                    kept.append(c)
                } catch {
                    guard case .unsatisfiable = error else {
                        Issue.record("unexpected \(error)")
                        continue
                    }
                    rejections += 1
                    #expect(!denseIsFeasible(kept + [c], variableCount: 10), "rejected a feasible constraint")
                    #expect(solver.fingerprint == before, "a rejected constraint left a trace")
                }
                for k in kept {
                    let r = k.residual { solver.value(of: $0) }
                    let ok = switch k.relation {
                    case .equal: abs(r) <= 1e-6 * 100
                    case .lessThanOrEqual: r <= 1e-6 * 100
                    case .greaterThanOrEqual: r >= -1e-6 * 100
                    }
                    #expect(ok, "kept constraint violated: residual \(r)")
                }
            }
        }
        #expect(rejections > 200)
    }

    /// Add, remove and rejected adds in random order, with optional constraints on several
    /// levels and one stay per variable on its own weakest level (so the optimum is unique):
    /// the end state equals a from-scratch solve of the constraints kept, in the order kept.
    @Test func randomSequencesEndWhereAFreshSolveOfTheKeptConstraintsDoes() throws {
        var random = TestRandom(seed: 77)
        let variables = 8
        for _ in 0..<120 {
            var solver = CassowarySolver()
            var held: [(ConstraintHandle, LinearConstraint)] = []
            var stays: [LinearConstraint] = []
            for v in 0..<variables {
                let stay = constraint([(v, 1)], -random.double(-50...50), .equal, level: 10 + v)
                stays.append(stay)
                try solver.addConstraint(stay)
            }
            for _ in 0..<40 {
                if !held.isEmpty && random.chance(0.3) {
                    let index = random.int(0...(held.count - 1))
                    try solver.removeConstraint(held[index].0)
                    held.remove(at: index)
                    continue
                }
                let level = random.chance(0.6) ? 0 : random.int(1...4)
                let c = Self.randomConstraint(&random, variables: variables, inequality: 0.3, level: level, base: held.map(\.1))
                let before = solver.fingerprint
                do {
                    held.append((try solver.addConstraint(c), c))
                } catch {
                    #expect(solver.fingerprint == before, "a rejected constraint left a trace")
                }
            }
            var fresh = CassowarySolver()
            for stay in stays { try fresh.addConstraint(stay) }
            for (_, c) in held { try fresh.addConstraint(c) }
            let levels = 10 + variables
            let a = solver.objective(levelCount: levels), b = fresh.objective(levelCount: levels)
            for (x, y) in zip(a, b) { #expect(isClose(x, y, tolerance: 1e-6), "objective \(a) vs \(b)") }
            for v in 0..<variables {
                let x = solver.value(of: Variable(v)), y = fresh.value(of: Variable(v))
                #expect(isClose(x, y, tolerance: 1e-6), "v\(v): \(x) vs \(y)")
            }
        }
    }
}
