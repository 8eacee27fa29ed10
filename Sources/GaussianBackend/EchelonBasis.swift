import BackendContract
import LayoutModel

/// A dense row-echelon basis of equations `Σ aⱼ·xⱼ + c = 0`, grown one equation at a time
/// (spec §5.1's greedy walk) and finally brought to reduced row echelon form.
///
/// Storage is one row-major `[Double]` of `rank × width` entries, `width = variableCount + 1`,
/// the last column holding the constant. Basis row `k` has its pivot in column `pivots[k]` and
/// exact zeros in the pivot columns of rows `0..<k`; an incoming equation is reduced against
/// the rows in insertion order, which leaves it zero in every pivot column.
///
/// Every row operation runs over the whole dense row, even where the multiplier is 0: this is
/// the naive baseline, and its cost (and its iteration count) depends only on the ranks met
/// along the walk, never on the sparsity of the system.
///
/// Zero tests follow one rule (see ``GaussianEliminationBackend``): an entry is zero when it is
/// at most `relativeTolerance` times the largest magnitude that went into it, its starting value
/// or any `factor × entry` subtracted from it; entries judged zero are set to exactly 0.
struct EchelonBasis {
    /// How an equation fared against the basis.
    enum Insertion: Equatable {
        /// Linearly independent of the basis: it joined the basis.
        case independent
        /// A combination of the basis, constant included: kept, adds nothing.
        case redundant
        /// A combination of the basis in its coefficients but not its constant: broken.
        /// `conflict` is the irreducible infeasible subset (constraint indices, ascending)
        /// for the first inconsistent equation, nil for later ones.
        case inconsistent(conflict: [Int]?)
        /// The budget ran out before the equation was fully reduced.
        case budgetExceeded
    }

    let variableCount: Int
    /// `variableCount + 1`: the coefficients, then the constant.
    let width: Int
    let relativeTolerance: Double

    /// `rank × width` entries, row-major.
    private var entries: [Double] = []
    /// The pivot column of each basis row.
    private(set) var pivots: [Int] = []
    /// The constraint each basis row was inserted as.
    private var constraintIndices: [Int] = []

    /// While no equation has been found inconsistent: basis row `k` equals
    /// `Σ_{j ≤ k} combinations[k(k+1)/2 + j] · (the equation basis row j was inserted as)`,
    /// a packed lower triangle with 1 on the diagonal — the identity block of the augmented
    /// matrix `[A c | I]`, restricted to the equations that entered the basis. Dropped once the
    /// first conflict is known, since only the first broken constraint gets a conflict.
    private var combinations: [Double] = []
    private var tracksCombinations = true

    // Scratch, reused so that an insertion allocates nothing beyond the basis row it may add.
    /// The equation being reduced.
    private var row: [Double]
    /// Per entry of `row`, the largest magnitude that went into it.
    private var rowMagnitudes: [Double]
    /// The equation's multipliers over the basis rows' equations (while tracking).
    private var combination: [Double] = []
    /// Per multiplier, the largest magnitude that went into it.
    private var combinationMagnitudes: [Double] = []

    init(variableCount: Int, relativeTolerance: Double) {
        self.variableCount = variableCount
        self.width = variableCount + 1
        self.relativeTolerance = relativeTolerance
        self.row = Array(repeating: 0, count: variableCount + 1)
        self.rowMagnitudes = Array(repeating: 0, count: variableCount + 1)
    }

    var rank: Int { pivots.count }

    /// Reduces `equation` against the basis, one budgeted row operation per basis row, and
    /// files it as independent (added to the basis), redundant or inconsistent.
    ///
    /// Every term's variable must lie in `0..<variableCount`.
    mutating func insert(_ equation: LinearRow<Double>, meter: inout BudgetMeter) -> Insertion {
        let n = variableCount
        let width = self.width
        let rank = self.rank
        for j in 0..<width { row[j] = 0 }
        for term in equation.terms { row[term.variable] += term.coefficient }
        row[n] = equation.constant
        for j in 0..<width { rowMagnitudes[j] = row[j].magnitude }
        if tracksCombinations {
            combination.removeAll(keepingCapacity: true)
            combination.append(contentsOf: repeatElement(0, count: rank))
            combinationMagnitudes.removeAll(keepingCapacity: true)
            combinationMagnitudes.append(contentsOf: repeatElement(0, count: rank))
        }

        for k in 0..<rank {
            guard meter.spend() else { return .budgetExceeded }
            let pivot = pivots[k]
            let factor = row[pivot] / entries[k * width + pivot]
            entries.withUnsafeBufferPointer { basis in
                Self.subtract(factor, times: basis, from: k * width, into: &row, magnitudes: &rowMagnitudes, count: width)
            }
            // Exactly zero, whatever the rounding of factor · pivot: later pivots rely on it.
            row[pivot] = 0
            if tracksCombinations {
                combinations.withUnsafeBufferPointer { triangle in
                    Self.subtract(
                        factor, times: triangle, from: k * (k + 1) / 2,
                        into: &combination, magnitudes: &combinationMagnitudes, count: k + 1)
                }
            }
        }
        Self.flush(&row, magnitudes: rowMagnitudes, tolerance: relativeTolerance)

        // Partial pivoting: the largest remaining coefficient; ties go to the lowest column.
        var pivot = -1
        var largest = 0.0
        for j in 0..<n where row[j].magnitude > largest {
            pivot = j
            largest = row[j].magnitude
        }
        if pivot >= 0 {
            entries.append(contentsOf: row)
            pivots.append(pivot)
            constraintIndices.append(equation.constraintIndex)
            if tracksCombinations {
                Self.flush(&combination, magnitudes: combinationMagnitudes, tolerance: relativeTolerance)
                combinations.append(contentsOf: combination)
                combinations.append(1)
            }
            return .independent
        }
        if row[n] == 0 { return .redundant }
        guard tracksCombinations else { return .inconsistent(conflict: nil) }
        Self.flush(&combination, magnitudes: combinationMagnitudes, tolerance: relativeTolerance)
        let conflict = conflictSet(brokenIndex: equation.constraintIndex)
        tracksCombinations = false
        combinations = []
        combination = []
        combinationMagnitudes = []
        return .inconsistent(conflict: conflict)
    }

    /// The irreducible infeasible subset for the equation just reduced to `0 = c ≠ 0`, whose
    /// multipliers over the basis rows' equations are in `combination`.
    ///
    /// The reduced equation is `b + Σ yⱼ·eⱼ` with `eⱼ` the equations the basis rows were
    /// inserted as; its coefficients vanish, so `aᵦ = −Σ yⱼ·aⱼ`. The conflict is
    /// C = {b} ∪ S, S = {eⱼ : yⱼ ≠ 0}. It is infeasible: a point satisfying S gives
    /// `aᵦ·x = −Σ yⱼ·aⱼ·x = Σ yⱼ·cⱼ`, which differs from `−cᵦ` because the reduced constant
    /// `cᵦ + Σ yⱼ·cⱼ` is not 0. It is irreducible because the `aⱼ` are linearly independent
    /// (each basis row has its own pivot):
    /// - without b, S has full row rank, so it has a solution;
    /// - without some eₖ ∈ S, `aᵦ` is outside the span of the other `aⱼ` in S (otherwise it would
    ///   have two representations over independent rows, one with yₖ ≠ 0 and one without), so
    ///   the remaining rows again have independent coefficient vectors and full row rank.
    ///
    /// Redundant equations never enter the basis, so they never appear in S. In floating point,
    /// a multiplier is zero by the same rule as any other entry, and was flushed to 0.
    private func conflictSet(brokenIndex: Int) -> [Int] {
        var members = [brokenIndex]
        for j in combination.indices where combination[j] != 0 {
            members.append(constraintIndices[j])
        }
        return members.sorted()
    }

    /// Back-substitution to reduced row echelon form: every pivot becomes 1 and every other
    /// entry of a pivot column 0. Rows are finished from the last up, each reduced against the
    /// finished rows below it, one budgeted row operation per (row, later row) pair; false when
    /// the budget runs out.
    mutating func reduceToReducedEchelonForm(meter: inout BudgetMeter) -> Bool {
        let width = self.width
        for i in pivots.indices.reversed() {
            let start = i * width
            for j in 0..<width { rowMagnitudes[j] = entries[start + j].magnitude }
            // Finished rows are zero in every pivot column but their own, so the order of the
            // operations below does not matter, and row i's own pivot is never touched.
            for k in (i + 1)..<rank {
                guard meter.spend() else { return false }
                let factor = entries[start + pivots[k]]
                Self.subtract(factor, rowOf: k, from: i, in: &entries, magnitudes: &rowMagnitudes, width: width)
                entries[start + pivots[k]] = 0
            }
            let pivotValue = entries[start + pivots[i]]
            for j in 0..<width where j != pivots[i] {
                let entry = entries[start + j]
                entries[start + j] = entry.magnitude <= relativeTolerance * rowMagnitudes[j] ? 0 : entry / pivotValue
            }
            entries[start + pivots[i]] = 1
        }
        return true
    }

    /// After ``reduceToReducedEchelonForm(meter:)``: the point with every free variable 0,
    /// and the variables that are not determined, ascending.
    ///
    /// A variable is undetermined when it has no pivot (free), or when its row keeps a
    /// non-zero coefficient on a free column.
    func solution() -> (values: [Double], undetermined: [Int]) {
        let n = variableCount
        var values = Array(repeating: 0.0, count: n)
        var isFree = Array(repeating: true, count: n)
        for pivot in pivots { isFree[pivot] = false }
        var undetermined = isFree
        #if LAYOUTBENCH_FAULTS
        let beforePivotOnly = PlantedFault.isActive(.gaussianFreeColumnsBeforePivot)
        #endif
        for (k, pivot) in pivots.enumerated() {
            let start = k * width
            values[pivot] = -entries[start + n]
            var columns = n
            #if LAYOUTBENCH_FAULTS
            if beforePivotOnly { columns = pivot }
            #endif
            undetermined[pivot] = (0..<columns).contains { isFree[$0] && entries[start + $0] != 0 }
        }
        return (values, undetermined.indices.filter { undetermined[$0] })
    }

    // MARK: Kernels
    //
    // Written with raw pointers and `while` loops: tests run unoptimised, where buffer
    // subscripts, `Range` iteration and the generic `max`/`abs` cost several times the
    // arithmetic itself.

    /// `target[j] −= factor × source[offset + j]` for `j < count`, raising `magnitudes[j]` to
    /// `|factor × source[offset + j]|` where that is larger.
    private static func subtract(
        _ factor: Double, times source: UnsafeBufferPointer<Double>, from offset: Int,
        into target: inout [Double], magnitudes: inout [Double], count: Int
    ) {
        guard let s = source.baseAddress else { return }
        target.withUnsafeMutableBufferPointer { t in
            magnitudes.withUnsafeMutableBufferPointer { m in
                guard let t = t.baseAddress, let m = m.baseAddress else { return }
                kernel(factor, s + offset, t, m, count)
            }
        }
    }

    /// Row `target` −= `factor` × row `source`, both rows of one row-major matrix.
    private static func subtract(
        _ factor: Double, rowOf source: Int, from target: Int, in matrix: inout [Double],
        magnitudes: inout [Double], width: Int
    ) {
        matrix.withUnsafeMutableBufferPointer { a in
            magnitudes.withUnsafeMutableBufferPointer { m in
                guard let a = a.baseAddress, let m = m.baseAddress else { return }
                kernel(factor, UnsafePointer(a + source * width), a + target * width, m, width)
            }
        }
    }

    private static func kernel(
        _ factor: Double, _ source: UnsafePointer<Double>, _ target: UnsafeMutablePointer<Double>,
        _ magnitudes: UnsafeMutablePointer<Double>, _ count: Int
    ) {
        var j = 0
        while j < count {
            let term = factor * source[j]
            target[j] -= term
            let magnitude = term.magnitude
            if magnitude > magnitudes[j] { magnitudes[j] = magnitude }
            j += 1
        }
    }

    /// Sets to exactly 0 every entry at most `tolerance` times the largest magnitude that went
    /// into it.
    private static func flush(_ values: inout [Double], magnitudes: [Double], tolerance: Double) {
        for j in values.indices where values[j].magnitude <= tolerance * magnitudes[j] {
            values[j] = 0
        }
    }
}
