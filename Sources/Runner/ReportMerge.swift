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
            let url = input.appendingPathComponent("report.json")
            guard let data = try? Data(contentsOf: url) else {
                // A shard that died before writing its report: it shows up as missing.
                continue
            }
            let document: ReportDocument
            do {
                document = try ReportDocument.decode(data)
            } catch {
                throw MergeError(description: "\(url.path): \(error)")
            }
            guard case .fuzz(let report) = document else {
                throw MergeError(description: "\(url.path) is not a fuzz report")
            }
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
        var shards: [Int: ShardSummary] = [:]
        var entries: [String: (entry: FuzzFindingEntry, source: URL)] = [:]
        for (url, report) in reports {
            for shard in report.shards where shards[shard.index] == nil { shards[shard.index] = shard }
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
            for suffix in ["layout", "expected.json", "finding.json"] {
                let from = source.appendingPathComponent("findings").appendingPathComponent("\(entry.fingerprint).\(suffix)")
                let to = findingsOut.appendingPathComponent("\(entry.fingerprint).\(suffix)")
                guard from.standardizedFileURL != to.standardizedFileURL, let data = try? Data(contentsOf: from) else { continue }
                try FindingStore.atomicWrite(data, to: to)
            }
        }
        // A folder merged into before may hold findings that are no longer kept.
        let keptNames = Set(kept.flatMap { entry, _ in ["layout", "expected.json", "finding.json"].map { "\(entry.fingerprint).\($0)" } })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: findingsOut.path)) ?? [] where !keptNames.contains(name) {
            try? FileManager.default.removeItem(at: findingsOut.appendingPathComponent(name))
        }
        var merged = FuzzReport(
            seed: first.seed, shardCount: first.shardCount,
            shards: shards.values.sorted { $0.index < $1.index },
            missingShards: (0..<first.shardCount).filter { shards[$0] == nil },
            backends: first.backends, families: first.families, perSignature: first.perSignature,
            requestedCases: first.requestedCases, sizes: first.sizes,
            findings: kept.map(\.0).sorted { $0.fingerprint < $1.fingerprint })
        merged.sequenceFamilies = first.sequenceFamilies
        try FuzzRunner.write(merged, to: output.appendingPathComponent("report.json"))
        return merged
    }
}
