/// The one line model of every text the project reads (`.layout` files, and the positions
/// reported in JSON input): LF, CRLF and a lone CR each end a line, a byte-order mark at the
/// very start is skipped, and columns count Unicode scalars without the line's terminator.
///
/// Editors on every platform count lines this way; a model that split at LF only would read a
/// comment ending in CRLF as swallowing the next line (a Swift `Character` holds CRLF as one
/// grapheme, so `split(separator: "\n")` does not even see it).
enum SourceLines {
    /// The byte-order mark U+FEFF.
    static let byteOrderMark: Unicode.Scalar = "\u{FEFF}"

    /// The lines of `text` without their terminators. Text ending in a terminator has an
    /// empty last line, so the count is one more than the number of terminators.
    static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        forEachLine(of: text) { lines.append($0) }
        return lines
    }

    /// Calls `body` with each line (without its terminator), in order.
    static func forEachLine<E: Error>(of text: String, _ body: (Substring) throws(E) -> Void) throws(E) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        if start < scalars.endIndex, scalars[start] == byteOrderMark {
            start = scalars.index(after: start)
        }
        var index = start
        while index < scalars.endIndex {
            let c = scalars[index]
            if c == "\n" || c == "\r" {
                try body(Substring(scalars[start..<index]))
                index = scalars.index(after: index)
                if c == "\r", index < scalars.endIndex, scalars[index] == "\n" {
                    index = scalars.index(after: index)
                }
                start = index
            } else {
                index = scalars.index(after: index)
            }
        }
        try body(Substring(scalars[start..<scalars.endIndex]))
    }
}
