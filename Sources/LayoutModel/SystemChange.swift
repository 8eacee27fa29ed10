/// What applying one step did to the system, in terms of positions: what an incremental
/// solver needs to replay the step through its own handles (a constant changed in place is
/// an edit, a removal is `removeConstraint`, an append is `addConstraint`).
///
/// A step reports its changes in the order they happened; each change's indices refer to
/// the system as it stood just before that change (after the step's earlier changes).
/// Removals shift everything after them down: constraint indices by the number of removed
/// constraints before them, item indices (and so the variables `4·(item−1)+component` of
/// ``Unknown``) likewise.
public enum SystemChange: Sendable, Hashable {
    /// `constraints[index].constant` changed in place (`set … constant`, or an intrinsic
    /// size that changed on an axis that keeps its metric). Reported whenever a step sets
    /// the constant, even to its old value.
    case constantChanged(index: Int, from: NumericLiteral, to: NumericLiteral)
    /// `constraints[index].priority` changed in place; both are optional (below 1000). The
    /// system's optional levels may have changed with it.
    case priorityChanged(index: Int, from: Priority, to: Priority)
    /// The root's width and height changed (its origin did not). The constants of the rows of
    /// the constraints that name the root change with them (``ConstraintSystem/constraintIndices(naming:)``).
    case rootResized(from: AxisPair<NumericLiteral>, to: AxisPair<NumericLiteral>)
    /// These constraints were removed (ascending indices).
    case constraintsRemoved([Int])
    /// Constraints were appended at these indices (the new end of the list).
    case constraintsAppended(Range<Int>)
    /// A view was appended at this index.
    case itemAdded(ItemIndex)
    /// These views were removed (ascending indices; never the root). Every constraint naming
    /// them was removed by a ``constraintsRemoved(_:)`` just before.
    case itemsRemoved([ItemIndex])
}

extension ConstraintSystem {
    /// The indices of the constraints that name `item` on either side, ascending.
    public func constraintIndices(naming item: ItemIndex) -> [Int] {
        constraints.indices.filter { constraints[$0].first.item == item || constraints[$0].second?.item == item }
    }
}
