import Foundation

/// One GtkConstraint as GTK's VFL parser made it: `target.targetAttribute REL multiplier ×
/// source.sourceAttribute + constant @strength` (GTK's own form). `super` is the layout's
/// widget (VFL's `|`); a constant constraint has no source (attribute `none`).
public struct GtkVisualFormatConstraint: Sendable, Hashable, Decodable {
    public var target: String
    /// GTK's attribute names: left, right, top, bottom, start, end, width, height, centerX, centerY, baseline.
    public var targetAttribute: String
    /// `==`, `<=` or `>=`.
    public var relation: String
    public var source: String?
    public var sourceAttribute: String
    public var multiplier: Double
    public var constant: Double
    /// GTK's strength: GTK_CONSTRAINT_STRENGTH_REQUIRED (``requiredStrength``) or a weight.
    public var strength: Int

    /// GTK_CONSTRAINT_STRENGTH_REQUIRED in GTK 4.
    public static let requiredStrength = 1_001_001_000

    public init(target: String, targetAttribute: String, relation: String, source: String?, sourceAttribute: String,
                multiplier: Double, constant: Double, strength: Int) {
        self.target = target
        self.targetAttribute = targetAttribute
        self.relation = relation
        self.source = source
        self.sourceAttribute = sourceAttribute
        self.multiplier = multiplier
        self.constant = constant
        self.strength = strength
    }

    enum CodingKeys: String, CodingKey {
        case target, relation, source, multiplier, constant, strength
        case targetAttribute = "target_attribute"
        case sourceAttribute = "source_attribute"
    }
}

/// What GTK made of one VFL line.
public enum GtkVisualFormatAnswer: Sendable, Hashable {
    /// The constraints, in the order GTK made them, and anything GTK logged meanwhile.
    case constraints([GtkVisualFormatConstraint], log: [String])
    /// GTK's GError (GTK_CONSTRAINT_VFL_PARSER_ERROR code and message, with its `line:column`).
    case rejected(code: Int, message: String, log: [String])
    /// The helper died, hung or answered garbage on this line (a fresh one takes the next).
    case failed(String)
}

/// GTK 4's own VFL parser (`gtk_constraint_layout_add_constraints_from_descriptionv`) through
/// the small C program `scripts/solvers/gtk/build/gtk_vfl` (built beside the GTK adapter by
/// scripts/install-outside-solvers.sh), one long-lived process for many lines.
///
/// Not thread-safe: one caller at a time.
public final class GtkVisualFormatParser {
    public let executable: String
    private var session: AdapterSession?
    /// Longest wait for one line's answer; GTK parses a line in microseconds.
    public var timeout: Duration = .seconds(10)

    public init(executable: String) {
        self.executable = executable
    }

    /// The helper beside the manifest LayoutBench uses (``AdapterManifest/locate(environment:)``).
    public static func located() -> GtkVisualFormatParser? {
        guard let manifest = AdapterManifest.locate() else { return nil }
        return GtkVisualFormatParser(
            executable: manifest.deletingLastPathComponent().appendingPathComponent("gtk/build/gtk_vfl").path)
    }

    /// True when the helper has been built (GTK 4 and json-glib were present).
    public var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// GTK's version, from the helper's hello (nil when it cannot start).
    public var version: String? {
        try? running().hello.version
    }

    private func running() throws(AdapterFailure) -> AdapterSession {
        if let session, !session.isDead { return session }
        let started = try AdapterSession(command: [executable], startTimeout: .seconds(20))
        session = started
        return started
    }

    /// GTK's constraints for `line` with `views` as the view names (each a target of its own),
    /// GTK's default spacing (`-1`: GTK's fallback, 8) unless given.
    public func parse(_ line: String, views: [String], horizontalSpacing: Int = -1, verticalSpacing: Int = -1)
        -> GtkVisualFormatAnswer
    {
        do {
            let reply = try running().request(
                ["type": "vfl", "line": line, "views": views, "hspacing": horizontalSpacing, "vspacing": verticalSpacing],
                as: Reply.self, timeout: timeout)
            switch reply.type {
            case "constraints": return .constraints(reply.constraints ?? [], log: reply.log ?? [])
            case "rejected": return .rejected(code: reply.code ?? -1, message: reply.message ?? "", log: reply.log ?? [])
            default:
                return .failed("the helper reported an error: \(reply.message ?? reply.type)")
            }
        } catch {
            session?.kill()
            session = nil
            return .failed(error.description)
        }
    }

    /// Ends the helper.
    public func close() {
        session?.close()
        session = nil
    }

    deinit { session?.close() }

    struct Reply: Decodable, IdentifiedReply {
        var type: String
        var id: Int?
        var constraints: [GtkVisualFormatConstraint]?
        var code: Int?
        var message: String?
        var log: [String]?
    }
}
