import LayoutModel

/// Shrinks a failing system to a small one on which the same finding still reproduces.
///
/// Three passes, each keeping a change only while `reproduces` still holds: delta debugging
/// (Zeller's ddmin) over the constraints; removal of leaf items with the constraints that
/// name them; then number simplification (constants rounded, then zeroed; multipliers set to
/// 1; priorities made required; margins and baselines reset). Intrinsic sizes are first
/// written out as plain constraints so that each can go on its own.
public struct Reducer: Sendable {
    /// The most `reproduces` calls one reduction may make.
    public var maxTests: Int

    public init(maxTests: Int = 1_500) {
        self.maxTests = maxTests
    }

    /// What a reduction did.
    public struct Outcome: Sendable {
        public var system: ConstraintSystem
        public var tests: Int
        public var originalConstraints: Int
        public var originalViews: Int
    }

    public func reduce(_ system: ConstraintSystem, reproduces: (ConstraintSystem) -> Bool) -> Outcome {
        var tests = 0
        var current = system.detachingIntrinsicSizes()
        current.rowScales = [:]
        func check(_ candidate: ConstraintSystem) -> Bool {
            guard tests < maxTests else { return false }
            tests += 1
            return reproduces(candidate)
        }
        if !check(current) { current = system }  // the detached form must still fail; else keep the original
        else {
            current = reduceConstraints(current, check)
            current = reduceItems(current, check)
            current = simplifyNumbers(current, check)
        }
        return Outcome(system: current, tests: tests, originalConstraints: system.constraints.count, originalViews: system.viewCount)
    }

    /// ddmin over the constraint list: try subsets, then complements, refining the split.
    func reduceConstraints(_ system: ConstraintSystem, _ check: (ConstraintSystem) -> Bool) -> ConstraintSystem {
        func build(_ indices: [Int]) -> ConstraintSystem {
            var s = system
            s.constraints = indices.map { system.constraints[$0] }
            return s.avoidingDefaultNameCollisions()
        }
        return build(Self.ddmin(Array(system.constraints.indices)) { check(build($0)) })
    }

    /// Zeller's ddmin: a 1-minimal subset of `all` (in its order) that `test` accepts, given
    /// that `all` itself is accepted. Subsets are tried first, then complements, with the
    /// split refined when neither helps.
    static func ddmin(_ all: [Int], _ test: ([Int]) -> Bool) -> [Int] {
        var kept = all
        if kept.count > 0, test([]) { return [] }
        var granularity = 2
        while kept.count >= 2 {
            let chunkSize = (kept.count + granularity - 1) / granularity
            let chunks = stride(from: 0, to: kept.count, by: chunkSize).map { Array(kept[$0..<min($0 + chunkSize, kept.count)]) }
            var progressed = false
            for chunk in chunks where chunk.count < kept.count && test(chunk) {
                kept = chunk
                granularity = 2
                progressed = true
                break
            }
            if !progressed {
                for chunk in chunks {
                    let complement = kept.filter { !chunk.contains($0) }
                    if !complement.isEmpty, complement.count < kept.count, test(complement) {
                        kept = complement
                        granularity = max(granularity - 1, 2)
                        progressed = true
                        break
                    }
                }
            }
            if !progressed {
                if granularity >= kept.count { break }
                granularity = min(granularity * 2, kept.count)
            }
        }
        return kept
    }

    /// Removes leaf items (last first) while the finding reproduces.
    func reduceItems(_ system: ConstraintSystem, _ check: (ConstraintSystem) -> Bool) -> ConstraintSystem {
        var current = system
        var changed = true
        while changed {
            changed = false
            for item in stride(from: current.items.count - 1, through: 1, by: -1) {
                guard !current.items.contains(where: { $0.parent == item }) else { continue }
                let candidate = current.removingLeafItem(item)
                if check(candidate) {
                    current = candidate
                    changed = true
                }
            }
        }
        return current
    }

    /// Makes numbers plain while the finding reproduces.
    func simplifyNumbers(_ system: ConstraintSystem, _ check: (ConstraintSystem) -> Bool) -> ConstraintSystem {
        var current = system
        func attempt(_ change: (inout ConstraintSystem) -> Bool) {
            var candidate = current
            if change(&candidate), candidate != current, check(candidate) { current = candidate }
        }
        for i in current.constraints.indices {
            attempt { s in
                let c = s.constraints[i].constant
                let rounded = NumericLiteral(c.doubleValue.rounded())
                guard c.doubleValue.magnitude < 1e15, rounded != c else { return false }
                s.constraints[i].constant = rounded
                return true
            }
            attempt { s in
                guard !s.constraints[i].constant.isZero else { return false }
                s.constraints[i].constant = .zero
                return true
            }
            attempt { s in
                guard s.constraints[i].second != nil, s.constraints[i].multiplier != .one else { return false }
                s.constraints[i].multiplier = .one
                return true
            }
            attempt { s in
                guard !s.constraints[i].priority.isRequired else { return false }
                s.constraints[i].priority = .required
                return true
            }
        }
        for item in current.items.indices {
            attempt { s in
                guard s.items[item].margins != .standard else { return false }
                s.items[item].margins = .standard
                return true
            }
            attempt { s in
                guard s.items[item].baselines != nil else { return false }
                s.items[item].baselines = nil
                return true
            }
        }
        return current
    }
}

extension ConstraintSystem {
    /// The system without a leaf item and the constraints that name it.
    func removingLeafItem(_ item: ItemIndex) -> ConstraintSystem {
        func shift(_ i: ItemIndex) -> ItemIndex { i > item ? i - 1 : i }
        var items = self.items
        items.remove(at: item)
        for i in items.indices { items[i].parent = items[i].parent.map(shift) }
        var constraints: [Constraint] = []
        for var c in self.constraints where c.first.item != item && c.second?.item != item {
            c.first.item = shift(c.first.item)
            if let second = c.second { c.second = AttributeReference(item: shift(second.item), attribute: second.attribute) }
            constraints.append(c)
        }
        return ConstraintSystem(name: name, direction: direction, items: items, constraints: constraints)
            .avoidingDefaultNameCollisions()
    }
}
