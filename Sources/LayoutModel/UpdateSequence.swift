/// A system and the changes between its layout passes (spec §7): what an app does between
/// `layoutIfNeeded` calls, as a file or a value.
///
/// Pass 0 (the file's pass 1) is ``initial``; pass k+1 is pass k after the steps
/// `updates[k]`. A `.layout` file without a bare `layout` line is a one-pass sequence with no
/// updates. A sequence is valid by construction: every way to make one (the parser, the JSON
/// decoder, ``init(initial:updates:file:rules:)``, ``Builder``) checks every step, so its
/// passes can always be materialised.
public struct UpdateSequence: Sendable, Hashable {
    /// The system of the first pass.
    public let initial: ConstraintSystem
    /// `updates[k]` holds the steps between pass k and pass k+1 (0-based); a pass may follow
    /// no steps at all (two `layout` lines in a row).
    public let updates: [[UpdateStep]]

    /// The number of passes: one more than the number of updates.
    public var passCount: Int { updates.count + 1 }

    /// The total number of steps.
    public var stepCount: Int { updates.reduce(0) { $0 + $1.count } }

    /// A one-pass sequence: the system alone.
    public init(_ system: ConstraintSystem) {
        initial = system
        updates = []
    }

    /// A sequence checked step by step; the first problem is thrown. Steps without a source
    /// position are named in the message by pass and step (`pass 2, step 3: …`).
    public init(
        initial: ConstraintSystem, updates: [[UpdateStep]], file: String = "<sequence>", rules: ValidationRules = .runtime
    ) throws(LayoutError) {
        var replay = try SequenceReplay(initial: initial, file: file, rules: rules)
        for (k, steps) in updates.enumerated() {
            for (s, step) in steps.enumerated() {
                do {
                    try replay.apply(step)
                } catch var error {
                    if error.location.line == 0 { error.message = "pass \(k + 2), step \(s + 1): \(error.message)" }
                    throw error
                }
            }
        }
        try replay.checkDefaultNameCollisions()
        self.init(validatedInitial: initial, updates: updates)
    }

    /// A sequence whose steps the caller has already applied without error.
    init(validatedInitial initial: ConstraintSystem, updates: [[UpdateStep]]) {
        self.initial = initial
        self.updates = updates
    }

    /// A replay positioned at the first pass; applying `updates[k]` in order moves it to the
    /// next pass. It cannot fail on this sequence's own steps.
    public func makeReplay(file: String = "<sequence>") -> SequenceReplay {
        do {
            return try SequenceReplay(validated: initial, file: file, rules: .runtime, idLocations: [:])
        } catch {
            preconditionFailure("a validated sequence's initial system indexes: \(error)")
        }
    }

    /// The system of pass `index` (0-based: 0 is ``initial``), with constraints named by
    /// their stable names. Replays from the start: to visit every pass use ``forEachPass(_:)``.
    public func system(atPass index: Int) -> ConstraintSystem {
        precondition((0..<passCount).contains(index), "pass \(index) of a \(passCount)-pass sequence")
        var replay = makeReplay()
        for steps in updates.prefix(index) { Self.apply(steps, to: &replay) }
        return replay.current
    }

    /// Calls `body` with each pass's index and system, in order, replaying once.
    public func forEachPass<E: Error>(_ body: (Int, ConstraintSystem) throws(E) -> Void) throws(E) {
        var replay = makeReplay()
        try body(0, replay.current)
        for (k, steps) in updates.enumerated() {
            Self.apply(steps, to: &replay)
            try body(k + 1, replay.current)
        }
    }

    /// Every pass's system, in order (holds them all; ``forEachPass(_:)`` holds one at a time).
    public var passSystems: [ConstraintSystem] {
        var systems: [ConstraintSystem] = []
        systems.reserveCapacity(passCount)
        forEachPass { _, system in systems.append(system) }
        return systems
    }

    /// Applies steps that have been validated on this very replay's history.
    private static func apply(_ steps: [UpdateStep], to replay: inout SequenceReplay) {
        for step in steps {
            do {
                try replay.apply(step)
            } catch {
                preconditionFailure("a validated sequence replays: \(error)")
            }
        }
    }
}

extension UpdateSequence {
    /// Builds a sequence in code, one checked step at a time (the generator and the reducer
    /// use it): it starts right after the first pass, ``apply(_:)`` adds a step and reports its
    /// changes, ``endPass()`` ends a pass (a `layout` line).
    public struct Builder: Sendable {
        public private(set) var replay: SequenceReplay
        private let initial: ConstraintSystem
        private var updates: [[UpdateStep]] = [[]]

        public init(initial: ConstraintSystem, rules: ValidationRules = .runtime) throws(LayoutError) {
            replay = try SequenceReplay(initial: initial, file: "<builder>", rules: rules)
            self.initial = initial
        }

        /// The system as it stands (a copy: do not keep it across ``apply(_:)`` calls if the
        /// system is large, or each step copies it).
        public var current: ConstraintSystem { replay.current }

        /// Adds a step to the current pass's updates; a step that does not apply throws and
        /// changes nothing.
        @discardableResult
        public mutating func apply(_ action: UpdateStep.Action) throws(LayoutError) -> [SystemChange] {
            let step = UpdateStep(action)
            let changes = try replay.apply(step)
            updates[updates.count - 1].append(step)
            return changes
        }

        /// Appends a constraint whose item indices refer to ``current``.
        @discardableResult
        public mutating func add(_ constraint: Constraint) throws(LayoutError) -> [SystemChange] {
            let action = try Self.addition(of: constraint, to: replay.current)
            return try apply(action)
        }

        /// Appends a view whose parent index refers to ``current``.
        @discardableResult
        public mutating func addView(_ item: Item) throws(LayoutError) -> [SystemChange] {
            let action = try Self.addition(of: item, to: replay.current)
            return try apply(action)
        }

        // The steps are made apart from `apply`, so no copy of the system outlives the
        // reading and the replay changes its arrays in place.

        private static func addition(of constraint: Constraint, to system: ConstraintSystem) throws(LayoutError) -> UpdateStep.Action {
            guard system.items.indices.contains(constraint.first.item),
                  constraint.second.map({ system.items.indices.contains($0.item) }) ?? true else {
                throw LayoutError(file: "<builder>", location: .unknown, kind: .undeclaredName, message: "constraint names an unknown item")
            }
            return .addConstraint(NewConstraint(constraint, in: system))
        }

        private static func addition(of item: Item, to system: ConstraintSystem) throws(LayoutError) -> UpdateStep.Action {
            guard let parent = item.parent, system.items.indices.contains(parent) else {
                throw LayoutError(file: "<builder>", location: .unknown, kind: .undeclaredName, message: "view '\(item.name)' has no existing parent")
            }
            return .addView(NewView(item, parentName: parent == 0 ? nil : system.items[parent].name))
        }

        /// Ends the current pass: later steps change the system for the next one.
        public mutating func endPass() { updates.append([]) }

        /// The sequence so far (a pass ended by ``endPass()`` with no steps after it adds nothing).
        public var sequence: UpdateSequence {
            var updates = updates
            if updates.last?.isEmpty == true { updates.removeLast() }
            return UpdateSequence(validatedInitial: initial, updates: updates)
        }
    }
}
