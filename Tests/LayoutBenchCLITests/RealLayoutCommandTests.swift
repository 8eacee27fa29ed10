import Foundation
import Testing

/// `bench --suite apps`, `fuzz --seeds` and `generate --seeds` through the built command.
@Suite struct RealLayoutCommandTests {
    /// A one-view xib: a 100×40 box 10 points in from the top-left of a `width`-wide view.
    static func xib(width: Int) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="16097" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES">
            <device id="retina4_7" orientation="portrait" appearance="light"/>
            <objects>
                <view contentMode="scaleToFill" id="root">
                    <rect key="frame" x="0.0" y="0.0" width="\(width)" height="100"/>
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="box">
                            <rect key="frame" x="10" y="10" width="100" height="40"/>
                            <constraints>
                                <constraint firstAttribute="width" constant="100" id="w"/>
                                <constraint firstAttribute="height" constant="40" priority="750" id="h"/>
                            </constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="x"/>
                        <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="y"/>
                    </constraints>
                </view>
            </objects>
        </document>
        """
    }

    /// Writes `files` (relative path → text) into a fresh folder.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-real-\(UUID().uuidString)")
        for (relative, text) in files {
            let url = folder.appendingPathComponent(relative)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return folder
    }

    static let broken = ["Gamma/Broken.xib": "<document>\n  <objects>\n</document>\n", "bad.layout": "root superview 10 10\nview a\na.left == b.left\n"]

    @Test func benchAppsGivesRowsPerScreenPerAppAndATotal() throws {
        let corpus = try Self.folder(["Alpha/A.xib": Self.xib(width: 320), "Beta/B.xib": Self.xib(width: 375),
                                      "Beta/C.xib": Self.xib(width: 414)].merging(Self.broken) { a, _ in a })
        let out = corpus.appendingPathComponent("report")
        let run = try SequenceCommandTests.run([
            "bench", "--suite", "apps", "--corpus", corpus.path, "--backend", "exact,gaussian", "--quick",
            "--repetitions", "1", "--jobs", "1", "--out", out.path, "--quiet", "--no-history",
        ])
        #expect(run.status == 0, "\(run.error)")
        for row in ["app:Alpha", "app:Beta", "apps-total"] { #expect(run.output.contains(row), "\(row) missing:\n\(run.output)") }
        #expect(!run.output.contains("app:Gamma"), "an app with no readable layout has no row")
        // The unreadable file is named with its position; the run goes on.
        #expect(run.error.range(of: #"Broken\.xib:\d+:\d+: "#, options: .regularExpression) != nil, "\(run.error)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        // Three screens, two apps and the total, each on two backends.
        #expect(results.count == 12)
        #expect(results.contains { $0["family"] as? String == "apps-total" && $0["size"] as? Int == 3 })
        // Each row says what the exact backend finds of its screens (the terminal table too).
        let total = results.first { $0["family"] as? String == "apps-total" }?["screen"] as? [String: Any]
        #expect(total?["reference"] as? String == "exact" && total?["screens"] as? Int == 3, "\(total ?? [:])")
        #expect(results.contains { $0["family"] as? String == "app:Beta/C.xib#root" })
        #expect(run.output.contains("IB frames") && run.output.contains("ambiguous"), "\(run.output)")
    }

    @Test func benchSequencesQuickRunsThroughTheCommand() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-sequences-\(UUID().uuidString)")
        let run = try SequenceCommandTests.run([
            "bench", "--suite", "sequences", "--quick", "--backend", "float,exact", "--families", "drag,keyboard",
            "--sizes", "10", "--steps", "3", "--out", out.path, "--quiet", "--no-history",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("sequences-quick") && run.output.contains("passes"), "\(run.output)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        #expect(results.map { "\($0["family"] ?? "") \($0["backend"] ?? "")" } == ["drag float", "drag exact", "keyboard float", "keyboard exact"])
        #expect(results.allSatisfy { ($0["passes"] as? Int ?? 0) >= 3 })
        let unknown = try SequenceCommandTests.run(["bench", "--suite", "sequences", "--families", "nope", "--no-history", "--quiet"])
        #expect(unknown.status == 2 && unknown.error.contains("unknown sequence family 'nope'"), "\(unknown.error)")
        #expect(try SequenceCommandTests.run(["bench", "--suite", "sequences", "--repetitions", "2"]).status == 2)
        #expect(try SequenceCommandTests.run(["bench", "--suite", "sequences", "--steps", "1000000000000"]).status == 2)
    }

    @Test func benchAppsWithoutTheCorpusSaysWhere() throws {
        let run = try SequenceCommandTests.run(["bench", "--suite", "apps", "--corpus", "/nonexistent/xib", "--no-history"])
        #expect(run.status == 2)
        #expect(run.error.contains("/nonexistent/xib: no such folder"), "\(run.error)")
        #expect(try SequenceCommandTests.run(["bench", "--suite", "nightly"]).status == 2)
    }

    /// Isolated workers (the default) load the seeds themselves, from the spec's folder.
    @Test func fuzzSeedsRunsAndGenerateReplaysASeedCase() throws {
        let seeds = try Self.folder(["ib/One.xib": Self.xib(width: 300), "two.layout":
            "root superview 200 100\nview a\na.left == superview.left + 5\na.top == superview.top\na.width == 50 @500\na.height == 20\n"]
            .merging(Self.broken) { a, _ in a })
        let inside = try SequenceCommandTests.run(["fuzz", "--seeds", seeds.path, "--cases", "1", "--out", seeds.appendingPathComponent("run").path])
        #expect(inside.status == 2 && inside.error.contains("--out must not be inside"), "\(inside.error)")
        let out = seeds.appendingPathExtension("run")
        let run = try SequenceCommandTests.run([
            "fuzz", "--seeds", seeds.path, "--cases", "8", "--backend", "exact,float", "--jobs", "2",
            "--out", out.path, "--quiet", "--no-history",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.contains("bad.layout:3:"), "\(run.error)")
        #expect(run.error.contains("seeds: 2 layouts"), "\(run.error)")
        #expect(run.output.contains("fuzz: 8 cases"))
        let family = "seed:ib/One.xib#root"
        let first = try SequenceCommandTests.run(["generate", "--seeds", seeds.path, "--family", family, "--seed", "42"])
        let again = try SequenceCommandTests.run(["generate", "--seeds", seeds.path, "--family", family, "--seed", "42"])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output == again.output && first.output.contains("view_box"))
        #expect(try SequenceCommandTests.run(["generate", "--family", family, "--seed", "42"]).status == 2)
        // A seed-updates case: the mutant, then update passes, as a multi-pass .layout.
        let updates = ["generate", "--seeds", seeds.path, "--family", "seed-updates:ib/One.xib#root", "--seed", "42", "--steps", "5"]
        let sequence = try SequenceCommandTests.run(updates)
        #expect(sequence.status == 0, "\(sequence.error)")
        #expect(sequence.output == (try SequenceCommandTests.run(updates)).output)
        #expect(sequence.output.hasPrefix("# regenerate: layoutbench generate --seeds SEEDS_DIR --family seed-updates:ib/One.xib#root"))
        #expect(sequence.output.contains("\nlayout\n") && sequence.output.contains("view_box"), "\(sequence.output)")
        // Its first pass is the seed family's case of the same seed.
        #expect(sequence.output.contains(first.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")))
    }
}
