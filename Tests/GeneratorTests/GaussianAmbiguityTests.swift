import BackendContract
import GaussianBackend
import Generator
import LayoutModel
import Testing

/// The ambiguous family is ambiguous by the Gaussian backend wherever that backend applies
/// (its systems are required equalities), and the redundant family is not ambiguous there.
@Suite struct GaussianAmbiguityTests {
    @Test(arguments: [2, 5, 10, 40] as [Int])
    func ambiguousFamilyIsAmbiguous(size: Int) throws {
        let family = try #require(Families.named("ambiguous"))
        var checked = 0
        for seed in 1...8 as ClosedRange<UInt64> {
            let system = generate(family: family, size: size, seed: seed).system
            guard GaussianEliminationBackend().supports(system).isSupported else { continue }
            checked += 1
            let result = try GaussianEliminationBackend().solve(system, budget: .unlimited)
            #expect(result.solution.status == .optimal)
            #expect(!result.solution.ambiguous.isEmpty, "seed \(seed) size \(size) is determined:\n\(system.canonicalText)")
        }
        #expect(checked > 0, "the Gaussian backend supports no ambiguous system of size \(size)")
    }
}
