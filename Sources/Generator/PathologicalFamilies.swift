import LayoutModel

/// Inputs built to break solvers. Each family's rationale says which weakness it aims at.
enum PathologicalFamilies {
    static let all: [Family] = [
        Family(name: "redundant-required", kind: .pathological,
               rationale: "fully determined views plus required duplicates and linear combinations of other required constraints: rank below row count, which naive elimination and some simplex phase-one codes mistake for conflict",
               generate: redundantRequired),
        Family(name: "equality-cycles", kind: .pathological,
               rationale: "cycles of required equalities (widths with multipliers whose product is 1, positions with offsets summing to 0): every cycle has one redundant row",
               generate: equalityCycles),
        Family(name: "inequality-cycles", kind: .pathological,
               rationale: "cycles of required inequalities whose offsets sum to 0, so every one of them is tight: an implicit equality set that is maximally degenerate",
               generate: inequalityCycles),
        Family(name: "reciprocal-multipliers", kind: .pathological,
               rationale: "pairs like a.width == 1.536 * a.height with a.height == 0.6510416666 * a.width: exactly they force 0x0, in floating point they look redundant",
               generate: reciprocalMultipliers),
        Family(name: "aspect-chain", kind: .pathological,
               rationale: "chains of aspect ratios (height == 2 * width, next width == height) whose sizes grow as 2^k up to 2^99, beyond Double's 53-bit integers when offsets are added",
               sizeNote: "views; chains are at most 100 long",
               generate: aspectChain),
        Family(name: "extreme-constants", kind: .pathological,
               rationale: "huge and tiny constants and multipliers (1e9, 1e-9) in one system, so that sums like 1e9 + 1e-9 are below Double's resolution",
               generate: extremeConstants),
        Family(name: "near-conflicts", kind: .pathological,
               rationale: "required pairs whose bounds differ by exactly 1e-9, feasible (a gap of 1e-9) or infeasible (an overlap of 1e-9): a tolerance decides them wrongly",
               generate: nearConflicts),
        Family(name: "priority-ties", kind: .pathological,
               rationale: "many mutually conflicting optional constraints at a single priority level, so the optimum is a median or a whole interval",
               generate: priorityTies),
        Family(name: "almost-required", kind: .pathological,
               rationale: "priority 999 (and 999.9999999) against 1000 on the same attribute: a solver that rounds priorities or treats 999 as required gets it wrong",
               generate: almostRequired),
        Family(name: "weak-crowd", kind: .pathological,
               rationale: "many weak constraints against one slightly stronger one: summed weights favour the crowd, lexicographic priorities the single stronger constraint",
               generate: weakCrowd),
        Family(name: "ambiguous", kind: .pathological,
               rationale: "under-constrained layouts (missing widths, heights or positions, space shared by two views): consistent required equalities of deficient rank",
               generate: ambiguous),
        Family(name: "conflict-early", kind: .pathological,
               rationale: "a required conflict in the first three constraints of an otherwise determined layout: the first broken constraint depends on honouring file order",
               generate: conflictEarly),
        Family(name: "conflict-late", kind: .pathological,
               rationale: "a required conflict made by the very last constraint against a chain spanning the whole layout: the conflict set is the entire chain",
               generate: conflictLate),
        Family(name: "long-chain", kind: .pathological,
               rationale: "one chain of views, each placed after the previous with decimal gaps and widths (0.1, 0.7) that binary floating point cannot hold, meant for 10^4-10^5 views",
               generate: longChain),
        Family(name: "simplex-cycling", kind: .pathological,
               rationale: "Beale's (1955) and Kuhn's (Bland 1977) cycling LPs written as layouts: degenerate vertices on which Dantzig's rule cycles",
               sizeNote: "views; each copy of the two examples takes 36 views, the first copy in textbook order, later copies with rows shuffled",
               generate: simplexCycling),
        Family(name: "equal-hugging", kind: .pathological,
               rationale: "labels in a row with equal hugging and compression-resistance priorities and space left over or missing: which label gives way is ambiguous",
               generate: equalHugging),
    ]

    static let spacing = NumericLiteral.integer(8)

    /// Views four to a row, each with its width, spacing, top and height pinned by required
    /// equalities, plus one or two redundant required constraints per view: an exact
    /// duplicate, or a combination of pinned values (trailing from the previous trailing,
    /// width from another width, centre from the leading edge).
    static func redundantRequired(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        var widths: [ItemIndex: Int] = [:]
        var previous: ItemIndex?
        for i in 0..<size {
            let v = b.addView("v\(i)")
            let width = rng.int(in: 20...80)
            widths[v] = width
            let start = b.system.constraints.count
            if i % 4 == 0 {
                b.add(v, .leading, .equal, b.root, .leading, plus: spacing)
                previous = nil
            } else if let previous {
                b.add(v, .leading, .equal, previous, .trailing, plus: spacing)
            }
            b.add(v, .width, .equal, NumericLiteral.integer(width))
            b.pinRow(v, row: i / 4)
            for _ in 0..<rng.int(in: 1...2) {
                switch rng.bounded(4) {
                case 0:
                    let own = rng.int(in: start...(b.system.constraints.count - 1))
                    b.system.constraints.append(b.system.constraints[own])
                case 1:
                    b.follow(v, .trailing, after: previous, .trailing, plus: NumericLiteral.integer(8 + width),
                             orRoot: .leading, rootOffset: NumericLiteral.integer(8 + width))
                case 2:
                    let other = rng.int(in: 1...v)
                    b.add(v, .width, .equal, other, .width, plus: NumericLiteral.integer(width - (widths[other] ?? 0)))
                default:
                    b.add(v, .centerX, .equal, v, .leading, plus: .scaled(width * 5, exponent: -1))
                }
            }
            previous = v
        }
        return b.system
    }

    /// Groups of 3-8 views whose widths, leading edges and tops each form a cycle of
    /// required equalities, with one anchor per group on each.
    static func equalityCycles(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        return SystemBuilder.filled(to: size, &rng) { b, group, rng in
            let views = cycleGroup(group, size: size, firstWidth: 16...64, &b, &rng)
            let k = views.count
            b.add(views[0], .top, .equal, b.root, .top, plus: NumericLiteral.integer(40 * group))
            for v in views { b.add(v, .height, .equal, NumericLiteral.integer(30)) }
            // Width multipliers are powers of two whose exponents sum to 0 around the cycle.
            var exponentSum = 0
            var offsetSum = 0
            for (i, v) in views.enumerated() {
                let next = views[(i + 1) % k]
                let isLast = i == k - 1
                let exponent = isLast ? -exponentSum : rng.int(in: -2...2)
                exponentSum += exponent
                let offset = isLast ? -offsetSum : rng.int(in: -40...40)
                offsetSum += offset
                b.add(v, .width, .equal, next, .width, times: powerOfTwo(exponent))
                b.add(v, .leading, .equal, next, .leading, plus: NumericLiteral.integer(offset))
                b.add(v, .top, .equal, next, .top)
            }
        }
    }

    /// The views of one group of the cycle families: 3-8 of them (fewer when fewer are
    /// left to reach `size`) named `g<group>_<i>`, the first one anchored with a width drawn
    /// from `firstWidth` at the root's leading margin, so that each cycle has a fixed point.
    static func cycleGroup(
        _ group: Int, size: Int, firstWidth: ClosedRange<Int>, _ b: inout SystemBuilder, _ rng: inout SeededGenerator
    ) -> [ItemIndex] {
        let count = min(size - b.viewCount, rng.int(in: 3...8))
        let views = (0..<count).map { b.addView("g\(group)_\($0)") }
        b.add(views[0], .width, .equal, NumericLiteral.integer(rng.int(in: firstWidth)))
        b.add(views[0], .leading, .equal, b.root, .leadingMargin)
        return views
    }

    /// 2^e exactly as a decimal literal (0.25, 0.5, 1, 2, 4, ...).
    static func powerOfTwo(_ exponent: Int) -> NumericLiteral {
        if exponent >= 0 { return NumericLiteral.integer(1 << min(exponent, 62)) }
        // 2^-e = 5^e / 10^e.
        var five = 1
        for _ in 0..<min(-exponent, 26) { five *= 5 }
        return .scaled(five, exponent: exponent)
    }

    /// Groups of 3-8 views whose widths and leading edges form cycles of required
    /// inequalities `a <= b + c` (sometimes written `b >= a - c`) with offsets summing to
    /// 0: adding a cycle up gives 0 <= 0, so each inequality holds with equality.
    static func inequalityCycles(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        return SystemBuilder.filled(to: size, &rng) { b, group, rng in
            let views = cycleGroup(group, size: size, firstWidth: 40...120, &b, &rng)
            let k = views.count
            for v in views {
                b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(40 * group))
                b.add(v, .height, .equal, NumericLiteral.integer(30))
            }
            for (attribute, range) in [(Attribute.width, -10...10), (.leading, -60...60)] {
                var sum = 0
                for (i, v) in views.enumerated() {
                    let next = views[(i + 1) % k]
                    let offset = i == k - 1 ? -sum : rng.int(in: range)
                    sum += offset
                    if rng.chance(0.5) {
                        b.add(v, attribute, .lessThanOrEqual, next, attribute, plus: NumericLiteral.integer(offset))
                    } else {
                        b.add(next, attribute, .greaterThanOrEqual, v, attribute, plus: NumericLiteral.integer(-offset))
                    }
                }
            }
        }
    }

    /// Multiplier pairs (m, r) with m·r = 1 - ε or 1 + ε, |ε| < 1e-9, as people type
    /// reciprocals to ten digits.
    static let nearReciprocals: [(String, String)] = [
        ("1.536", "0.6510416666"), ("3", "0.3333333333"),
        ("1.7777777778", "0.5625"), ("0.7", "1.4285714286"),
    ]
    /// Pairs whose product is exactly 1, for contrast: these are truly redundant.
    static let exactReciprocals: [(String, String)] = [("1.6", "0.625"), ("2", "0.5"), ("1.25", "0.8")]

    /// Each view has a required reciprocal pair, within itself (width/height) or with the
    /// previous view, near (forcing 0) or exact (redundant), and an optional preferred size.
    static func reciprocalMultipliers(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        var previous: ItemIndex?
        for i in 0..<size {
            let v = b.addView("v\(i)")
            b.add(v, .leading, .equal, b.root, .leading, plus: NumericLiteral.integer(8 * (i % 40)))
            b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(8 * (i / 40)))
            let (m, r) = i == 0 || rng.chance(0.7) ? nearReciprocals[i == 0 ? 0 : rng.index(below: nearReciprocals.count)]
                : rng.element(of: exactReciprocals)
            if let previous, rng.chance(0.4) {
                b.add(v, .width, .equal, previous, .width, times: .decimal(m))
                b.add(previous, .width, .equal, v, .width, times: .decimal(r))
                b.add(v, .height, .equal, NumericLiteral.integer(rng.int(in: 20...60)))
            } else {
                b.add(v, .width, .equal, v, .height, times: .decimal(m))
                b.add(v, .height, .equal, v, .width, times: .decimal(r))
            }
            b.add(v, .width, .equal, NumericLiteral.integer(rng.element(of: [320, 768, 1024])), priority: .high)
            previous = v
        }
        return b.system
    }

    /// Chains of up to 100 views: `height == 2 * width`, the next view's width equals
    /// this one's height (sometimes plus 0.1), the first width fixed at 1-10.
    static func aspectChain(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        return SystemBuilder.filled(to: size, &rng) { b, chain, rng in
            let length = min(size - b.viewCount, 100)
            var previous: ItemIndex?
            for k in 0..<length {
                let v = b.addView("a\(chain)_\(k)")
                b.add(v, .height, .equal, v, .width, times: NumericLiteral.integer(2))
                b.add(v, .leading, .equal, b.root, .leading, plus: NumericLiteral.integer(8 * chain))
                if let previous {
                    b.add(v, .width, .equal, previous, .height, plus: rng.chance(0.3) ? .decimal("0.1") : .zero)
                    b.add(v, .top, .equal, previous, .bottom)
                } else {
                    b.add(v, .width, .equal, NumericLiteral.integer(rng.int(in: 1...10)))
                    b.add(v, .top, .equal, b.root, .top)
                }
                previous = v
            }
            if let last = previous {
                b.add(last, .width, .lessThanOrEqual, b.root, .width, priority: .low)
            }
        }
    }

    /// A chain whose widths, gaps and heights are drawn from huge, tiny and ordinary
    /// values, with sizes sometimes derived by a multiplier of 1e9 or 1e-9.
    static func extremeConstants(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        let sizes = ["1e9", "1e-9", "1000000000.000000001", "0.000000001", "123.456", "1e9", "2e-9"].map(NumericLiteral.decimal)
        let gaps = ["1e-9", "1e9", "8", "-1e-9"].map(NumericLiteral.decimal)
        let tops = ["0", "1e9", "1e-9"].map(NumericLiteral.decimal)
        var previous: ItemIndex?
        for i in 0..<size {
            let v = b.addView("v\(i)")
            if let previous {
                b.add(v, .leading, .equal, previous, .trailing, plus: rng.element(of: gaps))
                switch rng.bounded(4) {
                case 0: b.add(v, .width, .equal, previous, .width, times: .decimal("1e-9"))
                case 1: b.add(v, .width, .equal, previous, .width, plus: .decimal("1e-9"))
                default: b.add(v, .width, .equal, rng.element(of: sizes))
                }
            } else {
                b.add(v, .leading, .equal, b.root, .leading, plus: .decimal("1e-9"))
                b.add(v, .width, .equal, .decimal("1e9"))
            }
            b.add(v, .top, .equal, b.root, .top, plus: rng.element(of: tops))
            b.add(v, .height, .equal, rng.element(of: sizes))
            b.add(v, .width, .lessThanOrEqual, b.root, .width, priority: .low)
            previous = v
        }
        return b.system
    }

    /// Per view, a required pair of bounds 1e-9 apart on its width, its height or its gap
    /// to the previous view: a gap of 1e-9 (feasible) or an overlap of 1e-9 (infeasible:
    /// `w >= W + 1e-9` with `w <= W`, or `h == H` with `h == H + 1e-9`). The first view's
    /// pair is feasible, the second's infeasible.
    static func nearConflicts(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        let epsilon = NumericLiteral.decimal("1e-9")
        var previous: ItemIndex?
        for i in 0..<size {
            let v = b.addView("v\(i)")
            let base = rng.layoutConstant(in: 1...300)
            let nudged = plus(base, epsilon)
            let kind = i == 0 ? 0 : (i == 1 ? 1 : rng.int(in: 0...3))
            // The gap is an equality except where the gap itself is the near-conflicting pair.
            if let previous {
                b.add(v, .leading, kind == 3 ? .greaterThanOrEqual : .equal, previous, .trailing, plus: spacing)
            } else {
                b.add(v, .leading, .equal, b.root, .leadingMargin)
            }
            switch kind {
            case 0:
                b.add(v, .width, .greaterThanOrEqual, base)
                b.add(v, .width, .lessThanOrEqual, nudged)
                b.add(v, .height, .equal, NumericLiteral.integer(20))
            case 1:
                b.add(v, .width, .greaterThanOrEqual, nudged)
                b.add(v, .width, .lessThanOrEqual, base)
                b.add(v, .height, .equal, NumericLiteral.integer(20))
            case 2:
                b.add(v, .width, .equal, NumericLiteral.integer(40))
                b.add(v, .height, .equal, base)
                b.add(v, .height, .equal, nudged)
            default:
                b.add(v, .width, .equal, NumericLiteral.integer(40))
                b.add(v, .height, .equal, NumericLiteral.integer(20))
                if let previous {
                    b.add(v, .leading, .lessThanOrEqual, previous, .trailing, plus: plus(spacing, epsilon))
                } else {
                    b.add(v, .width, .lessThanOrEqual, plus(NumericLiteral.integer(40), epsilon))
                }
            }
            b.add(v, .top, .equal, b.root, .topMargin)
            previous = v
        }
        return b.system
    }

    /// `a + b` for literals with at most 9 fraction digits, exactly (a + 1e-9 etc.).
    static func plus(_ a: NumericLiteral, _ b: NumericLiteral) -> NumericLiteral {
        func nanos(_ n: NumericLiteral) -> Int {
            var value = 0
            for digit in n.significand.utf8 { value = value * 10 + Int(digit - 48) }
            var e = n.exponent + 9
            while e > 0 { value *= 10; e -= 1 }
            while e < 0 { value /= 10; e += 1 }
            return n.isNegative ? -value : value
        }
        return .scaled(nanos(a) + nanos(b), exponent: -9)
    }

    /// Per view, 3-8 optional equalities on its width with different targets, all at one
    /// priority shared by the whole system, and a pair of contradictory optional bounds on
    /// its height at that same priority; positions are required.
    static func priorityTies(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size, constraintsPerView: 11)
        let level = rng.optionalPriority()
        for i in 0..<size {
            let v = b.addView("v\(i)")
            b.add(v, .leading, .equal, b.root, .leadingMargin)
            b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(30 * i))
            for _ in 0..<rng.int(in: 3...8) {
                b.add(v, .width, .equal, NumericLiteral.integer(rng.int(in: 10...300)), priority: level)
            }
            let low = rng.int(in: 10...30)
            b.add(v, .height, .greaterThanOrEqual, NumericLiteral.integer(low + rng.int(in: 1...20)), priority: level)
            b.add(v, .height, .lessThanOrEqual, NumericLiteral.integer(low), priority: level)
        }
        return b.system
    }

    /// Per view, a required width against a different one at 999 (or 999.9999999), and a
    /// required lower bound on the height against an upper bound at 999 below it.
    static func almostRequired(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        for i in 0..<size {
            let v = b.addView("v\(i)")
            b.add(v, .leading, .equal, b.root, .leadingMargin, plus: NumericLiteral.integer(i % 8))
            b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(30 * i))
            let almost = rng.chance(0.25) ? Priority(.decimal("999.9999999")) : Priority.integer(999)
            let width = rng.int(in: 20...300)
            if rng.chance(0.5) {
                b.add(v, .width, .equal, NumericLiteral.integer(width))
                b.add(v, .width, .equal, NumericLiteral.integer(width + rng.int(in: 1...50)), priority: almost)
            } else {
                b.add(v, .width, .equal, NumericLiteral.integer(width + rng.int(in: 1...50)), priority: almost)
                b.add(v, .width, .equal, NumericLiteral.integer(width))
            }
            let height = rng.int(in: 20...60)
            b.add(v, .height, .greaterThanOrEqual, NumericLiteral.integer(height))
            b.add(v, .height, .lessThanOrEqual, NumericLiteral.integer(height - rng.int(in: 1...10)), priority: Priority.integer(999))
        }
        return b.system
    }

    /// The weak and strong levels: the strong one is one point above the weak one.
    static let crowdLevels: [(weak: Int, strong: Int)] = [(250, 251), (50, 51), (749, 750), (1, 2)]

    /// Per view, one width target at a level just above a crowd of 2-8 (sometimes 64) width targets near
    /// another value. Weighted by priority the crowd outweighs the single constraint;
    /// lexicographically the single constraint wins outright.
    static func weakCrowd(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size, constraintsPerView: 12)
        for i in 0..<size {
            let v = b.addView("v\(i)")
            b.add(v, .leading, .equal, b.root, .leadingMargin)
            b.pinRow(v, row: i)
            let levels = rng.element(of: crowdLevels)
            let target = rng.int(in: 150...300)
            b.add(v, .width, .equal, NumericLiteral.integer(target), priority: Priority.integer(levels.strong))
            let crowdTarget = rng.int(in: 20...100)
            // Usually a handful; now and then a real crowd.
            let crowd = rng.chance(0.02) ? 64 : rng.int(in: 2...8)
            for _ in 0..<crowd {
                b.add(v, .width, .equal, NumericLiteral.integer(crowdTarget + rng.int(in: 0...4)), priority: Priority.integer(levels.weak))
            }
        }
        return b.system
    }

    /// Rows of views where something is missing: a width (only the leading edge is
    /// placed), a height, a top, or the split of a shared width between two views. All
    /// constraints are required equalities and consistent; the first view always misses
    /// its width.
    static func ambiguous(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        return SystemBuilder.filled(to: size, &rng) { b, i, rng in
            let v = b.addView("v\(i)")
            let missing = i == 0 ? 0 : rng.int(in: 0...4)
            b.add(v, .leading, .equal, b.root, .leadingMargin)
            if missing != 2 { b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(30 * i)) }
            if missing != 1 { b.add(v, .height, .equal, NumericLiteral.integer(20)) }
            switch missing {
            case 0, 1, 2:
                if missing != 0 { b.add(v, .width, .equal, NumericLiteral.integer(rng.int(in: 20...200))) }
            case 3:
                // Fills the width between the margins with a partner; their split is free.
                if b.viewCount < size {
                    let partner = b.addView("v\(i)_partner")
                    b.add(partner, .leading, .equal, v, .trailing, plus: spacing)
                    b.add(b.root, .trailingMargin, .equal, partner, .trailing)
                    b.add(partner, .top, .equal, v, .top)
                    b.add(partner, .height, .equal, v, .height)
                } else {
                    b.add(b.root, .trailingMargin, .equal, v, .trailing)
                }
            default:
                // Centred but with no width.
                b.add(v, .centerX, .equal, b.root, .centerX)
            }
        }
    }

    /// `v0.width == W`, `v0.width == 2 * v1.width`, `v1.width == W/2 + d` (broken), then a
    /// determined row layout of every view.
    static func conflictEarly(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        let width = 2 * rng.int(in: 20...100)
        let first = b.addView("v0")
        if size == 1 {
            b.add(first, .width, .equal, NumericLiteral.integer(width))
            b.add(first, .width, .equal, NumericLiteral.integer(width + rng.int(in: 1...8)))
        } else {
            let second = b.addView("v1")
            b.add(first, .width, .equal, NumericLiteral.integer(width))
            b.add(first, .width, .equal, second, .width, times: NumericLiteral.integer(2))
            b.add(second, .width, .equal, rng.chance(0.5) ? NumericLiteral.integer(width / 2 + 1) : plus(NumericLiteral.integer(width / 2), .decimal("0.5")))
        }
        rowLayout(views: Array(1...size), skipWidths: [1, 2], &b, &rng)
        return b.system
    }

    /// Places views in rows of four with required spacing, widths, tops and heights
    /// (widths of the views in `skipWidths` are left to other constraints).
    static func rowLayout(views: [ItemIndex], skipWidths: Set<ItemIndex>, _ b: inout SystemBuilder, _ rng: inout SeededGenerator) {
        while b.viewCount < views.count { b.addView("v\(b.viewCount)") }
        for (k, v) in views.enumerated() {
            if k % 4 == 0 {
                b.add(v, .leading, .equal, b.root, .leadingMargin)
            } else {
                b.add(v, .leading, .equal, views[k - 1], .trailing, plus: spacing)
            }
            if !skipWidths.contains(v) { b.add(v, .width, .equal, NumericLiteral.integer(rng.int(in: 20...80))) }
            b.pinRow(v, row: k / 4)
        }
    }

    /// One chain from the leading margin with every width and gap required, closed at the
    /// end by `superview.trailingMargin == last.trailing`, which the chain's length misses.
    static func conflictLate(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        let root = RootSize.random(&rng)
        var b = SystemBuilder(root: root, expectedViews: size)
        var previous: ItemIndex?
        var end = 8
        for i in 0..<size {
            let v = b.addView("v\(i)")
            var width = rng.int(in: 20...80)
            if i == size - 1 && end + width == root.width - 8 { width += 1 }
            if let previous {
                b.add(v, .leading, .equal, previous, .trailing, plus: spacing)
                end += 8
            } else {
                b.add(v, .leading, .equal, b.root, .leadingMargin)
            }
            b.add(v, .width, .equal, NumericLiteral.integer(width))
            end += width
            b.add(v, .top, .equal, b.root, .topMargin)
            b.add(v, .height, .equal, NumericLiteral.integer(20))
            previous = v
        }
        if let last = previous {
            b.add(b.root, .trailingMargin, .equal, last, .trailing)
        }
        return b.system
    }

    /// One chain: each view's leading edge a decimal gap after the previous one's trailing
    /// edge, widths and heights decimal, tops aligned; the chain would like to end within
    /// the root (priority 750), which long chains cannot.
    static func longChain(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        let widths = ["0.7", "1.3", "2.1", "0.3"].map(NumericLiteral.decimal)
        let gaps = ["0.1", "0.2", "0.1", "1"].map(NumericLiteral.decimal)
        let height = NumericLiteral.decimal("1.1")
        var previous: ItemIndex?
        var first: ItemIndex?
        for i in 0..<size {
            let v = b.addView("n\(i)")
            if let previous, let first {
                b.add(v, .leading, .equal, previous, .trailing, plus: rng.element(of: gaps))
                b.add(v, .top, .equal, first, .top)
            } else {
                b.add(v, .leading, .equal, b.root, .leading)
                b.add(v, .top, .equal, b.root, .topMargin)
                first = v
            }
            b.add(v, .width, .equal, rng.element(of: widths))
            b.add(v, .height, .equal, height)
            previous = v
        }
        if let last = previous {
            b.add(b.root, .trailing, .greaterThanOrEqual, last, .trailing, priority: .high)
        }
        return b.system
    }

    /// Copies of Beale's and Kuhn's examples (``TextbookLinearProgram``). The first copy
    /// keeps the textbook row order, which is what the known cycles need; later copies
    /// shuffle their rows. The objective priority is drawn once.
    static func simplexCycling(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size)
        let examples = TextbookLinearProgram.cyclingExamples
        let perCopy = examples.reduce(0) { $0 + $1.encodedViewCount }
        let copies = max(1, (size + perCopy / 2) / perCopy)
        let objectivePriority = rng.optionalPriority()
        for copy in 0..<copies {
            for lp in examples {
                var order = Array(lp.rows.indices)
                if copy > 0 { rng.shuffle(&order) }
                let prefix = copy == 0 ? "\(lp.name)_" : "\(lp.name)\(copy)_"
                lp.encode(into: &b, prefix: prefix, rowOrder: order, objectivePriority: objectivePriority)
            }
        }
        return b.system
    }

    /// Rows of two or three labels between the margins, 8 apart, with equal hugging and
    /// equal compression resistance (both defaults, or both 251/751) and intrinsic widths
    /// that leave space over or fall short.
    static func equalHugging(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        let root = RootSize.random(&rng)
        var above: ItemIndex?
        return SystemBuilder.filled(to: size, root: root, &rng) { b, row, rng in
            let count = min(size - b.viewCount, rng.int(in: 2...3))
            let hugging = rng.chance(0.5) ? Priority.low : Priority.integer(251)
            let resistance = rng.chance(0.5) ? Priority.high : Priority.integer(751)
            // Intrinsic widths are share ± 5: all below the even split (slack) or all above.
            let split = (root.width - 16 - 8 * (count - 1)) / count
            let share = rng.chance(0.5) ? rng.int(in: 10...max(10, split - 6)) : rng.int(in: split + 6...2 * split + 6)
            var labels: [ItemIndex] = []
            for k in 0..<count {
                let label = b.addView(
                    "label\(row)_\(k)", intrinsicWidth: NumericLiteral.integer(share + rng.int(in: -5...5)), intrinsicHeight: NumericLiteral.integer(21),
                    hugging: AxisPair(horizontal: hugging, vertical: .low),
                    resistance: AxisPair(horizontal: resistance, vertical: .high))
                if let previous = labels.last {
                    b.add(label, .leading, .equal, previous, .trailing, plus: spacing)
                    b.add(label, .centerY, .equal, previous, .centerY)
                } else {
                    b.add(label, .leading, .equal, b.root, .leadingMargin)
                    if let above {
                        b.add(label, .top, .equal, above, .bottom, plus: spacing)
                    } else {
                        b.add(label, .top, .equal, b.root, .topMargin)
                    }
                }
                labels.append(label)
            }
            b.add(b.root, .trailingMargin, .equal, labels[labels.count - 1], .trailing)
            above = labels[0]
        }
    }
}
