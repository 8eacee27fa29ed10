import LayoutModel

/// Appends views and constraints to a system in an order the canonical printer keeps: a
/// view is added before any constraint names it, and its intrinsic constraints go in at
/// its declaration, so that `LayoutParser.parse(system.canonicalText) == system`.
struct SystemBuilder {
    var system: ConstraintSystem

    /// A root named `superview` at the origin.
    init(width: NumericLiteral, height: NumericLiteral, direction: LayoutDirection = .leftToRight) {
        system = ConstraintSystem(
            direction: direction, rootName: "superview", frame: [.zero, .zero, width, height])
    }

    /// A builder for about `expectedViews` views with about `constraintsPerView`
    /// constraints each. Capacity is reserved up front: a 100,000-view system holds
    /// 150-350 MB of constraints (344 bytes each), and growing the arrays by doubling would
    /// copy that and fault in twice the pages.
    init(root: RootSize, direction: LayoutDirection = .leftToRight, expectedViews: Int = 0, constraintsPerView: Int = 7) {
        self.init(width: NumericLiteral.integer(root.width), height: NumericLiteral.integer(root.height), direction: direction)
        system.items.reserveCapacity(expectedViews + 1)
        system.constraints.reserveCapacity(constraintsPerView * expectedViews)
    }

    /// The root's index.
    let root: ItemIndex = 0

    var viewCount: Int { system.viewCount }

    /// A system built in rounds, the way the families that add their views a row, a group
    /// or a card at a time build theirs: `round` runs with 0, 1, 2, … until the system has
    /// `size` views (a round adds at least one; the last may add more than are left).
    ///
    /// The root is drawn from `rng` (unless given) before the first round, so the draws come
    /// in the order of a builder made first and filled after.
    static func filled(
        to size: Int, root: RootSize? = nil, direction: LayoutDirection = .leftToRight, constraintsPerView: Int = 7,
        _ rng: inout SeededGenerator,
        _ round: (_ builder: inout SystemBuilder, _ index: Int, _ rng: inout SeededGenerator) -> Void
    ) -> ConstraintSystem {
        var builder = SystemBuilder(
            root: root ?? .random(&rng), direction: direction, expectedViews: size, constraintsPerView: constraintsPerView)
        var index = 0
        while builder.viewCount < size {
            round(&builder, index, &rng)
            index += 1
        }
        return builder.system
    }

    @discardableResult
    mutating func addView(
        _ name: String, in parent: ItemIndex = 0,
        intrinsicWidth: NumericLiteral? = nil, intrinsicHeight: NumericLiteral? = nil,
        hugging: AxisPair<Priority> = AxisPair(horizontal: .low, vertical: .low),
        resistance: AxisPair<Priority> = AxisPair(horizontal: .high, vertical: .high),
        baselines: Baselines? = nil, margins: Margins = .standard
    ) -> ItemIndex {
        system.addView(Item(
            name: name, parent: parent,
            intrinsic: AxisPair(horizontal: intrinsicWidth, vertical: intrinsicHeight),
            hugging: hugging, resistance: resistance, baselines: baselines, margins: margins))
    }

    /// `first.a REL multiplier × second.b + constant @priority`.
    mutating func add(
        _ first: ItemIndex, _ a: Attribute, _ relation: Relation, _ second: ItemIndex, _ b: Attribute,
        times multiplier: NumericLiteral = .one, plus constant: NumericLiteral = .zero,
        priority: Priority = .required, id: String? = nil
    ) {
        system.constraints.append(Constraint(
            id: id, first: AttributeReference(item: first, attribute: a), relation: relation,
            multiplier: multiplier, second: AttributeReference(item: second, attribute: b),
            constant: constant, priority: priority))
    }

    /// `first.a REL constant @priority` (sizes only: V2 forbids positions).
    mutating func add(
        _ first: ItemIndex, _ a: Attribute, _ relation: Relation, _ constant: NumericLiteral,
        priority: Priority = .required, id: String? = nil
    ) {
        system.constraints.append(Constraint(
            id: id, first: AttributeReference(item: first, attribute: a), relation: relation,
            second: nil, constant: constant, priority: priority))
    }

    /// Places `view` in a row or column: after a previous view `view.a == previous.b +
    /// spacing`, else (the first) `view.a == root.rootAttribute + rootOffset`.
    mutating func follow(
        _ view: ItemIndex, _ a: Attribute, after previous: ItemIndex?, _ b: Attribute, plus spacing: NumericLiteral = .zero,
        orRoot rootAttribute: Attribute, rootOffset: NumericLiteral = .zero
    ) {
        if let previous {
            add(view, a, .equal, previous, b, plus: spacing)
        } else {
            add(view, a, .equal, root, rootAttribute, plus: rootOffset)
        }
    }

    /// Pins `view` in band `row` of 30-point bands: its top `30 × row` below the root's top,
    /// its height 20.
    mutating func pinRow(_ view: ItemIndex, row: Int) {
        add(view, .top, .equal, root, .top, plus: NumericLiteral.integer(30 * row))
        add(view, .height, .equal, NumericLiteral.integer(20))
    }

    /// Appends constraints built elsewhere (VFL lines).
    mutating func append(_ constraints: [Constraint]) {
        system.constraints.append(contentsOf: constraints)
    }
}

/// A root frame size in points.
struct RootSize: Sendable, Hashable {
    var width: Int
    var height: Int

    /// Common device sizes in portrait (iPhone SE, 8, 14, 11 Pro Max, iPad mini, iPad Air).
    static let portraitDevices: [RootSize] = [
        RootSize(width: 320, height: 568), RootSize(width: 375, height: 667),
        RootSize(width: 390, height: 844), RootSize(width: 414, height: 896),
        RootSize(width: 768, height: 1024), RootSize(width: 820, height: 1180),
    ]

    var landscape: RootSize { RootSize(width: max(width, height), height: min(width, height)) }

    /// A device size, portrait or landscape with equal odds.
    static func random(_ rng: inout SeededGenerator) -> RootSize {
        let device = rng.element(of: portraitDevices)
        return rng.chance(0.5) ? device : device.landscape
    }
}

/// Integer literals 0...4096, built once: making a literal formats and re-parses its
/// digits, which was a third of the time to generate a 100,000-view system.
private let smallIntegerLiterals: [NumericLiteral] = (0...4096).map { NumericLiteral($0) }

extension NumericLiteral {
    /// The integer `value` as a literal, from a table for small non-negative values.
    static func integer(_ value: Int) -> NumericLiteral {
        value >= 0 && value < smallIntegerLiterals.count ? smallIntegerLiterals[value] : NumericLiteral(value)
    }

    /// A literal from text the generator itself writes (always a valid decimal).
    static func decimal(_ text: String) -> NumericLiteral {
        NumericLiteral(parsing: text) ?? .zero
    }

    /// `mantissa × 10^exponent`, exactly.
    static func scaled(_ mantissa: Int, exponent: Int) -> NumericLiteral {
        NumericLiteral(parsing: "\(mantissa)e\(exponent)") ?? .zero
    }
}

extension Priority {
    /// An integral priority, its literal from the table of small integers.
    static func integer(_ value: Int) -> Priority { Priority(NumericLiteral.integer(value)) }
}

/// Apple's usual priorities other than 1000: UILayoutPriority's named levels and the
/// values Interface Builder writes (999 "almost required", 251 for labels' hugging).
let applePriorities: [Priority] = [Priority.integer(999), .high, Priority.integer(251), .low, .fitting]

extension SeededGenerator {
    /// A constant as apps write them: integral 60% of the time, a half 20%, and a decimal
    /// with one to three fraction digits 20%, in `range` (the integral part).
    mutating func layoutConstant(in range: ClosedRange<Int>) -> NumericLiteral {
        let whole = int(in: range)
        switch bounded(10) {
        case 0..<6: return NumericLiteral.integer(whole)
        case 6..<8: return .scaled(whole * 10 + (whole < 0 ? -5 : 5), exponent: -1)
        default:
            let digits = int(in: 1...3)
            var scale = 1
            for _ in 0..<digits { scale *= 10 }
            let fraction = int(in: 1...(scale - 1))
            return .scaled(whole * scale + (whole < 0 ? -fraction : fraction), exponent: -digits)
        }
    }

    /// A priority: required half the time, one of Apple's usual levels 35%, and an
    /// arbitrary value in (0, 1000) 15% (integral or with a fraction, as people write them).
    mutating func layoutPriority() -> Priority {
        switch bounded(20) {
        case 0..<10: return .required
        case 10..<17: return element(of: applePriorities)
        default:
            if chance(0.5) { return Priority.integer(int(in: 1...999)) }
            return Priority(.scaled(int(in: 1...9999), exponent: -1))
        }
    }

    /// An optional priority (never 1000), Apple's levels 70% of the time.
    mutating func optionalPriority() -> Priority {
        if chance(0.7) { return element(of: applePriorities) }
        return Priority.integer(int(in: 1...999))
    }
}
