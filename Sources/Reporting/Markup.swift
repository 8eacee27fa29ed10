/// Escaping for text that came from a document (family names, notes, details are
/// user-supplied) before it goes into HTML, SVG, Markdown or a shell command line.
public enum Markup {
    /// Text safe inside an HTML or SVG element or a double-quoted attribute.
    public static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Text safe inside a Markdown table cell: no line breaks, pipes escaped, and the
    /// characters that would start emphasis, links or HTML escaped.
    static func markdownCell(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\n", "\r": out += " "
            case "|", "\\", "*", "_", "`", "[", "]", "<", ">": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// Text for inline Markdown code; backticks cannot be escaped there, so they become quotes.
    static func markdownCode(_ text: String) -> String {
        "`" + text.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "\n", with: " ") + "`"
    }

    /// A shell word: left bare when it only holds characters no shell interprets, otherwise
    /// single-quoted.
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || "._/-+=:,@".unicodeScalars.contains($0)
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A relative link target for a repro path, or nil when the path is absolute or names a
    /// URL scheme (`javascript:`, `http:`): a report links only to files beside it.
    static func relativeLink(_ path: String, prefix: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("\\") else { return nil }
        if let colon = path.firstIndex(of: ":"), !path[..<colon].contains("/") { return nil }
        return (prefix + path).unicodeScalars.map { scalar -> String in
            let safe = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
                || "-._~/".unicodeScalars.contains(scalar)
            guard !safe else { return String(scalar) }
            return String(scalar).utf8.map { "%" + (($0 < 16) ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        }.joined()
    }
}
