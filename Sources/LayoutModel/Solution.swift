/// How a solve ended (spec §5–§6).
public enum SolveStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every required constraint was kept; the point is lexicographically optimal.
    case optimal
    /// Some required constraints were broken (see ``Solution/broken``); the point is optimal
    /// for the kept set.
    case unsatisfiable
    /// The budget (iterations or time) ran out; nothing else in the solution is meaningful.
    case budgetExceeded
}

/// One optimal point of a system and what a backend claims about it.
///
/// Values are indexed by variable (``Unknown/variable``), in root space. Backends that
/// work exactly also give ``exactValues`` as rational strings (`"327/2"`).
public struct Solution: Sendable, Hashable, Codable {
    public var status: SolveStatus
    /// Root-space values of all `4 × viewCount` unknowns.
    public var values: [Double]
    /// E(p) for every optional level, highest first (``LinearSystem/levels``).
    public var objective: [Double]
    /// Unknowns that are not determined (ascending by variable).
    public var ambiguous: [Unknown]
    /// Indices of broken required constraints, in file order.
    public var broken: [Int]
    /// Indices of an irreducible infeasible subset of the required constraints that contains
    /// the first broken one (empty when nothing is broken), in file order.
    public var conflict: [Int]
    /// The values as exact rationals, when the backend computes exactly.
    public var exactValues: [String]?
    /// The objective as exact rationals, when the backend computes exactly.
    public var exactObjective: [String]?

    public init(
        status: SolveStatus, values: [Double], objective: [Double] = [], ambiguous: [Unknown] = [],
        broken: [Int] = [], conflict: [Int] = [], exactValues: [String]? = nil, exactObjective: [String]? = nil
    ) {
        self.status = status
        self.values = values
        self.objective = objective
        self.ambiguous = ambiguous
        self.broken = broken
        self.conflict = conflict
        self.exactValues = exactValues
        self.exactObjective = exactObjective
    }

    /// A solution that carries nothing but the news that the budget ran out.
    public static func budgetExceeded(variableCount: Int) -> Solution {
        Solution(status: .budgetExceeded, values: Array(repeating: 0, count: variableCount))
    }
}

/// The spec's JSON result form (§6), as written by `layoutbench solve --format json`.
public struct ResultDocument: Sendable, Hashable, Codable {
    public var status: SolveStatus
    /// `[x, y, width, height]` per view, relative to its parent unless global.
    public var frames: [String: [Double?]]
    public var objective: [Double]
    public var ambiguous: [String]
    public var broken: [String]
    public var conflict: [String]
    public var exact: ExactFrames?
    /// For an update sequence of several passes: every pass's result, in order (spec §7);
    /// the document itself is the last pass's.
    public var passes: [ResultDocument]?

    /// Exact frames as rational strings.
    public struct ExactFrames: Sendable, Hashable, Codable {
        public var frames: [String: [String?]]
        public init(frames: [String: [String?]]) { self.frames = frames }
    }

    public init(
        status: SolveStatus, frames: [String: [Double?]], objective: [Double], ambiguous: [String],
        broken: [String], conflict: [String], exact: ExactFrames? = nil
    ) {
        self.status = status
        self.frames = frames
        self.objective = objective
        self.ambiguous = ambiguous
        self.broken = broken
        self.conflict = conflict
        self.exact = exact
    }

    /// The document for a solution of `system`. Frame components are numbers; the exact
    /// frames, when given, are computed by the caller (the model has no rational type).
    public init(system: ConstraintSystem, solution: Solution, global: Bool, exactFrames: [[String]]? = nil) {
        let frameValues: [[Double]] = system.frames(values: solution.values, global: global)
        var frames: [String: [Double?]] = [:]
        var exact: [String: [String?]] = [:]
        for index in 1..<max(system.items.count, 1) {
            // `+ 0` turns -0.0 into 0: a frame has no sign of zero (the text form prints 0 too),
            // and the same frame should not read `-0` or `0` by the order a backend added rows in.
            frames[system.items[index].name] = frameValues[index - 1].map { $0 + 0 }
            if let exactFrames { exact[system.items[index].name] = exactFrames[index - 1].map { $0 } }
        }
        self.init(
            status: solution.status, frames: frames, objective: solution.objective,
            ambiguous: solution.ambiguous.map(system.unknownName),
            broken: solution.broken.map(system.constraintName),
            conflict: solution.conflict.map(system.constraintName),
            exact: exactFrames.map { _ in ExactFrames(frames: exact) })
    }
}
