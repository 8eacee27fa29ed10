import BackendContract
/// The epsilon policy: every decision compares a number with the numbers it was computed
/// from (docs/float-backend.md, "Epsilon policy"), never with a scale taken from elsewhere in
/// the system, so scaling any row or any variable changes no decision.
///
/// - A computed tableau entry is cancellation residue when it is within ``decision`` of its
///   largest summand (``isCancelled(_:of:)``); what survives is usable as a pivot.
/// - A basic value is judged against its own row (`Tableau.isInfeasible`).
/// - Reduced costs are judged level by level against the largest term ever summed into an
///   entry of *that* level (``CostScales``). With one global scale, a multiplier of 1e9 at a
///   weak level made a reduced cost of 1 at a stronger level read as zero, and the solver
///   gave up 10 at priority 251 to save 1e10 at 250.
///
/// `valueScale` and `coefficientScale` (the largest constant and coefficient seen, at least
/// 1) remain only as the size of the ambiguity probe's pull and for the planted pivot fault:
/// as thresholds they read the 1e-6 of `x <= 1e6 * y` as zero and let one huge constant hide
/// violations of hundreds of points elsewhere.
struct Tolerance: Sendable, Hashable {
    var valueScale: Double = 1
    var coefficientScale: Double = 1
    /// Per level, the largest term summed into a reduced-cost entry of that level.
    var costScales = CostScales()

    /// Relative precision for decisions (is a value negative, is a pivot element usable, is a
    /// reduced cost zero): about 2⁻³⁰, leaving some twenty bits for accumulated rounding.
    static let decision = 1e-9
    /// Relative size below which a reduced-cost entry is cancellation residue and is dropped:
    /// a few thousand ulps of 1.
    static let residue = 1e-12

    /// The global feasibility scale of the old policy, now only a floor of the ambiguity
    /// probe's threshold (``CassowarySolver/movesOnOptimalSet(_:probeLevel:)``).
    var feasibility: Double { Self.decision * valueScale * coefficientScale }
    /// A pivot element (or a ratio-test entry) at or below this is treated as zero. Entries
    /// are judged where they are computed, against their own summands
    /// (``isCancelled(_:of:)``): what survives is a number, however small, and a global
    /// threshold would misread a legitimate `1e-6` (the inverse of a multiplier 1e6) as
    /// zero. So this is 0 (a planted fault raises it).
    var pivot: Double {
        #if LAYOUTBENCH_FAULTS
        if PlantedFault.isActive(.floatPivotTolerance) { return 1e-3 * coefficientScale }
        #endif
        return 0
    }

    /// Whether `sum`, computed by adding numbers of which the largest has magnitude
    /// `magnitude`, is cancellation residue: at or below ``decision`` times that magnitude.
    /// Scale-invariant in rows and columns: scaling a row or a variable scales a sum and its
    /// summands alike.
    @inline(__always)
    static func isCancelled(_ sum: Double, of magnitude: Double) -> Bool {
        abs(sum) <= decision * magnitude
    }

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
