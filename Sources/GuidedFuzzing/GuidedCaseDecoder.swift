import Fuzzing
import LayoutModel

/// Reads bytes as a ``GuidedCase``. Every byte string is a case: the input is read as a
/// sequence of choices, each taken modulo the number of options there are, so whatever a
/// byte mutation does, the result is a valid system. Past the end, every byte reads as 0
/// (the first option: no views, no constraints, a required priority).
///
/// The form, in order (numbers as in ``number(_:)``, indices one byte, two when there are
/// more than 256 to choose from):
///
/// - a header byte: the oracle (`value & 0x0F` modulo 10: 0 none, k the k-th of
///   ``MetamorphicOracle/allCases``), `0x10` right-to-left, `0x20` re-decide determinacy,
///   `0x40` the root has margins of its own;
/// - the root's frame: x and y (constants), width and height (sizes); its margins when flagged;
/// - a count of views (modulo 9, or the escape and two bytes); per view its parent (an earlier
///   item), a flags byte (`0x01` intrinsic width, `0x02` intrinsic height, `0x04` baselines,
///   `0x08` margins, `0x10` hugging and resistance priorities) and the flagged numbers;
/// - a count of constraints (modulo 33, or the escape and two bytes); per constraint the
///   first item, its attribute (modulo 20), the relation (modulo 3), the second item (one
///   more than the last item means none), and with a second item its attribute (an index
///   into those the first attribute may be related to) and the multiplier; then the
///   constant and the priority. A position attribute with no second item is related to
///   the same attribute of its item's parent (V2);
/// - a count of update passes (modulo 4); per pass a count of steps (modulo 5); per step
///   its kind (modulo 8: set a constant, set a priority, set the root's size, remove a
///   constraint — these three name a constraint by its place in ``ConstraintOrder`` —, set a view's intrinsic size, add a view — its parent and then as a view
///   above, named `v<N>` after every view declared so far —, add a constraint — as a
///   constraint above —, remove a view) and its operands. A step the replay rejects (a
///   required priority made optional, say) is left out.
struct GuidedCaseDecoder {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// An index below `count` (> 0): one byte, two (little-endian) when `count` exceeds 256.
    private mutating func index(below count: Int) -> Int {
        if count <= 256 { return Int(byte()) % count }
        let low = Int(byte())
        return (low | Int(byte()) << 8) % count
    }

    /// A count: `byte % small`, or after the escape byte two bytes — at most the limit, and
    /// at most one per `bytesEach` bytes left, so a short input never stands for a large
    /// system of default parts.
    private mutating func count(small: Int, bytesEach: Int) -> Int {
        let b = byte()
        guard b >= GuidedLimits.escape else { return Int(b) % small }
        let low = Int(byte())
        let value = low | Int(byte()) << 8
        return max(0, min(value, GuidedLimits.maxCount, (bytes.count - position) / bytesEach))
    }

    /// A number for `role`: a byte below the escape picks from the role's menu of hard
    /// values; the escape is followed by a literal — a byte with the sign (`0x80`) and the
    /// number of digits (`0x1F`, at most 31), the digits (each byte modulo 10) and the
    /// decimal exponent (a signed byte). A literal the role does not admit (a priority of
    /// 0, a negative size, a multiplier of 0) reads as the menu's first entry.
    mutating func number(_ role: NumberRole) -> NumericLiteral {
        let menu = role.menu
        let b = byte()
        guard b >= GuidedLimits.escape else { return menu[Int(b) % menu.count] }
        let head = byte()
        let digits = (0..<Int(head & 0x1F)).map { _ in UInt8(ascii: "0") + byte() % 10 }
        let exponent = Int(Int8(bitPattern: byte()))
        let text = (head & 0x80 != 0 ? "-" : "") + (digits.isEmpty ? "0" : String(decoding: digits, as: UTF8.self)) + "e\(exponent)"
        guard let value = NumericLiteral(parsing: text), role.admits(value) else { return menu[0] }
        return value
    }

    /// A constraint read from `bytes` alone (the mutator's random constraint).
    static func constraint(from bytes: [UInt8], items: [Item]) -> Constraint {
        var decoder = GuidedCaseDecoder(bytes)
        return decoder.constraint(items: items)
    }

    /// An update step read from `bytes` alone (the mutator's random step); a view it adds is
    /// named `v<viewsDeclared + 1>`.
    static func step(from bytes: [UInt8], in system: ConstraintSystem, viewsDeclared: Int) -> UpdateStep.Action? {
        var decoder = GuidedCaseDecoder(bytes)
        return decoder.step(in: system, viewsDeclared: viewsDeclared)
    }

    mutating func decode() -> GuidedCase {
        let header = byte()
        let oracleChoice = Int(header & 0x0F) % (MetamorphicOracle.allCases.count + 1)
        let oracle = oracleChoice == 0 ? nil : MetamorphicOracle.allCases[oracleChoice - 1]
        let frame = [number(.constant), number(.constant), number(.size), number(.size)]
        let rootMargins = header & 0x40 != 0 ? margins() : .standard
        var system = ConstraintSystem(
            direction: header & 0x10 != 0 ? .rightToLeft : .leftToRight, rootName: DecodedNames.root, frame: frame,
            margins: rootMargins)
        let viewCount = count(small: GuidedLimits.smallViews, bytesEach: 2)
        for k in 1...max(viewCount, 1) where k <= viewCount {
            system.addView(view(k))
        }
        let constraintCount = count(small: GuidedLimits.smallConstraints, bytesEach: 5)
        for _ in 0..<constraintCount {
            system.constraints.append(constraint(items: system.items))
        }
        return GuidedCase(
            sequence: updates(from: system), oracle: oracle, redecide: header & 0x20 != 0)
    }

    private mutating func margins() -> Margins {
        Margins(top: number(.size), left: number(.size), bottom: number(.size), right: number(.size))
    }

    private mutating func view(_ k: Int) -> Item {
        view(named: DecodedNames.view(k), parent: index(below: k))
    }

    /// A view's flags and flagged numbers (what follows its parent).
    private mutating func view(named name: String, parent: ItemIndex) -> Item {
        let flags = byte()
        let width = flags & 0x01 != 0 ? number(.size) : nil
        let height = flags & 0x02 != 0 ? number(.size) : nil
        let baselines = flags & 0x04 != 0 ? Baselines(first: number(.size), last: number(.size)) : nil
        let margins = flags & 0x08 != 0 ? margins() : .standard
        var item = Item(
            name: name, parent: parent, intrinsic: AxisPair(horizontal: width, vertical: height),
            baselines: baselines, margins: margins)
        if flags & 0x10 != 0 {
            item.hugging = AxisPair(horizontal: Priority(number(.priority)), vertical: Priority(number(.priority)))
            item.resistance = AxisPair(horizontal: Priority(number(.priority)), vertical: Priority(number(.priority)))
        }
        return item
    }

    mutating func constraint(items: [Item]) -> Constraint {
        let first = index(below: items.count)
        let attribute = Attribute.allCases[Int(byte()) % Attribute.allCases.count]
        let relation = Relation.allCases[Int(byte()) % Relation.allCases.count]
        let secondChoice = index(below: items.count + 1)
        var second: AttributeReference?
        var multiplier = NumericLiteral.one
        if secondChoice < items.count {
            let choices = CompatibleAttributes.of(attribute)
            second = AttributeReference(item: secondChoice, attribute: choices[Int(byte()) % choices.count])
            multiplier = number(.multiplier)
        } else if !attribute.isSize {
            // V2: a position is never set to a constant alone; relate it to its parent's.
            second = AttributeReference(item: items[first].parent ?? 0, attribute: attribute)
        }
        return Constraint(
            first: AttributeReference(item: first, attribute: attribute), relation: relation, multiplier: multiplier,
            second: second, constant: number(.constant), priority: Priority(number(.priority)))
    }

    private mutating func updates(from system: ConstraintSystem) -> UpdateSequence {
        guard var passes = PassBuilder(initial: system) else { return UpdateSequence(system) }
        for pass in 0..<(Int(byte()) % GuidedLimits.updatePasses) {
            for _ in 0..<(Int(byte()) % GuidedLimits.stepsPerPass) {
                if let action = step(in: passes.current, viewsDeclared: passes.viewsDeclared) { passes.apply(action, inPass: pass) }
            }
        }
        return passes.sequence
    }

    /// Reads one step's kind and operands; nil when it names something that is not there.
    mutating func step(in system: ConstraintSystem, viewsDeclared: Int) -> UpdateStep.Action? {
        let kind = StepKind.allCases[Int(byte()) % StepKind.allCases.count]
        switch kind {
        case .setConstant, .setPriority, .removeConstraint:
            let order = ConstraintOrder.stepOperands(system)
            guard !order.isEmpty else { return nil }
            let name = system.constraintName(order[index(below: order.count)])
            switch kind {
            case .setConstant: return .setConstant(constraint: name, constant: number(.constant))
            case .setPriority: return .setPriority(constraint: name, priority: Priority(number(.priority)))
            default: return .removeConstraint(name)
            }
        case .setRootSize:
            return .setRootSize(width: number(.size), height: number(.size))
        case .setIntrinsic:
            guard system.items.count > 1 else { return nil }
            let view = 1 + index(below: system.items.count - 1)
            let flags = byte()
            let width = flags & 0x01 != 0 ? number(.size) : nil
            let height = flags & 0x02 != 0 ? number(.size) : nil
            return .setIntrinsic(item: system.items[view].name, intrinsic: AxisPair(horizontal: width, vertical: height))
        case .addView:
            let parent = index(below: system.items.count)
            let item = view(named: DecodedNames.view(viewsDeclared + 1), parent: parent)
            return .addView(NewView(item, parentName: parent == 0 ? nil : system.items[parent].name))
        case .addConstraint:
            return .addConstraint(NewConstraint(constraint(items: system.items), in: system))
        case .removeView:
            guard system.items.count > 1 else { return nil }
            return .removeView(system.items[1 + index(below: system.items.count - 1)].name)
        }
    }
}

/// Builds a sequence whose steps may fail: a step that does not apply is left out, and so
/// is a pass after the last step that applied, so that the sequence has one spelling.
struct PassBuilder {
    private var builder: UpdateSequence.Builder
    /// The pass the builder's next step goes to (0: the steps after the first pass).
    private var pass = 0

    init?(initial: ConstraintSystem) {
        guard let builder = try? UpdateSequence.Builder(initial: initial) else { return nil }
        self.builder = builder
        viewsDeclared = initial.viewCount
    }

    var current: ConstraintSystem { builder.current }

    /// Views declared so far, removed ones included: the next added view is `v<this + 1>`,
    /// a name never used before.
    private(set) var viewsDeclared: Int

    var sequence: UpdateSequence { builder.sequence }

    /// Applies `action` as a step of `pass` (passes before it that got no step stay empty).
    mutating func apply(_ action: UpdateStep.Action, inPass target: Int) {
        var trial = builder
        for _ in pass..<max(target, pass) { trial.endPass() }
        guard (try? trial.apply(action)) != nil else { return }
        builder = trial
        pass = max(target, pass)
        if case .addView = action { viewsDeclared += 1 }
    }
}

/// The order in which update steps name constraints: the intrinsic ones first, then the
/// others, each in the system's order. A decoded system has its views' intrinsic constraints
/// right after the views, where the original may have them anywhere; in this order the two
/// agree, so a step written against the original names the same constraint when read.
enum ConstraintOrder {
    static func stepOperands(_ system: ConstraintSystem) -> [Int] {
        let intrinsic = system.constraints.indices.filter { system.constraints[$0].origin == .intrinsic }
        return intrinsic + system.constraints.indices.filter { system.constraints[$0].origin != .intrinsic }
    }
}
