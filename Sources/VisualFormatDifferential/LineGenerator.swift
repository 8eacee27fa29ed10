import Generator

/// Random VFL lines as text, from the project's seeded generator: the same seed gives the
/// same lines.
///
/// Most lines follow Apple's grammar (orientation, `|`, flush, standard, numeric and
/// predicate connections with several predicates and priorities, view predicates with
/// relations, numbers, other views and priorities); a few use a construct only one parser
/// knows (GTK's multipliers, `.attribute` and strength names; LayoutBench's named priorities
/// and `align`; negative and decimal numbers; a view name with an underscore); about one in
/// ten is deliberately broken by a small edit of a valid line or is one of the classic
/// mistakes.
public struct LineGenerator {
    private var random: SeededGenerator

    public init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    public mutating func next() -> String {
        let line = valid()
        return random.chance(0.1) ? broken(line) : line
    }

    private mutating func view() -> String {
        random.chance(0.05) ? "top_bar" : random.element(of: ["a", "b", "c", "d"])
    }

    private mutating func number(allowNegative: Bool) -> String {
        let roll = random.unitInterval()
        if roll < 0.05 { return "\(random.int(in: 0...99)).5" }
        if allowNegative && roll < 0.08 { return "-\(random.int(in: 1...20))" }
        return String(random.element(of: [0, 0, 1, 4, 8, 10, 12, 16, 20, 24, 44, 50, 70, 100, 120, 200]))
    }

    private mutating func priority() -> String {
        let roll = random.unitInterval()
        if roll < 0.05 { return "@required" }
        if roll < 0.09 { return "@" + random.element(of: ["high", "low", "fitting"]) }
        if roll < 0.12 { return "@" + random.element(of: ["weak", "medium", "strong"]) }
        if roll < 0.15 { return "@750.5" }
        return "@" + String(random.element(of: [1, 20, 249, 250, 251, 500, 749, 750, 999, 1000]))
    }

    private mutating func relation() -> String {
        random.element(of: ["", "==", ">=", "<=", ">=", "<="])
    }

    /// A predicate of a view (`allowViews`) or of a connection.
    private mutating func predicate(allowViews: Bool) -> String {
        var text = relation()
        if allowViews && random.chance(0.35) {
            text += view()
            if random.chance(0.06) { text += "*" + random.element(of: ["2", "0.5"]) }
            if random.chance(0.03) { text += "+" + random.element(of: ["5", "10"]) }
            if random.chance(0.03) { text += ".height" }
        } else {
            text += number(allowNegative: !allowViews)
        }
        if random.chance(0.3) { text += priority() }
        return text
    }

    private mutating func predicates(allowViews: Bool) -> String {
        let count = random.chance(0.7) ? 1 : random.int(in: 2...3)
        return (0..<count).map { _ in predicate(allowViews: allowViews) }.joined(separator: ",")
    }

    private mutating func connection() -> String {
        let roll = random.unitInterval()
        if roll < 0.15 { return "" }
        if roll < 0.45 { return "-" }
        if roll < 0.65 { return "-" + number(allowNegative: false) + "-" }
        return "-(" + predicates(allowViews: false) + ")-"
    }

    private mutating func valid() -> String {
        var text = random.element(of: ["", "H:", "H:", "V:", "V:"])
        let leading = random.chance(0.5), trailing = random.chance(0.5)
        if leading { text += "|" + connection() }
        let count = random.int(in: 1...4)
        for index in 0..<count {
            if index > 0 { text += connection() }
            text += "[" + view()
            if random.chance(0.4) { text += "(" + predicates(allowViews: true) + ")" }
            text += "]"
        }
        if trailing { text += connection() + "|" }
        if random.chance(0.03) {
            text += " align " + (text.hasPrefix("V:") ? random.element(of: ["leading", "centerX"]) : random.element(of: ["top", "centerY"]))
        }
        return text
    }

    /// A small edit of `line`, or one of the classic mistakes.
    private mutating func broken(_ line: String) -> String {
        var characters = Array(line)
        switch random.int(in: 0...5) {
        case 0 where !characters.isEmpty:
            characters.remove(at: random.index(below: characters.count))
        case 1:
            let alphabet = Array("[]()|-@,=<>:HV0123456789abxz .*")
            characters.insert(random.element(of: alphabet), at: random.int(in: 0...characters.count))
        case 2 where characters.count > 1:
            let i = random.index(below: characters.count - 1)
            characters.swapAt(i, i + 1)
        case 3 where !characters.isEmpty:
            let start = random.index(below: characters.count)
            let end = random.int(in: start...min(characters.count - 1, start + 4))
            characters.insert(contentsOf: characters[start...end], at: end + 1)
        default:
            return random.element(of: [
                "||", "|-|", "-[a]", "[a]-", "[a]--[b]", "[1a]", "[a(==)]", "[zz]", "[a](50)", "H:[a]-(>=)-[b]",
                "[a(>=50", "[a]-[b", "|[a]|[b]", "X:[a]", "[a]-8[b]", "[a(@750)]", "H:[a]|-[b]", "[a]-(a)-[b]",
                "", "H:",
            ])
        }
        return String(characters)
    }
}
