extension ConstraintSystem {
    /// The system in canonical `.layout` text: one declaration or constraint a line, views
    /// declared where their intrinsic constraints stand, VFL written out as plain
    /// constraints, defaults omitted. `LayoutParser.parse(s.canonicalText)` equals `s` for
    /// every system whose intrinsic constraints stand where their views' declarations put
    /// them (every parsed system); otherwise (a later pass of a sequence) they are printed as
    /// plain constraints, and the text reads back to the same constraints, names and rows.
    public var canonicalText: String {
        var out = ""
        out.reserveCapacity(64 * (items.count + constraints.count))
        if let name { out += "layout \(Self.quoted(name))\n" }
        if direction == .rightToLeft { out += "direction rtl\n" }
        let root = items[0]
        let frame = root.frame ?? [.zero, .zero, .zero, .zero]
        out += "root \(root.name)"
        if frame[0].isZero && frame[1].isZero {
            out += " \(frame[2]) \(frame[3])"
        } else {
            out += " \(frame[0]) \(frame[1]) \(frame[2]) \(frame[3])"
        }
        if root.margins != .standard { out += " margins \(Self.text(root.margins))" }
        out += "\n"

        // Where each view's intrinsic constraints stand, when they are in canonical place.
        var anchors = intrinsicAnchors()
        var declared = 1
        var j = 0
        func declare(through index: ItemIndex) {
            while declared <= index && declared < items.count {
                // A view declared before its intrinsic constraints' place (a constraint names
                // it earlier, as in a later pass of a sequence) cannot carry them: they are
                // printed where they stand, as plain constraints.
                let atAnchor = anchors[declared] == j
                if !atAnchor { anchors[declared] = nil }
                out += viewLine(declared, withIntrinsic: atAnchor)
                declared += 1
            }
        }
        while j < constraints.count {
            if let view = anchorOwner(at: j, anchors: anchors) {
                declare(through: view)
                j += intrinsicCount(of: view)
                continue
            }
            let c = constraints[j]
            declare(through: max(c.first.item, c.second?.item ?? 0))
            out += constraintLine(c)
            out += "\n"
            j += 1
        }
        declare(through: items.count - 1)
        return out
    }

    /// The number of constraints a view's intrinsic size generates.
    private func intrinsicCount(of view: ItemIndex) -> Int {
        2 * [items[view].intrinsic.horizontal, items[view].intrinsic.vertical].compactMap { $0 }.count
    }

    /// For each view with intrinsic metrics whose generated constraints stand together, in
    /// order and unchanged, the index of the first of them.
    private func intrinsicAnchors() -> [ItemIndex: Int] {
        var anchors: [ItemIndex: Int] = [:]
        var expectedView = 1
        var j = 0
        while j < constraints.count {
            guard constraints[j].origin == .intrinsic else { j += 1; continue }
            let view = constraints[j].first.item
            let count = intrinsicCount(of: view)
            if view >= expectedView && count > 0 && j + count <= constraints.count {
                if Array(constraints[j..<(j + count)]) == Self.intrinsicConstraints(of: items[view], at: view)
                    && constraints[j..<(j + count)].allSatisfy({ $0.id == nil }) {
                    anchors[view] = j
                    expectedView = view + 1
                    j += count
                    continue
                }
            }
            j += 1
        }
        return anchors
    }

    private func anchorOwner(at j: Int, anchors: [ItemIndex: Int]) -> ItemIndex? {
        guard constraints[j].origin == .intrinsic else { return nil }
        let view = constraints[j].first.item
        return anchors[view] == j ? view : nil
    }

    private func viewLine(_ index: ItemIndex, withIntrinsic: Bool) -> String {
        let item = items[index]
        let parent = item.parent.flatMap { $0 == 0 ? nil : items[$0].name }
        return Self.viewLine(item, parentName: parent, withIntrinsic: withIntrinsic)
    }

    /// `view NAME [in PARENT] [intrinsic W H] …` with a newline; defaults omitted.
    static func viewLine(_ item: Item, parentName: String?, withIntrinsic: Bool) -> String {
        var line = "view \(item.name)"
        if let parentName { line += " in \(parentName)" }
        if withIntrinsic {
            line += " intrinsic \(item.intrinsic.horizontal.map(\.description) ?? "-") \(item.intrinsic.vertical.map(\.description) ?? "-")"
        }
        if item.hugging != AxisPair(horizontal: .low, vertical: .low) {
            line += " hug \(item.hugging.horizontal) \(item.hugging.vertical)"
        }
        if item.resistance != AxisPair(horizontal: .high, vertical: .high) {
            line += " resist \(item.resistance.horizontal) \(item.resistance.vertical)"
        }
        if let b = item.baselines { line += " baseline \(b.first) \(b.last)" }
        if item.margins != .standard { line += " margins \(Self.text(item.margins))" }
        return line + "\n"
    }

    /// One constraint as a line of text (without the newline).
    public func constraintLine(_ c: Constraint) -> String {
        NewConstraint(c, in: self).line
    }

    private static func text(_ m: Margins) -> String { "\(m.top) \(m.left) \(m.bottom) \(m.right)" }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}

extension NewConstraint {
    /// The constraint as a line of text (without the newline).
    public var line: String {
        var line = id.map { "\($0): " } ?? ""
        line += "\(first.item).\(first.attribute.rawValue) \(relation.rawValue) "
        if let second {
            if multiplier != .one { line += "\(multiplier) * " }
            line += "\(second.item).\(second.attribute.rawValue)"
            if !constant.isZero {
                line += constant.isNegative ? " - \(constant.negated)" : " + \(constant)"
            }
        } else {
            line += constant.description
        }
        if !priority.isRequired { line += " @\(priority)" }
        return line
    }
}

extension UpdateStep {
    /// The step as a line of canonical text (without the newline).
    public var line: String {
        func metric(_ m: NumericLiteral?) -> String { m?.description ?? "-" }
        switch action {
        case .setConstant(let name, let constant): return "set \(name) constant \(constant)"
        case .setIntrinsic(let name, let size): return "set \(name) intrinsic \(metric(size.horizontal)) \(metric(size.vertical))"
        case .setPriority(let name, let priority): return "set \(name) priority \(priority)"
        case .setRootSize(let width, let height): return "set root \(width) \(height)"
        case .removeConstraint(let name): return "remove \(name)"
        case .removeView(let name): return "remove view \(name)"
        case .addView(let view):
            let item = view.item(parent: 0)
            let hasIntrinsic = item.intrinsic.horizontal != nil || item.intrinsic.vertical != nil
            return String(ConstraintSystem.viewLine(item, parentName: view.parent, withIntrinsic: hasIntrinsic).dropLast())
        case .addConstraint(let constraint): return constraint.line
        }
    }
}

extension UpdateSequence {
    /// The sequence in canonical text: the first pass's system as
    /// ``ConstraintSystem/canonicalText`` prints it, then for each update a `layout` line and
    /// its steps, one a line, and a closing `layout`. A one-pass sequence prints exactly as
    /// its system. `LayoutParser.parseSequence(s.canonicalText)` equals `s`.
    public var canonicalText: String {
        var out = initial.canonicalText
        guard !updates.isEmpty else { return out }
        let rootName = initial.root.name
        for steps in updates {
            out += "layout\n"
            for var step in steps {
                // `in ROOT` is the default, as in the first pass.
                if case .addView(var view) = step.action, view.parent == rootName {
                    view.parent = nil
                    step.action = .addView(view)
                }
                out += step.line + "\n"
            }
        }
        return out + "layout\n"
    }
}
