import Foundation
import Testing
import Reporting

/// The reports committed under Reports/ (the baseline and the README's samples) decode in
/// the current schema and render, so a schema change cannot silently orphan them.
@Suite struct CommittedReportsTests {
    static let reports = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reports")

    @Test(arguments: ["baseline.json", "sample/report.json", "sample-fuzz/report.json"])
    func decodesAndRenders(path: String) throws {
        let data = try Data(contentsOf: Self.reports.appendingPathComponent(path))
        let document = try ReportDocument.decode(data)
        let html = HTMLReport.render(document)
        #expect(html.contains("<svg") || path.contains("fuzz"))
        #expect(!html.contains("<script"))
        #expect(!MarkdownReport.render(document).isEmpty)
        if case .fuzz(let report) = document {
            // Every finding the fuzz sample lists has its repro beside it.
            for finding in report.findings {
                let repro = Self.reports.appendingPathComponent("sample-fuzz").appendingPathComponent(finding.repro)
                #expect(FileManager.default.fileExists(atPath: repro.path), "\(finding.repro)")
            }
        }
    }

    @Test func sampleComparesWithTheBaseline() throws {
        let baseline = try ReportDocument.decode(Data(contentsOf: Self.reports.appendingPathComponent("baseline.json")))
        let sample = try ReportDocument.decode(Data(contentsOf: Self.reports.appendingPathComponent("sample/report.json")))
        let table = try TerminalComparison.render(baseline, sample)
        #expect(table.contains("exact") && table.contains("float"))
    }
}
