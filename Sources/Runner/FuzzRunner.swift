import BackendContract
import Dispatch
import Foundation
import Fuzzing
import Reporting

/// Options of one `fuzz` run (one shard of a campaign).
public struct FuzzRunOptions: Sendable {
    public var spec: CampaignSpec
    public var shard: Shard
    /// The campaign's case count: indices 0..<cases, of which the shard takes its share.
    /// nil: run until `time` or an interrupt.
    public var cases: Int?
    public var time: Duration?
    /// Worker threads (each with its own worker process when isolated).
    public var jobs: Int
    /// nil: cases run in this process.
    public var isolation: Isolation?
    public var outDirectory: URL
    /// Continue a killed run in `outDirectory` instead of refusing to touch it.
    public var resume: Bool

    public init(spec: CampaignSpec, shard: Shard = .whole, cases: Int?, time: Duration? = nil, jobs: Int,
                isolation: Isolation?, outDirectory: URL, resume: Bool = false) {
        self.spec = spec
        self.shard = shard
        self.cases = cases
        self.time = time
        self.jobs = jobs
        self.isolation = isolation
        self.outDirectory = outDirectory
        self.resume = resume
    }
}

extension FuzzRunOptions {
    /// The shard's share of `cases` (nil for a run bounded by time).
    var shardTotal: Int? {
        cases.map { total in total > shard.index ? (total - shard.index + shard.count - 1) / shard.count : 0 }
    }
}

/// What a run has done so far, for progress display.
public struct FuzzProgress: Sendable {
    public var completed: Int
    /// The shard's total, when the run is bounded by a case count.
    public var total: Int?
    public var occurrences: Int
    public var stored: Int
    public var elapsed: Duration
    /// The findings the case just completed stored for the first time, so that they can be
    /// shown at once rather than only in the summary at the end.
    public var newFindings: [NewFinding] = []

    /// A finding stored for the first time.
    public struct NewFinding: Sendable, Hashable {
        public var signature: String
        public var isWrong: Bool
        public var caseIndex: UInt64
        public var reducedConstraints: Int
        /// The repro's path relative to the output folder (`findings/FINGERPRINT.layout`).
        public var repro: String

        /// `new finding suboptimal/float at case 11: 3 constraints, findings/1a2b….layout`.
        public var text: String {
            "new finding \(signature) at case \(caseIndex): \(reducedConstraints) constraints, \(repro)"
        }
    }
}

/// The completed cases of a shard, by position (position p is case `shard.caseIndex(p)`):
/// every position below `below`, plus the few finished out of order above it. Cases are
/// handed out in position order, so `above` stays as small as the number of workers, and
/// memory and checkpoint size stay flat however long a campaign runs.
struct CompletedPositions: Codable, Sendable, Equatable {
    var below: UInt64 = 0
    var above: Set<UInt64> = []

    var count: Int { Int(below) + above.count }

    func contains(_ position: UInt64) -> Bool { position < below || above.contains(position) }

    mutating func insert(_ position: UInt64) {
        guard position >= below else { return }
        above.insert(position)
        while above.remove(below) != nil { below += 1 }
    }

    private enum CodingKeys: String, CodingKey { case below, above }

    init() {}

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        below = try c.decode(UInt64.self, forKey: .below)
        above = Set(try c.decode([UInt64].self, forKey: .above))
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(below, forKey: .below)
        try c.encode(above.sorted(), forKey: .above)
    }
}

/// The checkpoint of a run: the campaign, the shard, and which cases are complete. Written
/// atomically after every completed case, so a killed run loses only the cases in flight.
struct Checkpoint: Codable {
    var spec: CampaignSpec
    var shard: Shard
    var cases: Int?
    var completed: CompletedPositions
    /// Seconds spent before the last resume.
    var seconds: Double
    var finished: Bool

    /// The checkpoint in `data` (read from `url`) if it belongs to the run `options`
    /// describe; else an error naming `url`.
    static func read(_ data: Data, at url: URL, options: FuzzRunOptions) throws(CampaignError) -> Checkpoint {
        let checkpoint: Checkpoint
        do {
            checkpoint = try JSONDecoder().decode(Checkpoint.self, from: data)
        } catch {
            throw CampaignError("\(url.path): not a checkpoint (\(error))")
        }
        guard checkpoint.spec == options.spec, checkpoint.shard == options.shard, checkpoint.cases == options.cases else {
            throw CampaignError("\(url.path) belongs to another campaign (seed, families, backends, shard or --cases differ)")
        }
        if let problem = checkpoint.inconsistency(shardTotal: options.shardTotal) {
            throw CampaignError("\(url.path): \(problem); it does not belong to this campaign's run")
        }
        return checkpoint
    }

    /// What makes the checkpoint impossible for a shard of `shardTotal` cases (nil: a run
    /// bounded by time): completed positions past the shard's end, a position counted twice,
    /// a finished run that did not complete its cases, a negative or non-finite time.
    func inconsistency(shardTotal: Int?) -> String? {
        if let shardTotal {
            if completed.below > UInt64(shardTotal) || completed.above.contains(where: { $0 >= UInt64(shardTotal) }) {
                return "it records \(completed.below) cases completed in a row (and \(completed.above.count) more) of the shard's \(shardTotal)"
            }
            if finished && completed.count != shardTotal {
                return "it records a finished run of \(completed.count) of the shard's \(shardTotal) cases"
            }
        }
        if completed.above.contains(where: { $0 < completed.below }) {
            return "it records cases below \(completed.below) both in a row and apart"
        }
        if !seconds.isFinite || seconds < 0 { return "it records \(seconds) seconds spent" }
        return nil
    }
}

/// Runs one shard of a fuzz campaign on a pool of Dispatch worker threads, in-process or
/// with each worker thread driving an isolated `layoutbench worker` process.
///
/// Layout of the output folder:
/// - `checkpoint.json`: the campaign and the completed cases (for `--resume`);
/// - `cases/INDEX.json`: the findings of each case that had some, written before the case
///   counts as complete;
/// - `findings/`: the reduced repros ([`FindingStore`](x-source-tag://FindingStore));
/// - `report.json`: the shard's ``FuzzReport``, written when the run ends (also on Ctrl-C).
///
/// Which findings are kept reduced does not depend on `jobs`, isolation or resuming: per
/// signature, those of the `perSignature` lowest case indices (a case is reduced when it is
/// among the lowest seen so far; the others are pruned at the end).
public final class FuzzRunner: Sendable {
    let options: FuzzRunOptions
    let catalog: BackendCatalog
    let shouldStop: @Sendable () -> Bool
    let progress: (@Sendable (FuzzProgress) -> Void)?

    public init(options: FuzzRunOptions, catalog: BackendCatalog,
                shouldStop: @escaping @Sendable () -> Bool = { false },
                progress: (@Sendable (FuzzProgress) -> Void)? = nil) {
        self.options = options
        self.catalog = catalog
        self.shouldStop = shouldStop
        self.progress = progress
    }

    var checkpointURL: URL { options.outDirectory.appendingPathComponent("checkpoint.json") }
    var casesURL: URL { options.outDirectory.appendingPathComponent("cases") }
    var findingsURL: URL { options.outDirectory.appendingPathComponent("findings") }
    public var reportURL: URL { options.outDirectory.appendingPathComponent("report.json") }

    /// Shared by the worker threads.
    struct State {
        var completed: CompletedPositions
        var nextPosition: UInt64 = 0
        /// Occurrences per signature, every case counted.
        var counts: [String: Int] = [:]
        /// Per signature, the lowest case indices seen (at most `perSignature`, ascending):
        /// the cases whose findings are kept reduced.
        var lowest: [String: [UInt64]] = [:]
        var crashed: Set<UInt64> = []
        var stored = 0
        var stop = false
        var stoppedByRequest = false
        var failure: String?

        /// Counts an occurrence; true when its case is among the lowest for its signature.
        mutating func record(_ signature: String, at index: UInt64, keep: Int) -> Bool {
            counts[signature, default: 0] += 1
            var indices = lowest[signature, default: []]
            indices.insert(index, at: indices.firstIndex { $0 > index } ?? indices.endIndex)
            lowest[signature] = Array(indices.prefix(keep))
            return indices.prefix(keep).contains(index)
        }
    }

    /// What `--resume` finds in an output folder.
    public enum ResumeTarget: Equatable, Sendable {
        /// A checkpoint: the run continues from it.
        case checkpoint
        /// Nothing of a campaign: no folder, an empty one, or one holding only what a run
        /// killed before its first checkpoint leaves (empty `cases/` and `findings/`,
        /// temporary files). Resuming starts the campaign.
        case nothing
        /// No checkpoint, but other files (named relative to the folder, in order): not a
        /// campaign to resume.
        case otherFiles([String])
    }

    /// What `--resume` would continue in `outDirectory`.
    public static func resumeTarget(in outDirectory: URL) -> ResumeTarget {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: outDirectory.path, isDirectory: &isFolder) else { return .nothing }
        guard isFolder.boolValue else { return .otherFiles([outDirectory.lastPathComponent]) }
        if manager.fileExists(atPath: outDirectory.appendingPathComponent("checkpoint.json").path) { return .checkpoint }
        func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".tmp") }
        func contents(_ path: String) -> [String] {
            ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { !isTemporary($0) }.sorted()
        }
        var other: [String] = []
        for name in contents(outDirectory.path) {
            let path = outDirectory.appendingPathComponent(name).path
            var isSubfolder: ObjCBool = false
            _ = manager.fileExists(atPath: path, isDirectory: &isSubfolder)
            if isSubfolder.boolValue, name == "cases" || name == "findings" {
                other += contents(path).map { name + "/" + $0 }
            } else {
                other.append(name)
            }
        }
        return other.isEmpty ? .nothing : .otherFiles(other)
    }

    /// Runs the shard and returns its report (also written to `report.json`).
    public func run() throws -> FuzzReport {
        if options.resume, case .otherFiles(let names) = Self.resumeTarget(in: options.outDirectory) {
            let listed = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
            throw CampaignError("\(options.outDirectory.path) holds no campaign to resume (no checkpoint.json, but \(listed)); give --out a fuzz run's folder, or an empty or new one to start a campaign")
        }
        let manager = FileManager.default
        try manager.createDirectory(at: casesURL, withIntermediateDirectories: true)
        // A run killed while writing leaves its temporary file; the next run in the folder sweeps it.
        FindingStore.removeStaleTemporaries(in: options.outDirectory)
        let store = try FindingStore(directory: findingsURL)
        let perSignature = options.spec.perSignature
        let shard = options.shard
        var previousSeconds = 0.0
        let shardTotal = options.shardTotal
        var initial = State(completed: CompletedPositions())
        if let data = try? Data(contentsOf: checkpointURL) {
            guard options.resume else {
                throw CampaignError("\(options.outDirectory.path) already holds a run; use --resume to continue it or choose another --out")
            }
            let checkpoint = try Checkpoint.read(data, at: checkpointURL, options: options)
            initial.completed = checkpoint.completed
            previousSeconds = checkpoint.seconds
            // Findings of the cases completed before the resume.
            for name in try manager.contentsOfDirectory(atPath: casesURL.path) where name.hasSuffix(".json") {
                guard let index = UInt64(name.dropLast(5)), index >= UInt64(shard.index),
                      (index - UInt64(shard.index)) % UInt64(shard.count) == 0,
                      initial.completed.contains((index - UInt64(shard.index)) / UInt64(shard.count)),
                      let judged = try? JSONDecoder().decode(JudgedCase.self, from: Data(contentsOf: casesURL.appendingPathComponent(name)))
                else { continue }
                for occurrence in judged.occurrences {
                    _ = initial.record(occurrence.finding.signature, at: index, keep: perSignature)
                    if Self.isWorkerFailure(occurrence) { initial.crashed.insert(index) }
                }
            }
        }
        let campaign = try options.spec.campaign(catalog: catalog)
        let state = Locked(initial)
        let start = ContinuousClock.now
        let checkpointLock = Locked(())
        let secondsBefore = previousSeconds
        let checkpointURL = self.checkpointURL

        @Sendable func writeCheckpoint(_ completed: CompletedPositions, finished: Bool) throws {
            let checkpoint = Checkpoint(
                spec: options.spec, shard: shard, cases: options.cases, completed: completed,
                seconds: secondsBefore + (ContinuousClock.now - start).inSeconds, finished: finished)
            try checkpointLock.withLock { _ in
                try FindingStore.atomicWrite(try JSONEncoder().encode(checkpoint), to: checkpointURL)
            }
        }
        try writeCheckpoint(initial.completed, finished: false)

        /// The next case for a worker, or nil when the run is over.
        let nextCase: @Sendable () -> (position: UInt64, index: UInt64)? = { [options, shouldStop] in
            state.withLock { s -> (UInt64, UInt64)? in
                while true {
                    if s.stop || s.failure != nil { return nil }
                    if shouldStop() { s.stop = true; s.stoppedByRequest = true; return nil }
                    if let time = options.time, ContinuousClock.now - start > time { s.stop = true; return nil }
                    let position = s.nextPosition
                    let index = shard.caseIndex(position)
                    if let cases = options.cases, index >= UInt64(cases) { return nil }
                    s.nextPosition += 1
                    if !s.completed.contains(position) { return (position, index) }
                }
            }
        }

        let workers = max(1, options.jobs)
        let group = DispatchGroup()
        for _ in 0..<workers {
            group.enter()
            DispatchQueue.global().async { [options, catalog] in
                defer { group.leave() }
                let executor: any CaseExecutor
                if let isolation = options.isolation {
                    executor = IsolatedExecutor(isolation: isolation, spec: options.spec, campaign: campaign)
                } else {
                    // Each thread gets its own campaign value; backends are immutable values.
                    guard let own = try? options.spec.campaign(catalog: catalog) else { return }
                    executor = InProcessExecutor(campaign: own)
                }
                defer { executor.shutdown() }
                while let (position, index) = nextCase() {
                    var judged = executor.judge(index)
                    var newFindings: [FuzzProgress.NewFinding] = []
                    do {
                        // A worker that dies while reducing adds a crash occurrence to the
                        // case, handled (counted, stored whole) by this same loop.
                        var pending = judged.occurrences[...]
                        while let occurrence = pending.popFirst() {
                            // Reduce only while this case is among the lowest seen for its signature.
                            let wanted = state.withLock { s -> Bool in
                                if Self.isWorkerFailure(occurrence) { s.crashed.insert(index) }
                                return s.record(occurrence.finding.signature, at: index, keep: perSignature)
                            }
                            guard wanted else { continue }
                            var report: FuzzCampaign.Report
                            if Self.isWorkerFailure(occurrence) || !options.spec.reduce {
                                report = Self.wholeCase(campaign, occurrence, judged.spec)
                            } else {
                                switch executor.reduce(index, occurrence) {
                                case .reduced(let reduced):
                                    report = reduced
                                case .unavailable:
                                    report = Self.wholeCase(campaign, occurrence, judged.spec)
                                case .workerFailed(let failure):
                                    report = Self.wholeCase(campaign, occurrence, judged.spec)
                                    if !judged.occurrences.contains(where: { $0.finding.signature == failure.finding.signature }) {
                                        judged.occurrences.append(failure)
                                        pending.append(failure)
                                    }
                                }
                            }
                            let isNew = try state.withLock { _ in try store.store(report) }
                            if isNew {
                                state.withLock { $0.stored += 1 }
                                newFindings.append(FuzzProgress.NewFinding(
                                    signature: report.finding.signature, isWrong: report.finding.verdict == .wrong, caseIndex: index,
                                    reducedConstraints: report.reducedConstraints, repro: "findings/\(report.fingerprint).layout"))
                            }
                        }
                        if !judged.occurrences.isEmpty {
                            try FindingStore.atomicWrite(try JSONEncoder().encode(judged),
                                                         to: self.casesURL.appendingPathComponent("\(index).json"))
                        }
                        let snapshot = state.withLock { s -> (CompletedPositions, FuzzProgress) in
                            s.completed.insert(position)
                            return (s.completed, FuzzProgress(completed: s.completed.count, total: shardTotal,
                                                              occurrences: s.counts.values.reduce(0, +),
                                                              stored: s.stored, elapsed: ContinuousClock.now - start,
                                                              newFindings: newFindings))
                        }
                        try writeCheckpoint(snapshot.0, finished: false)
                        self.progress?(snapshot.1)
                    } catch {
                        state.withLock { s in if s.failure == nil { s.failure = "\(error)" } }
                    }
                }
            }
        }
        group.wait()
        let final = state.withLock { $0 }
        if let failure = final.failure { throw CampaignError("the run failed: \(failure)") }

        // Keep, per signature, the reduced findings of the lowest case indices.
        try store.prune { report in final.lowest[report.finding.signature]?.contains(report.caseSpec.index) == true }

        let interrupted = shardTotal.map { final.completed.count < $0 } ?? final.stoppedByRequest
        try writeCheckpoint(final.completed, finished: !interrupted)
        let summary = ShardSummary(
            index: shard.index, cases: final.completed.count, interrupted: interrupted,
            occurrences: final.counts, crashedCases: final.crashed.sorted(),
            seconds: previousSeconds + (ContinuousClock.now - start).inSeconds,
            families: try familyTallies(campaign: campaign, completed: final.completed)).withDigest()
        var report = FuzzReport(
            seed: options.spec.seed, shardCount: shard.count, shards: [summary], missingShards: [],
            backends: options.spec.backends, families: options.spec.families, perSignature: perSignature,
            requestedCases: options.cases, sizes: [options.spec.minSize, options.spec.maxSize],
            findings: try store.reports().map { try Self.entry($0, digestingFilesIn: findingsURL) }
                .sorted { $0.fingerprint < $1.fingerprint })
        report.sequenceFamilies = options.spec.sequenceFamilies
        report = report.withDigest()
        try Self.write(report, to: reportURL)
        return report
    }

    /// Per family: the completed cases (from their specs, which depend on the index alone),
    /// and those with wrong or ill-conditioned findings (from `cases/INDEX.json`).
    func familyTallies(campaign: FuzzCampaign, completed: CompletedPositions) throws -> [String: FamilyTally] {
        var tallies: [String: FamilyTally] = [:]
        var position: UInt64 = 0
        while position < completed.below {
            tallies[campaign.caseSpec(options.shard.caseIndex(position)).family, default: FamilyTally()].cases += 1
            position += 1
        }
        for position in completed.above {
            tallies[campaign.caseSpec(options.shard.caseIndex(position)).family, default: FamilyTally()].cases += 1
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: casesURL.path) where name.hasSuffix(".json") {
            guard let index = UInt64(name.dropLast(5)),
                  let judged = try? JSONDecoder().decode(JudgedCase.self, from: Data(contentsOf: casesURL.appendingPathComponent(name))),
                  index >= UInt64(options.shard.index), (index - UInt64(options.shard.index)) % UInt64(options.shard.count) == 0,
                  completed.contains((index - UInt64(options.shard.index)) / UInt64(options.shard.count))
            else { continue }
            let verdicts = Set(judged.occurrences.map(\.finding.verdict))
            if verdicts.contains(.wrong) { tallies[judged.spec.family, default: FamilyTally()].wrongCases += 1 }
            if verdicts.contains(.illConditioned) { tallies[judged.spec.family, default: FamilyTally()].illConditionedCases += 1 }
        }
        return tallies
    }

    static func isWorkerFailure(_ occurrence: FuzzCampaign.Occurrence) -> Bool {
        (occurrence.finding.kind == .crash || occurrence.finding.kind == .budget) && occurrence.finding.detail.hasPrefix("worker")
    }

    static func wholeCase(_ campaign: FuzzCampaign, _ occurrence: FuzzCampaign.Occurrence, _ spec: FuzzCampaign.CaseSpec) -> FuzzCampaign.Report {
        if let report = campaign.report(occurrence, spec: spec, reduce: false) { return report }
        return campaign.report(occurrence.finding, transform: occurrence.transform, system: LayoutModelFallback.empty, spec: spec, reduce: false)
    }

    /// The report entry of a stored finding.
    public static func entry(_ report: FuzzCampaign.Report) -> FuzzFindingEntry {
        var entry = FuzzFindingEntry(
            fingerprint: report.fingerprint, kind: report.finding.kind.rawValue, backends: report.finding.backends,
            oracle: report.finding.oracle, detail: report.finding.detail, caseIndex: report.caseSpec.index,
            family: report.caseSpec.family, size: report.caseSpec.size, seed: report.caseSpec.seed,
            originalConstraints: report.originalConstraints, reducedConstraints: report.reducedConstraints,
            reducedViews: report.reducedViews, repro: "findings/\(report.fingerprint).layout",
            verdict: report.finding.verdict.rawValue, perturbation: report.finding.perturbation,
            verdictNote: report.finding.verdictNote,
            conditioning: report.finding.conditioning.map {
                FuzzConditioning(distanceToInfeasibility: $0.distanceToInfeasibility, tightRows: $0.tightRows,
                                 unknowns: $0.unknowns, degeneracy: $0.degeneracy)
            })
        entry.base = report.caseSpec.base
        entry.pass = report.finding.pass
        entry.step = report.finding.step
        entry.originalSteps = report.originalSteps
        entry.reducedSteps = report.reducedSteps
        return entry
    }

    /// The report entry of a stored finding, with the SHA-256 of each of its files in
    /// `directory` (the repro, the expected answer, the finding, the reproducers).
    static func entry(_ report: FuzzCampaign.Report, digestingFilesIn directory: URL) throws -> FuzzFindingEntry {
        var entry = entry(report)
        var digests: [String: String] = [:]
        for suffix in FindingStore.fileSuffixes(of: report) {
            let url = directory.appendingPathComponent("\(report.fingerprint).\(suffix)")
            guard let data = try? Data(contentsOf: url) else { continue }
            digests[suffix] = SHA256.hex(data)
        }
        entry.digests = digests
        return entry
    }

    /// Writes a report as sorted, indented JSON, atomically (with the digest it carries:
    /// build it with ``FuzzReport/withDigest()``).
    public static func write(_ report: FuzzReport, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try FindingStore.atomicWrite(try encoder.encode(report), to: url)
    }

}
