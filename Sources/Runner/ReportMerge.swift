import Foundation
import Fuzzing
import Reporting

/// Combines the outputs of a campaign's shards (or of earlier merges) into one campaign report.
///
/// Each input is a folder with `report.json` and `findings/`. Shards are united by index (a
/// shard seen twice counts once), so merging is idempotent: merging a merge with any of its
/// inputs, or merging twice, gives the same report. Per signature, the reduced findings of
/// the `perSignature` lowest case indices are kept, exactly as an unsharded run keeps them.
/// Shards of 0..<shardCount that no input covers are listed as missing.
public enum ReportMerge {
    public struct MergeError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func merge(inputs: [URL], into output: URL) throws -> FuzzReport {
        var reports: [(URL, FuzzReport)] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw MergeError(description: "\(input.path): no such folder")
            }
            let url = input.appendingPathComponent("report.json")
            // A shard that died before writing its report: it shows up as missing.
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let document: ReportDocument
            do {
                document = try ReportDocument.decode(try Data(contentsOf: url))
            } catch {
                throw MergeError(description: "\(url.path): \(error)")
            }
            guard case .fuzz(let report) = document else {
                throw MergeError(description: "\(url.path) is not a fuzz report")
            }
            try verify(report, at: url, findings: input.appendingPathComponent("findings"))
            reports.append((input, report))
        }
        guard let first = reports.first?.1 else {
            throw MergeError(description: "none of the inputs holds a report.json")
        }
        for (url, report) in reports.dropFirst() {
            guard report.seed == first.seed, report.shardCount == first.shardCount, report.backends == first.backends,
                  report.families == first.families, report.sequenceFamilies == first.sequenceFamilies,
                  report.perSignature == first.perSignature,
                  report.requestedCases == first.requestedCases, report.sizes == first.sizes else {
                throw MergeError(description: "\(url.path) belongs to another campaign (seed, shard count, backends, families, --cases, sizes or --per-signature differ)")
            }
        }
        var shards: [Int: (summary: ShardSummary, source: URL)] = [:]
        var entries: [String: (entry: FuzzFindingEntry, source: URL)] = [:]
        for (url, report) in reports {
            for shard in report.shards {
                if let (seen, source) = shards[shard.index] {
                    guard seen.contentDigest == shard.contentDigest else {
                        throw MergeError(description: "\(url.appendingPathComponent("report.json").path): shard \(shard.index) differs from its copy in \(source.appendingPathComponent("report.json").path) (two different runs of one shard)")
                    }
                    continue
                }
                shards[shard.index] = (shard, url)
            }
            for entry in report.findings {
                if let existing = entries[entry.fingerprint], existing.entry.caseIndex <= entry.caseIndex { continue }
                entries[entry.fingerprint] = (entry, url)
            }
        }
        // Per signature, the lowest case indices win.
        var bySignature: [String: [(FuzzFindingEntry, URL)]] = [:]
        for (entry, source) in entries.values {
            bySignature[entry.signature.text, default: []].append((entry, source))
        }
        var kept: [(FuzzFindingEntry, URL)] = []
        for (_, group) in bySignature {
            let indices = Set(group.map(\.0.caseIndex).sorted().prefix(first.perSignature))
            kept += group.filter { indices.contains($0.0.caseIndex) }
        }
        let findingsOut = output.appendingPathComponent("findings")
        try FileManager.default.createDirectory(at: findingsOut, withIntermediateDirectories: true)
        for (entry, source) in kept {
            for suffix in fileSuffixes(of: entry) {
                let from = source.appendingPathComponent("findings").appendingPathComponent("\(entry.fingerprint).\(suffix)")
                let to = findingsOut.appendingPathComponent("\(entry.fingerprint).\(suffix)")
                guard from.standardizedFileURL != to.standardizedFileURL, let data = try? Data(contentsOf: from) else { continue }
                try FindingStore.atomicWrite(data, to: to)
            }
        }
        // A folder merged into before may hold findings that are no longer kept.
        let keptNames = Set(kept.flatMap { entry, _ in fileSuffixes(of: entry).map { "\(entry.fingerprint).\($0)" } })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: findingsOut.path)) ?? [] where !keptNames.contains(name) {
            try? FileManager.default.removeItem(at: findingsOut.appendingPathComponent(name))
        }
        var merged = FuzzReport(
            seed: first.seed, shardCount: first.shardCount,
            shards: shards.values.map(\.summary).sorted { $0.index < $1.index },
            missingShards: (0..<first.shardCount).filter { shards[$0] == nil },
            backends: first.backends, families: first.families, perSignature: first.perSignature,
            requestedCases: first.requestedCases, sizes: first.sizes,
            findings: kept.map(\.0).sorted { $0.fingerprint < $1.fingerprint })
        merged.sequenceFamilies = first.sequenceFamilies
        merged = merged.withDigest()
        try FuzzRunner.write(merged, to: output.appendingPathComponent("report.json"))
        return merged
    }

    /// The files of a finding: those whose digests its shard recorded (reports written before
    /// digests: the repro, the expected answer and the finding).
    static func fileSuffixes(of entry: FuzzFindingEntry) -> [String] {
        entry.digests.map { $0.keys.sorted() } ?? ["layout", "expected.json", "finding.json"]
    }

    /// Refuses a report whose content, shard summaries or finding files differ from what
    /// their digests recorded when they were written: a hand edit, a truncated or missing file.
    static func verify(_ report: FuzzReport, at url: URL, findings: URL) throws {
        if let digest = report.digest, digest != report.contentDigest {
            throw MergeError(description: "\(url.path): the report was changed after it was written (its SHA-256 digest does not match)")
        }
        for shard in report.shards {
            if let digest = shard.digest, digest != shard.contentDigest {
                throw MergeError(description: "\(url.path): shard \(shard.index)'s summary was changed after it was written (its SHA-256 digest does not match)")
            }
        }
        for entry in report.findings {
            // Names become paths below `findings/`: one path component each, never `..`.
            for name in [entry.fingerprint] + (entry.digests ?? [:]).keys where name.isEmpty || name.hasPrefix(".") || name.contains("/") {
                throw MergeError(description: "\(url.path): finding \"\(entry.fingerprint)\" names a file \"\(name)\" that is not a plain file name")
            }
            for (suffix, digest) in (entry.digests ?? [:]).sorted(by: { $0.key < $1.key }) {
                let file = findings.appendingPathComponent("\(entry.fingerprint).\(suffix)")
                guard let data = try? Data(contentsOf: file) else {
                    throw MergeError(description: "\(file.path): missing (finding \(entry.fingerprint) of \(url.path))")
                }
                guard SHA256.hex(data) == digest else {
                    throw MergeError(description: "\(file.path): differs from the file its shard wrote (truncated or edited; finding \(entry.fingerprint) of \(url.path))")
                }
            }
        }
    }
}
