/// Which validation rules apply (spec §3).
public enum ValidationRules: String, Sendable, Hashable, CaseIterable, Codable {
    /// V1–V5: what UIKit enforces at run time.
    case runtime
    /// V1–V6: Apple's guide, which also asks position attributes to take multiplier 1.
    case guide
}

/// A broken validation rule, found on a system that was not read from text (or re-checked).
public struct ValidationIssue: Sendable, Hashable {
    public var constraintIndex: Int?
    public var kind: LayoutError.Kind
    public var message: String
    public var location: SourceLocation?
}

extension Constraint {
    /// The first rule (V1…V6, in that order) this constraint breaks, with the position of the
    /// offending token when the constraint was read from text. Names are looked up in `items`.
    public func ruleViolation(items: [Item], rules: ValidationRules)
        -> (kind: LayoutError.Kind, message: String, location: SourceLocation?)?
    {
        let a = first.attribute
        func name(_ ref: AttributeReference) -> String {
            "\(items.indices.contains(ref.item) ? items[ref.item].name : "?").\(ref.attribute.rawValue)"
        }
        if let second {
            let b = second.attribute
            if a.isSize != b.isSize {
                return (.v1SizeWithPosition,
                        "V1: size attribute \(a.isSize ? name(first) : name(second)) cannot be related to position attribute \(a.isSize ? name(second) : name(first))",
                        source?.secondAttribute)
            }
            if !a.isSize && a.axis != b.axis {
                return (.v3MixedAxes,
                        "V3: \(a.axis == .horizontal ? "horizontal" : "vertical") position \(name(first)) cannot be related to \(b.axis == .horizontal ? "horizontal" : "vertical") position \(name(second))",
                        source?.secondAttribute)
            }
            if (a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional) {
                return (.v4MixedDirections,
                        "V4: \(name(first)) and \(name(second)) mix leading/trailing with left/right",
                        source?.secondAttribute)
            }
        } else if !a.isSize {
            return (.v2PositionToConstant,
                    "V2: position attribute \(name(first)) cannot be set to a constant alone",
                    source?.firstAttribute)
        }
        if second != nil && !a.isSize && multiplier.isZero {
            return (.v5OutOfRange, "V5: a position attribute cannot take multiplier 0", source?.multiplier)
        }
        if !priority.isInRange {
            return (.v5OutOfRange, "V5: priority \(priority) is not in (0, 1000]", source?.priority)
        }
        if rules == .guide && second != nil && !a.isSize && multiplier != .one {
            return (.v6MultiplierOnPosition,
                    "V6: position attribute \(name(first)) takes multiplier 1 (guide rules), not \(multiplier)",
                    source?.multiplier)
        }
        return nil
    }
}

extension ConstraintSystem {
    /// Every rule the system breaks, constraint by constraint, plus out-of-range numbers,
    /// priorities of hugging and compression resistance, and malformed structure. A system
    /// read by ``LayoutParser`` has none; generated and transformed systems are checked here.
    public func validate(rules: ValidationRules = .runtime) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        var names = Set<String>()
        for (index, item) in items.enumerated() {
            if !names.insert(item.name).inserted || !Self.isValidName(item.name) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .duplicateName,
                    message: "item name '\(item.name)' is invalid or declared twice"))
            }
            if index > 0 && (item.parent.map { $0 < 0 || $0 >= index } ?? true) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .undeclaredName,
                    message: "view '\(item.name)' has a parent declared after it"))
            }
            var numbers = [item.margins.top, item.margins.left, item.margins.bottom, item.margins.right]
            numbers += item.frame ?? []
            numbers += [item.intrinsic.horizontal, item.intrinsic.vertical].compactMap { $0 }
            if let b = item.baselines { numbers += [b.first, b.last] }
            if numbers.contains(where: { !$0.isRepresentable }) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .numberOutOfRange,
                    message: "view '\(item.name)' has a number out of Double's range"))
            }
            let priorities = [item.hugging.horizontal, item.hugging.vertical,
                              item.resistance.horizontal, item.resistance.vertical]
            if index > 0 && priorities.contains(where: { !$0.isInRange }) {
                issues.append(ValidationIssue(
                    constraintIndex: nil, kind: .v5OutOfRange,
                    message: "V5: view '\(item.name)' has a hugging or resistance priority outside (0, 1000]"))
            }
        }
        var ids: [String: Int] = [:]
        for (index, c) in constraints.enumerated() {
            let refs = [c.first] + (c.second.map { [$0] } ?? [])
            if refs.contains(where: { !items.indices.contains($0.item) }) {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: .undeclaredName, message: "constraint names an unknown item"))
                continue
            }
            if let id = c.id {
                if ids[id] != nil || !Self.isValidName(id) || Self.defaultNameIndex(id).map({ $0 != index && $0 < constraints.count }) == true {
                    issues.append(ValidationIssue(
                        constraintIndex: index, kind: .duplicateName,
                        message: "constraint ID '\(id)' is invalid or collides with another constraint's name"))
                }
                ids[id] = index
            }
            if [c.multiplier, c.constant, c.priority.value].contains(where: { !$0.isRepresentable }) {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: .numberOutOfRange,
                    message: "constraint \(constraintName(index)) has a number out of Double's range"))
            }
            if let v = c.ruleViolation(items: items, rules: rules) {
                issues.append(ValidationIssue(
                    constraintIndex: index, kind: v.kind, message: v.message, location: v.location))
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
