/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
}

/// Why a `.layout` file was rejected.
///
/// Every error carries the position of the first character of the offending token and
/// prints as `file:line:column: message`.
public struct LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule the input broke.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The text does not follow the grammar.
        case syntax
        /// A name used before (or without) its declaration.
        case undeclaredName
        /// A name or ID declared twice, or an ID that takes another constraint's default name.
        case duplicateName
        /// A declaration out of its place (`layout` after `root`, a view before `root`…).
        case misplacedDeclaration
        /// A number that overflows (or underflows to zero in) `Double`.
        case numberOutOfRange
        /// A VFL line that breaks the VFL rules of the spec.
        case visualFormat
        /// Validation rules V1–V6.
        case v1SizeWithPosition, v2PositionToConstant, v3MixedAxes, v4MixedDirections
        case v5OutOfRange, v6MultiplierOnPosition
        /// A name of a constraint or item that was removed earlier (names are never reused).
        case removedName
        /// An update step the format forbids (a priority moved to or from 1000, the root
        /// removed, the constant of a hugging constraint set…).
        case invalidUpdate
        /// A system whose structure is broken: no root, a parent declared after its child, a
        /// reference to a missing item, a key missing or of the wrong type in JSON input.
        case malformedSystem
        /// An update sequence of several passes where one system was expected.
        case updateSequence
    }

    /// The file name as given to the parser.
    public var file: String
    public var location: SourceLocation
    public var kind: Kind
    public var message: String

    public init(file: String, location: SourceLocation, kind: Kind, message: String) {
        self.file = file
        self.location = location
        self.kind = kind
        self.message = message
    }

    /// `file:line:column: message`, or `file: message` when there is no position (a step
    /// built in code).
    public var description: String {
        location.line > 0 ? "\(file):\(location.line):\(location.column): \(message)" : "\(file): \(message)"
    }
}
