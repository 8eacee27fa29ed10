import Foundation
import Reporting
import Testing

/// How often `needle` occurs in `text`.
func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

@Suite("HTMLReport")
struct HTMLReportTests {
    let bench = SampleReports.quickBench()

    @Test("one titled log-log plot per family, with one circle per timed row")
    func plots() throws {
        let html = HTMLReport.render(.bench(bench))
        for family in SampleReports.families.map(\.name) {
            #expect(html.contains("\(family) — time vs size (log-log)"))
        }
        #expect(occurrences(of: "<svg ", in: html) == SampleReports.families.count)
        let timed = bench.results.filter { $0.timing != nil }.count
        #expect(occurrences(of: "<circle cx=", in: html) == timed + 12)  // data points plus one legend dot per series
        #expect(occurrences(of: "data-backend=", in: html) == timed)
        // Each data point has a tooltip naming its backend, size and median.
        #expect(html.contains("<title>exact — grid size 20 (seed 1002, 82 constraints): p50 "))
        #expect(occurrences(of: "class=\"fit\"", in: html) == 12)  // exact + float in 5 families, gaussian in 2
    }

    @Test("legends give each backend's exponent, matching GrowthFit")
    func legends() throws {
        let html = HTMLReport.render(.bench(bench))
        let rows = bench.results.filter { $0.family == "random" && $0.backend == "float" }
        let fit = try #require(GrowthFit(points: rows.compactMap { r in r.timing.map { (Double(r.size), $0.p50) } }))
        #expect(html.contains("float: \(ReportFormat.exponent(fit.exponent))"))
        #expect(abs(fit.exponent - 1.44) < 0.1)
        // Gaussian is unsupported on random: no series, but the reason is under the plot.
        #expect(html.contains("Not plotted (no time): exact (1 budgetExceeded); gaussian (5 unsupported)."))
    }

    @Test("the page is self-contained: no script, no external resources")
    func selfContained() {
        for document in [ReportDocument.bench(bench), .fuzz(SampleReports.smallFuzz())] {
            let html = HTMLReport.render(document, baseline: document)
            #expect(!html.lowercased().contains("<script"))
            #expect(!html.contains("<link"))
            #expect(!html.contains("src="))
            // The only URL is the SVG namespace, which browsers never fetch.
            let urls = html.components(separatedBy: "http").dropFirst().map { String($0.prefix(30)) }
            #expect(urls.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") }, "\(urls)")
            #expect(html.hasPrefix("<!DOCTYPE html>"))
            #expect(html.hasSuffix("</html>\n"))
        }
    }

    @Test("a baseline adds a comparison with red regressions and green improvements")
    func comparison() {
        let html = HTMLReport.render(.bench(bench), baseline: .bench(SampleReports.quickBaseline()))
        #expect(html.contains("id=\"comparison\""))
        #expect(html.contains("id=\"all-rows\""))
        #expect(occurrences(of: "<tr class=\"regression\">", in: html) == 2 * 5)  // listed near the top and in the full table
        #expect(occurrences(of: "<tr class=\"improvement\">", in: html) == 2 * 6)
        #expect(html.contains("failed → optimal"))
        #expect(html.contains("max(spread<sub>baseline</sub>, spread<sub>current</sub>, 5.0% of the baseline median)"))
        let mismatched = HTMLReport.render(.bench(bench), baseline: .fuzz(SampleReports.smallFuzz()))
        #expect(mismatched.contains("The baseline is a fuzz report"))
    }

    @Test("fuzz pages link every finding to its repro with the replay command")
    func fuzzFindings() {
        let report = SampleReports.smallFuzz()
        let html = HTMLReport.render(.fuzz(report))
        for finding in report.findings {
            #expect(html.contains("<a href=\"\(finding.repro)\">\(finding.repro)</a>"))
            #expect(html.contains("layoutbench replay \(finding.repro)"))
            #expect(html.contains("layoutbench generate --family \(finding.family) --size \(finding.size) --seed \(finding.seed)"))
        }
        #expect(html.contains("<code>suboptimal/float</code>"))
        #expect(html.contains("Crashed cases"))
        #expect(html.contains("<td class=\"bad\">7</td>"))
        // Links from an HTML file in another folder get the prefix; the command stays relative to the report.
        let moved = HTMLReport.render(.fuzz(report), options: RenderOptions(reproPrefix: "../run/"))
        #expect(moved.contains("<a href=\"../run/\(report.findings[0].repro)\">"))
        #expect(moved.contains("layoutbench replay \(report.findings[0].repro)"))
    }

    @Test("fuzz pages show shards, missing shards and interruptions, and compare with a baseline")
    func shardsAndBaseline() {
        let sharded = HTMLReport.render(.fuzz(SampleReports.shardedFuzz()))
        #expect(sharded.contains("Missing shards: 2."))
        #expect(sharded.contains("interrupted"))
        #expect(sharded.contains("3 of 4 (0, 1, 3)"))
        #expect(sharded.contains("<td class=\"text\">missing</td>"))
        let compared = HTMLReport.render(.fuzz(SampleReports.smallFuzz()), baseline: .fuzz(SampleReports.fuzzBaseline()))
        #expect(occurrences(of: "<tr class=\"regression\">", in: compared) == 2)
        #expect(occurrences(of: "<tr class=\"improvement\">", in: compared) == 1)
    }

    @Test("text from the document is escaped, and repros outside the report's folder are not linked")
    func hostileInput() {
        var report = SampleReports.quickBench()
        report.results[0].family = "<script>alert(1)</script>"
        report.results[0].note = "\"quoted\" & <b>bold</b>"
        report.suite = "<img src=x>"
        let html = HTMLReport.render(.bench(report))
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<img"))

        var fuzz = SampleReports.smallFuzz()
        fuzz.findings[0].repro = "javascript:alert(1)"
        fuzz.findings[1].repro = "/etc/passwd"
        fuzz.findings[2].repro = "findings/with space's.layout"
        fuzz.findings[2].detail = "<iframe>"
        let page = HTMLReport.render(.fuzz(fuzz))
        #expect(!page.contains("href=\"javascript:"))
        #expect(!page.contains("href=\"/etc/passwd"))
        #expect(page.contains("href=\"findings/with%20space%27s.layout\""))
        #expect(page.contains("layoutbench replay &#39;findings/with space&#39;\\&#39;&#39;s.layout&#39;"))
        #expect(!page.contains("<iframe>"))
    }

    @Test("axes are labelled at powers of ten, and at 2× and 5× them over short ranges")
    func axisLabels() {
        // bench --quick measures sizes 10 and 100 only: one decade, so 20 and 50 are labelled too.
        var report = SampleReports.quickBench()
        report.results = report.results.filter { $0.family == "form" && ($0.size == 10 || $0.size == 80) && $0.backend == "exact" }
        let html = HTMLReport.render(.bench(report))
        for label in [">10</text>", ">20</text>", ">50</text>"] { #expect(html.contains(label), "\(label)") }
        #expect(!html.contains(">1</text>"))
        // The full sample spans 5…80 in size and about 10 µs…100 ms in time: decades only on the time axis.
        let full = HTMLReport.render(.bench(SampleReports.quickBench()))
        for label in [">10 µs</text>", ">100 µs</text>", ">1 ms</text>", ">10 ms</text>"] { #expect(full.contains(label), "\(label)") }
        #expect(!full.contains(">20 µs</text>"))
    }

    @Test("malformed numbers render without trapping")
    func malformedNumbers() {
        var report = SampleReports.quickBench()
        report.results[0].timing = TimingSummary(samples: -1, minimum: -5, p50: 1e300, p90: -1, p99: 0, maximum: 1e308, mean: 0, standardDeviation: -1)
        report.results[1].size = Int.max
        report.results[2].size = -4
        report.results[3].timing = TimingSummary(samples: 0, minimum: 0, p50: 0, p90: 0, p99: 0, maximum: 0, mean: 0, standardDeviation: 0)
        report.seconds = -1
        let html = HTMLReport.render(.bench(report), baseline: .bench(SampleReports.quickBench()))
        #expect(html.contains("</html>"))
        _ = MarkdownReport.render(.bench(report), baseline: .bench(SampleReports.quickBench()))

        let huge = FuzzReport(
            seed: .max, shardCount: Int.max,
            shards: [ShardSummary(index: 0, cases: Int.max, interrupted: false, occurrences: ["a/b": Int.max, "x": -3], crashedCases: [.max], seconds: .infinity),
                     ShardSummary(index: 1, cases: Int.max, interrupted: true, occurrences: ["a/b": Int.max, "//": 1], crashedCases: [], seconds: 1)],
            missingShards: [-1], backends: [], families: [], perSignature: 0, findings: [])
        let page = HTMLReport.render(.fuzz(huge), baseline: .fuzz(huge))
        #expect(page.contains("</html>"))
        _ = MarkdownReport.render(.fuzz(huge), baseline: .fuzz(huge))
        _ = TerminalComparison.render(.fuzz(FuzzComparison(baseline: huge, current: huge)))
    }

    @Test("semantics notes of outside solvers are counted apart with the ill-conditioned ones, and named")
    func semanticsNotes() {
        var report = SampleReports.smallFuzz()
        report.shards[0].occurrences["suboptimal/kiwisolver@semantics"] = 4
        let html = HTMLReport.render(.fuzz(report))
        let markdown = MarkdownReport.render(.fuzz(report))
        #expect(html.contains("16 ill-conditioned or semantics ones, counted apart"))
        #expect(markdown.contains("16 ill-conditioned or semantics occurrences"))
        #expect(markdown.contains("or by its declared semantics"))
        #expect(!MarkdownReport.render(.fuzz(SampleReports.smallFuzz())).contains("semantics"))
    }
}
