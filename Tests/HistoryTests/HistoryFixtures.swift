import Foundation
import SeededRandom
import History
import Testing

/// Real files for the history tests: fresh folders, the committed bench baseline reshaped
/// into nights, fuzz reports of either schema version.
enum HistoryFixtures {
    /// The package's root (this file is Tests/HistoryTests/HistoryFixtures.swift).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A fresh empty folder.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Reports/baseline.json as a JSON object.
    static func baseline() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Reports/baseline.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `2026-10-NNT02:00:00Z` for night `night` (1-based) of a month of nights.
    static func nightTime(_ night: Int) -> String {
        let date = Date(timeIntervalSince1970: 1_790_000_000 + Double(night) * 86_400)
        return Timestamp.string(date)
    }

    /// The baseline's rows with every timing scaled by `factor(row)`, dated `createdAt`.
    static func bench(_ base: [String: Any], createdAt: String, factor: (_ family: String, _ size: Int, _ backend: String) -> Double) throws -> Data {
        var report = base
        report["createdAt"] = createdAt
        let rows = try #require(base["results"] as? [[String: Any]])
        report["results"] = rows.map { row -> [String: Any] in
            var row = row
            guard var timing = row["timing"] as? [String: Any], let family = row["family"] as? String,
                  let size = row["size"] as? Int, let backend = row["backend"] as? String else { return row }
            let scale = factor(family, size, backend)
            for key in ["minimum", "p50", "p90", "p99", "maximum", "mean", "standardDeviation"] {
                if let value = timing[key] as? Double { timing[key] = (value * scale).rounded() }
            }
            row["timing"] = timing
            return row
        }
        return try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    }

    /// A fuzz report of `version` whose one complete shard saw `signatures` (with a stored
    /// finding each), over backends `exact`, `float` and family `form`.
    static func fuzz(version: Int = 2, seed: UInt64, signatures: [String], interrupted: Bool = false) throws -> Data {
        let findings = signatures.enumerated().map { index, signature -> [String: Any] in
            let (body, verdict) = signature.contains("@")
                ? (String(signature.split(separator: "@")[0]), String(signature.split(separator: "@")[1])) : (signature, "wrong")
            let parts = body.split(separator: "/").map(String.init)
            var finding: [String: Any] = [
                "fingerprint": String(format: "%016llx", seed &* 31 &+ UInt64(index)), "kind": parts[0], "backends": [parts[1], "exact"],
                "detail": "x = 1 vs 2", "caseIndex": index, "family": "form", "size": 12, "seed": seed &+ UInt64(index),
                "reducedConstraints": 3, "repro": "findings/\(index).layout",
            ]
            if parts.count > 2 { finding["oracle"] = parts[2] }
            if version >= 2 { finding["verdict"] = verdict }
            return finding
        }
        var occurrences: [String: Int] = [:]
        for signature in signatures { occurrences[signature] = 2 }
        var shard: [String: Any] = ["index": 0, "cases": 100, "interrupted": interrupted, "occurrences": occurrences, "seconds": 1.5]
        if version >= 2 { shard["families"] = ["form": ["cases": 100, "wrong": signatures.count, "illConditioned": 0]] }
        let report: [String: Any] = [
            "schema": "layoutbench.fuzz", "version": version, "seed": seed, "shardCount": 1, "shards": [shard], "missingShards": [Int](),
            "backends": ["exact", "float"], "families": ["form"], "perSignature": 1, "requestedCases": 100, "sizes": [2, 20],
            "findings": findings,
        ]
        return try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    }

    /// Records `data` as a report file in `folder` named `name`.
    @discardableResult
    static func record(_ data: Data, named name: String, in folder: URL, into history: HistoryDatabase, startedAt: Date? = nil) throws -> RecordOutcome {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        let run = try RunRecord.read(reportAt: url, context: .init(source: "import", startedAt: startedAt))
        return try history.record(run)
    }

    /// A history of 30 bench nights built from Reports/baseline.json: every timing with ±5%
    /// uniform noise, and `form` at 100 views on `float` 40% slower from night 17.
    static func thirtyNights(in folder: URL) throws -> HistoryDatabase {
        let history = try HistoryDatabase.open(folder.appendingPathComponent("history.sqlite").path, mode: .createIfMissing)
        let base = try baseline()
        var generator = SeededGenerator(seed: 24)
        for night in 1...30 {
            let data = try bench(base, createdAt: nightTime(night)) { family, size, backend in
                let step = (family == "form" && size == 100 && backend == "float" && night >= 17) ? 1.4 : 1
                return step * noise(&generator, amplitude: 0.05)
            }
            try record(data, named: "night-\(night).json", in: folder, into: history)
        }
        return history
    }

    /// Uniform noise in [-amplitude, +amplitude] from the project's generator.
    static func noise(_ generator: inout SeededGenerator, amplitude: Double) -> Double {
        1 + amplitude * (2 * generator.unitInterval() - 1)
    }
}
