import LayoutModel

/// Layouts as apps write them. Each is built with leading/trailing so that its `-rtl`
/// variant (the same draws, `direction rtl`) mirrors it, and each picks a device root
/// size, portrait or landscape.
enum RealisticFamilies {
    typealias Build = @Sendable (_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem

    /// Every realistic family followed by its right-to-left variant.
    static let all: [Family] = bases.flatMap { base in
        [
            Family(name: base.name, kind: .realistic, rationale: base.rationale, sizeNote: base.sizeNote) { size, rng in
                base.build(size, &rng, .leftToRight)
            },
            Family(name: base.name + "-rtl", kind: .realistic,
                   rationale: "right-to-left: " + base.rationale, sizeNote: base.sizeNote) { size, rng in
                base.build(size, &rng, .rightToLeft)
            },
        ]
    }

    struct Base: Sendable {
        var name: String
        var rationale: String
        var sizeNote: String?
        var build: Build
    }

    static let bases: [Base] = [
        Base(name: "equal-widths",
             rationale: "rows of 2-4 side-by-side views with equal widths between the margins, the most common toolbar and button-row pattern",
             build: equalWidths),
        Base(name: "centered",
             rationale: "cards centred in the root at a fraction of its width, each with a label centred inside and the card's height following the label",
             build: centered),
        Base(name: "form",
             rationale: "label + field rows written in VFL (H:|-[label(==label0)]-[field(>=120)]-| align centerY), labels hugging at 251 as Interface Builder sets them",
             build: form),
        Base(name: "table-cells",
             rationale: "self-sizing table cells: labels with intrinsic sizes stacked vertically, each cell's height following its content",
             build: tableCells),
        Base(name: "nested",
             rationale: "nested container hierarchies up to 24 deep, each inset from its parent, towers laid out two across",
             sizeNote: "views; towers are at most 24 deep",
             build: nested),
        Base(name: "grid",
             rationale: "a grid of square cells with equal widths and standard spacing, columns filling the width",
             build: grid),
        Base(name: "long-row",
             rationale: "one long chain of chips with intrinsic widths, spacing 8, that would like to fit the width; one chip resists compression less and gives way",
             build: longRow),
        Base(name: "aspect-images",
             rationale: "a feed of full-width images with aspect ratios (16:9, 4:3, 1:1, 2:3, 3:2) and captions below",
             build: aspectImages),
        Base(name: "hugging-contest",
             rationale: "two baseline-aligned labels per row whose hugging and compression priorities differ by one (251/250, 751/750), so one clearly wins",
             build: huggingContest),
        Base(name: "equal-spacing",
             rationale: "buttons spread evenly with spacer views of equal width between them and at both ends (Apple's spacer-view technique)",
             build: equalSpacing),
    ]

    static let margin = NumericLiteral.integer(8)

    /// Rows of tiles: first pinned to the leading margin, last to the trailing margin,
    /// spacing 8, equal widths and heights, rows 8 apart.
    static func equalWidths(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var previousRow: ItemIndex?
        return SystemBuilder.filled(to: size, direction: direction, &rng) { b, row, rng in
            let count = min(size - b.viewCount, rng.int(in: 2...4))
            let height = NumericLiteral.integer(rng.element(of: [32, 44, 44, 50, 64, 88]))
            var tiles: [ItemIndex] = []
            for column in 0..<count {
                tiles.append(b.addView("tile\(row)_\(column)"))
            }
            let first = tiles[0]
            b.add(first, .leading, .equal, b.root, .leadingMargin)
            b.follow(first, .top, after: previousRow, .bottom, plus: margin, orRoot: .topMargin)
            b.add(first, .height, .equal, height)
            for (prev, tile) in zip(tiles, tiles.dropFirst()) {
                b.add(tile, .leading, .equal, prev, .trailing, plus: margin)
                b.add(tile, .width, .equal, first, .width)
                b.add(tile, .top, .equal, first, .top)
                b.add(tile, .height, .equal, first, .height)
            }
            b.add(b.root, .trailingMargin, .equal, tiles[tiles.count - 1], .trailing)
            previousRow = first
        }
    }

    /// Cards centred horizontally at a fraction of the root's width, stacked 16 apart; a
    /// label with an intrinsic size centred in each, kept within the card's margins, the
    /// card 12 taller than the label.
    static func centered(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var previous: ItemIndex?
        return SystemBuilder.filled(to: size, direction: direction, &rng) { b, index, rng in
            let card = b.addView("card\(index)")
            let fraction = rng.element(of: ["0.5", "0.75", "0.8", "0.9", "1"])
            b.add(card, .centerX, .equal, b.root, .centerX)
            b.add(card, .width, .equal, b.root, .width, times: .decimal(fraction), plus: NumericLiteral.integer(fraction == "1" ? -32 : 0))
            b.follow(card, .top, after: previous, .bottom, plus: NumericLiteral.integer(16), orRoot: .topMargin)
            previous = card
            guard b.viewCount < size else {
                b.add(card, .height, .equal, NumericLiteral.integer(44))
                return
            }
            let label = b.addView(
                "title\(index)", in: card,
                intrinsicWidth: NumericLiteral.integer(rng.int(in: 40...400)),
                intrinsicHeight: NumericLiteral.integer(rng.element(of: [17, 21, 21, 24, 42])))
            b.add(label, .centerX, .equal, card, .centerX)
            b.add(label, .centerY, .equal, card, .centerY)
            b.add(label, .leading, .greaterThanOrEqual, card, .leadingMargin)
            b.add(card, .trailingMargin, .greaterThanOrEqual, label, .trailing)
            b.add(card, .height, .equal, label, .height, plus: NumericLiteral.integer(12))
        }
    }

    /// A form: one VFL line per row, `H:|-[labelK(==label0)]-[fieldK(>=120)]-| align centerY`,
    /// and one vertical line stacking the fields. Labels hug at 251 (Interface Builder's
    /// default for labels); fields have an intrinsic height only, like text fields.
    static func form(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), direction: direction, expectedViews: size)
        let rows = (size + 1) / 2
        // The view of each row that the vertical line stacks: the field, or the label of a
        // last row that has room for a label only.
        var stacked: [ItemIndex] = []
        var firstLabel: ItemIndex?
        for row in 0..<rows {
            let label = b.addView(
                "label\(row)",
                intrinsicWidth: NumericLiteral.integer(rng.int(in: 36...140)), intrinsicHeight: NumericLiteral.integer(21),
                hugging: AxisPair(horizontal: Priority.integer(251), vertical: Priority.integer(251)))
            let sameWidth = firstLabel.map { [VisualFormatLine.Predicate(.equal, .view($0))] } ?? []
            firstLabel = firstLabel ?? label
            var parts: [VisualFormatLine.Part] = [.edge, .space(.standard), .view(label, sameWidth)]
            guard b.viewCount < size else {
                b.append(VisualFormatLine(axis: .horizontal, parts: parts).constraints(in: b.system))
                stacked.append(label)
                break
            }
            let field = b.addView("field\(row)", intrinsicHeight: NumericLiteral.integer(34))
            let minimum = VisualFormatLine.Predicate(
                .greaterThanOrEqual, .constant(NumericLiteral.integer(rng.element(of: [80, 120, 160]))))
            parts += [.space(.standard), .view(field, [minimum]), .space(.standard), .edge]
            b.append(VisualFormatLine(axis: .horizontal, parts: parts, alignment: [.centerY]).constraints(in: b.system))
            stacked.append(field)
        }
        var parts: [VisualFormatLine.Part] = [.edge]
        for view in stacked {
            parts += [.space(.standard), .view(view, [])]
        }
        b.append(VisualFormatLine(axis: .vertical, parts: parts).constraints(in: b.system))
        return b.system
    }

    /// Table cells pinned to the root's edges and stacked; inside each, one to three labels
    /// (one to four lines tall) pinned to the cell's margins. No constraint names a cell's
    /// height: it follows the labels.
    static func tableCells(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var previous: ItemIndex?
        return SystemBuilder.filled(to: size, direction: direction, &rng) { b, index, rng in
            let cell = b.addView("cell\(index)")
            b.add(cell, .leading, .equal, b.root, .leading)
            b.add(b.root, .trailing, .equal, cell, .trailing)
            b.follow(cell, .top, after: previous, .bottom, orRoot: .top)
            let count = min(size - b.viewCount, rng.int(in: 1...3))
            var above: ItemIndex?
            for line in 0..<count {
                let lines = rng.int(in: 1...4)
                let label = b.addView(
                    "text\(index)_\(line)", in: cell,
                    intrinsicWidth: NumericLiteral.integer(rng.int(in: 60...600)),
                    intrinsicHeight: .scaled(lines * (line == 0 ? 205 : 170), exponent: -1))
                b.add(label, .leading, .equal, cell, .leadingMargin)
                b.add(cell, .trailingMargin, .greaterThanOrEqual, label, .trailing)
                if let above {
                    b.add(label, .top, .equal, above, .bottom, plus: NumericLiteral.integer(4))
                } else {
                    b.add(label, .top, .equal, cell, .topMargin)
                }
                above = label
            }
            if let last = above {
                b.add(cell, .bottomMargin, .equal, last, .bottom)
            } else {
                b.add(cell, .height, .equal, NumericLiteral.integer(44))
            }
            previous = cell
        }
    }

    /// Towers of nested views, each inset 2-4 points from its parent (or pinned to its
    /// margins), at most 24 deep; towers two across, 300 tall, stacked 8 apart.
    static func nested(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), direction: direction, expectedViews: size)
        let maxDepth = 24
        var towers: [ItemIndex] = []
        while b.viewCount < size {
            let t = towers.count
            let tower = b.addView("tower\(t)")
            if t % 2 == 0 {
                b.add(tower, .leading, .equal, b.root, .leadingMargin)
            } else {
                b.add(tower, .leading, .equal, towers[t - 1], .trailing, plus: margin)
                b.add(tower, .width, .equal, towers[t - 1], .width)
                b.add(tower, .top, .equal, towers[t - 1], .top)
                b.add(b.root, .trailingMargin, .equal, tower, .trailing)
            }
            if t >= 2 {
                b.add(tower, .top, .equal, towers[t - 2], .bottom, plus: margin)
            } else if t == 0 {
                b.add(tower, .top, .equal, b.root, .topMargin)
            }
            b.add(tower, .height, .equal, NumericLiteral.integer(300))
            towers.append(tower)
            let depth = min(size - b.viewCount, rng.int(in: maxDepth / 2...maxDepth) - 1)
            var parent = tower
            for level in 0..<depth {
                let child = b.addView("box\(t)_\(level)", in: parent)
                if rng.chance(0.25) {
                    b.add(child, .leading, .equal, parent, .leadingMargin)
                    b.add(parent, .trailingMargin, .equal, child, .trailing)
                    b.add(child, .top, .equal, parent, .topMargin)
                    b.add(parent, .bottomMargin, .equal, child, .bottom)
                } else {
                    let inset = NumericLiteral.integer(rng.int(in: 2...4))
                    b.add(child, .leading, .equal, parent, .leading, plus: inset)
                    b.add(parent, .trailing, .equal, child, .trailing, plus: inset)
                    b.add(child, .top, .equal, parent, .top, plus: inset)
                    b.add(parent, .bottom, .equal, child, .bottom, plus: inset)
                }
                parent = child
            }
        }
        // An odd tower count leaves the last tower's width open: match the first's.
        if towers.count % 2 == 1 && towers.count > 1 {
            b.add(towers[towers.count - 1], .width, .equal, towers[0], .width)
        } else if towers.count == 1 {
            b.add(towers[0], .width, .equal, b.root, .width, times: .decimal("0.5"), plus: NumericLiteral.integer(-12))
        }
        return b.system
    }

    /// A grid of square cells, 2-6 columns (3-10 in landscape), equal widths, spacing 8.
    static func grid(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        let root = RootSize.random(&rng)
        var b = SystemBuilder(root: root, direction: direction, expectedViews: size)
        let columns = min(size, root.width > root.height ? rng.int(in: 3...10) : rng.int(in: 2...6))
        var cells: [ItemIndex] = []
        for i in 0..<size {
            let (row, column) = (i / columns, i % columns)
            let cell = b.addView("cell\(row)_\(column)")
            cells.append(cell)
            if column == 0 {
                b.add(cell, .leading, .equal, b.root, .leadingMargin)
            } else {
                b.add(cell, .leading, .equal, cells[i - 1], .trailing, plus: margin)
                b.add(cell, .top, .equal, cells[i - 1], .top)
            }
            if row == 0 && column == 0 {
                b.add(cell, .top, .equal, b.root, .topMargin)
                b.add(cell, .height, .equal, cell, .width)
            } else {
                b.add(cell, .width, .equal, cells[0], .width)
                b.add(cell, .height, .equal, cells[0], .height)
            }
            if column == 0 && row > 0 {
                b.add(cell, .top, .equal, cells[i - columns], .bottom, plus: margin)
            }
            if column == columns - 1 && row == 0 {
                b.add(b.root, .trailingMargin, .equal, cell, .trailing)
            }
        }
        return b.system
    }

    /// One chain of chips with intrinsic sizes, 8 apart, tops aligned; the last chip would
    /// like to end at the trailing margin (priority 250 or 750). One chip resists
    /// compression at only 500, so when the row must fit, that chip alone gives way and the
    /// layout stays unambiguous.
    static func longRow(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var b = SystemBuilder(root: .random(&rng), direction: direction, expectedViews: size)
        var previous: ItemIndex?
        let yielding = rng.index(below: size)
        for i in 0..<size {
            let chip = b.addView(
                "chip\(i)", intrinsicWidth: NumericLiteral.integer(rng.int(in: 32...160)),
                intrinsicHeight: NumericLiteral.integer(32),
                resistance: AxisPair(horizontal: i == yielding ? Priority.integer(500) : .high, vertical: .high))
            if let previous {
                b.add(chip, .leading, .equal, previous, .trailing, plus: margin)
                b.add(chip, .top, .equal, previous, .top)
            } else {
                b.add(chip, .leading, .equal, b.root, .leadingMargin)
                b.add(chip, .top, .equal, b.root, .topMargin)
            }
            previous = chip
        }
        if let last = previous {
            b.add(b.root, .trailingMargin, .greaterThanOrEqual, last, .trailing,
                  priority: rng.chance(0.5) ? .low : .high)
        }
        return b.system
    }

    /// Full-width images with an aspect ratio, each followed by a caption label.
    static func aspectImages(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        // height = ratio × width: 16:9, 4:3, 1:1, 2:3 (portrait photo), 3:2.
        let ratios = ["0.5625", "0.75", "1", "1.5", "0.6666666667"].map(NumericLiteral.decimal)
        var previous: ItemIndex?
        return SystemBuilder.filled(to: size, direction: direction, &rng) { b, index, rng in
            let image = b.addView("image\(index)")
            b.add(image, .leading, .equal, b.root, .leadingMargin)
            b.add(b.root, .trailingMargin, .equal, image, .trailing)
            b.add(image, .height, .equal, image, .width, times: rng.element(of: ratios))
            b.follow(image, .top, after: previous, .bottom, plus: NumericLiteral.integer(12), orRoot: .topMargin)
            previous = image
            if b.viewCount < size {
                let caption = b.addView(
                    "caption\(index)", intrinsicWidth: NumericLiteral.integer(rng.int(in: 40...500)),
                    intrinsicHeight: NumericLiteral.integer(rng.element(of: [17, 34, 51])))
                b.add(caption, .leading, .equal, image, .leading)
                b.add(image, .trailing, .greaterThanOrEqual, caption, .trailing)
                b.add(caption, .top, .equal, image, .bottom, plus: NumericLiteral.integer(4))
                previous = caption
            }
        }
    }

    /// Rows of two baseline-aligned labels filling the width between the margins. Their
    /// hugging (251 vs 250) and compression resistance (751 vs 750) differ, so whether the
    /// row has room to spare or too little, one label clearly gives way.
    static func huggingContest(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        let root = RootSize.random(&rng)
        var previous: ItemIndex?
        return SystemBuilder.filled(to: size, root: root, direction: direction, &rng) { b, row, rng in
            let strongFirst = rng.chance(0.5)
            let (hugA, hugB) = strongFirst ? (Priority.integer(251), Priority.low) : (Priority.low, Priority.integer(251))
            let (resA, resB) = rng.chance(0.5) ? (Priority.integer(751), Priority.high) : (Priority.high, Priority.integer(751))
            // Sometimes too wide for the row (a compression contest), sometimes not (hugging).
            let available = root.width - 2 * 8 - 8
            let total = rng.chance(0.5) ? rng.int(in: available + 1...available * 2) : rng.int(in: available / 3...available - 1)
            let wa = rng.int(in: max(1, total / 5)...max(1, total * 4 / 5))
            let wb = max(1, total - wa)
            let a = b.addView(
                "name\(row)", intrinsicWidth: NumericLiteral.integer(wa), intrinsicHeight: NumericLiteral.integer(21),
                hugging: AxisPair(horizontal: hugA, vertical: .low), resistance: AxisPair(horizontal: resA, vertical: .high),
                baselines: Baselines(first: NumericLiteral.integer(17), last: NumericLiteral.integer(4)))
            b.add(a, .leading, .equal, b.root, .leadingMargin)
            if let previous {
                b.add(a, .top, .equal, previous, .bottom, plus: margin)
            } else {
                b.add(a, .top, .equal, b.root, .topMargin)
            }
            previous = a
            if b.viewCount < size {
                let other = b.addView(
                    "value\(row)", intrinsicWidth: NumericLiteral.integer(wb), intrinsicHeight: .scaled(205, exponent: -1),
                    hugging: AxisPair(horizontal: hugB, vertical: .low), resistance: AxisPair(horizontal: resB, vertical: .high),
                    baselines: Baselines(first: .scaled(165, exponent: -1), last: .scaled(4, exponent: 0)))
                b.add(other, .leading, .equal, a, .trailing, plus: margin)
                b.add(b.root, .trailingMargin, .equal, other, .trailing)
                b.add(other, .firstBaseline, .equal, a, .firstBaseline)
            } else {
                b.add(b.root, .trailingMargin, .greaterThanOrEqual, a, .trailing)
            }
        }
    }

    /// Rows of 1-4 buttons spread evenly: spacer views at both ends and between the
    /// buttons, all spacers of one width, everything centred on the first button.
    static func equalSpacing(_ size: Int, _ rng: inout SeededGenerator, _ direction: LayoutDirection) -> ConstraintSystem {
        var previousRow: ItemIndex?
        return SystemBuilder.filled(to: size, direction: direction, &rng) { b, row, rng in
            // 2k + 1 views: k buttons and k + 1 spacers.
            let buttons = max(1, min(rng.int(in: 1...4), (size - b.viewCount - 1) / 2))
            let height = NumericLiteral.integer(rng.element(of: [30, 44]))
            var spacers: [ItemIndex] = []
            var edge: (ItemIndex, Attribute) = (b.root, .leading)
            var firstButton: ItemIndex?
            for k in 0...buttons {
                let spacer = b.addView("gap\(row)_\(k)")
                b.add(spacer, .leading, .equal, edge.0, edge.1)
                b.add(spacer, .height, .equal, NumericLiteral.integer(1))
                if let s0 = spacers.first {
                    b.add(spacer, .width, .equal, s0, .width)
                }
                spacers.append(spacer)
                if let firstButton {
                    b.add(spacer, .centerY, .equal, firstButton, .centerY)
                }
                edge = (spacer, .trailing)
                guard k < buttons else { break }
                let button = b.addView(
                    "button\(row)_\(k)", intrinsicWidth: NumericLiteral.integer(rng.int(in: 44...120)), intrinsicHeight: height)
                b.add(button, .leading, .equal, spacer, .trailing)
                if let firstButton {
                    b.add(button, .centerY, .equal, firstButton, .centerY)
                } else if let previousRow {
                    b.add(button, .top, .equal, previousRow, .bottom, plus: NumericLiteral.integer(16))
                } else {
                    b.add(button, .top, .equal, b.root, .topMargin)
                }
                if firstButton == nil {
                    firstButton = button
                    b.add(spacers[0], .centerY, .equal, button, .centerY)
                }
                edge = (button, .trailing)
            }
            b.add(b.root, .trailing, .equal, edge.0, edge.1)
            previousRow = firstButton
        }
    }
}
