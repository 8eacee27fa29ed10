import Fuzzing
import Generator
import LayoutModel
import Testing
@testable import GuidedFuzzing

/// The structural mutator keeps cases valid and exactly representable, and does change them.
@Suite struct StructuralMutatorTests {
    @Test func mutantsAreValidAndCanonical() {
        let mutator = StructuralMutator()
        var changed = 0
        var total = 0
        for (k, bytes) in ByteFormTests.randomInputs(count: 60, maxLength: 200, seed: 21).enumerated() {
            var current = GuidedCase(bytes: bytes).bytes
            for step in 0..<10 {
                let mutant = mutator.mutate(current, seed: UInt64(k * 100 + step), maxSize: 4_096)
                let decoded = GuidedCase(bytes: mutant)
                ByteFormTests.checkValid(decoded, "input \(k), mutation \(step)")
                let again = decoded.bytes
                #expect(again == mutant, "input \(k), mutation \(step): not canonical at byte \(zip(again, mutant).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(again.count, mutant.count)) of \(mutant.count)\n\(decoded.sequence.initial.canonicalText)")
                total += 1
                if mutant != current { changed += 1 }
                current = mutant
            }
        }
        #expect(changed * 2 > total, "only \(changed) of \(total) mutations changed the case")
    }

    @Test func everyMutationKindApplies() {
        // Each kind, tried on a case with views, constraints and levels, changes it at least once.
        let text = """
            root root 0 0 375 667
            view a intrinsic 100 20
            view b in a
            a.left == root.left + 8 @999
            a.top == root.top + 8
            b.width == 0.5 * a.width @750
            b.height == 44 @250
            """
        let base = GuidedCase(system: (try? LayoutParser.parse(text)) ?? ConstraintSystem(rootName: "root", frame: [.zero, .zero, .zero, .zero]))
        let start = GuidedCase(bytes: base.bytes)
        var seen = Set<String>()
        var random = SeededGenerator(seed: 5)
        for _ in 0..<600 {
            let before = random
            let mutant = StructuralMutator().mutate(start, random: &random)
            var replay = before
            let kind = replay.element(of: StructuralMutator.Mutation.allCases)
            if mutant != start { seen.insert(kind.rawValue) }
        }
        #expect(seen == Set(StructuralMutator.Mutation.allCases.map(\.rawValue)))
    }

    @Test func mutantsRespectTheSizeLimit() {
        let bytes = GuidedCase(system: generate(family: Families.all[0], size: 8, seed: 3).system).bytes
        for seed in UInt64(0)..<50 {
            #expect(StructuralMutator().mutate(bytes, seed: seed, maxSize: 40).count <= 40)
        }
    }
}
