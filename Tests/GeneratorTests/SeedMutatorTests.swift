import Generator
import LayoutModel
import Testing

/// `SeedMutator`: every kind of step happens, intrinsic constraints follow their view's
/// intrinsic size, and every mutant is a valid system that survives its own text.
@Suite struct SeedMutatorTests {
    /// An avatar and a name side by side in a 60-point row; the name hugs its text.
    static let seed = try! LayoutParser.parse("""
        root row 375 60
        view avatar
        view name intrinsic 80 17
        avatar.leading == row.leading + 12
        avatar.centerY == row.centerY
        avatar.width == 40
        avatar.height == avatar.width
        name.leading == avatar.trailing + 8
        name.trailing <= row.trailing - 12
        name.centerY == avatar.centerY @750
        name.width >= 120 @500
        """)

    static func explicit(_ system: ConstraintSystem) -> [Constraint] {
        system.constraints.filter { $0.origin != .intrinsic }
    }

    @Test func everyStepHappensAndMutantsStayValid() throws {
        let family = Family.mutations(of: Self.seed, named: "seed:row.layout")
        let original = Self.explicit(Self.seed)
        var fewer = false, more = false, constant = false, priority = false, intrinsic = false
        for s in UInt64(0)..<300 {
            let mutant = generate(family: family, size: 1, seed: s).system
            #expect(mutant.validate(rules: .runtime).isEmpty, "seed \(s)")
            #expect(mutant.items.map(\.name) == Self.seed.items.map(\.name), "views stay")
            // Intrinsic constraints carry their view's intrinsic size.
            for c in mutant.constraints where c.origin == .intrinsic {
                let axis: Attribute.Axis = c.first.attribute == .width ? .horizontal : .vertical
                #expect(mutant.items[c.first.item].intrinsic[axis] == c.constant, "seed \(s)")
            }
            // The canonical text reads back as itself, so a stored repro is the case.
            let text = mutant.canonicalText
            #expect(try LayoutParser.parse(text).canonicalText == text, "seed \(s)")
            let edited = Self.explicit(mutant)
            fewer = fewer || edited.count < original.count
            more = more || edited.count > original.count
            if edited.count == original.count {
                constant = constant || zip(edited, original).contains { $0.constant != $1.constant }
                priority = priority || zip(edited, original).contains { $0.priority != $1.priority }
            }
            intrinsic = intrinsic || mutant.items[2].intrinsic != Self.seed.items[2].intrinsic  // name
        }
        #expect(fewer && more && constant && priority && intrinsic,
                "dropped \(fewer), duplicated \(more), constants \(constant), priorities \(priority), intrinsic sizes \(intrinsic)")
    }

    @Test func theSameSeedGivesTheSameMutant() {
        let family = Family.mutations(of: Self.seed, named: "seed:row.layout")
        for s in UInt64(0)..<20 {
            #expect(generate(family: family, size: 3, seed: s).text == generate(family: family, size: 3, seed: s).text)
        }
    }
}

/// `SequenceFamily.seedUpdates`: a seed's update sequences — the seed mutated, its own passes,
/// then update steps of every kind of spec §7 — are valid, deterministic, and read back.
@Suite struct SeedUpdateSequenceTests {
    /// The row of SeedMutatorTests with two passes of its own: the root rotates, then the
    /// name's text grows.
    static let seed = try! LayoutParser.parseSequence(SeedMutatorTests.seed.canonicalText + """
        layout
        set root 667 60
        layout
        set name intrinsic 140 17
        layout

        """)

    @Test func everyStepKindHappensAndSequencesStayValid() throws {
        let base = Family.mutations(of: Self.seed.initial, named: "seed:row.layout")
        let family = SequenceFamily.seedUpdates(of: Self.seed, named: "seed-updates:row.layout", base: base.name)
        #expect(family.base == "seed:row.layout")
        var kinds = Set<String>()
        var keptOwnPasses = 0
        for s in UInt64(0)..<200 {
            let generated = try #require(generateSequence(family: family, base: base, size: 1, steps: 12, seed: s), "seed \(s)")
            let sequence = generated.sequence
            #expect(generated.family == family.name && generated.base == base.name)
            // The mutant of the seed is the sequence's first pass: the seed family's case.
            #expect(sequence.initial.canonicalText == generate(family: base, size: 1, seed: s).system.canonicalText)
            #expect(sequence.passCount > 1, "seed \(s)")
            for steps in sequence.updates { for step in steps { kinds.insert(step.action.kindName) } }
            if sequence.updates.count >= 2, sequence.updates[0].first?.action == Self.seed.updates[0][0].action { keptOwnPasses += 1 }
            // Every pass can be materialised, and the text reads back as the same sequence.
            sequence.forEachPass { _, system in #expect(system.validate(rules: .runtime).isEmpty, "seed \(s)") }
            let text = sequence.canonicalText
            #expect(try LayoutParser.parseSequence(text).canonicalText == text, "seed \(s)")
            // The same seed gives the same sequence.
            #expect(generateSequence(family: family, base: base, size: 1, steps: 12, seed: s)?.sequence.canonicalText == text)
        }
        #expect(kinds == ["set constant", "set intrinsic", "set priority", "set root", "remove constraint", "remove view",
                          "add view", "add constraint"], "\(kinds.sorted())")
        // The seed's own first step (set root) opens every sequence: it applies to any mutant.
        #expect(keptOwnPasses == 200)
    }
}

