import BackendContract
import ExactSimplex
import Foundation
import Fuzzing
import GaussianBackend
import Generator
import LayoutModel
import Reporting
import Testing
@testable import Runner

/// Small real-layout fixtures written by the tests: hand-written `.layout` files, small
/// Interface Builder documents, and malformed ones of each.
enum RealLayoutFixtures {
    /// A hand-written layout: a label-like view with an intrinsic size between two
    /// margins, a button below it, optional wishes that compete.
    static let card = """
        # hand-written seed
        root superview 320 480
        view title intrinsic 120 20
        view button
        title.left == superview.left + 16
        title.top == superview.top + 20
        title.right <= superview.right - 16
        button.top == title.bottom + 8
        button.left == title.left
        button.width == 2 * title.width @750
        button.width >= 44
        button.height == 44
        button.width == 300 @250
        """

    /// An iOS xib with one top-level view holding a label (its intrinsic size from the stored
    /// frame) and a box beside it; `width` varies the root so that two apps differ.
    /// With `ambiguousBox`, the box has no leading constraint (its x and width are not
    /// determined); `labelY` is the label's stored y (its constraint says 20).
    static func xib(width: Int = 375, ambiguousBox: Bool = false, labelY: String = "20") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="16097" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES">
            <device id="retina4_7" orientation="portrait" appearance="light"/>
            <objects>
                <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
                <view contentMode="scaleToFill" id="root">
                    <rect key="frame" x="0.0" y="0.0" width="\(width)" height="200"/>
                    <subviews>
                        <label opaque="NO" userInteractionEnabled="NO" contentMode="left" horizontalHuggingPriority="251" verticalHuggingPriority="251" text="Title" textAlignment="natural" lineBreakMode="tailTruncation" baselineAdjustment="alignBaselines" adjustsFontSizeToFit="NO" translatesAutoresizingMaskIntoConstraints="NO" id="L">
                            <rect key="frame" x="20" y="\(labelY)" width="36" height="21"/>
                            <fontDescription key="fontDescription" type="system" pointSize="17"/>
                            <nil key="textColor"/>
                            <nil key="highlightedColor"/>
                        </label>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="B">
                            <rect key="frame" x="64" y="20" width="\(width - 84)" height="40"/>
                            <constraints>
                                <constraint firstAttribute="height" constant="40" id="b-h"/>
                            </constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="L" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="l-x"/>
                        <constraint firstItem="L" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="l-y"/>
                        \(ambiguousBox ? "" : #"<constraint firstItem="B" firstAttribute="leading" secondItem="L" secondAttribute="trailing" constant="8" id="b-x"/>"#)
                        <constraint firstItem="B" firstAttribute="top" secondItem="L" secondAttribute="top" id="b-y"/>
                        <constraint firstAttribute="trailing" secondItem="B" secondAttribute="trailing" constant="20" id="b-r"/>
                    </constraints>
                </view>
            </objects>
        </document>
        """
    }

    /// Not a `.layout`: an unknown attribute on line 3.
    static let brokenLayout = "root superview 100 100\nview a\na.colour == 3\n"
    /// Not well-formed XML: the `<view>` element is never closed.
    static let brokenXib = "<?xml version=\"1.0\"?>\n<document type=\"com.apple.InterfaceBuilder3.CocoaTouch.XIB\">\n  <objects>\n    <view id=\"x\">\n  </objects>\n</document>\n"

    static func write(_ files: [String: String], into folder: URL) throws {
        for (relative, text) in files {
            let url = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// A seeds folder: two good `.layout` files, a good xib, and one broken file of each kind.
    static func seedsFolder() throws -> URL {
        let folder = temporaryDirectory("seeds")
        try write([
            "hand/card.layout": card,
            "hand/pair.layout": "root superview 200 100\nview a\nview b\na.left == superview.left\na.width == b.width\nb.left == a.right + 10\nb.right == superview.right\na.top == superview.top\nb.top == a.top\na.height == 30\nb.height == a.height @500\n",
            "ib/Small.xib": xib(),
            "bad/broken.layout": brokenLayout,
            "bad/Broken.xib": brokenXib,
        ], into: folder)
        return folder
    }

    /// An app corpus: two apps (one sub-folder each), one of them with an unreadable file.
    static func appCorpus() throws -> URL {
        let folder = temporaryDirectory("apps")
        try write([
            "Alpha/Main.xib": xib(width: 375),
            "Alpha/Other.xib": xib(width: 320),
            "Beta/Screen.xib": xib(width: 414),
            "Beta/Broken.xib": brokenXib,
        ], into: folder)
        return folder
    }
}

@Suite struct SeedFolderTests {
    @Test func everySeedFileIsReadAndBrokenOnesAreReportedWithPositions() throws {
        let url = try RealLayoutFixtures.seedsFolder()
        // Bytes that are not UTF-8, and a folder that only looks like a file.
        try Data([0x72, 0x6f, 0xff, 0xfe, 0x0a]).write(to: url.appendingPathComponent("bad/latin1.layout"))
        try FileManager.default.createDirectory(at: url.appendingPathComponent("bad/folder.layout"), withIntermediateDirectories: true)
        let folder = try SeedFolder.load(url.path)
        #expect(folder.seeds.map(\.name) == ["seed:hand/card.layout", "seed:hand/pair.layout", "seed:ib/Small.xib#root"])
        #expect(folder.problems.count == 4, "\(folder.problems)")
        #expect(folder.problems.contains { $0.hasSuffix("latin1.layout:1:1: cannot read the file as UTF-8") })
        // Positioned as file:line:column: the unknown attribute, and the XML error.
        #expect(folder.problems.contains { $0.contains("broken.layout:3:") })
        #expect(folder.problems.contains { $0.range(of: #"Broken\.xib:\d+:\d+: "#, options: .regularExpression) != nil })
        let xibSeed = try #require(folder.seeds.last?.system)
        #expect(xibSeed.items.contains { $0.intrinsic.horizontal != nil }, "the label's intrinsic size is part of the seed")
    }

    @Test func aFolderWithoutUsableSeedsIsAnError() throws {
        let folder = temporaryDirectory("seeds-bad")
        try RealLayoutFixtures.write(["x.layout": RealLayoutFixtures.brokenLayout], into: folder)
        #expect(throws: CampaignError.self) { try SeedFolder.load(folder.path) }
        #expect(throws: CampaignError.self) { try SeedFolder.load(folder.appendingPathComponent("missing").path) }
    }

    /// Mutants are valid, and the same (seed file, case seed) gives the same system.
    @Test func mutationsAreValidAndDeterministic() throws {
        let folder = try SeedFolder.load(try RealLayoutFixtures.seedsFolder().path)
        for family in folder.families {
            var distinct = Set<String>()
            for seed in UInt64(0)..<60 {
                let one = generate(family: family, size: 5, seed: seed).system
                let two = generate(family: family, size: 9, seed: seed).system
                #expect(one.items == two.items && one.constraints == two.constraints, "\(family.name) seed \(seed): the size must not matter")
                #expect(one.validate(rules: .runtime).isEmpty, "\(family.name) seed \(seed)")
                distinct.insert(one.canonicalText)
            }
            #expect(distinct.count > 10, "\(family.name): mutations should vary")
        }
    }
}

/// A campaign over seeds, with the sloppy backend of RunnerTests to give findings.
@Suite(.serialized) struct SeedCampaignTests {
    static func spec(_ folder: SeedFolder) -> CampaignSpec {
        var spec = CampaignSpec(seed: 11, families: folder.seeds.map(\.name), backends: ["exact", "gaussian", "sloppy"], perSignature: 2)
        spec.seeds = folder.directory
        spec.seedsDigest = folder.digest
        return spec
    }

    static func run(_ spec: CampaignSpec, shard: Shard = .whole, jobs: Int, into url: URL, resume: Bool = false,
                    stopAfter: Int? = nil) throws -> FuzzReport {
        let counter = Counter()
        let options = FuzzRunOptions(spec: spec, shard: shard, cases: 30, jobs: jobs, isolation: nil, outDirectory: url, resume: resume)
        return try FuzzRunner(options: options, catalog: catalog, shouldStop: {
            guard let stopAfter else { return false }
            return counter.next() > stopAfter
        }).run()
    }

    @Test func seededCampaignsAreDeterministicAndTheirFindingsReplay() throws {
        let folder = try SeedFolder.load(try RealLayoutFixtures.seedsFolder().path)
        let spec = Self.spec(folder)
        let url = temporaryDirectory("seeds-j1")
        let one = try Self.run(spec, jobs: 1, into: url)
        let two = try Self.run(spec, jobs: 2, into: temporaryDirectory("seeds-j2"))
        #expect(outcome(one) == outcome(two))
        #expect(!one.findings.isEmpty, "the sloppy backend should be caught on mutated real layouts")
        let campaign = try spec.campaign(catalog: catalog)
        let families = Dictionary(uniqueKeysWithValues: folder.families.map { ($0.name, $0) })
        for finding in one.findings {
            // The finding names the seed file and the mutation's seed ...
            #expect(finding.family.hasPrefix("seed:"))
            let family = try #require(families[finding.family])
            // ... which give the case back alone, and judging it again finds the same thing.
            let replayed = generate(family: family, size: finding.size, seed: finding.seed).system
            let spec = campaign.caseSpec(finding.caseIndex)
            #expect(spec.seed == finding.seed && spec.family == finding.family)
            #expect(campaign.system(for: spec)?.canonicalText == replayed.canonicalText)
            let again = campaign.judge(finding.caseIndex).findings.map(\.finding)
            #expect(again.contains { $0.kind.rawValue == finding.kind && $0.backends == finding.backends && $0.oracle == finding.oracle },
                    "\(finding.family) seed \(finding.seed): \(finding.kind) of \(finding.backends) does not recur")
        }
    }

    /// The stored repros say how to regenerate their case from the seeds, and replay as
    /// expected failures of the culprit (and passes of the reference).
    @Test func storedReprosOfSeedCasesReplay() throws {
        let folder = try SeedFolder.load(try RealLayoutFixtures.seedsFolder().path)
        let url = temporaryDirectory("seeds-repros")
        _ = try Self.run(Self.spec(folder), jobs: 1, into: url)
        let findings = url.appendingPathComponent("findings")
        let repros = try FileManager.default.contentsOfDirectory(atPath: findings.path).filter { $0.hasSuffix(".layout") }
        #expect(!repros.isEmpty)
        let replay = CorpusReplay(backends: [ExactSimplexBackend(), SloppyBackend()], comparator: Comparator(reference: ExactSimplexBackend()))
        for name in repros {
            let path = findings.appendingPathComponent(name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("# regenerate: layoutbench generate --seeds SEEDS_DIR --family seed:"), "\(name)")
            for outcome in try replay.replay(file: path) {
                switch (outcome.backend, outcome.verdict) {
                case ("exact", .passed), ("sloppy", .expectedFailure): break
                default: Issue.record("\(name) [\(outcome.backend)]: \(outcome.verdict)")
                }
            }
        }
    }

    @Test func seededShardsMergeAndResumeLikeFamilies() throws {
        let folder = try SeedFolder.load(try RealLayoutFixtures.seedsFolder().path)
        let spec = Self.spec(folder)
        let whole = try Self.run(spec, jobs: 1, into: temporaryDirectory("seeds-whole"))
        let shards = try (0..<2).map { k -> URL in
            let url = temporaryDirectory("seeds-shard\(k)")
            _ = try Self.run(spec, shard: Shard(index: k, count: 2), jobs: 1, into: url)
            return url
        }
        let merged = try ReportMerge.merge(inputs: shards, into: temporaryDirectory("seeds-merged"))
        #expect(outcome(merged) == outcome(whole))
        let killed = temporaryDirectory("seeds-resume")
        _ = try Self.run(spec, jobs: 1, into: killed, stopAfter: 7)
        let resumed = try Self.run(spec, jobs: 1, into: killed, resume: true)
        #expect(outcome(resumed) == outcome(whole))
    }

    @Test func changedSeedsAreRefused() throws {
        let url = try RealLayoutFixtures.seedsFolder()
        let spec = Self.spec(try SeedFolder.load(url.path))
        try Data((RealLayoutFixtures.card + "\nbutton.height == 40 @100\n").utf8).write(to: url.appendingPathComponent("hand/card.layout"))
        #expect(throws: CampaignError.self) { try spec.campaign(catalog: catalog) }
    }
}

/// `fuzz --seeds` with update sequences: a multi-pass `.layout` seed is used with its passes,
/// every other case is a `seed-updates:PATH` sequence, and its findings regenerate.
@Suite(.serialized) struct SeedSequenceCampaignTests {
    static let twoPasses = RealLayoutFixtures.card + "\nlayout\nset root 480 320\nlayout\n"

    static func folder() throws -> SeedFolder {
        let url = temporaryDirectory("seed-sequences")
        try RealLayoutFixtures.write(["hand/card.layout": RealLayoutFixtures.card, "hand/rotating.layout": twoPasses,
                                      "ib/Small.xib": RealLayoutFixtures.xib()], into: url)
        return try SeedFolder.load(url.path)
    }

    @Test func multiPassSeedsAreUsedWithTheirPasses() throws {
        let folder = try Self.folder()
        #expect(folder.problems.isEmpty, "\(folder.problems)")
        #expect(folder.seeds.map(\.name) == ["seed:hand/card.layout", "seed:hand/rotating.layout", "seed:ib/Small.xib#root"])
        #expect(folder.seeds.map(\.sequence.passCount) == [1, 2, 1])
        #expect(folder.sequenceFamilies.map(\.name) == ["seed-updates:hand/card.layout", "seed-updates:hand/rotating.layout",
                                                       "seed-updates:ib/Small.xib#root"])
        #expect(folder.sequenceFamilies.map(\.base) == folder.seeds.map(\.name))
    }

    @Test func everyOtherCaseIsASeedSequenceAndItsFindingsRegenerate() throws {
        let folder = try Self.folder()
        var spec = SeedCampaignTests.spec(folder)
        spec.seedSequences = true
        spec.maxSteps = 6
        let campaign = try spec.campaign(catalog: catalog)
        for index in UInt64(0)..<12 {
            let caseSpec = campaign.caseSpec(index)
            if index % 2 == 0 {
                #expect(!caseSpec.isSequence && caseSpec.family.hasPrefix("seed:"), "\(caseSpec)")
                continue
            }
            #expect(caseSpec.isSequence && caseSpec.family.hasPrefix("seed-updates:"), "\(caseSpec)")
            #expect(caseSpec.base == "seed:" + caseSpec.family.dropFirst("seed-updates:".count))
            let sequence = try #require(campaign.sequence(for: caseSpec))
            // The case is the seed family's mutant, then the seed's passes and the steps.
            let base = try #require(folder.families.first { $0.name == caseSpec.base })
            #expect(sequence.initial.canonicalText == generate(family: base, size: caseSpec.size, seed: caseSpec.seed).system.canonicalText)
            let family = try #require(folder.sequenceFamilies.first { $0.name == caseSpec.family })
            let again = generateSequence(family: family, base: base, size: caseSpec.size, steps: caseSpec.steps ?? 0, seed: caseSpec.seed)
            #expect(again?.sequence == sequence)
            if caseSpec.family == "seed-updates:hand/rotating.layout" {
                #expect(sequence.updates.first?.first?.action == .setRootSize(width: NumericLiteral(480), height: NumericLiteral(320)))
            }
        }
        // Without the switch (campaigns written before it), seeds give systems only.
        spec.seedSequences = nil
        let systemsOnly = try spec.campaign(catalog: catalog)
        #expect((UInt64(0)..<12).allSatisfy { !systemsOnly.caseSpec($0).isSequence })
        // A run: the sloppy backend is caught on sequence cases too, and their repros say how
        // to regenerate them.
        spec.seedSequences = true
        let url = temporaryDirectory("seed-sequences-run")
        let report = try SeedCampaignTests.run(spec, jobs: 2, into: url)
        let sequenceFindings = report.findings.filter { $0.family.hasPrefix("seed-updates:") }
        #expect(!sequenceFindings.isEmpty, "\(report.findings.map(\.family))")
        let repros = try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("findings").path)
            .filter { $0.hasSuffix(".layout") }
            .map { try String(contentsOfFile: url.appendingPathComponent("findings/" + $0).path, encoding: .utf8) }
        #expect(repros.contains { $0.contains("# regenerate: layoutbench generate --seeds SEEDS_DIR --family seed-updates:") })
    }
}

@Suite struct AppSuiteTests {
    static let exact = AppSuite.Reference(name: "exact") { system in
        (try? ExactSimplexBackend().solve(system, budget: Budget(wallTime: .seconds(30))))?.solution
    }

    @Test func rowsPerScreenPerAppAndATotal() throws {
        let corpus = try RealLayoutFixtures.appCorpus()
        let apps = try AppSuite.load(corpus: corpus.path, quick: true, reference: Self.exact)
        #expect(apps.layoutsPerApp.map(\.app) == ["Alpha", "Beta"])
        #expect(apps.layoutsPerApp.map(\.layouts) == [2, 1])
        #expect(apps.files == 4)
        #expect(apps.unreadableFiles.count == 1 && apps.unreadableFiles[0].contains("Broken.xib:"))
        var suite = apps.suite
        suite.repetitions = 2
        let report = try BenchRunner(suite: suite, backends: [ExactSimplexBackend(), GaussianEliminationBackend()], jobs: 2)
            .run(machine: MachineFacts.current(toolVersion: "test"))
        #expect(report.suite == "apps-quick")
        let families = report.results.map(\.family).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(families == ["app:Alpha/Main.xib#root", "app:Alpha/Other.xib#root", "app:Alpha",
                             "app:Beta/Screen.xib#root", "app:Beta", "apps-total"])
        #expect(report.results.count == 2 * families.count)
        for row in report.results where row.backend == "exact" {
            #expect(row.status == "optimal", "\(row.family): \(row.note ?? "")")
            // Every layout is solved once per timed repetition at least.
            #expect((row.timing?.samples ?? 0) >= row.size, "\(row.family)")
        }
        let alpha = try #require(report.results.first { $0.family == "app:Alpha" && $0.backend == "exact" })
        let total = try #require(report.results.first { $0.family == "apps-total" && $0.backend == "exact" })
        let screen = try #require(report.results.first { $0.family == "app:Alpha/Main.xib#root" && $0.backend == "exact" })
        #expect(screen.size == 1 && alpha.size == 2 && total.size == 3)
        #expect(total.views > alpha.views && alpha.views > screen.views)
        #expect(total.note?.contains("3 layouts of 4 files") == true)
        // The hand-written screens are determined and their frames are the stored ones.
        #expect(screen.screen == AppScreenFacts(reference: "exact", screens: 1, solved: 1, ambiguousScreens: 0,
                                                compared: 1, agreeing: 1))
        #expect(alpha.screen?.screens == 2 && alpha.screen?.agreeing == 2)
        #expect(total.screen?.agreementText() == "3/3 (100.0%)" && total.screen?.ambiguityText() == "0/3 screens")
        // The facts are the layout's: every backend's row of a screen carries the same.
        let gaussianScreen = try #require(report.results.first { $0.family == screen.family && $0.backend == "gaussian" })
        #expect(gaussianScreen.screen == screen.screen)
        // The label's optional constraints are beyond the Gaussian baseline: said in the note.
        let gaussian = try #require(report.results.first { $0.family == "apps-total" && $0.backend == "gaussian" })
        #expect(gaussian.status == "unsupported" || gaussian.note?.contains("unsupported") == true)
        // The report renders like any bench report, with a screens table.
        let markdown = MarkdownReport.render(.bench(report))
        #expect(markdown.contains("### Screens"))
        #expect(markdown.contains("| app:Alpha/Main.xib#root | \(screen.views) | \(screen.constraints) |"))
        #expect(markdown.contains("| **apps-total** |") && markdown.contains("**3/3 (100.0%)**"))
        let html = HTMLReport.render(.bench(report))
        #expect(html.contains("<section id=\"screens\">") && html.contains("app:Beta/Screen.xib#root"))
        // A screen is no family of its own: no growth plot per screen.
        #expect(!html.contains("<h2>app:Alpha/Main.xib#root</h2>"))
        // JSON round trip keeps the facts.
        let decoded = try JSONDecoder().decode(BenchReport.self, from: JSONEncoder().encode(report))
        #expect(decoded.results.map(\.screen) == report.results.map(\.screen))
    }

    /// A screen the reference finds ambiguous, whose stored frames differ by a pixel (not a
    /// stale file), next to one Xcode marks misplaced (not compared).
    @Test func ambiguityAndDisagreementAreNamed() throws {
        let folder = temporaryDirectory("apps-odd")
        let misplaced = RealLayoutFixtures.xib().replacingOccurrences(of: #"id="B">"#, with: #"misplaced="YES" id="B">"#)
        try RealLayoutFixtures.write([
            "Odd/Loose.xib": RealLayoutFixtures.xib(ambiguousBox: true, labelY: "20.5"),
            "Odd/Moved.xib": misplaced,
        ], into: folder)
        let apps = try AppSuite.load(corpus: folder.path, quick: true, reference: Self.exact)
        let facts = Dictionary(uniqueKeysWithValues: apps.suite.workloads.map { ($0.family, $0.screen) })
        let loose = try #require(facts["app:Odd/Loose.xib#root"] ?? nil)
        #expect(loose.ambiguousScreens == 1 && loose.ambiguousViews == ["view_B"], "\(loose)")
        #expect(loose.compared == 1 && loose.agreeing == 0)
        #expect(loose.mismatches?.contains { $0 == "label_L.y = 20, stored 20.5" } == true, "\(loose)")
        #expect(loose.agreementText().hasPrefix("differs: ") && loose.ambiguityText() == "yes: view_B")
        let moved = try #require(facts["app:Odd/Moved.xib#root"] ?? nil)
        #expect(moved.compared == 0 && moved.notCompared == "xcode-misplaced")
        #expect(moved.agreementText() == "not compared (xcode-misplaced)" && moved.agreementText(detailed: false) == "-")
        let app = try #require(facts["app:Odd"] ?? nil)
        #expect(app.agreementText() == "0/1 (0.0%)" && app.ambiguityText() == "1/2 screens")
    }

    @Test func aMissingCorpusIsAClearError() {
        #expect {
            try AppSuite.load(corpus: "/nonexistent/corpora/xib", quick: true)
        } throws: { error in
            "\(error)".contains("no such folder") && "\(error)".contains("--corpus")
        }
    }
}
