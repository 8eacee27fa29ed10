/// A constraint priority in (0, 1000]; 1000 means required.
///
/// Priorities compare exactly (they are decimal literals), so any number of distinct levels
/// can be told apart: a solution minimises errors lexicographically from the highest level
/// down, and never trades a higher level for any amount of a lower one.
public struct Priority: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The priority as written.
    public let value: NumericLiteral

    public init(_ value: NumericLiteral) { self.value = value }
    public init(_ value: Int) { self.value = NumericLiteral(value) }

    /// 1000: the constraint must hold.
    public static let required = Priority(1000)
    /// 750 (UILayoutPriority.defaultHigh), also the default compression resistance.
    public static let high = Priority(750)
    /// 250 (UILayoutPriority.defaultLow), also the default content hugging.
    public static let low = Priority(250)
    /// 50 (UILayoutPriority.fittingSizeLevel).
    public static let fitting = Priority(50)

    /// Apple's named levels as the format spells them.
    public static let named: [(name: String, priority: Priority)] = [
        ("required", .required), ("high", .high), ("low", .low), ("fitting", .fitting),
    ]

    /// Reads a named level (`required`, `high`, `low`, `fitting`).
    public init?(name: some StringProtocol) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.priority
    }

    /// True for exactly 1000.
    public var isRequired: Bool { value == Self.required.value }

    /// True when the priority lies in (0, 1000] (validation rule V5).
    public var isInRange: Bool { value > .zero && value <= Self.required.value }

    public var description: String { value.description }

    public static func < (a: Priority, b: Priority) -> Bool { a.value < b.value }

    public init(from decoder: any Decoder) throws { value = try NumericLiteral(from: decoder) }
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
