import ExactArithmetic

/// A general linear program with exact rational data:
/// optimise `objective · x + objectiveConstant` subject to
/// `rowLower[i] ≤ Σ_j a_ij x_j ≤ rowUpper[i]` and `columnLower[j] ≤ x_j ≤ columnUpper[j]`,
/// where a nil bound is infinite.
///
/// The matrix is stored by column (as MPS lists it), each column's entries in the order read
/// with no row repeated and no explicit zero.
public struct ExactLinearProgram: Sendable, Equatable {
    /// Whether the objective is minimised or maximised.
    public enum Sense: String, Sendable, Equatable {
        case minimize, maximize
    }

    /// One nonzero of a column.
    public struct Entry: Sendable, Equatable {
        public var row: Int
        public var value: Rational
        public init(row: Int, value: Rational) {
            self.row = row
            self.value = value
        }
    }

    public var name: String
    public var sense: Sense
    /// The name of the objective row (the first N row), if the file had one.
    public var objectiveName: String?
    public var rowNames: [String]
    public var columnNames: [String]
    /// The nonzeros of each column.
    public var columns: [[Entry]]
    public var rowLower: [Rational?]
    public var rowUpper: [Rational?]
    public var columnLower: [Rational?]
    public var columnUpper: [Rational?]
    /// The objective coefficient of each column.
    public var objective: [Rational]
    /// A constant added to the objective (MPS: the negated RHS of the objective row).
    public var objectiveConstant: Rational
    /// Columns marked integer (MARKER INTORG/INTEND, BV, LI, UI). LayoutBench solves the LP
    /// relaxation; the marks are kept so a summary can say they were there.
    public var integerColumns: Set<Int>

    public init(
        name: String = "", sense: Sense = .minimize, objectiveName: String? = nil,
        rowNames: [String] = [], columnNames: [String] = [], columns: [[Entry]] = [],
        rowLower: [Rational?] = [], rowUpper: [Rational?] = [],
        columnLower: [Rational?] = [], columnUpper: [Rational?] = [],
        objective: [Rational] = [], objectiveConstant: Rational = .zero, integerColumns: Set<Int> = []
    ) {
        self.name = name
        self.sense = sense
        self.objectiveName = objectiveName
        self.rowNames = rowNames
        self.columnNames = columnNames
        self.columns = columns
        self.rowLower = rowLower
        self.rowUpper = rowUpper
        self.columnLower = columnLower
        self.columnUpper = columnUpper
        self.objective = objective
        self.objectiveConstant = objectiveConstant
        self.integerColumns = integerColumns
        _checkInvariants()
    }

    public var rowCount: Int { rowNames.count }
    public var columnCount: Int { columnNames.count }
    public var nonzeroCount: Int { columns.reduce(0) { $0 + $1.count } }

    /// The objective's value at `x` (constant included).
    public func objectiveValue(_ x: [Rational]) -> Rational {
        var value = objectiveConstant
        for j in 0..<columnCount { value.addProduct(objective[j], x[j]) }
        return value
    }

    /// `A x`, one value per row.
    public func rowActivities(_ x: [Rational]) -> [Rational] {
        var activity = [Rational](repeating: .zero, count: rowCount)
        for j in 0..<columnCount where !x[j].isZero {
            for entry in columns[j] { activity[entry.row].addProduct(entry.value, x[j]) }
        }
        return activity
    }

    /// The arrays agree in length, rows are in range, and no entry is zero.
    public func _checkInvariants() {
        #if DEBUG
        precondition(rowLower.count == rowCount && rowUpper.count == rowCount)
        precondition(columns.count == columnCount && objective.count == columnCount)
        precondition(columnLower.count == columnCount && columnUpper.count == columnCount)
        for column in columns {
            var seen = Set<Int>()
            for entry in column {
                precondition(entry.row >= 0 && entry.row < rowCount && !entry.value.isZero)
                precondition(seen.insert(entry.row).inserted)
            }
        }
        #endif
    }
}
