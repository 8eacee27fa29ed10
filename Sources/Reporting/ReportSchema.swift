/// The versioned JSON documents `bench` and `fuzz` write and `report` reads (docs/report-schema.md).
///
/// Every document carries `schema` (`"layoutbench.bench"` or `"layoutbench.fuzz"`) and
/// `version`. A reader accepts its own major version and refuses others with a clear error;
/// fields are only ever added within a major version, so older readers ignore new ones.
public enum ReportSchema {
    public static let benchName = "layoutbench.bench"
    public static let fuzzName = "layoutbench.fuzz"
    /// Major version of both documents.
    public static let version = 1
}

/// The machine a report was measured on.
public struct MachineInfo: Sendable, Hashable, Codable {
    public var hostname: String
    public var operatingSystem: String
    public var processorCount: Int
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
    public var samples: Int
    public var minimum: Double
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var maximum: Double
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
    public var family: String
    public var size: Int
    /// The generator seed of the case (regenerate with `layoutbench generate`).
    public var seed: UInt64
    public var views: Int
    public var constraints: Int
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
    /// For an outside solver, whose `timing` is its own work measured inside its adapter:
    /// the rest of each solve (process round trip, JSON, model building in the adapter).
    public var overhead: TimingSummary?

    public init(
        family: String, size: Int, seed: UInt64, views: Int, constraints: Int, backend: String, status: String,
        note: String? = nil, timing: TimingSummary? = nil, iterations: Int? = nil, peakResidentBytes: UInt64? = nil
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
    }
}

/// What `bench` measured.
public struct BenchReport: Sendable, Hashable, Codable {
    public var schema: String
    public var version: Int
    /// ISO 8601 time the run started.
    public var createdAt: String
    public var machine: MachineInfo
    /// `quick` or `standard` (or a custom suite name).
    public var suite: String
    public var warmupRuns: Int
    public var repetitions: Int
    public var backends: [String]
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

/// One stored finding of a fuzz campaign.
public struct FuzzFindingEntry: Sendable, Hashable, Codable {
    public var fingerprint: String
    /// A finding class (`suboptimal`, `status-mismatch`, …).
    public var kind: String
    /// The backend at fault first, then the reference when two were compared.
    public var backends: [String]
    public var oracle: String?
    public var detail: String
    public var caseIndex: UInt64
    public var family: String
    public var size: Int
    public var seed: UInt64
    public var originalConstraints: Int
    public var reducedConstraints: Int
    public var reducedViews: Int
    /// The repro's path relative to the report (`findings/FINGERPRINT.layout`).
    public var repro: String

    public init(
        fingerprint: String, kind: String, backends: [String], oracle: String?, detail: String, caseIndex: UInt64,
        family: String, size: Int, seed: UInt64, originalConstraints: Int, reducedConstraints: Int, reducedViews: Int,
        repro: String
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
    }
}

/// One shard's run: what it covered and what it counted.
public struct ShardSummary: Sendable, Hashable, Codable {
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

    public init(index: Int, cases: Int, interrupted: Bool, occurrences: [String: Int], crashedCases: [UInt64], seconds: Double) {
        self.index = index
        self.cases = cases
        self.interrupted = interrupted
        self.occurrences = occurrences
        self.crashedCases = crashedCases
        self.seconds = seconds
    }
}

/// A fuzz campaign's outcome: one shard's, or the merge of several.
///
/// Everything but `seconds` (here and in the shard summaries) depends only on the campaign
/// (seed, families, sizes, backends, case count) and the shards covered: not on `--jobs`,
/// on isolation, on resuming, or on how the campaign was split.
public struct FuzzReport: Sendable, Hashable, Codable {
    public var schema: String
    public var version: Int
    public var seed: UInt64
    /// N in `--shard K/N` (1 when not sharded).
    public var shardCount: Int
    /// The shards covered, sorted by index.
    public var shards: [ShardSummary]
    /// Shards in 0..<shardCount that a merge did not find.
    public var missingShards: [Int]
    public var backends: [String]
    public var families: [String]
    /// Reduced findings kept per signature (the lowest case indices win).
    public var perSignature: Int
    /// The campaign's `--cases` (nil for a run bounded by time only).
    public var requestedCases: Int?
    /// The campaign's size range (views), `[min, max]`.
    public var sizes: [Int]?
    /// Stored findings, sorted by fingerprint.
    public var findings: [FuzzFindingEntry]

    public init(
        seed: UInt64, shardCount: Int, shards: [ShardSummary], missingShards: [Int], backends: [String],
        families: [String], perSignature: Int, requestedCases: Int? = nil, sizes: [Int]? = nil, findings: [FuzzFindingEntry]
    ) {
        self.schema = ReportSchema.fuzzName
        self.version = ReportSchema.version
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
        return copy
    }
}
