import Foundation
import Testing
@testable import LayoutModel

/// JSON input is checked as it is read (issue 18, item 3): each reproducer is a positioned
/// error, never a trap, a hang or a raw DecodingError dump.
@Suite struct JSONInputTests {
    /// A small system, one key a line where it matters for positions.
    static func system(items: String = Self.items, constraints: String = Self.constraints, extra: String = "") -> String {
        """
        {
          "direction": "ltr",
          "items": \(items),
          "constraints": \(constraints)\(extra)
        }
        """
    }

    static let items = """
        [
            {"name": "r", "frame": ["0", "0", "375", "667"]},
            {"name": "a", "parent": 0, "intrinsic": {"horizontal": "10", "vertical": null}},
            {"name": "b", "parent": 1}
          ]
        """

    static let constraints = """
        [
            {"first": {"item": 1, "attribute": "width"}, "relation": "<=", "constant": "10", "priority": "250", "origin": {"intrinsic": {}}},
            {"first": {"item": 1, "attribute": "width"}, "relation": ">=", "constant": "10", "priority": "750", "origin": {"intrinsic": {}}},
            {"first": {"item": 2, "attribute": "left"}, "relation": "==", "second": {"item": 1, "attribute": "left"}, "constant": 8}
          ]
        """

    func read(_ text: String, rules: ValidationRules = .runtime) throws(LayoutError) -> UpdateSequence {
        try UpdateSequence(json: text, file: "s.json", rules: rules)
    }

    func readError(_ text: String, rules: ValidationRules = .runtime) -> LayoutError? {
        do {
            _ = try read(text, rules: rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func handWrittenSystemReadsWithDefaults() throws {
        let s = try read(Self.system()).initial
        #expect(s.items.map(\.name) == ["r", "a", "b"])
        #expect(s.constraints.count == 3)
        #expect(s.constraints[2].constant == NumericLiteral(8) && s.constraints[2].priority.isRequired)
        #expect(s.canonicalText == "root r 375 667\nview a intrinsic 10 -\nview b in a\nb.left == a.left + 8\n")
    }

    @Test func printedSystemsReadBack() throws {
        for (name, text) in try seedFiles() {
            let system = try LayoutParser.parse(text, file: name)
            let json = try system.jsonText()
            let back = try ConstraintSystem(json: json, file: name + ".json")
            #expect(back == system, "\(name)")
            // CRLF JSON reads the same.
            #expect(try ConstraintSystem(json: json.replacingOccurrences(of: "\n", with: "\r\n")) == system)
        }
    }

    /// Where `anchor` first occurs in `text` (after `after`, when given): the expected error
    /// position, in the parser's own line model.
    static func location(of anchor: String, after: String? = nil, in text: String) -> LayoutModel.SourceLocation {
        var searchStart = text.startIndex
        if let after, let r = text.range(of: after) { searchStart = r.upperBound }
        if anchor.isEmpty { return LayoutModel.SourceLocation(line: 1, column: 1) }
        guard let r = text.range(of: anchor, range: searchStart..<text.endIndex) else { return .unknown }
        let before = text[..<r.lowerBound]
        let lines = SourceLines.split(String(before))
        return LayoutModel.SourceLocation(line: lines.count, column: (lines.last?.unicodeScalars.count ?? 0) + 1)
    }

    static let oneRoot = #"[{"name": "r", "frame": ["0", "0", "1", "1"]}"#
    static func update(_ step: String) -> String { system(extra: ",\n  \"updates\": [[\(step)]]") }

    /// (JSON, the text the error points at (nil: no position), kind, message fragment)
    static let reproducers: [(String, String?, LayoutError.Kind, String)] = [
        (system(items: "[]"), "[]", .malformedSystem, "items: a system has at least its root"),
        (system(items: #"[{"name": "r", "frame": ["375", "667"]}]"#, constraints: "[]"), #"["375""#, .malformedSystem, "items[0].frame"),
        (system(items: #"[{"name": "r", "frame": ["0", "0", "1", "1"], "parent": 0}]"#, constraints: "[]"), "0}", .malformedSystem, "items[0].parent: the root"),
        (system(items: oneRoot + #", {"name": "a", "parent": 2}, {"name": "b", "parent": 1}]"#, constraints: "[]"), "2}", .undeclaredName, "items[1].parent"),
        (system(items: oneRoot + #", {"name": "a", "parent": 1}]"#, constraints: "[]"), "1}]", .undeclaredName, "items[1].parent"),
        (system(items: oneRoot + #", {"name": "a"}]"#, constraints: "[]"), #"{"name": "a"}"#, .undeclaredName, "no parent"),
        (system(items: oneRoot + #", {"name": "r", "parent": 0}]"#, constraints: "[]"), #""r", "parent""#, .duplicateName, "items[1].name"),
        (system(constraints: #"[{"first": {"item": 7, "attribute": "width"}, "relation": "==", "constant": "1"}]"#), #"7, "attribute""#, .undeclaredName, "constraints[0].first.item"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "==", "constant": 1e999}]"#), "1e999", .numberOutOfRange, "out of Double's range"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "==", "constant": -1e-999}]"#), "-1e-999", .numberOutOfRange, "out of Double's range"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "==", "constant": "inf"}]"#), #""inf""#, .malformedSystem, "not a decimal literal"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "==", "constant": "1e999"}]"#), #""1e999""#, .numberOutOfRange, "constraints[0].constant"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "==", "priority": "0"}]"#), #""0"}]"#, .v5OutOfRange, "constraints[0].priority: V5"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "left"}, "relation": "==", "constant": "5"}]"#), #""left""#, .v2PositionToConstant, "constraints[0].first.attribute: V2"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}}]"#), #"{"first""#, .malformedSystem, "missing key 'relation'"),
        (system(constraints: #"[{"first": {"item": "a", "attribute": "width"}, "relation": "=="}]"#), #""a", "attr"#, .malformedSystem, "constraints[0].first.item"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "wide"}, "relation": "=="}]"#), #""wide""#, .malformedSystem, "constraints[0].first.attribute"),
        ("{\n  \"items\": []\n}", "{", .malformedSystem, "missing key 'direction'"),
        (system(items: oneRoot + #", {"name": "a", "parent": 0, "intrinsic": {"horizontal": "10", "vertical": null}}]"#, constraints: "[]"),
         nil, .malformedSystem, "items[1]: view 'a' has an intrinsic width"),
        (system(constraints: #"[{"first": {"item": 1, "attribute": "width"}, "relation": "<=", "constant": "11", "priority": "250", "origin": {"intrinsic": {}}}]"#),
         #"1, "attribute": "width"}, "relation": "<=", "constant": "11""#, .malformedSystem, "marked intrinsic"),
        (update(#"{"step": "setConstant", "constraint": "c9", "constant": "1"}"#), #""c9""#, .undeclaredName, "no constraint named 'c9'"),
        (update(#"{"step": "setPriority", "constraint": "c1", "priority": "1000"}"#), #""1000""#, .invalidUpdate, "may not move to 1000"),
        (update(#"{"step": "removeConstraint", "constraint": "c1"}"#), #""c1""#, .invalidUpdate, "hugging"),
        (update(#"{"step": "jump"}"#), #""jump""#, .malformedSystem, "updates[0][0].step"),
        (update(#"{"step": "setRootSize", "width": "1"}"#), #"{"step": "setRootSize""#, .malformedSystem, "missing key 'height'"),
        (update(#"{"step": "addConstraint", "constraint": {"first": {"item": "zz", "attribute": "width"}, "relation": "=="}}"#), #""zz""#, .undeclaredName, "undeclared item 'zz'"),
        (update(#"{"step": "addConstraint", "constraint": {"first": {"item": "a", "attribute": "width"}, "relation": "==", "second": {"item": "b", "attribute": "top"}}}"#),
         #""top""#, .v1SizeWithPosition, "V1"),
        (update(#"{"step": "addView", "view": {"name": "a"}}"#), #""a"}"#, .duplicateName, "already declared"),
        ("{\"direction\": \"ltr\",\r\n \"items\": [}", "}", .syntax, "expected a JSON value"),
        ("{\"direction\": \"ltr\", \"direction\": \"rtl\"}", #""direction": "rtl""#, .syntax, "duplicate key"),
        ("{} extra", "extra", .syntax, "after the JSON value"),
        ("", "", .syntax, "expected a JSON value"),
        ("\u{FEFF}{\"direction\": 5}", "5", .malformedSystem, "direction"),
        ("{\"a\": \"\u{1}\"}", "\u{1}", .syntax, "control character"),
    ]

    @Test(arguments: 0..<reproducers.count)
    func reproducer(index: Int) throws {
        let (text, anchor, kind, fragment) = Self.reproducers[index]
        let error = try #require(readError(text), "expected an error for \(text)")
        let expected = anchor.map { Self.location(of: $0, after: $0 == "}" ? "[" : nil, in: text) } ?? .unknown
        #expect(error.location == expected, "\(error)")
        #expect(error.kind == kind, "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
        #expect(!error.description.contains("DecodingError") && !error.description.contains("CodingKeys"), "\(error)")
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(readError(deep))
        #expect(error.kind == .syntax && error.location == SourceLocation(line: 1, column: 65))
    }

    @Test func guideRulesApplyToJSON() throws {
        let text = Self.system(constraints: #"[{"first": {"item": 2, "attribute": "left"}, "relation": "==", "multiplier": "2", "second": {"item": 1, "attribute": "left"}}]"#)
            .replacingOccurrences(of: #", "intrinsic": {"horizontal": "10", "vertical": null}"#, with: "")
        #expect(throws: Never.self) { try read(text) }
        let error = try #require(readError(text, rules: .guide))
        #expect(error.kind == .v6MultiplierOnPosition)
        #expect(error.message.hasPrefix("constraints[0].multiplier: V6"))
    }

    /// Nothing gets a malformed system out of JSON, not even through JSONDecoder directly.
    @Test func decoderRejectsMalformedSystems() {
        for text in [Self.system(items: "[]"), Self.system(items: #"[{"name": "r", "frame": ["0", "0", "1", "1"], "parent": 0}]"#, constraints: "[]")] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(ConstraintSystem.self, from: Data(text.utf8)) }
        }
    }

    @Test func sequencesRoundTripThroughJSON() throws {
        let text = SequenceTests.header + "set c3 constant 40\nset title intrinsic - 20\nlayout\nview extra in card\nextra.top == card.top + 4\nremove view badge\n"
        let sequence = try parseSequence(text)
        let json = try sequence.jsonText()
        #expect(json.contains("\"updates\""))
        #expect(try read(json) == sequence)
        // A one-pass sequence is its system's JSON, with no `updates`.
        #expect(try UpdateSequence(sequence.initial).jsonText() == sequence.initial.jsonText())
        #expect(!(try sequence.initial.jsonText()).contains("updates"))
        // A system reader refuses a sequence, at its updates.
        #expect(throws: LayoutError.self) { try ConstraintSystem(json: json) }
    }
}
