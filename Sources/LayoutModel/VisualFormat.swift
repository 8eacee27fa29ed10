/// The Visual Format Language (Apple's grammar, spec §4):
///
///     line       ::= [('H'|'V') ':'] ['|' connection] view (connection view)* [connection '|'] [align]
///     connection ::= ε | '-' | '-' number '-' | '-' '(' predicate (',' predicate)* ')' '-'
///     view       ::= '[' name ['(' predicate (',' predicate)* ')'] ']'
///     predicate  ::= [relation] (number | name) ['@' (number | required | high | low | fitting)]
///     align      ::= 'align' attribute (',' attribute)*
///
/// For consecutive elements `prev`, `next` a connection generates
/// `next.leading REL prev.trailing + N` (`top`/`bottom` on `V:` lines); the superview edge
/// `|` stands for the views' common parent. Standard spacing is 8 between views and 20 to
/// the superview edge.
extension ParseState {
    /// A VFL predicate: `(REL)? (number | view) (@priority)?`.
    struct Predicate {
        var relation: Relation
        var constant: NumericLiteral?
        var view: (index: ItemIndex, location: SourceLocation)?
        var priority: Priority
        var location: SourceLocation
        var priorityLocation: SourceLocation?
    }

    enum Element {
        case superview(SourceLocation)
        case view(ItemIndex, SourceLocation)
    }

    static let standardSiblingSpacing = NumericLiteral(8)
    static let standardSuperviewSpacing = NumericLiteral(20)

    mutating func parseVisualFormat(_ c: inout TokenCursor) throws(LayoutError) {
        let lineStart = c.location
        try requireRoot(&c, at: lineStart)
        var axis = Attribute.Axis.horizontal
        if let t = c.current, t.kind == .identifier {
            axis = t.text == "V" ? .vertical : .horizontal
            c.index += 2
        }
        let leadingEdge: Attribute = axis == .horizontal ? .leading : .top
        let trailingEdge: Attribute = axis == .horizontal ? .trailing : .bottom
        let sizeAttribute: Attribute = axis == .horizontal ? .width : .height

        // Generated constraints are collected and appended in text order once the line has
        // been read, so that the parent check (which needs every view) comes first.
        var generated: [Constraint] = []
        var views: [(ItemIndex, SourceLocation)] = []
        var previous: Element?
        var pendingConnection: [Predicate]? = nil
        var usesSuperview = false

        func spacingConstraints(from prev: Element, to next: Element, predicates: [Predicate]) -> [Constraint] {
            predicates.map { p in
                let constant = p.constant ?? .zero
                let source = ConstraintSource(
                    first: p.location, firstAttribute: p.location, relation: p.location,
                    constant: p.location, priority: p.priorityLocation)
                switch (prev, next) {
                case (.superview, .view(let v, _)):
                    return Constraint(first: AttributeReference(item: v, attribute: leadingEdge), relation: p.relation,
                                      second: AttributeReference(item: -1, attribute: leadingEdge), constant: constant,
                                      priority: p.priority, origin: .visualFormat, source: source)
                case (.view(let v, _), .superview):
                    return Constraint(first: AttributeReference(item: -1, attribute: trailingEdge), relation: p.relation,
                                      second: AttributeReference(item: v, attribute: trailingEdge), constant: constant,
                                      priority: p.priority, origin: .visualFormat, source: source)
                case (.view(let a, _), .view(let b, _)):
                    return Constraint(first: AttributeReference(item: b, attribute: leadingEdge), relation: p.relation,
                                      second: AttributeReference(item: a, attribute: trailingEdge), constant: constant,
                                      priority: p.priority, origin: .visualFormat, source: source)
                case (.superview, .superview):
                    return Constraint(first: AttributeReference(item: -1, attribute: leadingEdge), relation: p.relation,
                                      second: nil, constant: constant, origin: .visualFormat, source: source)
                }
            }
        }

        func isStandard(_ predicates: [Predicate]) -> Bool {
            predicates.count == 1 && predicates[0].constant == nil && predicates[0].view == nil
        }

        while let t = c.current {
            if t.isWord("align") { break }
            // An element: '|' or '[view(...)]'.
            let element: Element
            var viewPredicates: [Predicate] = []
            if t.isSymbol("|") {
                c.index += 1
                element = .superview(t.location)
                usesSuperview = true
                if case .superview = previous {
                    throw c.error("two superview edges '|' in a row", kind: .visualFormat, at: t.location)
                }
                if previous != nil, c.current != nil, !(c.current?.isWord("align") ?? false) {
                    throw c.error("'|' may only open or close a VFL line", kind: .visualFormat, at: t.location)
                }
            } else if t.isSymbol("[") {
                c.index += 1
                let nameToken = try c.expectIdentifier("a view name")
                let index = try lookUp(nameToken, &c)
                if c.skipSymbol("(") {
                    viewPredicates = try predicateList(&c, allowViews: true)
                    _ = try c.expectSymbol(")")
                }
                _ = try c.expectSymbol("]")
                element = .view(index, nameToken.location)
                views.append((index, nameToken.location))
            } else {
                throw c.expected(previous == nil ? "'|' or '['" : "'[', '|' or a connection")
            }
            if let prev = previous {
                var predicates = pendingConnection ?? []
                if pendingConnection == nil {
                    // Flush: [a][b], |[a], [a]|
                    predicates = [Predicate(relation: .equal, constant: .zero, priority: .required, location: t.location)]
                } else if isStandard(predicates) {
                    var isSuperviewGap = false
                    if case .superview = prev { isSuperviewGap = true }
                    if case .superview = element { isSuperviewGap = true }
                    predicates[0].constant = isSuperviewGap ? Self.standardSuperviewSpacing : Self.standardSiblingSpacing
                }
                generated += spacingConstraints(from: prev, to: element, predicates: predicates)
            } else if pendingConnection != nil {
                throw c.error("a VFL line cannot start with a connection", kind: .visualFormat, at: t.location)
            }
            if case .view(let index, let loc) = element {
                for p in viewPredicates {
                    let source = ConstraintSource(
                        first: loc, firstAttribute: loc, relation: p.location,
                        second: p.view?.location, secondAttribute: p.view?.location,
                        constant: p.location, priority: p.priorityLocation)
                    generated.append(Constraint(
                        first: AttributeReference(item: index, attribute: sizeAttribute), relation: p.relation,
                        second: p.view.map { AttributeReference(item: $0.index, attribute: sizeAttribute) },
                        constant: p.constant ?? .zero, priority: p.priority, origin: .visualFormat, source: source))
                }
            }
            previous = element
            pendingConnection = nil
            // A connection, if any.
            if let dash = c.current, dash.isSymbol("-") {
                c.index += 1
                if let n = c.current, n.isSymbol("(") {
                    c.index += 1
                    pendingConnection = try predicateList(&c, allowViews: false)
                    _ = try c.expectSymbol(")")
                    _ = try c.expectSymbol("-")
                } else if c.current?.kind == .number {
                    let (value, loc) = try c.number()
                    pendingConnection = [Predicate(relation: .equal, constant: value, priority: .required, location: loc)]
                    _ = try c.expectSymbol("-")
                } else {
                    pendingConnection = [Predicate(relation: .equal, constant: nil, priority: .required, location: dash.location)]
                }
            }
        }
        if pendingConnection != nil {
            throw c.expected("'[' or '|' after the connection")
        }
        if views.isEmpty {
            throw c.error("a VFL line needs at least one view", kind: .visualFormat, at: lineStart)
        }
        // Alignment options.
        var alignAttributes: [(Attribute, SourceLocation)] = []
        if let t = c.current, t.isWord("align") {
            c.index += 1
            repeat {
                let a = try c.expectIdentifier("an attribute to align")
                guard let attribute = Attribute(name: a.text) else {
                    throw c.error("unknown attribute '\(a.text)'", at: a.location)
                }
                let allowed: [Attribute] = axis == .horizontal
                    ? [.top, .bottom, .centerY, .firstBaseline, .lastBaseline]
                    : [.left, .right, .leading, .trailing, .centerX]
                guard allowed.contains(attribute) else {
                    throw c.error("'\(a.text)' does not run across this line's axis; use one of \(allowed.map(\.rawValue).joined(separator: ", "))",
                                  kind: .visualFormat, at: a.location)
                }
                alignAttributes.append((attribute, a.location))
            } while c.skipSymbol(",")
        }
        try c.expectEnd()

        // The superview edge is the common parent of the line's views.
        var parent: ItemIndex = -1
        if usesSuperview {
            for (index, loc) in views {
                guard let p = item(index).parent else {
                    throw c.error("the root '\(item(index).name)' has no superview for '|'", kind: .visualFormat, at: loc)
                }
                if parent == -1 { parent = p }
                if p != parent {
                    throw c.error("views on a line with '|' must share one parent; '\(item(index).name)' is in '\(item(p).name)', not '\(item(parent).name)'",
                                  kind: .visualFormat, at: loc)
                }
            }
        }
        for i in generated.indices {
            if generated[i].first.item == -1 { generated[i].first.item = parent }
            if generated[i].second?.item == -1 { generated[i].second?.item = parent }
        }
        for pair in zip(views, views.dropFirst()) {
            for (attribute, loc) in alignAttributes {
                generated.append(Constraint(
                    first: AttributeReference(item: pair.1.0, attribute: attribute), relation: .equal,
                    second: AttributeReference(item: pair.0.0, attribute: attribute),
                    origin: .visualFormat, source: ConstraintSource(all: loc)))
            }
        }
        for constraint in generated {
            try append(constraint, &c)
        }
    }

    /// `predicate (',' predicate)*` up to (not including) the closing parenthesis.
    mutating func predicateList(_ c: inout TokenCursor, allowViews: Bool) throws(LayoutError) -> [Predicate] {
        var predicates: [Predicate] = []
        repeat {
            let start = c.location
            var relation = Relation.equal
            if let t = c.current, t.kind == .symbol, let r = Relation(rawValue: String(t.text)) {
                relation = r
                c.index += 1
            }
            var predicate = Predicate(relation: relation, constant: nil, view: nil, priority: .required, location: start)
            if let t = c.current, t.kind == .identifier {
                guard allowViews else {
                    throw c.error("metric names are not supported; a connection takes a number", kind: .visualFormat, at: t.location)
                }
                c.index += 1
                predicate.view = (try lookUp(t, &c), t.location)
            } else {
                predicate.constant = try c.number("a number or a view name").0
            }
            if c.skipSymbol("@") {
                // Numbers or the named levels, as on constraint lines (issue 19).
                let (priority, location) = try c.priority()
                predicate.priority = priority
                predicate.priorityLocation = location
            }
            predicates.append(predicate)
        } while c.skipSymbol(",")
        return predicates
    }
}
