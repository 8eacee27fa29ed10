import Foundation
import LayoutModel

/// Imports a folder of Interface Builder files (one sub-folder per app, as
/// `../shared/corpora/xib` is laid out), solves every imported root with a caller-given
/// solver, and compares the frames with the ones Xcode stored. The result is the
/// `Corpora/apps/manifest.json` document.
public enum AppCorpus {
    /// Every `.xib` and `.storyboard` under `root`, as paths relative to it, sorted.
    public static func files(under root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        for case let relative as String in walker where relative.hasSuffix(".xib") || relative.hasSuffix(".storyboard") {
            found.append(relative)
        }
        return found.sorted()
    }

    /// The app a file belongs to: its first path component.
    public static func app(of relativePath: String) -> String {
        String(relativePath.split(separator: "/").first ?? Substring(relativePath))
    }

    /// Imports and checks every file. `solve` returns nil when it cannot solve a system.
    /// `previous` carries hand-written explanations forward (matched by file and root).
    public static func check(root: String, previous: AppsManifest? = nil,
                             solve: (ConstraintSystem) -> Solution?) -> AppsManifest {
        var manifest = AppsManifest(files: [], apps: [])
        let explanations = previous?.explanations ?? [:]
        for relative in files(under: root) {
            let path = (root as NSString).appendingPathComponent(relative)
            var entry = AppsManifest.File(file: relative, error: nil, roots: [])
            do {
                let imported = try InterfaceBuilderImporter.importFile(at: path, displayName: relative)
                for layout in imported.layouts {
                    var r = AppsManifest.Root(id: layout.rootID, kind: layout.rootKind.rawValue, outcome: .imported)
                    r.layout = layout.name
                    r.views = layout.system.viewCount
                    r.constraints = layout.system.constraints.count
                    r.xcode = layout.misplacedViews.isEmpty ? (layout.ambiguousViews.isEmpty ? .clean : .ambiguous) : .misplaced
                    if let solution = solve(layout.system) {
                        let agreement = FrameAgreement(layout: layout, solution: solution)
                        r.agrees = agreement.agrees
                        if !agreement.agrees {
                            r.mismatches = Array(agreement.mismatches.prefix(4))
                            let broken = layout.constraintsBrokenByStoredFrames
                            if !broken.isEmpty { r.brokenByStoredFrames = broken }
                            let stale = layout.staleEvidence
                            if r.xcode == .clean && !stale.isEmpty { r.stale = stale }
                        }
                    } else {
                        r.agrees = false
                        r.mismatches = ["the solver gave no solution"]
                    }
                    // An explanation is kept only while the root still disagrees.
                    if r.agrees != true { r.explanation = explanations["\(relative)#\(layout.rootID)"] }
                    entry.roots.append(r)
                }
                for skipped in imported.skipped {
                    var r = AppsManifest.Root(id: skipped.rootID, kind: skipped.kind.rawValue, outcome: .skipped)
                    r.reason = skipped.reason.description
                    entry.roots.append(r)
                }
                entry.roots.sort { $0.id < $1.id }
            } catch {
                entry.error = error.description
            }
            manifest.files.append(entry)
        }
        manifest.apps = summarize(manifest.files)
        return manifest
    }

    /// Per-app counts.
    static func summarize(_ files: [AppsManifest.File]) -> [AppsManifest.App] {
        var apps: [String: AppsManifest.App] = [:]
        for file in files {
            let name = app(of: file.file)
            var a = apps[name] ?? AppsManifest.App(app: name)
            a.files += 1
            for r in file.roots {
                a.roots += 1
                guard r.outcome == .imported else { a.skipped += 1; continue }
                a.imported += 1
                guard r.xcode == .clean else { a.markedByXcode += 1; continue }
                a.clean += 1
                if r.agrees == true { a.agreeing += 1 } else if r.stale != nil { a.stale += 1 }
            }
            apps[name] = a
        }
        return apps.values.sorted { $0.app < $1.app }
    }
}

/// `Corpora/apps/manifest.json`: which roots of which file were imported or skipped (and
/// why), whether Xcode marks them, and whether the exact backend's rounded frames equal the
/// stored ones. The tests re-import the corpus and hold it to these counts.
public struct AppsManifest: Codable, Sendable, Hashable {
    public enum Outcome: String, Codable, Sendable { case imported, skipped }
    public enum XcodeMark: String, Codable, Sendable { case clean, misplaced, ambiguous }

    public struct Root: Codable, Sendable, Hashable {
        public var id: String
        public var kind: String
        public var outcome: Outcome
        /// The layout's name (`NAME.layout`), for imported roots.
        public var layout: String?
        public var views: Int?
        public var constraints: Int?
        /// Whether Xcode marks a view of the root misplaced or ambiguous.
        public var xcode: XcodeMark?
        /// Whether the exact backend's rounded frames equal the stored ones.
        public var agrees: Bool?
        /// The first differences, when it does not agree.
        public var mismatches: [String]?
        /// Required constraints of the file that the stored frames break (the file is stale,
        /// or UIKit broke another constraint than the format's rule picks).
        public var brokenByStoredFrames: [String]?
        /// Set for a clean root that does not agree when the file is stale: the required
        /// constraints its stored frames break beyond rounding (``ImportedLayout/staleEvidence``).
        /// Such a root is left out of the agreement rate.
        public var stale: [String]?
        /// Why a root does not agree: an approximation of the importer, or a stale file
        /// (written by hand; kept when the manifest is regenerated).
        public var explanation: String?
        /// Why a root was skipped.
        public var reason: String?

        public init(id: String, kind: String, outcome: Outcome) {
            self.id = id
            self.kind = kind
            self.outcome = outcome
        }
    }

    public struct File: Codable, Sendable, Hashable {
        /// Relative to the corpus folder.
        public var file: String
        /// Set when the file as a whole could not be read.
        public var error: String?
        public var roots: [Root]
    }

    public struct App: Codable, Sendable, Hashable {
        public var app: String
        public var files = 0
        public var roots = 0
        public var imported = 0
        public var skipped = 0
        /// Imported roots Xcode marks misplaced or ambiguous (not counted for agreement).
        public var markedByXcode = 0
        /// Imported roots Xcode does not mark.
        public var clean = 0
        /// Clean roots whose rounded frames equal the stored ones: the floor the tests hold.
        public var agreeing = 0
        /// Clean roots that do not agree because the file is stale (``Root/stale``); none in
        /// manifests written before stale roots were counted.
        @DefaultWhenAbsent<NoStaleRoots> public var stale = 0

        public init(app: String) { self.app = app }

        enum CodingKeys: String, CodingKey {
            case app, files, roots, imported, skipped, markedByXcode, clean, agreeing, stale
        }

        /// What a manifest written before stale roots were counted holds: none.
        public enum NoStaleRoots: AbsentValueDefault {
            public static let value = 0
        }

        /// Clean roots less stale ones: what agreement is measured on.
        public var measured: Int { clean - stale }

        /// agreeing / measured.
        public var agreementRate: Double { measured == 0 ? 1 : Double(agreeing) / Double(measured) }
    }

    public var schema = "layoutbench.apps-manifest/1"
    public var files: [File]
    public var apps: [App]

    public init(files: [File], apps: [App]) {
        self.files = files
        self.apps = apps
    }

    /// `file#rootID` → explanation, for roots that have one.
    public var explanations: [String: String] {
        var map: [String: String] = [:]
        for file in files {
            for root in file.roots {
                if let e = root.explanation { map["\(file.file)#\(root.id)"] = e }
            }
        }
        return map
    }

    /// Sorted, indented JSON with a final newline (byte-stable).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
