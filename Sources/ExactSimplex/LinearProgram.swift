import ExactArithmetic
import LayoutModel

/// A nonzero entry of a sparse vector: an index (a row, a column or a basis slot) and
/// its value.
public struct SparseEntry: Sendable, Hashable {
    public var index: Int
    public var value: Rational

    public init(_ index: Int, _ value: Rational) {
        self.index = index
        self.value = value
    }
}

/// The values a column of a ``LinearProgram`` may take.
enum ColumnKind: Sendable, Hashable {
    /// An unknown of the layout: any value.
    case free
    /// A slack or an error variable: at least zero.
    case nonnegative
    /// An artificial column of a required equality: it only completes a basis and must
    /// end at zero, so it never enters and blocks every step that would move it.
    case fixedZero
}

/// What an LP row stands for.
struct ProgramRow: Sendable, Hashable {
    /// The row's index in ``LinearSystem/rows`` (which is also its constraint index).
    var systemRow: Int
    /// 0 for required, else the priority level.
    var level: Int
    var relation: Relation
}

/// A layout system as an LP in equality form `A x = b`, `x` free / `≥ 0` / `= 0` per
/// column, built from the model's exact lowering.
///
/// Every lowered row `a·u + c REL 0` becomes one equality row with one or two auxiliary
/// columns, so that every row owns a unit column (which makes basis repair trivial):
///
/// | row | equation | auxiliary columns |
/// |---|---|---|
/// | required `==` | `a·u + t = −c` | artificial `t = 0` |
/// | required `<=` | `a·u + s = −c` | slack `s ≥ 0` |
/// | required `>=` | `a·u − s = −c` | slack `s ≥ 0` |
/// | optional, any | `a·u − p + n = −c` | `p, n ≥ 0` |
///
/// For an optional row the error is `p + n` (`==`), `p` (`<=`) or `n` (`>=`): minimising
/// it subject to `p − n = a·u + c` gives exactly |d|, max(0, d) and max(0, −d) (spec §5).
/// Columns `0..<unknownCount` are the layout's unknowns, in ``Unknown/variable`` order.
struct LinearProgram: Sendable {
    var unknownCount: Int
    var rows: [ProgramRow]
    /// Sparse columns, entries sorted by row.
    var columns: [[SparseEntry]]
    var kinds: [ColumnKind]
    /// Right-hand side `b = −c` per row.
    var rhs: [Rational]
    /// For each column beyond the unknowns, the row it belongs to.
    var ownerRow: [Int]
    /// Per row: its slack or artificial column (required) or its `p` column (optional).
    var firstAuxiliary: [Int]
    /// Per row: the `n` column of an optional row, else -1.
    var secondAuxiliary: [Int]
    /// Number of nonzeros of each unknown column (a crash heuristic).
    var unknownDegree: [Int]
    /// The nonzeros of each row by column, ascending (the transpose of `columns`): pricing
    /// reads the columns of the rows where the duals are nonzero, and only those.
    var rowEntries: [[SparseEntry]]

    var rowCount: Int { rows.count }
    var columnCount: Int { columns.count }

    /// The LP of the rows `selected` of `system` (indices into `system.rows`), in that order.
    init(system: LinearSystem<Rational>, selected: [Int]) {
        unknownCount = system.variableCount
        rows = []
        rows.reserveCapacity(selected.count)
        columns = Array(repeating: [], count: system.variableCount)
        kinds = Array(repeating: .free, count: system.variableCount)
        rhs = []
        rhs.reserveCapacity(selected.count)
        ownerRow = Array(repeating: -1, count: system.variableCount)
        firstAuxiliary = []
        secondAuxiliary = []
        unknownDegree = Array(repeating: 0, count: system.variableCount)
        rowEntries = []
        rowEntries.reserveCapacity(selected.count)
        let minusOne = -Rational.one
        for systemIndex in selected {
            let row = system.rows[systemIndex]
            let r = rows.count
            rows.append(ProgramRow(systemRow: systemIndex, level: row.level, relation: row.relation))
            rhs.append(-row.constant)
            var entries: [SparseEntry] = []
            entries.reserveCapacity(row.terms.count + 2)
            for term in row.terms {
                columns[term.variable].append(SparseEntry(r, term.coefficient))
                entries.append(SparseEntry(term.variable, term.coefficient))
                unknownDegree[term.variable] += 1
            }
            rowEntries.append(entries)
            if row.isRequired {
                switch row.relation {
                case .equal: firstAuxiliary.append(addColumn(.fixedZero, row: r, value: .one))
                case .lessThanOrEqual: firstAuxiliary.append(addColumn(.nonnegative, row: r, value: .one))
                case .greaterThanOrEqual: firstAuxiliary.append(addColumn(.nonnegative, row: r, value: minusOne))
                }
                secondAuxiliary.append(-1)
            } else {
                firstAuxiliary.append(addColumn(.nonnegative, row: r, value: minusOne))
                secondAuxiliary.append(addColumn(.nonnegative, row: r, value: .one))
            }
        }
    }

    private mutating func addColumn(_ kind: ColumnKind, row: Int, value: Rational) -> Int {
        rowEntries[row].append(SparseEntry(columns.count, value))
        columns.append([SparseEntry(row, value)])
        kinds.append(kind)
        ownerRow.append(row)
        return columns.count - 1
    }

    /// The cost of the level-`level` objective (its error sum) on every column it touches.
    func levelCosts(_ level: Int) -> [Int: Rational] {
        levelCosts(rows: rows.indices.filter { rows[$0].level == level })
    }

    /// The rows of each level (index 0: required), in order: one pass over the rows, so
    /// that the costs of every level cost O(rows) in all rather than per level.
    func rowsByLevel(levelCount: Int) -> [[Int]] {
        var byLevel = [[Int]](repeating: [], count: levelCount + 1)
        for (r, row) in rows.enumerated() where row.level >= 0 && row.level <= levelCount { byLevel[row.level].append(r) }
        return byLevel
    }

    /// The costs of the error columns of `rows` (those of one level).
    func levelCosts(rows selected: [Int]) -> [Int: Rational] {
        var costs: [Int: Rational] = [:]
        for r in selected {
            let row = rows[r]
            switch row.relation {
            case .equal:
                costs[firstAuxiliary[r]] = .one
                costs[secondAuxiliary[r]] = .one
            case .lessThanOrEqual: costs[firstAuxiliary[r]] = .one
            case .greaterThanOrEqual: costs[secondAuxiliary[r]] = .one
            }
        }
        return costs
    }

    /// `Σ y_r A_rj` for duals kept as their nonzeros, ascending by row (each of the
    /// column's few entries is found by binary search).
    func dot(sparse y: [SparseEntry], column j: Int) -> Rational {
        var sum = Rational.zero
        for entry in columns[j] {
            var low = 0, high = y.count
            while low < high {
                let mid = (low + high) / 2
                if y[mid].index < entry.index { low = mid + 1 } else { high = mid }
            }
            if low < y.count && y[low].index == entry.index { sum.addProduct(y[low].value, entry.value) }
        }
        return sum
    }

    /// `Σ y_r A_rj`.
    func dot(_ y: [Rational], column j: Int) -> Rational {
        var sum = Rational.zero
        for entry in columns[j] where !y[entry.index].isZero {
            sum.addProduct(y[entry.index], entry.value)
        }
        return sum
    }
}
