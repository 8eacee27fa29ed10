import ExactArithmetic

/// The arithmetic of ``SparseLU`` and ExactLP's revised simplex: exact rationals, or
/// `Double` for the warm start, whose every test carries a tolerance. Only the rational
/// run decides an answer.
public protocol SimplexScalar: Sendable {
    static var zero: Self { get }
    static var one: Self { get }
    /// The scalar nearest to an exact value.
    init(exactValue: Rational)
    init(_ integer: Int)
    /// Zero, or (for `Double`) too small to pivot on or to price.
    var isNegligible: Bool { get }
    /// −1, 0 or +1, with negligible values 0.
    var signum: Int { get }
    var magnitude: Self { get }
    var reciprocal: Self { get }
    /// `self += a × b`.
    mutating func addProduct(_ a: Self, _ b: Self)
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func / (lhs: Self, rhs: Self) -> Self
    static prefix func - (operand: Self) -> Self
    static func += (lhs: inout Self, rhs: Self)
    static func *= (lhs: inout Self, rhs: Self)
    static func < (lhs: Self, rhs: Self) -> Bool
    static func == (lhs: Self, rhs: Self) -> Bool
    /// True when `self` is beyond `bound` by more than the tolerance (above it when `above`).
    func violates(_ bound: Self, above: Bool) -> Bool
    /// A ratio-test step: negative values (only ever rounding noise) become zero.
    var asStepLength: Self { get }
    /// Small enough for ``SparseLU`` to drop as rounding noise (only exact zero in `Rational`).
    var isDroppable: Bool { get }
    /// The least pivot ``SparseLU`` accepts, as a fraction of the largest entry of its
    /// column (nil: any nonzero pivot, as in exact arithmetic).
    static var pivotThreshold: Self? { get }
    /// Basis updates ``SparseLU`` carries before refactorizing.
    static var updatesBeforeRefactorization: Int { get }
    /// The nearest `Double` (pricing weights are compared in `Double`).
    var approximation: Double { get }
}

extension Rational: SimplexScalar {
    @inlinable public init(exactValue: Rational) { self = exactValue }
    @inlinable public var isNegligible: Bool { isZero }
    @inlinable public var signum: Int { sign }
    @inlinable public func violates(_ bound: Rational, above: Bool) -> Bool { above ? bound < self : self < bound }
    @inlinable public var asStepLength: Rational { self }
    @inlinable public var isDroppable: Bool { isZero }
    @inlinable public static var pivotThreshold: Rational? { nil }
    @inlinable public static var updatesBeforeRefactorization: Int { 100 }
    @inlinable public var approximation: Double { doubleValue }
}

extension Double: SimplexScalar {
    /// Entries, reduced costs and infeasibilities below this are treated as zero.
    @usableFromInline static let simplexTolerance = 1e-9

    @inlinable public init(exactValue: Rational) { self = exactValue.doubleValue }
    @inlinable public var isNegligible: Bool { Swift.abs(self) <= Double.simplexTolerance }
    @inlinable public var signum: Int { isNegligible ? 0 : (self < 0 ? -1 : 1) }
    @inlinable public var reciprocal: Double { 1 / self }
    @inlinable public mutating func addProduct(_ a: Double, _ b: Double) { self += a * b }
    @inlinable public func violates(_ bound: Double, above: Bool) -> Bool {
        let slack = Double.simplexTolerance * Swift.max(1, Swift.abs(bound))
        return above ? self > bound + slack : self < bound - slack
    }
    @inlinable public var asStepLength: Double { Swift.max(self, 0) }
    @inlinable public var isDroppable: Bool { Swift.abs(self) <= 1e-14 }
    @inlinable public static var pivotThreshold: Double? { 0.01 }
    /// Fewer than in exact arithmetic: a refactorization also clears the rounding drift.
    @inlinable public static var updatesBeforeRefactorization: Int { 50 }
    @inlinable public var approximation: Double { self }
}
