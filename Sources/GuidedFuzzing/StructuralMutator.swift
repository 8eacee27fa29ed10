import Fuzzing
import Generator
import LayoutModel

/// Mutates a decoded case rather than its bytes: each step changes the system the way a
/// bug-hunting human would — a number nudged to a nearby hard value, a relation flipped, a
/// constraint duplicated or dropped, two priority levels merged or one split into
/// near-equal ones, an item or attribute swapped, a view added, an update step inserted —
/// and the result is written back as bytes (``GuidedCaseEncoder``). Its results are valid
/// cases that decode to exactly themselves; the random choices come from the project's
/// ``SeededGenerator``, seeded by the caller (libFuzzer passes its own seed).
public struct StructuralMutator: Sendable {
    public enum Mutation: String, Sendable, CaseIterable {
        case nudgeNumber, flipRelation, duplicateConstraint, dropConstraint, mergePriorities, splitPriority
        case retarget, changeAttribute, addConstraint, addView, toggleIntrinsic, insertStep, changeOracle
    }

    public init() {}

    /// The bytes of `bytes`' case after one to three mutations; never longer than `maxSize`
    /// (when every try is too long, the case is returned re-encoded unchanged, or truncated).
    public func mutate(_ bytes: [UInt8], seed: UInt64, maxSize: Int) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var guided = GuidedCase(bytes: bytes)
        for _ in 0..<random.int(in: 1...3) {
            guided = mutate(guided, random: &random)
        }
        var encoded = guided.bytes
        // A mutant too long for libFuzzer's limit: mutate the input again, then give up.
        for _ in 0..<4 where encoded.count > maxSize {
            encoded = mutate(GuidedCase(bytes: bytes), random: &random).bytes
        }
        return encoded.count <= maxSize ? encoded : Array(encoded.prefix(maxSize))
    }

    /// One mutation of a case (the case itself when the chosen mutation does not apply).
    public func mutate(_ guided: GuidedCase, random: inout SeededGenerator) -> GuidedCase {
        var parts = Parts(guided.sequence.initial)
        var updates = guided.sequence.updates
        var oracle = guided.oracle
        let mutation = random.element(of: Mutation.allCases)
        let explicit = parts.constraints.indices
        switch mutation {
        case .nudgeNumber:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            let field = random.index(below: 3)
            if field == 1 && parts.constraints[k].second != nil {
                parts.constraints[k].multiplier = nudged(parts.constraints[k].multiplier, .multiplier, random: &random)
            } else if field == 2 {
                parts.constraints[k].priority = Priority(nudged(parts.constraints[k].priority.value, .priority, random: &random))
            } else {
                parts.constraints[k].constant = nudged(parts.constraints[k].constant, .constant, random: &random)
            }
        case .flipRelation:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            parts.constraints[k].relation = random.element(of: Relation.allCases.filter { $0 != parts.constraints[k].relation })
        case .duplicateConstraint:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            parts.constraints.insert(parts.constraints[k], at: random.int(in: 0...parts.constraints.count))
        case .dropConstraint:
            guard !explicit.isEmpty else { break }
            parts.constraints.remove(at: random.index(below: parts.constraints.count))
        case .mergePriorities:
            let levels = Array(Set(parts.constraints.map(\.priority).filter { !$0.isRequired })).sorted()
            guard levels.count >= 2 else { break }
            let from = random.element(of: levels)
            let to = random.element(of: levels.filter { $0 != from })
            for k in parts.constraints.indices where parts.constraints[k].priority == from { parts.constraints[k].priority = to }
        case .splitPriority:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            parts.constraints[k].priority = Priority(nearEqualPriority(parts.constraints[k].priority.value, random: &random))
        case .retarget:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            let item = random.index(below: parts.items.count)
            if random.chance(0.5) || parts.constraints[k].second == nil {
                parts.constraints[k].first.item = item
            } else {
                parts.constraints[k].second?.item = item
            }
        case .changeAttribute:
            guard !explicit.isEmpty else { break }
            let k = random.index(below: parts.constraints.count)
            let attribute = random.element(of: Attribute.allCases)
            parts.constraints[k].first.attribute = attribute
            if let second = parts.constraints[k].second {
                let choices = CompatibleAttributes.of(attribute)
                if !choices.contains(second.attribute) { parts.constraints[k].second?.attribute = random.element(of: choices) }
            } else if !attribute.isSize {
                parts.constraints[k].second = AttributeReference(item: parts.items[parts.constraints[k].first.item].parent ?? 0, attribute: attribute)
            }
        case .addConstraint:
            let bytes = (0..<12).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            parts.constraints.append(GuidedCaseDecoder.constraint(from: bytes, items: parts.items))
        case .addView:
            guard parts.items.count < GuidedLimits.smallViews else { break }
            let k = parts.items.count
            var item = Item(name: DecodedNames.view(k), parent: random.index(below: k))
            if random.chance(0.5) {
                item.intrinsic = AxisPair(horizontal: random.element(of: HardValues.sizes), vertical: random.element(of: HardValues.sizes))
            }
            parts.items.append(item)
        case .toggleIntrinsic:
            guard parts.items.count > 1 else { break }
            let k = 1 + random.index(below: parts.items.count - 1)
            let axis: Attribute.Axis = random.chance(0.5) ? .horizontal : .vertical
            parts.items[k].intrinsic[axis] = parts.items[k].intrinsic[axis] == nil ? random.element(of: HardValues.sizes) : nil
        case .insertStep:
            var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) & 0x7F }
            bytes[0] %= UInt8(StepKind.allCases.count)
            let pass = updates.isEmpty ? 0 : random.index(below: min(updates.count + 1, GuidedLimits.updatePasses - 1))
            while updates.count <= pass { updates.append([]) }
            let before = Self.sequence(initial: guided.sequence.initial, updates: Array(updates.prefix(pass)))
            let current = before.system(atPass: before.passCount - 1)
            let declared = before.initial.viewCount + before.updates.joined().filter {
                if case .addView = $0.action { return true } else { return false }
            }.count
            if updates[pass].count < GuidedLimits.stepsPerPass - 1,
               let action = GuidedCaseDecoder.step(from: bytes, in: current, viewsDeclared: declared) {
                updates[pass].insert(UpdateStep(action), at: random.int(in: 0...updates[pass].count))
            }
        case .changeOracle:
            oracle = random.chance(0.2) ? nil : random.element(of: MetamorphicOracle.allCases)
        }
        guard let system = parts.system(), system.validate().isEmpty else { return guided }
        return GuidedCase(sequence: Self.sequence(initial: system, updates: updates), oracle: oracle, redecide: guided.redecide)
    }

    /// The sequence of `updates` on `initial`, leaving out the steps that no longer apply
    /// (a removed constraint, a view that is gone) and the passes left empty at the end.
    static func sequence(initial: ConstraintSystem, updates: [[UpdateStep]]) -> UpdateSequence {
        guard var passes = PassBuilder(initial: initial) else { return UpdateSequence(initial) }
        for (k, steps) in updates.enumerated() {
            for step in steps { passes.apply(step.action, inPass: k) }
        }
        return passes.sequence
    }

    /// A nearby hard value: another menu entry, a relative step of 1e-7 or 1e-12 up or
    /// down, the value plus a menu entry, or its negation (when the role admits them).
    func nudged(_ value: NumericLiteral, _ role: NumberRole, random: inout SeededGenerator) -> NumericLiteral {
        let candidates: [NumericLiteral?] = [
            random.element(of: role.menu),
            NumericLiteral.scaled(value, by: random.element(of: ["1.0000001", "0.9999999", "1.000000000001", "0.999999999999"])),
            NumericLiteral.sum(value, random.element(of: role.menu)),
            value.negated,
        ]
        let pick = candidates[random.index(below: candidates.count)]
        return pick.flatMap { role.admits($0) ? $0 : nil } ?? random.element(of: role.menu)
    }

    /// A priority beside `value` (a level split in two that a float solver may merge).
    func nearEqualPriority(_ value: NumericLiteral, random: inout SeededGenerator) -> NumericLiteral {
        let step = random.element(of: ["0.0001", "-0.0001", "0.000001", "-0.000001", "1", "-1"])
        let candidate = NumericLiteral.sum(value, NumericLiteral(parsing: step) ?? .one)
        return candidate.flatMap { NumberRole.priority.admits($0) ? $0 : nil } ?? random.element(of: HardValues.priorities)
    }

    /// A system as its items and explicit constraints: intrinsic constraints are rebuilt from
    /// the items, so editing an item's intrinsic size keeps the two in step.
    struct Parts {
        var direction: LayoutDirection
        var items: [Item]
        var constraints: [Constraint]

        init(_ system: ConstraintSystem) {
            direction = system.direction
            items = system.items
            constraints = system.constraints.filter { $0.origin != .intrinsic }
        }

        func system() -> ConstraintSystem? {
            guard let root = items.first, let frame = root.frame, frame.count == 4 else { return nil }
            var system = ConstraintSystem(direction: direction, rootName: root.name, frame: frame, margins: root.margins)
            for item in items.dropFirst() {
                guard let parent = item.parent, parent < system.items.count else { return nil }
                system.addView(item)
            }
            for var c in constraints {
                c.origin = .explicit
                c.id = nil
                system.constraints.append(c)
            }
            return system
        }
    }
}

extension NumericLiteral {
    /// `value × factor`, exactly, as a decimal (nil when the factor does not parse).
    static func scaled(_ value: NumericLiteral, by factor: String) -> NumericLiteral? {
        guard let f = NumericLiteral(parsing: factor) else { return nil }
        let a = BigDecimal(value), b = BigDecimal(f)
        return BigDecimal(negative: a.negative != b.negative, digits: multiply(a.digits, b.digits), exponent: a.exponent + b.exponent).literal
    }

    /// `a + b`, exactly, as a decimal.
    static func sum(_ a: NumericLiteral, _ b: NumericLiteral) -> NumericLiteral? {
        let x = BigDecimal(a), y = BigDecimal(b)
        let exponent = min(x.exponent, y.exponent)
        let xs = x.digits + [Int](repeating: 0, count: x.exponent - exponent)
        let ys = y.digits + [Int](repeating: 0, count: y.exponent - exponent)
        guard xs.count < 80, ys.count < 80 else { return nil }
        if x.negative == y.negative {
            return BigDecimal(negative: x.negative, digits: add(xs, ys), exponent: exponent).literal
        }
        if compare(xs, ys) >= 0 { return BigDecimal(negative: x.negative, digits: subtract(xs, ys), exponent: exponent).literal }
        return BigDecimal(negative: y.negative, digits: subtract(ys, xs), exponent: exponent).literal
    }

    /// Digits (most significant first) of a decimal, for the schoolbook arithmetic above.
    struct BigDecimal {
        var negative: Bool
        var digits: [Int]
        var exponent: Int

        init(negative: Bool, digits: [Int], exponent: Int) {
            self.negative = negative
            self.digits = digits
            self.exponent = exponent
        }

        init(_ value: NumericLiteral) {
            negative = value.isNegative
            digits = value.significand.utf8.map { Int($0) - 48 }
            exponent = value.exponent
        }

        var literal: NumericLiteral? {
            let text = (negative ? "-" : "") + (digits.isEmpty ? "0" : digits.map(String.init).joined()) + "e\(exponent)"
            return NumericLiteral(parsing: text)
        }
    }

    static func trimmed(_ digits: [Int]) -> [Int] { Array(digits.drop { $0 == 0 }) }

    static func compare(_ a: [Int], _ b: [Int]) -> Int {
        let a = trimmed(a), b = trimmed(b)
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    static func add(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        var carry = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let s = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(s % 10)
            carry = s / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a − b` for `a ≥ b`.
    static func subtract(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        var borrow = 0
        var i = a.count - 1, j = b.count - 1
        while i >= 0 {
            var d = a[i] - (j >= 0 ? b[j] : 0) - borrow
            borrow = d < 0 ? 1 : 0
            if d < 0 { d += 10 }
            result.append(d)
            i -= 1
            j -= 1
        }
        return trimmed(result.reversed())
    }

    static func multiply(_ a: [Int], _ b: [Int]) -> [Int] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var result = [Int](repeating: 0, count: a.count + b.count)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                let s = result[i + j + 1] + a[i] * b[j]
                result[i + j + 1] = s % 10
                result[i + j] += s / 10
            }
        }
        return trimmed(result)
    }
}
