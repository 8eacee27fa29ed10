/// A ``LinearSystem`` of `Double` rows whose terms share one array: the float backend's
/// lowering.
///
/// A `LinearRow` owns its terms, so lowering a system of n constraints allocates n arrays and
/// frees them afterwards; at 1,000 views that was a fifth of a one-shot float solve. Here a
/// row is a run `terms[start ..< start + count]` of one pool, and lowering allocates a few
/// buffers whatever the size. Rows read the same as the `LinearSystem`'s (``row(_:)``
/// builds one for the rare caller that needs it, such as a conflict filter).
public struct PooledLinearSystem: Sendable, Equatable {
    /// One lowered constraint, its terms a run of ``PooledLinearSystem/terms``.
    public struct Row: Sendable, Equatable {
        // 32-bit places and level: a row is kept per constraint.
        private var storedStart: Int32
        private var storedCount: Int32
        private var storedLevel: Int32
        public var relation: Relation
        public var constant: Double
        /// The constraint's index in ``ConstraintSystem/constraints``.
        public var constraintIndex: Int

        public init(start: Int, count: Int, constant: Double, relation: Relation, level: Int, constraintIndex: Int) {
            storedStart = Int32(truncatingIfNeeded: start)
            storedCount = Int32(truncatingIfNeeded: count)
            storedLevel = Int32(truncatingIfNeeded: level)
            self.relation = relation
            self.constant = constant
            self.constraintIndex = constraintIndex
        }

        /// Where the row's terms are in ``PooledLinearSystem/terms``.
        @inlinable
        public var termRange: Range<Int> { start..<start + count }
        public var start: Int { Int(storedStart) }
        public var count: Int { Int(storedCount) }
        /// 0 for required; otherwise the 1-based index into ``PooledLinearSystem/levels``.
        public var level: Int { Int(storedLevel) }
        public var isRequired: Bool { storedLevel == 0 }
    }

    /// `4 × viewCount`.
    public var variableCount: Int
    /// One row per constraint, in file order.
    public var rows: [Row]
    /// Every row's terms, row after row (each run sorted by variable, zero-free).
    public var terms: [LinearTerm<Double>]
    /// The distinct optional priorities, highest first (level k is `levels[k - 1]`).
    public var levels: [Priority]

    public init(variableCount: Int, rows: [Row], terms: [LinearTerm<Double>], levels: [Priority]) {
        self.variableCount = variableCount
        self.rows = rows
        self.terms = terms
        self.levels = levels
    }

    /// The same rows pooled.
    public init(_ system: LinearSystem<Double>) {
        var rows: [Row] = []
        var terms: [LinearTerm<Double>] = []
        rows.reserveCapacity(system.rows.count)
        for row in system.rows {
            rows.append(Row(
                start: terms.count, count: row.terms.count, constant: row.constant, relation: row.relation,
                level: row.level, constraintIndex: row.constraintIndex))
            terms.append(contentsOf: row.terms)
        }
        self.init(variableCount: system.variableCount, rows: rows, terms: terms, levels: system.levels)
    }

    /// Row `index` as a ``LinearRow`` of its own.
    public func row(_ index: Int) -> LinearRow<Double> {
        let row = rows[index]
        return LinearRow(
            terms: Array(terms[row.termRange]), constant: row.constant, relation: row.relation, level: row.level,
            constraintIndex: row.constraintIndex)
    }

    /// Every row as a ``LinearSystem``.
    public var unpooled: LinearSystem<Double> {
        LinearSystem(variableCount: variableCount, rows: rows.indices.map(row(_:)), levels: levels)
    }

    /// Row `index`'s `Σ terms + constant` at a point.
    @inlinable
    public func value(ofRow index: Int, at point: [Double]) -> Double {
        let row = rows[index]
        var sum = row.constant
        for place in row.termRange { sum += terms[place].coefficient * point[terms[place].variable] }
        return sum
    }
}
