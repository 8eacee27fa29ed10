/// Where one finding signature of a fuzz report stands in the history (docs/history.md):
/// `new`, `open`, `fixed` or `back`, as of the run the report records.
public struct FindingHistoryNote: Sendable, Hashable {
    public var signature: String
    public var state: String
    public var firstSeen: String
    public var runsSeen: Int

    public init(signature: String, state: String, firstSeen: String, runsSeen: Int) {
        self.signature = signature
        self.state = state
        self.firstSeen = firstSeen
        self.runsSeen = runsSeen
    }
}

/// The section of a fuzz page that gives each signature's history state (when the report was
/// rendered with a history that recorded it).
enum FindingStatesSection {
    static func html(_ notes: [FindingHistoryNote]) -> String {
        var out = "<h2>Across nights</h2>\n<p>Each signature's state in the history: new tonight, open (known), back after it was fixed, or fixed.</p>\n"
        out += "<table><thead><tr><th>state</th><th>signature</th><th>first seen</th><th>runs seen</th></tr></thead><tbody>\n"
        for note in notes.sorted(by: { ($0.state, $0.signature) < ($1.state, $1.signature) }) {
            out += "<tr><td>\(Markup.html(note.state))</td><td><code>\(Markup.html(note.signature))</code></td>"
            out += "<td>\(Markup.html(note.firstSeen))</td><td class=\"num\">\(note.runsSeen)</td></tr>\n"
        }
        return out + "</tbody></table>"
    }

    static func markdown(_ notes: [FindingHistoryNote]) -> [String] {
        var lines = ["", "### Across nights", "", "| state | signature | first seen | runs seen |", "|---|---|---|---:|"]
        for note in notes.sorted(by: { ($0.state, $0.signature) < ($1.state, $1.signature) }) {
            lines.append("| \(Markup.markdownCell(note.state)) | \(Markup.markdownCode(note.signature)) | \(Markup.markdownCell(note.firstSeen)) | \(note.runsSeen) |")
        }
        return lines + [""]
    }
}
