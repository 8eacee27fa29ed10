/// The epsilon policy: every threshold is a fixed relative precision times a scale that the
/// solver tracks from its input, so a layout in points and the same layout in thousandths of
/// a point are treated alike.
///
/// - `valueScale`: the largest magnitude among constants and suggested values (at least 1),
///   the size of the positions being solved for.
/// - `coefficientScale`: the largest coefficient magnitude (at least 1).
///
/// A basic variable's value is computed from a row of coefficients times values, so its
/// rounding error grows with `valueScale × coefficientScale`: that product scales the
/// feasibility test. Coefficients of rows scale with `coefficientScale`; reduced costs are sums
/// of coefficient products with unit weights, so they scale the same way.
struct Tolerance: Sendable, Hashable {
    var valueScale: Double = 1
    var coefficientScale: Double = 1

    /// Relative precision for decisions (is a value negative, is a pivot element usable, is a
    /// reduced cost zero): about 2⁻³⁰, leaving some twenty bits for accumulated rounding.
    static let decision = 1e-9
    /// Relative size below which a computed coefficient is cancellation residue and is dropped:
    /// a few thousand ulps of 1.
    static let residue = 1e-12

    /// A restricted variable counts as non-negative down to `-feasibility`; a required
    /// equality holds when its residual is within it.
    var feasibility: Double { Self.decision * valueScale * coefficientScale }
    /// A pivot element (or a ratio-test entry) smaller than this is treated as zero.
    var pivot: Double { Self.decision * coefficientScale }
    /// Coefficients at or below this are removed from rows.
    var drop: Double { Self.residue * coefficientScale }
    /// A reduced-cost entry at or below this counts as zero.
    var cost: Double { Self.decision * coefficientScale }

    mutating func include(value: Double) {
        valueScale = max(valueScale, abs(value))
    }

    mutating func include(coefficient: Double) {
        coefficientScale = max(coefficientScale, abs(coefficient))
    }
}
