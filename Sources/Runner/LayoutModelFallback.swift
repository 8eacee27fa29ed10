import LayoutModel

/// A stand-in system for a case whose family is no longer known (never expected: the
/// campaign spec names its families).
enum LayoutModelFallback {
    static let empty = ConstraintSystem(rootName: "root", frame: [.zero, .zero, .zero, .zero])
}
