import LayoutModel

/// What a backend's answers mean and which parts of a solution it fills in: the judge reads
/// this to hold each backend to its own declared semantics (docs/outside-solvers.md).
///
/// The built-in backends are lexicographic and report everything (``reference``); an outside
/// solver declares its capabilities in its adapter's hello.
public struct BackendCapabilities: Sendable, Hashable, Codable {
    /// How priorities are traded against each other.
    public enum PriorityModel: Sendable, Hashable, Codable {
        /// The format's meaning: a higher priority is never traded for any amount of a lower one.
        case lexicographic
        /// One objective, Σ weight(p) × E(p) over the optional levels.
        case weighted(WeightMapping)
    }

    /// How a weighted solver turns a priority into a weight, stated exactly so that the
    /// judge can compute the weight of any priority.
    public enum WeightMapping: Sendable, Hashable, Codable {
        /// weight(p) = scale × p (kiwisolver and the Cassowary port: strength p, scale 1).
        case linear(scale: NumericLiteral)

        /// The weight of a priority, as a decimal literal (exact: a product of decimals).
        public func weight(of priority: Priority) -> (scale: NumericLiteral, priority: NumericLiteral) {
            switch self {
            case .linear(let scale): return (scale, priority.value)
            }
        }

        public var description: String {
            switch self {
            case .linear(let scale): return scale == .one ? "weight = priority" : "weight = \(scale) × priority"
            }
        }
    }

    /// Which parts of a solution a backend fills in; a part it does not report is not judged.
    public struct Reports: Sendable, Hashable, Codable {
        public var values: Bool
        /// Broken (rejected) required constraints.
        public var broken: Bool
        public var conflict: Bool
        public var ambiguity: Bool
        /// Error sums per level.
        public var objective: Bool
        /// Values as exact rationals.
        public var exactValues: Bool

        public init(values: Bool = true, broken: Bool = true, conflict: Bool, ambiguity: Bool, objective: Bool, exactValues: Bool) {
            self.values = values
            self.broken = broken
            self.conflict = conflict
            self.ambiguity = ambiguity
            self.objective = objective
            self.exactValues = exactValues
        }

        public static let everything = Reports(conflict: true, ambiguity: true, objective: true, exactValues: true)
    }

    public var priorities: PriorityModel
    public var reports: Reports
    /// Solves whole systems (`solve`).
    public var wholeSystems: Bool
    /// Takes update steps (add, remove, set constant, set priority, then values).
    public var updateSteps: Bool
    /// The unit a backend rounds its values to (GTK allocates whole pixels: 1), nil when it
    /// does not round; the judge then accepts each value within one unit of the exact one.
    public var roundingUnit: Double?

    public init(priorities: PriorityModel, reports: Reports, wholeSystems: Bool = true, updateSteps: Bool = false,
                roundingUnit: Double? = nil) {
        self.priorities = priorities
        self.reports = reports
        self.wholeSystems = wholeSystems
        self.updateSteps = updateSteps
        self.roundingUnit = roundingUnit
    }

    /// Lexicographic, reporting everything: what the format asks of a solution.
    public static let reference = BackendCapabilities(priorities: .lexicographic, reports: .everything)

    public var isWeighted: Bool {
        if case .weighted = priorities { return true }
        return false
    }
}

/// What a finding's standalone reproducer needs to know of the right answer.
public struct ReproducerExpectation: Sendable, Hashable {
    /// The broken required constraints (constraint indices, file order).
    public var broken: [Int]
    /// The exact optimum of the solver's own objective: E(p) per level (lexicographic), or
    /// the one weighted sum (weighted), as rational strings.
    public var objective: [String]
    /// How far a value may stray (the comparator's bound for the system).
    public var bound: Double
    /// What the finding says, for the script's header.
    public var finding: String

    public init(broken: [Int], objective: [String], bound: Double, finding: String) {
        self.broken = broken
        self.objective = objective
        self.bound = bound
        self.finding = finding
    }
}

/// One file of a reproducer, written beside the finding's repro as `FINGERPRINT.SUFFIX`.
public struct ReproducerFile: Sendable, Hashable, Codable {
    /// `repro.py`, `repro.sh`, `level1.lp`, …
    public var suffix: String
    public var contents: String
    public var executable: Bool

    public init(suffix: String, contents: String, executable: Bool) {
        self.suffix = suffix
        self.contents = contents
        self.executable = executable
    }
}

/// A backend that can write a finding as a program in the solver's own language and API.
public protocol ReproducerWriting: LayoutBackend {
    func reproducer(for system: ConstraintSystem, expectation: ReproducerExpectation) -> [ReproducerFile]
}

/// The exact optimum of a weighted objective, as rational strings.
public struct WeightedOptimum: Sendable, Hashable {
    /// min Σ weight_k × E_k.
    public var value: String
    /// One optimal point, by variable.
    public var values: [String]
    /// The unknowns not constant on the weighted optimal face (ascending variables).
    public var ambiguous: [Int]

    public init(value: String, values: [String], ambiguous: [Int]) {
        self.value = value
        self.values = values
        self.ambiguous = ambiguous
    }
}

/// A backend that computes weighted optima exactly (the exact reference): the judge of a
/// weighted solver checks its point against the optimum of *its* objective.
public protocol WeightedOptimumComputing: LayoutBackend {
    /// Minimises Σ weights[k−1] × E_k over the optional levels k, subject to every required
    /// constraint but those in `broken`; `weights` are rational strings, one per level of
    /// ``LayoutModel/ConstraintSystem/optionalLevels`` (highest first).
    func weightedOptimum(
        _ system: ConstraintSystem, broken: [Int], weights: [String], budget: Budget
    ) throws(BackendError) -> WeightedOptimum
}
