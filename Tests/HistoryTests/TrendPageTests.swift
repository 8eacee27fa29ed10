import Foundation
import History
import Testing

/// The trend page of a history with bench nights and fuzz runs.
@Suite struct TrendPageTests {
    static let script = HistoryFixtures.repositoryRoot + "/scripts/check-html-render.sh"

    /// A history of 30 bench nights (one step) and five fuzz nights (a finding new, fixed, back).
    static func page(in folder: URL) throws -> String {
        let history = try HistoryFixtures.thirtyNights(in: folder)
        let nights: [[String]] = [["crash/float", "suboptimal/float@ill-conditioned"], ["crash/float"], [], [], [], ["crash/float"]]
        for (night, signatures) in nights.enumerated() {
            try HistoryFixtures.record(
                try HistoryFixtures.fuzz(seed: UInt64(night + 1), signatures: signatures), named: "fuzz-\(night).json", in: folder,
                into: history, startedAt: Timestamp.date(HistoryFixtures.nightTime(night + 20)))
        }
        return try TrendPage.render(history)
    }

    @Test func pageHoldsPlotsStepsAndFindingsWithoutScripts() throws {
        let html = try Self.page(in: try HistoryFixtures.folder())
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").dropFirst().allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") })
        // A plot per family of the baseline, each run a point of each timed series.
        let plots = html.components(separatedBy: "<svg class=\"plot\"").count - 1
        #expect(plots == Set(try HistoryFixtures.baseline()["results"].flatMap { $0 as? [[String: Any]] }!.compactMap { $0["family"] as? String }).count)
        #expect(html.contains("data-backend=\"float\""))
        // The one step, in the table and on the plot.
        #expect(html.components(separatedBy: "<path d=\"M ").count - 1 == 1)
        #expect(html.contains("<td>form</td><td class=\"n\">100</td><td>float</td>"))
        // The findings timeline and the open findings with their replay commands.
        #expect(html.contains("<h2>Findings</h2>"))
        #expect(html.contains("<td>back</td><td>crash/float</td>"))
        #expect(html.contains("<code>layoutbench replay "))
    }

    /// Renders in headless Chromium (scripts/check-html-render.sh): not blank, every series
    /// colour of the first plot visible. Skips when Chromium is missing (the script installs it).
    /// LAYOUTBENCH_RENDER_DIR keeps the page and its screenshot.
    @Test func pageRendersInChromium() throws {
        let hasChromium = ["chromium", "chromium-browser", "google-chrome"].contains { name in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        guard hasChromium else {
            print("skipped: no Chromium (scripts/check-html-render.sh installs it)")
            return
        }
        let kept = ProcessInfo.processInfo.environment["LAYOUTBENCH_RENDER_DIR"].map { URL(fileURLWithPath: $0) }
        let folder = try kept ?? HistoryFixtures.folder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let page = folder.appendingPathComponent("history.html")
        try TrendPage.write(try Self.page(in: try HistoryFixtures.folder()), to: page)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", Self.script, page.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("plot colours visible"), "\(output)")
    }
}
