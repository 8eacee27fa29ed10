import LayoutModel

extension Constraint {
    /// This constraint as a new one a generated step adds: no id (ids are unique, and the
    /// builder names it by position), no source position (no file ever held it), and an
    /// explicit constraint line whatever made the original (an intrinsic size, VFL).
    var freshCopy: Constraint {
        var copy = self
        copy.id = nil
        copy.source = nil
        copy.origin = .explicit
        return copy
    }
}
