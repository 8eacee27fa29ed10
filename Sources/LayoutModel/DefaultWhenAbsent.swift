/// The value a key that older files lack stands for (say `verdict`: `wrong`, from before
/// verdicts existed), for ``DefaultWhenAbsent``.
public protocol AbsentValueDefault {
    associatedtype Value: Codable & Sendable & Hashable
    /// What an absent (or null) key decodes as.
    static var value: Value { get }
}

/// A stored property that files written before it existed lack: decoded as `Default.value`
/// when its key is absent or null, encoded as the plain value. A type keeps its synthesized
/// `Codable` (the same keys, the same bytes) and still reads its older files.
@propertyWrapper
public struct DefaultWhenAbsent<Default: AbsentValueDefault>: Codable, Sendable, Hashable {
    public var wrappedValue: Default.Value

    public init(wrappedValue: Default.Value) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Default.Value.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// What synthesized `Codable` calls for a ``DefaultWhenAbsent`` property: the value at
    /// `key`, or the default when the key is absent or null.
    public func decode<Default>(_ type: DefaultWhenAbsent<Default>.Type, forKey key: Key) throws -> DefaultWhenAbsent<Default> {
        DefaultWhenAbsent(wrappedValue: try decodeIfPresent(Default.Value.self, forKey: key) ?? Default.value)
    }
}
