import BackendContract

/// The precision the judge forgives an outside solver (`docs/fuzzing.md`, "Verdicts"): none
/// for one that solves exactly (z3, QSopt_ex: every disagreement is wrong), the default
/// relative precision for one that computes in floating point (kiwisolver, HiGHS, …).
///
/// An adapter that declares a rounding (GTK's whole pixels) reports exact numbers, but they
/// are a floating-point solve rounded: it is judged as floating point, so that a system on
/// the edge of a conflict (76 ≤ w ≤ 76.000000001) is ill-conditioned for it, not wrong.
extension OutsideSolverBackend: DeclaresPrecision {
    public var relativePrecision: Double? {
        capabilities.reports.exactValues && capabilities.roundingUnit == nil ? nil : defaultRelativePrecision
    }
}
