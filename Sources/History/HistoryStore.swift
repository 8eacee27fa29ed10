import Foundation
import GRDB
import Reporting

/// A recorded run, as listed.
public struct RunSummary: Sendable, Hashable {
    public var id: Int64
    public var kind: RunRecord.Kind
    public var createdAt: String
    public var source: String
    public var reportPath: String?
    public var hostname: String?
    public var processorCount: Int?
    public var suite: String?
    public var toolVersion: String?

    /// `run #12 (2026-11-21T11:22:03Z, Reports/…/report.json)`: how output names a run.
    public var label: String {
        "run #\(id) (\(createdAt)" + (reportPath.map { ", " + $0 } ?? "") + ")"
    }
}

/// What recording a run did.
public enum RecordOutcome: Sendable, Hashable {
    /// The run is new to the history.
    case recorded(RunSummary)
    /// A run with the same report digest was already recorded: nothing changed.
    case alreadyRecorded(RunSummary)

    public var run: RunSummary {
        switch self {
        case .recorded(let run), .alreadyRecorded(let run): return run
        }
    }
}

/// One point of a bench series: a run's median and 90th percentile of one row.
public struct SeriesPoint: Sendable, Hashable {
    public var runID: Int64
    public var createdAt: String
    /// Nanoseconds.
    public var p50: Double
    public var p90: Double
    public var samples: Int
}

/// The timings of one (family, size, seed, backend) row across the comparable runs of one
/// machine and suite, oldest first.
public struct BenchSeries: Sendable, Hashable {
    public var family: String
    public var size: Int
    public var seed: UInt64
    public var backend: String
    public var points: [SeriesPoint]
}

/// What the findings timeline needs of one fuzz run.
public struct FuzzRunObservation: Sendable, Hashable {
    public var runID: Int64
    public var createdAt: String
    public var reportPath: String?
    /// Every shard present, none interrupted: only such a run is evidence that a finding is gone.
    public var isComplete: Bool
    public var backends: Set<String>
    public var families: Set<String>
    /// Occurrences per signature.
    public var occurrences: [String: Int]
    public var findings: [RecordedFinding]
}

extension HistoryDatabase {
    private static let runColumns = "id, kind, createdAt, source, reportPath, hostname, processorCount, suite, toolVersion"

    private static func summary(_ row: Row) throws -> RunSummary {
        let kindText: String = try row.decode(forColumn: "kind")
        return RunSummary(
            id: try row.decode(forColumn: "id"), kind: RunRecord.Kind(rawValue: kindText) ?? .bench,
            createdAt: try row.decode(forColumn: "createdAt"), source: try row.decode(forColumn: "source"),
            reportPath: try row.decode(forColumn: "reportPath"), hostname: try row.decode(forColumn: "hostname"),
            processorCount: try row.decode(forColumn: "processorCount"), suite: try row.decode(forColumn: "suite"),
            toolVersion: try row.decode(forColumn: "toolVersion"))
    }

    /// Records `run` in one transaction, or recognises it (by its report digest) as recorded.
    public func record(_ run: RunRecord, recordedAt: Date = Date()) throws(HistoryError) -> RecordOutcome {
        try write { db in
            if let existing = try Row.fetchOne(db, sql: "SELECT \(Self.runColumns) FROM run WHERE digest = ?", arguments: [run.digest]) {
                return .alreadyRecorded(try Self.summary(existing))
            }
            try db.execute(
                sql: """
                    INSERT INTO run (digest, kind, createdAt, recordedAt, source, reportPath, reportVersion, toolVersion, hostname,
                        operatingSystem, processorCount, physicalMemoryBytes, suite, warmupRuns, repetitions, seconds, families)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run.digest, run.kind.rawValue, run.createdAt, Timestamp.string(recordedAt), run.source, run.reportPath,
                    run.reportVersion, run.toolVersion, run.machine?.hostname, run.machine?.operatingSystem,
                    run.machine?.processorCount, run.machine.map { Int64(clamping: $0.physicalMemoryBytes) }, run.suite,
                    run.warmupRuns, run.repetitions, run.seconds, JSONText.encode(run.families),
                ])
            let id = db.lastInsertedRowID
            for (position, backend) in run.backends.enumerated() {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO run_backend (runId, position, name, version) VALUES (?, ?, ?, ?)",
                    arguments: [id, position, backend.name, backend.version])
            }
            let insertRow = try db.makeStatement(sql: """
                INSERT INTO bench_row (runId, family, size, seed, views, constraints, backend, status, note, samples, minimum,
                    p50, p90, p99, maximum, mean, standardDeviation, iterations, peakResidentBytes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for row in run.benchRows {
                let t = row.timing
                try insertRow.execute(arguments: [
                    id, row.family, row.size, String(row.seed), row.views, row.constraints, row.backend, row.status, row.note,
                    t?.samples, t?.minimum, t?.p50, t?.p90, t?.p99, t?.maximum, t?.mean, t?.standardDeviation, row.iterations,
                    row.peakResidentBytes.map { Int64(clamping: $0) },
                ])
            }
            if let campaign = run.campaign {
                try db.execute(
                    sql: """
                        INSERT INTO campaign (runId, seed, shardCount, shards, missingShards, interrupted, cases, requestedCases,
                            perSignature, minSize, maxSize)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, String(campaign.seed), campaign.shardCount, JSONText.encode(campaign.shards),
                        JSONText.encode(campaign.missingShards), campaign.interrupted, campaign.cases, campaign.requestedCases,
                        campaign.perSignature, campaign.sizes?.first, campaign.sizes?.last,
                    ])
            }
            for (signature, count) in run.occurrences.sorted(by: { $0.key < $1.key }) {
                try db.execute(sql: "INSERT INTO occurrence (runId, signature, count) VALUES (?, ?, ?)", arguments: [id, signature, count])
            }
            for finding in run.findings {
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO finding (runId, fingerprint, signature, kind, verdict, backends, oracle, family, size, seed,
                            caseIndex, detail, reducedConstraints, repro, reproPath, reproDigest)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, finding.fingerprint, finding.signature, finding.kind, finding.verdict, JSONText.encode(finding.backends),
                        finding.oracle, finding.family, finding.size, String(finding.seed), String(finding.caseIndex), finding.detail,
                        finding.reducedConstraints, finding.repro, finding.reproPath, finding.reproDigest,
                    ])
            }
            guard let inserted = try Row.fetchOne(db, sql: "SELECT \(Self.runColumns) FROM run WHERE id = ?", arguments: [id]) else {
                throw HistoryError.database(path: path, reason: "the recorded run vanished")
            }
            return .recorded(try Self.summary(inserted))
        }
    }

    /// Recorded runs, oldest first (ties in time by recording order).
    public func runs(kind: RunRecord.Kind? = nil) throws(HistoryError) -> [RunSummary] {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.runColumns) FROM run WHERE ?1 IS NULL OR kind = ?1 ORDER BY createdAt, id",
                arguments: [kind?.rawValue])
            return try rows.map(Self.summary)
        }
    }

    /// The run recorded from the report with this digest.
    public func run(digest: String) throws(HistoryError) -> RunSummary? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.runColumns) FROM run WHERE digest = ?", arguments: [digest]).map(Self.summary)
        }
    }

    /// The latest bench run of the same suite on the same machine (host name and core
    /// count) that started before `createdAt` and is not the run with `digest`.
    public func previousComparableBench(to run: RunRecord) throws(HistoryError) -> RunSummary? {
        try read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT \(Self.runColumns) FROM run
                    WHERE kind = 'bench' AND suite IS ? AND hostname IS ? AND processorCount IS ? AND createdAt <= ? AND digest <> ?
                    ORDER BY createdAt DESC, id DESC LIMIT 1
                    """,
                arguments: [run.suite, run.machine?.hostname, run.machine?.processorCount, run.createdAt, run.digest]
            ).map(Self.summary)
        }
    }

    /// A recorded bench run rebuilt as a report, to compare a new run with.
    public func benchReport(runID: Int64) throws(HistoryError) -> BenchReport? {
        try read { db in
            guard let run = try Row.fetchOne(db, sql: "SELECT * FROM run WHERE id = ? AND kind = 'bench'", arguments: [runID]) else {
                return nil
            }
            let backends = try String.fetchAll(db, sql: "SELECT name FROM run_backend WHERE runId = ? ORDER BY position", arguments: [runID])
            let results = try Row.fetchAll(db, sql: "SELECT * FROM bench_row WHERE runId = ? ORDER BY id", arguments: [runID]).map { row in
                var timing: TimingSummary?
                if let samples: Int = try row.decode(forColumn: "samples") {
                    timing = TimingSummary(
                        samples: samples, minimum: try row.decode(forColumn: "minimum") ?? 0, p50: try row.decode(forColumn: "p50") ?? 0,
                        p90: try row.decode(forColumn: "p90") ?? 0, p99: try row.decode(forColumn: "p99") ?? 0,
                        maximum: try row.decode(forColumn: "maximum") ?? 0, mean: try row.decode(forColumn: "mean") ?? 0,
                        standardDeviation: try row.decode(forColumn: "standardDeviation") ?? 0)
                }
                let peak: Int64? = try row.decode(forColumn: "peakResidentBytes")
                return BenchResult(
                    family: try row.decode(forColumn: "family"), size: try row.decode(forColumn: "size"),
                    seed: UInt64(try row.decode(String.self, forColumn: "seed")) ?? 0, views: try row.decode(forColumn: "views"),
                    constraints: try row.decode(forColumn: "constraints"), backend: try row.decode(forColumn: "backend"),
                    status: try row.decode(forColumn: "status"), note: try row.decode(forColumn: "note"), timing: timing,
                    iterations: try row.decode(forColumn: "iterations"), peakResidentBytes: peak.map { UInt64(max(0, $0)) })
            }
            let memory: Int64 = try run.decode(forColumn: "physicalMemoryBytes") ?? 0
            let machine = MachineInfo(
                hostname: try run.decode(forColumn: "hostname") ?? "", operatingSystem: try run.decode(forColumn: "operatingSystem") ?? "",
                processorCount: try run.decode(forColumn: "processorCount") ?? 0, physicalMemoryBytes: UInt64(max(0, memory)),
                toolVersion: try run.decode(forColumn: "toolVersion") ?? "")
            return BenchReport(
                createdAt: try run.decode(forColumn: "createdAt"), machine: machine, suite: try run.decode(forColumn: "suite") ?? "",
                warmupRuns: try run.decode(forColumn: "warmupRuns") ?? 0, repetitions: try run.decode(forColumn: "repetitions") ?? 0,
                backends: backends, results: results, seconds: try run.decode(forColumn: "seconds") ?? 0)
        }
    }

    /// The (machine, suite) groups of bench runs, most recent first: `hostname`, `suite`,
    /// number of runs and the latest start.
    public func benchGroups() throws(HistoryError) -> [(hostname: String, suite: String, runs: Int, latest: String)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT coalesce(hostname, '') AS hostname, coalesce(suite, '') AS suite, count(*) AS runs, max(createdAt) AS latest
                FROM run WHERE kind = 'bench' GROUP BY 1, 2 ORDER BY latest DESC
                """).map { row in
                (try row.decode(String.self, forColumn: "hostname"), try row.decode(String.self, forColumn: "suite"),
                 try row.decode(Int.self, forColumn: "runs"), try row.decode(String.self, forColumn: "latest"))
            }
        }
    }

    /// Every timed bench series of one machine and suite (runs oldest first); nil for either
    /// means every machine or suite, which only makes sense when there is one.
    public func benchSeries(hostname: String?, suite: String?) throws(HistoryError) -> [BenchSeries] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id AS runId, r.createdAt, b.family, b.size, b.seed, b.backend, b.p50, b.p90, b.samples
                    FROM bench_row b JOIN run r ON r.id = b.runId
                    WHERE r.kind = 'bench' AND (?1 IS NULL OR coalesce(r.hostname, '') = ?1) AND (?2 IS NULL OR coalesce(r.suite, '') = ?2)
                      AND b.p50 IS NOT NULL AND b.p50 > 0
                    ORDER BY b.family, b.size, b.seed, b.backend, r.createdAt, r.id
                    """,
                arguments: [hostname, suite])
            var series: [BenchSeries] = []
            for row in rows {
                let family: String = try row.decode(forColumn: "family")
                let size: Int = try row.decode(forColumn: "size")
                let seed = UInt64(try row.decode(String.self, forColumn: "seed")) ?? 0
                let backend: String = try row.decode(forColumn: "backend")
                let p50: Double = try row.decode(forColumn: "p50")
                let point = SeriesPoint(
                    runID: try row.decode(forColumn: "runId"), createdAt: try row.decode(forColumn: "createdAt"), p50: p50,
                    p90: max(p50, try row.decode(Double?.self, forColumn: "p90") ?? p50), samples: try row.decode(Int?.self, forColumn: "samples") ?? 1)
                if let last = series.last, last.family == family, last.size == size, last.seed == seed, last.backend == backend {
                    // One point per run: a run that holds the row twice keeps its first.
                    if series[series.count - 1].points.last?.runID != point.runID { series[series.count - 1].points.append(point) }
                } else {
                    series.append(BenchSeries(family: family, size: size, seed: seed, backend: backend, points: [point]))
                }
            }
            return series
        }
    }

    /// Every fuzz run with what it saw, oldest first: the input of ``FindingTimeline``.
    public func fuzzObservations() throws(HistoryError) -> [FuzzRunObservation] {
        try read { db in
            let runs = try Row.fetchAll(db, sql: """
                SELECT r.id, r.createdAt, r.reportPath, r.families, c.shardCount, c.shards, c.missingShards, c.interrupted
                FROM run r LEFT JOIN campaign c ON c.runId = r.id WHERE r.kind = 'fuzz' ORDER BY r.createdAt, r.id
                """)
            var backends: [Int64: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT runId, name FROM run_backend") {
                backends[try row.decode(forColumn: "runId"), default: []].insert(try row.decode(forColumn: "name"))
            }
            var occurrences: [Int64: [String: Int]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT runId, signature, count FROM occurrence") {
                occurrences[try row.decode(forColumn: "runId"), default: [:]][try row.decode(forColumn: "signature")] = try row.decode(forColumn: "count")
            }
            var findings: [Int64: [RecordedFinding]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM finding ORDER BY runId, fingerprint") {
                let finding = RecordedFinding(
                    fingerprint: try row.decode(forColumn: "fingerprint"), signature: try row.decode(forColumn: "signature"),
                    kind: try row.decode(forColumn: "kind"), verdict: try row.decode(forColumn: "verdict"),
                    backends: JSONText.decode([String].self, try row.decode(forColumn: "backends")) ?? [],
                    oracle: try row.decode(forColumn: "oracle"), family: try row.decode(forColumn: "family"),
                    size: try row.decode(forColumn: "size"), seed: UInt64(try row.decode(String.self, forColumn: "seed")) ?? 0,
                    caseIndex: UInt64(try row.decode(String.self, forColumn: "caseIndex")) ?? 0, detail: try row.decode(forColumn: "detail"),
                    reducedConstraints: try row.decode(forColumn: "reducedConstraints"), repro: try row.decode(forColumn: "repro"),
                    reproPath: try row.decode(forColumn: "reproPath"), reproDigest: try row.decode(forColumn: "reproDigest"))
                findings[try row.decode(forColumn: "runId"), default: []].append(finding)
            }
            return try runs.map { row in
                let id: Int64 = try row.decode(forColumn: "id")
                let shardCount: Int = try row.decode(Int?.self, forColumn: "shardCount") ?? 1
                let shards = JSONText.decode([Int].self, try row.decode(String?.self, forColumn: "shards") ?? "[]") ?? []
                let missing = JSONText.decode([Int].self, try row.decode(String?.self, forColumn: "missingShards") ?? "[]") ?? []
                let interrupted: Bool = try row.decode(Bool?.self, forColumn: "interrupted") ?? true
                return FuzzRunObservation(
                    runID: id, createdAt: try row.decode(forColumn: "createdAt"), reportPath: try row.decode(forColumn: "reportPath"),
                    isComplete: !interrupted && missing.isEmpty && Set(shards).count == shardCount,
                    backends: backends[id] ?? [], families: Set(JSONText.decode([String].self, try row.decode(forColumn: "families")) ?? []),
                    occurrences: occurrences[id] ?? [:], findings: findings[id] ?? [])
            }
        }
    }
}

/// Small lists kept as JSON text in one column.
enum JSONText {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).flatMap { String(data: $0, encoding: .utf8) } ?? "[]"
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}
