import BackendContract
import ExactArithmetic
import Foundation
import LayoutModel

/// The version of the JSON-lines protocol this LayoutBench speaks (docs/outside-solvers.md).
public let outsideSolverProtocolVersion = 1

/// The adapter's first line: who it is and what it can do.
public struct AdapterHello: Sendable, Hashable, Decodable {
    public var type: String
    public var `protocol`: Int
    public var name: String
    /// The solver library's version.
    public var version: String
    public var capabilities: DeclaredCapabilities
}

/// Capabilities as the hello spells them.
public struct DeclaredCapabilities: Sendable, Hashable, Decodable {
    public struct Priorities: Sendable, Hashable, Decodable {
        public struct Weight: Sendable, Hashable, Decodable {
            public var form: String
            public var scale: String?
        }
        /// `lexicographic` or `weighted`.
        public var model: String
        public var weight: Weight?
    }

    public struct Reports: Sendable, Hashable, Decodable {
        public var values: Bool?
        public var rejected: Bool?
        public var conflict: Bool?
        public var ambiguity: Bool?
        public var objective: Bool?
        public var exact: Bool?
        /// The adapter returns the library's warnings and criticals of each request in `log`.
        public var log: Bool?
    }

    public var whole: Bool?
    public var steps: Bool?
    public var incremental: Bool?
    /// `rows` and/or `constraints`.
    public var input: [String]?
    /// Which rows the adapter can hold, when not every row: `gtk-attributes` (GtkRowMapping).
    public var rowForm: String?
    public var priorities: Priorities
    public var reports: Reports
    /// The rounding of the values (GTK: whole pixels, `{"unit": "1", ...}`); absent when exact or Double.
    public var rounding: Rounding?

    enum CodingKeys: String, CodingKey {
        case whole, steps, incremental, input, priorities, reports, rounding
        case rowForm = "row_form"
    }

    public struct Rounding: Sendable, Hashable, Decodable {
        /// The unit values are rounded to, as a decimal.
        public var unit: String
        /// How positions and sizes are rounded (informative: `floor`, `ceil`, `nearest`).
        public var position: String?
        public var size: String?
    }

    /// The capabilities the judge reads; nil with a reason when the declaration makes no sense.
    public func resolved() -> Result<BackendCapabilities, AdapterFailure> {
        let model: BackendCapabilities.PriorityModel
        switch priorities.model {
        case "lexicographic":
            model = .lexicographic
        case "weighted":
            guard let weight = priorities.weight, weight.form == "linear",
                  let scale = weight.scale.flatMap({ NumericLiteral(parsing: $0) }), !scale.isNegative
            else { return .failure(.protocolError("a weighted priority model needs weight {form: linear, scale: DECIMAL}")) }
            model = .weighted(.linear(scale: scale))
        default:
            return .failure(.protocolError("unknown priority model '\(priorities.model)'"))
        }
        let input = self.input ?? ["rows"]
        guard input.contains("rows") || input.contains("constraints") else {
            return .failure(.protocolError("input must name rows or constraints"))
        }
        var unit: Double?
        if let rounding {
            guard let value = Double(rounding.unit), value.isFinite, value > 0 else {
                return .failure(.protocolError("rounding.unit must be a positive decimal"))
            }
            unit = value
        }
        return .success(BackendCapabilities(
            priorities: model,
            reports: BackendCapabilities.Reports(
                values: reports.values ?? true, broken: reports.rejected ?? false, conflict: reports.conflict ?? false,
                ambiguity: reports.ambiguity ?? false, objective: reports.objective ?? false,
                exactValues: reports.exact ?? false),
            wholeSystems: whole ?? true, updateSteps: steps ?? false, roundingUnit: unit))
    }

    public var takesRows: Bool { (input ?? ["rows"]).contains("rows") }
}

/// A number in a reply: a JSON number, or a string holding a decimal or `p/q`.
enum ReplyNumber: Sendable, Hashable, Decodable {
    case number(Double)
    case text(String)

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) { self = .number(d); return }
        self = .text(try c.decode(String.self))
    }

    /// The exact value: a number's Double exactly, a string's decimal or fraction exactly.
    var exact: Rational? {
        switch self {
        case .number(let d): return Rational(exactly: d)
        case .text(let s): return ExactText.parse(s)
        }
    }

    var isText: Bool { if case .text = self { return true } else { return false } }
}

/// Any reply line. `type` says which fields matter: `result` (status, values, rejected, and
/// optionally conflict, ambiguous, objective), `ok`, `error` (message), `unsupported` (reason).
struct AdapterReply: Decodable, IdentifiedReply {
    var type: String
    var id: Int?
    var status: String?
    var values: [ReplyNumber]?
    var rejected: [Int]?
    var conflict: [Int]?
    var ambiguous: [Int]?
    var objective: [ReplyNumber]?
    var solverNanoseconds: Int64?
    var message: String?
    var reason: String?
    /// What the solver library logged (warnings, criticals) while answering: a finding.
    var log: [String]?

    enum CodingKeys: String, CodingKey {
        case type, id, status, values, rejected, conflict, ambiguous, objective, message, reason, log
        case solverNanoseconds = "solver_ns"
    }
}

/// Why an adapter gave no answer: each becomes a crash finding against its solver.
public enum AdapterFailure: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotStart(String)
    case died(String)
    case hung(Duration)
    case garbage(String)
    case protocolError(String)
    case adapterError(String)
    /// The solver library logged warnings or criticals while answering (GTK's g_log).
    case logged([String])

    public var description: String {
        switch self {
        case .cannotStart(let why): return "the adapter could not start: \(why)"
        case .died(let how): return "the adapter died: \(how)"
        case .hung(let limit): return "the adapter hung: no answer within \(limit.inSeconds) s (killed; a fresh one takes the next request)"
        case .garbage(let line): return "the adapter sent garbage: \(line)"
        case .protocolError(let what): return "protocol error: \(what)"
        case .adapterError(let message): return "the adapter reported an error: \(message)"
        case .logged(let lines): return "the solver logged while answering: \(lines.prefix(5).joined(separator: "; "))"
        }
    }
}

/// Exact numbers as protocol text.
public enum ExactText {
    /// A rational as an exact decimal when it has one (denominator 2^a·5^b, as every lowered
    /// coefficient of a `.layout` file has), else as `p/q`.
    public static func decimal(_ value: Rational) -> String {
        if value.isInteger { return value.description }
        var scaled = value
        var digits = 0
        let ten = Rational(10)
        while !scaled.isInteger {
            digits += 1
            if digits > 60 { return value.description }
            scaled = scaled * ten
        }
        var text = scaled.magnitude.description
        if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
        let point = text.index(text.endIndex, offsetBy: -digits)
        return (value.sign < 0 ? "-" : "") + text[..<point] + "." + text[point...]
    }

    /// Reads `p`, `p/q` or a decimal literal (`-12.375`, `1e-3`), exactly.
    public static func parse(_ text: String) -> Rational? {
        if let r = Rational(text) { return r }
        guard let literal = NumericLiteral(parsing: text) else { return nil }
        return Rational(literal: literal)
    }
}

/// Request lines.
enum AdapterRequest {
    static func row(_ row: LinearRow<Rational>, priority: Priority) -> [String: Any] {
        [
            "terms": row.terms.map { [$0.variable, ExactText.decimal($0.coefficient)] as [Any] },
            "constant": ExactText.decimal(row.constant),
            "relation": relationText(row.relation),
            "priority": priority.value.description,
        ]
    }

    static func relationText(_ relation: Relation) -> String {
        switch relation {
        case .equal: return "=="
        case .lessThanOrEqual: return "<="
        case .greaterThanOrEqual: return ">="
        }
    }

    /// A whole system as lowered rows, in constraint order.
    static func solveRows(_ lowered: LinearSystem<Rational>) -> [String: Any] {
        [
            "type": "solve", "form": "rows", "variables": lowered.variableCount,
            "rows": lowered.rows.map { row(in: lowered, $0) },
        ]
    }

    static func row(in lowered: LinearSystem<Rational>, _ r: LinearRow<Rational>) -> [String: Any] {
        row(r, priority: r.level == 0 ? .required : lowered.levels[r.level - 1])
    }

    /// A whole system at the constraint level, for adapters that constrain attributes (GTK):
    /// the items (index 0 the root, with its frame), and each constraint as written. Values
    /// come back by variable, 4 × (item − 1) + component (x, y, w, h), in root space.
    static func solveConstraints(_ system: ConstraintSystem) -> [String: Any] {
        func literal(_ n: NumericLiteral) -> String { n.description }
        let items: [[String: Any]] = system.items.map { item in
            var entry: [String: Any] = [
                "name": item.name,
                "intrinsic": [item.intrinsic.horizontal.map { literal($0) as Any } ?? NSNull(),
                              item.intrinsic.vertical.map { literal($0) as Any } ?? NSNull()],
                "hugging": [literal(item.hugging.horizontal.value), literal(item.hugging.vertical.value)],
                "resistance": [literal(item.resistance.horizontal.value), literal(item.resistance.vertical.value)],
                "margins": [item.margins.top, item.margins.left, item.margins.bottom, item.margins.right].map(literal),
                "baselines": item.baselines.map { [literal($0.first), literal($0.last)] as Any } ?? NSNull(),
            ]
            entry["parent"] = item.parent ?? NSNull()
            if let frame = item.frame { entry["frame"] = frame.map(literal) }
            return entry
        }
        let constraints: [[String: Any]] = system.constraints.enumerated().map { index, c in
            [
                "name": system.constraintName(index),
                "first": ["item": c.first.item, "attribute": c.first.attribute.rawValue] as [String: Any],
                "relation": relationText(c.relation),
                "multiplier": literal(c.multiplier),
                "second": c.second.map { ["item": $0.item, "attribute": $0.attribute.rawValue] as Any } ?? NSNull(),
                "constant": literal(c.constant),
                "priority": literal(c.priority.value),
                "origin": c.origin == .intrinsic ? "intrinsic" : (c.origin == .visualFormat ? "vfl" : "explicit"),
            ]
        }
        return [
            "type": "solve", "form": "constraints", "variables": system.variableCount,
            "direction": system.direction == .rightToLeft ? "rtl" : "ltr",
            "items": items, "constraints": constraints,
        ]
    }

    static func encode(_ object: [String: Any]) throws(AdapterFailure) -> Data {
        do {
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        } catch {
            throw .protocolError("cannot encode a request: \(error)")
        }
    }
}
