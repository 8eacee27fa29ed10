import Foundation
import LayoutModel
import OutsideSolvers

/// One constraint of a VFL line in the form both parsers are compared in:
/// `target.attribute REL multiplier × source.attribute + constant @priority`.
///
/// Names are the views' names and `super` for the line's superview (`|`); attributes are
/// LayoutBench's names (GTK's `start`/`end` are `leading`/`trailing`, which they are in a
/// left-to-right layout).
public struct CanonicalConstraint: Sendable, Hashable, CustomStringConvertible {
    public enum Strength: Sendable, Hashable, CustomStringConvertible {
        case required
        /// An optional constraint's priority on Apple's scale (0, 1000).
        case optional(Double)

        public var description: String {
            switch self {
            case .required: return "required"
            case .optional(let p): return CanonicalConstraint.text(p)
            }
        }
    }

    public var target: String
    public var targetAttribute: String
    /// `==`, `<=` or `>=`.
    public var relation: String
    public var multiplier: Double
    public var source: String?
    public var sourceAttribute: String?
    public var constant: Double
    public var strength: Strength

    public init(target: String, targetAttribute: String, relation: String, multiplier: Double = 1, source: String?,
                sourceAttribute: String?, constant: Double, strength: Strength) {
        self.target = target
        self.targetAttribute = targetAttribute
        self.relation = relation
        self.multiplier = multiplier
        self.source = source
        self.sourceAttribute = sourceAttribute
        self.constant = constant
        self.strength = strength
    }

    public var description: String {
        var text = "\(target).\(targetAttribute) \(relation) "
        if let source, let sourceAttribute {
            if multiplier != 1 { text += "\(Self.text(multiplier)) × " }
            text += "\(source).\(sourceAttribute)"
            if constant != 0 { text += constant < 0 ? " - \(Self.text(-constant))" : " + \(Self.text(constant))" }
        } else {
            text += Self.text(constant)
        }
        return text + " @\(strength)"
    }

    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The linear meaning, independent of which side a term is written on:
    /// `Σ coefficient·symbol + constant REL 0`, scaled so that the first symbol (by name) has
    /// coefficient 1 (the relation flipped when that takes a negative factor).
    public struct Meaning: Sendable, Hashable {
        public var terms: [String: Double]
        public var constant: Double
        public var relation: String
        public var strength: Strength
    }

    public var meaning: Meaning {
        var terms: [String: Double] = [target + "." + targetAttribute: 1]
        if let source, let sourceAttribute {
            terms[source + "." + sourceAttribute, default: 0] -= multiplier
        }
        terms = terms.filter { $0.value != 0 }
        var constant = -self.constant
        var relation = self.relation
        if let lead = terms.keys.min(), let factor = terms[lead] {
            terms = terms.mapValues { Self.rounded($0 / abs(factor)) }
            constant /= abs(factor)
            if factor < 0 {
                terms = terms.mapValues { -$0 }
                constant = -constant
                relation = relation == "<=" ? ">=" : relation == ">=" ? "<=" : relation
            }
        }
        return Meaning(terms: terms, constant: Self.rounded(constant), relation: relation, strength: strength)
    }

    /// Twelve significant digits: `b/3` read back from GTK's double is the same number.
    static func rounded(_ value: Double) -> Double {
        guard value != 0, value.isFinite else { return value }
        let scale = pow10(11 - Int(floor(log10(abs(value)))))
        return (value * scale).rounded() / scale
    }

    private static func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(n) { result *= 10 }
        return n < 0 ? 1 / result : result
    }
}

extension CanonicalConstraint {
    /// LayoutBench's constraint in the canonical form, items named as in `system`.
    init(_ constraint: Constraint, in system: ConstraintSystem) {
        self.init(
            target: system.items[constraint.first.item].name, targetAttribute: constraint.first.attribute.rawValue,
            relation: constraint.relation.rawValue, multiplier: constraint.multiplier.doubleValue,
            source: constraint.second.map { system.items[$0.item].name },
            sourceAttribute: constraint.second?.attribute.rawValue,
            constant: constraint.constant.doubleValue,
            strength: constraint.priority.isRequired ? .required : .optional(constraint.priority.value.doubleValue))
    }

    /// GTK's constraint in the canonical form, its strength read the way the GTK adapter maps
    /// priorities (priority p < 1000 is strength p × 10⁶, so strength s is priority s / 10⁶)
    /// or, with `strengthIsPriority`, as the number written after `@` (which is what GTK's
    /// VFL parser makes of it: `@750` is strength 750).
    init(_ constraint: GtkVisualFormatConstraint, strengthIsPriority: Bool = false) {
        let strength: Strength
        if constraint.strength == GtkVisualFormatConstraint.requiredStrength {
            strength = .required
        } else {
            strength = .optional(Double(constraint.strength) / (strengthIsPriority ? 1 : Self.gtkStrengthScale))
        }
        self.init(
            target: constraint.target, targetAttribute: Self.layoutBenchAttribute(constraint.targetAttribute),
            relation: constraint.relation, multiplier: constraint.multiplier,
            source: constraint.source, sourceAttribute: constraint.source == nil ? nil : Self.layoutBenchAttribute(constraint.sourceAttribute),
            constant: constraint.constant, strength: strength)
    }

    /// The GTK adapter's priority scale (scripts/solvers/gtk/gtk_adapter.c, STRENGTH_SCALE).
    static let gtkStrengthScale = 1_000_000.0

    static func layoutBenchAttribute(_ gtk: String) -> String {
        switch gtk {
        case "start": return "leading"
        case "end": return "trailing"
        default: return gtk
        }
    }
}
