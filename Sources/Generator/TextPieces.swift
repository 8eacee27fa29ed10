/// Text cut into words and the runs of separators between them, for the hostile-input
/// tests' seeded mutations: dropping, doubling, swapping or replacing one piece keeps a
/// mutation local to a token, so most mutants stay near-valid and reach deep into a reader.
public enum TextPieces {
    /// The pieces of `text`, alternately words and separator runs; joined, they give `text`.
    public static func split(_ text: String, separators: Set<Character> = [" ", "\n", "\t"]) -> [String] {
        var pieces: [String] = []
        var current = ""
        var inWord = false
        for ch in text {
            let isSeparator = separators.contains(ch)
            if isSeparator == inWord && !current.isEmpty {
                pieces.append(current)
                current = ""
            }
            inWord = !isSeparator
            current.append(ch)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}
