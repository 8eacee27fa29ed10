/// Shrinks a VFL line while its disagreement stays: drops runs of tokens (views with their
/// predicates, connections, predicates, priorities, edges, the orientation), renames views to
/// `a` or `b` and simplifies numbers to 0 or 1, for as long as the line keeps its class.
public enum LineReducer {
    /// The smallest line found that the classifier still puts in `line`'s class.
    public static func reduce(_ line: String, classifier: inout Classifier) -> String {
        let target = classifier.agreement(line)
        var tokens = tokenize(line)
        func keeps(_ candidate: [Substring]) -> Bool {
            classifier.agreement(candidate.joined()) == target
        }
        var changed = true
        while changed {
            changed = false
            // Every run length, longest first: a view with its predicates is `[ a ( 0 ) ]`.
            var size = max(1, tokens.count - 1)
            while size >= 1 {
                var start = 0
                while start + size <= tokens.count {
                    var candidate = tokens
                    candidate.removeSubrange(start..<(start + size))
                    if keeps(candidate) {
                        tokens = candidate
                        changed = true
                    } else {
                        start += 1
                    }
                }
                size -= 1
            }
            // Views named a (then b) where the name does not matter, and numbers towards 0, 1,
            // then 1.5 for a fraction, so that lines differing only in names or numbers
            // reduce to one (only towards simpler tokens, so this ends).
            for i in tokens.indices {
                let simpler: [Substring]
                if DifferentialViews.names.contains(String(tokens[i])) {
                    simpler = Array((["a", "b"] as [Substring]).prefix { $0 != tokens[i] })
                } else if tokens[i].first?.isNumber == true {
                    let order: [Substring] = tokens[i].contains(".") ? ["0", "1", "1.5"] : ["0", "1"]
                    simpler = Array(order.prefix { $0 != tokens[i] })
                } else {
                    continue
                }
                for replacement in simpler {
                    var candidate = tokens
                    candidate[i] = replacement
                    if keeps(candidate) {
                        tokens = candidate
                        changed = true
                        break
                    }
                }
            }
        }
        return tokens.joined()
    }

    /// Names, numbers (digits and points), relations and single other characters.
    static func tokenize(_ line: String) -> [Substring] {
        var tokens: [Substring] = []
        var i = line.startIndex
        while i < line.endIndex {
            let c = line[i]
            var j = line.index(after: i)
            if c.isLetter || c == "_" {
                while j < line.endIndex, line[j].isLetter || line[j].isNumber || line[j] == "_" { j = line.index(after: j) }
            } else if c.isNumber {
                while j < line.endIndex, line[j].isNumber || line[j] == "." { j = line.index(after: j) }
            } else if "=<>".contains(c), j < line.endIndex, line[j] == "=" {
                j = line.index(after: j)
            }
            tokens.append(line[i..<j])
            i = j
        }
        return tokens
    }
}
