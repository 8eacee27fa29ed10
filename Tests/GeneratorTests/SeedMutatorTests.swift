import Generator
import LayoutModel
import Testing

/// `SeedMutator`: every kind of step happens, intrinsic constraints follow their view's
/// intrinsic size, and every mutant is a valid system that survives its own text.
@Suite struct SeedMutatorTests {
    static let seed = try! LayoutParser.parse("""
        root superview 320 480
        view title intrinsic 120 20
        view button
        title.left == superview.left + 16
        title.top == superview.top + 20
        title.right <= superview.right - 16
        button.top == title.bottom + 8
        button.left == title.left
        button.width == 2 * title.width @750
        button.height == 44
        """)

    static func explicit(_ system: ConstraintSystem) -> [Constraint] {
        system.constraints.filter { $0.origin != .intrinsic }
    }

    @Test func everyStepHappensAndMutantsStayValid() throws {
        let family = Family.mutations(of: Self.seed, named: "seed:card.layout")
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
            intrinsic = intrinsic || mutant.items[1].intrinsic != Self.seed.items[1].intrinsic
        }
        #expect(fewer && more && constant && priority && intrinsic,
                "dropped \(fewer), duplicated \(more), constants \(constant), priorities \(priority), intrinsic sizes \(intrinsic)")
    }

    @Test func theSameSeedGivesTheSameMutant() {
        let family = Family.mutations(of: Self.seed, named: "seed:card.layout")
        for s in UInt64(0)..<20 {
            #expect(generate(family: family, size: 3, seed: s).text == generate(family: family, size: 3, seed: s).text)
        }
    }
}
