import BackendContract
/// The epsilon policy: every decision compares a number with the numbers it was computed
/// from (docs/float-backend.md, "Epsilon policy"), never with a scale taken from elsewhere in
/// the system, so scaling any row or any variable changes no decision.
///
/// - A computed tableau entry is cancellation residue when it is within ``decision`` of its
///   largest summand (``isCancelled(_:of:)``); what survives is usable as a pivot.
/// - A basic value is judged against its own row (`Tableau.isInfeasible`).
/// - A reduced-cost entry is cancellation residue when it is within ``decision`` of the
///   two numbers it was summed from (`LexVector.add`), and is dropped there; what is left
///   counts, however small. One global scale let a multiplier of 1e9 at a weak level make a
///   reduced cost of 1 at a stronger level read as zero (the solver gave up 10 at priority
///   251 to save 1e10 at 250); a scale per level (the largest term ever summed into it) let
///   the 5.15e-10 by which a strong error grows per unit of a weaker one, through a
///   multiplier of −970980000, read as zero (the solver gave up 8 at 750 to save 1.55e10 at
///   749.9999).
///
/// `valueScale` and `coefficientScale` (the largest constant and coefficient seen, at least
/// 1) remain only as the size of the ambiguity probe's pull and for the planted pivot fault:
/// as thresholds they read the 1e-6 of `x <= 1e6 * y` as zero and let one huge constant hide
/// violations of hundreds of points elsewhere.
struct Tolerance: Sendable, Hashable {
    var valueScale: Double = 1
    var coefficientScale: Double = 1

    /// Relative precision for decisions (is a value negative, is a computed entry or reduced
    /// cost cancellation residue): about 2⁻³⁰, leaving some twenty bits for accumulated rounding.
    static let decision = 1e-9

    /// How far a cached basic value may drift from its row's evaluation, relative to the
    /// row's magnitude, before the debug invariants call it wrong: a value is recomputed from
    /// its row, but from upstream values that may themselves carry the rounding of theirs,
    /// so this is looser than ``decision``.
    static let invariantDrift = 1e-6

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

    /// How closely a pivot entry read from its row (BTRAN) and from its column (FTRAN) must
    /// agree, relative to the larger: the two walks sum the same products in other orders
    /// and drop different residues (each up to ``decision`` of its summands), so an entry
    /// they disagree on beyond this is at the level of that residue, not a coefficient.
    static let agreement = 1e-6

    /// Whether `a` and `b`, one number computed two ways, agree within ``agreement``.
    @inline(__always)
    static func agree(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= agreement * Swift.max(abs(a), abs(b))
    }

    mutating func include(value: Double) {
        valueScale = max(valueScale, abs(value))
    }

    mutating func include(coefficient: Double) {
        coefficientScale = max(coefficientScale, abs(coefficient))
    }
}
