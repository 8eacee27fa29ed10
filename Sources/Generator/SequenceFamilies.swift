import LayoutModel

/// A named way of changing a generated system between layout passes (spec §7): what apps do
/// between `layoutIfNeeded` calls, and what breaks incremental solvers.
///
/// Every step is drawn from the generator handed in and checked by
/// ``UpdateSequence/Builder`` (a step that does not apply is redrawn, never kept), so a
/// (family, base family, size, steps, seed) tuple always builds the same sequence.
public struct SequenceFamily: Sendable {
    /// The name users select it by, lower-case with hyphens.
    public let name: String
    /// Realistic (what apps do) or pathological (built to break incremental solvers).
    public let kind: FamilyKind
    /// One line on what the steps model and why they are worth running.
    public let rationale: String
    /// The base family whose system the steps change, when the family needs a particular
    /// one; nil: any (the caller's).
    public let base: String?
    /// Appends about `steps` steps to the builder, a pass after each step or small group.
    let extend: @Sendable (_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) -> Void

    init(
        name: String, kind: FamilyKind, rationale: String, base: String? = nil,
        extend: @escaping @Sendable (_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) -> Void
    ) {
        self.name = name
        self.kind = kind
        self.rationale = rationale
        self.base = base
        self.extend = extend
    }
}

/// The catalogue of sequence families.
public enum SequenceFamilies {
    public static let all: [SequenceFamily] = [
        SequenceFamily(
            name: "cell-reuse", kind: .realistic,
            rationale: "one table cell reused for hundreds of rows: each pass its labels get new intrinsic sizes",
            base: "table-cells", extend: cellReuse),
        SequenceFamily(
            name: "rotation", kind: .realistic,
            rationale: "rotation and window resizing, now and then to almost nothing: set root W H moves the constant of every row naming the root",
            extend: rotation),
        SequenceFamily(
            name: "keyboard", kind: .realistic,
            rationale: "the keyboard in and out: one bottom constraint's constant jumps by a keyboard's height and back",
            extend: keyboard),
        SequenceFamily(
            name: "drag", kind: .realistic,
            rationale: "dragging: hundreds of small constant changes of one position constraint, a pass after each",
            extend: drag),
        SequenceFamily(
            name: "text-editing", kind: .realistic,
            rationale: "typing into a label: its intrinsic width grows a character at a time, sometimes it wraps",
            extend: textEditing),
        SequenceFamily(
            name: "rows-insert-delete", kind: .realistic,
            rationale: "rows inserted and deleted: views with their constraints come and go",
            extend: rows),
        SequenceFamily(
            name: "priority-toggle", kind: .realistic,
            rationale: "priority toggles 250 <-> 750 and constraints deactivated and activated again, the usual ways to switch between two layouts",
            extend: priorityToggle),
        SequenceFamily(
            name: "conflict-then-remove", kind: .pathological,
            rationale: "a conflicting constraint added (required, or optional and violated), then the earlier one removed: a broken constraint becomes satisfiable",
            extend: conflictThenRemove),
        SequenceFamily(
            name: "readd-after-conflict", kind: .pathological,
            rationale: "remove and re-add after a conflict (kiwi.js #31, cassowary.dart #12): residue of a rejected constraint",
            extend: readdAfterConflict),
        SequenceFamily(
            name: "random-steps", kind: .random,
            rationale: "long random add/remove/set sequences: every step kind, in any order, on any family",
            extend: randomSteps),
    ]

    public static func named(_ name: String) -> SequenceFamily? { all.first { $0.name == name } }
}

/// A generated sequence with what regenerates it.
public struct GeneratedSequence: Sendable {
    public let family: String
    public let base: String
    public let size: Int
    public let steps: Int
    public let seed: UInt64
    public let sequence: UpdateSequence

    public var description: String { "\(family) on \(base) size \(size) steps \(steps) seed \(seed)" }
}

/// Builds a sequence: `base`'s system of `size` views (the family's own base if it names
/// one), then about `steps` steps of `family`. Nil when the base system cannot start a
/// sequence (its intrinsic constraints do not match its views).
public func generateSequence(family: SequenceFamily, base: Family, size: Int, steps: Int, seed: UInt64) -> GeneratedSequence? {
    let base = family.base.flatMap(Families.named) ?? base
    let initial = generate(family: base, size: size, seed: seed).system
    guard let sequence = extendSequence(family: family, initial: initial, steps: steps, seed: seed) else { return nil }
    return GeneratedSequence(family: family.name, base: base.name, size: size, steps: steps, seed: seed, sequence: sequence)
}

/// About `steps` steps of `family` on a given first system (a corpus file, a repro), seeded
/// like ``generateSequence(family:base:size:steps:seed:)``. Nil when the system cannot start
/// a sequence (it is invalid, or its intrinsic constraints do not match its views).
public func extendSequence(family: SequenceFamily, initial: ConstraintSystem, steps: Int, seed: UInt64) -> UpdateSequence? {
    var rng = SeededGenerator(seed: seed ^ 0x5EC0_E4CE_5EC0_E4CE)
    guard var builder = try? UpdateSequence.Builder(initial: initial) else { return nil }
    family.extend(&builder, max(steps, 0), &rng)
    return builder.sequence
}

// MARK: The families' steps

extension SequenceFamilies {
    /// Tries `draw` up to a few times until its step applies; false if none did.
    @discardableResult
    static func step(_ builder: inout UpdateSequence.Builder, _ draw: () -> UpdateStep.Action?) -> Bool {
        for _ in 0..<8 {
            guard let action = draw() else { return false }
            if (try? builder.apply(action)) != nil { return true }
        }
        return false
    }

    static func constraintName(_ builder: UpdateSequence.Builder, where predicate: (Constraint) -> Bool, _ rng: inout SeededGenerator) -> String? {
        let system = builder.replay.current
        let candidates = system.constraints.indices.filter { predicate(system.constraints[$0]) }
        guard !candidates.isEmpty else { return nil }
        return builder.replay.constraintName(candidates[rng.index(below: candidates.count)])
    }

    static func intrinsicViews(_ builder: UpdateSequence.Builder) -> [String] {
        builder.replay.current.items.dropFirst().filter { $0.intrinsic.horizontal != nil || $0.intrinsic.vertical != nil }.map(\.name)
    }

    static func number(_ value: Int) -> NumericLiteral { NumericLiteral(value) }

    /// `value + delta`, through `Double` (generated constants are small decimals).
    static func shifted(_ value: NumericLiteral, by delta: Int) -> NumericLiteral { NumericLiteral(value.doubleValue + Double(delta)) }

    static func cellReuse(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        let views = intrinsicViews(builder)
        guard !views.isEmpty else { return drag(&builder, steps, &rng) }
        for _ in 0..<steps {
            let name = views[rng.index(below: views.count)]
            step(&builder) { .setIntrinsic(item: name, intrinsic: AxisPair(horizontal: number(rng.int(in: 20...300)), vertical: number(rng.int(in: 14...60)))) }
            builder.endPass()
        }
    }

    static func rotation(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        let frame = builder.replay.current.root.frame ?? [0, 0, 375, 667].map { NumericLiteral($0) }
        var (width, height) = (frame[2], frame[3])
        for _ in 0..<steps {
            if rng.chance(0.6) {
                (width, height) = (height, width)
            } else if rng.chance(0.25) {
                // Squeezed: a window narrowed to nothing (split view, a view laid out before
                // it has a frame): minimum sizes and margins become infeasible, and the
                // solver must roll the failed change back.
                width = number(rng.int(in: 0...60))
                height = number(rng.int(in: 0...60))
            } else {
                width = number(rng.int(in: 200...1400))
                height = number(rng.int(in: 200...1000))
            }
            step(&builder) { .setRootSize(width: width, height: height) }
            builder.endPass()
        }
    }

    static func keyboard(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        guard let name = constraintName(builder, where: { $0.first.attribute.axis == .vertical && !$0.first.attribute.isSize }, &rng),
              let index = try? builder.replay.constraintIndex(named: name, at: nil) else { return drag(&builder, steps, &rng) }
        let resting = builder.replay.current.constraints[index].constant
        let shown = shifted(resting, by: [216, 291, 336][rng.index(below: 3)] * (rng.chance(0.5) ? 1 : -1))
        for k in 0..<steps {
            step(&builder) { .setConstant(constraint: name, constant: k % 2 == 0 ? shown : resting) }
            builder.endPass()
        }
    }

    static func drag(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        guard let name = constraintName(builder, where: { !$0.first.attribute.isSize && $0.origin != .intrinsic }, &rng)
                ?? constraintName(builder, where: { $0.origin != .intrinsic }, &rng),
              let index = try? builder.replay.constraintIndex(named: name, at: nil) else { return }
        var position = builder.replay.current.constraints[index].constant
        for _ in 0..<steps {
            position = shifted(position, by: rng.int(in: -12...12))
            step(&builder) { .setConstant(constraint: name, constant: position) }
            builder.endPass()
        }
    }

    static func textEditing(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        var views = intrinsicViews(builder)
        if views.isEmpty {
            guard (try? builder.addView(Item(name: "editedLabel", parent: 0, intrinsic: AxisPair(horizontal: number(10), vertical: number(21))))) != nil else { return }
            let label = builder.replay.current.items.count - 1
            _ = try? builder.add(Constraint(first: AttributeReference(item: label, attribute: .left), relation: .equal,
                                        second: AttributeReference(item: 0, attribute: .left), constant: number(16)))
            _ = try? builder.add(Constraint(first: AttributeReference(item: label, attribute: .top), relation: .equal,
                                        second: AttributeReference(item: 0, attribute: .top), constant: number(16)))
            builder.endPass()
            views = ["editedLabel"]
        }
        let name = views[rng.index(below: views.count)]
        var (width, lines) = (10, 1)
        for _ in 0..<steps {
            width += rng.int(in: 5...9)
            if width > 300 { (width, lines) = (rng.int(in: 5...40), lines + 1) }
            step(&builder) { .setIntrinsic(item: name, intrinsic: AxisPair(horizontal: number(width), vertical: number(21 * lines))) }
            builder.endPass()
        }
    }

    static func rows(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        var added: [String] = []
        var serial = 0
        for _ in 0..<steps {
            if !added.isEmpty && (added.count > 8 || rng.chance(0.4)) {
                let name = added.remove(at: rng.index(below: added.count))
                step(&builder) { .removeView(name) }
            } else {
                serial += 1
                let name = "row\(serial)_\(rng.bounded(1_000_000))"
                if (try? builder.addView(Item(name: name, parent: 0, intrinsic: AxisPair(horizontal: nil, vertical: number(44))))) != nil {
                    let row = builder.replay.current.items.count - 1
                    let above = added.last.flatMap { builder.replay.current.itemIndex(named: $0) } ?? 0
                    func reference(_ item: Int, _ attribute: Attribute) -> AttributeReference { AttributeReference(item: item, attribute: attribute) }
                    _ = try? builder.add(Constraint(first: reference(row, .left), relation: .equal, second: reference(0, .left)))
                    _ = try? builder.add(Constraint(first: reference(row, .right), relation: .equal, second: reference(0, .right)))
                    _ = try? builder.add(Constraint(first: reference(row, .top), relation: .equal,
                                                second: reference(above, above == 0 ? .top : .bottom), constant: number(rng.int(in: 0...8))))
                    added.append(name)
                }
            }
            builder.endPass()
        }
    }

    static func priorityToggle(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        var names = (0..<2).compactMap { _ in constraintName(builder, where: { !$0.priority.isRequired && $0.origin != .intrinsic }, &rng) }
        if names.isEmpty {
            // No optional constraint to toggle: add two competing ones.
            let system = builder.replay.current
            guard system.items.count > 1 else { return }
            for (width, priority) in [(120, Priority.low), (240, Priority.high)] {
                _ = try? builder.add(Constraint(first: AttributeReference(item: 1, attribute: .width), relation: .equal, second: nil,
                                            constant: number(width), priority: priority))
                names.append(builder.replay.constraintName(builder.replay.current.constraints.count - 1))
            }
            builder.endPass()
        }
        for _ in 0..<steps {
            let pick = rng.index(below: names.count)
            guard let index = try? builder.replay.constraintIndex(named: names[pick], at: nil) else { continue }
            if rng.chance(0.25) {
                // The other usual switch: deactivated (removed) and activated again (re-added,
                // under a new name), a pass each; one of two competing rows is always broken.
                var again = builder.replay.current.constraints[index]
                again.id = nil
                again.source = nil
                guard step(&builder, { .removeConstraint(names[pick]) }) else { continue }
                builder.endPass()
                if (try? builder.add(again)) != nil {
                    names[pick] = builder.replay.constraintName(builder.replay.current.constraints.count - 1)
                } else {
                    names.remove(at: pick)
                }
                builder.endPass()
                if names.isEmpty { return }
                continue
            }
            let priority = builder.replay.current.constraints[index].priority == .low ? Priority.high : .low
            step(&builder) { .setPriority(constraint: names[pick], priority: priority) }
            builder.endPass()
        }
    }

    /// A constraint that contradicts one already there (the earlier one, returned by name):
    /// - half the time a required equality copied with another constant (the plain conflict:
    ///   its row reduces to `0 = d` at once);
    /// - a quarter a required inequality that excludes an existing constraint's solutions
    ///   (`x == c` or `x <= c` against `x >= c + d`): the solver only learns it is infeasible
    ///   after pivots in its artificial phase, so a rejection must roll those back;
    /// - a quarter an optional copy of a constraint at another constant and priority: kept but
    ///   violated, so that removing it later removes a violated optional row, whose error
    ///   symbols carry costs. An inequality's copy is an optional equality on its excluded side.
    static func conflicting(_ builder: UpdateSequence.Builder, _ rng: inout SeededGenerator) -> (Constraint, earlier: String)? {
        let system = builder.replay.current
        let explicit = system.constraints.indices.filter { system.constraints[$0].origin != .intrinsic }
        let requiredEqualities = explicit.filter { system.constraints[$0].priority.isRequired && system.constraints[$0].relation == .equal }
        var kind = rng.index(below: 4)
        var candidates: [Int]
        switch kind {
        case 0, 1: candidates = requiredEqualities
        case 2: candidates = explicit.filter { system.constraints[$0].priority.isRequired }
        default: candidates = explicit
        }
        if candidates.isEmpty { (kind, candidates) = (0, requiredEqualities) }
        guard !candidates.isEmpty else { return nil }
        let index = candidates[rng.index(below: candidates.count)]
        var conflict = system.constraints[index].freshCopy
        let distance = rng.int(in: 1...40)
        switch kind {
        case 0, 1:
            conflict.constant = shifted(conflict.constant, by: distance)
        case 2:
            // `>=` past an equality or an upper bound, `<=` below a lower bound.
            let below = conflict.relation == .greaterThanOrEqual
            conflict.relation = below ? .lessThanOrEqual : .greaterThanOrEqual
            conflict.constant = shifted(conflict.constant, by: below ? -distance : distance)
        default:
            // Into the excluded side of an inequality; either side of an equality.
            let sign = conflict.relation == .lessThanOrEqual ? 1 : conflict.relation == .greaterThanOrEqual ? -1 : rng.chance(0.5) ? 1 : -1
            conflict.relation = .equal
            conflict.constant = shifted(conflict.constant, by: distance * sign)
            conflict.priority = Priority([250, 500, 750, 999][rng.index(below: 4)])
        }
        return (conflict, builder.replay.constraintName(index))
    }

    /// Conflicts one after another until about `steps` steps: a constraint that contradicts
    /// an earlier one (``conflicting(_:_:)``) added, a pass, then `followUp`'s steps, which it
    /// counts. Random steps instead where nothing can conflict.
    static func conflicts(
        _ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator,
        followUp: (_ builder: inout UpdateSequence.Builder, _ conflict: Constraint, _ earlier: String, _ rng: inout SeededGenerator) -> Int
    ) {
        var done = 0
        while done < steps {
            guard let (conflict, earlier) = conflicting(builder, &rng) else { return randomSteps(&builder, steps - done, &rng) }
            guard (try? builder.add(conflict)) != nil else { return }
            builder.endPass()
            done += 1 + followUp(&builder, conflict, earlier, &rng)
        }
    }

    static func conflictThenRemove(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        conflicts(&builder, steps, &rng) { builder, _, earlier, _ in
            step(&builder) { .removeConstraint(earlier) }
            builder.endPass()
            return 1
        }
    }

    static func readdAfterConflict(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        conflicts(&builder, steps, &rng) { builder, conflict, _, rng in
            let added = builder.replay.constraintName(builder.replay.current.constraints.count - 1)
            step(&builder) { .removeConstraint(added) }
            builder.endPass()
            var again = conflict
            again.constant = shifted(conflict.constant, by: rng.int(in: -40...40))
            _ = try? builder.add(again)
            builder.endPass()
            return 2
        }
    }

    static func randomSteps(_ builder: inout UpdateSequence.Builder, _ steps: Int, _ rng: inout SeededGenerator) {
        var views = 0
        for _ in 0..<steps {
            let system = builder.replay.current
            let count = system.constraints.count
            let draw: () -> UpdateStep.Action? = {
                let pick = count == 0 ? 7 : rng.index(below: 9)
                let index = count == 0 ? 0 : rng.index(below: count)
                let name = count == 0 ? "" : system.constraintName(index)
                switch pick {
                case 0, 1: return .setConstant(constraint: name, constant: shifted(system.constraints[index].constant, by: rng.int(in: -30...30)))
                case 2: return .setPriority(constraint: name, priority: Priority(rng.int(in: 1...999)))
                case 3: return .removeConstraint(name)
                case 4:
                    let items = system.items.dropFirst().map(\.name)
                    guard !items.isEmpty else { return nil }
                    return .setIntrinsic(item: items[rng.index(below: items.count)], intrinsic: AxisPair(
                        horizontal: rng.chance(0.8) ? number(rng.int(in: 0...200)) : nil, vertical: number(rng.int(in: 0...60))))
                case 5: return .setRootSize(width: number(rng.int(in: 100...1000)), height: number(rng.int(in: 100...1000)))
                case 6:
                    guard system.items.count > 2, rng.chance(0.3) else { return nil }
                    return .removeView(system.items[rng.int(in: 1...(system.items.count - 1))].name)
                default:
                    guard count > 0 else { return nil }
                    var constraint = system.constraints[index].freshCopy
                    constraint.constant = shifted(constraint.constant, by: rng.int(in: -20...20))
                    constraint.priority = rng.chance(0.5) ? .required : Priority([250, 500, 750, 999][rng.index(below: 4)])
                    return .addConstraint(NewConstraint(constraint, in: system))
                }
            }
            if rng.chance(0.05) {
                views += 1
                let parent = rng.index(below: system.items.count)
                _ = try? builder.addView(Item(name: "extra\(views)_\(rng.bounded(100_000))", parent: parent,
                                          intrinsic: AxisPair(horizontal: number(rng.int(in: 10...100)), vertical: nil)))
            } else {
                step(&builder, draw)
            }
            if rng.chance(0.6) { builder.endPass() }
        }
    }
}
