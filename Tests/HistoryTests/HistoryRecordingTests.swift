import Foundation
import GRDB
import History
import Testing

/// Recording runs into real SQLite files: what is kept, idempotence, and files that are not
/// (or not yet, or no longer) this build's history.
@Suite struct HistoryRecordingTests {
    @Test func benchReportIsRecordedOnceWithEveryRow() throws {
        let folder = try HistoryFixtures.folder()
        let history = try HistoryDatabase.open(folder.appendingPathComponent("history.sqlite").path, mode: .createIfMissing)
        let url = URL(fileURLWithPath: HistoryFixtures.repositoryRoot + "/Reports/baseline.json")
        let run = try RunRecord.read(reportAt: url, context: .init(source: "import", backendVersions: ["exact": "layoutbench 0.1"]))
        let first = try history.record(run)
        guard case .recorded(let summary) = first else { Issue.record("first import not recorded: \(first)"); return }
        #expect(summary.createdAt == "2026-11-21T12:02:48Z")
        #expect(summary.suite == "standard")
        #expect(summary.hostname == "vm")
        let second = try history.record(try RunRecord.read(reportAt: url, context: .init(source: "import")))
        #expect(second == .alreadyRecorded(summary))
        #expect(try history.runs().count == 1)
        // Every row of the report, rebuilt from the file, equals the report's.
        let rebuilt = try #require(try history.benchReport(runID: summary.id))
        #expect(rebuilt.results == run.benchRows)
        #expect(rebuilt.backends == ["exact", "float", "gaussian"])
        let versions = try DatabaseQueue(path: history.path).read { db in
            try Row.fetchAll(db, sql: "SELECT name, version FROM run_backend ORDER BY position").map { "\($0["name"] as String):\(($0["version"] as String?) ?? "-")" }
        }
        #expect(versions == ["exact:layoutbench 0.1", "float:-", "gaussian:-"])
    }

    @Test func fuzzReportsOfBothVersionsImport() throws {
        let folder = try HistoryFixtures.folder()
        let history = try HistoryDatabase.open(folder.appendingPathComponent("h.sqlite").path, mode: .createIfMissing)
        try HistoryFixtures.record(
            try HistoryFixtures.fuzz(version: 1, seed: 1, signatures: ["status-mismatch/float"]), named: "v1.json", in: folder, into: history)
        try Data("x == 1\n".utf8).write(to: folder.appendingPathComponent("findings-probe.layout"))
        try HistoryFixtures.record(
            try HistoryFixtures.fuzz(version: 2, seed: 2, signatures: ["status-mismatch/float", "suboptimal/float@ill-conditioned"]),
            named: "v2.json", in: folder, into: history)
        let observations = try history.fuzzObservations()
        #expect(observations.count == 2)
        #expect(observations[0].findings.map(\.verdict) == ["wrong"])
        #expect(Set(observations[1].findings.map(\.signature)) == ["status-mismatch/float", "suboptimal/float@ill-conditioned"])
        #expect(observations.allSatisfy { $0.isComplete && $0.backends == ["exact", "float"] && $0.families == ["form"] })
        // The sample campaign committed with the project imports too, every finding of it.
        let sample = URL(fileURLWithPath: HistoryFixtures.repositoryRoot + "/Reports/sample-fuzz/report.json")
        let run = try RunRecord.read(reportAt: sample, context: .init(source: "import"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sample)) as? [String: Any])
        let findings = try #require(document["findings"] as? [Any])
        #expect(!findings.isEmpty)
        #expect(run.findings.count == findings.count)
        #expect(run.findings.allSatisfy { $0.reproDigest?.count == 64 })
    }

    @Test func reproPathsStayInsideTheReportsFolder() throws {
        let report = try HistoryFixtures.fuzz(seed: 3, signatures: ["crash/float"])
        var object = try #require(try JSONSerialization.jsonObject(with: report) as? [String: Any])
        var findings = try #require(object["findings"] as? [[String: Any]])
        findings[0]["repro"] = "../../etc/passwd"
        object["findings"] = findings
        let data = try JSONSerialization.data(withJSONObject: object)
        let run = try RunRecord.parse(data, reportPath: "/tmp/some/report.json", context: .init(source: "import"))
        #expect(run.findings[0].reproPath == nil)
        #expect(run.findings[0].reproDigest == nil)
    }

    @Test func reportsThatAreNotReportsAreRefusedByName() throws {
        let cases: [(String, String)] = [
            ("[1, 2]", "malformed report"),
            ("{\"schema\": \"other\", \"version\": 1}", "unknown report schema other"),
            ("{\"schema\": \"layoutbench.fuzz\", \"version\": 9}", "version 9 is not supported"),
            ("{\"version\": 1}", "no schema field"),
            ("{\"schema\": \"layoutbench.fuzz\", \"version\": 2, \"seed\": -1}", "malformed report"),
        ]
        for (text, expected) in cases {
            #expect {
                try RunRecord.parse(Data(text.utf8), reportPath: "/r/report.json", context: .init(source: "import"))
            } throws: { error in
                let message = "\(error)"
                return message.hasPrefix("/r/report.json: ") && message.contains(expected)
            }
        }
    }

    @Test func foreignAndDamagedFilesAreNeverTouched() throws {
        let folder = try HistoryFixtures.folder()
        // Not SQLite at all.
        let text = folder.appendingPathComponent("notes.sqlite")
        try Data("these are my notes\n".utf8).write(to: text)
        #expect(throws: HistoryError.notADatabase(path: text.path, reason: "it does not start with SQLite's header")) {
            try HistoryDatabase.open(text.path, mode: .createIfMissing)
        }
        #expect(try Data(contentsOf: text) == Data("these are my notes\n".utf8))
        // Somebody else's SQLite database.
        let foreign = folder.appendingPathComponent("other.sqlite")
        try DatabaseQueue(path: foreign.path).write { db in try db.execute(sql: "CREATE TABLE customers (name TEXT)") }
        let before = try Data(contentsOf: foreign)
        #expect {
            try HistoryDatabase.open(foreign.path, mode: .createIfMissing)
        } throws: { error in
            guard case HistoryError.foreignDatabase(let path, let reason) = error else { return false }
            return path == foreign.path && reason.contains("customers")
        }
        #expect(try Data(contentsOf: foreign) == before)
        // A history whose pages were overwritten.
        let damaged = folder.appendingPathComponent("damaged.sqlite")
        let history = try HistoryDatabase.open(damaged.path, mode: .createIfMissing)
        try HistoryFixtures.record(try HistoryFixtures.fuzz(seed: 1, signatures: ["crash/float"]), named: "r.json", in: folder, into: history)
        try history.checkpoint()
        var bytes = try Data(contentsOf: damaged)
        for index in 100..<min(bytes.count, 6000) { bytes[index] = 0xA5 }
        try bytes.write(to: damaged)
        try? FileManager.default.removeItem(atPath: damaged.path + "-wal")
        try? FileManager.default.removeItem(atPath: damaged.path + "-shm")
        #expect {
            let reopened = try HistoryDatabase.open(damaged.path, mode: .existing)
            _ = try reopened.verify()
        } throws: { error in
            "\(error)".hasPrefix(damaged.path + ": ")
        }
        #expect(try Data(contentsOf: damaged) == bytes)
        // A missing file is not created by a command that only reads.
        let missing = folder.appendingPathComponent("none.sqlite").path
        #expect(throws: HistoryError.missing(path: missing)) { try HistoryDatabase.open(missing, mode: .existing) }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func newerSchemaIsRefusedNamingBothVersions() throws {
        let folder = try HistoryFixtures.folder()
        let path = folder.appendingPathComponent("future.sqlite").path
        _ = try HistoryDatabase.open(path, mode: .createIfMissing)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "PRAGMA user_version = 99") }
        let error = #expect(throws: HistoryError.self) { try HistoryDatabase.open(path, mode: .createIfMissing) }
        #expect(error == .newerSchema(path: path, found: 99, supported: 2))
        #expect("\(error!)".contains("version 99") && "\(error!)".contains("version 2"))
    }

    @Test func verifyOfAHealthyHistoryCountsItsRuns() throws {
        let folder = try HistoryFixtures.folder()
        let history = try HistoryDatabase.open(folder.appendingPathComponent("h.sqlite").path, mode: .createIfMissing)
        try HistoryFixtures.record(try HistoryFixtures.fuzz(seed: 1, signatures: ["crash/float"]), named: "a.json", in: folder, into: history)
        try HistoryFixtures.record(try HistoryFixtures.fuzz(seed: 2, signatures: []), named: "b.json", in: folder, into: history)
        let report = try history.verify()
        #expect(report.schemaVersion == 2)
        #expect(report.runs == 2)
        #expect(report.findings == 1)
    }
}
