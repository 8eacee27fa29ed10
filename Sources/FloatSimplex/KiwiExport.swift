extension IncrementalWorkload {
    /// The workload as JSON for `scripts/kiwi/driver.py`: variables, constraints (terms,
    /// constant, operator, level; level 0 is required), edit variables, suggestions, and
    /// kiwi strengths per level where the workload fixes them.
    public func kiwiJSON() -> String {
        var out = "{\"name\": \"\(name)\", \"variables\": \(variableCount), \"levels\": \(levelCount),\n"
        if let groupSize { out += "\"group\": \(groupSize),\n" }
        if let kiwiStrengths { out += "\"strengths\": [\(kiwiStrengths.map(number).joined(separator: ", "))],\n" }
        out += "\"constraints\": [\n"
        for (index, constraint) in constraints.enumerated() {
            let terms = constraint.terms.map { "[\($0.variable.index), \(number($0.coefficient))]" }.joined(separator: ", ")
            out += "{\"terms\": [\(terms)], \"constant\": \(number(constraint.constant)), \"op\": \"\(constraint.relation.rawValue)\", \"level\": \(constraint.strength.level)}"
            out += index + 1 < constraints.count ? ",\n" : "\n"
        }
        out += "],\n\"edits\": [\(edits.map { "[\($0.variable.index), \($0.strength.level)]" }.joined(separator: ", "))],\n"
        out += "\"suggestions\": [\n"
        for (index, step) in suggestions.enumerated() {
            out += "[" + step.map { "[\($0.variable.index), \(number($0.value))]" }.joined(separator: ", ") + "]"
            out += index + 1 < suggestions.count ? ",\n" : "\n"
        }
        out += "]}\n"
        return out
    }

    private func number(_ x: Double) -> String {
        abs(x) < 1e15 && x == Double(Int64(x)) ? String(Int64(x)) : "\(x)"
    }
}
