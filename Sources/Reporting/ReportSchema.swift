import Foundation

/// The versioned JSON documents `bench` and `fuzz` write and `report` reads (docs/report-schema.md).
///
/// Every document carries `schema` (`"layoutbench.bench"` or `"layoutbench.fuzz"`) and
/// `version`. A reader accepts its own major version and refuses others with a clear error;
/// fields are only ever added within a major version, so older readers ignore new ones. A
/// fuzz report of version 1 (before verdicts) is read and migrated to version 2.
public enum ReportSchema {
    public static let benchName = "layoutbench.bench"
    public static let fuzzName = "layoutbench.fuzz"
    /// Major version of the bench document.
    public static let version = 1
    /// Major version of the fuzz document: 2 since findings carry verdicts (`wrong`,
    /// `ill-conditioned`, `semantics`) and signatures of findings that are not wrong end in
    /// `@VERDICT`.
    public static let fuzzVersion = 2
    /// Fuzz versions this reader migrates to ``fuzzVersion``.
    public static let migratedFuzzVersions: Set<Int> = [1]
}

/// A finding signature, `class/backend[/oracle][@verdict]`, in its parts. The verdict is
/// absent for `wrong` findings (and in every signature of a version-1 report).
public struct FindingSignature: Sendable, Hashable {
    /// The finding class (`status-mismatch`, `suboptimal`, `crash`, …).
    public var kind: String
    /// The backend at fault (`-` when a malformed signature names none).
    public var backend: String
    /// The metamorphic oracle (transform) involved, if any (`mirror-rtl`).
    public var oracle: String?
    /// `wrong`, `ill-conditioned` or `semantics`.
    public var verdict: String

    public init(kind: String, backend: String, oracle: String?, verdict: String = "wrong") {
        self.kind = kind
        self.backend = backend
        self.oracle = oracle
        self.verdict = verdict
    }

    /// Reads a signature; a malformed one keeps its text as the class.
    public init(parsing text: String) {
        var body = Substring(text)
        var verdict = "wrong"
        if let at = body.lastIndex(of: "@") {
            verdict = String(body[body.index(after: at)...])
            body = body[..<at]
        }
        let parts = body.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 3: self.init(kind: parts[0], backend: parts[1], oracle: parts[2], verdict: verdict)
        case 2: self.init(kind: parts[0], backend: parts[1], oracle: nil, verdict: verdict)
        default: self.init(kind: String(body), backend: "-", oracle: nil, verdict: verdict)
        }
    }

    /// The signature's text.
    public var text: String {
        let base = ([kind, backend] + (oracle.map { [$0] } ?? [])).joined(separator: "/")
        return verdict == "wrong" ? base : base + "@" + verdict
    }

    /// Whether the findings of this signature are bugs (fail a campaign).
    public var isWrong: Bool { verdict == "wrong" }
}

/// The machine a report was measured on.
public struct MachineInfo: Sendable, Hashable, Codable {
    /// The machine's host name.
    public var hostname: String
    /// A human-readable OS name and version (`Debian GNU/Linux 12 (bookworm)`).
    public var operatingSystem: String
    /// Active processor cores.
    public var processorCount: Int
    /// Physical memory, in bytes.
    public var physicalMemoryBytes: UInt64
    /// `layoutbench`'s own version string (the git revision when known).
    public var toolVersion: String

    public init(hostname: String, operatingSystem: String, processorCount: Int, physicalMemoryBytes: UInt64, toolVersion: String) {
        self.hostname = hostname
        self.operatingSystem = operatingSystem
        self.processorCount = processorCount
        self.physicalMemoryBytes = physicalMemoryBytes
        self.toolVersion = toolVersion
    }
}

/// Solve-time statistics of one (case, backend) pair over its repetitions, in nanoseconds.
public struct TimingSummary: Sendable, Hashable, Codable {
    /// Timed solves (fewer than asked when the row spent its time limit).
    public var samples: Int
    /// The fastest solve.
    public var minimum: Double
    /// The median (from an HDR histogram with 3 significant digits: within 0.1 %).
    public var p50: Double
    /// The 90th percentile (with few samples, often the maximum).
    public var p90: Double
    /// The 99th percentile (with few samples, often the maximum).
    public var p99: Double
    /// The slowest solve.
    public var maximum: Double
    /// The arithmetic mean.
    public var mean: Double
    /// Sample standard deviation (0 for one sample).
    public var standardDeviation: Double

    public init(samples: Int, minimum: Double, p50: Double, p90: Double, p99: Double, maximum: Double, mean: Double, standardDeviation: Double) {
        self.samples = samples
        self.minimum = minimum
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.maximum = maximum
        self.mean = mean
        self.standardDeviation = standardDeviation
    }
}

/// One row of a bench report: a family at a size, solved by one backend.
public struct BenchResult: Sendable, Hashable, Codable {
    /// The generator family; in the apps suite `app:APP/FILE#ROOT`, `app:NAME` or `apps-total`; in
    /// the sequences suite the sequence family.
    public var family: String
    /// The size asked of the generator (about the number of views); in the apps suite the row's
    /// number of layouts; in the sequences suite the base layout's size.
    public var size: Int
    /// The generator seed of the case (regenerate with `layoutbench generate`).
    public var seed: UInt64
    /// Views in the generated system (summed over an apps row's layouts; a sequence row's first
    /// pass's).
    public var views: Int
    /// Constraints in the generated system (summed like ``views``).
    public var constraints: Int
    /// The backend that solved it.
    public var backend: String
    /// `optimal`, `unsatisfiable`, `budgetExceeded`, `unsupported`, or `failed`.
    public var status: String
    /// Why the backend did not solve it, for `unsupported` and `failed`.
    public var note: String?
    /// Solve times; nil when the backend did not solve the case.
    public var timing: TimingSummary?
    /// Pivots or row operations of one solve.
    public var iterations: Int?
    /// The process's peak resident memory after this row was measured, in bytes.
    public var peakResidentBytes: UInt64?
    /// Where a solve's time went, for backends that report it.
    public var phases: PhaseSummary?
    /// For an outside solver, whose `timing` is its own work measured inside its adapter:
    /// the rest of each solve (process round trip, JSON, model building in the adapter).
    public var overhead: TimingSummary?
    /// Sequence rows (`bench --suite sequences`) only: the update passes the backend answered
    /// in the timed run (each one sample of `timing`); fewer than the sequence has when the
    /// row's time limit cut it short (the note says so).
    public var passes: Int?
    /// Sequence rows only: the sequence's first pass, the initial system solved before any
    /// update, in nanoseconds (the solver's own time for an outside solver); not a sample.
    public var initialSolve: Double?
    /// `bench --suite apps` rows only: what the reference backend says of the row's screens
    /// (ambiguity) and whether its frames agree with the ones Xcode stored. The same in every
    /// backend's row of a screen: it is a fact of the layout, not of the backend timed.
    public var screen: AppScreenFacts?

    public init(
        family: String, size: Int, seed: UInt64, views: Int, constraints: Int, backend: String, status: String,
        note: String? = nil, timing: TimingSummary? = nil, iterations: Int? = nil, peakResidentBytes: UInt64? = nil,
        phases: PhaseSummary? = nil
    ) {
        self.family = family
        self.size = size
        self.seed = seed
        self.views = views
        self.constraints = constraints
        self.backend = backend
        self.status = status
        self.note = note
        self.timing = timing
        self.iterations = iterations
        self.peakResidentBytes = peakResidentBytes
        self.phases = phases
    }
}

/// A real app's screens (IB layout roots) as the reference backend solves them: one screen
/// for a screen row of `bench --suite apps`, an app's or every app's screens for a summary row.
public struct AppScreenFacts: Sendable, Hashable, Codable {
    /// The backend whose solution these facts are about (the exact backend).
    public var reference: String
    /// Screens the row covers (1 for a screen row).
    public var screens: Int
    /// Screens the reference solved (optimal or unsatisfiable; not out of budget or failed).
    public var solved: Int
    /// Solved screens with an unknown the reference finds ambiguous.
    public var ambiguousScreens: Int
    /// Screen rows: the views with an ambiguous unknown (`name.component`, the first few).
    public var ambiguousViews: [String]?
    /// Screens whose stored frames are compared: Xcode marks none of their views misplaced
    /// or ambiguous, so the stored frames are an answer of the file's constraints.
    public var compared: Int
    /// Compared screens whose reference frames, after the stored frames' rounding
    /// (docs/interface-builder.md), equal Xcode's within the tolerance.
    public var agreeing: Int
    /// Screen rows that disagree: the first differences (`view.x = 12.5, stored 13`).
    public var mismatches: [String]?
    /// Screen rows not compared: why (`xcode-misplaced`, `xcode-ambiguous`, `no reference solution`).
    public var notCompared: String?

    public init(reference: String, screens: Int, solved: Int, ambiguousScreens: Int, ambiguousViews: [String]? = nil,
                compared: Int, agreeing: Int, mismatches: [String]? = nil, notCompared: String? = nil) {
        self.reference = reference
        self.screens = screens
        self.solved = solved
        self.ambiguousScreens = ambiguousScreens
        self.ambiguousViews = ambiguousViews
        self.compared = compared
        self.agreeing = agreeing
        self.mismatches = mismatches
        self.notCompared = notCompared
    }

    /// The facts of several screens together (a summary row): counts add up, per-screen
    /// details are dropped.
    public static func summing(_ parts: [AppScreenFacts], reference: String) -> AppScreenFacts {
        AppScreenFacts(reference: reference, screens: parts.reduce(0) { $0 + $1.screens },
                       solved: parts.reduce(0) { $0 + $1.solved },
                       ambiguousScreens: parts.reduce(0) { $0 + $1.ambiguousScreens },
                       compared: parts.reduce(0) { $0 + $1.compared }, agreeing: parts.reduce(0) { $0 + $1.agreeing })
    }

    /// The ambiguity column: `no`, `yes: label button` (screen; `yes` without `detailed`), or
    /// `3/40 screens` (summary).
    public func ambiguityText(detailed: Bool = true) -> String {
        if screens == 1 {
            if solved == 0 { return "-" }
            guard ambiguousScreens > 0 else { return "no" }
            return "yes" + (detailed ? ambiguousViews.map { $0.isEmpty ? "" : ": " + $0.joined(separator: " ") } ?? "" : "")
        }
        return "\(ambiguousScreens)/\(solved) screens"
    }

    /// The IB-agreement column: `agrees`, `differs: …`, `not compared (…)` (screen; without
    /// `detailed`, no differences and `-` for not compared), or `38/40 (95.0%)` (summary).
    public func agreementText(detailed: Bool = true) -> String {
        if screens == 1 {
            if let notCompared { return detailed ? "not compared (\(notCompared))" : "-" }
            guard agreeing == 0 else { return "agrees" }
            return "differs" + (detailed ? mismatches.map { $0.isEmpty ? "" : ": " + $0.joined(separator: "; ") } ?? "" : "")
        }
        guard compared > 0 else { return "none compared" }
        return "\(agreeing)/\(compared) (" + String(format: "%.1f%%", 100 * Double(agreeing) / Double(compared)) + ")"
    }
}

/// The median time of each phase of a row's solves, in nanoseconds (the phases need not
/// add up to `timing.p50`: each is its own median, and the rest of a solve is in none).
public struct PhaseSummary: Sendable, Hashable, Codable {
    /// Reading the case's `.layout` text (the same for every backend; not part of a solve).
    public var parse: Double
    /// Lowering to linear rows.
    public var lowering: Double
    /// The required constraints: what holds and what is broken, the conflict aside.
    public var solve: Double
    /// The priority levels' optima (and certificates, for the exact backend).
    public var levels: Double
    /// Determined and ambiguous unknowns.
    public var ambiguity: Double
    /// The conflict of the first broken constraint.
    public var conflict: Double

    public init(parse: Double, lowering: Double, solve: Double, levels: Double, ambiguity: Double, conflict: Double) {
        self.parse = parse
        self.lowering = lowering
        self.solve = solve
        self.levels = levels
        self.ambiguity = ambiguity
        self.conflict = conflict
    }
}

/// What `bench` measured.
public struct BenchReport: Sendable, Hashable, Codable {
    /// ``ReportSchema/benchName``.
    public var schema: String
    /// ``ReportSchema/version``.
    public var version: Int
    /// ISO 8601 time the run started.
    public var createdAt: String
    /// The machine the run was measured on.
    public var machine: MachineInfo
    /// `quick` or `standard` (or a custom suite name).
    public var suite: String
    /// Untimed solves of each row before timing it.
    public var warmupRuns: Int
    /// Timed solves asked per row (a row stops earlier when it spends its time limit;
    /// `timing.samples` is what it got).
    public var repetitions: Int
    /// The backends of the run, in run order.
    public var backends: [String]
    /// One row per (family, size, seed, backend), in no particular order.
    public var results: [BenchResult]
    /// Wall time of the whole run, seconds.
    public var seconds: Double

    public init(
        createdAt: String, machine: MachineInfo, suite: String, warmupRuns: Int, repetitions: Int,
        backends: [String], results: [BenchResult], seconds: Double
    ) {
        self.schema = ReportSchema.benchName
        self.version = ReportSchema.version
        self.createdAt = createdAt
        self.machine = machine
        self.suite = suite
        self.warmupRuns = warmupRuns
        self.repetitions = repetitions
        self.backends = backends
        self.results = results
        self.seconds = seconds
    }
}

/// The conditioning of a finding's case (see `docs/fuzzing.md`, "Verdicts").
public struct FuzzConditioning: Sendable, Hashable, Codable {
    /// The smallest relative perturbation found to make the reference's kept required
    /// constraints infeasible (to a factor of 2); absent when none of up to 1e-2 does.
    public var distanceToInfeasibility: Double?
    /// Rows that hold with equality at the reference's point.
    public var tightRows: Int
    /// Unknowns of the case.
    public var unknowns: Int
    /// Tight rows beyond the number of unknowns.
    public var degeneracy: Int

    public init(distanceToInfeasibility: Double?, tightRows: Int, unknowns: Int, degeneracy: Int) {
        self.distanceToInfeasibility = distanceToInfeasibility
        self.tightRows = tightRows
        self.unknowns = unknowns
        self.degeneracy = degeneracy
    }
}

/// One stored finding of a fuzz campaign.
public struct FuzzFindingEntry: Sendable, Hashable, Codable {
    /// The signature with `/` and `@` turned into `-`, then a 64-bit FNV-1a hash of the reduced
    /// repro: stable across runs and machines, and the repro's file name.
    public var fingerprint: String
    /// A finding class (`suboptimal`, `status-mismatch`, …).
    public var kind: String
    /// The backend at fault first, then the reference when two were compared.
    public var backends: [String]
    /// The metamorphic oracle, for metamorphic findings (and crashes under a transform).
    public var oracle: String?
    /// What differs, in words.
    public var detail: String
    /// The case's index in the campaign.
    public var caseIndex: UInt64
    /// The generator family of the case.
    public var family: String
    /// The size asked of the generator.
    public var size: Int
    /// The case's own generator seed: `layoutbench generate --family F --size N --seed S` rebuilds
    /// the unreduced case.
    public var seed: UInt64
    /// Constraints before reduction.
    public var originalConstraints: Int
    /// Constraints in the repro.
    public var reducedConstraints: Int
    /// Views in the repro.
    public var reducedViews: Int
    /// The repro's path relative to the report (`findings/FINGERPRINT.layout`).
    public var repro: String
    /// `wrong`, `ill-conditioned` or `semantics` (`wrong` in migrated version-1 reports).
    public var verdict: String
    /// For an ill-conditioned finding, the smallest relative perturbation found to explain it.
    public var perturbation: Double?
    /// Why the verdict is what it is.
    public var verdictNote: String?
    /// The case's conditioning.
    public var conditioning: FuzzConditioning?
    /// For an update-sequence case (`fuzz --sequences`; ``family`` is then the sequence
    /// family): the base family of its first system, the pass (1-based) at which the backend
    /// first went wrong this way, the update steps taken by then, and the steps before and
    /// after reduction. Absent for a case that is one system.
    public var base: String?
    public var pass: Int?
    public var step: Int?
    public var originalSteps: Int?
    public var reducedSteps: Int?
    /// SHA-256 (hex) of each stored file of the finding, by suffix (`layout`, `expected.json`,
    /// `finding.json`, reproducers): `report merge` refuses a file that is missing or differs.
    /// Absent in reports written before digests were recorded.
    public var digests: [String: String]?

    public init(
        fingerprint: String, kind: String, backends: [String], oracle: String?, detail: String, caseIndex: UInt64,
        family: String, size: Int, seed: UInt64, originalConstraints: Int, reducedConstraints: Int, reducedViews: Int,
        repro: String, verdict: String = "wrong", perturbation: Double? = nil, verdictNote: String? = nil,
        conditioning: FuzzConditioning? = nil
    ) {
        self.fingerprint = fingerprint
        self.kind = kind
        self.backends = backends
        self.oracle = oracle
        self.detail = detail
        self.caseIndex = caseIndex
        self.family = family
        self.size = size
        self.seed = seed
        self.originalConstraints = originalConstraints
        self.reducedConstraints = reducedConstraints
        self.reducedViews = reducedViews
        self.repro = repro
        self.verdict = verdict
        self.perturbation = perturbation
        self.verdictNote = verdictNote
        self.conditioning = conditioning
    }

    private enum CodingKeys: String, CodingKey {
        case fingerprint, kind, backends, oracle, detail, caseIndex, family, size, seed, originalConstraints
        case reducedConstraints, reducedViews, repro, verdict, perturbation, verdictNote, conditioning, digests
        case base, pass, step, originalSteps, reducedSteps
    }

    /// Reads version-1 entries (no verdict: `wrong`) as well as version-2 ones.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fingerprint = try c.decode(String.self, forKey: .fingerprint)
        kind = try c.decode(String.self, forKey: .kind)
        backends = try c.decode([String].self, forKey: .backends)
        oracle = try c.decodeIfPresent(String.self, forKey: .oracle)
        detail = try c.decode(String.self, forKey: .detail)
        caseIndex = try c.decode(UInt64.self, forKey: .caseIndex)
        family = try c.decode(String.self, forKey: .family)
        size = try c.decode(Int.self, forKey: .size)
        seed = try c.decode(UInt64.self, forKey: .seed)
        originalConstraints = try c.decode(Int.self, forKey: .originalConstraints)
        reducedConstraints = try c.decode(Int.self, forKey: .reducedConstraints)
        reducedViews = try c.decode(Int.self, forKey: .reducedViews)
        repro = try c.decode(String.self, forKey: .repro)
        verdict = try c.decodeIfPresent(String.self, forKey: .verdict) ?? "wrong"
        perturbation = try c.decodeIfPresent(Double.self, forKey: .perturbation)
        verdictNote = try c.decodeIfPresent(String.self, forKey: .verdictNote)
        conditioning = try c.decodeIfPresent(FuzzConditioning.self, forKey: .conditioning)
        digests = try c.decodeIfPresent([String: String].self, forKey: .digests)
        base = try c.decodeIfPresent(String.self, forKey: .base)
        pass = try c.decodeIfPresent(Int.self, forKey: .pass)
        step = try c.decodeIfPresent(Int.self, forKey: .step)
        originalSteps = try c.decodeIfPresent(Int.self, forKey: .originalSteps)
        reducedSteps = try c.decodeIfPresent(Int.self, forKey: .reducedSteps)
    }

    /// Where an update-sequence finding first showed and how far its repro shrank, in words
    /// (nil for a system case): `pass 3 (after 5 steps); steps 12 → 2`.
    public var sequencePhrase: String? {
        guard let pass else { return nil }
        var text = "pass \(pass)" + (step.map { " (after \($0) step\($0 == 1 ? "" : "s"))" } ?? "")
        if let originalSteps, let reducedSteps { text += "; steps \(originalSteps) → \(reducedSteps)" }
        return text
    }

    /// The finding's signature, `class/backend[/oracle][@verdict]`.
    public var signature: FindingSignature {
        FindingSignature(kind: kind, backend: backends.first ?? "-", oracle: oracle, verdict: verdict)
    }
}

/// A shard's cases of one generator family, and how many of them showed findings.
public struct FamilyTally: Sendable, Hashable, Codable {
    /// Cases of the family the shard completed.
    public var cases: Int
    /// Cases with at least one wrong finding.
    public var wrongCases: Int
    /// Cases with at least one ill-conditioned finding.
    public var illConditionedCases: Int

    public init(cases: Int = 0, wrongCases: Int = 0, illConditionedCases: Int = 0) {
        self.cases = cases
        self.wrongCases = wrongCases
        self.illConditionedCases = illConditionedCases
    }

    /// Both tallies added (saturating: a report is input).
    public func adding(_ other: FamilyTally) -> FamilyTally {
        FamilyTally(cases: FuzzReport.saturatingSum(cases, other.cases),
                    wrongCases: FuzzReport.saturatingSum(wrongCases, other.wrongCases),
                    illConditionedCases: FuzzReport.saturatingSum(illConditionedCases, other.illConditionedCases))
    }
}

/// One shard's run: what it covered and what it counted.
public struct ShardSummary: Sendable, Hashable, Codable, ContentDigested {
    /// K in `--shard K/N` (0-based).
    public var index: Int
    /// Cases this shard completed.
    public var cases: Int
    /// Stopped early (Ctrl-C, or a time limit before --cases was reached).
    public var interrupted: Bool
    /// Finding occurrences by signature `class/backend[/oracle]`, every case counted.
    public var occurrences: [String: Int]
    /// Cases whose isolated worker crashed, hung or was killed.
    public var crashedCases: [UInt64]
    /// Wall time of the shard's run, seconds (not compared by `report merge` checks).
    public var seconds: Double
    /// Per generator family: cases, and cases with wrong or ill-conditioned findings
    /// (absent in version-1 reports).
    public var families: [String: FamilyTally]?
    /// SHA-256 (hex) of the summary's content (``contentDigest``), written by the shard:
    /// `report merge` refuses a summary edited since, and two different copies of one shard.
    /// Absent in reports written before digests were recorded.
    public var digest: String?

    public init(
        index: Int, cases: Int, interrupted: Bool, occurrences: [String: Int], crashedCases: [UInt64], seconds: Double,
        families: [String: FamilyTally]? = nil
    ) {
        self.index = index
        self.cases = cases
        self.interrupted = interrupted
        self.occurrences = occurrences
        self.crashedCases = crashedCases
        self.seconds = seconds
        self.families = families
    }

    /// Everything but `seconds` (which differs between equal runs) and `digest` itself.
    public var digestedContent: ShardSummary {
        var content = self
        content.seconds = 0
        content.digest = nil
        return content
    }
}

/// A fuzz campaign's outcome: one shard's, or the merge of several.
///
/// Everything but `seconds` (here and in the shard summaries) depends only on the campaign
/// (seed, families, sizes, backends, case count) and the shards covered: not on `--jobs`,
/// on isolation, on resuming, or on how the campaign was split.
public struct FuzzReport: Sendable, Hashable, Codable, ContentDigested {
    /// ``ReportSchema/fuzzName``.
    public var schema: String
    /// ``ReportSchema/fuzzVersion`` (version 1 is migrated on reading).
    public var version: Int
    /// The campaign seed: case *i* is generated from (seed, *i*) alone.
    public var seed: UInt64
    /// N in `--shard K/N` (1 when not sharded).
    public var shardCount: Int
    /// The shards covered, sorted by index.
    public var shards: [ShardSummary]
    /// Shards in 0..<shardCount that a merge did not find.
    public var missingShards: [Int]
    /// The backends under test.
    public var backends: [String]
    /// The generator families the campaign drew from (for a campaign of update sequences, the base
    /// families of their first systems).
    public var families: [String]
    /// `fuzz --sequences`: the sequence families of a campaign of update sequences (absent
    /// for a campaign of systems).
    public var sequenceFamilies: [String]?
    /// Reduced findings kept per signature (the lowest case indices win).
    public var perSignature: Int
    /// The campaign's `--cases` (nil for a run bounded by time only).
    public var requestedCases: Int?
    /// The campaign's size range (views), `[min, max]`.
    public var sizes: [Int]?
    /// Stored findings, sorted by fingerprint.
    public var findings: [FuzzFindingEntry]
    /// SHA-256 (hex) of the report's content (``contentDigest``), written with it:
    /// `report merge` refuses a report edited since. Absent in reports written before
    /// digests were recorded.
    public var digest: String?

    public init(
        seed: UInt64, shardCount: Int, shards: [ShardSummary], missingShards: [Int], backends: [String],
        families: [String], perSignature: Int, requestedCases: Int? = nil, sizes: [Int]? = nil, findings: [FuzzFindingEntry]
    ) {
        self.schema = ReportSchema.fuzzName
        self.version = ReportSchema.fuzzVersion
        self.seed = seed
        self.shardCount = shardCount
        self.shards = shards
        self.missingShards = missingShards
        self.backends = backends
        self.families = families
        self.perSignature = perSignature
        self.requestedCases = requestedCases
        self.sizes = sizes
        self.findings = findings
    }

    /// Cases run over all shards (sums saturate: a report is input, and input must not trap).
    public var cases: Int { shards.reduce(0) { Self.saturatingSum($0, $1.cases) } }
    /// Whether any shard stopped early.
    public var interrupted: Bool { shards.contains { $0.interrupted } }
    /// Occurrences by signature over all shards.
    public var occurrences: [String: Int] {
        shards.reduce(into: [:]) { total, shard in total.merge(shard.occurrences, uniquingKeysWith: Self.saturatingSum) }
    }
    /// Occurrences of wrong findings over all shards: what fails a campaign.
    public var wrongOccurrences: Int {
        occurrences.filter { FindingSignature(parsing: $0.key).isWrong }.values.reduce(0, Self.saturatingSum)
    }
    /// Occurrences of findings that are not wrong (ill-conditioned, semantics), counted apart.
    public var forgivenOccurrences: Int {
        occurrences.filter { !FindingSignature(parsing: $0.key).isWrong }.values.reduce(0, Self.saturatingSum)
    }
    /// Per family tallies over all shards (empty for a version-1 report).
    public var familyTallies: [String: FamilyTally] {
        shards.reduce(into: [:]) { total, shard in
            for (family, tally) in shard.families ?? [:] { total[family] = (total[family] ?? FamilyTally()).adding(tally) }
        }
    }
    /// Crashed cases over all shards, ascending.
    public var crashedCases: [UInt64] { shards.flatMap(\.crashedCases).sorted() }
    /// Wall time summed over shards.
    public var seconds: Double { shards.reduce(0) { $0 + $1.seconds } }

    static func saturatingSum(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? Int.max : Int.min) : sum
    }

    /// The report with wall times zeroed: what must be equal between two runs of one campaign.
    public var withoutTimings: FuzzReport {
        var copy = self
        for i in copy.shards.indices { copy.shards[i].seconds = 0 }
        copy.digest = nil
        return copy
    }

}
