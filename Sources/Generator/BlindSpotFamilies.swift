import LayoutModel

/// Families for inputs the earlier families never made, each aimed at a kind of bug that
/// faults planted by hand survived (`docs/generator.md`, "Blind spots"). Appended after the
/// pathological families, so that existing families keep their place in `Families.all`.
enum BlindSpotFamilies {
    static let all: [Family] = [
        Family(name: "decimal-equalities", kind: .pathological,
               rationale: "required equalities only, with multipliers that are not powers of two (0.1, 0.3, 0.7, 1.1, 0.3333333333) and a pair coupled both ways per block (determinant 0.79 or 1e-4): every product rounds in binary, and elimination must pivot on a rounded value",
               generate: decimalEqualities),
        Family(name: "bound-held-positions", kind: .pathological,
               rationale: "positions with no equality on them, held by a required upper bound that an optional constraint presses against, or meets exactly, at the optimum: determined, though only an inequality holds them",
               generate: boundHeldPositions),
        Family(name: "near-equal-priorities", kind: .pathological,
               rationale: "two or three optional constraints on one attribute whose priorities differ by less than 1 (999.9999 and 999, 250.5 and 250): lexicographically the higher wins outright; a solver that truncates or rounds priorities merges the levels",
               generate: nearEqualPriorities),
        Family(name: "multi-route-conflicts", kind: .pathological,
               rationale: "required constraints contradicting one anchor along three or more disjoint routes: every route is a conflict, so a conflict one member too big is still infeasible and only its irreducibility gives it away",
               generate: multiRouteConflicts),
        Family(name: "degenerate-cones", kind: .pathological,
               rationale: "widths with x, y >= 0, x <= 2y, y <= 2x and nothing else (pairs and triples): a cone whose apex is a degenerate vertex, ambiguous along its ray though every direction out of the apex is blocked by some row",
               generate: degenerateCones),
        Family(name: "degenerate-pivots", kind: .pathological,
               rationale: "random linear programs with many homogeneous rows through one vertex, and Beale's and Kuhn's cycling examples: long runs of degenerate pivots that reach the anti-cycling rules",
               sizeNote: "views; each program takes 10-45 views (a cycling example 16-20)",
               generate: degeneratePivots),
    ]

    /// Multipliers without a finite binary expansion, and ones that round badly.
    static let decimalMultipliers = ["0.1", "0.3", "0.7", "1.1", "0.3333333333", "2.3", "0.6"]
    static let decimalOffsets = ["0.1", "0.3", "0.7", "1.3", "2.9", "10.1"]

    /// Blocks of 2-5 views: the first view's width a decimal constant; the others'
    /// widths decimal multiples of an earlier one plus decimal offsets; in every block of
    /// three or more, a pair coupled both ways (`a = 0.3 b + c`, `b = 0.7 a + d`), which
    /// elimination cannot solve in order. Leading edges follow each other with decimal
    /// gaps, tops and heights are pinned. Only required equalities, all determined.
    static func decimalEqualities(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        return SystemBuilder.filled(to: size, constraintsPerView: 5, &rng) { b, block, rng in
            let count = min(size - b.viewCount, rng.int(in: 2...5))
            var views: [ItemIndex] = []
            for k in 0..<count {
                let v = b.addView("d\(block)_\(k)")
                let offset = NumericLiteral.decimal(rng.element(of: decimalOffsets))
                b.follow(v, .leading, after: views.last, .trailing, plus: offset, orRoot: .leading, rootOffset: offset)
                b.add(v, .top, .equal, b.root, .top, plus: NumericLiteral.integer(30 * block))
                switch k {
                case 0:
                    b.add(v, .width, .equal, .scaled(rng.int(in: 100...900), exponent: -1))
                case 1 where count >= 3:
                    break  // its width is coupled with the next view's below
                case 2:
                    // A pair coupled both ways: determinant 1 − 0.3 × 0.7 = 0.79, or
                    // 1 − 1.01 × 0.99 = 1e-4 (well-posed, yet nearly dependent to a loose pivot tolerance).
                    let a = views[1]
                    let (m, n) = rng.chance(0.5) ? ("0.3", "0.7") : ("1.01", "0.99")
                    b.add(v, .width, .equal, a, .width, times: .decimal(m), plus: .decimal(rng.element(of: decimalOffsets)))
                    b.add(a, .width, .equal, v, .width, times: .decimal(n), plus: .decimal(rng.element(of: decimalOffsets)))
                default:
                    let source = views[rng.index(below: views.count)]
                    b.add(v, .width, .equal, source, .width, times: .decimal(rng.element(of: decimalMultipliers)),
                          plus: .decimal(rng.element(of: decimalOffsets)))
                }
                b.add(v, .height, .equal, v, .width, times: .decimal(rng.element(of: decimalMultipliers)))
                views.append(v)
            }
        }
    }

    /// Views whose leading edge (or width) is held by a required upper bound. An optional
    /// constraint presses past the bound (so the bound is active and the position
    /// determined), meets it exactly (active and satisfied at once: degenerate), or pulls
    /// back from it (the bound inactive, for contrast). Widths, tops and heights are pinned
    /// otherwise.
    static func boundHeldPositions(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        let root = RootSize.random(&rng)
        var b = SystemBuilder(root: root, expectedViews: size, constraintsPerView: 6)
        for i in 0..<size {
            let v = b.addView("held\(i)")
            b.pinRow(v, row: i)
            let bound = rng.int(in: 20...max(21, root.width / 2))
            let priority = rng.optionalPriority()
            let onWidth = rng.chance(0.3)
            let limit = bound
            if onWidth {
                b.add(v, .leading, .equal, b.root, .leadingMargin)
                b.add(v, .width, .lessThanOrEqual, NumericLiteral.integer(limit))
            } else {
                b.add(v, .width, .equal, NumericLiteral.integer(rng.int(in: 10...60)))
                b.add(v, .leading, .lessThanOrEqual, b.root, .leading, plus: NumericLiteral.integer(limit))
            }
            // Where the optional constraint wants the edge: past the bound, at it, or short of it.
            let offset: Int
            switch rng.bounded(4) {
            case 0, 1: offset = rng.int(in: 1...40)
            case 2: offset = 0
            default: offset = -rng.int(in: 1...20)
            }
            let relation: Relation = offset > 0 && rng.chance(0.5) ? .greaterThanOrEqual : .equal
            let target = NumericLiteral.integer(limit + offset)
            if onWidth {
                b.add(v, .width, relation, target, priority: priority)
            } else {
                b.add(v, .leading, relation, b.root, .leading, plus: target, priority: priority)
            }
        }
        return b.system
    }

    /// Priorities less than 1 apart: the higher, one between, the lower.
    static let nearPriorities: [(String, String, String)] = [
        ("999.9999", "999.5", "999"), ("250.5", "250.25", "250"), ("751", "750.9", "750.75"),
        ("500.01", "500.005", "500"), ("1.5", "1.25", "1"), ("999", "998.75", "998.5"),
    ]

    /// Per view, two (sometimes three) optional width targets at priorities less than 1
    /// apart, in either file order; the third, when present, sits between them. Positions,
    /// tops and heights are pinned.
    static func nearEqualPriorities(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size, constraintsPerView: 6)
        for i in 0..<size {
            let v = b.addView("p\(i)")
            b.add(v, .leading, .equal, b.root, .leadingMargin)
            b.pinRow(v, row: i)
            let (high, middle, low) = rng.element(of: nearPriorities)
            let strong = rng.int(in: 40...200), weak = strong + rng.int(in: 1...80) * (rng.chance(0.5) ? 1 : -1)
            var wishes: [(Int, Priority)] = [(strong, Priority(.decimal(high))), (max(1, weak), Priority(.decimal(low)))]
            if rng.chance(0.3) { wishes.append((rng.int(in: 10...300), Priority(.decimal(middle)))) }
            rng.shuffle(&wishes)
            for (width, priority) in wishes {
                b.add(v, .width, .equal, NumericLiteral.integer(width), priority: priority)
            }
        }
        return b.system
    }

    /// Groups: an anchor `a.width == W`, then three to five routes from `a` to a
    /// contradiction. A route is a chain of 1-3 views whose widths equal the previous one's
    /// (or a multiple, undone later), all written first, then one closing constraint per
    /// route, `last.width == W + d` (d ≠ 0), so that every closing constraint is broken and
    /// the first one's conflict is the anchor, its route, and nothing else.
    static func multiRouteConflicts(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var row = 0
        return SystemBuilder.filled(to: size, constraintsPerView: 5, &rng) { b, group, rng in
            let anchor = b.addView("a\(group)")
            b.add(anchor, .leading, .equal, b.root, .leadingMargin)
            b.pinRow(anchor, row: row)
            row += 1
            let w = rng.int(in: 40...200)
            b.add(anchor, .width, .equal, NumericLiteral.integer(w))
            var ends: [(ItemIndex, Int)] = []  // the route's last view and its factor
            for r in 0..<rng.int(in: 3...5) {
                var previous = anchor
                var factor = 1
                for k in 0..<rng.int(in: 1...3) {
                    let v = b.addView("a\(group)_r\(r)_\(k)")
                    b.add(v, .leading, .equal, b.root, .leadingMargin)
                    b.pinRow(v, row: row)
                    row += 1
                    let m = rng.chance(0.3) ? 2 : 1
                    b.add(v, .width, .equal, previous, .width, times: NumericLiteral.integer(m))
                    factor *= m
                    previous = v
                }
                ends.append((previous, factor))
            }
            for (end, factor) in ends {
                let d = rng.int(in: 1...30) * (rng.chance(0.5) ? 1 : -1)
                b.add(end, .width, .equal, NumericLiteral.integer(factor * w + d))
            }
        }
    }

    /// Cone ratios: `x <= k·y`, `y <= k·x` with k > 1.
    static let coneRatios = ["2", "3", "1.5", "1.25"]

    /// Pairs (sometimes triples) of widths in a cone: each ≥ 0 and at most k times the
    /// next, cyclically, with nothing else on them (half of the groups), or with one weak
    /// constraint that pins the cone at its apex (`x <= 0 @p`), or pulls one width out along
    /// the ray (`x >= 100 @p`), which leaves the others ambiguous within the cone.
    static func degenerateCones(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size, constraintsPerView: 5)
        var group = 0
        while b.viewCount < size {
            let count = min(size - b.viewCount, rng.chance(0.7) ? 2 : 3)
            let k = NumericLiteral.decimal(rng.element(of: coneRatios))
            var views: [ItemIndex] = []
            for j in 0..<count {
                let v = b.addView("c\(group)_\(j)")
                b.add(v, .leading, .equal, b.root, .leadingMargin)
                b.pinRow(v, row: b.viewCount)
                b.add(v, .width, .greaterThanOrEqual, .zero)
                views.append(v)
            }
            if count >= 2 {
                for j in 0..<count {
                    b.add(views[j], .width, .lessThanOrEqual, views[(j + 1) % count], .width, times: k)
                }
            }
            switch rng.bounded(4) {
            case 0: b.add(views[0], .width, .lessThanOrEqual, .zero, priority: rng.optionalPriority())
            case 1: b.add(views[0], .width, .greaterThanOrEqual, NumericLiteral.integer(100), priority: rng.optionalPriority())
            default: break
            }
            group += 1
        }
        return b.system
    }

    /// Random linear programs, encoded as the cycling examples are: 3-5 nonnegative
    /// variables, 3-6 homogeneous rows `Σ a_j x_j <= 0` (every one tight at the origin) with
    /// coefficients in -3…3 (halves included), one bound `Σ x_j <= 1`, and an objective that
    /// improves into the cone, so the simplex starts at a vertex where many more rows are
    /// tight than there are variables.
    static func degeneratePivots(_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), expectedViews: size, constraintsPerView: 6)
        var copy = 0
        let coefficients = ["-3", "-2", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "2", "3"]
        repeat {
            if rng.chance(0.5) {
                // A cycling example in textbook form: Beale's leads the exact backend's
                // Dantzig pricing into a degenerate run long enough to bring in Bland's rule.
                let example = rng.element(of: TextbookLinearProgram.cyclingExamples)
                example.encode(into: &b, prefix: "lp\(copy)_", rowOrder: Array(example.rows.indices),
                               objectivePriority: rng.optionalPriority())
                copy += 1
                continue
            }
            // Near the requested size, a small program, so that the last one does not overshoot.
            let small = size - b.viewCount < 30
            let n = small ? 3 : rng.int(in: 3...5)
            let variables = (0..<n).map { "x\($0 + 1)" }
            var rows: [([String], Relation, String)] = []
            for _ in 0..<(small ? 2 : rng.int(in: 3...6)) {
                var row = (0..<n).map { _ in rng.element(of: coefficients) }
                if row.allSatisfy({ $0 == "0" }) { row[rng.index(below: n)] = "1" }
                rows.append((row, .lessThanOrEqual, "0"))
            }
            rows.append((Array(repeating: "1", count: n), .lessThanOrEqual, "1"))
            let objective = (0..<n).map { _ in rng.element(of: coefficients) }
            let lp = TextbookLinearProgram(
                name: "lp\(copy)", source: "random degenerate program", variables: variables,
                objective: objective.allSatisfy({ $0 == "0" }) ? ["-1"] + Array(objective.dropFirst()) : objective, rows: rows)
            lp.encode(into: &b, prefix: "lp\(copy)_", rowOrder: Array(lp.rows.indices), objectivePriority: rng.optionalPriority())
            copy += 1
        } while b.viewCount < size
        return b.system
    }
}
