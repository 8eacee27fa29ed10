import LayoutModel

/// Whether a backend can solve a system, and if not, why.
public enum Support: Sendable, Hashable {
    case supported
    /// The reason, in a few words ("inequalities", "optional constraints").
    case unsupported(String)

    public var isSupported: Bool { self == .supported }
}

/// How much a solve may spend. A backend that runs out returns
/// ``LayoutModel/SolveStatus/budgetExceeded`` instead of hanging.
public struct Budget: Sendable, Hashable {
    /// Pivots, elimination steps or whatever the backend counts; nil for no limit.
    public var iterations: Int?
    /// Wall-clock time; nil for no limit.
    public var wallTime: Duration?

    public init(iterations: Int? = nil, wallTime: Duration? = nil) {
        self.iterations = iterations
        self.wallTime = wallTime
    }

    public static let unlimited = Budget()
}

/// What a solve cost.
public struct SolveStatistics: Sendable, Hashable, Codable {
    /// Pivots (simplex) or row operations (elimination).
    public var iterations: Int
    /// Wall-clock time of the solve, lowering included.
    public var duration: Duration
    /// Where the time went, for backends that say (`bench` shows it per row).
    public var phases: SolvePhases?
    /// For an outside solver, the time its own work took, measured inside its adapter
    /// (``duration`` then also holds the process and JSON overhead); nil for the others.
    public var solverTime: Duration?

    public init(iterations: Int = 0, duration: Duration = .zero, phases: SolvePhases? = nil, solverTime: Duration? = nil) {
        self.iterations = iterations
        self.duration = duration
        self.phases = phases
        self.solverTime = solverTime
    }
}

/// A solve's wall-clock time by phase (spec §5's steps). A phase a solve did not need stays
/// zero; what no phase covers (reading values, building the result) is the rest of
/// ``SolveStatistics/duration``.
public struct SolvePhases: Sendable, Hashable, Codable {
    /// Lowering the system to linear rows.
    public var lowering: Duration = .zero
    /// The required constraints: finding what holds and what is broken (§5.1), the conflict
    /// aside.
    public var solve: Duration = .zero
    /// The priority levels' optima (§5.2), with their certificates where the backend makes them.
    public var levels: Duration = .zero
    /// Determined and ambiguous unknowns (§5.3).
    public var ambiguity: Duration = .zero
    /// The conflict of the first broken constraint (§5.1).
    public var conflict: Duration = .zero

    public init() {}
}

/// A stopwatch read in laps: each ``lap()`` is the time since the previous one (or since
/// the start), so consecutive phases of a solve are charged without gaps or overlaps.
public struct PhaseClock: Sendable {
    private var last = ContinuousClock.now

    public init() {}

    /// The time since the last lap, starting the next.
    public mutating func lap() -> Duration {
        let now = ContinuousClock.now
        defer { last = now }
        return now - last
    }
}

/// A solution with its statistics.
public struct BackendResult: Sendable, Hashable {
    public var solution: Solution
    public var statistics: SolveStatistics
    /// What this answer reports, where it is less than the backend's declared
    /// ``BackendCapabilities/reports`` (an adapter that ran out of time for ambiguity); nil:
    /// as declared.
    public var reports: BackendCapabilities.Reports?

    public init(solution: Solution, statistics: SolveStatistics, reports: BackendCapabilities.Reports? = nil) {
        self.solution = solution
        self.statistics = statistics
        self.reports = reports
    }
}

/// Why a backend did not return a result.
public enum BackendError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `solve` was called on a system the backend does not support.
    case unsupported(backend: String, reason: String)
    /// The backend failed internally (a bug in the backend, not in the input).
    case internalFailure(backend: String, message: String)
    /// The system's solution cannot be stated in `Double`: `constraint` (an index in file
    /// order) cannot be evaluated at it (``LayoutModel/ConstraintSystem/firstUnrepresentableConstraint(at:)``).
    /// Nothing is wrong with the backend; the answer is not a number it may call optimal.
    case outOfRange(backend: String, constraint: Int, message: String)

    public var description: String {
        switch self {
        case .unsupported(let backend, let reason): return "\(backend) does not support this system: \(reason)"
        case .internalFailure(let backend, let message): return "\(backend) failed: \(message)"
        case .outOfRange(let backend, _, let message): return "\(backend) cannot state the solution: \(message)"
        }
    }
}

extension BackendResult {
    /// The result, or ``BackendError/outOfRange(backend:constraint:message:)`` when its point
    /// cannot be evaluated in `Double` (a value or a term beyond range): what every built-in
    /// backend answers for such a system, whichever way it computes.
    public func checkedRepresentable(in system: ConstraintSystem, backend: String) throws(BackendError) -> BackendResult {
        guard solution.status != .budgetExceeded else { return self }
        // The common case without lowering anything: values up to 2⁵⁰⁰ times coefficients
        // from literals up to 2²⁵⁰ (products of two at most) cannot overflow, nor can
        // their sums over fewer than 2²³ terms.
        if solution.values.allSatisfy({ $0.isFinite && $0.magnitude <= 0x1p500 }) && system.largestLiteralMagnitude <= 0x1p250
            && system.constraints.count < 1 << 20 {
            return self
        }
        guard let (index, detail) = system.firstUnrepresentableConstraint(at: solution.values) else { return self }
        throw .outOfRange(backend: backend, constraint: index, message: detail)
    }
}

/// A constraint solver LayoutBench can run and judge.
///
/// Implementations are value types or immutable: the runner calls `solve` concurrently from
/// Dispatch workers, each call with its own system.
public protocol LayoutBackend: Sendable {
    /// The name users select it by (`--backend NAME`).
    var name: String { get }
    /// One line on what it is and what it supports.
    var summary: String { get }
    /// Whether `solve` applies to this system.
    func supports(_ system: ConstraintSystem) -> Support
    /// Solves the system (spec §5). Throws ``BackendError/unsupported(backend:reason:)`` for
    /// a system `supports` rejects.
    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult
    /// What its answers mean and report (default: ``BackendCapabilities/reference``).
    var capabilities: BackendCapabilities { get }
    /// Answers every pass of an update sequence (spec §7), each as a fresh solve of the
    /// pass's system would; `budget` applies to each pass. Default: each pass from scratch
    /// (SequenceSolving.swift); an incremental backend follows the steps instead.
    func solve(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult
}

extension LayoutBackend {
    public var capabilities: BackendCapabilities { .reference }
}

/// Tracks a ``Budget`` during a solve. Checking the clock is cheap but not free, so the
/// time is read once every `clockStride` iterations.
public struct BudgetMeter: Sendable {
    public let budget: Budget
    public private(set) var iterations = 0
    private let start: ContinuousClock.Instant
    private let clockStride = 64

    public init(_ budget: Budget) {
        self.budget = budget
        self.start = ContinuousClock.now
    }

    /// Counts `n` iterations; false once the budget is spent.
    public mutating func spend(_ n: Int = 1) -> Bool {
        let before = iterations
        iterations += n
        if let limit = budget.iterations, iterations > limit { return false }
        if let limit = budget.wallTime, before / clockStride != iterations / clockStride || n >= clockStride {
            if ContinuousClock.now - start > limit { return false }
        }
        return true
    }

    /// Time since the meter started.
    public var elapsed: Duration { ContinuousClock.now - start }
}

extension Duration {
    /// The duration in seconds, as reports and progress lines print it.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
