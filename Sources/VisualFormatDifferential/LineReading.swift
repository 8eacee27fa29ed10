import LayoutModel
import OutsideSolvers

/// What one parser made of one VFL line.
public enum LineReading: Sendable, Hashable, CustomStringConvertible {
    case constraints([CanonicalConstraint])
    /// The parser's error, with its position in the line (`column N: message`).
    case rejected(String)
    /// GTK's helper died or hung on the line.
    case failed(String)

    public var constraints: [CanonicalConstraint]? {
        if case .constraints(let list) = self { return list }
        return nil
    }

    public var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .constraints(let list): return list.isEmpty ? "no constraints" : list.map(\.description).joined(separator: "; ")
        case .rejected(let message): return "rejected: \(message)"
        case .failed(let why): return "failed: \(why)"
        }
    }
}

/// The views every differential line may name, declared for LayoutBench and handed to GTK.
public enum DifferentialViews {
    /// `top_bar` has an underscore, as a C identifier may (Apple reads view names as C identifiers).
    public static let names = ["a", "b", "c", "d", "top_bar"]
    /// The superview, `|`: LayoutBench's root, GTK's layout widget (named `super` in answers).
    public static let superview = "super"
}

/// LayoutBench's reading of a VFL line: the line in a file that declares the differential's
/// views as children of one root, parsed and lowered by `LayoutParser`.
public enum LayoutBenchReading {
    static let header = (["root \(DifferentialViews.superview) 375 667"] + DifferentialViews.names.map { "view \($0)" })
        .joined(separator: "\n") + "\n"
    static let lineNumber = DifferentialViews.names.count + 2

    public static func read(_ line: String) -> LineReading {
        // A line break inside the line would smuggle in other lines: not a VFL line.
        if line.contains(where: \.isNewline) { return .rejected("column 1: a VFL line is one line") }
        do {
            let system = try LayoutParser.parse(header + line + "\n", file: "vfl")
            return .constraints(system.constraints.map { CanonicalConstraint($0, in: system) })
        } catch {
            let location = error.location
            let column = location.line == lineNumber ? "column \(location.column)" : "line \(location.line) column \(location.column)"
            return .rejected("\(column): \(error.message)")
        }
    }

    /// The 1-based column of a rejection in the line, when it is one.
    static func column(of reading: LineReading) -> Int? {
        guard case .rejected(let message) = reading, message.hasPrefix("column ") else { return nil }
        return Int(message.dropFirst(7).prefix { $0.isNumber })
    }
}

/// GTK's reading of a VFL line through ``GtkVisualFormatParser``.
public enum GtkReading {
    public static func read(_ line: String, with gtk: GtkVisualFormatParser, strengthIsPriority: Bool = false) -> LineReading {
        read(gtk.parse(line, views: DifferentialViews.names), strengthIsPriority: strengthIsPriority)
    }

    static func read(_ answer: GtkVisualFormatAnswer, strengthIsPriority: Bool) -> LineReading {
        switch answer {
        case .constraints(let list, let log):
            // A line GTK parses while logging criticals is a failure of GTK's, not a reading.
            guard log.isEmpty else { return .failed("GTK logged: \(log.joined(separator: "; "))") }
            return .constraints(list.map { CanonicalConstraint($0, strengthIsPriority: strengthIsPriority) })
        case .rejected(_, let message, _):
            // GTK's message is `LINE:COLUMN: message\nthe line\n   ^~~`: keep the first line.
            let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
            if let colon = first.firstIndex(of: ":"), let second = first[first.index(after: colon)...].firstIndex(of: ":") {
                let column = first[first.index(after: colon)..<second]
                return .rejected("column \(column):\(first[first.index(after: second)...])")
            }
            return .rejected(first)
        case .failed(let why):
            return .failed(why)
        }
    }
}
