import Foundation
import PropertyBased
import Testing
@testable import LayoutModel

/// `parse(print(s)) == s` on systems built from random descriptors (shrinkable integers).
@Suite struct RoundTripPropertyTests {
    static let multipliers = ["1", "1", "0.5", "2", "-1.5", "1e-9", "1.536", "0.6510416666", "3"]
    static let constants = ["0", "8", "-12", "0.5", "1e-9", "1e9", "163.5", "-0.25", "20"]
    static let priorities = ["1000", "999", "750", "251", "250", "50", "999.5", "0.001", "1"]

    /// Builds a valid system: view `k` is described by `views[k]`, constraint `j` by `constraints[j]`.
    static func system(views: [Int], constraints: [Int], rtl: Bool) -> ConstraintSystem {
        var s = ConstraintSystem(
            name: views.count % 3 == 0 ? "generated \"quoted\" name" : nil,
            direction: rtl ? .rightToLeft : .leftToRight,
            rootName: "root", frame: ["0", "0", "375", "667"].compactMap { NumericLiteral(parsing: $0) })
        for (k, code) in views.enumerated() {
            let parent = code % (k + 1)  // any earlier item
            let hasIntrinsic = code % 4
            let w = hasIntrinsic & 1 != 0 ? NumericLiteral(10 + code % 90) : nil
            let h = hasIntrinsic & 2 != 0 ? NumericLiteral(parsing: "\(code % 50).5") : nil
            var item = Item(name: "v\(k)", parent: parent, intrinsic: AxisPair(horizontal: w, vertical: h))
            if code % 5 == 0 { item.hugging = AxisPair(horizontal: Priority(251), vertical: Priority(NumericLiteral(parsing: "249.5")!)) }
            if code % 7 == 0 { item.margins = Margins(top: .zero, left: NumericLiteral(16), bottom: NumericLiteral(-2), right: NumericLiteral(8)) }
            if code % 11 == 0 { item.baselines = Baselines(first: NumericLiteral(15), last: NumericLiteral(6)) }
            s.addView(item)
        }
        for (j, code) in constraints.enumerated() {
            s.constraints.append(constraint(code, itemCount: s.items.count, id: "id\(j)"))
        }
        return s
    }

    /// A valid constraint between items below `itemCount`, described by `code`; it takes the
    /// ID `id` one time in five.
    static func constraint(_ code: Int, itemCount: Int, id: String) -> Constraint {
        let attributes = Attribute.allCases
        var c = code
        func take(_ n: Int) -> Int { defer { c /= n }; return c % n }
        let a = take(itemCount)
        let attrA = attributes[take(attributes.count)]
        let compatible = attributes.filter { b in
            b.isSize == attrA.isSize && (attrA.isSize || b.axis == attrA.axis)
                && !(attrA.isDirectional && b.isAbsoluteHorizontal) && !(attrA.isAbsoluteHorizontal && b.isDirectional)
        }
        let b = take(itemCount)
        let attrB = compatible[take(compatible.count)]
        let relation = Relation.allCases[take(3)]
        let multiplier = NumericLiteral(parsing: multipliers[take(multipliers.count)])!
        let constant = NumericLiteral(parsing: constants[take(constants.count)])!
        let priority = Priority(NumericLiteral(parsing: priorities[take(priorities.count)])!)
        let constantForm = attrA.isSize && take(4) == 0
        return Constraint(
            id: take(5) == 0 ? id : nil, first: AttributeReference(item: a, attribute: attrA), relation: relation,
            multiplier: multiplier, second: constantForm ? nil : AttributeReference(item: b, attribute: attrB),
            constant: constant, priority: priority)
    }

    @Test func printedSystemsReadBackEqual() async {
        await propertyCheck(
            count: 300,
            input: Gen.int(in: 0...1_000).array(of: 0...8), Gen.int(in: 0...Int(Int32.max)).array(of: 0...30), Gen.bool
        ) { views, constraints, rtl in
            let system = Self.system(views: views, constraints: constraints, rtl: rtl)
            #expect(system.validate().isEmpty)
            let text = system.canonicalText
            do {
                let reparsed = try LayoutParser.parse(text, file: "roundtrip.layout")
                #expect(reparsed == system, "\(text)")
                #expect(reparsed.canonicalText == text)
                #expect(reparsed.lowered(as: Double.self) == system.lowered(as: Double.self))
            } catch {
                Issue.record("printed system does not parse: \(error)\n\(text)")
            }
            do {
                let json = try JSONEncoder().encode(system)
                #expect(try JSONDecoder().decode(ConstraintSystem.self, from: json) == system)
            } catch {
                Issue.record("JSON round trip failed: \(error)")
            }
        }
    }
}
