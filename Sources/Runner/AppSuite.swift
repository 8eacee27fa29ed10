import Foundation
import InterfaceBuilder
import LayoutModel

/// `bench --suite apps`: the layouts of real apps, imported from their Interface Builder
/// files, as bench rows — one row per app (the first folder under the corpus, as
/// `../shared/corpora/xib` is laid out) and one for all of them, `apps-total`.
public struct AppSuite: Sendable {
    /// The family name of an app's row.
    public static func familyName(app: String) -> String { "app:" + app }
    /// The family name of the row over every imported layout.
    public static let totalFamily = "apps-total"

    /// The suite's settings and rows (no generated families).
    public var suite: BenchSuite
    /// Imported layouts per app, sorted by app.
    public var layoutsPerApp: [(app: String, layouts: Int)]
    /// The Interface Builder files read.
    public var files: Int
    /// Roots the importer skipped, and their reasons (`file:line:column: message`).
    public var skippedRoots: [String]
    /// Files the importer could not read at all, with positions.
    public var unreadableFiles: [String]

    /// Imports every `.xib` and `.storyboard` under `corpus`. A missing folder, or one that
    /// yields no layout, is an error that says so; a file that cannot be read is listed in
    /// ``unreadableFiles`` and left out.
    public static func load(corpus: String, quick: Bool) throws(CampaignError) -> AppSuite {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isFolder), isFolder.boolValue else {
            throw CampaignError("\(corpus): no such folder; the apps suite imports the Interface Builder files of ../shared/corpora/xib (or --corpus DIR)")
        }
        let relatives = AppCorpus.files(under: corpus)
        var perApp: [String: [ConstraintSystem]] = [:]
        var skipped: [String] = []
        var unreadable: [String] = []
        for relative in relatives {
            do {
                let imported = try InterfaceBuilderImporter.importFile(
                    at: (corpus as NSString).appendingPathComponent(relative), displayName: relative)
                perApp[AppCorpus.app(of: relative), default: []] += imported.layouts.map(\.system)
                skipped += imported.skipped.map { "\($0.reason.description) (root \($0.rootID) skipped)" }
            } catch {
                unreadable.append(error.description)
            }
        }
        let apps = perApp.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
        guard !apps.isEmpty else {
            throw CampaignError("\(corpus): no layout imported from \(relatives.count) Interface Builder files"
                                + unreadable.prefix(5).map { "\n  \($0)" }.joined())
        }
        var workloads = apps.map { app, systems in
            BenchWorkload(family: familyName(app: app), size: systems.count, systems: systems)
        }
        let all = apps.flatMap(\.value)
        var total = BenchWorkload(family: totalFamily, size: all.count, systems: all)
        total.note = "\(all.count) layouts of \(relatives.count) files; \(skipped.count) roots skipped by the importer"
            + (unreadable.isEmpty ? "" : ", \(unreadable.count) files unreadable")
        workloads.append(total)
        let base = quick ? BenchSuite.quick : BenchSuite.standard
        let suite = BenchSuite(
            name: quick ? "apps-quick" : "apps", families: [], sizes: [], warmupRuns: 1, repetitions: quick ? 3 : 10,
            budget: base.budget, rowTimeLimit: base.rowTimeLimit, workloads: workloads)
        return AppSuite(suite: suite, layoutsPerApp: apps.map { ($0.key, $0.value.count) }, files: relatives.count,
                        skippedRoots: skipped, unreadableFiles: unreadable)
    }
}
