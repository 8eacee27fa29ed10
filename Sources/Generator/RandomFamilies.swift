import LayoutModel

/// Random valid systems: a random view tree with random constraints, and the classic
/// Cassowary benchmark workload.
enum RandomFamilies {
    static let all: [Family] = [
        Family(
            name: "random",
            kind: .random,
            rationale: "views in a random tree with random valid constraints: Apple's and arbitrary priorities, integral, half and decimal constants, multipliers mostly 1, sometimes 0.5, 2 or arbitrary",
            generate: random),
        Family(
            name: "cassowary-benchmark",
            kind: .random,
            rationale: "the Cassowary benchmark workload: random constraints over 1-3 unknowns, coefficients within +-5 on a 1e-4 grid, 12% inequalities, mixed priorities, written as size and position constraints",
            sizeNote: "views; two constraints per view",
            generate: cassowaryBenchmark),
    ]

    static let horizontalDirectional: [Attribute] = [
        .leading, .trailing, .centerX, .leadingMargin, .trailingMargin, .centerXWithinMargins,
    ]
    static let horizontalAbsolute: [Attribute] = [
        .left, .right, .centerX, .leftMargin, .rightMargin, .centerXWithinMargins,
    ]
    static let vertical: [Attribute] = [
        .top, .bottom, .centerY, .firstBaseline, .lastBaseline, .topMargin, .bottomMargin, .centerYWithinMargins,
    ]

    static func relation(_ rng: inout SeededGenerator) -> Relation {
        switch rng.bounded(10) {
        case 0..<6: return .equal
        case 6..<8: return .lessThanOrEqual
        default: return .greaterThanOrEqual
        }
    }

    /// Mostly 1; sometimes 0.5 or 2; rarely an arbitrary positive or negative value
    /// (never 0, which V5 forbids on positions).
    static func multiplier(_ rng: inout SeededGenerator) -> NumericLiteral {
        switch rng.bounded(20) {
        case 0..<17: return .one
        case 17: return .decimal("0.5")
        case 18: return NumericLiteral.integer(2)
        default:
            let magnitude = rng.int(in: 1...3000)
            return .scaled(rng.chance(0.8) ? magnitude : -magnitude, exponent: -3)
        }
    }

    /// Each view gets a random parent among the items before it (a random recursive tree,
    /// about ln n deep), sometimes an intrinsic size, baselines or margins, and 1-4
    /// constraints that relate it to its parent, an earlier item, itself or a constant.
    static func random(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        let direction: LayoutDirection = rng.chance(0.2) ? .rightToLeft : .leftToRight
        var b = SystemBuilder(root: .random(&rng), direction: direction, expectedViews: size)
        for index in 1...size {
            let parent = rng.index(below: index)
            var intrinsicWidth: NumericLiteral?
            var intrinsicHeight: NumericLiteral?
            var hugging = AxisPair(horizontal: Priority.low, vertical: .low)
            var resistance = AxisPair(horizontal: Priority.high, vertical: .high)
            if rng.chance(0.3) {
                if rng.chance(0.8) { intrinsicWidth = rng.layoutConstant(in: 0...300) }
                if rng.chance(0.8) { intrinsicHeight = rng.layoutConstant(in: 0...80) }
                if rng.chance(0.3) {
                    hugging = AxisPair(horizontal: rng.layoutPriority(), vertical: rng.layoutPriority())
                    resistance = AxisPair(horizontal: rng.layoutPriority(), vertical: rng.layoutPriority())
                }
            }
            let baselines = rng.chance(0.1)
                ? Baselines(first: rng.layoutConstant(in: 0...30), last: rng.layoutConstant(in: 0...12)) : nil
            let margins = rng.chance(0.1)
                ? Margins(top: rng.layoutConstant(in: 0...20), left: rng.layoutConstant(in: 0...20),
                          bottom: rng.layoutConstant(in: 0...20), right: rng.layoutConstant(in: 0...20))
                : .standard
            let view = b.addView(
                "v\(index)", in: parent, intrinsicWidth: intrinsicWidth, intrinsicHeight: intrinsicHeight,
                hugging: hugging, resistance: resistance, baselines: baselines, margins: margins)
            for _ in 0..<rng.int(in: 1...4) {
                addRandomConstraint(to: view, parent: parent, &b, &rng)
            }
        }
        return b.system
    }

    static func addRandomConstraint(to view: ItemIndex, parent: ItemIndex, _ b: inout SystemBuilder, _ rng: inout SeededGenerator) {
        let other: ItemIndex
        switch rng.bounded(20) {
        case 0..<9: other = parent
        case 9..<19: other = rng.index(below: view)
        default: other = view
        }
        let rel = relation(&rng)
        let priority = rng.layoutPriority()
        let id: String? = rng.chance(0.05) ? "k\(b.system.constraints.count + 1)" : nil
        if rng.chance(0.4) {
            let a: Attribute = rng.chance(0.5) ? .width : .height
            if rng.chance(0.25) {
                b.add(view, a, rel, rng.layoutConstant(in: 0...400), priority: priority, id: id)
            } else {
                let second: Attribute = rng.chance(0.7) ? a : (a == .width ? .height : .width)
                b.add(view, a, rel, other, second, times: multiplier(&rng),
                      plus: rng.layoutConstant(in: -20...100), priority: priority, id: id)
            }
        } else {
            let attributes: [Attribute]
            if rng.chance(0.5) {
                attributes = vertical
            } else {
                attributes = rng.chance(0.7) ? horizontalDirectional : horizontalAbsolute
            }
            b.add(view, rng.element(of: attributes), rel, other, rng.element(of: attributes),
                  times: multiplier(&rng), plus: rng.layoutConstant(in: -50...200), priority: priority, id: id)
        }
    }

    /// A nonzero multiple of 1e-4 within ±5.
    static func coefficient(_ rng: inout SeededGenerator) -> NumericLiteral {
        var k = 0
        while k == 0 { k = rng.int(in: -50_000...50_000) }
        return .scaled(k, exponent: -4)
    }

    /// After the benchmark of Badros, Borning and Stuckey's Cassowary (and kiwi's port):
    /// random constraints over one to three unknowns, 12% of them inequalities. Every view
    /// is a child of the root, so a position constraint lowers to exactly its unknowns:
    /// one (`a.width REL c`), two (`a.width REL m × b.width + c`,
    /// `a.left REL m × b.left + c`) or three (`a.left REL m × b.right + c`).
    static func cassowaryBenchmark(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        for index in 1...size {
            b.addView("w\(index)")
        }
        for _ in 0..<(2 * size) {
            let rel: Relation = rng.chance(0.12) ? (rng.chance(0.5) ? .lessThanOrEqual : .greaterThanOrEqual) : .equal
            let priority: Priority = rng.chance(0.5) ? .required : rng.element(of: applePriorities)
            let constant = NumericLiteral.scaled(rng.int(in: -1_000_000...1_000_000), exponent: -4)
            let a = rng.int(in: 1...size)
            var second = rng.int(in: 1...size)
            if size > 1 {
                while second == a { second = rng.int(in: 1...size) }
            }
            let horizontal = rng.chance(0.5)
            switch rng.int(in: 1...3) {
            case 1:
                b.add(a, horizontal ? .width : .height, rel, constant, priority: priority)
            case 2:
                if rng.chance(0.5) {
                    let attribute: Attribute = horizontal ? .width : .height
                    // With one view, relate its width to its height.
                    let other: Attribute = second == a ? (horizontal ? .height : .width) : attribute
                    b.add(a, attribute, rel, second, other, times: coefficient(&rng), plus: constant, priority: priority)
                } else {
                    let attribute: Attribute = horizontal ? .left : .top
                    // A one-view position pair needs a second unknown: use the far edge.
                    let other: Attribute = second == a ? (horizontal ? .right : .bottom) : attribute
                    b.add(a, attribute, rel, second, other, times: coefficient(&rng), plus: constant, priority: priority)
                }
            default:
                let (near, far): (Attribute, Attribute) = horizontal ? (.left, .right) : (.top, .bottom)
                if rng.chance(0.5) {
                    b.add(a, near, rel, second, far, times: coefficient(&rng), plus: constant, priority: priority)
                } else {
                    b.add(a, far, rel, second, near, times: coefficient(&rng), plus: constant, priority: priority)
                }
            }
        }
        return b.system
    }
}
