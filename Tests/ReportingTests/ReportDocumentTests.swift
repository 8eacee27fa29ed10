import Foundation
import Reporting
import Testing

@Suite("ReportDocument")
struct ReportDocumentTests {
    @Test("bench and fuzz reports survive encoding and decoding")
    func roundTrip() throws {
        for document in [ReportDocument.bench(SampleReports.quickBench()), .fuzz(SampleReports.smallFuzz())] {
            let decoded = try ReportDocument.decode(try document.encoded())
            #expect(decoded == document)
        }
    }

    @Test("the schema field picks the document type")
    func dispatch() throws {
        let bench = try ReportDocument.decode(try ReportDocument.bench(SampleReports.quickBench()).encoded())
        guard case .bench = bench else { Issue.record("a bench report decoded as \(bench.kindName)"); return }
        let fuzz = try ReportDocument.decode(try ReportDocument.fuzz(SampleReports.smallFuzz()).encoded())
        guard case .fuzz = fuzz else { Issue.record("a fuzz report decoded as \(fuzz.kindName)"); return }
    }

    /// Decodes `json` expecting an error, and returns its message.
    private func failure(_ json: String) -> ReportDocumentError? {
        do {
            _ = try ReportDocument.decode(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("a newer major version is refused by name")
    func newerVersion() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: try ReportDocument.bench(SampleReports.quickBench()).encoded()) as? [String: Any])
        object["version"] = 2
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let error = try #require(failure(json))
        #expect(error == .unsupportedVersion(schema: "layoutbench.bench", found: 2, supported: 1))
        #expect(error.description.contains("version 2 is not supported"))
    }

    @Test("a version-1 fuzz report (before verdicts) reads as version 2, every finding wrong; version 3 is refused")
    func fuzzMigration() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: try ReportDocument.fuzz(SampleReports.fuzzBaseline()).encoded()) as? [String: Any])
        object["version"] = 1
        var findings = try #require(object["findings"] as? [[String: Any]])
        for i in findings.indices {
            for key in ["verdict", "perturbation", "verdictNote", "conditioning"] { findings[i].removeValue(forKey: key) }
        }
        object["findings"] = findings
        var shards = try #require(object["shards"] as? [[String: Any]])
        for i in shards.indices { shards[i].removeValue(forKey: "families") }
        object["shards"] = shards
        let old = try ReportDocument.decode(try JSONSerialization.data(withJSONObject: object))
        guard case .fuzz(let report) = old else { Issue.record("a fuzz report decoded as \(old.kindName)"); return }
        #expect(report.version == 2)
        #expect(report.findings.count == findings.count && report.findings.allSatisfy { $0.verdict == "wrong" && $0.signature.isWrong })
        #expect(report.wrongOccurrences == report.occurrences.values.reduce(0, +) && report.forgivenOccurrences == 0)
        #expect(report.familyTallies.isEmpty)
        // It renders, and renders again the same after a round trip in the new version.
        #expect(try ReportDocument.decode(try old.encoded()) == old)
        #expect(MarkdownReport.render(old).contains("wrong occurrence"))

        object["version"] = 3
        let error = try #require(failure(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)))
        #expect(error == .unsupportedVersion(schema: "layoutbench.fuzz", found: 3, supported: 2))
    }

    @Test("wrong or missing schema, and non-JSON, give clear errors")
    func wrongSchema() throws {
        #expect(failure(#"{"schema": "layoutbench.other", "version": 1}"#) == .unknownSchema("layoutbench.other"))
        #expect(failure(#"{"version": 1}"#) == .missingSchema)
        #expect(failure(#"{"schema": 3, "version": 1}"#) == .missingSchema)
        #expect(failure(#"{"schema": "layoutbench.fuzz"}"#) == .missingVersion(schema: "layoutbench.fuzz"))
        let notJSON = try #require(failure("<html>"))
        guard case .notJSON = notJSON else { Issue.record("expected notJSON, got \(notJSON)"); return }
        let array = try #require(failure("[1, 2]"))
        guard case .notJSON = array else { Issue.record("expected notJSON, got \(array)"); return }
    }

    @Test("a missing or mistyped field is named with its path")
    func malformedField() throws {
        var object = try #require(try JSONSerialization.jsonObject(with: try ReportDocument.bench(SampleReports.quickBench()).encoded()) as? [String: Any])
        var results = try #require(object["results"] as? [[String: Any]])
        results[3]["size"] = "large"
        object["results"] = results
        let json = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let error = try #require(failure(json))
        guard case .malformed(let schema, let reason) = error else { Issue.record("expected malformed, got \(error)"); return }
        #expect(schema == "layoutbench.bench")
        #expect(reason.contains("results[3].size"), "reason: \(reason)")

        let missing = try #require(failure(#"{"schema": "layoutbench.fuzz", "version": 1, "seed": 1}"#))
        guard case .malformed(_, let why) = missing else { Issue.record("expected malformed, got \(missing)"); return }
        #expect(why.contains("missing"), "reason: \(why)")
    }
}
