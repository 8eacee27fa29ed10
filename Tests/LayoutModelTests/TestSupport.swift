import LayoutModel

/// Parses text that must be valid; a failure is reported as an Issue by the caller's #require.
func parse(_ text: String, rules: ValidationRules = .runtime) throws -> ConstraintSystem {
    try LayoutParser.parse(text, file: "t.layout", rules: rules)
}

/// The error a text must produce.
func parseError(_ text: String, rules: ValidationRules = .runtime) -> LayoutError? {
    do {
        _ = try LayoutParser.parse(text, file: "t.layout", rules: rules)
        return nil
    } catch {
        return error
    }
}

/// A lowered row as a map from unknown name (`a.x`) to coefficient, plus the constant.
func loweredRow(_ system: ConstraintSystem, _ index: Int) -> (terms: [String: Double], constant: Double, relation: Relation) {
    let row: LinearRow<Double> = system.lower(system.constraints[index], index: index, level: 0)
    var terms: [String: Double] = [:]
    for term in row.terms {
        terms[system.unknownName(Unknown(variable: term.variable))] = term.coefficient
    }
    return (terms, row.constant, row.relation)
}

/// The directory of the repository (for the corpus).
let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/LayoutModelTests/TestSupport.swift
    return parts.joined(separator: "/")
}()

/// Parses a sequence that must be valid.
func parseSequence(_ text: String, rules: ValidationRules = .runtime) throws -> UpdateSequence {
    try LayoutParser.parseSequence(text, file: "t.layout", rules: rules)
}

/// The error a sequence text must produce.
func sequenceError(_ text: String) -> LayoutError? {
    do {
        _ = try LayoutParser.parseSequence(text, file: "t.layout")
        return nil
    } catch {
        return error
    }
}
