import Foundation
import Testing
@testable import LayoutModel

/// Update sequences (spec §7): parsing, every step kind, positioned errors, stable names.
@Suite struct SequenceTests {
    /// Constraints c1…c12: c3 a plain constant, c5/c6 on the badge, c7 optional, c8…c11 the
    /// title's intrinsic ones, the twelfth named `named`. Steps start on line 14.
    static let header = """
        root superview 375 667
        view card
        view badge in card
        card.left == superview.left + 20
        card.top == superview.top + 20
        card.width == 300
        card.height == 200
        badge.width == 20
        badge.height == 20 @750
        card.centerX == superview.centerX @250
        view title in card intrinsic 120 21
        named: title.top == card.top + 8
        layout

        """

    static func names(_ s: ConstraintSystem) -> [String] { s.constraints.indices.map(s.constraintName) }

    /// The example of the shared spec's §7, verbatim, after a system that has its names.
    @Test func sharedSpecExampleParses() throws {
        let spec = try String(contentsOfFile: repositoryRoot + "/docs/layout-format.md", encoding: .utf8)
        let section = try #require(spec.range(of: "## 7. Update sequences"))
        let blockStart = try #require(spec.range(of: "```\n", range: section.upperBound..<spec.endIndex))
        let blockEnd = try #require(spec.range(of: "```", range: blockStart.upperBound..<spec.endIndex))
        let example = String(spec[blockStart.upperBound..<blockEnd.lowerBound])
        let prefix = Self.header.replacingOccurrences(of: "layout\n", with: "")
        let sequence = try parseSequence(prefix + example)
        #expect(sequence.passCount == 2)
        #expect(sequence.updates[0].count == 8)
        let pass2 = sequence.system(atPass: 1)
        let card = try #require(pass2.itemIndex(named: "card"))
        #expect(pass2.root.frame?[2] == NumericLiteral(667) && pass2.root.frame?[3] == NumericLiteral(375))
        #expect(pass2.itemIndex(named: "badge") == nil)
        #expect(pass2.items.last?.name == "extra" && pass2.items.last?.parent == card)
        let names = Self.names(pass2)
        #expect(!names.contains("c5") && !names.contains("c6"))
        #expect(pass2.constraints[names.firstIndex(of: "c3")!].constant == NumericLiteral(40))
        #expect(pass2.constraints[names.firstIndex(of: "c7")!].priority == Priority(500))
        #expect(pass2.items[pass2.itemIndex(named: "title")!].intrinsic.horizontal == NumericLiteral(180))
        #expect(names.last == "c13")  // extra.top == card.top + 4: the thirteenth constraint ever
        #expect(pass2.validate().isEmpty)
    }

    @Test func oneSystemIsOnePass() throws {
        let text = "root r 1 1\nview a\na.width == 1\n"
        let sequence = try parseSequence(text)
        #expect(sequence.passCount == 1 && sequence.updates.isEmpty)
        #expect(sequence.initial == (try parse(text)))
        #expect(sequence.canonicalText == (try parse(text)).canonicalText)
        // A closing `layout` adds no pass.
        #expect(try parseSequence(text + "layout\n").passCount == 1)
        #expect(try parse(text + "layout\n") == (try parse(text)))
    }

    @Test func passCounting() throws {
        let base = "root r 1 1\nview a\na.width == 1\n"
        #expect(try parseSequence(base + "layout\nset c1 constant 2\n").passCount == 2)
        #expect(try parseSequence(base + "layout\nset c1 constant 2\nlayout\n").passCount == 2)
        // An empty pass: solved again with nothing changed.
        let empty = try parseSequence(base + "layout\nlayout\n")
        #expect(empty.passCount == 2 && empty.updates == [[]])
        #expect(try parseSequence(empty.canonicalText) == empty)
        #expect(try parseSequence(base + "layout\nlayout\nlayout\nset c1 constant 3\n").passCount == 4)
    }

    @Test func parseRejectsSequences() throws {
        let error = try #require(parseError(Self.header + "set c3 constant 1\n"))
        #expect(error.kind == .updateSequence)
        #expect(error.location == SourceLocation(line: 13, column: 1))
    }

    // MARK: Every step kind

    func replay(_ steps: String) throws -> (UpdateSequence, [[SystemChange]]) {
        let sequence = try parseSequence(Self.header + steps)
        var replay = sequence.makeReplay()
        let changes = try sequence.updates.flatMap { $0 }.map { step in try replay.apply(step) }
        return (sequence, changes)
    }

    @Test func setConstant() throws {
        let (s, changes) = try replay("set c3 constant -40.5\nset named constant 2\n")
        #expect(changes == [[.constantChanged(index: 2, from: NumericLiteral(300), to: NumericLiteral(parsing: "-40.5")!)],
                            [.constantChanged(index: 11, from: NumericLiteral(8), to: NumericLiteral(2))]])
        #expect(s.updates[0].map(\.line) == ["set c3 constant -40.5", "set named constant 2"])
    }

    @Test func setPriority() throws {
        let (s, changes) = try replay("set c7 priority 500\nset c6 priority low\nset c9 priority 999\n")
        #expect(changes == [[.priorityChanged(index: 6, from: .low, to: Priority(500))],
                            [.priorityChanged(index: 5, from: .high, to: .low)],
                            [.priorityChanged(index: 8, from: .high, to: Priority(999))]])
        // c9 is the title's width resistance: the view's resistance follows.
        let pass2 = s.system(atPass: 1)
        #expect(pass2.items[3].resistance.horizontal == Priority(999))
        #expect(try parseSequence(s.canonicalText) == s)
    }

    @Test func setRootSize() throws {
        for spelling in ["root", "superview"] {
            let (s, changes) = try replay("set \(spelling) 667 375\n")
            #expect(changes == [[.rootResized(
                from: AxisPair(horizontal: NumericLiteral(375), vertical: NumericLiteral(667)),
                to: AxisPair(horizontal: NumericLiteral(667), vertical: NumericLiteral(375)))]])
            #expect(s.updates[0][0].line == "set root 667 375")
            #expect(s.system(atPass: 1).root.frame == [.zero, .zero, NumericLiteral(667), NumericLiteral(375)])
        }
    }

    @Test func setIntrinsic() throws {
        // Both axes kept: four constants in place.
        let (_, same) = try replay("set title intrinsic 180 22\n")
        #expect(same == [[
            .constantChanged(index: 7, from: NumericLiteral(120), to: NumericLiteral(180)),
            .constantChanged(index: 8, from: NumericLiteral(120), to: NumericLiteral(180)),
            .constantChanged(index: 9, from: NumericLiteral(21), to: NumericLiteral(22)),
            .constantChanged(index: 10, from: NumericLiteral(21), to: NumericLiteral(22)),
        ]])
        // Width dropped, height kept; then the width comes back at the end.
        let (s, changes) = try replay("set title intrinsic - 30\nset title intrinsic 50 30\n")
        #expect(changes[0] == [
            .constantChanged(index: 9, from: NumericLiteral(21), to: NumericLiteral(30)),
            .constantChanged(index: 10, from: NumericLiteral(21), to: NumericLiteral(30)),
            .constraintsRemoved([7, 8]),
        ])
        #expect(changes[1] == [
            .constantChanged(index: 7, from: NumericLiteral(30), to: NumericLiteral(30)),
            .constantChanged(index: 8, from: NumericLiteral(30), to: NumericLiteral(30)),
            .constraintsAppended(10..<12),
        ])
        let pass2 = s.system(atPass: 1)
        #expect(Self.names(pass2).suffix(5) == ["c10", "c11", "named", "c13", "c14"])
        #expect(pass2.constraints[10].relation == .lessThanOrEqual && pass2.constraints[10].constant == NumericLiteral(50))
        #expect(pass2.constraints[10].priority == .low && pass2.constraints[11].priority == .high)
        // A view without an intrinsic size gets one; `- -` takes it away.
        let (_, card) = try replay("set card intrinsic 10 -\nset card intrinsic - -\n")
        #expect(card == [[.constraintsAppended(12..<14)], [.constraintsRemoved([12, 13])]])
    }

    @Test func removals() throws {
        let (s, changes) = try replay("remove c5\nremove named\nremove view badge\n")
        #expect(changes == [[.constraintsRemoved([4])], [.constraintsRemoved([10])],
                            [.constraintsRemoved([4]), .itemsRemoved([2])]])
        let pass2 = s.system(atPass: 1)
        #expect(pass2.items.map(\.name) == ["superview", "card", "title"])
        #expect(pass2.items[2].parent == 1)
        #expect(Self.names(pass2) == ["c1", "c2", "c3", "c4", "c7", "c8", "c9", "c10", "c11"])
        #expect(pass2.validate().isEmpty)
        // A view takes its descendants and their constraints with it.
        let (t, subtree) = try replay("remove view card\n")
        #expect(subtree == [[.constraintsRemoved(Array(0..<12)), .itemsRemoved([1, 2, 3])]])
        #expect(t.system(atPass: 1).items.count == 1)
    }

    @Test func additions() throws {
        let (s, changes) = try replay("""
            view extra in card intrinsic 10 - hug 300 251
            extra.top == card.top + 4
            id9: extra.width >= 5 @low
            H:|-[extra]-|

            """)
        #expect(changes == [[.itemAdded(4), .constraintsAppended(12..<14)], [.constraintsAppended(14..<15)],
                            [.constraintsAppended(15..<16)], [.constraintsAppended(16..<17)], [.constraintsAppended(17..<18)]])
        #expect(s.updates[0].map(\.line) == [
            "view extra in card intrinsic 10 - hug 300 251", "extra.top == card.top + 4", "id9: extra.width >= 5 @250",
            "extra.leading == card.leading + 20", "card.trailing == extra.trailing + 20",
        ])
        let pass2 = s.system(atPass: 1)
        #expect(Self.names(pass2).suffix(6) == ["c13", "c14", "c15", "id9", "c17", "c18"])
        #expect(pass2.constraints[12].priority == Priority(300))
        #expect(try parseSequence(s.canonicalText) == s)
    }

    /// After a removal, constraints keep the names they were given: the pass's system names
    /// them by explicit IDs, and reports (broken, conflict) use those names.
    @Test func namesAreStable() throws {
        let (s, _) = try replay("remove c2\nlayout\ncard.width >= 1\nremove c1\n")
        let pass2 = s.system(atPass: 1)
        #expect(Self.names(pass2) == ["c1", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "named"])
        #expect(pass2.constraints[0].id == nil && pass2.constraints[1].id == "c3")
        let pass3 = s.system(atPass: 2)
        #expect(Self.names(pass3).first == "c3" && Self.names(pass3).last == "c13")
        // The JSON of a pass system reads back with the same names.
        let json = try JSONEncoder().encode(pass3)
        let back = try JSONDecoder().decode(ConstraintSystem.self, from: json)
        #expect(Self.names(back) == Self.names(pass3))
        // An explicit ID `c<N>` is allowed when constraint N has an ID of its own.
        #expect(try parse("root r 1 1\nview a\nc2: a.width == 1\nx: a.height == 1\n").constraintName(0) == "c2")
    }

    /// Row scales (the metamorphic oracle's) follow their constraints through removals.
    @Test func rowScalesFollowTheirConstraints() throws {
        var initial = try parse("root r 1 1\nview a\na.width == 1\na.height == 2\na.width >= 0\n")
        initial.rowScales = [1: NumericLiteral(3), 2: NumericLiteral(5)]
        var replay = try SequenceReplay(initial: initial)
        try replay.apply(UpdateStep(.removeConstraint("c2")))
        #expect(replay.current.rowScales == [1: NumericLiteral(5)])
        try replay.apply(UpdateStep(.removeConstraint("c1")))
        #expect(replay.current.rowScales == [0: NumericLiteral(5)])
    }

    // MARK: Errors

    /// (steps after the header, line, column, kind)
    static let errors: [(String, Int, Int, LayoutError.Kind)] = [
        ("set c99 constant 1", 14, 5, .undeclaredName),
        ("set c3 constant 1e999", 14, 17, .numberOutOfRange),
        ("set c3 constant", 14, 16, .syntax),
        ("set c3 width 5", 14, 8, .syntax),
        ("set c8 constant 5", 14, 5, .invalidUpdate),
        ("set c4 priority 500", 14, 5, .invalidUpdate),
        ("set c7 priority 1000", 14, 17, .invalidUpdate),
        ("set c7 priority required", 14, 17, .invalidUpdate),
        ("set c7 priority 0", 14, 17, .v5OutOfRange),
        ("set c7 priority 2000", 14, 17, .v5OutOfRange),
        ("set c7 priority urgent", 14, 17, .syntax),
        ("set card 100 100", 14, 5, .invalidUpdate),
        ("set superview 100", 14, 18, .syntax),
        ("set root 1 2 3", 14, 14, .syntax),
        ("set superview intrinsic 1 2", 14, 5, .invalidUpdate),
        ("set nobody intrinsic 1 2", 14, 5, .undeclaredName),
        ("set title intrinsic 1e999 2", 14, 21, .numberOutOfRange),
        ("set title intrinsic x 2", 14, 21, .syntax),
        ("set", 14, 4, .syntax),
        ("remove c8", 14, 8, .invalidUpdate),
        ("remove c99", 14, 8, .undeclaredName),
        ("remove c12", 14, 8, .undeclaredName),
        ("remove view superview", 14, 13, .invalidUpdate),
        ("remove view nobody", 14, 13, .undeclaredName),
        ("remove", 14, 7, .syntax),
        ("remove c3 c4", 14, 11, .syntax),
        ("view card", 14, 6, .duplicateName),
        ("view x in nobody", 14, 11, .undeclaredName),
        ("x.width == 5", 14, 1, .undeclaredName),
        ("card.left == 5", 14, 6, .v2PositionToConstant),
        ("card.width == card.left", 14, 20, .v1SizeWithPosition),
        ("named: card.width == 5", 14, 1, .duplicateName),
        ("c1: card.width == 5", 14, 1, .duplicateName),
        ("H:[card(50@2000)]", 14, 12, .v5OutOfRange),
        ("|-[card]-[title]-|", 14, 11, .visualFormat),
        ("layout \"late\"", 14, 1, .misplacedDeclaration),
        ("direction rtl", 14, 1, .misplacedDeclaration),
        ("root r 1 1", 14, 1, .duplicateName),
        ("remove c5\nremove c5", 15, 8, .removedName),
        ("remove c5\nset c5 constant 1", 15, 5, .removedName),
        ("remove view badge\nset c6 constant 1", 15, 5, .removedName),
        ("remove view badge\nview badge", 15, 6, .removedName),
        ("remove view badge\nbadge.width == 1", 15, 1, .removedName),
        ("remove view card\nset title intrinsic 1 2", 15, 5, .removedName),
        ("remove c5\nc5: card.width == 1", 15, 1, .removedName),
        ("remove named\nnamed: card.width == 1", 15, 1, .removedName),
        ("c14: card.width == 5 @250\ncard.height == 1 @250", 14, 1, .duplicateName),
        ("set c3 constant 1\nlayout\nset c3 constant 2 # fine\nset c7 priority 0", 17, 17, .v5OutOfRange),
    ]

    @Test(arguments: 0..<errors.count)
    func positionedErrors(index: Int) throws {
        let (steps, line, column, kind) = Self.errors[index]
        let error = try #require(sequenceError(Self.header + steps + "\n"), "expected an error for \(steps.debugDescription)")
        #expect(error.location == SourceLocation(line: line, column: column), "\(steps): \(error)")
        #expect(error.kind == kind, "\(steps): \(error)")
        #expect(error.description.hasPrefix("t.layout:\(line):\(column): "))
    }

    @Test func stepsBeforeTheFirstPassAreMisplaced() throws {
        for line in ["set c1 constant 4", "remove c1", "remove view a"] {
            let error = try #require(parseError("root r 1 1\nview a\na.width == 1\n" + line + "\n"))
            #expect(error.kind == .misplacedDeclaration && error.location == SourceLocation(line: 4, column: 1))
        }
        // A bare `layout` before `root` is still a name declaration missing its name.
        #expect(parseError("layout\nroot r 1 1\n")?.location == SourceLocation(line: 1, column: 7))
    }

    @Test func messagesNameTheProblem() throws {
        #expect(sequenceError(Self.header + "remove c12\n")?.message.contains("'named'") == true)
        #expect(sequenceError(Self.header + "remove c5\nset c5 constant 1\n")?.message.contains("removed") == true)
        #expect(sequenceError(Self.header + "set c8 constant 5\n")?.message.contains("set title intrinsic") == true)
    }

    /// Keywords stay names: an item called `root` or `set`, a constraint called `view`.
    @Test func keywordsAsNames() throws {
        let s = try parseSequence("""
            root window 100 100
            view root
            view set
            view: root.width == 10
            set.width == 5
            layout
            set root 200 300
            set root intrinsic 10 20
            remove view
            set.height == 4
            remove view set

            """)
        #expect(s.updates[0].map(\.action) == [
            .setRootSize(width: NumericLiteral(200), height: NumericLiteral(300)),
            .setIntrinsic(item: "root", intrinsic: AxisPair(horizontal: NumericLiteral(10), vertical: NumericLiteral(20))),
            .removeConstraint("view"),
            .addConstraint(NewConstraint(first: NamedAttribute(item: "set", attribute: .height), relation: .equal, second: nil, constant: NumericLiteral(4))),
            .removeView("set"),
        ])
        #expect(try parseSequence(s.canonicalText) == s)
    }

    // MARK: Building in code

    @Test func builderChecksEachStep() throws {
        var builder = try UpdateSequence.Builder(initial: parse(Self.header.replacingOccurrences(of: "layout\n", with: "")))
        try builder.apply(.setConstant(constraint: "c3", constant: NumericLiteral(10)))
        #expect(throws: LayoutError.self) { try builder.apply(.removeConstraint("c8")) }
        builder.endPass()
        let changes = try builder.add(Constraint(
            first: AttributeReference(item: 2, attribute: .width), relation: .equal, second: nil, constant: NumericLiteral(7)))
        #expect(changes == [.constraintsAppended(12..<13)])
        try builder.addView(Item(name: "late", parent: 1, intrinsic: AxisPair(horizontal: nil, vertical: NumericLiteral(3))))
        builder.endPass()
        let sequence = builder.sequence
        #expect(sequence.passCount == 3)
        #expect(try parseSequence(sequence.canonicalText) == sequence)
        #expect(sequence.system(atPass: 2) == builder.current)
        // A step that failed changed nothing.
        #expect(sequence.stepCount == 3)
    }

    @Test func programmaticErrorsNameThePassAndStep() throws {
        let initial = try parse("root r 1 1\nview a\na.width == 1\n")
        let error = try #require(throws: LayoutError.self) {
            try UpdateSequence(initial: initial, updates: [[], [.init(.removeConstraint("c2"))]])
        }
        #expect(error.description == "<sequence>: pass 3, step 1: no constraint named 'c2'")
    }

    @Test func initialIntrinsicConstraintsMustMatchTheirViews() throws {
        var system = try parse("root r 1 1\nview a intrinsic 10 20\n")
        system.constraints[1].constant = NumericLiteral(11)
        #expect(throws: LayoutError.self) { try UpdateSequence(initial: system, updates: []) }
        system.constraints.remove(at: 1)
        #expect(throws: LayoutError.self) { try UpdateSequence(initial: system, updates: []) }
    }
}
