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

    /// A numeric attribute that is finite and within ±10⁷ (no screen is larger); nil when
    /// absent or anything else. For the few places that read numbers outside a view's own
    /// frame (a cell's, a table's), where a bad one means "unknown" rather than an error.
    public func number(_ attribute: String) -> Double? {
        guard let value = attributes[attribute].flatMap(Double.init), value.isFinite, abs(value) <= 1e7 else { return nil }
        return value
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
        // IB writes UTF-8. FoundationXML's parser traps on element or attribute text that is
        // not valid UTF-8, so that is refused here, at the first bad byte.
        if let offset = Self.firstInvalidUTF8Byte(in: data) {
            throw IBImportError(file: file, location: Self.location(ofByte: offset, in: data),
                                message: "malformed XML: the file is not UTF-8 text")
        }
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
            // The first error is the telling one; libxml2 may add a generic one at the end.
            let code = builder.errorCode ?? (parser.parserError as NSError?)?.code ?? 0
            let what = builder.sawElement ? Self.describe(code) : "no document element"
            throw IBImportError(file: file, location: location, message: "malformed XML: \(what)")
        }
        guard let root = builder.root else {
            throw IBImportError(file: file, location: SourceLocation(line: 1, column: 1), message: "malformed XML: no document element")
        }
        return root
    }

    /// The offset of the first byte that does not belong to valid UTF-8 (a bad lead byte, a
    /// missing continuation, an overlong form, a surrogate or a value beyond U+10FFFF), or nil.
    static func firstInvalidUTF8Byte(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let (count, smallest): (Int, UInt32)
            switch lead {
            case 0xC0...0xDF: (count, smallest) = (1, 0x80)
            case 0xE0...0xEF: (count, smallest) = (2, 0x800)
            case 0xF0...0xF7: (count, smallest) = (3, 0x10000)
            default: return i
            }
            guard i + count < bytes.count else { return i }
            var value = UInt32(lead) & (0x3F >> UInt32(count))
            for k in 1...count {
                let next = bytes[i + k]
                guard next & 0xC0 == 0x80 else { return i }
                value = value << 6 | UInt32(next & 0x3F)
            }
            guard value >= smallest, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return i }
            i += count + 1
        }
        return nil
    }

    /// The line and column (in bytes, 1-based) of a byte offset.
    static func location(ofByte offset: Int, in data: Data) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return SourceLocation(line: line, column: column)
    }

    /// A sentence for the parser's error codes (NSXMLParser's, which are libxml2's; the
    /// messages themselves are empty on Linux).
    static func describe(_ code: Int) -> String {
        switch code {
        case 3, 4: return "no document element"
        case 5: return "the document ends early: an element is not closed"
        case 6...13: return "a bad character reference"
        case 14...30: return "a bad entity reference"
        case 9, 31, 32: return "an invalid character or encoding"
        case 33, 34, 43, 44: return "an unterminated string"
        case 38: return "'<' inside an attribute value"
        case 39, 40, 41: return "a malformed attribute"
        case 42: return "an attribute is given twice"
        case 45: return "an unterminated comment"
        case 68: return "a malformed name"
        case 72, 73: return "a malformed tag"
        case 76: return "an end tag does not match its start tag"
        case 77: return "an unfinished tag"
        case 85, 86: return "content after the document element"
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
    var sawElement = false
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
        sawElement = true
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
