import Foundation
import LayoutModel

/// Something the importer approximated or could not express, for one view or the whole root.
public struct ImportNote: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A value UIKit computes outside Auto Layout, taken from the frames IB stored.
        case fromStoredFrames
        /// A model of UIKit behaviour the file does not spell out (margins, stack views, fonts).
        case modelled
        /// Something in the file that has no `.layout` counterpart, left out.
        case notExpressed
        /// Something removed as UIKit removes it (placeholder constraints, inactive variations).
        case removed
    }

    public var kind: Kind
    /// The IB object the note concerns, nil for the whole root.
    public var objectID: String?
    public var message: String

    public init(kind: Kind, objectID: String?, message: String) {
        self.kind = kind
        self.objectID = objectID
        self.message = message
    }

    public var description: String {
        "\(kind.rawValue)\(objectID.map { " [\($0)]" } ?? ""): \(message)"
    }
}

/// One layout root turned into a system, with the frames IB stored as its expected answer.
public struct ImportedLayout: Sendable {
    /// A file-name-safe name, unique within its source file: `STEM-ROOTID`.
    public var name: String
    public var sourceFile: String
    public var rootID: String
    public var rootKind: LayoutRootCandidate.Kind
    public var platform: IBPlatform
    public var device: DeviceProfile
    public var system: ConstraintSystem
    /// Item name → the IB object it stands for (views and guides; synthesized items such as
    /// stack-view spacers name the stack view).
    public var itemSources: [String: String]
    /// IB view ID → the item that stands for it.
    public var itemForObject: [String: String]
    /// Frames relative to the parent (UIKit's `frame`; on macOS converted to a top-left
    /// origin and to alignment rectangles), `nil` where IB stored nothing meaningful
    /// (synthesized items, guides, views IB marks misplaced or ambiguous).
    public var expectedFrames: [String: [Double?]]
    public var notes: [ImportNote]
    /// The frames IB stored, in the root's coordinates (alignment rectangles, y down), for
    /// the items that have one; used to tell a stale file from an approximation.
    public var storedGlobalFrames: [String: [Double]]
    /// macOS items whose superview is not flipped (AppKit measures their y upwards), for
    /// rounding as IB does.
    public var yUpItems: Set<String>
    /// IDs of views IB marks `misplaced="YES"` (stored frame differs from the constraints).
    public var misplacedViews: [String]
    /// IDs of views IB marks `ambiguous="YES"`.
    public var ambiguousViews: [String]
    /// How the Xcode that saved the file rounded the frames it stored.
    public var storedFrameRounding: StoredFrameRounding
    /// Image views showing a symbol or template image: their stored frame is not the
    /// rectangle Auto Layout places (``ViewCatalog/showsSymbolImage(_:)``).
    public var symbolImageItems: Set<String>

    /// The file's required constraints (`ib_…`) that the stored frames break by more than a
    /// pixel (rounding of stored frames aside): the file is stale, or UIKit broke one of them.
    public var constraintsBrokenByStoredFrames: [String] {
        violatedRequiredConstraints(tolerance: 1 / device.scale + 1e-6) { _ in true }
    }

    /// The file's required constraints that the stored frames break by more than
    /// `tolerance`, among those `considered` accepts, as `NAME by AMOUNT`.
    private func violatedRequiredConstraints(tolerance: Double, considered: (Constraint) -> Bool) -> [String] {
        var values = [Double](repeating: .nan, count: system.variableCount)
        for (index, item) in system.items.enumerated().dropFirst() {
            guard let frame = storedGlobalFrames[item.name] else { continue }
            for k in 0..<4 { values[4 * (index - 1) + k] = frame[k] }
        }
        var broken: [String] = []
        let lowered = system.lowered(as: Double.self)
        for row in lowered.rows where row.isRequired {
            let name = system.constraintName(row.constraintIndex)
            guard name.hasPrefix("ib_"), row.terms.allSatisfy({ !values[$0.variable].isNaN }),
                  considered(system.constraints[row.constraintIndex]) else { continue }
            let d = row.value(at: values)
            let violated: Bool
            switch row.relation {
            case .equal: violated = abs(d) > tolerance
            case .lessThanOrEqual: violated = d > tolerance
            case .greaterThanOrEqual: violated = d < -tolerance
            }
            if violated { broken.append("\(name) by \(Self.number((d * 1000).rounded() / 1000))") }
        }
        return broken
    }

    /// The mechanical test for a stale file: the file's required constraints (`ib_…`) that
    /// the stored frames break by more than a point — more than any rounding, pixel or
    /// whole-point, can explain — leaving out constraints on baselines (text metrics are
    /// modelled, not stored) and on symbol images (their alignment rectangle is not known).
    /// Such frames contradict the file's own constraints, so Xcode would mark the views
    /// misplaced on opening the file; a root that disagrees for such a file is stale, not an
    /// approximation of the importer. Empty when the stored frames fit the constraints.
    public var staleEvidence: [String] {
        violatedRequiredConstraints(tolerance: 1 + 1e-6) { constraint in
            let references = [constraint.first] + (constraint.second.map { [$0] } ?? [])
            return references.allSatisfy { reference in
                ![.firstBaseline, .lastBaseline].contains(reference.attribute)
                    && !symbolImageItems.contains(system.items[reference.item].name)
            }
        }
    }

    /// True when Xcode itself marks a view of this root misplaced or ambiguous: the stored
    /// frames are then not an answer of the constraints.
    public var isMarkedByXcode: Bool { !misplacedViews.isEmpty || !ambiguousViews.isEmpty }

    /// The `.layout` text: a header of comments (source, object IDs, approximations), then
    /// the system in canonical form.
    public var layoutText: String {
        var header = "# Imported from Interface Builder by `layoutbench import ib`.\n"
        header += "# source: \(sourceFile)\n"
        header += "# root: \(rootKind.rawValue) \(rootID) (\(platform.rawValue), device \(device.id), scale \(Self.number(device.scale)))\n"
        header += "# stored frames rounded: \(storedFrameRounding.rawValue)\n"
        if !misplacedViews.isEmpty { header += "# xcode-misplaced: \(misplacedViews.joined(separator: " "))\n" }
        if !ambiguousViews.isEmpty { header += "# xcode-ambiguous: \(ambiguousViews.joined(separator: " "))\n" }
        header += "# items (name = IB object):\n"
        for item in system.items {
            if let source = itemSources[item.name] { header += "#   \(item.name) = \(source)\n" }
        }
        if !notes.isEmpty {
            header += "# notes:\n"
            for note in notes {
                header += "#   " + note.description.replacingOccurrences(of: "\n", with: " ") + "\n"
            }
        }
        return header + system.canonicalText
    }

    /// `NAME.expected.json`: the spec's result form with IB's frames. IB stores no objective
    /// or ambiguity, so `compare` says that only frames are meant to be compared, after
    /// rounding to `scale` as `rounding` says.
    public var expectedJSON: Data {
        let document = ExpectedDocument(
            status: "optimal", frames: expectedFrames, objective: [], ambiguous: [], broken: [], conflict: [],
            compare: ["frames"], scale: device.scale, rounding: storedFrameRounding.rawValue, source: "interface-builder")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Sorted keys make the file byte-stable across runs.
        return ((try? encoder.encode(document)) ?? Data()) + Data("\n".utf8)
    }

    /// The result form (spec §6) with what IB can say, plus what to compare and how.
    private struct ExpectedDocument: Encodable {
        var status: String
        var frames: [String: [Double?]]
        var objective: [Double]
        var ambiguous: [String]
        var broken: [String]
        var conflict: [String]
        var compare: [String]
        var scale: Double
        /// How the stored frames were rounded (``StoredFrameRounding``).
        var rounding: String
        var source: String
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// A layout root that was not imported, and why.
public struct SkippedRoot: Sendable, Hashable {
    public var rootID: String
    public var kind: LayoutRootCandidate.Kind
    /// Positioned reason (`file:line:column: message`).
    public var reason: IBImportError
}

/// What importing one file gave.
public struct IBFileImport: Sendable {
    public var file: String
    public var layouts: [ImportedLayout]
    public var skipped: [SkippedRoot]
    /// Notes about the whole file (device assumptions).
    public var notes: [String]
}
