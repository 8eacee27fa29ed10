import Foundation
import InterfaceBuilder
import LayoutModel
import Reporting

/// `bench --suite apps`: the layouts of real apps, imported from their Interface Builder
/// files, as bench rows — one row per screen (an IB layout root: app, file and root, as
/// `app:APP/FILE#ROOT`), one per app (the first folder under the corpus, as
/// `../shared/corpora/xib` is laid out) over its screens, and one over all of them,
/// `apps-total`. With a reference solver, every row also carries ``AppScreenFacts``: whether
/// the reference finds the screen ambiguous (which views) and whether its frames agree with
/// the ones Xcode stored.
public struct AppSuite: Sendable {
    /// The family name of an app's row.
    public static func familyName(app: String) -> String { "app:" + app }
    /// The family name of one screen's row: `app:` and the file's path under the corpus
    /// (which starts with the app), `#` and the root's IB object ID.
    public static func screenFamily(file: String, rootID: String) -> String { "app:" + file + "#" + rootID }
    /// The family name of the row over every imported layout.
    public static let totalFamily = "apps-total"
    /// How many ambiguous views and frame differences a screen row names.
    static let detailLimit = 6

    /// A solver that gives the reference answer of a screen (the exact backend), by name.
    public struct Reference: Sendable {
        public var name: String
        public var solve: @Sendable (ConstraintSystem) -> Solution?

        public init(name: String, solve: @escaping @Sendable (ConstraintSystem) -> Solution?) {
            self.name = name
            self.solve = solve
        }
    }

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
    /// ``unreadableFiles`` and left out. With `reference`, each screen is solved once by it
    /// and its rows carry the facts (ambiguity, agreement with Xcode's frames).
    public static func load(corpus: String, quick: Bool, reference: Reference? = nil) throws(CampaignError) -> AppSuite {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isFolder), isFolder.boolValue else {
            throw CampaignError("\(corpus): no such folder; the apps suite imports the Interface Builder files of ../shared/corpora/xib (or --corpus DIR)")
        }
        let relatives = AppCorpus.files(under: corpus)
        var perApp: [String: [BenchWorkload]] = [:]
        var skipped: [String] = []
        var unreadable: [String] = []
        for relative in relatives {
            do {
                let imported = try InterfaceBuilderImporter.importFile(
                    at: (corpus as NSString).appendingPathComponent(relative), displayName: relative)
                perApp[AppCorpus.app(of: relative), default: []] += imported.layouts.map { layout in
                    var screen = BenchWorkload(family: screenFamily(file: relative, rootID: layout.rootID), size: 1,
                                               systems: [layout.system])
                    screen.screen = reference.map { facts(of: layout, reference: $0) }
                    return screen
                }
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
        func summary(family: String, of screens: [BenchWorkload]) -> BenchWorkload {
            var row = BenchWorkload(family: family, size: screens.count, systems: screens.flatMap(\.systems))
            if let reference { row.screen = AppScreenFacts.summing(screens.compactMap(\.screen), reference: reference.name) }
            return row
        }
        // Each app's screens in file and root order, then the app's row; the total last.
        var workloads: [BenchWorkload] = []
        for (app, screens) in apps {
            workloads += screens
            workloads.append(summary(family: familyName(app: app), of: screens))
        }
        let all = apps.flatMap(\.value)
        var total = summary(family: totalFamily, of: all)
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

    /// The reference's answer for one screen: its ambiguous views, and whether its frames,
    /// rounded as the Xcode that saved the file rounded them, equal the stored ones
    /// (``FrameAgreement``). Screens Xcode marks misplaced or ambiguous are not compared:
    /// their stored frames are no answer of the constraints.
    static func facts(of layout: ImportedLayout, reference: Reference) -> AppScreenFacts {
        guard let solution = reference.solve(layout.system), solution.status != .budgetExceeded else {
            return AppScreenFacts(reference: reference.name, screens: 1, solved: 0, ambiguousScreens: 0, compared: 0,
                                  agreeing: 0, notCompared: "no reference solution")
        }
        let system = layout.system
        var views: [String] = []
        for unknown in solution.ambiguous where !views.contains(system.items[unknown.item].name) {
            views.append(system.items[unknown.item].name)
        }
        var ambiguousViews = Array(views.prefix(detailLimit))
        if views.count > detailLimit { ambiguousViews.append("+\(views.count - detailLimit) more") }
        var facts = AppScreenFacts(reference: reference.name, screens: 1, solved: 1, ambiguousScreens: views.isEmpty ? 0 : 1,
                                   ambiguousViews: views.isEmpty ? nil : ambiguousViews, compared: 0, agreeing: 0)
        if !layout.misplacedViews.isEmpty {
            facts.notCompared = "xcode-misplaced"
        } else if !layout.ambiguousViews.isEmpty {
            facts.notCompared = "xcode-ambiguous"
        } else {
            let agreement = FrameAgreement(layout: layout, solution: solution)
            if !agreement.agrees {
                facts.mismatches = Array(agreement.mismatches.prefix(detailLimit))
                // As in Corpora/apps/manifest.json: stored frames that break the file's own
                // required constraints beyond any rounding are stale, not an answer to compare.
                if !layout.staleEvidence.isEmpty {
                    facts.notCompared = "stale file"
                    return facts
                }
            }
            facts.compared = 1
            facts.agreeing = agreement.agrees ? 1 : 0
        }
        return facts
    }
}
