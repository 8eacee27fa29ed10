/// Layout margins of an item: top, left, bottom, right (UIKit's default is 8 on each side).
public struct Margins: Sendable, Hashable, Codable {
    public var top: NumericLiteral
    public var left: NumericLiteral
    public var bottom: NumericLiteral
    public var right: NumericLiteral

    public init(top: NumericLiteral, left: NumericLiteral, bottom: NumericLiteral, right: NumericLiteral) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let standard = Margins(
        top: NumericLiteral(8), left: NumericLiteral(8), bottom: NumericLiteral(8), right: NumericLiteral(8))
}

/// A pair of values, one per axis.
public struct AxisPair<Value: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    public var horizontal: Value
    public var vertical: Value

    public init(horizontal: Value, vertical: Value) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public subscript(axis: Attribute.Axis) -> Value {
        get { axis == .horizontal ? horizontal : vertical }
        set { if axis == .horizontal { horizontal = newValue } else { vertical = newValue } }
    }
}

/// A view's first and last baseline offsets: F below the top, L above the bottom.
public struct Baselines: Sendable, Hashable, Codable {
    public var first: NumericLiteral
    public var last: NumericLiteral

    public init(first: NumericLiteral, last: NumericLiteral) {
        self.first = first
        self.last = last
    }
}

/// The index of an item in ``ConstraintSystem/items``; the root is always 0.
public typealias ItemIndex = Int

/// A root or a view.
public struct Item: Sendable, Hashable, Codable {
    public var name: String
    /// The parent item; nil only for the root.
    public var parent: ItemIndex?
    /// The root's fixed frame (x, y, width, height); nil for views.
    public var frame: [NumericLiteral]?
    /// Intrinsic content size per axis; nil where the view has no metric on that axis.
    public var intrinsic: AxisPair<NumericLiteral?>
    /// Content-hugging priorities (default 250).
    public var hugging: AxisPair<Priority>
    /// Compression-resistance priorities (default 750).
    public var resistance: AxisPair<Priority>
    /// Baseline offsets; nil means both baselines are the bottom edge.
    public var baselines: Baselines?
    public var margins: Margins

    public init(
        name: String, parent: ItemIndex?, frame: [NumericLiteral]? = nil,
        intrinsic: AxisPair<NumericLiteral?> = AxisPair(horizontal: nil, vertical: nil),
        hugging: AxisPair<Priority> = AxisPair(horizontal: .low, vertical: .low),
        resistance: AxisPair<Priority> = AxisPair(horizontal: .high, vertical: .high),
        baselines: Baselines? = nil, margins: Margins = .standard
    ) {
        self.name = name
        self.parent = parent
        self.frame = frame
        self.intrinsic = intrinsic
        self.hugging = hugging
        self.resistance = resistance
        self.baselines = baselines
        self.margins = margins
    }

    public var isRoot: Bool { parent == nil }

    private enum CodingKeys: String, CodingKey {
        case name, parent, frame, intrinsic, hugging, resistance, baselines, margins
    }

    /// Decodes an item; everything but the name may be left out and takes the text form's
    /// default (no parent is the root's mark, no intrinsic size, hugging 250, resistance 750,
    /// margins 8).
    public init(from decoder: any Decoder) throws {
        try self.init(declarationFrom: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        parent = try c.decodeIfPresent(ItemIndex.self, forKey: .parent)
        frame = try c.decodeIfPresent([NumericLiteral].self, forKey: .frame)
    }

    /// An item from the keys a view declaration shares with ``NewView``: all but `parent`
    /// and `frame`, which it leaves nil.
    init(declarationFrom decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try c.decode(String.self, forKey: .name), parent: nil,
            intrinsic: try c.decode(AxisPair<NumericLiteral?>.self, forKey: .intrinsic, default: AxisPair(horizontal: nil, vertical: nil)),
            hugging: try c.decode(AxisPair<Priority>.self, forKey: .hugging, default: AxisPair(horizontal: .low, vertical: .low)),
            resistance: try c.decode(AxisPair<Priority>.self, forKey: .resistance, default: AxisPair(horizontal: .high, vertical: .high)),
            baselines: try c.decodeIfPresent(Baselines.self, forKey: .baselines),
            margins: try c.decode(Margins.self, forKey: .margins, default: .standard))
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, or `value` when the key is absent or null.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key, default value: T) throws -> T {
        try decodeIfPresent(type, forKey: key) ?? value
    }
}

/// One side of a constraint: an item's attribute, the item given by `Reference` (its index
/// in a system, or its name in an update step).
public struct ItemAttribute<Reference: Sendable & Hashable & Codable>: Sendable, Hashable, Codable {
    public var item: Reference
    public var attribute: Attribute

    public init(item: Reference, attribute: Attribute) {
        self.item = item
        self.attribute = attribute
    }
}

/// One side of a constraint in a system: the item by its index.
public typealias AttributeReference = ItemAttribute<ItemIndex>

/// Where a constraint came from. Not part of a constraint's identity: a VFL-generated
/// constraint printed as a plain constraint line reads back as the same constraint.
public enum ConstraintOrigin: Sendable, Hashable, Codable {
    /// Written as a constraint line.
    case explicit
    /// Generated by a Visual Format Language line.
    case visualFormat
    /// Generated by a view's intrinsic content size (hugging or compression resistance).
    case intrinsic
}

/// Positions of a constraint's tokens, for validation messages.
public struct ConstraintSource: Sendable, Hashable, Codable {
    public var first: SourceLocation
    public var firstAttribute: SourceLocation
    public var relation: SourceLocation
    public var multiplier: SourceLocation?
    public var second: SourceLocation?
    public var secondAttribute: SourceLocation?
    public var constant: SourceLocation?
    public var priority: SourceLocation?

    public init(
        first: SourceLocation, firstAttribute: SourceLocation, relation: SourceLocation,
        multiplier: SourceLocation? = nil, second: SourceLocation? = nil,
        secondAttribute: SourceLocation? = nil, constant: SourceLocation? = nil,
        priority: SourceLocation? = nil
    ) {
        self.first = first
        self.firstAttribute = firstAttribute
        self.relation = relation
        self.multiplier = multiplier
        self.second = second
        self.secondAttribute = secondAttribute
        self.constant = constant
        self.priority = priority
    }

    /// Every position is the same one (generated constraints point at their source token).
    public init(all location: SourceLocation) {
        self.init(
            first: location, firstAttribute: location, relation: location, multiplier: location,
            second: location, secondAttribute: location, constant: location, priority: location)
    }
}

/// `first REL multiplier × second + constant @priority`, or `first REL constant @priority`
/// when `second` is nil.
public struct Constraint: Sendable, Codable {
    /// The ID written in the file; nil means the default name `c<N>`.
    public var id: String?
    public var first: AttributeReference
    public var relation: Relation
    public var multiplier: NumericLiteral
    public var second: AttributeReference?
    public var constant: NumericLiteral
    public var priority: Priority
    public var origin: ConstraintOrigin
    /// Token positions when the constraint was read from text.
    public var source: ConstraintSource? {
        get { sourceBox?.value }
        set { sourceBox = newValue.map(SourceBox.init) }
    }
    /// Positions are rarely read and large (eight locations); keeping them out of line halves
    /// a constraint's size, which matters for 100,000-view systems.
    private var sourceBox: SourceBox?

    private final class SourceBox: Sendable {
        let value: ConstraintSource
        init(_ value: ConstraintSource) { self.value = value }
    }

    private enum CodingKeys: String, CodingKey {
        case id, first, relation, multiplier, second, constant, priority, origin, source
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        first = try c.decode(AttributeReference.self, forKey: .first)
        relation = try c.decode(Relation.self, forKey: .relation)
        second = try c.decodeIfPresent(AttributeReference.self, forKey: .second)
        // Defaults as in the text form: multiplier 1 (the only one without a second item),
        // constant 0, required, written as a constraint line.
        multiplier = try Self.normalisedMultiplier(try c.decode(NumericLiteral.self, forKey: .multiplier, default: .one), second: second)
        constant = try c.decode(NumericLiteral.self, forKey: .constant, default: .zero)
        priority = try c.decode(Priority.self, forKey: .priority, default: .required)
        origin = try c.decode(ConstraintOrigin.self, forKey: .origin, default: .explicit)
        source = try c.decodeIfPresent(ConstraintSource.self, forKey: .source)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(first, forKey: .first)
        try c.encode(relation, forKey: .relation)
        try c.encode(multiplier, forKey: .multiplier)
        try c.encodeIfPresent(second, forKey: .second)
        try c.encode(constant, forKey: .constant)
        try c.encode(priority, forKey: .priority)
        try c.encode(origin, forKey: .origin)
        try c.encodeIfPresent(source, forKey: .source)
    }

    public init(
        id: String? = nil, first: AttributeReference, relation: Relation,
        multiplier: NumericLiteral = .one, second: AttributeReference?,
        constant: NumericLiteral = .zero, priority: Priority = .required,
        origin: ConstraintOrigin = .explicit, source: ConstraintSource? = nil
    ) {
        self.id = id
        self.first = first
        self.relation = relation
        self.multiplier = Self.normalisedMultiplier(multiplier, second: second)
        self.second = second
        self.constant = constant
        self.priority = priority
        self.origin = origin
        self.sourceBox = source.map(SourceBox.init)
    }

    /// The items the constraint names (one or two).
    public var items: [ItemIndex] {
        if let second, second.item != first.item { return [first.item, second.item] }
        return [first.item]
    }
}

/// A constraint's terms, its items given by `Reference` (an index in a system for
/// ``Constraint``, a name in an update step for ``NewConstraint``), and the one identity
/// both share: the constraint's meaning and ID, not where it came from. A VFL-generated
/// constraint printed as a plain line reads back as the same constraint; an intrinsic one
/// stays apart from an explicit one of the same terms.
public protocol ConstraintTerms: Hashable {
    associatedtype Reference: Sendable & Hashable & Codable
    /// The ID written in the file; nil means the default name `c<N>`.
    var id: String? { get }
    var first: ItemAttribute<Reference> { get }
    var relation: Relation { get }
    var multiplier: NumericLiteral { get }
    var second: ItemAttribute<Reference>? { get }
    var constant: NumericLiteral { get }
    var priority: Priority { get }
    var origin: ConstraintOrigin { get }
}

extension ConstraintTerms {
    /// The multiplier a constraint keeps: `multiplier` when it has a second item, else 1
    /// (`first REL constant` has nothing to multiply). Without a second item `multiplier` is
    /// not evaluated, so a decoder does not read (or reject) a multiplier it ignores.
    static func normalisedMultiplier(
        _ multiplier: @autoclosure () throws -> NumericLiteral, second: ItemAttribute<Reference>?
    ) rethrows -> NumericLiteral {
        second == nil ? .one : try multiplier()
    }

    /// Equal meaning and ID; the origin counts only as intrinsic or not.
    public static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.first == b.first && a.relation == b.relation
            && a.multiplier == b.multiplier && a.second == b.second && a.constant == b.constant
            && a.priority == b.priority && (a.origin == .intrinsic) == (b.origin == .intrinsic)
    }

    /// Hashes what ``==(_:_:)`` compares (but the origin).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(first)
        hasher.combine(relation)
        hasher.combine(multiplier)
        hasher.combine(second)
        hasher.combine(constant)
        hasher.combine(priority)
    }
}

extension Constraint: ConstraintTerms {}

/// A whole `.layout` file: its items and constraints in file order.
///
/// Its JSON form (``init(from:)``, ``init(json:file:rules:)``) is checked as it is read, so a
/// decoded system is as valid as a parsed one.
///
/// Intrinsic content sizes are stored both on the item and as the hugging and
/// compression-resistance constraints they imply, at the view's place in the constraint
/// list; ``addView(_:)`` keeps the two in step.
public struct ConstraintSystem: Sendable, Hashable, Codable {
    public var name: String?
    public var direction: LayoutDirection
    /// `items[0]` is the root.
    public var items: [Item]
    public var constraints: [Constraint]
    /// Factors that multiply lowered rows (constraint index → k > 0). Not part of the format
    /// and not printed: the metamorphic oracle that scales a required constraint by k uses it,
    /// since `k × (lhs − m·rhs − c)` has no `.layout` spelling.
    public var rowScales: [Int: NumericLiteral] = [:]

    /// A system with only its root.
    public init(
        name: String? = nil, direction: LayoutDirection = .leftToRight,
        rootName: String, frame: [NumericLiteral], margins: Margins = .standard
    ) {
        precondition(frame.count == 4, "a root frame has x, y, width and height")
        self.name = name
        self.direction = direction
        self.items = [Item(name: rootName, parent: nil, frame: frame, margins: margins)]
        self.constraints = []
    }

    /// A system from parts; the caller keeps intrinsic constraints in step with the items.
    public init(name: String?, direction: LayoutDirection, items: [Item], constraints: [Constraint]) {
        self.name = name
        self.direction = direction
        self.items = items
        self.constraints = constraints
    }

    public var root: Item { items[0] }

    /// The number of items that are not the root (each has four unknowns).
    public var viewCount: Int { items.count - 1 }

    /// Appends a view and, where it has intrinsic metrics, its hugging and
    /// compression-resistance constraints (width-hug, width-resist, height-hug, height-resist).
    @discardableResult
    public mutating func addView(_ item: Item, source: SourceLocation? = nil) -> ItemIndex {
        precondition(item.parent != nil, "a view has a parent")
        let index = items.count
        items.append(item)
        constraints += Self.intrinsicConstraints(of: item, at: index, source: source)
        return index
    }

    /// The hugging and compression-resistance constraints an item's intrinsic size implies,
    /// in the spec's order: width-hug, width-resist, height-hug, height-resist.
    public static func intrinsicConstraints(of item: Item, at index: ItemIndex, source: SourceLocation? = nil) -> [Constraint] {
        var generated: [Constraint] = []
        for (axis, attribute) in [(Attribute.Axis.horizontal, Attribute.width), (.vertical, .height)] {
            guard let metric = item.intrinsic[axis] else { continue }
            let ref = AttributeReference(item: index, attribute: attribute)
            let where_ = source.map { ConstraintSource(all: $0) }
            generated.append(Constraint(
                first: ref, relation: .lessThanOrEqual, second: nil, constant: metric,
                priority: item.hugging[axis], origin: .intrinsic, source: where_))
            generated.append(Constraint(
                first: ref, relation: .greaterThanOrEqual, second: nil, constant: metric,
                priority: item.resistance[axis], origin: .intrinsic, source: where_))
        }
        return generated
    }

    /// Renames an item (names are not referenced anywhere else).
    public mutating func rename(item: ItemIndex, to name: String) {
        items[item].name = name
    }

    /// Replaces the root's frame.
    public mutating func setRootFrame(_ frame: [NumericLiteral]) {
        precondition(frame.count == 4, "a root frame has x, y, width and height")
        items[0].frame = frame
    }

    /// The name a constraint is reported by: its ID, or `c<N>` with N its 1-based position.
    public func constraintName(_ index: Int) -> String {
        constraints[index].id ?? "c\(index + 1)"
    }

    /// The index of the item with this name.
    public func itemIndex(named name: some StringProtocol) -> ItemIndex? {
        items.firstIndex { $0.name == name }
    }

    /// The nearest common ancestor of two items (an item is its own ancestor).
    ///
    /// Costs the two items' depths; ``ItemAncestry`` answers many queries in time
    /// proportional to each item's distance to the answer.
    public func nearestCommonAncestor(_ a: ItemIndex, _ b: ItemIndex) -> ItemIndex {
        ItemAncestry.nearestCommonAncestor(a, b, parentOf: { items[$0].parent }, itemCount: items.count)
    }

    /// Whether the constraint is mirrored under `direction rtl` (it names a directional
    /// attribute on either side).
    public func isMirrored(_ constraint: Constraint) -> Bool { isMirrored(constraint.first, constraint.second) }

    /// ``isMirrored(_:)`` for a constraint relating `first` to `second`.
    @usableFromInline
    func isMirrored(_ first: AttributeReference, _ second: AttributeReference?) -> Bool {
        direction == .rightToLeft && (first.attribute.isDirectional || second?.attribute.isDirectional == true)
    }
}
