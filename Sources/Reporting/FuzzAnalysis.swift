/// What every rendering derives from a fuzz report, in one fixed order.
struct FuzzAnalysis: Sendable {
    let report: FuzzReport
    /// Signatures with a positive count, most frequent first, then by name.
    let signatures: [(signature: String, count: Int)]
    /// Finding classes present (in occurrences or stored findings), sorted.
    let kinds: [String]
    /// Backends at fault in some signature, sorted.
    let culprits: [String]
    /// Stored findings, sorted by fingerprint.
    let findings: [FuzzFindingEntry]
    let totalOccurrences: Int
    /// Totals over the shards, summed without trapping (see ``FuzzTotals``).
    let totals: FuzzTotals

    init(_ report: FuzzReport) {
        self.report = report
        totals = FuzzTotals(report)
        signatures = totals.occurrences.filter { $0.value > 0 }.map { (signature: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.signature < $1.signature }
        let parts = signatures.map { Self.split($0.signature) }
        kinds = Set(parts.map(\.kind) + report.findings.map(\.kind)).sorted()
        culprits = Set(parts.map(\.backend)).sorted()
        findings = report.findings.sorted { $0.fingerprint < $1.fingerprint }
        totalOccurrences = signatures.reduce(0) { FuzzTotals.add($0, $1.count) }
    }

    /// `class/backend[/oracle]` split into its parts; a malformed signature keeps its text as the class.
    static func split(_ signature: String) -> (kind: String, backend: String, oracle: String?) {
        let parts = signature.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 3: return (parts[0], parts[1], parts[2])
        case 2: return (parts[0], parts[1], nil)
        default: return (signature, "-", nil)
        }
    }

    func occurrences(kind: String, backend: String? = nil) -> Int {
        signatures.filter {
            let parts = Self.split($0.signature)
            return parts.kind == kind && (backend == nil || parts.backend == backend)
        }.reduce(0) { FuzzTotals.add($0, $1.count) }
    }

    func storedCount(kind: String) -> Int { report.findings.filter { $0.kind == kind }.count }

    /// Occurrences per 1000 cases, one decimal.
    func rate(_ count: Int) -> String {
        guard totals.cases > 0 else { return ReportFormat.missing }
        return ReportFormat.fixed(Double(count) * 1000 / Double(totals.cases), decimals: 1)
    }

    var shardLine: String {
        guard report.shardCount > 1 else { return "not sharded" }
        let present = report.shards.map(\.index).sorted()
        return "\(present.count) of \(report.shardCount)" + (present.count <= 16 ? " (\(present.map(String.init).joined(separator: ", ")))" : "")
    }

    /// The command that replays a finding's repro, run from the report's folder.
    static func replayCommand(_ finding: FuzzFindingEntry) -> String {
        "layoutbench replay " + Markup.shellWord(finding.repro)
    }

    /// The command that regenerates the original, unreduced case.
    static func regenerateCommand(_ finding: FuzzFindingEntry) -> String {
        "layoutbench generate --family \(Markup.shellWord(finding.family)) --size \(finding.size) --seed \(finding.seed)"
    }
}

/// A fuzz report's totals over its shards.
///
/// `FuzzReport` has the same sums as computed properties, but with trapping `+`: a document
/// read from disk may hold any counts, and a report renderer must not crash on one, so these
/// sums saturate instead.
struct FuzzTotals: Sendable, Hashable {
    var cases = 0
    var interrupted = false
    var occurrences: [String: Int] = [:]
    var crashedCases: [UInt64] = []
    var seconds = 0.0

    init(_ report: FuzzReport) {
        for shard in report.shards {
            cases = Self.add(cases, max(0, shard.cases))
            interrupted = interrupted || shard.interrupted
            for (signature, count) in shard.occurrences {
                occurrences[signature] = Self.add(occurrences[signature] ?? 0, max(0, count))
            }
            crashedCases += shard.crashedCases
            if shard.seconds.isFinite { seconds += shard.seconds }
        }
        crashedCases.sort()
    }

    static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }
}
