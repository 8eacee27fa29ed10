import BackendContract
import LayoutModel

extension CassowarySolver {
    // MARK: Edit variables

    /// Makes `variable` editable at `strength` (optional), starting at its current value.
    public mutating func addEditVariable(_ variable: Variable, strength: Strength) throws(CassowaryError) {
        guard !strength.isRequired else { throw .requiredEditStrength }
        guard editSlot(of: variable) == nil else { throw .duplicateEditVariable(variable) }
        let current = value(of: variable)
        let handle = try addConstraint(
            LinearConstraint([.init(variable, 1)], constant: -current, relation: .equal, strength: strength))
        guard let symbol = symbol(of: variable) else { return }
        tableau.symbols[symbol].editSlot = Int32(truncatingIfNeeded: edits.count)
        edits.append(Edit(variable: variable, handle: handle, target: current))
    }

    /// Ends the edit of `variable`, removing its edit constraint.
    public mutating func removeEditVariable(_ variable: Variable) throws(CassowaryError) {
        guard let slot = editSlot(of: variable) else { throw .unknownEditVariable(variable) }
        try removeConstraint(edits[slot].handle)
    }

    /// Whether `variable` is an edit variable.
    public func hasEditVariable(_ variable: Variable) -> Bool { editSlot(of: variable) != nil }

    /// The index of `variable`'s edit in `edits`.
    func editSlot(of variable: Variable) -> Int? {
        guard let symbol = symbol(of: variable) else { return nil }
        let slot = Int(tableau.symbols[symbol].editSlot)
        return slot >= 0 && slot < edits.count && edits[slot].variable == variable ? slot : nil
    }

    mutating func removeEdit(at slot: Int) {
        if let symbol = symbol(of: edits[slot].variable) { tableau.symbols[symbol].editSlot = -1 }
        let last = edits.removeLast()
        guard slot < edits.count else { return }
        edits[slot] = last
        if let symbol = symbol(of: last.variable) { tableau.symbols[symbol].editSlot = Int32(truncatingIfNeeded: slot) }
    }

    /// Suggests a value for an edit variable and re-optimises with the dual simplex.
    ///
    /// Changing the edit constraint's constant by δ is the same as shifting its error marker
    /// by δ, so only the rows that name the marker change (and the values downstream of them);
    /// the basis stays optimal and, where it became infeasible, dual pivots restore it.
    public mutating func suggestValue(_ variable: Variable, _ value: Double) throws(CassowaryError) {
        guard value.isFinite else { throw .invalidInput("suggested value \(value)") }
        guard let slot = editSlot(of: variable), hasConstraint(edits[slot].handle) else {
            throw .unknownEditVariable(variable)
        }
        // The edit constraint reads `variable − target = 0`: its constant is −target.
        try setConstants([(edits[slot].handle, -value)])
        edits[slot].target = value
    }
}
