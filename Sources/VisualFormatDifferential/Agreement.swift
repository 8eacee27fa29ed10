import Foundation
import OutsideSolvers

/// How LayoutBench's and GTK's readings of one VFL line compare.
public enum Agreement: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The same constraints, written the same way, in the same order.
    case identical
    /// The same constraints after normalisation (sides swapped, relation flipped with the
    /// signs, another order).
    case sameMeaning
    /// The same once the named documented conventions are applied (``Convention``).
    case documented([Convention])
    case bothReject
    case onlyGtkRejects
    case onlyLayoutBenchRejects
    /// Both accept the line and read different constraints from it.
    case differentMeaning
    /// GTK's helper crashed, hung or logged a critical on the line.
    case gtkFailed

    public var description: String {
        switch self {
        case .identical: return "identical"
        case .sameMeaning: return "same meaning after normalisation"
        case .documented(let conventions): return "documented: " + conventions.map(\.name).joined(separator: " + ")
        case .bothReject: return "both reject"
        case .onlyGtkRejects: return "only GTK rejects"
        case .onlyLayoutBenchRejects: return "only LayoutBench rejects"
        case .differentMeaning: return "different meaning"
        case .gtkFailed: return "GTK failed (crash, hang, critical)"
        }
    }

    /// A disagreement the differential reduces and lists (documented differences are not).
    public var isDisagreement: Bool {
        switch self {
        case .onlyGtkRejects, .onlyLayoutBenchRejects, .differentMeaning, .gtkFailed: return true
        default: return false
        }
    }

    private var rank: Int {
        switch self {
        case .identical: return 0
        case .sameMeaning: return 1
        case .documented: return 2
        case .bothReject: return 3
        case .onlyGtkRejects: return 4
        case .onlyLayoutBenchRejects: return 5
        case .differentMeaning: return 6
        case .gtkFailed: return 7
        }
    }

    public static func < (a: Agreement, b: Agreement) -> Bool {
        if a.rank != b.rank { return a.rank < b.rank }
        if case .documented(let x) = a, case .documented(let y) = b { return x.lexicographicallyPrecedes(y) }
        return false
    }
}

/// A difference between the two parsers that each documents as its design, so a line that
/// differs only by it is not a disagreement.
public enum Convention: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Standard spacing `-` next to `|`: Apple (and LayoutBench) 20, GTK its one default
    /// spacing, 8, as between views. Applied by reading `|-[` as `|-8-[` and `]-|` as `]-8-|`.
    case superviewSpacing
    /// `@N`: Apple's priority N; GTK's strength N (GTK's required is 1001001000, medium 1000),
    /// which the GTK adapter's mapping (strength = priority × 10⁶) reads as priority N / 10⁶.
    /// Applied by reading GTK's strengths as the numbers written.
    case priorityScale
    /// LayoutBench's ` align ATTR` suffix (its spelling of NSLayoutFormatAlignAll… options):
    /// GTK skips every character it does not know, so it reads the line without it.
    case alignSuffix
    /// LayoutBench's named priorities `high`, `low`, `fitting`: GTK knows `weak`, `medium`,
    /// `strong` and `required`. Applied by writing them as 750, 250, 50 for GTK.
    case layoutBenchPriorityNames
    /// GTK's additions to Apple's grammar (`*`/`/` multipliers, `+`/`-` constants and `.attribute`
    /// in predicates, `@weak`/`@medium`/`@strong`): LayoutBench, like Apple, rejects them.
    case gtkExtension

    /// The short name the agreement table uses.
    public var name: String {
        switch self {
        case .superviewSpacing: return "superview spacing"
        case .priorityScale: return "priority scale"
        case .alignSuffix: return "align suffix"
        case .layoutBenchPriorityNames: return "LayoutBench priority names"
        case .gtkExtension: return "GTK extension"
        }
    }

    public var description: String {
        switch self {
        case .superviewSpacing: return "superview spacing (Apple 20, GTK 8)"
        case .priorityScale: return "priority scale (GTK reads @N as strength N)"
        case .alignSuffix: return "align suffix (LayoutBench's; GTK skips it)"
        case .layoutBenchPriorityNames: return "named priorities high/low/fitting (LayoutBench's)"
        case .gtkExtension: return "GTK's grammar extension (Apple and LayoutBench reject it)"
        }
    }

    public static func < (a: Convention, b: Convention) -> Bool { a.rawValue < b.rawValue }
}

/// The classification of lines: both readings, the conventions tried, the class.
public struct Classifier {
    let gtk: GtkVisualFormatParser
    private var cache: [String: Agreement] = [:]

    public init(gtk: GtkVisualFormatParser) {
        self.gtk = gtk
    }

    /// LayoutBench's and GTK's readings of `line` and how they compare.
    public mutating func classify(_ line: String) -> (agreement: Agreement, layoutBench: LineReading, gtk: LineReading) {
        let lb = LayoutBenchReading.read(line)
        let g = GtkReading.read(line, with: gtk)
        if let known = cache[line] { return (known, lb, g) }
        let agreement = compare(line, lb, g)
        cache[line] = agreement
        return (agreement, lb, g)
    }

    /// The class alone (cached: the reducer asks about the same candidates again).
    public mutating func agreement(_ line: String) -> Agreement {
        if let known = cache[line] { return known }
        return classify(line).agreement
    }

    private func compare(_ line: String, _ lb: LineReading, _ g: LineReading) -> Agreement {
        switch (lb, g) {
        case (_, .failed), (.failed, _):
            return .gtkFailed
        case (.rejected, .rejected):
            return .bothReject
        case (.rejected, .constraints):
            return Self.rejectsGtkExtension(line, lb) ? .documented([.gtkExtension]) : .onlyLayoutBenchRejects
        case (.constraints(let ours), .rejected):
            // Named priorities of LayoutBench's own: written as numbers, does GTK agree?
            let renamed = Self.numericPriorities(line)
            guard renamed != line, let theirs = GtkReading.read(renamed, with: gtk).constraints else { return .onlyGtkRejects }
            switch conventions(line, ours, renamed, theirs) {
            case .identical, .sameMeaning: return .documented([.layoutBenchPriorityNames])
            case .documented(let more): return .documented([.layoutBenchPriorityNames] + more)
            // Read with numbers, GTK means something else: that is the disagreement.
            default: return .differentMeaning
            }
        case (.constraints(let ours), .constraints(let theirs)):
            return conventions(line, ours, line, theirs)
        }
    }

    /// Compares LayoutBench's `ours` (for `line`) with GTK's `theirs` (for `gtkLine`): identical,
    /// same meaning, or the smallest set of conventions under which they mean the same.
    private func conventions(_ line: String, _ ours: [CanonicalConstraint], _ gtkLine: String,
                             _ theirs: [CanonicalConstraint]) -> Agreement {
        if ours == theirs { return .identical }
        if Self.sameMeaning(ours, theirs) { return .sameMeaning }
        let candidates: [Convention] = [.superviewSpacing, .priorityScale, .alignSuffix]
        // Every subset, smallest first: a line differs by as few conventions as explain it.
        let subsets = (1..<(1 << candidates.count)).map { mask in candidates.indices.filter { mask & (1 << $0) != 0 }.map { candidates[$0] } }
            .sorted { $0.count < $1.count }
        for subset in subsets {
            var lbLine = line
            if subset.contains(.superviewSpacing) { lbLine = Self.explicitSuperviewSpacing(lbLine) }
            if subset.contains(.alignSuffix) { lbLine = Self.withoutAlign(lbLine) }
            if lbLine == line && !subset.contains(.priorityScale) { continue }
            guard let lbSide = lbLine == line ? ours : LayoutBenchReading.read(lbLine).constraints else { continue }
            let gtkSide = subset.contains(.priorityScale)
                ? GtkReading.read(gtkLine, with: gtk, strengthIsPriority: true).constraints ?? [] : theirs
            if Self.sameMeaning(lbSide, gtkSide) { return .documented(subset) }
        }
        return .differentMeaning
    }

    static func sameMeaning(_ a: [CanonicalConstraint], _ b: [CanonicalConstraint]) -> Bool {
        guard a.count == b.count else { return false }
        var remaining = b.map(\.meaning)
        for meaning in a.map(\.meaning) {
            guard let i = remaining.firstIndex(of: meaning) else { return false }
            remaining.remove(at: i)
        }
        return true
    }

    // MARK: Conventions as rewrites of the line

    /// `|-[` → `|-8-[`, `]-|` → `]-8-|`: GTK's standard spacing next to the superview.
    static func explicitSuperviewSpacing(_ line: String) -> String {
        line.replacingOccurrences(of: "|-[", with: "|-8-[").replacingOccurrences(of: "]-|", with: "]-8-|")
    }

    /// The line without LayoutBench's ` align …` suffix.
    static func withoutAlign(_ line: String) -> String {
        guard let range = line.range(of: "align") else { return line }
        var head = line[..<range.lowerBound]
        while head.last == " " { head = head.dropLast() }
        return String(head)
    }

    /// `@high`, `@low`, `@fitting` written as 750, 250, 50.
    static func numericPriorities(_ line: String) -> String {
        var out = line
        for (name, value) in [("high", "750"), ("low", "250"), ("fitting", "50")] {
            out = out.replacingOccurrences(of: "@" + name, with: "@" + value)
        }
        return out
    }

    /// True when LayoutBench's rejection points at one of GTK's additions to Apple's grammar:
    /// an operator or `.attribute` after a predicate's object, or a GTK strength name.
    static func rejectsGtkExtension(_ line: String, _ reading: LineReading) -> Bool {
        guard let column = LayoutBenchReading.column(of: reading) else { return false }
        let scalars = Array(line.unicodeScalars)
        guard column >= 1, column <= scalars.count else { return false }
        let at = Character(scalars[column - 1])
        let before = String(String.UnicodeScalarView(scalars[..<(column - 1)]))
        // Inside a view's or a connection's parentheses, after the predicate's object.
        let open = before.lastIndex(of: "("), close = before.lastIndex(of: ")")
        let insideParentheses = open != nil && (close == nil || close! < open!)
        if insideParentheses, "*/+-.".contains(at), let last = before.last, last.isLetter || last.isNumber || last == "_" {
            return true
        }
        let rest = String(String.UnicodeScalarView(scalars[(column - 1)...]))
        return before.hasSuffix("@") && ["weak", "medium", "strong"].contains { rest.hasPrefix($0) }
    }
}
