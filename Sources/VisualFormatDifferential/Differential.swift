import Foundation
import OutsideSolvers

/// One disagreement, reduced to one line, with both readings of the reduced line.
public struct ReducedDisagreement: Sendable, Hashable {
    public var agreement: Agreement
    /// The reduced line.
    public var line: String
    public var layoutBench: LineReading
    public var gtk: LineReading
    /// How many generated lines reduced to this one.
    public var count: Int
    /// The first generated line that did.
    public var example: String
}

/// The differential of LayoutBench's VFL parser and lowering against GTK 4's over seeded
/// generated lines (`layoutbench vfl-diff`).
public struct VisualFormatDifferential {
    public var lines: Int
    public var seed: UInt64

    public init(lines: Int, seed: UInt64) {
        self.lines = lines
        self.seed = seed
    }

    public struct Report: Sendable {
        public var lines: Int
        public var seed: UInt64
        public var gtkVersion: String
        /// Lines per class.
        public var counts: [Agreement: Int]
        /// Every disagreement, reduced; most frequent first.
        public var disagreements: [ReducedDisagreement]
    }

    /// Generates the lines, classifies each, reduces every disagreement.
    public func run(gtk: GtkVisualFormatParser) -> Report {
        var generator = LineGenerator(seed: seed)
        var classifier = Classifier(gtk: gtk)
        var counts: [Agreement: Int] = [:]
        var reduced: [String: ReducedDisagreement] = [:]
        var order: [String] = []
        for _ in 0..<lines {
            let line = generator.next()
            let agreement = classifier.agreement(line)
            counts[agreement, default: 0] += 1
            guard agreement.isDisagreement else { continue }
            let small = LineReducer.reduce(line, classifier: &classifier)
            if reduced[small] == nil {
                let (_, lb, g) = classifier.classify(small)
                reduced[small] = ReducedDisagreement(agreement: agreement, line: small, layoutBench: lb, gtk: g, count: 0, example: line)
                order.append(small)
            }
            reduced[small]!.count += 1
        }
        let disagreements = order.compactMap { reduced[$0] }.sorted {
            ($0.agreement, -$0.count, $0.line) < ($1.agreement, -$1.count, $1.line)
        }
        return Report(lines: lines, seed: seed, gtkVersion: gtk.version ?? "?", counts: counts, disagreements: disagreements)
    }
}

extension Agreement {
    /// Every class in table order, documented ones as they occur in `counts`.
    static func rows(_ counts: [Agreement: Int]) -> [Agreement] {
        let fixed: [Agreement] = [.identical, .sameMeaning, .bothReject, .onlyGtkRejects, .onlyLayoutBenchRejects, .differentMeaning, .gtkFailed]
        return (fixed + counts.keys.filter { if case .documented = $0 { return true } else { return false } }).sorted()
    }
}

extension VisualFormatDifferential.Report {
    /// The agreement table, then the reduced disagreements.
    public var table: String {
        var out = "VFL differential: \(lines) lines, seed \(seed), LayoutBench vs GTK \(gtkVersion)\n"
        let rows = Agreement.rows(counts)
        let width = rows.map(\.description.count).max() ?? 0
        for row in rows {
            let n = counts[row] ?? 0
            let share = lines > 0 ? String(format: "%5.1f%%", Double(n) * 100 / Double(lines)) : ""
            out += row.description.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                + String(repeating: " ", count: max(0, 6 - String(n).count)) + "\(n)  \(share)\n"
        }
        let conventions = Set(rows.flatMap { row -> [Convention] in if case .documented(let c) = row { return c } else { return [] } })
        if !conventions.isEmpty {
            out += "\nDocumented differences:\n"
            for convention in conventions.sorted() { out += "  \(convention)\n" }
        }
        if disagreements.isEmpty { return out + "\nNo disagreements.\n" }
        out += "\nReduced disagreements (\(disagreements.count)):\n"
        for d in disagreements {
            out += "  [\(d.agreement)] \(d.line)    (\(d.count) line\(d.count == 1 ? "" : "s"), e.g. \(d.example))\n"
            out += "      LayoutBench: \(d.layoutBench)\n      GTK:         \(d.gtk)\n"
        }
        return out
    }

    /// The reduced disagreements as JSON lines (one object each: class, line, both readings,
    /// count, example), for `--out`.
    public var disagreementLines: String {
        disagreements.map { d in
            let object: [String: Any] = [
                "class": d.agreement.description, "line": d.line, "layoutbench": d.layoutBench.description,
                "gtk": d.gtk.description, "count": d.count, "example": d.example, "seed": String(seed),
            ]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }.joined(separator: "\n") + (disagreements.isEmpty ? "" : "\n")
    }
}
