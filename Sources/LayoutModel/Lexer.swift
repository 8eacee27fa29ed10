/// A token of one line of a `.layout` file.
struct Token: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case identifier
        /// An unsigned decimal literal (signs are separate tokens).
        case number
        /// A quoted string; `text` holds the unescaped contents.
        case string
        /// One of `. : * + - @ ( ) [ ] | ,` or a relation `== <= >=`.
        case symbol
    }

    var kind: Kind
    var text: Substring
    /// The unescaped contents of a string token.
    var stringValue: String?
    var location: SourceLocation
    /// True when whitespace (or the line start) precedes the token.
    var spaceBefore: Bool

    func isSymbol(_ s: String) -> Bool { kind == .symbol && text == s }
    func isWord(_ s: String) -> Bool { kind == .identifier && text == s }

    /// How the token reads in an error message.
    var quoted: String {
        switch kind {
        case .string: return "string"
        default: return "'\(text)'"
        }
    }
}

/// Splits one line into tokens. Comments (`#` to the end of the line) are dropped.
///
/// Lines come from ``SourceLines`` without their terminators, so a line never holds a CR or
/// an LF: one in the middle of a string is its end (an unterminated string).
struct Lexer {
    let file: String

    func tokens(of line: Substring, lineNumber: Int) throws(LayoutError) -> [Token] {
        var tokens: [Token] = []
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        var column = 1
        var sawSpace = true

        func location() -> SourceLocation { SourceLocation(line: lineNumber, column: column) }
        func error(_ message: String, at loc: SourceLocation) -> LayoutError {
            LayoutError(file: file, location: loc, kind: .syntax, message: message)
        }

        while index < scalars.endIndex {
            let c = scalars[index]
            if c == " " || c == "\t" {
                sawSpace = true
                index = scalars.index(after: index)
                column += 1
                continue
            }
            if c == "#" { break }
            let start = index
            let startLocation = location()
            var kind = Token.Kind.symbol
            var stringValue: String?
            func advance() { index = scalars.index(after: index); column += 1 }
            func peek() -> Unicode.Scalar? { index < scalars.endIndex ? scalars[index] : nil }

            if c.isIdentifierStart {
                kind = .identifier
                while let p = peek(), p.isIdentifierStart || p.isDigit { advance() }
            } else if c.isDigit {
                kind = .number
                while let p = peek(), p.isDigit { advance() }
                if peek() == "." { advance(); while let p = peek(), p.isDigit { advance() } }
                if let p = peek(), p == "e" || p == "E" {
                    // Only an exponent if digits follow (optionally signed).
                    var look = scalars.index(after: index)
                    if look < scalars.endIndex, scalars[look] == "+" || scalars[look] == "-" {
                        look = scalars.index(after: look)
                    }
                    if look < scalars.endIndex, scalars[look].isDigit {
                        while index < look { advance() }
                        while let p = peek(), p.isDigit { advance() }
                    }
                }
                // A number glued to letters (`12px`) is one bad token, not two.
                if let p = peek(), p.isIdentifierStart || p == "." {
                    while let p = peek(), p.isIdentifierStart || p.isDigit || p == "." { advance() }
                    throw error("malformed number '\(String(scalars[start..<index]))'", at: startLocation)
                }
            } else if c == "\"" {
                kind = .string
                advance()
                var value = ""
                var closed = false
                while let p = peek() {
                    advance()
                    if p == "\"" { closed = true; break }
                    if p == "\\" {
                        guard let q = peek() else { break }
                        advance()
                        switch q {
                        case "n": value.unicodeScalars.append("\n")
                        case "t": value.unicodeScalars.append("\t")
                        default: value.unicodeScalars.append(q)
                        }
                    } else {
                        value.unicodeScalars.append(p)
                    }
                }
                guard closed else { throw error("unterminated string", at: startLocation) }
                stringValue = value
            } else if (c == "=" || c == "<" || c == ">") {
                advance()
                guard peek() == "=" else {
                    throw error("unknown symbol '\(c)'; relations are ==, <= and >=", at: startLocation)
                }
                advance()
            } else if ".:*+-@()[]|,".unicodeScalars.contains(c) {
                advance()
            } else {
                throw error("unexpected character '\(c.escaped(asASCII: true))'", at: startLocation)
            }
            tokens.append(Token(
                kind: kind, text: Substring(String(scalars[start..<index])), stringValue: stringValue,
                location: startLocation, spaceBefore: sawSpace))
            sawSpace = false
        }
        return tokens
    }
}

extension Unicode.Scalar {
    var isDigit: Bool { ("0"..."9").contains(self) }
    var isIdentifierStart: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) || self == "_" }
}
