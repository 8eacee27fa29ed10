import LayoutModel

extension Reducer {
    /// What a sequence reduction did.
    public struct SequenceOutcome: Sendable {
        public var sequence: UpdateSequence
        public var tests: Int
    }

    /// Shrinks a failing update sequence while `reproduces` still holds: the passes after the
    /// first failing one are cut; ddmin runs over the steps (pass boundaries stay where they
    /// were); passes are merged or dropped one at a time; then the first system is reduced as a
    /// system is (constraints, leaf items, numbers), each candidate keeping the steps that still
    /// apply to it; then the steps and passes once more; last, the IDs added below go again.
    ///
    /// Every candidate is built through ``UpdateSequence/init(initial:updates:file:rules:)``,
    /// so every candidate is a valid sequence; one that does not build is not tested. Before
    /// anything is removed, every constraint gets an explicit ID (its name, as steps use it,
    /// plus `_`): default names count positions, and a step must keep naming the same
    /// constraint when constraints before it go.
    public func reduce(_ sequence: UpdateSequence, failingPass: Int? = nil, reproduces: (UpdateSequence) -> Bool) -> SequenceOutcome {
        var tests = 0
        func check(_ candidate: UpdateSequence) -> Bool {
            guard tests < maxTests else { return false }
            tests += 1
            return reproduces(candidate)
        }
        var current = sequence
        var added: Set<String> = []
        if let (named, ids) = sequence.namingEveryConstraint(), named != sequence, check(named) { (current, added) = (named, ids) }
        if let failingPass, failingPass + 1 < current.passCount,
           let cut = try? UpdateSequence(initial: current.initial, updates: Array(current.updates.prefix(failingPass))), check(cut) {
            current = cut
        }
        current = reduceSteps(current, check)
        current = reducePasses(current, check)
        let updates = current.updates
        func checkInitial(_ initial: ConstraintSystem) -> Bool {
            guard let candidate = UpdateSequence.keepingApplicableSteps(initial: initial, updates: updates) else { return false }
            return check(candidate)
        }
        var initial = reduceConstraints(current.initial, checkInitial)
        initial = reduceItems(initial, checkInitial)
        initial = simplifyNumbers(initial, checkInitial)
        if initial != current.initial, let rebuilt = UpdateSequence.keepingApplicableSteps(initial: initial, updates: updates) {
            current = rebuilt
        }
        current = reduceSteps(current, check)
        current = reducePasses(current, check)
        // The IDs added for reduction go again where the repro still fails without them.
        if !added.isEmpty, let plain = current.removingIDs(added), plain != current, check(plain) { current = plain }
        return SequenceOutcome(sequence: current, tests: tests)
    }

    /// ddmin over every step of the sequence, each staying in its pass.
    func reduceSteps(_ sequence: UpdateSequence, _ check: (UpdateSequence) -> Bool) -> UpdateSequence {
        let flat = sequence.updates.enumerated().flatMap { pass, steps in steps.map { (pass: pass, step: $0) } }
        func build(_ kept: [Int]) -> UpdateSequence? {
            var updates = Array(repeating: [UpdateStep](), count: sequence.updates.count)
            for index in kept { updates[flat[index].pass].append(flat[index].step) }
            return try? UpdateSequence(initial: sequence.initial, updates: updates)
        }
        let kept = Self.ddmin(Array(flat.indices)) { subset in build(subset).map(check) ?? false }
        return build(kept) ?? sequence
    }

    /// Removes passes, last first: a pass's steps join the next pass's (the last pass is
    /// dropped with its steps).
    func reducePasses(_ sequence: UpdateSequence, _ check: (UpdateSequence) -> Bool) -> UpdateSequence {
        var current = sequence
        var k = current.updates.count - 1
        while k >= 0 {
            var updates = current.updates
            if k + 1 < updates.count {
                updates[k + 1] = updates[k] + updates[k + 1]
            }
            updates.remove(at: k)
            if let candidate = try? UpdateSequence(initial: current.initial, updates: updates), check(candidate) {
                current = candidate
            }
            k = min(k - 1, current.updates.count - 1)
        }
        return current
    }
}

extension UpdateSequence {
    /// The sequence on another first system, with the steps that still apply to it (a step
    /// naming a constraint or view the system no longer has is dropped); nil when the system
    /// cannot start a sequence.
    static func keepingApplicableSteps(initial: ConstraintSystem, updates: [[UpdateStep]]) -> UpdateSequence? {
        guard var replay = try? SequenceReplay(initial: initial) else { return nil }
        let kept = updates.map { steps in steps.filter { (try? replay.apply($0)) != nil } }
        return try? UpdateSequence(initial: initial, updates: kept)
    }

    /// The same sequence with an explicit ID on every explicit constraint that has none (its
    /// default name plus `_`, or more `_` until unused), in the first system and in the steps
    /// that add constraints, and the steps renamed to match, with the IDs added; nil if that
    /// does not build.
    func namingEveryConstraint() -> (sequence: UpdateSequence, added: Set<String>)? {
        var used = Set(initial.constraints.compactMap(\.id))
        for steps in updates {
            for step in steps {
                if case .addConstraint(let constraint) = step.action, let id = constraint.id { used.insert(id) }
            }
        }
        func fresh(_ name: String) -> String {
            var candidate = name + "_"
            while used.contains(candidate) { candidate += "_" }
            used.insert(candidate)
            return candidate
        }
        var renamed: [String: String] = [:]
        var first = initial
        for index in first.constraints.indices where first.constraints[index].id == nil && first.constraints[index].origin != .intrinsic {
            let name = first.constraintName(index)
            renamed[name] = fresh(name)
            first.constraints[index].id = renamed[name]
        }
        var replay = makeReplay()
        var renamedUpdates: [[UpdateStep]] = []
        for steps in updates {
            var out: [UpdateStep] = []
            for step in steps {
                var action = step.action.renamingConstraints(renamed)
                guard (try? replay.apply(step)) != nil else { return nil }
                if case .addConstraint(var constraint) = action, constraint.id == nil {
                    let name = replay.constraintName(replay.current.constraints.count - 1)
                    renamed[name] = fresh(name)
                    constraint.id = renamed[name]
                    action = .addConstraint(constraint)
                }
                out.append(UpdateStep(action))
            }
            renamedUpdates.append(out)
        }
        guard let named = try? UpdateSequence(initial: first, updates: renamedUpdates) else { return nil }
        return (named, Set(renamed.values))
    }

    /// The same sequence without the constraint IDs in `ids`: those constraints go back to
    /// their default names, and the steps that name them follow; nil if that does not build.
    func removingIDs(_ ids: Set<String>) -> UpdateSequence? {
        var first = initial
        var renamed: [String: String] = [:]
        for index in first.constraints.indices {
            guard let id = first.constraints[index].id, ids.contains(id) else { continue }
            first.constraints[index].id = nil
            renamed[id] = first.constraintName(index)
        }
        guard var replay = try? SequenceReplay(initial: first) else { return nil }
        var plainUpdates: [[UpdateStep]] = []
        for steps in updates {
            var out: [UpdateStep] = []
            for step in steps {
                var action = step.action.renamingConstraints(renamed)
                var dropped: String?
                if case .addConstraint(var constraint) = action, let id = constraint.id, ids.contains(id) {
                    constraint.id = nil
                    action = .addConstraint(constraint)
                    dropped = id
                }
                let plain = UpdateStep(action)
                guard (try? replay.apply(plain)) != nil else { return nil }
                if let dropped { renamed[dropped] = replay.constraintName(replay.current.constraints.count - 1) }
                out.append(plain)
            }
            plainUpdates.append(out)
        }
        return try? UpdateSequence(initial: first, updates: plainUpdates)
    }
}

extension UpdateStep.Action {
    /// The action with the constraint it names renamed (names not in `names` stay).
    func renamingConstraints(_ names: [String: String]) -> UpdateStep.Action {
        switch self {
        case .setConstant(let name, let constant): return .setConstant(constraint: names[name] ?? name, constant: constant)
        case .setPriority(let name, let priority): return .setPriority(constraint: names[name] ?? name, priority: priority)
        case .removeConstraint(let name): return .removeConstraint(names[name] ?? name)
        default: return self
        }
    }
}
