import LayoutModel

/// One Visual Format Language line (spec §4), built in code.
///
/// It renders as VFL text (``text(in:)``) and expands into exactly the constraints
/// `LayoutParser` generates for that text, in the same order (``constraints(in:)``), so a
/// family can be written in VFL while the generator builds the system directly, without
/// printing and re-parsing text. The canonical printer writes the expanded constraints.
public struct VisualFormatLine: Sendable, Hashable {
    /// A `[view(...)]` predicate: `REL (number | view) @priority`.
    public struct Predicate: Sendable, Hashable {
        public enum Target: Sendable, Hashable {
            case constant(NumericLiteral)
            /// The same size attribute of another view (`[a(==b)]`).
            case view(ItemIndex)
        }

        public var relation: Relation
        public var target: Target
        public var priority: Priority

        public init(_ relation: Relation, _ target: Target, priority: Priority = .required) {
            self.relation = relation
            self.target = target
            self.priority = priority
        }
    }

    /// The gap between two consecutive elements.
    public enum Connection: Sendable, Hashable {
        /// Nothing between them: `[a][b]`, spacing 0.
        case flush
        /// `-`: 8 between views, 20 to the superview edge.
        case standard
        /// `-N-`.
        case fixed(NumericLiteral)
        /// `-(>=N@P,...)-`: numbers only.
        case predicates([Predicate])
    }

    /// A `|` or a `[view]`, with the connection that leads into it from the previous one.
    public enum Part: Sendable, Hashable {
        case edge
        case view(ItemIndex, [Predicate])
        case space(Connection)
    }

    public var axis: Attribute.Axis
    public var parts: [Part]
    /// `align ATTR,...`: attributes across the line's axis.
    public var alignment: [Attribute]

    public init(axis: Attribute.Axis, parts: [Part], alignment: [Attribute] = []) {
        self.axis = axis
        self.parts = parts
        self.alignment = alignment
    }

    private var leadingEdge: Attribute { axis == .horizontal ? .leading : .top }
    private var trailingEdge: Attribute { axis == .horizontal ? .trailing : .bottom }
    private var sizeAttribute: Attribute { axis == .horizontal ? .width : .height }

    /// The line as VFL text, views named as in `system`.
    public func text(in system: ConstraintSystem) -> String {
        var out = axis == .horizontal ? "H:" : "V:"
        for part in parts {
            switch part {
            case .edge: out += "|"
            case .view(let view, let predicates):
                out += "[\(system.items[view].name)"
                if !predicates.isEmpty {
                    out += "(" + predicates.map { predicateText($0, in: system) }.joined(separator: ",") + ")"
                }
                out += "]"
            case .space(.flush): break
            case .space(.standard): out += "-"
            case .space(.fixed(let n)): out += "-\(n)-"
            case .space(.predicates(let ps)):
                out += "-(" + ps.map { predicateText($0, in: system) }.joined(separator: ",") + ")-"
            }
        }
        if !alignment.isEmpty { out += " align " + alignment.map(\.rawValue).joined(separator: ",") }
        return out
    }

    private func predicateText(_ p: Predicate, in system: ConstraintSystem) -> String {
        var s = p.relation.rawValue
        switch p.target {
        case .constant(let n): s += n.description
        case .view(let v): s += system.items[v].name
        }
        if !p.priority.isRequired { s += "@\(p.priority)" }
        return s
    }

    /// The constraints the parser generates for ``text(in:)``: each connection's spacing
    /// constraints where the connection stands, each view's predicates where the view
    /// stands, then the `align` constraints pair by pair. `|` is the views' common parent.
    public func constraints(in system: ConstraintSystem) -> [Constraint] {
        var parent: ItemIndex = 0
        for case .view(let v, _) in parts {
            parent = system.items[v].parent ?? 0
            break
        }
        var out: [Constraint] = []
        var views: [ItemIndex] = []
        var previous: Part?
        var pending: Connection?
        for part in parts {
            if case .space(let connection) = part {
                pending = connection
                continue
            }
            if let prev = previous {
                for (relation, constant, priority) in spacings(pending ?? .flush, between: prev, and: part) {
                    out.append(spacing(from: prev, to: part, relation, constant, priority, parent: parent))
                }
            }
            if case .view(let v, let predicates) = part {
                views.append(v)
                for p in predicates {
                    let first = AttributeReference(item: v, attribute: sizeAttribute)
                    switch p.target {
                    case .constant(let n):
                        out.append(Constraint(first: first, relation: p.relation, second: nil, constant: n,
                                              priority: p.priority, origin: .visualFormat))
                    case .view(let other):
                        out.append(Constraint(first: first, relation: p.relation,
                                              second: AttributeReference(item: other, attribute: sizeAttribute),
                                              priority: p.priority, origin: .visualFormat))
                    }
                }
            }
            previous = part
            pending = nil
        }
        for (prev, next) in zip(views, views.dropFirst()) {
            for attribute in alignment {
                out.append(Constraint(
                    first: AttributeReference(item: next, attribute: attribute), relation: .equal,
                    second: AttributeReference(item: prev, attribute: attribute), origin: .visualFormat))
            }
        }
        return out
    }

    private func spacings(_ connection: Connection, between prev: Part, and next: Part)
        -> [(Relation, NumericLiteral, Priority)]
    {
        switch connection {
        case .flush: return [(.equal, .zero, .required)]
        case .fixed(let n): return [(.equal, n, .required)]
        case .standard:
            var touchesEdge = false
            if case .edge = prev { touchesEdge = true }
            if case .edge = next { touchesEdge = true }
            return [(.equal, NumericLiteral.integer(touchesEdge ? 20 : 8), .required)]
        case .predicates(let ps):
            return ps.map { p in
                if case .constant(let n) = p.target { return (p.relation, n, p.priority) }
                return (p.relation, .zero, p.priority)
            }
        }
    }

    private func spacing(
        from prev: Part, to next: Part, _ relation: Relation, _ constant: NumericLiteral,
        _ priority: Priority, parent: ItemIndex
    ) -> Constraint {
        // `|-N-[v]`: v.leading REL |.leading + N; `[v]-N-|`: |.trailing REL v.trailing + N;
        // `[a]-N-[b]`: b.leading REL a.trailing + N.
        let (first, second): (AttributeReference, AttributeReference)
        switch (prev, next) {
        case (.view(let a, _), .view(let b, _)):
            first = AttributeReference(item: b, attribute: leadingEdge)
            second = AttributeReference(item: a, attribute: trailingEdge)
        case (.view(let a, _), _):
            first = AttributeReference(item: parent, attribute: trailingEdge)
            second = AttributeReference(item: a, attribute: trailingEdge)
        case (_, .view(let b, _)):
            first = AttributeReference(item: b, attribute: leadingEdge)
            second = AttributeReference(item: parent, attribute: leadingEdge)
        default:
            first = AttributeReference(item: parent, attribute: leadingEdge)
            second = AttributeReference(item: parent, attribute: trailingEdge)
        }
        return Constraint(first: first, relation: relation, second: second, constant: constant,
                          priority: priority, origin: .visualFormat)
    }
}
