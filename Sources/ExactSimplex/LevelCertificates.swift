import ExactArithmetic

/// What the lexicographic walk recorded per level, and the dual certificates built from it.
///
/// The certificate of level `k` combines the duals of every level up to it with weights
/// `ν` so that the columns fixed at higher levels get nonnegative reduced costs. Going down
/// from `k − 1`, `ν_i` is the least weight that makes the columns fixed at level `i` (whose
/// `d⁽ⁱ⁾` is positive) nonnegative; adding `ν_i d⁽ⁱ⁾` cannot spoil columns fixed later,
/// whose `d⁽ⁱ⁾` is nonnegative at level `i`'s optimum.
///
/// Only the levels that can get a nonzero weight are visited: `ν_i` is nonzero only if a
/// column fixed at level `i` has a negative combined reduced cost, so only where the
/// reduced costs of a weighted level reach a column fixed at `i`. Those reduced costs are
/// nonzero only on the level's cost columns and on the columns of the rows where its duals
/// are nonzero. Walking those supports from the weighted levels (a queue of the levels they
/// reach, highest number first) gives the same weights as walking every level below `k`,
/// in the time of the supports: thousands of levels on one view were quadratic in levels.
struct DualLevels {
    let program: LinearProgram
    /// Per level (index `level − 1`): its costs, its duals (nonzeros by row, ascending), its
    /// optimum and the columns its optimum fixed.
    let costs: [[Int: Rational]]
    let duals: [[SparseEntry]]
    let optima: [Rational]
    let fixedAtLevel: [[Int]]
    /// The level that fixed each column, 0 for none.
    private let levelFixing: [Int]
    /// The levels still to weigh, in descending order (empty between certificates).
    private var pending: StepQueue

    init(program: LinearProgram, costs: [[Int: Rational]], duals: [[SparseEntry]], optima: [Rational], fixedAtLevel: [[Int]]) {
        self.program = program
        self.costs = costs
        self.duals = duals
        self.optima = optima
        self.fixedAtLevel = fixedAtLevel
        var levelFixing = [Int](repeating: 0, count: program.columnCount)
        for (index, columns) in fixedAtLevel.enumerated() {
            for j in columns { levelFixing[j] = index + 1 }
        }
        self.levelFixing = levelFixing
        self.pending = StepQueue(size: fixedAtLevel.count + 1)
        pending.backward = true
    }

    /// `d⁽ⁱ⁾_j = c⁽ⁱ⁾_j − y⁽ⁱ⁾ᵀA_j`.
    private func reducedCost(_ j: Int, _ i: Int) -> Rational {
        (costs[i - 1][j] ?? .zero) - program.dot(sparse: duals[i - 1], column: j)
    }

    /// The columns where level `i`'s reduced costs may be nonzero.
    private func support(_ i: Int) -> Set<Int> {
        var columns = Set(costs[i - 1].keys)
        for entry in duals[i - 1] {
            for term in program.rowEntries[entry.index] { columns.insert(term.index) }
        }
        return columns
    }

    /// The dual certificate of level `level`.
    mutating func certificate(level: Int) -> SolutionCertificate.Level {
        var weights: [Int: Rational] = [level: .one]
        // Σ_h ν_h d⁽ʰ⁾_j over the weighted levels h, for the columns fixed above them.
        var combined: [Int: Rational] = [:]
        func weigh(_ h: Int, _ weight: Rational) {
            for j in support(h) where levelFixing[j] > 0 && levelFixing[j] < h {
                combined[j, default: .zero].addProduct(weight, reducedCost(j, h))
                pending.push(levelFixing[j])
            }
        }
        weigh(level, .one)
        while let i = pending.pop() {
            var weight = Rational.zero
            for j in fixedAtLevel[i - 1] {
                guard let sum = combined[j], sum.sign < 0 else { continue }
                let needed = -sum / reducedCost(j, i)
                if weight < needed { weight = needed }
            }
            if !weight.isZero {
                weights[i] = weight
                weigh(i, weight)
            }
        }
        // Sparse as the duals are: one dense row vector per level was levels × rows.
        var multipliersByRow: [Int: Rational] = [:]
        for (i, weight) in weights {
            for entry in duals[i - 1] { multipliersByRow[entry.index, default: .zero].addProduct(weight, entry.value) }
        }
        var multipliers: [SolutionCertificate.Multiplier] = []
        for (r, y) in multipliersByRow where !y.isZero {
            multipliers.append(SolutionCertificate.Multiplier(constraint: program.rows[r].systemRow, value: (-y).description))
        }
        multipliers.sort { $0.constraint < $1.constraint }
        return SolutionCertificate.Level(
            level: level, objective: optima[level - 1].description, multipliers: multipliers,
            nonzeroLevelMultipliers: weights.filter { $0.key < level }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.description) })
    }
}
