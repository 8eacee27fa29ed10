/// Whether a point of a system can be stated in `Double` at all.
///
/// A valid system may have its only solution beyond `Double`'s range (`a.width == 1e300`,
/// `b.width == 1e300 * a.width`). A backend that computes in `Double` then meets `inf` or
/// loses the value, and must not call what it has optimal; the exact backend finds the value
/// but cannot print it. Every backend checks its answer here, so that they all agree in
/// kind: the first constraint, in file order, that cannot be evaluated at the point.
extension ConstraintSystem {
    /// The first constraint (index, in file order) whose value at `values` is not a finite
    /// `Double`: an unknown it uses is not finite, or a term `coefficient · value`, its
    /// constant or their sum overflows. nil when every constraint evaluates.
    /// `detail` says what overflows, naming the constraint.
    public func firstUnrepresentableConstraint(at values: [Double]) -> (index: Int, detail: String)? {
        guard values.count == variableCount else { return nil }
        // Optional once: wrapping it per call copied its arrays (a retain and a release each), per row.
        let ancestry: ItemAncestry? = ItemAncestry(self)
        var terms = LoweredTerms<Double>()
        for (index, constraint) in constraints.enumerated() {
            let constant = lowerTerms(constraint, index: index, ancestry: ancestry, into: &terms)
            var sum = constant
            for term in terms {
                let value = values[term.variable]
                let product = term.coefficient * value
                guard value.isFinite, product.isFinite else {
                    let unknown = unknownName(Unknown(variable: term.variable))
                    return (index, "the solution is beyond Double's range at \(constraintName(index)): " + (value.isFinite
                        ? "\(term.coefficient) · \(unknown) overflows (\(unknown) = \(value))"
                        : "\(unknown) is not a finite Double"))
                }
                sum += product
            }
            if !sum.isFinite {
                return (index, "the solution is beyond Double's range at \(constraintName(index)): its value overflows")
            }
        }
        return nil
    }

}
