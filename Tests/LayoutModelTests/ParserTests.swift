import Testing
@testable import LayoutModel

@Suite struct DeclarationTests {
    @Test func fullHeader() throws {
        let s = try parse("""
            layout "side by side"   # a name
            direction rtl
            root superview 375 667 margins 1 2 3 4
            view red
            view blue in red
            view label in blue intrinsic 120 21 hug 251 250 resist 750 749
            view bar intrinsic - 2
            view title baseline 15 6 margins 8 16 8 16
            """)
        #expect(s.name == "side by side")
        #expect(s.direction == .rightToLeft)
        #expect(s.root.name == "superview")
        #expect(s.root.frame == [.zero, .zero, NumericLiteral(375), NumericLiteral(667)])
        #expect(s.root.margins == Margins(top: NumericLiteral(1), left: NumericLiteral(2), bottom: NumericLiteral(3), right: NumericLiteral(4)))
        #expect(s.items.map(\.name) == ["superview", "red", "blue", "label", "bar", "title"])
        #expect(s.items.map(\.parent) == [nil, 0, 1, 2, 0, 0])
        let label = s.items[3]
        #expect(label.intrinsic == AxisPair<NumericLiteral?>(horizontal: NumericLiteral(120), vertical: NumericLiteral(21)))
        #expect(label.hugging == AxisPair(horizontal: Priority(251), vertical: Priority(250)))
        #expect(label.resistance == AxisPair(horizontal: Priority(750), vertical: Priority(749)))
        #expect(s.items[4].intrinsic == AxisPair<NumericLiteral?>(horizontal: nil, vertical: NumericLiteral(2)))
        #expect(s.items[5].baselines == Baselines(first: NumericLiteral(15), last: NumericLiteral(6)))
    }

    @Test func rootWithOrigin() throws {
        let s = try parse("root window 10 20 300 400\n")
        #expect(s.root.frame == [NumericLiteral(10), NumericLiteral(20), NumericLiteral(300), NumericLiteral(400)])
    }

    @Test func intrinsicConstraintsInOrder() throws {
        let s = try parse("""
            root r 100 100
            view a
            a.width == 10
            view label intrinsic 120 21 hug 251 252 resist 753 754
            view bar intrinsic - 2
            """)
        #expect(s.constraints.count == 7)
        let label = s.constraints[1...4].map { ($0.first.attribute, $0.relation, $0.constant, $0.priority) }
        #expect(label.map(\.0) == [.width, .width, .height, .height])
        #expect(label.map(\.1) == [.lessThanOrEqual, .greaterThanOrEqual, .lessThanOrEqual, .greaterThanOrEqual])
        #expect(label.map(\.2) == [NumericLiteral(120), NumericLiteral(120), NumericLiteral(21), NumericLiteral(21)])
        #expect(label.map(\.3) == [Priority(251), Priority(753), Priority(252), Priority(754)])
        #expect(s.constraints[5...6].map(\.first.attribute) == [.height, .height])
        #expect(s.constraints[1...6].allSatisfy { $0.origin == .intrinsic })
        #expect(s.constraintName(4) == "c5")
    }

    @Test func constraintForms() throws {
        let s = try parse("""
            root r 100 100
            view a
            view b
            a.left == b.right + 8
            id1: a.width <= 2 * b.width - 3.5 @750
            a.height >= 20 @low
            a.top == 0.5 * b.top @required
            a.width == -12 @ high
            b.height == 1e-9 * a.height @fitting
            a.centerX == b.centerX @999.5
            """)
        let c = s.constraints
        #expect(c[0].first == AttributeReference(item: 1, attribute: .left))
        #expect(c[0].second == AttributeReference(item: 2, attribute: .right))
        #expect(c[0].constant == NumericLiteral(8))
        #expect(c[1].id == "id1")
        #expect(c[1].relation == .lessThanOrEqual)
        #expect(c[1].multiplier == NumericLiteral(2))
        #expect(c[1].constant == NumericLiteral(parsing: "-3.5"))
        #expect(c[1].priority == .high)
        #expect(c[2].second == nil && c[2].constant == NumericLiteral(20) && c[2].priority == .low)
        #expect(c[3].multiplier == NumericLiteral(parsing: "0.5") && c[3].priority.isRequired)
        #expect(c[4].constant == NumericLiteral(-12) && c[4].priority == .high)
        #expect(c[5].multiplier == NumericLiteral(parsing: "1e-9") && c[5].priority == .fitting)
        #expect(c[6].priority == Priority(NumericLiteral(parsing: "999.5")!))
        #expect(s.constraintName(1) == "id1")
        #expect(s.constraintName(2) == "c3")
    }

    @Test func keywordsCanBeNames() throws {
        let s = try parse("""
            root view 100 100
            view root
            view layout in root
            root.width == view.width
            layout.left == root.left
            """)
        #expect(s.items.map(\.name) == ["view", "root", "layout"])
        #expect(s.constraints.count == 2)
    }

    @Test func ownDefaultNameIsAllowed() throws {
        let s = try parse("root r 1 1\nview a\nc1: a.width == 1\n")
        #expect(s.constraintName(0) == "c1")
    }

    /// (text, line, column, kind)
    static let errors: [(String, Int, Int, LayoutError.Kind)] = [
        ("", 1, 1, .misplacedDeclaration),
        ("view a\n", 1, 1, .misplacedDeclaration),
        ("root r 1 1\nlayout \"x\"\n", 2, 1, .misplacedDeclaration),
        ("root r 1 1\ndirection rtl\n", 2, 1, .misplacedDeclaration),
        ("direction up\nroot r 1 1\n", 1, 11, .syntax),
        ("root r 1 1\nroot s 1 1\n", 2, 1, .duplicateName),
        ("root r 1\n", 1, 9, .syntax),
        ("root r 1 1\nview r\n", 2, 6, .duplicateName),
        ("root r 1 1\nview a in b\n", 2, 11, .undeclaredName),
        ("root r 1 1\nview a\na.left == b.left\n", 3, 11, .undeclaredName),
        ("root r 1 1\nview a\na.lft == r.left\n", 3, 3, .syntax),
        ("root r 1 1\nview a\na.left = r.left\n", 3, 8, .syntax),
        ("root r 1 1\nview a\na.width == 1e999\n", 3, 12, .numberOutOfRange),
        ("root r 1 1\nview a\na.width == -1e-999\n", 3, 12, .numberOutOfRange),
        ("root r 1 1\nview a\na.width == 12px\n", 3, 12, .syntax),
        ("root r 1 1\nview a\na.width == 10 @\n", 3, 16, .syntax),
        ("root r 1 1\nview a\na.width == r.width +\n", 3, 21, .syntax),
        ("root r 1 1\nview a\na.width == r.width 5\n", 3, 20, .syntax),
        ("root r 1 1\nview a\nx: a.width == 1\nx: a.width == 2\n", 4, 1, .duplicateName),
        ("root r 1 1\nview a\nc2: a.width == 1\na.width == 2\n", 3, 1, .duplicateName),
        ("root r 1 1\nview a intrinsic 1 1 hug 0 250\n", 2, 26, .v5OutOfRange),
        ("root r 1 1\nview a in r in r\n", 2, 13, .syntax),
        ("layout\nroot r 1 1\n", 1, 7, .syntax),
        // A bare `layout` after the root ends a pass (spec §7); anything else there is misplaced.
        ("root r 1 1\nlayout x\n", 2, 1, .misplacedDeclaration),
        ("layout \"unterminated\nroot r 1 1\n", 1, 8, .syntax),
        ("root r 1 1\nview a ; b\n", 2, 8, .syntax),
        ("root r 1 1\n  view a\n  view a\n", 3, 8, .duplicateName),
        ("root r 1 1\nview a\na.width == 1 @high extra\n", 3, 20, .syntax),
    ]

    @Test(arguments: 0..<errors.count)
    func positionedErrors(index: Int) throws {
        let (text, line, column, kind) = Self.errors[index]
        let error = try #require(parseError(text), "expected an error for \(text.debugDescription)")
        #expect(error.location == SourceLocation(line: line, column: column), "\(error)")
        #expect(error.kind == kind, "\(error)")
        #expect(error.description.hasPrefix("t.layout:\(line):\(column): "))
    }
}

@Suite struct ValidationRuleTests {
    static let header = "root r 100 100\nview a\nview b\n"

    /// (constraint line, rules, column, kind)
    static let cases: [(String, ValidationRules, Int, LayoutError.Kind)] = [
        ("a.width == b.left", .runtime, 14, .v1SizeWithPosition),
        ("a.centerX <= b.height", .runtime, 16, .v1SizeWithPosition),
        ("a.left == 10", .runtime, 3, .v2PositionToConstant),
        ("a.firstBaseline >= 0 @750", .runtime, 3, .v2PositionToConstant),
        ("a.top == b.left", .runtime, 12, .v3MixedAxes),
        ("a.centerXWithinMargins == b.centerYWithinMargins", .runtime, 29, .v3MixedAxes),
        ("a.leading == b.left", .runtime, 16, .v4MixedDirections),
        ("a.rightMargin == b.trailingMargin", .runtime, 20, .v4MixedDirections),
        ("a.left == 0 * b.left", .runtime, 11, .v5OutOfRange),
        ("a.width == 10 @0", .runtime, 16, .v5OutOfRange),
        ("a.width == 10 @1000.5", .runtime, 16, .v5OutOfRange),
        ("a.width == 10 @-5", .runtime, 16, .v5OutOfRange),
        ("a.left == 2 * b.left", .guide, 11, .v6MultiplierOnPosition),
    ]

    @Test(arguments: 0..<cases.count)
    func ruleBroken(index: Int) throws {
        let (line, rules, column, kind) = Self.cases[index]
        let error = try #require(parseError(Self.header + line + "\n", rules: rules))
        #expect(error.kind == kind, "\(error)")
        #expect(error.location == SourceLocation(line: 4, column: column), "\(error)")
        #expect(error.message.hasPrefix(String(kind.rawValue.prefix(2)).uppercased()), "\(error)")
    }

    @Test func acceptedUnderRuntime() throws {
        for line in ["a.left == 2 * b.left", "a.width == 0 * b.width + 5", "a.leading == b.trailing",
                     "a.left == b.rightMargin", "a.width == 10 @1000", "a.width == 10 @0.001",
                     "a.lastBaseline == b.firstBaseline", "a.centerY == b.topMargin"] {
            #expect(throws: Never.self) { try parse(Self.header + line + "\n") }
        }
        #expect(throws: Never.self) { try parse(Self.header + "a.width == 2 * b.width\n", rules: .guide) }
    }

    @Test func validateFindsIssuesInBuiltSystems() {
        var s = ConstraintSystem(rootName: "r", frame: [.zero, .zero, NumericLiteral(1), NumericLiteral(1)])
        s.addView(Item(name: "a", parent: 0))
        s.constraints.append(Constraint(first: AttributeReference(item: 1, attribute: .left), relation: .equal, second: nil, constant: NumericLiteral(3)))
        s.constraints.append(Constraint(first: AttributeReference(item: 1, attribute: .width), relation: .equal, second: nil, priority: Priority(2000)))
        let kinds = s.validate().map(\.kind)
        #expect(kinds == [.v2PositionToConstant, .v5OutOfRange])
    }
}
