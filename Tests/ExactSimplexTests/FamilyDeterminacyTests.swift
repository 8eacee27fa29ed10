import BackendContract
import ExactSimplex
import Foundation
import Generator
import LayoutModel
import Testing

/// The generator's families, small: every one of them, a few seeds each.
private func familyCases() -> [String] {
    Families.all.flatMap { family in (1...3).map { "\(family.name)/\($0)" } }
}

@Suite("Determinacy on generated families")
struct FamilyDeterminacyTests {
    /// The final-basis test drops the columns that degenerate rows force to zero on the
    /// optimal face before deciding; the realistic families (hug/resist pairs that both
    /// hold) are where that matters, so each family is checked against the slow method.
    @Test("the final-basis test agrees with a min and a max LP per unknown", arguments: familyCases())
    func agrees(_ name: String) throws {
        let parts = name.split(separator: "/")
        let family = try #require(Families.named(String(parts[0])))
        let seed = try #require(UInt64(parts[1]))
        let system = generate(family: family, size: 12, seed: seed).system
        let (fast, _) = try solveCertified(system)
        let slow = try ExactSimplexBackend(determinacy: .minimumAndMaximum).solve(system, budget: .unlimited).solution
        #expect(fast.status == slow.status)
        #expect(fast.ambiguous == slow.ambiguous)
        #expect(fast.exactObjective == slow.exactObjective)
        #expect(fast.broken == slow.broken)
    }
}
