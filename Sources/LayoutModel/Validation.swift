/// Which validation rules apply (spec §3).
public enum ValidationRules: String, Sendable, Hashable, CaseIterable, Codable {
    /// V1–V5: what UIKit enforces at run time.
    case runtime
    /// V1–V6: Apple's guide, which also asks position attributes to take multiplier 1.
    case guide
}

/// Where a value sits in a system's JSON form: `items[2].parent`, `constraints[4].priority`.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public static func item(_ index: Int, _ keys: String...) -> FieldPath {
        FieldPath([.key("items"), .index(index)] + keys.map(Component.key))
    }

    public static func constraint(_ index: Int, _ keys: [String] = []) -> FieldPath {
        FieldPath([.key("constraints"), .index(index)] + keys.map(Component.key))
    }

    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key): out += out.isEmpty ? key : ".\(key)"
            case .index(let index): out += "[\(index)]"
            }
        }
        return out
    }
}

/// A broken validation rule, found on a system that was not read from text (or re-checked).
public struct ValidationIssue: Sendable, Hashable {
    public var constraintIndex: Int?
    public var kind: LayoutError.Kind
    public var message: String
    /// The position of the offending token when the system was read from text.
    public var location: SourceLocation?
    /// The offending value in the system's JSON form.
    public var path: FieldPath

    public init(constraintIndex: Int?, kind: LayoutError.Kind, message: String, location: SourceLocation? = nil, path: FieldPath = FieldPath()) {
        self.constraintIndex = constraintIndex
        self.kind = kind
        self.message = message
        self.location = location
        self.path = path
    }
}

/// A validation rule a constraint breaks, and the part of the constraint that breaks it.
public struct RuleViolation: Sendable, Hashable {
    /// The part of a constraint a rule points at.
    public enum Field: Sendable, Hashable {
        case firstAttribute, secondAttribute, multiplier, priority

        /// The field's keys in the constraint's JSON form.
        public var keys: [String] {
            switch self {
            case .firstAttribute: return ["first", "attribute"]
            case .secondAttribute: return ["second", "attribute"]
            case .multiplier: return ["multiplier"]
            case .priority: return ["priority"]
            }
        }
    }

    public var kind: LayoutError.Kind
    public var message: String
    public var field: Field
    /// The field's position when the constraint was read from text.
    public var location: SourceLocation?
}

extension Constraint {
    /// The first rule (V1…V6, in that order) this constraint breaks, with the position of the
    /// offending token when the constraint was read from text. Names are looked up in `items`.
    public func ruleViolation(items: [Item], rules: ValidationRules) -> RuleViolation? {
        let a = first.attribute
        func name(_ ref: AttributeReference) -> String {
            "\(items.indices.contains(ref.item) ? items[ref.item].name : "?").\(ref.attribute.rawValue)"
        }
        func violation(_ kind: LayoutError.Kind, _ message: String, _ field: RuleViolation.Field) -> RuleViolation {
            let location: SourceLocation?
            switch field {
            case .firstAttribute: location = source?.firstAttribute
            case .secondAttribute: location = source?.secondAttribute
            case .multiplier: location = source?.multiplier
            case .priority: location = source?.priority
            }
            return RuleViolation(kind: kind, message: message, field: field, location: location)
        }
        if let second {
            let b = second.attribute
            if a.isSize != b.isSize {
                return violation(.v1SizeWithPosition,
                        "V1: size attribute \(a.isSize ? name(first) : name(second)) cannot be related to position attribute \(a.isSize ? name(second) : name(first))",
                        .secondAttribute)
            }
            if !a.isSize && a.axis != b.axis {
                return violation(.v3MixedAxes,
                        "V3: \(a.axis == .horizontal ? "horizontal" : "vertical") position \(name(first)) cannot be related to \(b.axis == .horizontal ? "horizontal" : "vertical") position \(name(second))",
                        .secondAttribute)
            }
            if (a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional) {
                return violation(.v4MixedDirections,
                        "V4: \(name(first)) and \(name(second)) mix leading/trailing with left/right",
                        .secondAttribute)
            }
        } else if !a.isSize {
            return violation(.v2PositionToConstant,
                    "V2: position attribute \(name(first)) cannot be set to a constant alone",
                    .firstAttribute)
        }
        if second != nil && !a.isSize && multiplier.isZero {
            return violation(.v5OutOfRange, "V5: a position attribute cannot take multiplier 0", .multiplier)
        }
        if !priority.isInRange {
            return violation(.v5OutOfRange, "V5: priority \(priority) is not in (0, 1000]", .priority)
        }
        if rules == .guide && second != nil && !a.isSize && multiplier != .one {
            return violation(.v6MultiplierOnPosition,
                    "V6: position attribute \(name(first)) takes multiplier 1 (guide rules), not \(multiplier)",
                    .multiplier)
        }
        return nil
    }
}

extension ConstraintSystem {
    /// Every rule the system breaks: its structure (a root first, with a frame of four
    /// numbers and no parent; every view's parent an earlier item; constraints naming
    /// existing items), names and IDs, out-of-range numbers, priorities of hugging and
    /// compression resistance, and V1…V6 constraint by constraint. A system read by
    /// ``LayoutParser`` has none; generated, transformed and decoded systems are checked here.
    /// Each issue carries the path of the offending value in the JSON form.
    public func validate(rules: ValidationRules = .runtime) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        func structure(_ message: String, _ path: FieldPath, kind: LayoutError.Kind = .malformedSystem) {
            issues.append(ValidationIssue(constraintIndex: nil, kind: kind, message: message, path: path))
        }
        guard let root = items.first else {
            structure("a system has at least its root (items[0])", FieldPath([.key("items")]))
            return issues
        }
        if root.parent != nil { structure("the root (items[0]) has no parent", .item(0, "parent")) }
        if root.frame?.count != 4 {
            structure("the root's frame is [x, y, width, height]", root.frame == nil ? .item(0) : .item(0, "frame"))
        }
        var names = Set<String>()
        for (index, item) in items.enumerated() {
            if !names.insert(item.name).inserted || !Self.isValidName(item.name) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .duplicateName,
                    message: "item name '\(item.name)' is invalid or declared twice", path: .item(index, "name")))
            }
            if index > 0 && (item.parent.map { $0 < 0 || $0 >= index } ?? true) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .undeclaredName,
                    message: item.parent == nil ? "view '\(item.name)' has no parent (only items[0], the root, has none)"
                        : "view '\(item.name)' has a parent that is not declared before it",
                    path: .item(index, "parent")))
            }
            if index > 0 && item.frame != nil {
                structure("view '\(item.name)' has a frame; only the root's is given", .item(index, "frame"))
            }
            var numbers = [item.margins.top, item.margins.left, item.margins.bottom, item.margins.right]
            numbers += item.frame ?? []
            numbers += [item.intrinsic.horizontal, item.intrinsic.vertical].compactMap { $0 }
            if let b = item.baselines { numbers += [b.first, b.last] }
            if numbers.contains(where: { !$0.isRepresentable }) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .numberOutOfRange,
                    message: "view '\(item.name)' has a number out of Double's range", path: .item(index)))
            }
            let priorities = [("hugging", item.hugging.horizontal), ("hugging", item.hugging.vertical),
                              ("resistance", item.resistance.horizontal), ("resistance", item.resistance.vertical)]
            if index > 0, let (key, _) = priorities.first(where: { !$0.1.isInRange }) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .v5OutOfRange,
                    message: "V5: view '\(item.name)' has a hugging or resistance priority outside (0, 1000]",
                    path: .item(index, key)))
            }
        }
        var ids: [String: Int] = [:]
        for (index, c) in constraints.enumerated() {
            if !items.indices.contains(c.first.item) || c.second.map({ !items.indices.contains($0.item) }) == true {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: .undeclaredName, message: "constraint names an unknown item",
                    path: .constraint(index, [items.indices.contains(c.first.item) ? "second" : "first", "item"])))
                continue
            }
            if let id = c.id {
                if ids[id] != nil || !Self.isValidName(id)
                    || Self.defaultNameIndex(id).map({ $0 != index && $0 < constraints.count && constraints[$0].id == nil }) == true
                {
                    issues.append(ValidationIssue(
                        constraintIndex: index, kind: .duplicateName,
                        message: "constraint ID '\(id)' is invalid or collides with another constraint's name",
                        path: .constraint(index, ["id"])))
                }
                ids[id] = index
            }
            for (key, value) in [("multiplier", c.multiplier), ("constant", c.constant), ("priority", c.priority.value)]
            where !value.isRepresentable {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: .numberOutOfRange,
                    message: "constraint \(constraintName(index)) has a number out of Double's range",
                    path: .constraint(index, [key])))
                break
            }
            if let v = c.ruleViolation(items: items, rules: rules) {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: v.kind, message: v.message, location: v.location,
                    path: .constraint(index, v.field.keys)))
            }
        }
        return issues
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isIdentifierStart else { return false }
        return name.unicodeScalars.allSatisfy { $0.isIdentifierStart || $0.isDigit }
    }

    /// For a default name `c<N>` (N written without leading zeros), the index N−1.
    public static func defaultNameIndex(_ id: String) -> Int? {
        guard id.hasPrefix("c"), let n = Int(id.dropFirst()), n >= 1, "c\(n)" == id else { return nil }
        return n - 1
    }
}
