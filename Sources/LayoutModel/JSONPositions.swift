/// Where every value of a JSON text starts, so that errors in a system's JSON form point at
/// the offending value as `file:line:column`, with the same line model as `.layout` text
/// (``SourceLines``: LF, CRLF and CR end lines, a BOM is skipped, columns count scalars).
///
/// Reading the positions also checks the JSON grammar strictly — a duplicate key, a nesting
/// deeper than ``maximumDepth`` (nothing in the format nests more than a few levels) or text
/// after the value are errors — so the decoder that follows only ever sees plain JSON.
struct JSONPositions: Sendable {
    /// A value's position and, for objects and arrays, those of its members.
    indirect enum Node: Sendable {
        case object(SourceLocation, [(key: String, value: Node)])
        case array(SourceLocation, [Node])
        case scalar(SourceLocation)

        var location: SourceLocation {
            switch self {
            case .object(let l, _), .array(let l, _), .scalar(let l): return l
            }
        }

        func child(_ component: FieldPath.Component) -> Node? {
            switch (self, component) {
            case (.object(_, let members), .key(let key)): return members.first { $0.key == key }?.value
            case (.array(_, let elements), .index(let i)): return elements.indices.contains(i) ? elements[i] : nil
            default: return nil
            }
        }
    }

    static let maximumDepth = 64

    let root: Node

    /// The position of the value at `path`, or of the deepest value on the way that exists
    /// (the object a missing key belongs in).
    func location(of path: [FieldPath.Component]) -> SourceLocation {
        node(at: path).location
    }

    /// The value at `path`, or the deepest one on the way that exists.
    func node(at path: [FieldPath.Component]) -> Node {
        var node = root
        for component in path {
            guard let child = node.child(component) else { break }
            node = child
        }
        return node
    }

    /// Reads the positions of `text`, or throws a positioned syntax error.
    static func read(_ text: String, file: String) throws(LayoutError) -> JSONPositions {
        var reader = Reader(bytes: Array(text.utf8), file: file)
        reader.skipByteOrderMark()
        reader.skipWhitespace()
        let root = try reader.value(depth: 0)
        reader.skipWhitespace()
        if reader.index < reader.bytes.count { throw reader.error("unexpected text after the JSON value") }
        return JSONPositions(root: root)
    }

    /// A cursor over UTF-8 bytes that counts lines and columns as ``SourceLines`` does.
    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var index = 0
        var line = 1
        var column = 1

        var location: SourceLocation { SourceLocation(line: line, column: column) }
        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        func error(_ message: String, at location: SourceLocation? = nil) -> LayoutError {
            LayoutError(file: file, location: location ?? self.location, kind: .syntax, message: message)
        }

        mutating func skipByteOrderMark() {
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        }

        mutating func advance() {
            let b = bytes[index]
            index += 1
            if b == UInt8(ascii: "\n") {
                // The LF of a CRLF: the CR already ended the line.
                if index >= 2 && bytes[index - 2] == UInt8(ascii: "\r") { return }
                line += 1
                column = 1
            } else if b == UInt8(ascii: "\r") {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1  // the first byte of a scalar
            }
        }

        mutating func skipWhitespace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { advance() }
        }

        mutating func expect(_ literal: String) throws(LayoutError) {
            let start = location
            for byte in literal.utf8 {
                guard peek == byte else { throw error("expected '\(literal)'", at: start) }
                advance()
            }
        }

        /// Reads an object's members or an array's elements, from its opening bracket (next)
        /// to `close` and past it: each entry by `entry`, which starts after white space.
        mutating func entries(
            closedBy close: Unicode.Scalar, depth: Int, _ entry: (inout Reader) throws(LayoutError) -> Void
        ) throws(LayoutError) {
            guard depth < JSONPositions.maximumDepth else { throw error("JSON nested deeper than \(JSONPositions.maximumDepth) levels") }
            advance()
            skipWhitespace()
            if peek == UInt8(ascii: close) { advance(); return }
            while true {
                skipWhitespace()
                try entry(&self)
                skipWhitespace()
                if peek == UInt8(ascii: ",") { advance(); continue }
                guard peek == UInt8(ascii: close) else { throw error("expected ',' or '\(close)'") }
                advance()
                return
            }
        }

        mutating func value(depth: Int) throws(LayoutError) -> Node {
            let start = location
            guard let b = peek else { throw error("expected a JSON value, found the end of the text") }
            switch b {
            case UInt8(ascii: "{"):
                var members: [(key: String, value: Node)] = []
                var keys = Set<String>()
                try entries(closedBy: "}", depth: depth) { (r: inout Reader) throws(LayoutError) in
                    let keyLocation = r.location
                    guard r.peek == UInt8(ascii: "\"") else { throw r.error("expected a key (a string)") }
                    let key = try r.string()
                    guard keys.insert(key).inserted else { throw r.error("duplicate key '\(key)'", at: keyLocation) }
                    r.skipWhitespace()
                    guard r.peek == UInt8(ascii: ":") else { throw r.error("expected ':' after the key") }
                    r.advance()
                    r.skipWhitespace()
                    members.append((key, try r.value(depth: depth + 1)))
                }
                return .object(start, members)
            case UInt8(ascii: "["):
                var elements: [Node] = []
                try entries(closedBy: "]", depth: depth) { (r: inout Reader) throws(LayoutError) in
                    elements.append(try r.value(depth: depth + 1))
                }
                return .array(start, elements)
            case UInt8(ascii: "\""):
                _ = try string()
            case UInt8(ascii: "t"): try expect("true")
            case UInt8(ascii: "f"): try expect("false")
            case UInt8(ascii: "n"): try expect("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
            default:
                throw error("expected a JSON value")
            }
            return .scalar(start)
        }

        /// A string, unescaped (keys need their text).
        mutating func string() throws(LayoutError) -> String {
            let start = location
            advance()  // the opening quote
            var scalars = String.UnicodeScalarView()
            var pendingHigh: UInt32?
            var utf8: [UInt8] = []
            func flush() {
                if !utf8.isEmpty { scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars); utf8 = [] }
            }
            while true {
                guard let b = peek else { throw error("unterminated string", at: start) }
                if b == UInt8(ascii: "\"") { advance(); break }
                if b < 0x20 { throw error("a control character in a string (escape it)") }
                if b != UInt8(ascii: "\\") {
                    utf8.append(b)
                    advance()
                    continue
                }
                flush()
                let escapeLocation = location
                advance()
                guard let e = peek else { throw error("unterminated string", at: start) }
                advance()
                var code: UInt32
                switch e {
                case UInt8(ascii: "\""): code = 0x22
                case UInt8(ascii: "\\"): code = 0x5C
                case UInt8(ascii: "/"): code = 0x2F
                case UInt8(ascii: "b"): code = 0x08
                case UInt8(ascii: "f"): code = 0x0C
                case UInt8(ascii: "n"): code = 0x0A
                case UInt8(ascii: "r"): code = 0x0D
                case UInt8(ascii: "t"): code = 0x09
                case UInt8(ascii: "u"):
                    code = 0
                    for _ in 0..<4 {
                        guard let h = peek, let digit = Self.hexValue(h) else { throw error("a \\u escape takes four hex digits", at: escapeLocation) }
                        code = code * 16 + digit
                        advance()
                    }
                default:
                    throw error("unknown escape '\\\(Unicode.Scalar(e))'", at: escapeLocation)
                }
                if let high = pendingHigh {
                    pendingHigh = nil
                    guard (0xDC00...0xDFFF).contains(code) else { throw error("a lone surrogate in \\u escapes", at: escapeLocation) }
                    code = 0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)
                } else if (0xD800...0xDBFF).contains(code) {
                    pendingHigh = code
                    continue
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("a lone surrogate in \\u escapes", at: escapeLocation)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("not a Unicode scalar", at: escapeLocation) }
                scalars.append(scalar)
            }
            if pendingHigh != nil { throw error("a lone surrogate in \\u escapes", at: start) }
            flush()
            return String(scalars)
        }

        static func hexValue(_ b: UInt8) -> UInt32? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, within Double's range: a number
        /// that overflows, or underflows to zero, would otherwise be read as infinity or 0.
        mutating func number() throws(LayoutError) {
            let start = location
            let startIndex = index
            func digits() throws(LayoutError) {
                guard let d = peek, (0x30...0x39).contains(d) else { throw error("malformed number", at: start) }
                while let d = peek, (0x30...0x39).contains(d) { advance() }
            }
            if peek == UInt8(ascii: "-") { advance() }
            if peek == UInt8(ascii: "0") { advance() } else { try digits() }
            if peek == UInt8(ascii: ".") { advance(); try digits() }
            if let e = peek, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                advance()
                if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { advance() }
                try digits()
            }
            let text = String(decoding: bytes[startIndex..<index], as: UTF8.self)
            if NumericLiteral(parsing: text)?.isRepresentable != true {
                throw LayoutError(file: file, location: start, kind: .numberOutOfRange, message: "number \(text) is out of Double's range")
            }
        }
    }
}
