import Generator
import BackendContract
import CertificateChecker
import ExactArithmetic
import ExactSimplex
import Foundation
import LayoutModel
import Testing

/// Random but valid `.layout` text: views nested at random, and constraints between
/// like attributes with small constants, random relations and random priorities, about
/// half of them required (so conflicts are common).
func randomLayout(seed: UInt64) -> String {
    var rng = SplitMix64(seed: seed)
    let viewCount = Int.random(in: 1...5, using: &rng)
    var lines = ["root superview 400 300"]
    var names = ["superview"]
    for i in 0..<viewCount {
        let parent = Int.random(in: 0...i, using: &rng)
        lines.append(parent == 0 ? "view v\(i)" : "view v\(i) in v\(parent - 1)")
        names.append("v\(i)")
    }
    let horizontal = ["left", "right", "centerX", "leftMargin"]
    let vertical = ["top", "bottom", "centerY", "bottomMargin"]
    let sizes = ["width", "height"]
    let relations = ["==", "<=", ">="]
    let priorities = ["", "", "", "", " @750", " @500", " @250", " @251"]
    let constraintCount = Int.random(in: 2...(6 * viewCount + 2), using: &rng)
    for _ in 0..<constraintCount {
        let a = "v\(Int.random(in: 0..<viewCount, using: &rng))"
        let b = names[Int.random(in: 0..<names.count, using: &rng)]
        let relation = relations[Int.random(in: 0..<3, using: &rng)]
        let value = Int.random(in: -4...40, using: &rng) * 5
        let constant = value < 0 ? "- \(-value)" : "+ \(value)"
        let priority = priorities[Int.random(in: 0..<priorities.count, using: &rng)]
        switch Int.random(in: 0..<4, using: &rng) {
        case 0:
            let attribute = sizes[Int.random(in: 0..<2, using: &rng)]
            lines.append("\(a).\(attribute) \(relation) \(abs(value))\(priority)")
        case 1:
            let attribute = sizes[Int.random(in: 0..<2, using: &rng)]
            let multiplier = ["", "2 * ", "0.5 * "][Int.random(in: 0..<3, using: &rng)]
            lines.append("\(a).\(attribute) \(relation) \(multiplier)\(b).\(sizes[Int.random(in: 0..<2, using: &rng)]) \(constant)\(priority)")
        default:
            let axis = Bool.random(using: &rng) ? horizontal : vertical
            let first = axis[Int.random(in: 0..<axis.count, using: &rng)]
            let second = axis[Int.random(in: 0..<axis.count, using: &rng)]
            let multiplier = Int.random(in: 0..<6, using: &rng) == 0 ? "0.5 * " : ""
            lines.append("\(a).\(first) \(relation) \(multiplier)\(b).\(second) \(constant)\(priority)")
        }
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Every multiplier of a certificate that sits on a row with unknowns (changing one of
/// those always breaks the certificate's cancellation), with a way to change it.
private func corruptions(_ certificate: SolutionCertificate, rows: [LinearRow<Rational>]) -> [SolutionCertificate] {
    func bumped(_ value: String) -> String { ((Rational(value) ?? .zero) + Rational(1)).description }
    func usable(_ multiplier: SolutionCertificate.Multiplier) -> Bool { !rows[multiplier.constraint].terms.isEmpty }
    var result: [SolutionCertificate] = []
    for (b, broken) in certificate.broken.enumerated() {
        for (m, multiplier) in broken.farkas.multipliers.enumerated() where usable(multiplier) {
            var corrupted = certificate
            corrupted.broken[b].farkas.multipliers[m].value = bumped(multiplier.value)
            result.append(corrupted)
        }
    }
    if let conflict = certificate.conflict {
        for (m, multiplier) in conflict.farkas.multipliers.enumerated() where usable(multiplier) {
            var corrupted = certificate
            corrupted.conflict?.farkas.multipliers[m].value = bumped(multiplier.value)
            result.append(corrupted)
        }
    }
    for (l, level) in certificate.levels.enumerated() {
        for (m, multiplier) in level.multipliers.enumerated() where usable(multiplier) {
            var corrupted = certificate
            corrupted.levels[l].multipliers[m].value = bumped(multiplier.value)
            result.append(corrupted)
        }
    }
    return result
}

private func verdict(_ certificate: SolutionCertificate, _ system: ConstraintSystem, _ solution: Solution) throws -> CertificateVerdict {
    CertificateVerifier.verify(certificate: try JSONEncoder().encode(certificate), system: system, solution: solution)
}

@Suite("Certificates")
struct CertificateTests {
    @Test("the checker accepts every certificate and rejects every corrupted multiplier", arguments: 0..<150)
    func generated(seed: Int) throws {
        let text = randomLayout(seed: UInt64(seed))
        guard let system = try? LayoutParser.parse(text, file: "random-\(seed).layout") else {
            Issue.record("the generator wrote an invalid layout:\n\(text)")
            return
        }
        let (solution, certificate) = try solveCertified(system)
        let rows = system.lowered(as: Rational.self).rows
        for corrupted in corruptions(certificate, rows: rows) {
            #expect(try !verdict(corrupted, system, solution).isVerified, "a corrupted certificate passed for\n\(text)")
        }
    }

    @Test("the generated systems cover conflicts, several levels and ambiguity")
    func coverage() throws {
        var unsatisfiable = 0, multiLevel = 0, ambiguous = 0
        for seed in 0..<48 {
            guard let system = try? LayoutParser.parse(randomLayout(seed: UInt64(seed))) else { continue }
            let solution = try ExactSimplexBackend().solve(system, budget: .unlimited).solution
            if solution.status == .unsatisfiable { unsatisfiable += 1 }
            if solution.objective.count > 1 { multiLevel += 1 }
            if !solution.ambiguous.isEmpty { ambiguous += 1 }
        }
        #expect(unsatisfiable >= 5 && multiLevel >= 5 && ambiguous >= 5)
    }

    @Test("the checker rejects a wrong claim even with the right certificate")
    func wrongClaims() throws {
        let system = try parse("""
            root superview 375 667
            view box
            box.leading == superview.leading + 20
            box.top == superview.top + 20
            box.height == 40
            box.width == 100 @251
            box.width == 200 @250
            """)
        let (solution, certificate) = try solveCertified(system)
        var moved = solution
        moved.exactValues?[2] = "150"
        moved.values[2] = 150
        #expect(try !verdict(certificate, system, moved).isVerified)
        var better = solution
        better.exactObjective = ["0", "50"]
        better.objective = [0, 50]
        #expect(try !verdict(certificate, system, better).isVerified)
        var broken = solution
        broken.status = .unsatisfiable
        broken.broken = [0]
        #expect(try !verdict(certificate, system, broken).isVerified)
    }

    @Test("the checker rejects a conflict that is not irreducible")
    func reducibleConflict() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading + 10
            a.top == superview.top
            a.width == 100
            a.height == 10
            a.trailing == superview.trailing - 10
            """)
        let (solution, certificate) = try solveCertified(system)
        #expect(solution.conflict == [0, 2, 4])
        var padded = solution
        padded.conflict = [0, 1, 2, 4]
        #expect(try !verdict(certificate, system, padded).isVerified)
        // Shown irreducible by independent rows; claimed for the padded conflict, the claim
        // fails (its rows are independent, but the Farkas vector does not name c1).
        #expect(certificate.conflict?.independentRows == true)
        let (_, witnessed) = try ExactSimplexBackend(conflictProof: .witnesses).solveCertified(system, budget: .unlimited)
        #expect(try verdict(witnessed, system, solution).isVerified)
        #expect(try !verdict(witnessed, system, padded).isVerified)
        // Witnesses are version 2's form, and a version-2 document is still read.
        var version2 = witnessed
        version2.format = "layoutbench-exact-certificate/2"
        #expect(try verdict(version2, system, solution).isVerified)
        var dropped = witnessed
        dropped.conflict?.witnesses.removeLast()
        #expect(try !verdict(dropped, system, solution).isVerified)
        // Claiming independence without it: the witnesses go, and nothing shows irreducibility.
        var unwitnessed = witnessed
        unwitnessed.conflict?.witnesses = []
        #expect(try !verdict(unwitnessed, system, solution).isVerified)
    }

    @Test("the checker rejects independentRows on dependent rows, and before version 3")
    func dependentRowsClaim() throws {
        // c0 and c2 contradict; c3 is c2 again, so {c0, c2, c3} has dependent rows. A Farkas
        // vector spreading over c2 and c3 is valid, and the set is infeasible, but not
        // irreducible: the claim of independence must fail.
        let system = try parse("""
            root superview 375 667
            view a
            a.width == 100
            a.height == 10
            a.width == 120
            a.width == 120
            """)
        let (solution, certificate) = try solveCertified(system)
        #expect(solution.conflict == [0, 2])
        var spread = certificate
        spread.conflict?.farkas = SolutionCertificate.Farkas(multipliers: [
            .init(constraint: 0, value: "1"), .init(constraint: 2, value: "-1/2"), .init(constraint: 3, value: "-1/2"),
        ])
        spread.conflict?.independentRows = true
        spread.conflict?.witnesses = []
        var claimed = solution
        claimed.conflict = [0, 2, 3]
        guard case .rejected(let problems) = try verdict(spread, system, claimed) else {
            Issue.record("a dependent conflict passed as independent")
            return
        }
        #expect(problems.contains { $0.contains("not linearly independent") })
        // Version 2 had no independentRows: a document of that version claiming it fails.
        var old = certificate
        old.format = "layoutbench-exact-certificate/2"
        #expect(try !verdict(old, system, solution).isVerified)
    }

    @Test("independence and the deletion filter give the same conflict", arguments: 0..<150)
    func conflictProofsAgree(seed: Int) throws {
        guard let system = try? LayoutParser.parse(randomLayout(seed: UInt64(seed))) else { return }
        let (fast, _) = try solveCertified(system)
        let (filtered, witnessed) = try ExactSimplexBackend(conflictProof: .witnesses).solveCertified(system, budget: .unlimited)
        #expect(fast.conflict == filtered.solution.conflict)
        #expect(fast.broken == filtered.solution.broken)
        if !fast.conflict.isEmpty {
            #expect(witnessed.conflict?.witnesses.count == fast.conflict.count)
            #expect(try verdict(witnessed, system, filtered.solution).isVerified)
        }
    }

    @Test("a certificate round-trips through JSON with rational strings")
    func json() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading + 10
            a.top == superview.top
            a.width == 100 @750
            a.width == 1/3 * a.height @500
            a.height == 10
            """.replacingOccurrences(of: "1/3", with: "0.3"))
        let (_, certificate) = try solveCertified(system)
        let data = try JSONEncoder().encode(certificate)
        let document = try JSONDecoder().decode(CertificateDocument.self, from: data)
        #expect(document.format == "layoutbench-exact-certificate/3")
        #expect(document.levels.count == 2)
        #expect(document.levels[1].multipliers.contains { $0.value == "3/10" })
    }
}

@Suite("Determinacy")
struct DeterminacyTests {
    @Test("the final-basis test agrees with a min and a max LP per unknown", arguments: 0..<150)
    func agrees(seed: Int) throws {
        guard let system = try? LayoutParser.parse(randomLayout(seed: UInt64(1000 + seed))) else { return }
        let fast = try ExactSimplexBackend().solve(system, budget: .unlimited).solution
        let slow = try ExactSimplexBackend(determinacy: .minimumAndMaximum).solve(system, budget: .unlimited).solution
        #expect(fast.ambiguous == slow.ambiguous)
        #expect(fast.exactObjective == slow.exactObjective)
    }
}
