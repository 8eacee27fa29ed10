import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import LayoutModel

/// One element of an XML document with the position of its `<`.
///
/// Interface Builder files are small (the largest real ones are a few megabytes), so the
/// whole tree is kept: roots, references and variations are resolved by walking it.
public struct XMLElementNode: Sendable {
    public var name: String
    public var attributes: [String: String]
    public var children: [XMLElementNode]
    /// Where the start tag begins (its `<`), 1-based line and column.
    public var location: SourceLocation

    public init(name: String, attributes: [String: String] = [:], children: [XMLElementNode] = [], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.location = location
    }

    public subscript(attribute: String) -> String? { attributes[attribute] }

    /// The first child with this element name and, when given, this `key` attribute.
    public func child(_ name: String, key: String? = nil) -> XMLElementNode? {
        children.first { $0.name == name && (key == nil || $0.attributes["key"] == key) }
    }

    /// The first child with this `key` attribute, whatever its element name.
    public func child(key: String) -> XMLElementNode? {
        children.first { $0.attributes["key"] == key }
    }

    /// The children with this element name.
    public func children(_ name: String) -> [XMLElementNode] {
        children.filter { $0.name == name }
    }

    /// A `YES`/`NO` attribute; nil when absent.
    public func flag(_ attribute: String) -> Bool? {
        attributes[attribute].map { $0 == "YES" }
    }
}

/// Reads XML text into ``XMLElementNode``s with FoundationXML's `XMLParser` (libxml2), which
/// reports positions; malformed input gives a positioned ``IBImportError``, never a crash.
struct XMLTreeReader {
    /// Deeper nesting than this is refused: real IB files stay under 40 levels, and the
    /// tree is walked recursively.
    static let maximumDepth = 200

    var file: String

    func read(_ data: Data) throws(IBImportError) -> XMLElementNode {
        let builder = TreeBuilder(data: data, maximumDepth: Self.maximumDepth)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let finished = parser.parse()
        if let failure = builder.failure {
            throw IBImportError(file: file, location: failure.location, message: failure.message)
        }
        if !finished || parser.parserError != nil {
            let location = builder.errorLocation
                ?? SourceLocation(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
            let code = (parser.parserError as NSError?)?.code ?? builder.errorCode ?? 0
            throw IBImportError(file: file, location: location, message: "malformed XML: \(Self.describe(code))")
        }
        guard let root = builder.root else {
            throw IBImportError(file: file, location: SourceLocation(line: 1, column: 1), message: "malformed XML: no document element")
        }
        return root
    }

    /// A sentence for libxml2's error codes (XMLParser's messages are empty on Linux).
    static func describe(_ code: Int) -> String {
        switch XMLParser.ErrorCode(rawValue: code) {
        case .prematureDocumentEndError?: return "the document ends inside an element"
        case .tagNameMismatchError?: return "an end tag does not match its start tag"
        case .attributeRedefinedError?: return "an attribute is given twice"
        case .lessThanSymbolInAttributeError?: return "'<' inside an attribute value"
        case .attributeNotStartedError?, .attributeNotFinishedError?:
            return "a malformed attribute"
        case .entityRefAtEOFError?, .entityRefLoopError?, .entityNotStartedError?, .entityNotFinishedError?,
             .undeclaredEntityError?, .unparsedEntityError?, .entityIsExternalError?, .entityReferenceMissingSemiError?,
             .entityReferenceWithoutNameError?:
            return "a bad entity reference"
        case .emptyDocumentError?, .documentStartError?: return "no document element"
        case .extraContentError?: return "content after the document element"
        case .invalidCharacterError?, .invalidCharacterRefError?, .invalidCharacterInEntityError?:
            return "an invalid character"
        case .gtRequiredError?, .ltRequiredError?: return "a malformed tag"
        case .unfinishedTagError?: return "an unfinished tag"
        default: return "parser error \(code)"
        }
    }
}

/// Builds the tree from parser events. Positions: libxml2 reports where the start tag
/// ends, so the `<` is found by scanning back in the bytes.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    struct Failure { var location: SourceLocation; var message: String }

    let bytes: [UInt8]
    /// Byte offset of each line's first byte (line 1 at index 0).
    let lineStarts: [Int]
    let maximumDepth: Int
    var stack: [XMLElementNode] = []
    var root: XMLElementNode?
    var failure: Failure?
    var errorLocation: SourceLocation?
    var errorCode: Int?

    init(data: Data, maximumDepth: Int) {
        bytes = [UInt8](data)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
        self.maximumDepth = maximumDepth
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard failure == nil else { return }
        let location = startLocation(name: name, line: parser.lineNumber, column: parser.columnNumber)
        if stack.count >= maximumDepth {
            failure = Failure(location: location, message: "elements nested deeper than \(maximumDepth) levels")
            parser.abortParsing()
            return
        }
        if root != nil && stack.isEmpty {
            failure = Failure(location: location, message: "malformed XML: a second document element")
            parser.abortParsing()
            return
        }
        stack.append(XMLElementNode(name: name, attributes: attributes, location: location))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard failure == nil, let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if errorLocation == nil {
            errorLocation = SourceLocation(line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1))
            errorCode = (parseError as NSError).code
        }
    }

    /// The position of the `<` that opens the element whose start tag ends at (line, column).
    func startLocation(name: String, line: Int, column: Int) -> SourceLocation {
        let reported = SourceLocation(line: max(line, 1), column: max(column, 1))
        guard line >= 1, line <= lineStarts.count else { return reported }
        var offset = min(lineStarts[line - 1] + max(column - 1, 0), bytes.count) - 1
        // Attribute values cannot hold a raw '<', so the nearest one back opens the tag.
        while offset >= 0 && bytes[offset] != UInt8(ascii: "<") { offset -= 1 }
        guard offset >= 0 else { return reported }
        let lineIndex = lineStartIndex(containing: offset)
        let prefix = bytes[lineStarts[lineIndex]..<offset]
        let column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count + 1
        return SourceLocation(line: lineIndex + 1, column: column)
    }

    private func lineStartIndex(containing offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
