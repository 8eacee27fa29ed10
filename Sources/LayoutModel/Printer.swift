extension ConstraintSystem {
    /// The system in canonical `.layout` text: one declaration or constraint a line, views
    /// declared where their intrinsic constraints stand, VFL written out as plain
    /// constraints, defaults omitted. `LayoutParser.parse(s.canonicalText)` equals `s`.
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
        let anchors = intrinsicAnchors()
        var declared = 1
        func declare(through index: ItemIndex) {
            while declared <= index && declared < items.count {
                out += viewLine(declared, withIntrinsic: anchors[declared] != nil)
                declared += 1
            }
        }
        var j = 0
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
        var line = "view \(item.name)"
        if let parent = item.parent, parent != 0 { line += " in \(items[parent].name)" }
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
        var line = c.id.map { "\($0): " } ?? ""
        line += "\(items[c.first.item].name).\(c.first.attribute.rawValue) \(c.relation.rawValue) "
        if let second = c.second {
            if c.multiplier != .one { line += "\(c.multiplier) * " }
            line += "\(items[second.item].name).\(second.attribute.rawValue)"
            if !c.constant.isZero {
                line += c.constant.isNegative ? " - \(c.constant.negated)" : " + \(c.constant)"
            }
        } else {
            line += c.constant.description
        }
        if !c.priority.isRequired { line += " @\(c.priority)" }
        return line
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
