import Foundation
import PropertyBased
import Testing
@testable import LayoutModel

/// Random valid sequences (built step by step from shrinkable integers): their changes
/// describe exactly what happened, their passes materialise the same systems the builder saw,
/// and they round-trip through text and JSON.
@Suite struct SequencePropertyTests {
    static let priorities = ["999", "750", "251", "250", "50", "999.5", "0.001", "1"]
    static let metrics = ["0", "10", "21", "120.5", "1e-9"]

    /// A step for the builder's current system, described by `code`; nil when it does not
    /// apply there (no view to remove…). `k` makes new names unique.
    static func action(_ code: Int, in s: ConstraintSystem, k: Int) -> UpdateStep.Action? {
        var c = code
        func take(_ n: Int) -> Int { defer { c /= max(n, 1) }; return c % max(n, 1) }
        let kind = take(9)
        let plain = s.constraints.indices.filter { s.constraints[$0].origin != .intrinsic }
        let optional = plain.filter { !s.constraints[$0].priority.isRequired }
        let views = Array(s.items.indices.dropFirst())
        func metric() -> NumericLiteral? { take(3) == 0 ? nil : NumericLiteral(parsing: metrics[take(metrics.count)]) }
        switch kind {
        case 0 where !plain.isEmpty:
            return .setConstant(constraint: s.constraintName(plain[take(plain.count)]), constant: NumericLiteral(take(400) - 200))
        case 1 where !optional.isEmpty:
            return .setPriority(constraint: s.constraintName(optional[take(optional.count)]),
                                priority: Priority(NumericLiteral(parsing: priorities[take(priorities.count)])!))
        case 2 where !views.isEmpty:
            return .setIntrinsic(item: s.items[views[take(views.count)]].name, intrinsic: AxisPair(horizontal: metric(), vertical: metric()))
        case 3:
            return .setRootSize(width: NumericLiteral(100 + take(700)), height: NumericLiteral(100 + take(700)))
        case 4 where !plain.isEmpty:
            return .removeConstraint(s.constraintName(plain[take(plain.count)]))
        case 5 where !views.isEmpty && take(3) == 0:
            return .removeView(s.items[views[take(views.count)]].name)
        case 6:
            let parent = take(s.items.count)
            return .addView(NewView(
                name: "n\(k)", parent: parent == 0 ? nil : s.items[parent].name,
                intrinsic: AxisPair(horizontal: metric(), vertical: metric()),
                hugging: take(4) == 0 ? AxisPair(horizontal: Priority(251), vertical: .low) : AxisPair(horizontal: .low, vertical: .low)))
        default:
            let constraint = RoundTripPropertyTests.constraint(c, itemCount: s.items.count, id: "s\(k)")
            return .addConstraint(NewConstraint(constraint, in: s))
        }
    }

    /// Follows a step's changes on `mirror`, as an incremental solver would, taking new
    /// constraints and items from `after`.
    /// `names` follows the constraints' names: removed ones go, appended ones come.
    static func follow(_ changes: [SystemChange], on mirror: inout ConstraintSystem, names: inout [String], after: ConstraintSystem) {
        for change in changes {
            switch change {
            case .constantChanged(let i, let from, let to):
                #expect(mirror.constraints[i].constant == from)
                mirror.constraints[i].constant = to
            case .priorityChanged(let i, let from, let to):
                #expect(mirror.constraints[i].priority == from && !from.isRequired && !to.isRequired)
                mirror.constraints[i].priority = to
            case .rootResized(let from, let to):
                let frame = mirror.root.frame!
                #expect(frame[2] == from.horizontal && frame[3] == from.vertical)
                mirror.setRootFrame([frame[0], frame[1], to.horizontal, to.vertical])
            case .constraintsRemoved(let indices):
                #expect(indices == indices.sorted())
                for i in indices.reversed() { mirror.constraints.remove(at: i); names.remove(at: i) }
            case .constraintsAppended(let range):
                #expect(range.lowerBound == mirror.constraints.count)
                mirror.constraints += after.constraints[range]
                names += range.map(after.constraintName)
            case .itemAdded(let index):
                #expect(index == mirror.items.count)
                mirror.items.append(after.items[index])
            case .itemsRemoved(let indices):
                var newIndex = Array(mirror.items.indices)
                var shift = 0
                for i in mirror.items.indices {
                    if indices.contains(i) { shift += 1; newIndex[i] = -1 } else { newIndex[i] -= shift }
                }
                #expect(mirror.constraints.allSatisfy { newIndex[$0.first.item] >= 0 && ($0.second.map { newIndex[$0.item] >= 0 } ?? true) })
                for i in indices.reversed() { mirror.items.remove(at: i) }
                for i in mirror.items.indices { mirror.items[i].parent = mirror.items[i].parent.map { newIndex[$0] } }
                for i in mirror.constraints.indices {
                    mirror.constraints[i].first.item = newIndex[mirror.constraints[i].first.item]
                    if let second = mirror.constraints[i].second { mirror.constraints[i].second?.item = newIndex[second.item] }
                }
            }
        }
    }

    static func names(_ s: ConstraintSystem) -> [String] { s.constraints.indices.map(s.constraintName) }

    @Test func randomSequences() async {
        await propertyCheck(
            count: 150,
            input: Gen.int(in: 0...1_000).array(of: 1...6), Gen.int(in: 0...Int(Int32.max)).array(of: 0...12),
            Gen.int(in: 0...Int(Int32.max)).array(of: 0...40)
        ) { views, constraints, codes in
            let initial = RoundTripPropertyTests.system(views: views, constraints: constraints, rtl: views.count % 2 == 0)
            do {
                var builder = try UpdateSequence.Builder(initial: initial)
                var passes = [initial]
                for (k, code) in codes.enumerated() {
                    if code % 7 == 0 {
                        builder.endPass()
                        passes.append(builder.current)
                        continue
                    }
                    guard let action = Self.action(code / 7, in: builder.current, k: k) else { continue }
                    var mirror = builder.current
                    var names = Self.names(mirror)
                    let changes = try builder.apply(action)
                    let after = builder.current
                    Self.follow(changes, on: &mirror, names: &names, after: after)
                    // A constraint keeps the name it had.
                    #expect(names == Self.names(after))
                    #expect(mirror.lowered(as: Double.self) == after.lowered(as: Double.self), "\(action)")
                    #expect(mirror.items.map(\.name) == after.items.map(\.name))
                    #expect(mirror.items.map(\.parent) == after.items.map(\.parent))
                    #expect(after.validate().isEmpty, "\(after.validate())")
                }
                let sequence = builder.sequence
                if passes.count > sequence.passCount { passes.removeLast() }
                if sequence.passCount > passes.count { passes.append(builder.current) }
                // Materialised passes are what the builder saw.
                #expect(sequence.passSystems == passes)
                for (k, pass) in passes.enumerated() {
                    #expect(sequence.system(atPass: k) == pass)
                    // A pass's system stands alone: its text reads back to the same rows and names.
                    let reread = try LayoutParser.parse(pass.canonicalText, file: "pass.layout")
                    #expect(reread.lowered(as: Double.self) == pass.lowered(as: Double.self))
                    #expect(Self.names(reread) == Self.names(pass))
                }
                // Text round trip.
                let text = sequence.canonicalText
                let reparsed = try LayoutParser.parseSequence(text, file: "sequence.layout")
                #expect(reparsed == sequence, "\(text)")
                #expect(reparsed.canonicalText == text)
                // JSON round trip.
                let json = try sequence.jsonText()
                let decoded = try UpdateSequence(json: json, file: "sequence.json")
                #expect(decoded == sequence)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
