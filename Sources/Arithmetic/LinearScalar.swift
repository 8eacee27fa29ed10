/// The number type that lowering computes coefficients in.
///
/// Lowering is written once, generically: the exact backend lowers into `Rational`
/// (ExactArithmetic), so it sees the file's exact numbers; float backends lower into
/// `Rational` too and round each finished coefficient to `Double` once
/// (``LinearSystem/mapScalars(_:)``), or lower straight into `Double` where a rounding per
/// operation is acceptable.
public protocol LinearScalar: Sendable, Equatable {
    /// The additive identity.
    static var zero: Self { get }
    /// The multiplicative identity.
    static var one: Self { get }
    /// The literal's value, exactly where the type can hold it. Borrowed: lowering reads a
    /// literal in place, and a copy would retain and release its digits per number.
    init(literal: borrowing NumericLiteral)
    /// A small integer.
    init(integer: Int)
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    /// Division; the divisor is never zero where lowering uses it.
    static func / (lhs: Self, rhs: Self) -> Self
    static prefix func - (operand: Self) -> Self
    /// True for zero (lowering drops zero coefficients).
    var isZero: Bool { get }
    /// The nearest `Double`.
    var doubleValue: Double { get }
}

extension Double: LinearScalar {
    @inlinable public init(literal: borrowing NumericLiteral) { self = literal.doubleValue }
    @inlinable public init(integer: Int) { self = Double(integer) }
    @inlinable public static var one: Double { 1 }
    @inlinable public var doubleValue: Double { self }
}
