/// Reads `.layout` text (spec §1–§4) into a validated ``ConstraintSystem``.
///
/// The parser stops at the first error, which carries the position of the offending
/// token; declaration, VFL and validation errors are all reported in file order.
public struct LayoutParser: Sendable {
    public var file: String
    public var rules: ValidationRules

    public init(file: String = "<input>", rules: ValidationRules = .runtime) {
        self.file = file
        self.rules = rules
    }

    /// Parses and validates a whole file.
    public static func parse(_ text: String, file: String = "<input>", rules: ValidationRules = .runtime)
        throws(LayoutError) -> ConstraintSystem
    {
        try LayoutParser(file: file, rules: rules).parse(text)
    }

    public func parse(_ text: String) throws(LayoutError) -> ConstraintSystem {
        var state = ParseState(file: file, rules: rules)
        var lineNumber = 0
        try SourceLines.forEachLine(of: text) { (line) throws(LayoutError) in
            lineNumber += 1
            let tokens = try Lexer(file: file).tokens(of: line, lineNumber: lineNumber)
            if tokens.isEmpty { return }
            var cursor = TokenCursor(tokens: tokens, file: file, lineNumber: lineNumber, lineLength: line.unicodeScalars.count)
            try state.parseLine(&cursor)
        }
        return try state.finish(lineCount: max(lineNumber, 1))
    }
}

/// Walks the tokens of one line.
struct TokenCursor {
    let tokens: [Token]
    let file: String
    let lineNumber: Int
    let lineLength: Int
    var index = 0

    var current: Token? { index < tokens.count ? tokens[index] : nil }
    func peek(_ offset: Int = 0) -> Token? {
        index + offset < tokens.count ? tokens[index + offset] : nil
    }
    var atEnd: Bool { index >= tokens.count }
    /// Where the next token is, or just past the line's end.
    var location: SourceLocation {
        current?.location ?? SourceLocation(line: lineNumber, column: lineLength + 1)
    }

    mutating func next() -> Token? {
        defer { index += 1 }
        return current
    }

    func error(_ message: String, kind: LayoutError.Kind = .syntax, at loc: SourceLocation? = nil) -> LayoutError {
        LayoutError(file: file, location: loc ?? location, kind: kind, message: message)
    }

    /// "expected X, found Y" at the current token.
    func expected(_ what: String) -> LayoutError {
        error("expected \(what), found \(current?.quoted ?? "end of line")")
    }

    mutating func expectSymbol(_ s: String) throws(LayoutError) -> Token {
        guard let t = current, t.isSymbol(s) else { throw expected("'\(s)'") }
        index += 1
        return t
    }

    mutating func expectIdentifier(_ what: String) throws(LayoutError) -> Token {
        guard let t = current, t.kind == .identifier else { throw expected(what) }
        index += 1
        return t
    }

    mutating func skipSymbol(_ s: String) -> Bool {
        if let t = current, t.isSymbol(s) { index += 1; return true }
        return false
    }

    func expectEnd() throws(LayoutError) {
        if let t = current { throw error("unexpected \(t.quoted) at end of line", at: t.location) }
    }

    /// An optionally signed decimal literal; the location is that of its first token.
    mutating func number(_ what: String = "a number") throws(LayoutError) -> (NumericLiteral, SourceLocation) {
        let start = location
        var sign = ""
        if let t = current, t.isSymbol("-") || t.isSymbol("+") {
            sign = t.text == "-" ? "-" : ""
            index += 1
        }
        guard let t = current, t.kind == .number else { throw expected(what) }
        index += 1
        guard let value = NumericLiteral(parsing: sign + t.text) else {
            throw error("malformed number '\(t.text)'", at: start)
        }
        guard value.isRepresentable else {
            throw error("number \(sign)\(t.text) is out of Double's range", kind: .numberOutOfRange, at: start)
        }
        return (value, start)
    }

    /// A priority: a number or a named level.
    mutating func priority() throws(LayoutError) -> (Priority, SourceLocation) {
        if let t = current, t.kind == .identifier {
            guard let p = Priority(name: t.text) else {
                throw error("unknown priority '\(t.text)'; use a number or required, high, low, fitting")
            }
            index += 1
            return (p, t.location)
        }
        let (value, loc) = try number("a priority")
        return (Priority(value), loc)
    }

    /// True when the current token starts a number (a digit, or a sign glued to one).
    var atNumber: Bool {
        guard let t = current else { return false }
        if t.kind == .number { return true }
        if t.isSymbol("-") || t.isSymbol("+"), let n = peek(1), n.kind == .number, !n.spaceBefore { return true }
        return false
    }
}

/// What the parser knows so far about the file.
struct ParseState {
    let file: String
    let rules: ValidationRules
    var name: String?
    var direction = LayoutDirection.leftToRight
    var sawName = false
    var sawDirection = false
    var system: ConstraintSystem?
    var itemIndex: [Substring: ItemIndex] = [:]
    /// Explicit IDs and where they were written.
    var ids: [String: SourceLocation] = [:]

    init(file: String, rules: ValidationRules) {
        self.file = file
        self.rules = rules
    }

    mutating func parseLine(_ c: inout TokenCursor) throws(LayoutError) {
        guard let first = c.current else { return }
        let second = c.peek(1)
        let isKeywordLine = first.kind == .identifier && second.map { !$0.isSymbol(".") && !$0.isSymbol(":") } ?? true
        if isKeywordLine {
            switch first.text {
            case "layout": return try parseName(&c)
            case "direction": return try parseDirection(&c)
            case "root": return try parseRoot(&c)
            case "view": return try parseView(&c)
            default: break
            }
        }
        if first.isSymbol("|") || first.isSymbol("[")
            || ((first.isWord("H") || first.isWord("V")) && second?.isSymbol(":") == true
                && (c.peek(2)?.isSymbol("|") == true || c.peek(2)?.isSymbol("[") == true))
        {
            return try parseVisualFormat(&c)
        }
        if first.kind == .identifier && (second?.isSymbol(".") == true || second?.isSymbol(":") == true) {
            return try parseConstraint(&c)
        }
        throw c.error("expected a declaration (layout, direction, root, view), a constraint or a VFL line, found \(first.quoted)", at: first.location)
    }

    // MARK: Declarations

    mutating func parseName(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        try checkBeforeRoot(keyword, &c)
        if sawName { throw c.error("a second 'layout' line", kind: .duplicateName, at: keyword?.location) }
        guard let t = c.current, t.kind == .string else { throw c.expected("a quoted name") }
        c.index += 1
        try c.expectEnd()
        name = t.stringValue
        sawName = true
    }

    mutating func parseDirection(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        try checkBeforeRoot(keyword, &c)
        if sawDirection { throw c.error("a second 'direction' line", kind: .duplicateName, at: keyword?.location) }
        let t = try c.expectIdentifier("ltr or rtl")
        guard let d = LayoutDirection(rawValue: String(t.text)) else {
            throw c.error("unknown direction '\(t.text)'; use ltr or rtl", at: t.location)
        }
        try c.expectEnd()
        direction = d
        sawDirection = true
    }

    func checkBeforeRoot(_ keyword: Token?, _ c: inout TokenCursor) throws(LayoutError) {
        if system != nil {
            throw c.error("'\(keyword?.text ?? "")' must come before 'root'", kind: .misplacedDeclaration, at: keyword?.location)
        }
    }

    mutating func declareName(_ t: Token, _ c: inout TokenCursor) throws(LayoutError) -> String {
        if itemIndex[t.text] != nil {
            throw c.error("'\(t.text)' is already declared", kind: .duplicateName, at: t.location)
        }
        return String(t.text)
    }

    mutating func parseRoot(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        if system != nil { throw c.error("a second 'root'; a file has exactly one", kind: .duplicateName, at: keyword?.location) }
        let nameToken = try c.expectIdentifier("the root's name")
        let rootName = try declareName(nameToken, &c)
        var numbers: [NumericLiteral] = []
        while c.atNumber { numbers.append(try c.number().0) }
        guard numbers.count == 2 || numbers.count == 4 else {
            throw c.expected(numbers.count < 2 ? "the root's width and height" : "'margins' or end of line")
        }
        let frame = numbers.count == 2 ? [.zero, .zero, numbers[0], numbers[1]] : numbers
        var margins = Margins.standard
        if let t = c.current, t.isWord("margins") {
            c.index += 1
            margins = try parseMargins(&c)
        }
        try c.expectEnd()
        system = ConstraintSystem(name: name, direction: direction, rootName: rootName, frame: frame, margins: margins)
        itemIndex[nameToken.text] = 0
    }

    func parseMargins(_ c: inout TokenCursor) throws(LayoutError) -> Margins {
        let t = try c.number("the top margin").0
        let l = try c.number("the left margin").0
        let b = try c.number("the bottom margin").0
        let r = try c.number("the right margin").0
        return Margins(top: t, left: l, bottom: b, right: r)
    }

    func requireRoot(_ c: inout TokenCursor, at loc: SourceLocation?) throws(LayoutError) -> ConstraintSystem {
        guard let system else {
            throw c.error("'root' must be declared first", kind: .misplacedDeclaration, at: loc)
        }
        return system
    }

    mutating func lookUp(_ t: Token, _ c: inout TokenCursor) throws(LayoutError) -> ItemIndex {
        guard let index = itemIndex[t.text] else {
            throw c.error("undeclared item '\(t.text)'", kind: .undeclaredName, at: t.location)
        }
        return index
    }

    mutating func parseView(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        var system = try requireRoot(&c, at: keyword?.location)
        let nameToken = try c.expectIdentifier("the view's name")
        let viewName = try declareName(nameToken, &c)
        var item = Item(name: viewName, parent: 0)
        var seen = Set<Substring>()
        while let t = c.current {
            guard t.kind == .identifier, ["in", "intrinsic", "hug", "resist", "baseline", "margins"].contains(t.text) else {
                throw c.expected("in, intrinsic, hug, resist, baseline, margins or end of line")
            }
            if !seen.insert(t.text).inserted {
                throw c.error("'\(t.text)' given twice", at: t.location)
            }
            c.index += 1
            switch t.text {
            case "in":
                if seen.count > 1 { throw c.error("'in' must come right after the view's name", at: t.location) }
                let parentToken = try c.expectIdentifier("the parent's name")
                item.parent = try lookUp(parentToken, &c)
            case "intrinsic":
                item.intrinsic = AxisPair(horizontal: try intrinsicMetric(&c), vertical: try intrinsicMetric(&c))
            case "hug":
                item.hugging = try priorityPair(&c)
            case "resist":
                item.resistance = try priorityPair(&c)
            case "baseline":
                item.baselines = Baselines(first: try c.number("the first baseline").0, last: try c.number("the last baseline").0)
            default:
                item.margins = try parseMargins(&c)
            }
        }
        itemIndex[nameToken.text] = system.items.count
        self.system = nil  // keep the system uniquely referenced while it grows
        system.addView(item, source: nameToken.location)
        self.system = system
    }

    /// A number, or a lone `-` for "no intrinsic metric".
    func intrinsicMetric(_ c: inout TokenCursor) throws(LayoutError) -> NumericLiteral? {
        if let t = c.current, t.isSymbol("-"), !c.atNumber {
            c.index += 1
            return nil
        }
        return try c.number("an intrinsic metric or '-'").0
    }

    func priorityPair(_ c: inout TokenCursor) throws(LayoutError) -> AxisPair<Priority> {
        let (h, hLoc) = try c.priority()
        let (v, vLoc) = try c.priority()
        for (p, loc) in [(h, hLoc), (v, vLoc)] where !p.isInRange {
            throw c.error("V5: priority \(p) is not in (0, 1000]", kind: .v5OutOfRange, at: loc)
        }
        return AxisPair(horizontal: h, vertical: v)
    }

    // MARK: Constraints

    /// `ITEM.ATTR`
    mutating func reference(_ c: inout TokenCursor) throws(LayoutError) -> (AttributeReference, SourceLocation, SourceLocation) {
        let itemToken = try c.expectIdentifier("ITEM.ATTR")
        let item = try lookUp(itemToken, &c)
        _ = try c.expectSymbol(".")
        let attrToken = try c.expectIdentifier("an attribute")
        guard let attribute = Attribute(name: attrToken.text) else {
            throw c.error("unknown attribute '\(attrToken.text)'", at: attrToken.location)
        }
        return (AttributeReference(item: item, attribute: attribute), itemToken.location, attrToken.location)
    }

    mutating func parseConstraint(_ c: inout TokenCursor) throws(LayoutError) {
        _ = try requireRoot(&c, at: c.location)
        var id: String?
        var idLocation: SourceLocation?
        if c.peek(1)?.isSymbol(":") == true, let t = c.next() {
            c.index += 1
            id = String(t.text)
            idLocation = t.location
        }
        let (first, firstLoc, firstAttrLoc) = try reference(&c)
        guard let relToken = c.current, relToken.kind == .symbol, let relation = Relation(rawValue: String(relToken.text)) else {
            throw c.expected("==, <= or >=")
        }
        c.index += 1
        var source = ConstraintSource(first: firstLoc, firstAttribute: firstAttrLoc, relation: relToken.location)
        var multiplier = NumericLiteral.one
        var second: AttributeReference?
        var constant = NumericLiteral.zero
        if c.atNumber {
            let (value, loc) = try c.number()
            if c.skipSymbol("*") {
                multiplier = value
                source.multiplier = loc
            } else {
                constant = value
                source.constant = loc
            }
        }
        if source.constant == nil {
            let (ref, itemLoc, attrLoc) = try reference(&c)
            second = ref
            source.second = itemLoc
            source.secondAttribute = attrLoc
            if let t = c.current, t.isSymbol("+") || t.isSymbol("-") {
                c.index += 1
                guard let n = c.current, n.kind == .number else { throw c.expected("a number") }
                let (value, _) = try c.number()
                constant = t.text == "-" ? value.negated : value
                source.constant = t.location
            }
        }
        var priority = Priority.required
        if let at = c.current, at.isSymbol("@") {
            c.index += 1
            let (p, loc) = try c.priority()
            priority = p
            source.priority = loc
        }
        if c.current != nil {
            throw c.expected(second == nil ? "'@' or end of line" : "'+', '-', '@' or end of line")
        }
        let constraint = Constraint(
            id: id, first: first, relation: relation, multiplier: multiplier, second: second,
            constant: constant, priority: priority, origin: .explicit, source: source)
        try append(constraint, idLocation: idLocation, &c)
    }

    /// Validates a constraint and adds it to the system.
    mutating func append(_ constraint: Constraint, idLocation: SourceLocation? = nil, _ c: inout TokenCursor) throws(LayoutError) {
        guard var system else { throw c.error("'root' must be declared first", kind: .misplacedDeclaration) }
        if let id = constraint.id, let loc = idLocation {
            if ids[id] != nil {
                throw c.error("constraint ID '\(id)' is already used", kind: .duplicateName, at: loc)
            }
            ids[id] = loc
        }
        if let v = constraint.ruleViolation(items: system.items, rules: rules) {
            throw c.error(v.message, kind: v.kind, at: v.location)
        }
        self.system = nil
        system.constraints.append(constraint)
        self.system = system
    }

    mutating func finish(lineCount: Int) throws(LayoutError) -> ConstraintSystem {
        guard let system else {
            throw LayoutError(
                file: file, location: SourceLocation(line: 1, column: 1), kind: .misplacedDeclaration,
                message: "no 'root' declaration")
        }
        // An ID may not take another constraint's default name c<N>.
        for (index, constraint) in system.constraints.enumerated() {
            guard let id = constraint.id, let n = ConstraintSystem.defaultNameIndex(id),
                  n != index, n < system.constraints.count else { continue }
            throw LayoutError(
                file: file, location: ids[id] ?? SourceLocation(line: 1, column: 1), kind: .duplicateName,
                message: "constraint ID '\(id)' collides with the default name of constraint \(n + 1)")
        }
        return system
    }
}
