import ExactArithmetic
import LayoutModel

/// A row's constant as an affine function of the root's width W and height H (spec §7's
/// `set root W H` moves nothing else of a row naming the root): `base + width·W + height·H`,
/// each number exactly the exact lowering's.
///
/// ``constant(width:height:)`` answers only when every operation is exact, so that its answer
/// is the exact constant itself — what lowering anew, rounding once, gives — bit for bit.
struct RootAffineConstant: Sendable, Hashable {
    var base: Double
    var width: Double
    var height: Double

    /// Nil unless each of the three is exactly a `Double`.
    init?(base: Rational, width: Rational, height: Rational) {
        guard let b = Self.exactDouble(base), let w = Self.exactDouble(width), let h = Self.exactDouble(height) else { return nil }
        (self.base, self.width, self.height) = (b, w, h)
    }

    /// The constant at W × H (given as `Double`s equal to the root's literals), or nil when
    /// computing it in `Double` could round: then only the exact lowering gives it.
    func constant(width w: Double, height h: Double) -> Double? {
        guard let x = Self.exactProduct(width, w), let y = Self.exactProduct(height, h),
              let partial = Self.exactSum(base, x), let sum = Self.exactSum(partial, y) else { return nil }
        // An exact zero is +0, as rounding the exact value gives.
        return sum == 0 ? 0 : sum
    }

    static func exactDouble(_ value: Rational) -> Double? {
        let double = value.doubleValue
        guard double.isFinite, Rational(exactly: double) == value else { return nil }
        return double
    }

    static func exactDouble(_ literal: NumericLiteral) -> Double? {
        // An integer below 10¹⁵ (< 2⁵³) is its `Double` exactly — the usual root size —, told
        // from its digits without building two rationals (a sixth of a rotation pass).
        if literal.exponent >= 0 && literal.significand.utf8.count + literal.exponent <= 15 { return literal.doubleValue }
        return exactDouble(Rational(literal: literal))
    }

    /// `a·b` if it is exact (the fused residual is exact for results far from the subnormals).
    private static func exactProduct(_ a: Double, _ b: Double) -> Double? {
        let product = a * b
        if product == 0 { return a == 0 || b == 0 ? product : nil }
        guard product.isFinite, product.magnitude >= 0x1p-900, (-product).addingProduct(a, b) == 0 else { return nil }
        return product
    }

    /// `a + b` if it is exact (Knuth's two-sum: its error term, exact without overflow).
    private static func exactSum(_ a: Double, _ b: Double) -> Double? {
        let sum = a + b
        guard sum.isFinite else { return nil }
        let bVirtual = sum - a
        let error = (a - (sum - bVirtual)) + (b - bVirtual)
        return error == 0 ? sum : nil
    }
}
