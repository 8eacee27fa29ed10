import Foundation
import Reporting

/// A backend of a run and its version (nil when the run did not say).
public struct RecordedBackend: Sendable, Hashable {
    public var name: String
    public var version: String?

    public init(name: String, version: String?) {
        self.name = name
        self.version = version
    }
}

/// A fuzz campaign's parameters and totals, as recorded.
public struct RecordedCampaign: Sendable, Hashable {
    public var seed: UInt64
    public var shardCount: Int
    /// Indices of the shards the report covers.
    public var shards: [Int]
    public var missingShards: [Int]
    public var interrupted: Bool
    public var cases: Int
    public var requestedCases: Int?
    public var perSignature: Int
    /// The size range `[min, max]`, when the report gives it.
    public var sizes: [Int]?

    /// Whether the report covers the whole campaign: every shard, none cut short. Only such
    /// a run is evidence that a finding is gone.
    public var isComplete: Bool { !interrupted && missingShards.isEmpty && Set(shards).count == shardCount }
}

/// One stored finding of a fuzz run, as recorded.
public struct RecordedFinding: Sendable, Hashable {
    public var fingerprint: String
    /// `class/backend[/oracle][@verdict]` (no `@verdict` for wrong findings).
    public var signature: String
    public var kind: String
    /// `wrong`, `ill-conditioned` or `semantics` (`wrong` for version-1 reports).
    public var verdict: String
    /// The backend at fault first, then the reference.
    public var backends: [String]
    public var oracle: String?
    public var family: String
    public var size: Int
    public var seed: UInt64
    public var caseIndex: UInt64
    public var detail: String
    public var reducedConstraints: Int
    /// The repro's path as the report gives it (relative to the report's folder).
    public var repro: String
    /// The repro's absolute path, when the report's folder is known.
    public var reproPath: String?
    /// SHA-256 of the repro file, when it could be read.
    public var reproDigest: String?
}

/// Everything the history keeps of one run: read from the bytes of its report.
public struct RunRecord: Sendable {
    public enum Kind: String, Sendable, Hashable {
        case bench, fuzz
    }

    public var kind: Kind
    /// SHA-256 of the report's bytes: the run's identity (the same report recorded twice is
    /// one run).
    public var digest: String
    /// When the run started, ISO 8601 in UTC (`2026-11-21T11:22:03Z`).
    public var createdAt: String
    /// What recorded it: `bench`, `fuzz`, `merge` or `import`.
    public var source: String
    /// The report's absolute path, when recorded from a file.
    public var reportPath: String?
    /// The report's schema version.
    public var reportVersion: Int
    public var toolVersion: String?
    public var machine: MachineInfo?
    /// Bench: the suite's name.
    public var suite: String?
    public var warmupRuns: Int?
    public var repetitions: Int?
    /// Wall time of the run, seconds.
    public var seconds: Double?
    public var backends: [RecordedBackend]
    /// Fuzz: the generator families of the campaign; bench: the families of its rows.
    public var families: [String]
    public var benchRows: [BenchResult]
    public var campaign: RecordedCampaign?
    /// Fuzz: occurrences per signature over the shards covered.
    public var occurrences: [String: Int]
    public var findings: [RecordedFinding]

    /// Facts about the run that its report may lack, supplied by the command that recorded it.
    public struct Context: Sendable {
        /// What records: `bench`, `fuzz`, `merge` or `import`.
        public var source: String
        /// The start time for a report that carries none (fuzz reports).
        public var startedAt: Date?
        /// The machine, for a report that does not name one (fuzz reports).
        public var machine: MachineInfo?
        /// Versions of backends, by name (built-in backends have `layoutbench`'s own).
        public var backendVersions: [String: String]

        public init(source: String, startedAt: Date? = nil, machine: MachineInfo? = nil, backendVersions: [String: String] = [:]) {
            self.source = source
            self.startedAt = startedAt
            self.machine = machine
            self.backendVersions = backendVersions
        }
    }

    /// Reads the report at `url`. Without `context.startedAt`, a report that carries no start
    /// time (a fuzz report) is dated by the file's modification time.
    public static func read(reportAt url: URL, context: Context) throws(HistoryError) -> RunRecord {
        let path = url.standardizedFileURL.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableReport(path: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        var context = context
        if context.startedAt == nil {
            context.startedAt = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        }
        return try parse(data, reportPath: path, context: context)
    }

    /// Reads a report's bytes. `reportPath` (absolute) locates the repro files of a fuzz report.
    public static func parse(_ data: Data, reportPath: String?, context: Context) throws(HistoryError) -> RunRecord {
        let name = reportPath ?? "report"
        do {
            let header = try JSONDecoder().decode(Header.self, from: data)
            switch (header.schema, header.version) {
            case (ReportSchema.benchName, 1):
                let report = try JSONDecoder().decode(BenchReport.self, from: data)
                return try bench(report, data: data, reportPath: reportPath, context: context)
            case (ReportSchema.fuzzName, 1), (ReportSchema.fuzzName, 2):
                let report = try JSONDecoder().decode(FuzzDocument.self, from: data)
                return try fuzz(report, version: header.version ?? 1, data: data, reportPath: reportPath, context: context)
            case (ReportSchema.benchName, let version?), (ReportSchema.fuzzName, let version?):
                throw HistoryError.unreadableReport(
                    path: name, reason: "\(header.schema ?? "") version \(version) is not supported (the history reads bench version 1, fuzz versions 1 and 2)")
            case (nil, _):
                throw HistoryError.unreadableReport(path: name, reason: "not a layoutbench report (no schema field)")
            case (let schema?, nil) where schema == ReportSchema.benchName || schema == ReportSchema.fuzzName:
                throw HistoryError.unreadableReport(path: name, reason: "\(schema) report without a version")
            case (let schema?, _):
                throw HistoryError.unreadableReport(path: name, reason: "unknown report schema \(schema)")
            }
        } catch let error as HistoryError {
            throw error
        } catch {
            throw .unreadableReport(path: name, reason: "malformed report: \(error)")
        }
    }

    private struct Header: Decodable {
        var schema: String?
        var version: Int?
    }

    /// The fields of a fuzz report (version 1 or 2) the history keeps. Decoded here rather
    /// than through `Reporting.FuzzReport`, so that both versions import whatever version
    /// the `report` commands read.
    private struct FuzzDocument: Decodable {
        struct Shard: Decodable {
            var index: Int
            var cases: Int
            var interrupted: Bool
            var occurrences: [String: Int]
            var seconds: Double
        }

        struct Finding: Decodable {
            var fingerprint: String
            var kind: String
            var backends: [String]
            var oracle: String?
            var detail: String
            var caseIndex: UInt64
            var family: String
            var size: Int
            var seed: UInt64
            var reducedConstraints: Int
            var repro: String
            var verdict: String?
        }

        var seed: UInt64
        var shardCount: Int
        var shards: [Shard]
        var missingShards: [Int]
        var backends: [String]
        var families: [String]
        var perSignature: Int
        var requestedCases: Int?
        var sizes: [Int]?
        var findings: [Finding]
        /// Not in versions 1 and 2; read should a later version add it.
        var createdAt: String?
        var machine: MachineInfo?
    }

    private static func bench(_ report: BenchReport, data: Data, reportPath: String?, context: Context) throws -> RunRecord {
        guard let createdAt = Timestamp.normalized(report.createdAt) else {
            throw HistoryError.unreadableReport(path: reportPath ?? "report", reason: "createdAt: not an ISO 8601 time: \(report.createdAt)")
        }
        var names = report.backends
        for name in report.results.map(\.backend) where !names.contains(name) { names.append(name) }
        return RunRecord(
            kind: .bench, digest: SHA256.hex(data), createdAt: createdAt, source: context.source, reportPath: reportPath,
            reportVersion: report.version, toolVersion: report.machine.toolVersion, machine: report.machine, suite: report.suite,
            warmupRuns: report.warmupRuns, repetitions: report.repetitions, seconds: report.seconds,
            backends: names.map { RecordedBackend(name: $0, version: context.backendVersions[$0]) },
            families: Array(Set(report.results.map(\.family))).sorted(), benchRows: report.results, campaign: nil,
            occurrences: [:], findings: [])
    }

    private static func fuzz(_ report: FuzzDocument, version: Int, data: Data, reportPath: String?, context: Context) throws -> RunRecord {
        let createdAt = report.createdAt.flatMap(Timestamp.normalized) ?? Timestamp.string(context.startedAt ?? Date())
        var occurrences: [String: Int] = [:]
        for shard in report.shards {
            for (signature, count) in shard.occurrences where count > 0 {
                let (sum, overflow) = (occurrences[signature] ?? 0).addingReportingOverflow(count)
                occurrences[signature] = overflow ? Int.max : sum
            }
        }
        let folder = reportPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
        let findings = report.findings.map { entry -> RecordedFinding in
            let verdict = entry.verdict ?? "wrong"
            let base = ([entry.kind, entry.backends.first ?? "-"] + (entry.oracle.map { [$0] } ?? [])).joined(separator: "/")
            // Only a relative repro path is resolved against the report's folder: a report is
            // input, and its paths must not reach outside it.
            var reproPath: String?
            var reproDigest: String?
            if let folder, !entry.repro.hasPrefix("/"), !entry.repro.split(separator: "/").contains("..") {
                let url = folder.appendingPathComponent(entry.repro)
                reproPath = url.path
                reproDigest = (try? Data(contentsOf: url)).map { SHA256.hex($0) }
            }
            return RecordedFinding(
                fingerprint: entry.fingerprint, signature: verdict == "wrong" ? base : base + "@" + verdict, kind: entry.kind,
                verdict: verdict, backends: entry.backends, oracle: entry.oracle, family: entry.family, size: entry.size,
                seed: entry.seed, caseIndex: entry.caseIndex, detail: entry.detail, reducedConstraints: entry.reducedConstraints,
                repro: entry.repro, reproPath: reproPath, reproDigest: reproDigest)
        }
        // A signature with stored findings counts as seen even if a damaged report lacks its count.
        for finding in findings where occurrences[finding.signature] == nil { occurrences[finding.signature] = 1 }
        let shards = report.shards.map(\.index)
        let campaign = RecordedCampaign(
            seed: report.seed, shardCount: report.shardCount, shards: shards.sorted(), missingShards: report.missingShards.sorted(),
            interrupted: report.shards.contains { $0.interrupted },
            cases: report.shards.reduce(0) { let (s, o) = $0.addingReportingOverflow($1.cases); return o ? Int.max : s },
            requestedCases: report.requestedCases, perSignature: report.perSignature, sizes: report.sizes)
        let machine = report.machine ?? context.machine
        return RunRecord(
            kind: .fuzz, digest: SHA256.hex(data), createdAt: createdAt, source: context.source, reportPath: reportPath,
            reportVersion: version, toolVersion: machine?.toolVersion, machine: machine, suite: nil, warmupRuns: nil,
            repetitions: nil, seconds: report.shards.reduce(0) { $0 + $1.seconds },
            backends: report.backends.map { RecordedBackend(name: $0, version: context.backendVersions[$0]) },
            families: report.families, benchRows: [], campaign: campaign, occurrences: occurrences, findings: findings)
    }
}

/// Times as the history stores them: ISO 8601 in UTC to the second, which sort as text in
/// time order.
public enum Timestamp {
    /// `date` as `2026-11-21T11:22:03Z`.
    public static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// An ISO 8601 time (with or without fractional seconds, any offset) in the stored form;
    /// nil when it is not one.
    public static func normalized(_ text: String) -> String? {
        date(text).map(string)
    }

    /// Reads an ISO 8601 time, or a bare date (`2026-11-21`, midnight UTC).
    public static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }
}
