/// How closely a backend's arithmetic follows the exact meaning of a system: what the judge
/// may forgive as rounding.
///
/// A disagreement with the exact reference is *ill-conditioned* when the backend's answer is
/// exactly right for a system whose numbers differ from the given one by at most the
/// backend's relative precision (each coefficient relative to itself, each constant relative
/// to the system's scale), and *wrong* otherwise (`docs/fuzzing.md`, "Verdicts").
public protocol DeclaresPrecision: LayoutBackend {
    /// The relative precision of the backend's arithmetic; nil for a backend that computes
    /// exactly, whose every disagreement is wrong.
    var relativePrecision: Double? { get }
}

/// The precision a backend that declares none is judged with: about 2⁻³⁰, the decision
/// precision of a careful `Double` solver, leaving twenty bits for accumulated rounding.
public let defaultRelativePrecision = 1e-9

/// The relative precision `backend` is judged with (nil: exact).
public func relativePrecision(of backend: any LayoutBackend) -> Double? {
    if let declaring = backend as? any DeclaresPrecision { return declaring.relativePrecision }
    return defaultRelativePrecision
}
