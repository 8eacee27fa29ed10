import BackendContract
import CertificateChecker
import ExactArithmetic
import ExactSimplex
import Foundation
import Generator
import LayoutModel

/// Checks the exact reference itself, so that a bug in the judge of every other backend
/// does not go unnoticed: its certificate is verified by the independent
/// ``CertificateChecker`` (the point, the broken list and its Farkas certificates, the
/// conflict's infeasibility and irreducibility, every level's optimum), and its determined
/// and ambiguous unknowns are decided again by the slow min/max method and compared; a few
/// of the unknowns it calls determined are also minimised and maximised over the optimal
/// face written independently (every level's error sum bounded by its optimum), in a
/// program that shares nothing with the lexicographic phase. Every disagreement is a
/// finding against the exact backend (verdict `wrong`).
struct ReferenceCheck: Sendable {
    let exact: ExactSimplexBackend
    /// The same backend deciding determinacy with a min and a max LP per unknown.
    var redecider: ExactSimplexBackend {
        var copy = exact
        copy.determinacy = .minimumAndMaximum
        return copy
    }

    /// The certificate's verdict as findings (none when verified).
    func certificateFindings(_ system: ConstraintSystem, _ solution: Solution, _ certificate: SolutionCertificate) -> [Finding] {
        guard solution.status != .budgetExceeded else { return [] }
        let verdict: CertificateVerdict
        do {
            verdict = CertificateVerifier.verify(
                certificate: try JSONEncoder().encode(certificate), system: system, solution: solution)
        } catch {
            return [Finding(kind: .badCertificate, backends: [exact.name], detail: "the certificate does not encode: \(error)")]
        }
        guard case .rejected(let reasons) = verdict else { return [] }
        return [Finding(
            kind: .badCertificate, backends: [exact.name],
            detail: "the independent checker rejects the certificate: " + reasons.prefix(3).joined(separator: "; "))]
    }

    /// The min/max method's answer compared with the reference's.
    func redecisionFindings(_ system: ConstraintSystem, _ solution: Solution, budget: Budget) -> [Finding] {
        guard solution.status != .budgetExceeded,
              let again = try? redecider.solve(system, budget: budget), again.solution.status != .budgetExceeded
        else { return [] }
        let other = again.solution
        if other.status != solution.status || other.broken != solution.broken || other.exactObjective != solution.exactObjective {
            return [Finding(
                kind: .statusMismatch, backends: [exact.name, "exact min/max"],
                detail: "solved again with min/max determinacy: \(other.status.rawValue), broken \(other.broken.map(system.constraintName)), objective \(other.exactObjective ?? []); first \(solution.status.rawValue), broken \(solution.broken.map(system.constraintName)), objective \(solution.exactObjective ?? [])")]
        }
        guard other.ambiguous != solution.ambiguous else { return [] }
        let shortcut = Set(solution.ambiguous), slow = Set(other.ambiguous)
        let falselyAmbiguous = shortcut.subtracting(slow).sorted().map(system.unknownName)
        let falselyDetermined = slow.subtracting(shortcut).sorted().map(system.unknownName)
        return [Finding(
            kind: .ambiguityMismatch, backends: [exact.name, "exact min/max"],
            detail: "the min/max method finds \(falselyAmbiguous) determined and \(falselyDetermined) ambiguous, against the final-basis shortcut")]
    }

    /// At most this many determined unknowns per case are checked against the face program.
    static let faceChecks = 4

    /// Some unknowns the reference calls determined (chosen by `seed`), minimised and
    /// maximised over the optimal face: the kept required rows, every optional row's
    /// `d = p − n`, and each level's error sum at most its optimum.
    func faceFindings(_ system: ConstraintSystem, _ solution: Solution, seed: UInt64) -> [Finding] {
        guard solution.status != .budgetExceeded,
              let optima = solution.exactObjective?.compactMap(Rational.init),
              let values = solution.exactValues?.compactMap(Rational.init), values.count == system.variableCount
        else { return [] }
        let lowered = system.lowered(as: Rational.self)
        guard optima.count == lowered.levels.count else { return [] }
        var determined = (0..<system.variableCount).filter { !solution.ambiguous.contains(Unknown(variable: $0)) }
        guard !determined.isEmpty else { return [] }
        var random = SeededGenerator(seed: SplitMix64.mix(seed ^ 0xface))
        random.shuffle(&determined)
        var program = RowLinearProgram()
        for _ in 0..<system.variableCount { program.addVariable(.free) }
        var levelSums = [[(variable: Int, coefficient: Rational)]](repeating: [], count: optima.count)
        let broken = Set(solution.broken)
        for row in lowered.rows {
            let terms = row.terms.map { (variable: $0.variable, coefficient: $0.coefficient) }
            if row.isRequired {
                if !broken.contains(row.constraintIndex) { program.addConstraint(terms, row.relation, -row.constant) }
                continue
            }
            let p = program.addVariable(.nonnegative), n = program.addVariable(.nonnegative)
            program.addConstraint(terms + [(p, -Rational.one), (n, .one)], .equal, -row.constant)
            if row.relation != .greaterThanOrEqual { levelSums[row.level - 1].append((p, .one)) }
            if row.relation != .lessThanOrEqual { levelSums[row.level - 1].append((n, .one)) }
        }
        for (k, terms) in levelSums.enumerated() where !terms.isEmpty {
            program.addConstraint(terms, .lessThanOrEqual, optima[k])
        }
        for v in determined.prefix(Self.faceChecks) {
            for sign in [Rational.one, -Rational.one] {
                guard case .optimal(let point, _) = program.minimize([v: sign]) else { continue }
                if point[v] != values[v] {
                    return [Finding(
                        kind: .ambiguityMismatch, backends: [exact.name, "optimal-face program"],
                        detail: "\(system.unknownName(Unknown(variable: v))) is called determined at \(values[v]), yet reaches \(point[v]) on the optimal face")]
                }
            }
        }
        return []
    }
}
