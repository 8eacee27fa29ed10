import BackendContract

/// The precision the judge forgives an outside solver (`docs/fuzzing.md`, "Verdicts"): none
/// for one that declares exact values (z3, QSopt_ex: every disagreement is wrong), the
/// default relative precision for one that computes in floating point (kiwisolver, HiGHS, …).
extension OutsideSolverBackend: DeclaresPrecision {
    public var relativePrecision: Double? {
        capabilities.reports.exactValues ? nil : defaultRelativePrecision
    }
}
