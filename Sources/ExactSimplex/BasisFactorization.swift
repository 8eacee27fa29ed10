import ExactArithmetic

/// The largest numerator and denominator (in bits) of the rationals a solve produced.
public struct BitWidths: Sendable, Hashable, Codable {
    public var numerator: Int
    public var denominator: Int

    public init(numerator: Int = 0, denominator: Int = 0) {
        self.numerator = numerator
        self.denominator = denominator
    }

    mutating func record(_ value: Rational) {
        numerator = max(numerator, value.numeratorBitWidth)
        denominator = max(denominator, value.denominatorBitWidth)
    }

    mutating func record(_ other: BitWidths) {
        numerator = max(numerator, other.numerator)
        denominator = max(denominator, other.denominator)
    }
}

/// An exact sparse LU factorization of a basis matrix `B` (columns indexed by basis slot,
/// rows by LP row), followed by product-form (eta) updates for the columns replaced since:
/// ``SparseLU`` in `Rational`, with the bit widths of every number it stores recorded.
///
/// Gaussian elimination picks column singletons, then row singletons, and only then a
/// Markowitz pivot (fewest entries in the column, then in the row). Layout bases are
/// nearly triangular — a chain's `xᵢ = xᵢ₋₁ + wᵢ₋₁ + 8` — so nearly every pivot is a
/// singleton and the factors are no denser than `B` itself, where an explicit tableau
/// `B⁻¹N` would be quadratic. Exactness means any nonzero pivot is as good as another;
/// there is no stability trade-off to make.
public struct BasisFactorization: Sendable {
    private var lu: SparseLU<Rational>
    private(set) var bitWidths = BitWidths()

    private init(_ lu: SparseLU<Rational>) {
        self.lu = lu
        for pivot in lu.pivotValues { bitWidths.record(pivot) }
        for step in lu.lower { for entry in step { bitWidths.record(entry.value) } }
        for step in lu.upper { for entry in step { bitWidths.record(entry.value) } }
    }

    /// The factorization of the empty basis.
    static let empty = BasisFactorization(.empty)

    /// Nonzeros of L and U (the cost of a solve without updates).
    var baseNonzeros: Int { lu.baseNonzeros }
    var etaNonzeros: Int { lu.etaNonzeros }

    /// How a factorization attempt ended.
    public enum Outcome {
        case factorized(BasisFactorization)
        /// The columns are singular: pairing each slot here with a row here and giving the
        /// slot a unit column of its row makes them regular (the pivots found so far, on
        /// other rows and slots, stay valid).
        case singular(slots: [Int], rows: [Int])
    }

    /// Factorizes the basis whose slot `s` holds `columns[s]` (entries indexed by row).
    public static func factorize(columns: [[SparseEntry]]) -> Outcome {
        switch SparseLU<Rational>.factorize(columns: columns.map { $0.map { (index: $0.index, value: $0.value) } }) {
        case .factorized(let lu): .factorized(BasisFactorization(lu))
        case .singular(let slots, let rows): .singular(slots: slots, rows: rows)
        }
    }

    /// Solves `B z = a` for a sparse `a` indexed by row; `z` is dense, indexed by slot.
    public func solve(_ a: [SparseEntry]) -> [Rational] {
        lu.solve(a.map { (index: $0.index, value: $0.value) })
    }

    /// Solves `yᵀ B = cᵀ` for a dense `c` indexed by slot; `y` is indexed by row.
    public func solveTransposed(_ c: [Rational]) -> [Rational] {
        lu.solveTransposed(c)
    }

    /// Records that slot `slot` now holds a column whose solve `B z = column` gave `alpha`.
    mutating func replace(slot: Int, alpha: [Rational]) {
        for value in alpha where !value.isZero { bitWidths.record(value) }
        lu.replace(slot: slot, alpha: alpha)
    }

    /// Records that slot `slot` now holds the negation of its column.
    mutating func negate(slot: Int) {
        lu.negate(slot: slot)
    }

    /// Whether refactorizing would now be cheaper than carrying the updates along.
    var prefersRefactorization: Bool { lu.prefersRefactorization }
}
