import BackendContract
import CertificateChecker
import ExactSimplex
import Foundation
import LayoutModel

/// Checks the exact reference itself, so that a bug in the judge of every other backend
/// does not go unnoticed: its certificate is verified by the independent
/// ``CertificateChecker`` (the point, the broken list and its Farkas certificates, the
/// conflict's infeasibility and irreducibility, every level's optimum), and its determined
/// and ambiguous unknowns are decided again by the slow min/max method and compared.
/// Every disagreement is a finding against the exact backend (verdict `wrong`).
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
}
