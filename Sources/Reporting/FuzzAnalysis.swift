/// What every rendering derives from a fuzz report, in one fixed order.
///
/// Wrong findings are the campaign's failures; ill-conditioned (and semantics) findings are
/// counted apart (`forgiven…`), never as failures.
struct FuzzAnalysis: Sendable {
    let report: FuzzReport
    /// Signatures with a positive count, most frequent first, then by name.
    let signatures: [(signature: String, count: Int)]
    /// The wrong ones among ``signatures``, and the others.
    let wrongSignatures: [(signature: String, count: Int)]
    let forgivenSignatures: [(signature: String, count: Int)]
    /// Finding classes of wrong signatures and wrong stored findings, sorted.
    let kinds: [String]
    /// Backends at fault in some wrong signature, sorted.
    let culprits: [String]
    /// Finding classes and backends of the signatures that are not wrong, sorted.
    let forgivenKinds: [String]
    let forgivenCulprits: [String]
    /// Stored findings, sorted by fingerprint: wrong ones, and the others.
    let findings: [FuzzFindingEntry]
    let wrongFindings: [FuzzFindingEntry]
    let forgivenFindings: [FuzzFindingEntry]
    let totalOccurrences: Int
    let wrongOccurrences: Int
    let forgivenOccurrences: Int
    /// Totals over the shards, summed without trapping (see ``FuzzTotals``).
    let totals: FuzzTotals

    init(_ report: FuzzReport) {
        self.report = report
        totals = FuzzTotals(report)
        signatures = totals.occurrences.filter { $0.value > 0 }.map { (signature: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.signature < $1.signature }
        wrongSignatures = signatures.filter { FindingSignature(parsing: $0.signature).isWrong }
        forgivenSignatures = signatures.filter { !FindingSignature(parsing: $0.signature).isWrong }
        findings = report.findings.sorted { $0.fingerprint < $1.fingerprint }
        wrongFindings = findings.filter { $0.signature.isWrong }
        forgivenFindings = findings.filter { !$0.signature.isWrong }
        let wrongParts = wrongSignatures.map { FindingSignature(parsing: $0.signature) }
        kinds = Set(wrongParts.map(\.kind) + wrongFindings.map(\.kind)).sorted()
        culprits = Set(wrongParts.map(\.backend)).sorted()
        let forgivenParts = forgivenSignatures.map { FindingSignature(parsing: $0.signature) }
        forgivenKinds = Set(forgivenParts.map(\.kind)).sorted()
        forgivenCulprits = Set(forgivenParts.map(\.backend)).sorted()
        totalOccurrences = signatures.reduce(0) { FuzzTotals.add($0, $1.count) }
        wrongOccurrences = wrongSignatures.reduce(0) { FuzzTotals.add($0, $1.count) }
        forgivenOccurrences = forgivenSignatures.reduce(0) { FuzzTotals.add($0, $1.count) }
        hasSemantics = forgivenParts.contains { $0.verdict == "semantics" }
    }

    /// Whether some findings counted apart are `semantics` notes (outside solvers), not
    /// only ill-conditioned ones: the renderings then name both.
    let hasSemantics: Bool
    /// What the findings counted apart are: "ill-conditioned" or "ill-conditioned or semantics".
    var forgivenLabel: String { hasSemantics ? "ill-conditioned or semantics" : "ill-conditioned" }
    /// Why they are not failures.
    var forgivenReason: String {
        "explained by rounding within each backend's declared precision" + (hasSemantics ? ", or by its declared semantics" : "")
    }

    /// `class/backend[/oracle][@verdict]` split into its parts; a malformed signature keeps its
    /// text as the class.
    static func split(_ signature: String) -> (kind: String, backend: String, oracle: String?) {
        let parts = FindingSignature(parsing: signature)
        return (parts.kind, parts.backend, parts.oracle)
    }

    /// Occurrences of a class (and backend) among wrong signatures, or among the others.
    func occurrences(kind: String, backend: String? = nil, wrong: Bool = true) -> Int {
        (wrong ? wrongSignatures : forgivenSignatures).filter {
            let parts = Self.split($0.signature)
            return parts.kind == kind && (backend == nil || parts.backend == backend)
        }.reduce(0) { FuzzTotals.add($0, $1.count) }
    }

    func storedCount(kind: String, wrong: Bool = true) -> Int {
        (wrong ? wrongFindings : forgivenFindings).filter { $0.kind == kind }.count
    }

    /// Per family (sorted): cases, and the shares with wrong and ill-conditioned findings.
    var familyRows: [(family: String, tally: FamilyTally)] {
        totals.families.sorted { $0.key < $1.key }.map { (family: $0.key, tally: $0.value) }
    }

    /// `part / whole` as a percentage with one decimal.
    static func share(_ part: Int, of whole: Int) -> String {
        whole > 0 ? ReportFormat.fixed(Double(part) * 100 / Double(whole), decimals: 1) + "%" : ReportFormat.missing
    }

    /// The range of the perturbations of stored ill-conditioned findings, for a summary line.
    var perturbationRange: String? {
        let sizes = forgivenFindings.compactMap(\.perturbation).filter(\.isFinite)
        guard let low = sizes.min(), let high = sizes.max() else { return nil }
        return low == high ? ReportFormat.scientific(low) : "\(ReportFormat.scientific(low)) – \(ReportFormat.scientific(high))"
    }

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
    /// For an update sequence, the command that regenerates its first system (the steps are
    /// the sequence family's, drawn from the same seed).
    static func regenerateCommand(_ finding: FuzzFindingEntry) -> String {
        "layoutbench generate --family \(Markup.shellWord(finding.base ?? finding.family)) --size \(finding.size) --seed \(finding.seed)"
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
    var families: [String: FamilyTally] = [:]

    init(_ report: FuzzReport) {
        for shard in report.shards {
            for (family, tally) in shard.families ?? [:] {
                let clamped = FamilyTally(cases: max(0, tally.cases), wrongCases: max(0, tally.wrongCases),
                                          illConditionedCases: max(0, tally.illConditionedCases))
                families[family] = (families[family] ?? FamilyTally()).adding(clamped)
            }
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
