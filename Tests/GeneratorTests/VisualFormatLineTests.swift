import LayoutModel
import Testing
@testable import Generator

@Suite("VisualFormatLine")
struct VisualFormatLineTests {
    /// Declares views a, b, c (c inside b) and checks that the line's constraints are the
    /// parser's for its text.
    func check(_ make: (ConstraintSystem) -> VisualFormatLine, direction: LayoutDirection = .leftToRight) throws {
        var system = ConstraintSystem(direction: direction, rootName: "superview", frame: [.zero, .zero, NumericLiteral(375), NumericLiteral(667)])
        system.addView(Item(name: "a", parent: 0))
        system.addView(Item(name: "b", parent: 0, intrinsic: AxisPair(horizontal: NumericLiteral(40), vertical: nil)))
        system.addView(Item(name: "c", parent: 2))
        let line = make(system)
        let header = (direction == .rightToLeft ? "direction rtl\n" : "")
            + "root superview 375 667\nview a\nview b intrinsic 40 -\nview c in b\n"
        let parsed = try LayoutParser.parse(header + line.text(in: system) + "\n")
        var built = system
        built.constraints += line.constraints(in: system)
        #expect(parsed == built, "\(line.text(in: system))")
        #expect(parsed.constraints.map(\.origin) == built.constraints.map(\.origin))
    }

    @Test("edges, standard and fixed spacing, view predicates and alignment")
    func horizontal() throws {
        try check { _ in
            VisualFormatLine(axis: .horizontal, parts: [
                .edge, .space(.standard),
                .view(1, [.init(.greaterThanOrEqual, .constant(NumericLiteral(70))), .init(.lessThanOrEqual, .constant(NumericLiteral(100)), priority: Priority(750))]),
                .space(.fixed(.decimal("12.5"))), .view(2, [.init(.equal, .view(1))]), .space(.standard), .edge,
            ], alignment: [.centerY, .top])
        }
    }

    @Test("flush views, predicate connections and a vertical line")
    func vertical() throws {
        try check { _ in
            VisualFormatLine(axis: .vertical, parts: [
                .edge, .view(1, []), .view(2, []),
                .space(.predicates([.init(.greaterThanOrEqual, .constant(NumericLiteral(20)), priority: .low), .init(.lessThanOrEqual, .constant(NumericLiteral(40)))])),
                .edge,
            ], alignment: [.leading])
        }
    }

    @Test("a line inside a child view uses that view as the edge, also right to left")
    func nested() throws {
        try check({ _ in
            VisualFormatLine(axis: .horizontal, parts: [.edge, .space(.fixed(NumericLiteral(4))), .view(3, []), .space(.standard), .edge])
        }, direction: .rightToLeft)
        try check { _ in VisualFormatLine(axis: .horizontal, parts: [.view(1, []), .space(.standard), .view(2, [])]) }
    }
}
