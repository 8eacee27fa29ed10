import BackendContract
import Fuzzing
import Generator

/// Resolves backend names (the CLI's registry, or a test's own backends).
public struct BackendCatalog: Sendable {
    public var backends: [any LayoutBackend]
    /// The exact reference that judges the others.
    public var referenceName: String

    public init(backends: [any LayoutBackend], referenceName: String) {
        self.backends = backends
        self.referenceName = referenceName
    }

    public func backend(named name: String) -> (any LayoutBackend)? {
        backends.first { $0.name == name }
    }
}

/// Why a campaign description cannot be run.
public struct CampaignError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Everything that defines a fuzz campaign, by name, so that it can be written to a
/// checkpoint and sent to isolated workers. Two runs with equal specs judge the same cases.
public struct CampaignSpec: Sendable, Hashable, Codable {
    public var seed: UInt64
    public var families: [String]
    public var minSize: Int
    public var maxSize: Int
    public var backends: [String]
    public var oracles: [String]
    /// Per-solve budget: iterations and seconds.
    public var budgetIterations: Int
    public var budgetSeconds: Double
    public var reduce: Bool
    /// Reduced findings kept per signature: those of the lowest case indices.
    public var perSignature: Int
    /// Sequence families (`fuzz --sequences`): when given, every case is an update sequence
    /// on a system of ``families``. Absent from the JSON of a campaign of systems.
    public var sequenceFamilies: [String]?
    /// The most steps a sequence case asks for (`--max-steps`; default 16).
    public var maxSteps: Int?
    /// The `--seeds` folder (absolute) that the `seed:` families come from, and its seeds'
    /// ``SeedFolder/digest`` when the campaign began; nil for campaigns without seeds.
    public var seeds: String?
    public var seedsDigest: String?
    /// With seeds: the seeds' update-sequence families (`seed-updates:PATH`) join the
    /// campaign — every other case when no ``sequenceFamilies`` are given, among them when
    /// they are. Nil (campaigns written before them): off.
    public var seedSequences: Bool?

    public init(
        seed: UInt64, families: [String], minSize: Int = 1, maxSize: Int = 10, backends: [String],
        oracles: [String] = MetamorphicOracle.allCases.map(\.rawValue), budgetIterations: Int = 1_000_000,
        budgetSeconds: Double = 10, reduce: Bool = true, perSignature: Int = 3
    ) {
        self.seed = seed
        self.families = families
        self.minSize = minSize
        self.maxSize = maxSize
        self.backends = backends
        self.oracles = oracles
        self.budgetIterations = budgetIterations
        self.budgetSeconds = budgetSeconds
        self.reduce = reduce
        self.perSignature = perSignature
    }

    /// The campaign this spec describes, with backends from the catalog.
    public func campaign(catalog: BackendCatalog, willSolve: (@Sendable (String, MetamorphicOracle?) -> Void)? = nil) throws(CampaignError) -> FuzzCampaign {
        var families: [Family] = []
        let seedFolder = try self.seedFolder()
        let seedFamilies = Dictionary((seedFolder?.families ?? []).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in self.families {
            guard let family = Families.named(name) ?? seedFamilies[name] else { throw CampaignError("unknown family '\(name)'") }
            families.append(family)
        }
        var backends: [any LayoutBackend] = []
        for name in self.backends {
            guard let backend = catalog.backend(named: name) else { throw CampaignError("unknown backend '\(name)'") }
            backends.append(backend)
        }
        var oracles: [MetamorphicOracle] = []
        for name in self.oracles {
            guard let oracle = MetamorphicOracle(rawValue: name) else { throw CampaignError("unknown oracle '\(name)'") }
            oracles.append(oracle)
        }
        guard let reference = catalog.backend(named: catalog.referenceName) else {
            throw CampaignError("the reference backend '\(catalog.referenceName)' is missing")
        }
        guard !families.isEmpty, minSize >= 1, maxSize >= minSize else { throw CampaignError("no families or an empty size range") }
        var sequenceFamilies: [SequenceFamily] = []
        for name in self.sequenceFamilies ?? [] {
            guard let family = SequenceFamilies.named(name) else { throw CampaignError("unknown sequence family '\(name)'") }
            sequenceFamilies.append(family)
        }
        // The update sequences of the seeds the campaign mutates.
        if seedSequences == true {
            let chosen = Set(families.map(\.name))
            sequenceFamilies += (seedFolder?.sequenceFamilies ?? []).filter { $0.base.map(chosen.contains) == true }
        }
        if let maxSteps, maxSteps < 1 { throw CampaignError("--max-steps must be at least 1") }
        var configuration = FuzzCampaign.Configuration(
            seed: seed, families: families, sizes: minSize...maxSize, backends: backends, reference: reference,
            oracles: oracles, budget: Budget(iterations: budgetIterations, wallTime: .milliseconds(Int64(budgetSeconds * 1000))),
            reducer: reduce ? Reducer() : nil)
        configuration.willSolve = willSolve
        configuration.sequenceFamilies = sequenceFamilies
        configuration.alternatesSystemCases = seedSequences == true && (self.sequenceFamilies ?? []).isEmpty
        if let maxSteps { configuration.maxSteps = maxSteps }
        return FuzzCampaign(configuration)
    }
}

extension CampaignSpec {
    /// The seeds folder, checked against the digest the campaign began with.
    func seedFolder() throws(CampaignError) -> SeedFolder? {
        guard let seeds else { return nil }
        let folder = try SeedFolder.load(seeds)
        if let seedsDigest, folder.digest != seedsDigest {
            throw CampaignError("\(seeds): the seeds changed since the campaign began (digest \(folder.digest), not \(seedsDigest))")
        }
        return folder
    }
}

/// `--shard K/N`: shard K (0-based) of N takes case indices K, K+N, K+2N, …
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public static let whole = Shard(index: 0, count: 1)

    /// Reads `K/N` with 0 ≤ K < N.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 0, k < n else { return nil }
        self.init(index: k, count: n)
    }

    /// The shard a scheduler assigned through the environment, if any: Slurm job arrays
    /// (`SLURM_ARRAY_TASK_ID`) or Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`).
    ///
    /// With `shards` (`--shards N`) the task ID is the shard index itself, so a re-submitted
    /// array of a few shards (`--array=3,5`) runs exactly those shards of the campaign.
    /// Without it, the whole array is the campaign: N is `SLURM_ARRAY_TASK_COUNT` and the
    /// index is the ID minus `SLURM_ARRAY_TASK_MIN` (an array `--array=1-8` is shards 0…7).
    public static func fromEnvironment(_ environment: [String: String], shards: Int?) throws(CampaignError) -> Shard? {
        if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap(Int.init) {
            if let shards {
                guard id >= 0, id < shards else { throw CampaignError("SLURM_ARRAY_TASK_ID \(id) is outside 0..<\(shards) (--shards)") }
                return Shard(index: id, count: shards)
            }
            guard let count = environment["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) else {
                throw CampaignError("SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor --shards is")
            }
            let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
            guard id - minimum >= 0, id - minimum < count else {
                throw CampaignError("SLURM_ARRAY_TASK_ID \(id) is outside 0..<\(count) (after subtracting SLURM_ARRAY_TASK_MIN \(minimum)); give --shards N")
            }
            return Shard(index: id - minimum, count: count)
        }
        if let id = environment["JOB_COMPLETION_INDEX"].flatMap(Int.init) {
            guard let count = shards else { throw CampaignError("JOB_COMPLETION_INDEX is set; give the shard count with --shards N") }
            guard id >= 0, id < count else { throw CampaignError("JOB_COMPLETION_INDEX \(id) is outside 0..<\(count)") }
            return Shard(index: id, count: count)
        }
        return nil
    }

    /// The case index of this shard's `position`-th case.
    public func caseIndex(_ position: UInt64) -> UInt64 { UInt64(index) + position * UInt64(count) }

    public var description: String { "\(index)/\(count)" }
}
