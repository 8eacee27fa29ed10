import ExactArithmetic
import Generator
import LayoutModel

/// A transform of a system together with the relation its answer must keep. A backend that
/// breaks the relation is wrong even where no second backend is there to compare with.
public enum MetamorphicOracle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Rename every item: nothing but the names changes.
    case renameItems = "rename-items"
    /// Reorder the optional constraints (required order decides broken lists, so it stays).
    case shuffleOptional = "shuffle-optional"
    /// Move the root's origin: root-space frames shift, nothing else changes.
    case translateRoot = "translate-root"
    /// Switch a leading/trailing-only system to RTL: frames mirror about the root's centre.
    case mirrorRTL = "mirror-rtl"
    /// Multiply a kept required constraint by k > 0: nothing changes.
    case scaleRequired = "scale-required"
    /// Repeat a required constraint right after itself: it shares its original's fate.
    case duplicateRequired = "duplicate-required"
    /// Replace `== @p` by `<= @p` and `>= @p`: the error |d| = max(0, d) + max(0, −d).
    case splitEquality = "split-equality"
    /// Relabel the optional priorities keeping their order: lexicographically nothing
    /// changes (a weighted backend may break this).
    case relabelPriorities = "relabel-priorities"
    /// Add a kept required equality solved for its other side: it is implied, so kept.
    case redundantRequired = "redundant-required"

    /// The relation between the two answers' root-space frames.
    public enum FrameRelation: Sendable, Hashable {
        case identical
        case translated(dx: Double, dy: Double)
        /// `x' = axis − x − w`, with `axis = 2·root.x + root.width`.
        case mirrored(axis: Double)
    }

    /// A transformed system and how its constraints map back to the original's.
    public struct Transformed: Sendable {
        public var oracle: MetamorphicOracle
        public var system: ConstraintSystem
        /// For each transformed constraint, the original constraint it stands for (nil for an
        /// added one).
        public var originalIndex: [Int?]
        public var frames: FrameRelation
        /// What was done, for the finding's report.
        public var description: String
    }

    /// Applies the transform, or returns nil where it does not apply to this system.
    /// `kept` lists the required constraints the original solve kept (transforms that must
    /// keep what they add choose among these).
    public func apply(to system: ConstraintSystem, kept: Set<Int>, random: inout SeededGenerator) -> Transformed? {
        let identity = Array(system.constraints.indices).map { Optional($0) }
        switch self {
        case .renameItems:
            var s = system
            var order = Array(s.items.indices)
            random.shuffle(&order)
            for (index, fresh) in order.enumerated() { s.rename(item: index, to: "n\(fresh)_\(s.items[index].name.count)") }
            return Transformed(oracle: self, system: s, originalIndex: identity, frames: .identical,
                               description: "renamed every item")

        case .shuffleOptional:
            var s = system.detachingIntrinsicSizes()
            let slots = s.constraints.indices.filter { !s.constraints[$0].priority.isRequired }
            guard slots.count >= 2 else { return nil }
            var order = slots
            random.shuffle(&order)
            var mapping = identity
            let originals = s.constraints
            for (slot, source) in zip(slots, order) {
                s.constraints[slot] = originals[source]
                mapping[slot] = source
            }
            return Transformed(oracle: self, system: s, originalIndex: mapping, frames: .identical,
                               description: "shuffled \(slots.count) optional constraints")

        case .translateRoot:
            var s = system
            let offsets = ["-37.5", "100", "12345", "0.25", "-640"]
            let dx = NumericLiteral(parsing: random.element(of: offsets)) ?? .one
            let dy = NumericLiteral(parsing: random.element(of: offsets)) ?? .one
            guard var frame = s.root.frame, let x = Self.add(frame[0], dx), let y = Self.add(frame[1], dy) else { return nil }
            frame[0] = x
            frame[1] = y
            s.setRootFrame(frame)
            return Transformed(oracle: self, system: s, originalIndex: identity,
                               frames: .translated(dx: dx.doubleValue, dy: dy.doubleValue),
                               description: "moved the root's origin by (\(dx), \(dy))")

        case .mirrorRTL:
            guard system.direction == .leftToRight, Self.isMirrorable(system) else { return nil }
            var s = system
            s.direction = .rightToLeft
            let frame = system.root.frame ?? [.zero, .zero, .zero, .zero]
            return Transformed(oracle: self, system: s, originalIndex: identity,
                               frames: .mirrored(axis: 2 * frame[0].doubleValue + frame[2].doubleValue),
                               description: "switched to direction rtl")

        case .scaleRequired:
            guard let index = Self.pick(kept.sorted(), &random) else { return nil }
            var s = system
            let k = NumericLiteral(parsing: random.element(of: ["2", "0.5", "1000", "0.001", "3"])) ?? .one
            s.rowScales[index] = k
            return Transformed(oracle: self, system: s, originalIndex: identity, frames: .identical,
                               description: "scaled \(system.constraintName(index)) by \(k)")

        case .duplicateRequired:
            let required = system.constraints.indices.filter { system.constraints[$0].priority.isRequired }
            guard let index = Self.pick(required, &random) else { return nil }
            let s = system.detachingIntrinsicSizes()
            var copy = s.constraints[index]
            copy.id = nil
            return inserting(copy, after: index, into: s, identity: identity,
                             description: "repeated \(system.constraintName(index)) after itself")

        case .splitEquality:
            let candidates = system.constraints.indices.filter {
                !system.constraints[$0].priority.isRequired && system.constraints[$0].relation == .equal
            }
            guard let index = Self.pick(candidates, &random) else { return nil }
            var s = system.detachingIntrinsicSizes()
            var upper = s.constraints[index]
            upper.relation = .lessThanOrEqual
            var lower = upper
            lower.relation = .greaterThanOrEqual
            lower.id = nil
            s.constraints[index] = upper
            return inserting(lower, after: index, into: s, identity: identity,
                             description: "split \(system.constraintName(index)) into <= and >=")

        case .relabelPriorities:
            let levels = system.optionalLevels
            guard !levels.isEmpty else { return nil }
            // Distinct new values in (0, 1000), in the same order as the old ones.
            var pool = Array(1...999)
            random.shuffle(&pool)
            let fresh = pool.prefix(levels.count).sorted(by: >).map { Priority($0) }
            var relabel: [Priority: Priority] = [:]
            for (old, new) in zip(levels, fresh) { relabel[old] = new }
            var s = system.detachingIntrinsicSizes()
            for i in s.constraints.indices {
                if let p = relabel[s.constraints[i].priority] { s.constraints[i].priority = p }
            }
            return Transformed(oracle: self, system: s, originalIndex: identity, frames: .identical,
                               description: "relabelled priorities \(levels.map(\.description)) as \(fresh.map(\.description))")

        case .redundantRequired:
            let candidates = kept.sorted().filter { i in
                let c = system.constraints[i]
                return c.relation == .equal && c.second != nil && system.rowScales[i] == nil
                    && Self.decimal(Rational.one / Rational(literal: c.multiplier)) != nil
            }
            guard let index = Self.pick(candidates, &random), let second = system.constraints[index].second else { return nil }
            let c = system.constraints[index]
            let m = Rational(literal: c.multiplier)
            guard let inverse = Self.decimal(Rational.one / m),
                  let constant = Self.decimal(-Rational(literal: c.constant) / m) else { return nil }
            var s = system
            s.constraints.append(Constraint(
                first: second, relation: .equal, multiplier: inverse, second: c.first, constant: constant,
                priority: .required))
            return Transformed(oracle: self, system: s, originalIndex: identity + [nil], frames: .identical,
                               description: "added \(s.constraintLine(s.constraints[s.constraints.count - 1])), implied by \(system.constraintName(index))")
        }
    }

    /// `system` with `constraint` inserted after constraint `index`, which it derives from:
    /// both map back to the original's `index`; row scales are dropped (they are indexed by
    /// position), and the frames must not change.
    private func inserting(_ constraint: Constraint, after index: Int, into system: ConstraintSystem,
                           identity: [Int?], description: String) -> Transformed {
        var s = system
        s.constraints.insert(constraint, at: index + 1)
        s.rowScales = [:]
        var mapping = identity
        mapping.insert(index, at: index + 1)
        return Transformed(oracle: self, system: s.avoidingDefaultNameCollisions(), originalIndex: mapping,
                           frames: .identical, description: description)
    }

    private static func pick(_ candidates: [Int], _ random: inout SeededGenerator) -> Int? {
        candidates.isEmpty ? nil : random.element(of: candidates)
    }

    /// `a + b` as a literal, exactly.
    static func add(_ a: NumericLiteral, _ b: NumericLiteral) -> NumericLiteral? {
        decimal(Rational(literal: a) + Rational(literal: b))
    }

    /// A rational as a decimal literal, when its denominator divides a power of ten.
    static func decimal(_ r: Rational) -> NumericLiteral? {
        var scaled = r
        for digits in 0...40 {
            if scaled.isInteger {
                return NumericLiteral(parsing: scaled.description + (digits > 0 ? "e-\(digits)" : ""))
            }
            scaled *= Rational(10)
        }
        return nil
    }

    /// True when switching to RTL mirrors the layout: every constraint on a horizontal
    /// position names a directional attribute and has multiplier 1, and every margin
    /// attribute used horizontally belongs to an item with equal left and right margins.
    static func isMirrorable(_ system: ConstraintSystem) -> Bool {
        for c in system.constraints {
            let refs = [c.first] + (c.second.map { [$0] } ?? [])
            guard refs.contains(where: { $0.attribute.axis == .horizontal && !$0.attribute.isSize }) else { continue }
            guard refs.contains(where: { $0.attribute.isDirectional }), c.multiplier == .one else { return false }
            for ref in refs where [.leadingMargin, .trailingMargin, .centerXWithinMargins].contains(ref.attribute) {
                let margins = system.items[ref.item].margins
                if margins.left != margins.right { return false }
            }
        }
        return true
    }
}

extension ConstraintSystem {
    /// The same system with intrinsic sizes written as plain constraints, so that transforms
    /// may move, relabel or split them.
    func detachingIntrinsicSizes() -> ConstraintSystem {
        var s = self
        for i in s.items.indices { s.items[i].intrinsic = AxisPair(horizontal: nil, vertical: nil) }
        for i in s.constraints.indices where s.constraints[i].origin == .intrinsic {
            s.constraints[i].origin = .explicit
        }
        return s
    }

    /// After an insertion, renames explicit IDs that now equal another constraint's default
    /// name `c<N>` (which the format forbids). Findings map indices, not names, back to the
    /// original through ``MetamorphicOracle/Transformed/originalIndex``.
    func avoidingDefaultNameCollisions() -> ConstraintSystem {
        var s = self
        for i in s.constraints.indices {
            guard let id = s.constraints[i].id, let n = ConstraintSystem.defaultNameIndex(id),
                  n != i, n < s.constraints.count else { continue }
            s.constraints[i].id = "\(id)_"
        }
        return s
    }
}

extension MetamorphicOracle.Transformed {
    /// Why the transformed answer breaks the relation, or nil when it keeps it. Objectives
    /// are recomputed exactly from both points; values are compared where the original answer
    /// calls them determined and the reference does too: `undetermined` lists the unknowns
    /// the reference finds ambiguous (an unconstrained view, which GTK places at −100000, or
    /// space shared by two views), whose values no relation binds — a backend that does not
    /// report ambiguity would otherwise be held to values it is free to choose.
    public func violation(original: ConstraintSystem, _ s: Solution, transformed t: Solution, tolerance: Tolerance,
                          undetermined: Set<Unknown> = []) -> String? {
        if s.status != t.status { return "status \(s.status.rawValue) became \(t.status.rawValue)" }
        var mappedBroken: [Int] = []
        for index in t.broken {
            guard originalIndex.indices.contains(index), let source = originalIndex[index] else {
                return "the added constraint \(system.constraintName(index)) was broken"
            }
            if !mappedBroken.contains(source) { mappedBroken.append(source) }
        }
        if mappedBroken.sorted() != s.broken {
            return "broken \(s.broken.map(original.constraintName)) became \(mappedBroken.sorted().map(original.constraintName))"
        }
        let originalRows = original.lowered(as: Rational.self)
        let transformedRows = system.lowered(as: Rational.self)
        let bound = tolerance.bound(scale: max(Tolerance.scale(of: original, rows: originalRows),
                                               Tolerance.scale(of: system, rows: transformedRows)))
        let before = PointJudge(system: original, rows: originalRows, bound: bound)
        let after = PointJudge(system: system, rows: transformedRows, bound: bound)
        guard let p = before.exactPoint(s), let q = after.exactPoint(t) else { return "a point is missing or not finite" }
        let e = before.objective(at: p), f = after.objective(at: q)
        guard e.count == f.count else { return "\(e.count) priority levels became \(f.count)" }
        for level in e.indices {
            let rows = max(originalRows.rows.lazy.filter { $0.level == level + 1 }.count, 1)
            if abs((e[level] - f[level]).doubleValue) > bound * Double(rows + 1) {
                return "error at level \(level + 1) was \(e[level].doubleValue), became \(f[level].doubleValue)"
            }
        }
        let ambiguousBefore = Set(s.ambiguous), ambiguousAfter = Set(t.ambiguous)
        let unbound = ambiguousBefore.union(undetermined)
        for v in 0..<originalRows.variableCount {
            let unknown = Unknown(variable: v)
            let compareAmbiguity: Bool
            var expected = s.values[v]
            var determined = !unbound.contains(unknown)
            switch frames {
            case .identical:
                compareAmbiguity = true
            case .translated(let dx, let dy):
                compareAmbiguity = true
                if unknown.component == .x { expected += dx }
                if unknown.component == .y { expected += dy }
            case .mirrored(let axis):
                compareAmbiguity = unknown.component != .x
                if unknown.component == .x {
                    let w = Unknown(item: unknown.item, component: .w)
                    determined = determined && !unbound.contains(w)
                    expected = axis - s.values[v] - s.values[w.variable]
                }
            }
            if compareAmbiguity && ambiguousBefore.contains(unknown) != ambiguousAfter.contains(unknown) {
                return "\(original.unknownName(unknown)) was \(ambiguousBefore.contains(unknown) ? "ambiguous" : "determined"), became \(ambiguousAfter.contains(unknown) ? "ambiguous" : "determined")"
            }
            if determined && abs(t.values[v] - expected) > bound {
                return "\(original.unknownName(unknown)) should be \(expected), is \(t.values[v])"
            }
        }
        return nil
    }
}
