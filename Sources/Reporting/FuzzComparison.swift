/// Two fuzz reports side by side, by finding signature (`class/backend[/oracle][@verdict]`).
///
/// A signature is the unit of "a bug": a wrong signature the baseline never hit is a
/// regression, one it hit and the current run no longer does is an improvement; signatures
/// of ill-conditioned (or semantics) findings are listed but never judged. Occurrence counts are shown
/// but not judged, since they scale with the number of cases run. Fingerprints (which also
/// hash the reduced repro) are listed as new or gone for the reader to open.
public struct FuzzComparison: Sendable, Hashable {
    /// What happened to a signature between the runs.
    public enum Verdict: String, Sendable, Hashable {
        /// Only the current run hit the signature.
        case new
        /// Only the baseline hit it.
        case gone
        /// Both hit it.
        case persisting
    }

    /// One signature in either run.
    public struct Row: Sendable, Hashable {
        /// `class/backend[/oracle]`.
        public var signature: String
        /// Occurrences in the baseline (0 when it never hit the signature).
        public var baselineCount: Int
        /// Occurrences in the current run.
        public var currentCount: Int
        /// New, gone or persisting.
        public var verdict: Verdict
        /// Whether the signature's findings are wrong (only those are judged).
        public var isWrong: Bool { FindingSignature(parsing: signature).isWrong }
    }

    /// Every signature of either run, sorted.
    public var rows: [Row]
    /// Stored findings whose fingerprint only the current run has, sorted by fingerprint.
    public var newFindings: [FuzzFindingEntry]
    /// Stored findings whose fingerprint only the baseline has, sorted by fingerprint.
    public var goneFindings: [FuzzFindingEntry]

    /// Compares the signatures and fingerprints of `current` with those of `baseline`.
    public init(baseline: FuzzReport, current: FuzzReport) {
        let old = FuzzTotals(baseline).occurrences, new = FuzzTotals(current).occurrences
        let signatures = Set(old.filter { $0.value > 0 }.keys).union(new.filter { $0.value > 0 }.keys).sorted()
        rows = signatures.map { signature in
            let a = old[signature] ?? 0, b = new[signature] ?? 0
            let verdict: Verdict = a == 0 ? .new : (b == 0 ? .gone : .persisting)
            return Row(signature: signature, baselineCount: a, currentCount: b, verdict: verdict)
        }
        let oldPrints = Set(baseline.findings.map(\.fingerprint))
        let newPrints = Set(current.findings.map(\.fingerprint))
        newFindings = current.findings.filter { !oldPrints.contains($0.fingerprint) }.sorted { $0.fingerprint < $1.fingerprint }
        goneFindings = baseline.findings.filter { !newPrints.contains($0.fingerprint) }.sorted { $0.fingerprint < $1.fingerprint }
    }

    /// Wrong signatures only the current run hit.
    public var regressions: [Row] { rows.filter { $0.verdict == .new && $0.isWrong } }
    /// Wrong signatures only the baseline hit.
    public var improvements: [Row] { rows.filter { $0.verdict == .gone && $0.isWrong } }
}

/// A comparison of two reports of the same kind.
public enum ReportComparison: Sendable, Hashable {
    case bench(BenchComparison)
    case fuzz(FuzzComparison)

    /// Compares `current` against `baseline`; both must be bench reports or both fuzz reports.
    public init(baseline: ReportDocument, current: ReportDocument, rule: RegressionRule = .standard) throws(ReportComparisonError) {
        switch (baseline, current) {
        case (.bench(let a), .bench(let b)): self = .bench(BenchComparison(baseline: a, current: b, rule: rule))
        case (.fuzz(let a), .fuzz(let b)): self = .fuzz(FuzzComparison(baseline: a, current: b))
        default: throw ReportComparisonError(baselineKind: baseline.kindName, currentKind: current.kindName)
        }
    }

    /// How many rows count against the current run.
    public var regressionCount: Int {
        switch self {
        case .bench(let c): c.regressions.count
        case .fuzz(let c): c.regressions.count
        }
    }

    /// How many rows count for the current run.
    public var improvementCount: Int {
        switch self {
        case .bench(let c): c.improvements.count
        case .fuzz(let c): c.improvements.count
        }
    }
}

/// A bench report compared with a fuzz report.
public struct ReportComparisonError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `bench` or `fuzz`.
    public var baselineKind: String
    /// `bench` or `fuzz`.
    public var currentKind: String

    /// One line for the terminal.
    public var description: String {
        "cannot compare a \(baselineKind) report with a \(currentKind) report"
    }
}
