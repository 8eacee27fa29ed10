import Fuzzing
import LayoutModel

/// Writes a ``GuidedCase`` in the byte form ``GuidedCaseDecoder`` reads, so that decoding
/// the bytes gives the case back. Any valid system can be written — that is how the
/// generator's families, the corpora and imported app layouts become seeds — with these
/// normalisations, after which the round trip is exact: items are renamed `root`, `v1`, …
/// and constraint IDs dropped; intrinsic constraints are left to their views (which
/// rebuild them right after the views, before the other constraints); numbers keep at
/// most 31 significant digits; views added by update steps are named `v<N>` after every
/// view declared before them, and added constraints lose their IDs too; the oracle
/// `scale-required`'s row factors are not part of a system's form. Every step of spec §7 has
/// a spelling; the byte form's limits (three update passes, four steps a pass) and steps
/// the decoded system no longer admits are what can leave a step out.
public enum GuidedCaseEncoder {
    public static func encode(_ guided: GuidedCase) -> [UInt8] {
        var writer = ByteWriter()
        let system = guided.sequence.initial
        let oracleChoice = guided.oracle.flatMap { MetamorphicOracle.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let root = system.root
        let rootMargins = root.margins != .standard
        writer.append(
            UInt8(oracleChoice) | (system.direction == .rightToLeft ? 0x10 : 0) | (guided.redecide ? 0x20 : 0)
                | (rootMargins ? 0x40 : 0))
        let frame = root.frame ?? [.zero, .zero, .zero, .zero]
        writer.number(frame[0], .constant)
        writer.number(frame[1], .constant)
        writer.number(frame[2], .size)
        writer.number(frame[3], .size)
        if rootMargins { writer.margins(root.margins) }

        writer.count(system.viewCount, small: GuidedLimits.smallViews)
        for k in 1..<max(system.items.count, 1) { writer.view(system.items[k], at: k) }
        let explicit = system.constraints.filter { $0.origin != .intrinsic }
        writer.count(explicit.count, small: GuidedLimits.smallConstraints)
        for c in explicit { writer.constraint(c, itemCount: system.items.count) }
        steps(guided.sequence, into: &writer)
        return writer.bytes
    }

    /// The update passes, each step written against the system it applies to.
    private static func steps(_ sequence: UpdateSequence, into writer: inout ByteWriter) {
        var replay = sequence.makeReplay()
        var passes: [[(StepKind, [UInt8])]] = []
        for steps in sequence.updates.prefix(GuidedLimits.updatePasses - 1) {
            var written: [(StepKind, [UInt8])] = []
            for step in steps {
                let before = replay.current
                // Steps the byte form has no spelling for still change the system.
                _ = try? replay.apply(step)
                guard written.count < GuidedLimits.stepsPerPass - 1, let encoded = Self.step(step.action, in: before) else { continue }
                written.append(encoded)
            }
            passes.append(written)
        }
        while passes.last?.isEmpty == true { passes.removeLast() }
        writer.append(UInt8(passes.count))
        for pass in passes {
            writer.append(UInt8(pass.count))
            for (kind, operands) in pass {
                writer.append(kind.rawValue)
                writer.bytes += operands
            }
        }
    }

    private static func step(_ action: UpdateStep.Action, in system: ConstraintSystem) -> (StepKind, [UInt8])? {
        var w = ByteWriter()
        func constraint(_ name: String) -> Bool {
            let order = ConstraintOrder.stepOperands(system)
            guard let ordinal = order.firstIndex(where: { system.constraintName($0) == name }) else { return false }
            w.index(ordinal, below: order.count)
            return true
        }
        switch action {
        case .setConstant(let name, let constant):
            guard constraint(name) else { return nil }
            w.number(constant, .constant)
            return (.setConstant, w.bytes)
        case .setPriority(let name, let priority):
            guard constraint(name) else { return nil }
            w.number(priority.value, .priority)
            return (.setPriority, w.bytes)
        case .removeConstraint(let name):
            guard constraint(name) else { return nil }
            return (.removeConstraint, w.bytes)
        case .setRootSize(let width, let height):
            w.number(width, .size)
            w.number(height, .size)
            return (.setRootSize, w.bytes)
        case .setIntrinsic(let name, let intrinsic):
            guard system.items.count > 1, let item = system.itemIndex(named: name), item > 0 else { return nil }
            w.index(item - 1, below: system.items.count - 1)
            w.append((intrinsic.horizontal != nil ? 0x01 : 0) | (intrinsic.vertical != nil ? 0x02 : 0))
            if let width = intrinsic.horizontal { w.number(width, .size) }
            if let height = intrinsic.vertical { w.number(height, .size) }
            return (.setIntrinsic, w.bytes)
        case .addView(let view):
            let parent = view.parent.flatMap { system.itemIndex(named: $0) } ?? 0
            guard view.parent == nil || parent > 0 else { return nil }
            w.index(parent, below: system.items.count)
            w.viewBody(view.item(parent: parent))
            return (.addView, w.bytes)
        case .addConstraint(let new):
            func reference(_ named: NamedAttribute) -> AttributeReference? {
                system.itemIndex(named: named.item).map { AttributeReference(item: $0, attribute: named.attribute) }
            }
            guard let first = reference(new.first) else { return nil }
            var second: AttributeReference?
            if let named = new.second {
                guard let resolved = reference(named) else { return nil }
                second = resolved
            }
            w.constraint(Constraint(first: first, relation: new.relation, multiplier: new.multiplier, second: second,
                                    constant: new.constant, priority: new.priority), itemCount: system.items.count)
            return (.addConstraint, w.bytes)
        case .removeView(let name):
            guard system.items.count > 1, let item = system.itemIndex(named: name), item > 0 else { return nil }
            w.index(item - 1, below: system.items.count - 1)
            return (.removeView, w.bytes)
        }
    }
}

/// The writing half of the byte form: each method mirrors a reading of ``GuidedCaseDecoder``.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func index(_ value: Int, below count: Int) {
        append(UInt8(truncatingIfNeeded: value))
        if count > 256 { append(UInt8(truncatingIfNeeded: value >> 8)) }
    }

    mutating func count(_ value: Int, small: Int) {
        let value = min(value, GuidedLimits.maxCount)
        if value < small {
            append(UInt8(value))
        } else {
            append(GuidedLimits.escape)
            index(value, below: 65_536)
        }
    }

    /// A menu index when the value is on the role's menu, else a literal.
    mutating func number(_ value: NumericLiteral, _ role: NumberRole) {
        if let k = role.menu.firstIndex(of: value) {
            append(UInt8(k))
            return
        }
        append(GuidedLimits.escape)
        var digits = Array(value.significand.utf8)
        var exponent = value.exponent
        if digits.count > GuidedLimits.literalDigits {
            exponent += digits.count - GuidedLimits.literalDigits
            digits = Array(digits.prefix(GuidedLimits.literalDigits))
        }
        append((value.isNegative ? 0x80 : 0) | UInt8(digits.count))
        for d in digits { append(d - UInt8(ascii: "0")) }
        append(UInt8(bitPattern: Int8(clamping: exponent)))
    }

    mutating func margins(_ m: Margins) {
        for value in [m.top, m.left, m.bottom, m.right] { number(value, .size) }
    }

    mutating func view(_ item: Item, at k: Int) {
        index(item.parent ?? 0, below: k)
        viewBody(item)
    }

    /// A view's flags and flagged numbers (what follows its parent).
    mutating func viewBody(_ item: Item) {
        let customPriorities = item.hugging != AxisPair(horizontal: .low, vertical: .low)
            || item.resistance != AxisPair(horizontal: .high, vertical: .high)
        let flags: UInt8 = (item.intrinsic.horizontal != nil ? 0x01 : 0) | (item.intrinsic.vertical != nil ? 0x02 : 0)
            | (item.baselines != nil ? 0x04 : 0) | (item.margins != .standard ? 0x08 : 0) | (customPriorities ? 0x10 : 0)
        append(flags)
        if let width = item.intrinsic.horizontal { number(width, .size) }
        if let height = item.intrinsic.vertical { number(height, .size) }
        if let baselines = item.baselines {
            number(baselines.first, .size)
            number(baselines.last, .size)
        }
        if item.margins != .standard { margins(item.margins) }
        if customPriorities {
            for p in [item.hugging.horizontal, item.hugging.vertical, item.resistance.horizontal, item.resistance.vertical] {
                number(p.value, .priority)
            }
        }
    }

    mutating func constraint(_ c: Constraint, itemCount: Int) {
        index(c.first.item, below: itemCount)
        append(UInt8(Attribute.allCases.firstIndex(of: c.first.attribute) ?? 0))
        append(UInt8(Relation.allCases.firstIndex(of: c.relation) ?? 0))
        if let second = c.second {
            index(second.item, below: itemCount + 1)
            append(UInt8(CompatibleAttributes.of(c.first.attribute).firstIndex(of: second.attribute) ?? 0))
            number(c.multiplier, .multiplier)
        } else {
            index(itemCount, below: itemCount + 1)
        }
        number(c.constant, .constant)
        number(c.priority.value, .priority)
    }
}
