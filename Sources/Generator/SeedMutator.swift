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
            if system.validate(rules: .runtime).isEmpty { return system }
        }
        return seed
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
}
