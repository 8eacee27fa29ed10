import LayoutModel

/// An unknown of a ``CassowarySolver``, named by the caller.
///
/// Any `Int` may name a variable; the solver allocates storage the first time one appears
/// in a constraint, so the one-shot backend uses ``Unknown/variable`` directly.
public struct Variable: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var index: Int

    @inlinable
    public init(_ index: Int) { self.index = index }

    @inlinable
    public static func < (a: Variable, b: Variable) -> Bool { a.index < b.index }

    public var description: String { "v\(index)" }
}

/// A constraint's priority as a level: 0 is required; optional level k outranks level k + 1
/// absolutely (no amount of error at level k + 1 is worth any error at level k).
///
/// Only the order of levels matters: relabelling them monotonically never changes an answer,
/// because levels are compared, never added or multiplied.
public struct Strength: Sendable, Hashable, CustomStringConvertible {
    /// 0 for required, k ≥ 1 for optional level k (higher k is weaker).
    public var level: Int

    @inlinable
    public init(level: Int) { self.level = level }

    /// Must hold; a required constraint that cannot is rejected.
    public static let required = Strength(level: 0)

    @inlinable
    public var isRequired: Bool { level == 0 }

    /// True when `self` outranks `other`.
    @inlinable
    public func isStronger(than other: Strength) -> Bool { level < other.level }

    public var description: String { level == 0 ? "required" : "level \(level)" }
}

/// `Σ coefficient·variable + constant  REL  0` at a strength: the same reading as
/// ``LayoutModel/LinearRow``, so that for an optional constraint the left side is its error
/// measure `d`.
public struct LinearConstraint: Sendable, Hashable {
    /// `coefficient × variable`.
    public struct Term: Sendable, Hashable {
        public var variable: Variable
        public var coefficient: Double

        @inlinable
        public init(_ variable: Variable, _ coefficient: Double) {
            self.variable = variable
            self.coefficient = coefficient
        }
    }

    public var terms: [Term]
    public var constant: Double
    public var relation: Relation
    public var strength: Strength

    public init(_ terms: [Term], constant: Double = 0, relation: Relation, strength: Strength = .required) {
        self.terms = terms
        self.constant = constant
        self.relation = relation
        self.strength = strength
    }

    /// The lowered row as a constraint; its `level` becomes the strength.
    public init(_ row: LinearRow<Double>) {
        self.init(
            row.terms.map { Term(Variable($0.variable), $0.coefficient) }, constant: row.constant,
            relation: row.relation, strength: Strength(level: row.level))
    }

    /// `Σ terms + constant` at a point.
    public func residual(at value: (Variable) -> Double) -> Double {
        var sum = constant
        for term in terms { sum += term.coefficient * value(term.variable) }
        return sum
    }

    /// The constraint's error at a point (spec §5): |d| for `==`, max(0, d) for `<=`,
    /// max(0, −d) for `>=`.
    public func error(at value: (Variable) -> Double) -> Double {
        Self.error(residual(at: value), relation)
    }

    /// The error of a constraint whose left side is `d` (spec §5).
    @inlinable
    public static func error(_ d: Double, _ relation: Relation) -> Double {
        switch relation {
        case .equal: return abs(d)
        case .lessThanOrEqual: return max(0, d)
        case .greaterThanOrEqual: return max(0, -d)
        }
    }
}

/// A term as a caller hands it to ``CassowarySolver``: a variable's index and its
/// coefficient. Both ``LinearConstraint/Term`` and a lowered row's `LinearTerm<Double>` are
/// read as they are, with no conversion.
public protocol SolverTerm {
    var solverVariable: Int { get }
    var solverCoefficient: Double { get }
}

extension LinearConstraint.Term: SolverTerm {
    @inlinable public var solverVariable: Int { variable.index }
    @inlinable public var solverCoefficient: Double { coefficient }
}

extension LinearTerm: SolverTerm where Scalar == Double {
    @inlinable public var solverVariable: Int { variable }
    @inlinable public var solverCoefficient: Double { coefficient }
}

/// Names a constraint added to a ``CassowarySolver``; valid until it is removed.
public struct ConstraintHandle: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let id: Int

    @inlinable
    init(id: Int) { self.id = id }

    @inlinable
    public static func < (a: ConstraintHandle, b: ConstraintHandle) -> Bool { a.id < b.id }

    public var description: String { "#\(id)" }
}

/// Why a ``CassowarySolver`` operation did not happen. The solver is unchanged after any of them.
public enum CassowaryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A required constraint cannot hold together with the required constraints already
    /// added. `conflict` lists the added constraints that, with the rejected one, cannot all
    /// hold (read from the tableau row that proved it, as in Cassowary's explanation variant).
    case unsatisfiable(conflict: [ConstraintHandle])
    /// A coefficient, constant or suggested value is not finite, or a level is negative.
    case invalidInput(String)
    case unknownConstraint(ConstraintHandle)
    case duplicateEditVariable(Variable)
    case unknownEditVariable(Variable)
    /// Edit variables are optional by nature; a required edit could reject suggestions.
    case requiredEditStrength
    /// The solver's budget (pivots or time) ran out during an addition, which was undone.
    case budgetExceeded
    /// The simplex did not converge (cycling or numerical breakdown); the addition was undone.
    case internalFailure(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let conflict): return "unsatisfiable required constraint; conflicts with \(conflict)"
        case .invalidInput(let why): return "invalid input: \(why)"
        case .unknownConstraint(let h): return "unknown constraint \(h)"
        case .duplicateEditVariable(let v): return "\(v) is already an edit variable"
        case .unknownEditVariable(let v): return "\(v) is not an edit variable"
        case .requiredEditStrength: return "an edit variable cannot be required"
        case .budgetExceeded: return "budget exceeded"
        case .internalFailure(let why): return "internal failure: \(why)"
        }
    }
}
