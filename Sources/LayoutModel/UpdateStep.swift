/// One change between two layout passes (spec §7): a line of an update sequence.
///
/// Steps name constraints and items as the text does — by ID, default name `c<N>` or item
/// name — not by position: positions shift as constraints and views come and go, names never
/// do (they are never reused). So a step means the same thing wherever a reducer moves or
/// drops the steps around it, and a step that no longer makes sense fails validation with a
/// message instead of silently touching another constraint.
///
/// Two steps are equal when their actions are; where they were written is not part of them.
public struct UpdateStep: Sendable, Hashable {
    /// What the step does.
    public enum Action: Sendable, Hashable {
        /// `set ID constant C`: NSLayoutConstraint.constant.
        case setConstant(constraint: String, constant: NumericLiteral)
        /// `set ITEM intrinsic W H`: a new intrinsic content size (nil for `-`, no metric).
        case setIntrinsic(item: String, intrinsic: AxisPair<NumericLiteral?>)
        /// `set ID priority P`: an optional constraint's new priority (still optional).
        case setPriority(constraint: String, priority: Priority)
        /// `set root W H`: the root's new width and height (its origin stays).
        case setRootSize(width: NumericLiteral, height: NumericLiteral)
        /// `remove ID`: a constraint, by ID or default name.
        case removeConstraint(String)
        /// `remove view NAME`: the view, its descendants and every constraint naming them.
        case removeView(String)
        /// A `view` line: a new view, declared at the end.
        case addView(NewView)
        /// A constraint line (or one constraint of a VFL line): appended at the end.
        case addConstraint(NewConstraint)
    }

    public var action: Action
    /// Where the step was written, for error messages; nil for steps built in code.
    public var source: StepSource?

    public init(_ action: Action, source: StepSource? = nil) {
        self.action = action
        self.source = source
    }

    public static func == (a: UpdateStep, b: UpdateStep) -> Bool { a.action == b.action }
    public func hash(into hasher: inout Hasher) { hasher.combine(action) }
}

/// Positions of a step's tokens: the step's first token, the name it acts on, and its values
/// in order (the constant, the priority, the width and height…).
public struct StepSource: Sendable, Hashable, Codable {
    public var start: SourceLocation
    public var target: SourceLocation?
    public var values: [SourceLocation]

    public init(start: SourceLocation, target: SourceLocation? = nil, values: [SourceLocation] = []) {
        self.start = start
        self.target = target
        self.values = values
    }

    /// Where the k-th value was written, or the target (or the start) when it was not.
    public func value(_ k: Int) -> SourceLocation {
        values.indices.contains(k) ? values[k] : target ?? start
    }
}

/// An item's attribute named by the item's name, as a step writes it.
public typealias NamedAttribute = ItemAttribute<String>

/// A view declared between passes: a `view` line, with its parent by name. Everything but
/// the parent is an ``Item``'s declaration (whose `parent` and `frame` stay nil); its fields
/// read through (`view.intrinsic`).
@dynamicMemberLookup
public struct NewView: Sendable, Hashable, Codable {
    /// The view as declared, without its parent.
    public var declaration: Item
    /// The parent's name; nil for the root.
    public var parent: String?

    public subscript<Field>(dynamicMember field: WritableKeyPath<Item, Field>) -> Field {
        get { declaration[keyPath: field] }
        set { declaration[keyPath: field] = newValue }
    }

    public init(
        name: String, parent: String? = nil,
        intrinsic: AxisPair<NumericLiteral?> = AxisPair(horizontal: nil, vertical: nil),
        hugging: AxisPair<Priority> = AxisPair(horizontal: .low, vertical: .low),
        resistance: AxisPair<Priority> = AxisPair(horizontal: .high, vertical: .high),
        baselines: Baselines? = nil, margins: Margins = .standard
    ) {
        self.declaration = Item(
            name: name, parent: nil, intrinsic: intrinsic, hugging: hugging, resistance: resistance,
            baselines: baselines, margins: margins)
        self.parent = parent
    }

    /// The declaration of an existing item, its parent named by `parentName`.
    public init(_ item: Item, parentName: String?) {
        declaration = item
        declaration.parent = nil
        declaration.frame = nil
        parent = parentName
    }

    private enum CodingKeys: String, CodingKey {
        case parent
    }

    /// Decodes with the defaults of ``Item``'s JSON form; the parent is a name, absent for
    /// the root.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try Item(declarationFrom: decoder), parentName: try c.decodeIfPresent(String.self, forKey: .parent))
    }

    /// Item's keys, the parent by name.
    public func encode(to encoder: any Encoder) throws {
        try declaration.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(parent, forKey: .parent)
    }

    /// The item this declares, under the parent at `parent`.
    public func item(parent: ItemIndex) -> Item {
        var item = declaration
        item.parent = parent
        return item
    }
}

/// A constraint added between passes, its items by name.
///
/// Equality is the constraint's meaning and ID, as for ``Constraint``: a VFL-generated
/// constraint printed as a plain line reads back as the same step.
public struct NewConstraint: Sendable, Codable {
    /// The ID written in the file; nil means the default name `c<N>`.
    public var id: String?
    public var first: NamedAttribute
    public var relation: Relation
    public var multiplier: NumericLiteral
    public var second: NamedAttribute?
    public var constant: NumericLiteral
    public var priority: Priority
    /// `.explicit` or `.visualFormat`; intrinsic constraints come only with their views.
    public var origin: ConstraintOrigin
    /// Token positions when the constraint was read from text.
    public var source: ConstraintSource?
    /// Where the ID was written.
    public var idLocation: SourceLocation?

    public init(
        id: String? = nil, first: NamedAttribute, relation: Relation, multiplier: NumericLiteral = .one,
        second: NamedAttribute?, constant: NumericLiteral = .zero, priority: Priority = .required,
        origin: ConstraintOrigin = .explicit, source: ConstraintSource? = nil, idLocation: SourceLocation? = nil
    ) {
        self.id = id
        self.first = first
        self.relation = relation
        self.multiplier = Self.normalisedMultiplier(multiplier, second: second)
        self.second = second
        self.constant = constant
        self.priority = priority
        self.origin = origin
        self.source = source
        self.idLocation = idLocation
    }

    /// A constraint of `system`, its items named.
    public init(_ constraint: Constraint, in system: ConstraintSystem, idLocation: SourceLocation? = nil) {
        func named(_ ref: AttributeReference) -> NamedAttribute {
            NamedAttribute(item: system.items[ref.item].name, attribute: ref.attribute)
        }
        self.init(
            id: constraint.id, first: named(constraint.first), relation: constraint.relation,
            multiplier: constraint.multiplier, second: constraint.second.map(named),
            constant: constraint.constant, priority: constraint.priority, origin: constraint.origin,
            source: constraint.source, idLocation: idLocation)
    }

    private enum CodingKeys: String, CodingKey {
        case id, first, relation, multiplier, second, constant, priority, origin
    }

    /// Decodes with the defaults of ``Constraint``'s JSON form.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let second = try c.decodeIfPresent(NamedAttribute.self, forKey: .second)
        self.init(
            id: try c.decodeIfPresent(String.self, forKey: .id), first: try c.decode(NamedAttribute.self, forKey: .first),
            relation: try c.decode(Relation.self, forKey: .relation),
            multiplier: try c.decode(NumericLiteral.self, forKey: .multiplier, default: .one), second: second,
            constant: try c.decode(NumericLiteral.self, forKey: .constant, default: .zero),
            priority: try c.decode(Priority.self, forKey: .priority, default: .required),
            origin: try c.decode(ConstraintOrigin.self, forKey: .origin, default: .explicit))
    }
}

extension NewConstraint: ConstraintTerms {}
