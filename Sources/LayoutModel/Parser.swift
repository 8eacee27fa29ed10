/// Reads `.layout` text (spec §1–§4, and the update sequences of §7) into a validated
/// ``ConstraintSystem`` or ``UpdateSequence``.
///
/// The parser stops at the first error, which carries the position of the offending
/// token; declaration, VFL, validation and step errors are all reported in file order.
public struct LayoutParser: Sendable {
    public var file: String
    public var rules: ValidationRules

    public init(file: String = "<input>", rules: ValidationRules = .runtime) {
        self.file = file
        self.rules = rules
    }

    /// Parses and validates a file of one system (one pass).
    public static func parse(_ text: String, file: String = "<input>", rules: ValidationRules = .runtime)
        throws(LayoutError) -> ConstraintSystem
    {
        try LayoutParser(file: file, rules: rules).parse(text)
    }

    /// Parses and validates a file that may go on with an update sequence.
    public static func parseSequence(_ text: String, file: String = "<input>", rules: ValidationRules = .runtime)
        throws(LayoutError) -> UpdateSequence
    {
        try LayoutParser(file: file, rules: rules).parseSequence(text)
    }

    /// Parses a file of one system. A file with several passes is rejected at the `layout`
    /// line that ends the first, rather than silently read as its first pass.
    public func parse(_ text: String) throws(LayoutError) -> ConstraintSystem {
        let state = try read(text)
        let sequence = try state.finish()
        if !sequence.updates.isEmpty, let end = state.passEnds.first {
            throw LayoutError(
                file: file, location: end, kind: .updateSequence,
                message: "an update sequence of \(sequence.passCount) passes ('layout' here ends the first); this reads one system")
        }
        return sequence.initial
    }

    public func parseSequence(_ text: String) throws(LayoutError) -> UpdateSequence {
        try read(text).finish()
    }

    private func read(_ text: String) throws(LayoutError) -> ParseState {
        var state = ParseState(file: file, rules: rules)
        var lineNumber = 0
        try SourceLines.forEachLine(of: text) { (line) throws(LayoutError) in
            lineNumber += 1
            let tokens = try Lexer(file: file).tokens(of: line, lineNumber: lineNumber)
            if tokens.isEmpty { return }
            var cursor = TokenCursor(tokens: tokens, file: file, lineNumber: lineNumber, lineLength: line.unicodeScalars.count)
            try state.parseLine(&cursor)
        }
        return state
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
    /// The system while its first pass is declared.
    var system: ConstraintSystem?
    var itemIndex: [Substring: ItemIndex] = [:]
    /// Explicit IDs and where they were written.
    var ids: [String: SourceLocation] = [:]
    /// From the first bare `layout` line on: the first pass's system, and the replay that
    /// checks and applies each later line as a step.
    var initial: ConstraintSystem?
    var replay: SequenceReplay?
    /// `updates[k]` holds the steps after the (k+1)-th bare `layout` line.
    var updates: [[UpdateStep]] = []
    /// Where each bare `layout` line is.
    var passEnds: [SourceLocation] = []

    /// True once `root` has been declared.
    var hasRoot: Bool { system != nil || replay != nil }

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
            case "layout": return second == nil && hasRoot ? try endPass(&c) : try parseName(&c)
            case "direction": return try parseDirection(&c)
            case "root": return try parseRoot(&c)
            case "view": return try parseView(&c)
            case "set": return try parseSet(&c)
            case "remove": return try parseRemove(&c)
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
        throw c.error("expected a declaration (layout, direction, root, view), a step (set, remove), a constraint or a VFL line, found \(first.quoted)", at: first.location)
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
        if hasRoot {
            throw c.error("'\(keyword?.text ?? "")' must come before 'root'", kind: .misplacedDeclaration, at: keyword?.location)
        }
    }

    mutating func declareName(_ t: Token, _ c: inout TokenCursor) throws(LayoutError) -> String {
        if let replay {
            try replay.checkNewItemName(t.text, at: t.location)
        } else if itemIndex[t.text] != nil {
            throw c.error("'\(t.text)' is already declared", kind: .duplicateName, at: t.location)
        }
        return String(t.text)
    }

    mutating func parseRoot(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        if hasRoot { throw c.error("a second 'root'; a file has exactly one", kind: .duplicateName, at: keyword?.location) }
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

    func requireRoot(_ c: inout TokenCursor, at loc: SourceLocation?) throws(LayoutError) {
        guard hasRoot else {
            throw c.error("'root' must be declared first", kind: .misplacedDeclaration, at: loc)
        }
    }

    /// An item of the system as it stands (`requireRoot` has passed).
    func item(_ index: ItemIndex) -> Item {
        replay?.current.items[index] ?? system?.items[index] ?? Item(name: "?", parent: nil)
    }

    mutating func lookUp(_ t: Token, _ c: inout TokenCursor) throws(LayoutError) -> ItemIndex {
        if let replay { return try replay.itemIndex(named: t.text, at: t.location) }
        guard let index = itemIndex[t.text] else {
            throw c.error("undeclared item '\(t.text)'", kind: .undeclaredName, at: t.location)
        }
        return index
    }

    mutating func parseView(_ c: inout TokenCursor) throws(LayoutError) {
        let keyword = c.next()
        try requireRoot(&c, at: keyword?.location)
        let nameToken = try c.expectIdentifier("the view's name")
        let viewName = try declareName(nameToken, &c)
        var item = Item(name: viewName, parent: 0)
        var parentLocation: SourceLocation?
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
                parentLocation = parentToken.location
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
        if replay != nil {
            let parentName = item.parent.flatMap { $0 == 0 ? nil : self.item($0).name }
            return try apply(UpdateStep(
                .addView(NewView(item, parentName: parentName)),
                source: StepSource(start: keyword?.location ?? nameToken.location, target: nameToken.location,
                                   values: parentLocation.map { [$0] } ?? [])))
        }
        guard var system else { return }
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
        try requireRoot(&c, at: c.location)
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

    /// Validates a constraint and adds it to the system (between passes: as a step).
    mutating func append(_ constraint: Constraint, idLocation: SourceLocation? = nil, _ c: inout TokenCursor) throws(LayoutError) {
        if replay != nil {
            // No copy of the current system may live while the replay changes it.
            let new = NewConstraint(constraint, in: replay!.current, idLocation: idLocation)
            return try apply(UpdateStep(.addConstraint(new), source: StepSource(start: c.tokens.first?.location ?? c.location)))
        }
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

    /// The file as a sequence, once every line has been read: the checks that need the whole
    /// file (IDs that take a later constraint's default name), and the trailing `layout`.
    func finish() throws(LayoutError) -> UpdateSequence {
        if let replay, let initial {
            try replay.checkDefaultNameCollisions()
            var updates = updates
            // A sequence ends with an implicit `layout`: an explicit last one adds no pass.
            if updates.last?.isEmpty == true { updates.removeLast() }
            return UpdateSequence(validatedInitial: initial, updates: updates)
        }
        guard let system else {
            throw LayoutError(
                file: file, location: SourceLocation(line: 1, column: 1), kind: .misplacedDeclaration,
                message: "no 'root' declaration")
        }
        // An ID may not take another constraint's default name c<N> (a constraint with an
        // explicit ID has no default name).
        for (index, constraint) in system.constraints.enumerated() {
            guard let id = constraint.id, let n = ConstraintSystem.defaultNameIndex(id),
                  n != index, n < system.constraints.count, system.constraints[n].id == nil else { continue }
            throw LayoutError(
                file: file, location: ids[id] ?? SourceLocation(line: 1, column: 1), kind: .duplicateName,
                message: "constraint ID '\(id)' collides with the default name of constraint \(n + 1)")
        }
        return UpdateSequence(system)
    }

    // MARK: Update sequences (spec §7)

    /// A bare `layout`: the end of a pass. The first one hands the system to a replay.
    mutating func endPass(_ c: inout TokenCursor) throws(LayoutError) {
        guard let keyword = c.next() else { return }
        if replay == nil, let system {
            initial = system
            self.system = nil
            replay = try SequenceReplay(validated: system, file: file, rules: rules, idLocations: ids)
        }
        updates.append([])
        passEnds.append(keyword.location)
    }

    /// Applies a step and records it in the current update.
    mutating func apply(_ step: UpdateStep) throws(LayoutError) {
        guard replay != nil, !updates.isEmpty else { return }
        try replay?.apply(step)
        updates[updates.count - 1].append(step)
    }

    func requireUpdates(_ keyword: Token, _ c: inout TokenCursor) throws(LayoutError) {
        guard replay != nil else {
            throw c.error(
                "'\(keyword.text)' changes the system between passes: it comes after a 'layout' line",
                kind: .misplacedDeclaration, at: keyword.location)
        }
    }

    /// `set ID constant C`, `set ID priority P`, `set ITEM intrinsic W H`, `set root W H`.
    mutating func parseSet(_ c: inout TokenCursor) throws(LayoutError) {
        guard let keyword = c.next() else { return }
        try requireUpdates(keyword, &c)
        let target = try c.expectIdentifier("a constraint's ID or default name, a view's name or 'root'")
        let name = String(target.text)
        var source = StepSource(start: keyword.location, target: target.location)
        let action: UpdateStep.Action
        if let t = c.current, t.isWord("constant") {
            c.index += 1
            let (value, location) = try c.number("the new constant")
            source.values = [location]
            action = .setConstant(constraint: name, constant: value)
        } else if let t = c.current, t.isWord("priority") {
            c.index += 1
            let (priority, location) = try c.priority()
            source.values = [location]
            action = .setPriority(constraint: name, priority: priority)
        } else if let t = c.current, t.isWord("intrinsic") {
            c.index += 1
            let widthLocation = c.location
            let width = try intrinsicMetric(&c)
            let heightLocation = c.location
            let height = try intrinsicMetric(&c)
            source.values = [widthLocation, heightLocation]
            action = .setIntrinsic(item: name, intrinsic: AxisPair(horizontal: width, vertical: height))
        } else if c.atNumber {
            // `root` is the keyword; the root's declared name is accepted too.
            guard name == "root" || name == item(0).name else {
                throw c.error(
                    "only the root's size is set with W H ('\(name)' is not the root); a view's size comes from its constraints and its intrinsic size (set \(name) intrinsic W H)",
                    kind: .invalidUpdate, at: target.location)
            }
            let (width, widthLocation) = try c.number("the root's width")
            let (height, heightLocation) = try c.number("the root's height")
            source.values = [widthLocation, heightLocation]
            action = .setRootSize(width: width, height: height)
        } else {
            throw c.expected("constant, priority, intrinsic, or the root's width and height")
        }
        try c.expectEnd()
        try apply(UpdateStep(action, source: source))
    }

    /// `remove ID` or `remove view NAME`.
    mutating func parseRemove(_ c: inout TokenCursor) throws(LayoutError) {
        guard let keyword = c.next() else { return }
        try requireUpdates(keyword, &c)
        let action: UpdateStep.Action
        let target: Token
        if let v = c.current, v.isWord("view"), let n = c.peek(1), n.kind == .identifier {
            // `remove view` alone removes a constraint with the ID `view`.
            c.index += 2
            target = n
            action = .removeView(String(n.text))
        } else {
            target = try c.expectIdentifier("a constraint's ID or default name, or 'view' and a view's name")
            action = .removeConstraint(String(target.text))
        }
        try c.expectEnd()
        try apply(UpdateStep(action, source: StepSource(start: keyword.location, target: target.location)))
    }
}
