import BackendContract
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
/// feasibility test. Coefficients of rows scale with `coefficientScale`. Reduced costs are
/// sums of coefficient products with unit weights, level by level: each level's entries are
/// judged against the largest term ever summed into an entry of *that* level
/// (``CostScales``), never against another level's. With one global scale, a multiplier of
/// 1e9 at a weak level made a reduced cost of 1 at a stronger level read as zero, and the
/// solver gave up 10 at priority 251 to save 1e10 at 250.
struct Tolerance: Sendable, Hashable {
    var valueScale: Double = 1
    var coefficientScale: Double = 1
    /// Per level, the largest term summed into a reduced-cost entry of that level.
    var costScales = CostScales()

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
    var pivot: Double {
        #if LAYOUTBENCH_FAULTS
        if PlantedFault.isActive(.floatPivotTolerance) { return 1e-3 * coefficientScale }
        #endif
        return Self.decision * coefficientScale
    }
    /// Coefficients at or below this are removed from rows.
    var drop: Double { Self.residue * coefficientScale }

    mutating func include(value: Double) {
        valueScale = max(valueScale, abs(value))
    }

    mutating func include(coefficient: Double) {
        coefficientScale = max(coefficientScale, abs(coefficient))
    }
}

/// The scale of each level's reduced-cost entries: the largest magnitude of a term ever summed
/// into one (a unit error weight times a tableau coefficient), at least 1. A level's entry
/// counts as zero at or below ``Tolerance/decision`` times its level's scale, and is dropped
/// as cancellation residue at or below ``Tolerance/residue`` times it.
struct CostScales: Sendable, Hashable {
    /// Indexed by level; levels beyond the end have scale 1.
    private(set) var scales: [Double] = []

    @inline(__always)
    func scale(_ level: Int32) -> Double {
        let index = Int(level)
        return index >= 0 && index < scales.count ? scales[index] : 1
    }

    /// A reduced-cost entry of `level` at or below this counts as zero.
    @inline(__always)
    func tolerance(_ level: Int32) -> Double { Tolerance.decision * scale(level) }

    /// A reduced-cost entry of `level` at or below this is cancellation residue.
    @inline(__always)
    func drop(_ level: Int32) -> Double { Tolerance.residue * scale(level) }

    /// Notes a term of `magnitude` summed into an entry of `level`.
    @inline(__always)
    mutating func include(level: Int32, magnitude: Double) {
        guard magnitude > 1, magnitude.isFinite else { return }
        let index = Int(level)
        guard index >= 0 else { return }
        if index >= scales.count {
            scales.reserveCapacity(index + 1)
            while scales.count <= index { scales.append(1) }
        }
        if magnitude > scales[index] { scales[index] = magnitude }
    }
}
