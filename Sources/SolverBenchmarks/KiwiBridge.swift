import FloatSimplex
import Foundation

/// The documents exchanged with kiwi's driver (`scripts/kiwi/driver.py`): what it is asked to
/// build and time, and what it answers.
///
/// Both directions go through `Codable`, so every number is written and read by one encoder:
/// a non-finite number is an encoding error here, not a file Python's `json` cannot read, and
/// a reply with a missing or mistyped field is an error naming the field, not a silent zero.
public enum KiwiBridge {
    /// A workload for the driver's default mode: the variables, the constraints in the order
    /// they are added (level 0 is required), the edit variables and the suggestions.
    public struct WorkloadDocument: Encodable, Sendable {
        public var name: String
        public var variables: Int
        public var levels: Int
        /// With a group size, every that many constraints go to a fresh solver (table cells).
        public var group: Int?
        /// kiwi strengths for levels 1…`levels`, where the workload copies a kiwi benchmark;
        /// absent, the driver spreads the levels over kiwi's range.
        public var strengths: [Double]?
        public var constraints: [Row]
        public var edits: [Edit]
        public var suggestions: [[Suggestion]]

        public init(_ workload: IncrementalWorkload) {
            name = workload.name
            variables = workload.variableCount
            levels = workload.levelCount
            group = workload.groupSize
            strengths = workload.kiwiStrengths
            constraints = workload.constraints.map(Row.init)
            edits = workload.edits.map { Edit(variable: $0.variable.index, number: $0.strength.level) }
            suggestions = workload.suggestions.map { step in step.map { Suggestion(variable: $0.variable.index, number: $0.value) } }
        }
    }

    /// An update sequence as row-level steps, for the driver's "sequence" mode: each pass's
    /// steps, then reading every value, timed per pass.
    public struct SequenceDocument: Encodable, Sendable {
        public var mode = "sequence"
        public var name: String
        public var passes: [[Step]]

        public init(name: String, rowSteps: [[IncrementalPassSolver.RowStep]]) {
            self.name = name
            passes = rowSteps.map { steps in steps.map(Step.init) }
        }
    }

    /// One constraint: `Σ coefficient × variable + constant REL 0` at a level.
    public struct Row: Encodable, Sendable {
        public var terms: [Term]
        public var constant: Double
        public var op: String
        public var level: Int

        init(_ constraint: LinearConstraint) {
            terms = constraint.terms.map { Term(variable: $0.variable.index, number: $0.coefficient) }
            constant = constraint.constant
            op = constraint.relation.rawValue
            level = constraint.strength.level
        }
    }

    /// `[variable, number]`: a pair, as the driver reads it (the index an integer, since it
    /// indexes a list there).
    public struct Pair<Number: Encodable & Sendable>: Encodable, Sendable {
        public var variable: Int
        public var number: Number

        public func encode(to encoder: any Encoder) throws {
            var pair = encoder.unkeyedContainer()
            try pair.encode(variable)
            try pair.encode(number)
        }
    }

    /// `[variable, coefficient]`.
    public typealias Term = Pair<Double>
    /// `[variable, level]`: an edit variable and its strength.
    public typealias Edit = Pair<Int>
    /// `[variable, value]`: one suggestion.
    public typealias Suggestion = Pair<Double>

    /// One row-level step of a pass: `{"op": "add", "key", "terms", "constant", "rel", "level"}`,
    /// `{"op": "remove", "key"}` or `{"op": "set", "key", "constant"}`.
    public struct Step: Encodable, Sendable {
        public var op: String
        public var key: Int
        public var terms: [Term]?
        public var constant: Double?
        public var rel: String?
        public var level: Int?

        init(_ step: IncrementalPassSolver.RowStep) {
            switch step {
            case .add(let key, let row):
                let encoded = Row(row)
                (op, self.key, terms, constant, rel, level) = ("add", key, encoded.terms, encoded.constant, encoded.op, encoded.level)
            case .remove(let key):
                (op, self.key) = ("remove", key)
            case .setConstant(let key, let constant):
                (op, self.key, self.constant) = ("set", key, constant)
            }
        }
    }

    /// What the driver answers (every field optional: each mode fills its own).
    public struct Reply: Decodable, Sendable {
        public var name: String?
        public var constraints: Int?
        /// Constraints added before the time limit (all of them unless `timeout`).
        public var added: Int?
        public var rejected: Int?
        /// The driver stopped at its time limit.
        public var timeout: Bool?
        public var addSeconds: Double?
        public var editSeconds: Double?
        public var suggestSeconds: Double?
        public var suggestions: Int?
        /// Every variable's value after the last step.
        public var values: [Double]?
        /// Sequence mode: seconds per pass.
        public var passSeconds: [Double]?

        enum CodingKeys: String, CodingKey {
            case name, constraints, added, rejected, timeout, suggestions, values
            case addSeconds = "add_seconds", editSeconds = "edit_seconds", suggestSeconds = "suggest_seconds"
            case passSeconds = "pass_seconds"
        }

        /// Whether the driver stopped at its time limit.
        public var timedOut: Bool { timeout == true }
    }

    /// `document` as the driver reads it.
    public static func encode(_ document: some Encodable) throws -> Data {
        try JSONEncoder().encode(document)
    }

    /// The driver's answer.
    public static func decodeReply(_ data: Data) throws -> Reply {
        try JSONDecoder().decode(Reply.self, from: data)
    }
}
