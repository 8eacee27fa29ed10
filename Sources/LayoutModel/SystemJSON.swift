import Foundation

// The JSON form of systems and sequences: the system's keys (`name`, `direction`, `items`,
// `constraints`) and, for a sequence of several passes, `updates`: one array of steps per
// `layout` line. Reading JSON is the one path from JSON to a system: the structure is checked
// as it is decoded, so a decoded system is valid by construction, and every error is
// positioned at the offending value (`file:line:column: path: message`).

extension ConstraintSystem {
    /// The keys of the JSON form (`rowScales` is not one); encoding is synthesized from them.
    enum CodingKeys: String, CodingKey {
        case name, direction, items, constraints
    }

    /// Decodes and checks a system (structure, names, numbers and the runtime rules V1–V5):
    /// a malformed one throws `DecodingError.dataCorrupted` whose coding path leads to the
    /// offending value, instead of becoming a system that traps or hangs whoever uses it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decodeIfPresent(String.self, forKey: .name),
            direction: try c.decode(LayoutDirection.self, forKey: .direction),
            items: try c.decode([Item].self, forKey: .items),
            constraints: try c.decode([Constraint].self, forKey: .constraints))
        if let issue = validate(rules: .runtime).first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + issue.path.codingKeys, debugDescription: issue.message,
                underlyingError: LayoutError(file: "", location: .unknown, kind: issue.kind, message: issue.message)))
        }
    }

    /// Reads a system from its JSON form. A sequence of several passes is rejected (read it
    /// with ``UpdateSequence/init(json:file:rules:)``).
    public init(json text: String, file: String = "<input>", rules: ValidationRules = .runtime) throws(LayoutError) {
        let sequence = try UpdateSequence(json: text, file: file, rules: rules)
        guard sequence.updates.isEmpty else {
            let positions = try JSONPositions.read(text, file: file)
            throw LayoutError(
                file: file, location: positions.location(of: [.key("updates")]), kind: .updateSequence,
                message: "an update sequence of \(sequence.passCount) passes; this reads one system")
        }
        self = sequence.initial
    }

    /// The JSON form, keys sorted and indented (what `layoutbench print --format json` writes).
    public func jsonText() throws -> String { try UpdateSequence(self).jsonText() }
}

/// A coding key for a path built from ``FieldPath``.
private struct PathKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = "Index \(intValue)"; self.intValue = intValue }
}

extension FieldPath {
    fileprivate var codingKeys: [any CodingKey] {
        components.map { component -> any CodingKey in
            switch component {
            case .key(let key): return PathKey(stringValue: key)
            case .index(let index): return PathKey(intValue: index)
            }
        }
    }

    /// The path a decoder's coding path describes (array positions as indices).
    init(codingPath: [any CodingKey]) {
        self.init(codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) })
    }
}

extension UpdateStep: Codable {
    private enum Kind: String, Codable {
        case setConstant, setIntrinsic, setPriority, setRootSize, removeConstraint, removeView, addView, addConstraint
    }

    private enum CodingKeys: String, CodingKey {
        case step, constraint, item, constant, intrinsic, priority, width, height, view
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(Kind.self, forKey: .step) {
        case .setConstant:
            action = .setConstant(constraint: try c.decode(String.self, forKey: .constraint), constant: try c.decode(NumericLiteral.self, forKey: .constant))
        case .setIntrinsic:
            action = .setIntrinsic(item: try c.decode(String.self, forKey: .item), intrinsic: try c.decode(AxisPair<NumericLiteral?>.self, forKey: .intrinsic))
        case .setPriority:
            action = .setPriority(constraint: try c.decode(String.self, forKey: .constraint), priority: try c.decode(Priority.self, forKey: .priority))
        case .setRootSize:
            action = .setRootSize(width: try c.decode(NumericLiteral.self, forKey: .width), height: try c.decode(NumericLiteral.self, forKey: .height))
        case .removeConstraint:
            action = .removeConstraint(try c.decode(String.self, forKey: .constraint))
        case .removeView:
            action = .removeView(try c.decode(String.self, forKey: .item))
        case .addView:
            action = .addView(try c.decode(NewView.self, forKey: .view))
        case .addConstraint:
            action = .addConstraint(try c.decode(NewConstraint.self, forKey: .constraint))
        }
        source = nil
    }

    /// One flat object: `step` (the kind), then the action's fields.
    public func encode(to encoder: any Encoder) throws {
        let (kind, fields): (Kind, KeyValuePairs<CodingKeys, any Encodable>) = switch action {
        case .setConstant(let name, let constant): (.setConstant, [.constraint: name, .constant: constant])
        case .setIntrinsic(let name, let size): (.setIntrinsic, [.item: name, .intrinsic: size])
        case .setPriority(let name, let priority): (.setPriority, [.constraint: name, .priority: priority])
        case .setRootSize(let width, let height): (.setRootSize, [.width: width, .height: height])
        case .removeConstraint(let name): (.removeConstraint, [.constraint: name])
        case .removeView(let name): (.removeView, [.item: name])
        case .addView(let view): (.addView, [.view: view])
        case .addConstraint(let constraint): (.addConstraint, [.constraint: constraint])
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .step)
        for (key, value) in fields { try c.encode(value, forKey: key) }
    }
}

extension UpdateSequence: Encodable {
    private enum CodingKeys: String, CodingKey {
        case updates
    }

    /// The system's JSON form, plus `updates` when there is more than one pass (so a
    /// one-pass sequence encodes exactly as its system).
    public func encode(to encoder: any Encoder) throws {
        try initial.encode(to: encoder)
        if !updates.isEmpty {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(updates, forKey: .updates)
        }
    }

    /// The JSON form, keys sorted and indented.
    public func jsonText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// What the decoder reads: the system and the steps, before the steps are checked.
    private struct Document: Decodable {
        var system: ConstraintSystem
        var updates: [[UpdateStep]]

        init(from decoder: any Decoder) throws {
            system = try ConstraintSystem(from: decoder)
            let c = try decoder.container(keyedBy: UpdateSequence.CodingKeys.self)
            updates = try c.decodeIfPresent([[UpdateStep]].self, forKey: .updates) ?? []
        }
    }

    /// Reads a system or a sequence in JSON form and checks it as thoroughly as text input
    /// (structure, V1–V5 or V1–V6, every step). Every error is a ``LayoutError`` positioned at
    /// the offending JSON value, its message led by the value's path (`items[0].parent: …`).
    public init(json text: String, file: String = "<input>", rules: ValidationRules = .runtime) throws(LayoutError) {
        let positions = try JSONPositions.read(text, file: file)
        func error(_ path: FieldPath, _ kind: LayoutError.Kind, _ message: String) -> LayoutError {
            LayoutError(
                file: file, location: positions.location(of: path.components), kind: kind,
                message: path.components.isEmpty ? message : "\(path): \(message)")
        }
        var document: Document
        do {
            let body = text.unicodeScalars.first == SourceLines.byteOrderMark ? String(text.unicodeScalars.dropFirst()) : text
            document = try JSONDecoder().decode(Document.self, from: Data(body.utf8))
        } catch let decoding as DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context):
                throw error(FieldPath(codingPath: context.codingPath), .malformedSystem, "missing key '\(key.stringValue)'")
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                throw error(FieldPath(codingPath: context.codingPath), .malformedSystem, context.debugDescription)
            case .dataCorrupted(let context):
                let kind = (context.underlyingError as? LayoutError)?.kind ?? .malformedSystem
                throw error(FieldPath(codingPath: context.codingPath), kind, context.debugDescription)
            @unknown default:
                throw error(FieldPath(), .malformedSystem, "\(decoding)")
            }
        } catch let other {
            throw error(FieldPath(), .malformedSystem, "\(other)")
        }
        if rules != .runtime, let issue = document.system.validate(rules: rules).first {
            throw error(issue.path, issue.kind, issue.message)
        }
        // Positions in the JSON text replace any a `.layout` file once gave, so that later
        // errors (intrinsic sizes, steps) point into this file.
        for index in document.system.constraints.indices {
            document.system.constraints[index].source = Self.constraintSource(positions, [.key("constraints"), .index(index)])
        }
        for (k, steps) in document.updates.enumerated() {
            for (s, step) in steps.enumerated() {
                document.updates[k][s] = Self.positioned(step, positions, [.key("updates"), .index(k), .index(s)])
            }
        }
        try self.init(initial: document.system, updates: document.updates, file: file, rules: rules)
    }

    private static func constraintSource(_ positions: JSONPositions, _ path: [FieldPath.Component]) -> ConstraintSource {
        func at(_ keys: String...) -> SourceLocation { positions.location(of: path + keys.map(FieldPath.Component.key)) }
        return ConstraintSource(
            first: at("first", "item"), firstAttribute: at("first", "attribute"), relation: at("relation"),
            multiplier: at("multiplier"), second: at("second", "item"), secondAttribute: at("second", "attribute"),
            constant: at("constant"), priority: at("priority"))
    }

    /// The step with the positions of its values in the JSON text.
    private static func positioned(_ step: UpdateStep, _ positions: JSONPositions, _ path: [FieldPath.Component]) -> UpdateStep {
        func at(_ keys: String...) -> SourceLocation { positions.location(of: path + keys.map(FieldPath.Component.key)) }
        let start = positions.location(of: path)
        var step = step
        switch step.action {
        case .setConstant: step.source = StepSource(start: start, target: at("constraint"), values: [at("constant")])
        case .setPriority: step.source = StepSource(start: start, target: at("constraint"), values: [at("priority")])
        case .setIntrinsic:
            step.source = StepSource(start: start, target: at("item"), values: [at("intrinsic", "horizontal"), at("intrinsic", "vertical")])
        case .setRootSize: step.source = StepSource(start: start, target: nil, values: [at("width"), at("height")])
        case .removeConstraint: step.source = StepSource(start: start, target: at("constraint"))
        case .removeView: step.source = StepSource(start: start, target: at("item"))
        case .addView: step.source = StepSource(start: start, target: at("view", "name"), values: [at("view", "parent")])
        case .addConstraint(var constraint):
            constraint.source = constraintSource(positions, path + [.key("constraint")])
            constraint.idLocation = constraint.id == nil ? nil : at("constraint", "id")
            step.action = .addConstraint(constraint)
            step.source = StepSource(start: start, target: at("constraint"))
        }
        return step
    }
}
