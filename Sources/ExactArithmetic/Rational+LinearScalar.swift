import Arithmetic

/// Lowering in `Rational` keeps every coefficient of a `.layout` file exact.
extension Rational: LinearScalar {
    /// The literal's exact value: ±significand × 10^exponent.
    public init(literal: borrowing NumericLiteral) {
        self.init(decimalSignificand: literal.significand, exponent: literal.exponent, negative: literal.isNegative)
    }

    public init(integer: Int) { self.init(integer) }
}
