import Foundation
import Reporting
import Testing

/// Documents as `layoutbench bench --quick` and `layoutbench fuzz` wrote them (trimmed to a few
/// rows): the renderers must read what the writers write, optional fields left out included.
@Suite("Written documents")
struct WrittenDocumentTests {
    static let bench = #"""
        {
          "backends" : ["exact", "gaussian"],
          "createdAt" : "2026-11-21T11:22:03Z",
          "machine" : {"hostname" : "vm", "operatingSystem" : "Debian GNU/Linux 12 (bookworm)",
                       "physicalMemoryBytes" : 25276514304, "processorCount" : 2, "toolVersion" : "layoutbench 0.1"},
          "repetitions" : 5,
          "results" : [
            {"backend" : "exact", "constraints" : 55, "family" : "aspect-images", "iterations" : 30, "peakResidentBytes" : 35303424,
             "seed" : 1, "size" : 10, "status" : "optimal", "views" : 10,
             "timing" : {"maximum" : 15867903, "mean" : 15301836.8, "minimum" : 13852340, "p50" : 15745023, "p90" : 15864966,
                         "p99" : 15864966, "samples" : 5, "standardDeviation" : 755222.4304736718}},
            {"backend" : "gaussian", "constraints" : 55, "family" : "aspect-images", "note" : "inequalities and optional constraints",
             "seed" : 1, "size" : 10, "status" : "unsupported", "views" : 10},
            {"backend" : "exact", "constraints" : 550, "family" : "aspect-images", "iterations" : 896, "peakResidentBytes" : 35303424,
             "seed" : 1, "size" : 100, "status" : "budgetExceeded", "views" : 100},
            {"backend" : "exact", "constraints" : 33, "family" : "ambiguous", "iterations" : 0, "peakResidentBytes" : 33900000,
             "seed" : 1, "size" : 10, "status" : "optimal", "views" : 10,
             "timing" : {"maximum" : 5350000, "mean" : 2070000, "minimum" : 1160000, "p50" : 1200000, "p90" : 5350000,
                         "p99" : 5350000, "samples" : 5, "standardDeviation" : 1640000}},
            {"backend" : "exact", "constraints" : 336, "family" : "ambiguous", "iterations" : 0, "peakResidentBytes" : 33900000,
             "seed" : 1, "size" : 100, "status" : "optimal", "views" : 100,
             "timing" : {"maximum" : 93300000, "mean" : 65800000, "minimum" : 53900000, "p50" : 58100000, "p90" : 93300000,
                         "p99" : 93300000, "samples" : 5, "standardDeviation" : 14600000}}
          ],
          "schema" : "layoutbench.bench",
          "seconds" : 30.81089517,
          "suite" : "quick",
          "version" : 1,
          "warmupRuns" : 1
        }
        """#

    static let fuzz = #"""
        {
          "backends" : ["exact", "gaussian", "test-trap"],
          "families" : ["equal-widths", "grid-rtl"],
          "findings" : [
            {"backends" : ["test-trap"], "caseIndex" : 13,
             "detail" : "worker killed by signal 4 (SIGILL, a Swift trap) while test-trap was solving",
             "family" : "grid-rtl", "fingerprint" : "crash-test-trap-33a39c98a3ffa224", "kind" : "crash",
             "originalConstraints" : 24, "reducedConstraints" : 24, "reducedViews" : 6,
             "repro" : "findings/crash-test-trap-33a39c98a3ffa224.layout", "seed" : 14294494516561204090, "size" : 6}
          ],
          "missingShards" : [],
          "perSignature" : 3,
          "schema" : "layoutbench.fuzz",
          "seed" : 5,
          "shardCount" : 1,
          "shards" : [
            {"cases" : 60, "crashedCases" : [8, 13, 33], "index" : 0, "interrupted" : false,
             "occurrences" : {"crash/test-trap" : 6, "crash/test-trap/duplicate-required" : 1}, "seconds" : 4.29395831}
          ],
          "version" : 1
        }
        """#

    @Test("a bench --quick report decodes and renders")
    func benchReport() throws {
        let document = try ReportDocument.decode(Data(Self.bench.utf8))
        guard case .bench(let report) = document else { Issue.record("decoded as \(document.kindName)"); return }
        #expect(report.results.count == 5)
        let html = HTMLReport.render(document)
        #expect(html.contains("ambiguous — time vs size (log-log)"))
        #expect(html.contains("exact: n^1.68"))
        #expect(html.contains("inequalities and optional constraints"))
        let markdown = MarkdownReport.render(document)
        #expect(markdown.contains("| ambiguous | n^1.68 | – |"))
        #expect(markdown.contains("| exact | 3 | 0 | 1 | 4 |"))
    }

    @Test("a fuzz report decodes and renders, with its 64-bit seeds intact")
    func fuzzReport() throws {
        let document = try ReportDocument.decode(Data(Self.fuzz.utf8))
        guard case .fuzz(let report) = document else { Issue.record("decoded as \(document.kindName)"); return }
        #expect(report.findings.first?.seed == 14_294_494_516_561_204_090)
        let html = HTMLReport.render(document)
        #expect(html.contains("layoutbench generate --family grid-rtl --size 6 --seed 14294494516561204090"))
        #expect(html.contains("<a href=\"findings/crash-test-trap-33a39c98a3ffa224.layout\">"))
        let markdown = MarkdownReport.render(document)
        #expect(markdown.contains("| `crash/test-trap` | 6 | 100.0 |"))
        #expect(markdown.contains("**Crashed cases** (3): 8, 13, 33"))
    }
}

@Suite("Schema documentation")
struct SchemaDocumentationTests {
    static let page = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/report-schema.md")

    @Test("the examples in docs/report-schema.md are documents this version reads")
    func examplesDecode() throws {
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let blocks = text.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count == 2)
        var kinds: [String] = []
        for block in blocks {
            let document = try ReportDocument.decode(Data(block.utf8))
            kinds.append(document.kindName)
            #expect(HTMLReport.render(document).contains("</html>"))
        }
        #expect(kinds == ["bench", "fuzz"])
        guard case .fuzz(let merged)? = try blocks.last.map({ try ReportDocument.decode(Data($0.utf8)) }) else { return }
        #expect(merged.cases == 620)
    }
}
