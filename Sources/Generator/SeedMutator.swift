import LayoutModel

extension Family {
    /// The family whose cases are mutations of one real layout, `seed` (`fuzz --seeds`):
    /// case `(size, seed)` is ``SeedMutator/mutate(_:rng:)`` of it with the case's
    /// generator, so a finding's family names the seed and its seed the mutation. The size
    /// is ignored: a mutation keeps the seed's views.
    public static func mutations(of seed: ConstraintSystem, named name: String) -> Family {
        Family(
            name: name, kind: .realistic,
            rationale: "a real layout mutated (constants, priorities, intrinsic sizes, dropped and duplicated constraints)",
            sizeNote: "ignored: a mutation keeps the seed's views") { _, rng in
            SeedMutator.mutate(seed, rng: &rng)
        }
    }
}

extension SequenceFamily {
    /// The prefix of a seed's update-sequence family: `seed-updates:PATH` changes the system
    /// of the seed family `seed:PATH` between passes.
    public static let seedUpdatesPrefix = "seed-updates:"

    /// The update sequences of one real layout, `seed` (`fuzz --seeds`): the base is the seed
    /// family `baseName` (the seed mutated); then the seed's own passes, as far as their
    /// steps still apply to the mutant; then about `steps` update steps of every kind of spec
    /// §7 (``SeedMutator/appendUpdates(to:steps:rng:)``), so a case with a pass or more is
    /// judged through each backend's sequence path (float's incremental one).
    public static func seedUpdates(of seed: UpdateSequence, named name: String, base baseName: String) -> SequenceFamily {
        SequenceFamily(
            name: name, kind: .realistic,
            rationale: "a real layout mutated, then its own passes and update steps of every kind (set constant, intrinsic, priority, root; remove; add view and constraint)",
            base: baseName) { builder, steps, rng in
            SeedMutator.replayPasses(of: seed, onto: &builder)
            SeedMutator.appendUpdates(to: &builder, steps: steps, rng: &rng)
        }
    }
}

/// Structure-preserving mutations of a valid system: the views and their hierarchy stay;
/// constants, priorities and intrinsic sizes change, and constraints are dropped or
/// duplicated. Every random choice comes from the generator it is handed. A mutant that
/// the format's validation would reject is never returned (the draw is retried, and after
/// a few tries the seed itself is the case), so every case is valid by construction.
public enum SeedMutator {
    /// What one mutation step does.
    enum Step: CaseIterable {
        case perturbConstant, changePriority, dropConstraint, duplicateConstraint, changeIntrinsicSize
    }

    /// One to four mutation steps applied to `seed`.
    public static func mutate(_ seed: ConstraintSystem, rng: inout SeededGenerator) -> ConstraintSystem {
        for _ in 0..<8 {
            var system = seed
            for _ in 0..<rng.int(in: 1...4) {
                apply(rng.element(of: Step.allCases), to: &system, rng: &rng)
            }
            if system.validate(rules: .runtime).isEmpty { return canonical(system) }
        }
        return seed
    }

    /// The system as its canonical text reads back. A duplicate inserted before a view's
    /// intrinsic constraints moves them off their canonical place, so the text prints them as
    /// plain constraints and the view reads back without an intrinsic size; the case must be
    /// what its text says, or a later `set V intrinsic` step would edit intrinsic
    /// constraints in the case and add new ones (renumbering the rest) in its repro.
    static func canonical(_ system: ConstraintSystem) -> ConstraintSystem {
        guard let reparsed = try? LayoutParser.parse(system.canonicalText), reparsed.validate(rules: .runtime).isEmpty else { return system }
        return reparsed
    }

    static func apply(_ step: Step, to system: inout ConstraintSystem, rng: inout SeededGenerator) {
        // Intrinsic constraints follow their view's intrinsic size; only the others are edited
        // one by one.
        let explicit = system.constraints.indices.filter { system.constraints[$0].origin != .intrinsic }
        switch step {
        case .perturbConstant:
            guard !explicit.isEmpty else { return }
            let c = rng.element(of: explicit)
            system.constraints[c].constant = perturbed(system.constraints[c].constant, rng: &rng)
        case .changePriority:
            guard !explicit.isEmpty else { return }
            let c = rng.element(of: explicit)
            // The values apps use, and the boundaries either side of the named ones.
            system.constraints[c].priority = Priority(rng.element(of: [1, 249, 250, 251, 500, 749, 750, 751, 999, 1000]))
        case .dropConstraint:
            guard !explicit.isEmpty else { return }
            system.constraints.remove(at: rng.element(of: explicit))
        case .duplicateConstraint:
            guard !explicit.isEmpty else { return }
            var copy = system.constraints[rng.element(of: explicit)]
            copy.id = nil  // IDs are unique; the copy is reported by its position.
            system.constraints.insert(copy, at: rng.index(below: system.constraints.count + 1))
        case .changeIntrinsicSize:
            let sized = system.items.indices.dropFirst().filter {
                system.items[$0].intrinsic.horizontal != nil || system.items[$0].intrinsic.vertical != nil
            }
            guard !sized.isEmpty else { return }
            let view = rng.element(of: sized)
            let axes = [Attribute.Axis.horizontal, .vertical].filter { system.items[view].intrinsic[$0] != nil }
            let axis = rng.element(of: axes)
            guard let old = system.items[view].intrinsic[axis] else { return }
            var size = perturbed(old, rng: &rng)
            if size.doubleValue < 0 { size = .zero }
            system.items[view].intrinsic[axis] = size
            let attribute: Attribute = axis == .horizontal ? .width : .height
            for c in system.constraints.indices
            where system.constraints[c].origin == .intrinsic && system.constraints[c].first.item == view
                && system.constraints[c].first.attribute == attribute {
                system.constraints[c].constant = size
            }
        }
    }

    /// A nearby value, a far one, zero, or the negation: the changes that move a layout across
    /// its breakpoints (a constraint starts or stops binding).
    static func perturbed(_ value: NumericLiteral, rng: inout SeededGenerator) -> NumericLiteral {
        let v = value.doubleValue
        switch rng.index(below: 5) {
        case 0: return NumericLiteral(Int(v.rounded()) + rng.int(in: -8...8))
        case 1: return NumericLiteral(v * rng.element(of: [0.5, 1.5, 2, 10]))
        case 2: return NumericLiteral(v + Double(rng.int(in: -400...400)) / 4)
        case 3: return .zero
        default: return value.negated
        }
    }

    // MARK: Update steps

    /// The seed's own passes on a mutant of its first system: each pass's steps in order, a
    /// step that no longer applies (its constraint was dropped by the mutation) left out.
    static func replayPasses(of seed: UpdateSequence, onto builder: inout UpdateSequence.Builder) {
        for steps in seed.updates {
            for step in steps { _ = try? builder.apply(step.action) }
            builder.endPass()
        }
    }

    /// What one update step does, in the proportions real apps change a screen.
    enum UpdateKind: CaseIterable {
        case setConstant, setIntrinsic, setPriority, setRoot, removeConstraint, removeView, addView, addConstraint
    }

    /// About `steps` update steps drawn from every kind of spec §7 on the system as it stands,
    /// with values taken from the layout itself (its constants perturbed, its intrinsic sizes
    /// changed, the priorities apps use, device sizes and rotations); a pass ends after each
    /// step or small group. A step that does not apply is redrawn a few times, never kept.
    public static func appendUpdates(to builder: inout UpdateSequence.Builder, steps: Int, rng: inout SeededGenerator) {
        var added = 0
        for _ in 0..<steps {
            for _ in 0..<8 {
                let kind = rng.element(of: UpdateKind.allCases)
                if kind == .addView {
                    added += 1
                    if addView(to: &builder, number: added, rng: &rng) { break }
                    continue
                }
                guard let action = updateAction(kind, builder.current, rng: &rng) else { continue }
                if (try? builder.apply(action)) != nil { break }
            }
            if rng.chance(0.6) { builder.endPass() }
        }
    }

    /// One step of `kind` on `system`, or nil when the system has nothing it applies to.
    static func updateAction(_ kind: UpdateKind, _ system: ConstraintSystem, rng: inout SeededGenerator) -> UpdateStep.Action? {
        let explicit = system.constraints.indices.filter { system.constraints[$0].origin != .intrinsic }
        switch kind {
        case .setConstant:
            guard !explicit.isEmpty else { return nil }
            let c = rng.element(of: explicit)
            return .setConstant(constraint: system.constraintName(c), constant: perturbed(system.constraints[c].constant, rng: &rng))
        case .setPriority:
            guard !explicit.isEmpty else { return nil }
            let c = rng.element(of: explicit)
            return .setPriority(constraint: system.constraintName(c),
                                priority: Priority(rng.element(of: [1, 249, 250, 251, 500, 749, 750, 751, 999, 1000])))
        case .setIntrinsic:
            let views = system.items.indices.dropFirst().filter { system.items[$0].parent != nil }
            guard !views.isEmpty else { return nil }
            let item = system.items[rng.element(of: Array(views))]
            func size(_ old: NumericLiteral?) -> NumericLiteral? {
                guard let old else { return rng.chance(0.3) ? NumericLiteral(rng.int(in: 0...300)) : nil }
                if rng.chance(0.1) { return nil }
                let new = perturbed(old, rng: &rng)
                return new.doubleValue < 0 ? .zero : new
            }
            return .setIntrinsic(item: item.name, intrinsic: AxisPair(horizontal: size(item.intrinsic.horizontal),
                                                                     vertical: size(item.intrinsic.vertical)))
        case .setRoot:
            // Devices in both orientations, and the root's own size swapped (a rotation).
            let width = system.items[0].frame?[2] ?? .zero
            let height = system.items[0].frame?[3] ?? .zero
            let sizes: [(Int, Int)] = [(320, 568), (375, 667), (390, 844), (414, 896), (768, 1024), (1024, 768), (844, 390)]
            if rng.chance(0.3), width.doubleValue >= 0, height.doubleValue >= 0 {
                return .setRootSize(width: height, height: width)
            }
            let (w, h) = rng.element(of: sizes)
            return .setRootSize(width: NumericLiteral(w), height: NumericLiteral(h))
        case .removeConstraint:
            guard !explicit.isEmpty else { return nil }
            return .removeConstraint(system.constraintName(rng.element(of: explicit)))
        case .removeView:
            guard system.items.count > 2, rng.chance(0.3) else { return nil }
            return .removeView(system.items[rng.int(in: 1...(system.items.count - 1))].name)
        case .addConstraint:
            guard !explicit.isEmpty else { return nil }
            var constraint = system.constraints[rng.element(of: explicit)].freshCopy
            constraint.constant = perturbed(constraint.constant, rng: &rng)
            if rng.chance(0.5) { constraint.priority = Priority(rng.element(of: [250, 500, 750, 999, 1000])) }
            return .addConstraint(NewConstraint(constraint, in: system))
        case .addView:
            return nil  // a view comes with the constraints that place it: ``addView(to:number:rng:)``
        }
    }

    /// A label-like view added inside an existing one, with its intrinsic size and the
    /// constraints that place it (leading and top to the parent, sometimes a trailing bound):
    /// what a cell gaining a row or a badge does. False when it did not apply.
    static func addView(to builder: inout UpdateSequence.Builder, number: Int, rng: inout SeededGenerator) -> Bool {
        let system = builder.current
        let parent = rng.index(below: system.items.count)
        var name = "added\(number)"
        while system.items.contains(where: { $0.name == name }) { name += "_" }
        let item = Item(name: name, parent: parent,
                        intrinsic: AxisPair(horizontal: NumericLiteral(rng.int(in: 8...240)), vertical: NumericLiteral(rng.element(of: [17, 20, 21, 44]))))
        guard (try? builder.addView(item)) != nil else { return false }
        let view = builder.current.items.count - 1
        let margin = NumericLiteral(rng.element(of: [0, 8, 16, 20]))
        var pins = [
            Constraint(first: AttributeReference(item: view, attribute: .leading), relation: .equal,
                       second: AttributeReference(item: parent, attribute: .leading), constant: margin),
            Constraint(first: AttributeReference(item: view, attribute: .top), relation: .equal,
                       second: AttributeReference(item: parent, attribute: .top), constant: margin),
        ]
        if rng.chance(0.5) {
            pins.append(Constraint(first: AttributeReference(item: view, attribute: .trailing), relation: .lessThanOrEqual,
                                   second: AttributeReference(item: parent, attribute: .trailing), constant: margin.negated))
        }
        for pin in pins { _ = try? builder.add(pin) }
        return true
    }
}

extension UpdateStep.Action {
    /// The step's kind in words (`set constant`, `add view`, …): what tests and tallies of
    /// update steps group by.
    public var kindName: String {
        switch self {
        case .setConstant: "set constant"
        case .setIntrinsic: "set intrinsic"
        case .setPriority: "set priority"
        case .setRootSize: "set root"
        case .removeConstraint: "remove constraint"
        case .removeView: "remove view"
        case .addView: "add view"
        case .addConstraint: "add constraint"
        }
    }
}
