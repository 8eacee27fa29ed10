import Fuzzing
import Generator
import LayoutModel
import Testing
@testable import GuidedFuzzing

/// The byte form of the coverage-guided fuzzer, without libFuzzer: every byte string is a
/// valid case, writing a case and reading it back gives it again, seeds from the generator
/// survive the trip.
@Suite struct ByteFormTests {
    /// Random byte strings of every length up to `maxLength`, from the project's generator.
    static func randomInputs(count: Int, maxLength: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            (0..<random.int(in: 0...maxLength)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
    }

    static func checkValid(_ guided: GuidedCase, _ what: String) {
        guided.sequence.forEachPass { pass, system in
            let issues = system.validate()
            #expect(issues.isEmpty, "\(what), pass \(pass + 1): \(issues.map(\.message))")
            // A decoded system prints as a file that reads back (a finding's repro is that file).
            #expect(throws: Never.self, "\(what), pass \(pass + 1) does not read back") {
                try LayoutParser.parse(system.canonicalText)
            }
        }
    }

    @Test func everyByteStringDecodesToAValidCase() {
        for (k, bytes) in Self.randomInputs(count: 400, maxLength: 300, seed: 11).enumerated() {
            let guided = GuidedCase(bytes: bytes)
            Self.checkValid(guided, "input \(k)")
            // Numbers stay in their role's range of magnitudes.
            for c in guided.sequence.initial.constraints {
                #expect(NumberRole.constant.admits(c.constant), "input \(k): constant \(c.constant)")
                #expect(NumberRole.multiplier.admits(c.multiplier), "input \(k): multiplier \(c.multiplier)")
            }
        }
        // Bytes at the escape value everywhere: literals and long counts.
        Self.checkValid(GuidedCase(bytes: [UInt8](repeating: 0xFF, count: 500)), "all 0xFF")
        Self.checkValid(GuidedCase(bytes: []), "empty input")
    }

    @Test func theEmptyInputIsTheBareRoot() {
        let guided = GuidedCase(bytes: [])
        #expect(guided.sequence.initial.viewCount == 0)
        #expect(guided.sequence.initial.constraints.isEmpty)
        #expect(guided.sequence.passCount == 1)
        #expect(guided.oracle == nil)
    }

    @Test func encodingThenDecodingGivesTheCaseBack() {
        var withSteps = 0
        for (k, bytes) in Self.randomInputs(count: 400, maxLength: 300, seed: 12).enumerated() {
            let guided = GuidedCase(bytes: bytes)
            let encoded = guided.bytes
            let again = GuidedCase(bytes: encoded)
            #expect(again == guided, "input \(k): \(again.oracle == guided.oracle) \(again.redecide == guided.redecide) \(again.sequence.initial == guided.sequence.initial) \(again.sequence.updates.count) \(guided.sequence.updates.count)\n\(again.sequence.updates)\n\(guided.sequence.updates)")
            // The written form is canonical: writing the decoded case again gives the same bytes.
            #expect(GuidedCase(bytes: encoded).bytes == encoded, "input \(k)")
            if guided.sequence.passCount > 1 { withSteps += 1 }
        }
        #expect(withSteps > 20, "random inputs should exercise update steps")
    }

    /// A system as the decoder names it: the root `root`, views `v1`, … in order, no IDs,
    /// intrinsic constraints right after the views.
    static func normalised(_ system: ConstraintSystem) -> ConstraintSystem? {
        var parts = StructuralMutator.Parts(system)
        parts.items[0].name = "root"
        for k in parts.items.indices.dropFirst() { parts.items[k].name = "v\(k)" }
        return parts.system()
    }

    @Test(arguments: Families.all.map(\.name))
    func generatedSystemsSurviveTheTrip(family: String) throws {
        let family = try #require(Families.all.first { $0.name == family })
        for seed in UInt64(1)...3 {
            let system = generate(family: family, size: 4, seed: seed).system
            let decoded = GuidedCase(bytes: GuidedCase(system: system).bytes).sequence.initial
            let expected = try #require(Self.normalised(system))
            #expect(decoded == expected, "\(family.name) seed \(seed):\n\(system.canonicalText)\nread back as\n\(decoded.canonicalText)")
        }
    }

    @Test func literalsOutsideTheMenusKeepTheirValue() throws {
        let text = """
            root root 0 0 375.25 667
            view a intrinsic 33.125 17
            a.left == root.left + 0.123456789012345678901 @999.123
            a.width == 1.7 * a.height - 12345.5
            """
        let system = try LayoutParser.parse(text)
        let decoded = GuidedCase(bytes: GuidedCase(system: system).bytes).sequence.initial
        #expect(decoded == Self.normalised(system))
        #expect(decoded.constraints.contains { $0.constant == NumericLiteral(parsing: "0.123456789012345678901") })
    }

    @Test func updateStepsSurviveTheTrip() throws {
        let text = """
            root root 0 0 375 667
            view a intrinsic 100 20
            a.left == root.left + 8
            a.top == root.top + 8
            w: a.width >= 50 @750
            layout
            set w constant 60.5
            set a intrinsic 120 21
            layout
            set root 667 375
            remove c5
            """
        let sequence = try LayoutParser.parseSequence(text)
        let decoded = GuidedCase(bytes: GuidedCase(sequence: sequence).bytes).sequence
        #expect(decoded.passCount == 3)
        #expect(decoded.stepCount == 4)
        #expect(decoded.passSystems.last?.root.frame?[2] == NumericLiteral(667))
    }

    /// Every sequence family's steps survive the trip — adding views and constraints and
    /// removing views included — within the byte form's limits (three update passes of four
    /// steps): the same steps, of the same kinds, pass by pass, to systems of the same shape.
    @Test(arguments: SequenceFamilies.all.map(\.name))
    func sequenceFamiliesSurviveTheTrip(family: String) throws {
        let family = try #require(SequenceFamilies.named(family))
        let base = try #require(Families.named("form"))
        var kinds = Set<String>()
        for seed in UInt64(1)...6 {
            guard let generated = generateSequence(family: family, base: base, size: 3, steps: 10, seed: seed) else { continue }
            // The sequence cut to the byte form's limits (steps that needed a cut one left out).
            let cut = StructuralMutator.sequence(
                initial: generated.sequence.initial,
                updates: generated.sequence.updates.prefix(GuidedLimits.updatePasses - 1).map { Array($0.prefix(GuidedLimits.stepsPerPass - 1)) })
            let decoded = GuidedCase(bytes: GuidedCase(sequence: cut).bytes).sequence
            let what = "\(family.name) seed \(seed):\n\(cut.canonicalText)\nread back as\n\(decoded.canonicalText)"
            #expect(decoded.updates.map { $0.map { $0.action.kindName } } == cut.updates.map { $0.map { $0.action.kindName } }, "\(what)")
            #expect(decoded.passSystems.map(\.viewCount) == cut.passSystems.map(\.viewCount), "\(what)")
            #expect(decoded.passSystems.map(\.constraints.count) == cut.passSystems.map(\.constraints.count), "\(what)")
            // The written form is canonical.
            #expect(GuidedCase(sequence: decoded).bytes == GuidedCase(sequence: cut).bytes, "\(what)")
            for steps in cut.updates { for step in steps { kinds.insert(step.action.kindName) } }
        }
        if ["rows-insert-delete", "random-steps"].contains(family.name) {
            #expect(kinds.contains("add view") || kinds.contains("add constraint"), "\(family.name): \(kinds.sorted())")
        }
    }

    @Test func addedViewsAndConstraintsSurviveTheTrip() throws {
        let text = """
            root root 0 0 375 667
            view a intrinsic 100 20
            a.left == root.left + 8
            a.top == root.top + 8
            layout
            view b in a intrinsic 40 17
            gap: b.left == a.left + 4.5
            b.top == a.top
            layout
            set gap constant 6
            remove view a
            view c
            c.width == 0.1 * root.width @750
            layout
            """
        let sequence = try LayoutParser.parseSequence(text)
        let decoded = GuidedCase(bytes: GuidedCase(sequence: sequence).bytes).sequence
        #expect(decoded.updates.map { $0.map { $0.action.kindName } } == [
            ["add view", "add constraint", "add constraint"], ["set constant", "remove view", "add view", "add constraint"]])
        // Added views are named after every view declared before them.
        #expect(decoded.passSystems.last?.items.map(\.name) == ["root", "v3"])
        #expect(decoded.passSystems[1].items.map(\.name) == ["root", "v1", "v2"])
        #expect(decoded.passSystems.last?.constraints.contains { $0.multiplier == NumericLiteral(parsing: "0.1") } == true)
    }

    @Test func decimalArithmeticIsExact() {
        let a = NumericLiteral(parsing: "0.1")!, b = NumericLiteral(parsing: "0.2")!
        #expect(NumericLiteral.sum(a, b) == NumericLiteral(parsing: "0.3"))
        #expect(NumericLiteral.sum(a, NumericLiteral(parsing: "-0.25")!) == NumericLiteral(parsing: "-0.15"))
        #expect(NumericLiteral.scaled(NumericLiteral(parsing: "999")!, by: "1.0000001") == NumericLiteral(parsing: "999.0000999"))
        #expect(NumericLiteral.scaled(NumericLiteral(parsing: "-20")!, by: "0.5") == NumericLiteral(parsing: "-10"))
    }
}
