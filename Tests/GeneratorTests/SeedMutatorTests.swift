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
