import LayoutModel

/// Why a file (or one layout root of it) could not be imported, with the position of the
/// offending element; prints as `file:line:column: message`.
public struct IBImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation
    public var message: String

    public init(file: String, location: SourceLocation, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String { "\(file):\(location.line):\(location.column): \(message)" }
}
