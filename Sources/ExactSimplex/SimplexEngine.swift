import BackendContract
import ExactArithmetic
import LayoutModel

extension BudgetMeter {
    /// Whether the wall-clock budget is spent. ``BudgetMeter/spend(_:)`` reads the clock
    /// only every few iterations; the exact backend's steps are long, so it asks directly.
    var isOutOfTime: Bool {
        guard let limit = budget.wallTime else { return false }
        return elapsed > limit
    }
}

/// Why a solve stopped early.
enum SolveInterruption: Error, Sendable {
    /// The budget ran out.
    case budgetExceeded
    /// An invariant of the method failed (a bug, never the input's fault).
    case internalFailure(String)
}

/// How an optimisation ended.
enum OptimizationOutcome: Sendable {
    case optimal
    /// The objective decreases without bound along column `column` moved in `direction`.
    case unbounded(column: Int, direction: Int)
}

/// A revised primal simplex over a ``LinearProgram``, in exact arithmetic.
///
/// Nonbasic columns sit at zero (free, nonnegative and artificial alike), so the point is
/// `x_B = B⁻¹ b`. The basis is kept as an LU factorization with eta updates, never as a
/// tableau. Pricing is Dantzig's largest reduced cost; after a run of degenerate pivots it
/// switches to Bland's rule (smallest index entering and, always, smallest index leaving
/// among ties), which cannot cycle.
struct SimplexEngine: Sendable {
    private(set) var program: LinearProgram
    /// The column in each basis slot.
    private(set) var basis: [Int]
    /// The slot of each column, or -1 when nonbasic.
    private(set) var slotOf: [Int]
    /// The value of the basic column in each slot.
    private(set) var basicValues: [Rational]
    private var factorization: BasisFactorization
    /// Reduced costs being summed during pricing, by column.
    private var pricing: SparseAccumulator
    /// Columns held at zero for good: the lexicographic phase fixes every nonbasic column
    /// whose reduced cost at a level's optimum is positive (see ``fixPositiveReducedCosts``).
    private(set) var excluded: [Bool]
    /// The reduced-cost table ``minimize(costs:meter:)`` reuses from level to level.
    private var priceTable = ReducedCostTable()
    private(set) var pivots = 0
    private(set) var refactorizations = 0
    private(set) var bitWidths = BitWidths()

    /// Degenerate pivots in a row before Bland's rule takes over.
    private let blandThreshold = 20

    /// A crash basis: rows are visited in `order`, and each takes as its basic column an
    /// unknown of its own that no earlier row took (the one in fewest rows, then the
    /// latest declared), or else its own auxiliary column. Dependent choices are repaired
    /// by the factorization. Visiting required equalities, then optional rows from the
    /// highest level down, then required inequalities, guesses the optimal basis of a
    /// typical layout (equalities tight, wishes met, inequalities slack), so that a
    /// well-posed layout often needs no pivot at all.
    init(program: LinearProgram, order: [Int]) throws(SolveInterruption) {
        self.program = program
        let m = program.rowCount
        var termsOfRow = [[Int]](repeating: [], count: m)
        for j in 0..<program.unknownCount {
            for entry in program.columns[j] { termsOfRow[entry.index].append(j) }
        }
        // Fewest rows first, then the latest declared: a chain's new view, a tree's child.
        for r in 0..<m {
            termsOfRow[r].sort { a, b in
                let da = program.unknownDegree[a], db = program.unknownDegree[b]
                return da != db ? da < db : a > b
            }
        }
        var rowOf = [Int](repeating: -1, count: program.unknownCount)
        var unknownOf = [Int](repeating: -1, count: m)
        var visited = [Int](repeating: -1, count: program.unknownCount)
        for (stamp, r) in order.enumerated() {
            if let j = termsOfRow[r].first(where: { rowOf[$0] < 0 }) {
                rowOf[j] = r
                unknownOf[r] = j
            } else if program.rows[r].level > 0 || program.rows[r].relation == .equal {
                Self.augment(from: r, stamp: stamp, termsOfRow: termsOfRow, rowOf: &rowOf, unknownOf: &unknownOf, visited: &visited)
            }
        }
        var basis = [Int](repeating: -1, count: m)
        for r in 0..<m {
            basis[r] = unknownOf[r] >= 0 ? unknownOf[r] : Self.preferredAuxiliary(program, row: r)
        }
        self.basis = basis
        self.slotOf = [Int](repeating: -1, count: program.columnCount)
        self.basicValues = []
        self.excluded = [Bool](repeating: false, count: program.columnCount)
        self.factorization = BasisFactorization.empty
        self.pricing = SparseAccumulator(size: program.columnCount)
        try refactorize()
    }

    /// Looks for an alternating path from the unmatched row `start` to an unmatched
    /// unknown and, if there is one, flips it: every row matched before stays matched, and
    /// `start` gains an unknown. Greedy matching alone leaves a row like a tree's
    /// `last.trailing == parent.trailingMargin` to an artificial once its siblings took
    /// `last.x` and `last.w`, which costs a phase-one pivot per view. Iterative, so a
    /// path as long as a chain cannot exhaust the stack.
    private static func augment(
        from start: Int, stamp: Int, termsOfRow: [[Int]], rowOf: inout [Int], unknownOf: inout [Int], visited: inout [Int]
    ) {
        var rows = [start]
        var next = [0]
        while let row = rows.last, let k = next.last {
            guard k < termsOfRow[row].count else {
                rows.removeLast()
                next.removeLast()
                continue
            }
            next[next.count - 1] += 1
            let j = termsOfRow[row][k]
            if visited[j] == stamp { continue }
            visited[j] = stamp
            if rowOf[j] < 0 {
                // Flip the path: each row takes the unknown it reached the next row through.
                var unknown = j
                for level in stride(from: rows.count - 1, through: 0, by: -1) {
                    let r = rows[level]
                    let previous = unknownOf[r]
                    rowOf[unknown] = r
                    unknownOf[r] = unknown
                    unknown = previous
                }
                return
            }
            rows.append(rowOf[j])
            next.append(0)
        }
    }

    /// The auxiliary column a row falls back on: for an optional row the one that will be
    /// nonnegative when the row's unknowns are all zero.
    private static func preferredAuxiliary(_ program: LinearProgram, row r: Int) -> Int {
        let second = program.secondAuxiliary[r]
        if second >= 0, program.rhs[r].sign > 0 { return second }
        return program.firstAuxiliary[r]
    }

    /// Rebuilds the factorization of the current basis and recomputes `x_B` from scratch.
    mutating func refactorize() throws(SolveInterruption) {
        let m = program.rowCount
        var repairs = 0
        while true {
            switch BasisFactorization.factorize(columns: basis.map { program.columns[$0] }) {
            case .factorized(let f):
                factorization = f
            case .singular(let slots, let rows):
                // Each repaired slot's column leaves the basis for its row's (unit)
                // auxiliary, which no other slot holds: that row found no pivot.
                guard repairs == 0 else { throw .internalFailure("a repaired basis is singular") }
                for (slot, row) in zip(slots, rows) { basis[slot] = program.firstAuxiliary[row] }
                repairs += 1
                continue
            }
            break
        }
        for j in slotOf.indices { slotOf[j] = -1 }
        for (slot, column) in basis.enumerated() {
            guard slotOf[column] == -1 else { throw .internalFailure("column \(column) basic twice") }
            slotOf[column] = slot
        }
        basicValues = [Rational](repeating: .zero, count: m)
        for entry in factorization.solveSparse(
            (0..<m).compactMap { program.rhs[$0].isZero ? nil : SparseEntry($0, program.rhs[$0]) })
        {
            basicValues[entry.index] = entry.value
        }
        // An optional row whose error column came out negative takes its sibling instead:
        // `p` and `n` are ∓ the same unit column, so the swap only negates that value (an
        // eta of −e_s) and needs no pivot. The crash cannot know the signs beforehand.
        for (slot, column) in basis.enumerated() where basicValues[slot].sign < 0 && column >= program.unknownCount {
            let r = program.ownerRow[column]
            let second = program.secondAuxiliary[r]
            guard second >= 0 else { continue }
            let sibling = column == second ? program.firstAuxiliary[r] : second
            guard slotOf[sibling] < 0 else { continue }
            slotOf[column] = -1
            slotOf[sibling] = slot
            basis[slot] = sibling
            basicValues[slot] = -basicValues[slot]
            factorization.negate(slot: slot)
        }
        for value in basicValues { bitWidths.record(value) }
        bitWidths.record(factorization.bitWidths)
        refactorizations += 1
    }


    /// Whether `solves` more sparse solves would read more update entries than a new
    /// factorization costs. Each solve reads every eta entry, and a factorization costs
    /// about a hundred times a read per nonzero (it allocates its active rows and the
    /// transposed factors anew).
    func prefersRefactorization(beforeSolves solves: Int) -> Bool {
        factorization.etaNonzeros * solves > 128 * (factorization.baseNonzeros + factorization.size)
    }

    // MARK: Reading the point

    /// The value of column `j` at the current basic solution.
    func value(of j: Int) -> Rational {
        let slot = slotOf[j]
        return slot >= 0 ? basicValues[slot] : .zero
    }

    /// The values of the unknowns.
    var unknownValues: [Rational] {
        (0..<program.unknownCount).map(value(of:))
    }

    /// Whether every basic value is within its column's bounds.
    var isPrimalFeasible: Bool {
        for (slot, column) in basis.enumerated() where !Self.isFeasible(program.kinds[column], basicValues[slot]) {
            return false
        }
        return true
    }

    private static func isFeasible(_ kind: ColumnKind, _ value: Rational) -> Bool {
        switch kind {
        case .free: return true
        case .nonnegative: return value.sign >= 0
        case .fixedZero: return value.isZero
        }
    }

    // MARK: Duals

    /// `y` with `yᵀ B = c_B`, for costs given per column: its nonzeros by row, ascending.
    mutating func duals(costs: [Int: Rational]) -> [SparseEntry] {
        var cB: [SparseEntry] = []
        for (column, cost) in costs where !cost.isZero {
            let slot = slotOf[column]
            if slot >= 0 { cB.append(SparseEntry(slot, cost)) }
        }
        return factorization.solveTransposedSparse(cB)
    }

    /// The reduced costs `c_j − yᵀ A_j` of the nonbasic columns not fixed that can be
    /// nonzero — those with a cost, and those in a row where `y` is nonzero — ascending by
    /// column (every other such column has a zero reduced cost). Row-wise, so that a level
    /// whose duals touch a few rows is priced in the time of those rows, not of the LP.
    private mutating func reducedCosts(duals y: [SparseEntry], costs: [Int: Rational]) -> [SparseEntry] {
        for (column, cost) in costs where slotOf[column] < 0 && !excluded[column] {
            pricing.addProduct(column, cost, .one)
        }
        for entry in y {
            let negated = -entry.value
            for term in program.rowEntries[entry.index] where slotOf[term.index] < 0 && !excluded[term.index] {
                pricing.addProduct(term.index, negated, term.value)
            }
        }
        return pricing.drain()
    }

    /// Row `slot` of the tableau `B⁻¹A` on the columns `wanted` marks, its nonzeros by
    /// column (ascending): one sparse BTRAN for `e_slotᵀ B⁻¹`, then the LP rows it reaches.
    /// A degenerate slot's basic variable is usually tied to a few rows (a hug/resist
    /// pair), so this costs that neighbourhood, where the columns' FTRANs each cost their
    /// reach down a chain.
    mutating func tableauRow(slot: Int, wanted: [Bool]) -> [SparseEntry] {
        for entry in factorization.solveTransposedSparse([SparseEntry(slot, .one)]) {
            for term in program.rowEntries[entry.index] where wanted[term.index] {
                pricing.addProduct(term.index, entry.value, term.value)
            }
        }
        return pricing.drain()
    }

    /// `B⁻¹ A_j`, its nonzeros by slot (ascending).
    mutating func column(_ j: Int) -> [SparseEntry] {
        factorization.solveSparse(program.columns[j])
    }

    // MARK: Optimisation

    /// Minimises `Σ costs[j] x_j` from the current (feasible) basis.
    ///
    /// The reduced costs are priced once and then updated by each pivot
    /// (``ReducedCostTable``); the choices are those of pricing every column anew.
    mutating func minimize(costs: [Int: Rational], meter: inout BudgetMeter) throws(SolveInterruption) -> OptimizationOutcome {
        var degenerateRun = 0
        // Taken out of `self` so that it is uniquely referenced while it is updated.
        var prices = ReducedCostTable()
        swap(&prices, &priceTable)
        defer { swap(&prices, &priceTable) }
        prices.reprice(columnCount: program.columnCount, priced: reducedCosts(duals: duals(costs: costs), costs: costs))
        while true {
            let bland = degenerateRun >= blandThreshold
            guard let (q, direction, reducedCost) = bland ? blandEntering(prices) : prices.largest(direction: movableDirection)
            else {
                return .optimal
            }
            let alpha = column(q)
            let slot: Int, step: Rational, passed: [Int]
            if bland {
                guard let plain = ratioTest(alpha: alpha, direction: direction, phaseOne: false) else {
                    return .unbounded(column: q, direction: direction)
                }
                (slot, step, passed) = (plain.slot, plain.step, [])
            } else {
                guard let long = longStepRatioTest(
                    alpha: alpha, entering: q, direction: direction, reducedCost: reducedCost, costs: costs)
                else {
                    return .unbounded(column: q, direction: direction)
                }
                (slot, step, passed) = (long.slot, long.step, long.passed)
            }
            // `g`: on each slot that changes column, the old reduced cost of its new column.
            var change = [SparseEntry(slot, reducedCost)]
            for s in passed {
                let other = sibling(of: basis[s])
                if !prices[other].isZero { change.append(SparseEntry(s, prices[other])) }
            }
            try pivot(entering: q, direction: direction, slot: slot, step: step, alpha: alpha, passing: passed, meter: &meter)
            for s in passed { prices.clear(basis[s]) }
            prices.clear(q)
            subtractDualChange(change, from: &prices)
            degenerateRun = step.isZero ? degenerateRun + 1 : 0
        }
    }

    /// The direction column `j` may enter in with reduced cost `d` (+1 up when `d < 0`, −1
    /// down for a free column with `d > 0`), or 0 when it may not enter.
    private func movableDirection(_ j: Int, _ d: Rational) -> Int {
        guard slotOf[j] < 0, !excluded[j] else { return 0 }
        let kind = program.kinds[j]
        if kind == .fixedZero { return 0 }
        if d.sign < 0 { return 1 }
        return d.sign > 0 && kind == .free ? -1 : 0
    }

    /// Bland's entering column: the smallest that may enter.
    private func blandEntering(_ prices: ReducedCostTable) -> (column: Int, direction: Int, reducedCost: Rational)? {
        #if LAYOUTBENCH_FAULTS
        if PlantedFault.isActive(.exactBlandStopsEarly) { return nil }
        #endif
        for j in 0..<program.columnCount {
            let way = movableDirection(j, prices[j])
            if way != 0 { return (j, way, prices[j]) }
        }
        return nil
    }

    /// The entering column, its direction (+1 up, −1 down, only free columns go down) and
    /// its reduced cost, or nil at optimality. Columns are tried in ascending order, as a
    /// scan of all would.
    private mutating func entering(duals y: [SparseEntry], costs: [Int: Rational], bland: Bool) -> (Int, Int, Rational)? {
        var best: (column: Int, direction: Int, magnitude: Rational)?
        #if LAYOUTBENCH_FAULTS
        if bland && PlantedFault.isActive(.exactBlandStopsEarly) { return nil }
        #endif
        for priced in reducedCosts(duals: y, costs: costs) {
            let j = priced.index, d = priced.value
            let kind = program.kinds[j]
            if kind == .fixedZero { continue }
            let direction: Int
            if d.sign < 0 {
                direction = 1
            } else if d.sign > 0 && kind == .free {
                direction = -1
            } else {
                continue
            }
            if bland { return (j, direction, d) }
            let magnitude = d.magnitude
            if let b = best, !(b.magnitude < magnitude) { continue }
            best = (j, direction, magnitude)
        }
        return best.map { ($0.column, $0.direction, $0.direction > 0 ? -$0.magnitude : $0.magnitude) }
    }

    /// The leaving slot and the step length of the entering column, or nil when nothing
    /// blocks. In phase one an infeasible basic value blocks where it reaches its bound, so
    /// that the sum of infeasibilities falls all along the step. Ties go to the smallest
    /// column index (Bland).
    private func ratioTest(alpha: [SparseEntry], direction: Int, phaseOne: Bool) -> (slot: Int, step: Rational)? {
        var best: (slot: Int, step: Rational)?
        for entry in alpha {
            guard let limit = blockingStep(slot: entry.index, alpha: entry.value, direction: direction, phaseOne: phaseOne)
            else { continue }
            best = Self.earlier(best, (entry.index, limit), basis: basis)
        }
        return best
    }

    /// The step at which the basic value of `slot` (changing by `∓alpha` per unit step of
    /// the entering column in `direction`) reaches its bound, or nil when it never blocks.
    /// In phase one an infeasible value blocks where it reaches its bound.
    private func blockingStep(slot: Int, alpha a: Rational, direction: Int, phaseOne: Bool) -> Rational? {
        let rate = direction > 0 ? -a : a
        let x = basicValues[slot]
        switch program.kinds[basis[slot]] {
        case .free:
            return nil
        case .nonnegative:
            if x.sign >= 0 { return rate.sign < 0 ? x / -rate : nil }
            return phaseOne && rate.sign > 0 ? -x / rate : nil
        case .fixedZero:
            if x.isZero { return .zero }
            return phaseOne && x.sign != rate.sign ? x.magnitude / rate.magnitude : nil
        }
    }

    /// The earlier of two blocks: the smaller step, ties to the smaller column (Bland).
    private static func earlier(
        _ a: (slot: Int, step: Rational)?, _ b: (slot: Int, step: Rational), basis: [Int]
    ) -> (slot: Int, step: Rational) {
        guard let a else { return b }
        return b.step < a.step || (b.step == a.step && basis[b.slot] < basis[a.slot]) ? b : a
    }

    /// The sibling of an optional row's error column (`p` ↔ `n`), or -1 for any other column.
    private func sibling(of column: Int) -> Int {
        guard column >= program.unknownCount else { return -1 }
        let r = program.ownerRow[column]
        let second = program.secondAuxiliary[r]
        guard second >= 0 else { return -1 }
        return column == second ? program.firstAuxiliary[r] : second
    }

    /// A long-step (bound-flipping) ratio test for phase two. A basic error column `p` of
    /// an optional row that falls to zero need not block: past that point its sibling `n`
    /// (`p − n` is what the row reads) takes the value instead, a sign swap of the slot and
    /// no pivot, and the objective's slope along the step rises by `(c_p + c_n)·|rate|`. So
    /// the step passes such breakpoints, in order, while the slope stays negative, and
    /// stops at the first one that makes it nonnegative or at a column that cannot swap.
    ///
    /// A label's width tied to a thousand others met one resistance breakpoint per pivot
    /// (`form` at 1,000 views: 389 level pivots, each with an update as long as the
    /// layout); one step now passes them all. When the first breakpoint already blocks,
    /// this is the plain ratio test (same slot, same step, ties to the smallest column).
    /// Returns the blocking slot, the step and the slots passed (to be swapped), or nil
    /// when nothing blocks and the slope stays negative (unbounded).
    private func longStepRatioTest(
        alpha: [SparseEntry], entering q: Int, direction: Int, reducedCost: Rational, costs: [Int: Rational]
    ) -> (slot: Int, step: Rational, passed: [Int])? {
        // The slope per unit step: the reduced cost, signed by the direction (negative).
        var slope = direction > 0 ? reducedCost : -reducedCost
        var hard: (slot: Int, step: Rational)?
        var breakpoints: [(slot: Int, step: Rational, rise: Rational)] = []
        for entry in alpha {
            let slot = entry.index
            guard let limit = blockingStep(slot: slot, alpha: entry.value, direction: direction, phaseOne: false)
            else { continue }
            let column = basis[slot]
            let other = program.kinds[column] == .nonnegative ? sibling(of: column) : -1
            if other >= 0 && other != q && slotOf[other] < 0 && !excluded[other] && program.kinds[other] == .nonnegative {
                let rise = ((costs[column] ?? .zero) + (costs[other] ?? .zero)) * entry.value.magnitude
                breakpoints.append((slot, limit, rise))
            } else {
                hard = Self.earlier(hard, (slot, limit), basis: basis)
            }
        }
        // Only the breakpoints before the hard block (ties to the smallest column) matter.
        var candidates = breakpoints.filter { b in
            guard let h = hard else { return true }
            return b.step < h.step || (b.step == h.step && basis[b.slot] < basis[h.slot])
        }
        candidates.sort { $0.step != $1.step ? $0.step < $1.step : basis[$0.slot] < basis[$1.slot] }
        var passed: [Int] = []
        for b in candidates {
            slope += b.rise
            if slope.sign >= 0 { return (b.slot, b.step, passed) }
            passed.append(b.slot)
        }
        guard let h = hard else { return nil }
        return (h.slot, h.step, passed)
    }

    private mutating func pivot(
        entering q: Int, direction: Int, slot: Int, step: Rational, alpha: [SparseEntry], passing passed: [Int] = [],
        meter: inout BudgetMeter
    ) throws(SolveInterruption) {
        // The meter reads the clock every 64 iterations; a pivot on a large exact basis
        // can take milliseconds, so the clock is read on every one (a read costs far less).
        guard meter.spend(), !meter.isOutOfTime else { throw .budgetExceeded }
        pivots += 1
        if !step.isZero {
            let move = direction > 0 ? -step : step
            for entry in alpha { basicValues[entry.index].addProduct(move, entry.value) }
        }
        var alpha = alpha
        if !passed.isEmpty {
            // Each passed error column went below zero: its sibling takes the slot with the
            // negated value (a sign swap, see ``longStepRatioTest``), and the entering
            // column's representation in the swapped basis has those slots negated.
            var swapped = Set<Int>()
            for s in passed {
                let leaving = basis[s], other = sibling(of: leaving)
                slotOf[leaving] = -1
                slotOf[other] = s
                basis[s] = other
                basicValues[s] = -basicValues[s]
                factorization.negate(slot: s)
                swapped.insert(s)
            }
            for k in alpha.indices where swapped.contains(alpha[k].index) { alpha[k].value = -alpha[k].value }
        }
        let leaving = basis[slot]
        slotOf[leaving] = -1
        basis[slot] = q
        slotOf[q] = slot
        basicValues[slot] = direction > 0 ? step : -step
        bitWidths.record(basicValues[slot])
        factorization.replace(slot: slot, alpha: alpha)
        if factorization.prefersRefactorization {
            bitWidths.record(factorization.bitWidths)
            try refactorize()
        }
    }

    // MARK: Feasibility

    /// Drives the basis to feasibility by minimising the sum of infeasibilities. Returns nil
    /// when feasible, else a Farkas vector `y` (by row) with `yᵀ A_j ≤ 0` on nonnegative
    /// columns, `yᵀ A_j = 0` on free ones and `yᵀ b > 0`.
    ///
    /// The costs are ±1 on the basic columns outside their bounds, so they change as values
    /// cross bounds. After the first few pivots (``phaseOnePivotsPricedAnew``), the reduced
    /// costs are priced once and then updated as ``minimize(costs:meter:)`` updates them, in
    /// two steps per pivot: the basis change under the old costs, then the costs that
    /// changed (on the few basic columns that crossed a bound, and on the leaving column,
    /// which costs nothing once nonbasic), each a hypersparse BTRAN. Pricing anew took, per
    /// pivot, a BTRAN of a cost vector with an entry for every infeasible column (hundreds on
    /// `random` at 5,000 views): a third of that solve. The values are exactly a full
    /// pricing's, so the pivots are the same.
    mutating func makeFeasible(meter: inout BudgetMeter) throws(SolveInterruption) -> [Rational]? {
        var costs = infeasibilityCosts()
        var degenerateRun = 0
        // The first pivots price anew: a warm-started probe of the conflict's deletion filter
        // needs one or two, and filling the table (as long as the LP, copied on write in a
        // copied engine) cost more than that (`conflict-late`: 1.8 s → 2.6 s at 1,000 views).
        for _ in 0..<Self.phaseOnePivotsPricedAnew {
            if costs.isEmpty { return nil }
            let y = duals(costs: costs)
            guard let (q, direction, _) = entering(duals: y, costs: [:], bland: degenerateRun >= blandThreshold) else {
                return denseByRow(y)
            }
            let alpha = column(q)
            guard let (slot, step) = ratioTest(alpha: alpha, direction: direction, phaseOne: true) else {
                throw .internalFailure("phase one found an improving ray")
            }
            try pivot(entering: q, direction: direction, slot: slot, step: step, alpha: alpha, meter: &meter)
            degenerateRun = step.isZero ? degenerateRun + 1 : 0
            costs = infeasibilityCosts()
        }
        if costs.isEmpty { return nil }
        // Taken out of `self` so that it is uniquely referenced while it is updated.
        var prices = ReducedCostTable()
        swap(&prices, &priceTable)
        defer { swap(&prices, &priceTable) }
        prices.reprice(columnCount: program.columnCount, priced: reducedCosts(duals: duals(costs: costs), costs: [:]))
        while true {
            let bland = degenerateRun >= blandThreshold
            guard let (q, direction, reducedCost) = bland ? blandEntering(prices) : prices.largest(direction: movableDirection)
            else {
                return denseByRow(duals(costs: costs))
            }
            let alpha = column(q)
            guard let (slot, step) = ratioTest(alpha: alpha, direction: direction, phaseOne: true) else {
                throw .internalFailure("phase one found an improving ray")
            }
            let refactorizationsBefore = refactorizations
            try pivot(entering: q, direction: direction, slot: slot, step: step, alpha: alpha, meter: &meter)
            degenerateRun = step.isZero ? degenerateRun + 1 : 0
            let newCosts = infeasibilityCosts()
            if newCosts.isEmpty { return nil }
            if refactorizations != refactorizationsBefore {
                // A refactorization may have swapped error columns for their siblings.
                costs = newCosts
                prices.reprice(columnCount: program.columnCount, priced: reducedCosts(duals: duals(costs: costs), costs: [:]))
                continue
            }
            // The basis change under the old costs, as in `minimize`.
            prices.clear(q)
            subtractDualChange([SparseEntry(slot, reducedCost)], from: &prices)
            // The costs that changed: on basic columns through the duals, on nonbasic ones
            // (the leaving column) directly.
            var change: [SparseEntry] = []
            for (column, cost) in costs where newCosts[column] == nil {
                if slotOf[column] >= 0 { change.append(SparseEntry(slotOf[column], -cost)) } else { prices.subtractProduct(column, cost, .one) }
            }
            for (column, cost) in newCosts where costs[column] != cost {
                let delta = cost - (costs[column] ?? .zero)
                if slotOf[column] >= 0 { change.append(SparseEntry(slotOf[column], delta)) } else { prices.subtractProduct(column, delta, -Rational.one) }
            }
            costs = newCosts
            if !change.isEmpty {
                change.sort { $0.index < $1.index }
                subtractDualChange(change, from: &prices)
            }
            #if DEBUG
            _checkPhaseOnePrices(prices, costs: costs)
            #endif
        }
    }

    /// Duals kept as their nonzeros, written out by row (the Farkas vector's form).
    private func denseByRow(_ y: [SparseEntry]) -> [Rational] {
        var dense = [Rational](repeating: .zero, count: program.rowCount)
        for entry in y { dense[entry.index] = entry.value }
        return dense
    }

    /// How many pivots of a phase one price every column anew before the reduced costs are
    /// kept in a table and updated.
    static let phaseOnePivotsPricedAnew = 8

    /// The phase-one costs: ±1 on each basic column outside its bounds (−1 below, +1 above).
    private func infeasibilityCosts() -> [Int: Rational] {
        var costs: [Int: Rational] = [:]
        for (slot, column) in basis.enumerated() {
            let x = basicValues[slot]
            switch program.kinds[column] {
            case .free: break
            case .nonnegative: if x.sign < 0 { costs[column] = -Rational.one }
            case .fixedZero: if !x.isZero { costs[column] = x.sign > 0 ? .one : -Rational.one }
            }
        }
        return costs
    }

    /// `d_j −= Δyᵀ A_j` on the nonbasic columns not fixed, where `Bᵀ Δy = g` (one sparse
    /// BTRAN of `g`, by slot): what a change `g` of the basic columns' costs does to the
    /// reduced costs. Both phases' updates after a pivot (``ReducedCostTable``).
    private mutating func subtractDualChange(_ g: [SparseEntry], from prices: inout ReducedCostTable) {
        for entry in factorization.solveTransposedSparse(g) {
            for term in program.rowEntries[entry.index] where slotOf[term.index] < 0 && !excluded[term.index] {
                prices.subtractProduct(term.index, entry.value, term.value)
            }
        }
    }

    #if DEBUG
    /// Debug builds: the updated phase-one reduced costs equal a full pricing at `costs`,
    /// on every nonbasic column not fixed.
    private mutating func _checkPhaseOnePrices(_ prices: ReducedCostTable, costs: [Int: Rational]) {
        var expected = [Rational](repeating: .zero, count: program.columnCount)
        for entry in reducedCosts(duals: duals(costs: costs), costs: [:]) { expected[entry.index] = entry.value }
        for j in 0..<program.columnCount where slotOf[j] < 0 && !excluded[j] {
            precondition(prices[j] == expected[j], "phase one's reduced cost of column \(j) is \(prices[j]), priced anew \(expected[j])")
        }
    }
    #endif

    /// Drops required row `r` from the LP by letting its slack or artificial take any
    /// value (the row then holds at every point). The basis stays valid, so phase one can
    /// go on from here: the deletion filter of the conflict tries each member this way.
    mutating func dropRow(_ r: Int) {
        program.kinds[program.firstAuxiliary[r]] = .free
    }

    /// Takes required row `r`, dropped by ``dropRow(_:)``, back into the LP: its slack or
    /// artificial is bounded again. The basis stays a basis; where that column is basic
    /// outside its bound, phase one (``makeFeasible(meter:)``) goes on from here. The
    /// required walk drops and restores rows of one LP this way.
    mutating func restoreRow(_ r: Int) {
        precondition(program.rows[r].level == 0, "only a required row is dropped")
        program.kinds[program.firstAuxiliary[r]] = program.rows[r].relation == .equal ? .fixedZero : .nonnegative
    }

    // MARK: Lexicographic fixing and the optimal face

    /// Fixes at zero every nonbasic nonnegative column whose reduced cost is positive, and
    /// returns them. At an optimum, `cᵀx = z* + Σ_N d_j x_j` on `Ax = b` with `d_j = 0` on
    /// free columns, so the optimal solutions are exactly the feasible points with these
    /// columns at zero: fixing them restricts the LP to its optimal face, exactly.
    /// Only the columns with a cost or in a row of nonzero dual are priced: the others have
    /// a zero reduced cost, so a level that touches a few rows is fixed in their time.
    mutating func fixPositiveReducedCosts(duals y: [SparseEntry], costs: [Int: Rational], includingFlat: Bool = false) -> [Int] {
        var fixed: [Int] = []
        if includingFlat {
            // The planted fault: every nonbasic nonnegative column with `d ≥ 0`, flat ones too.
            var d: [Int: Rational] = [:]
            for entry in reducedCosts(duals: y, costs: costs) { d[entry.index] = entry.value }
            for j in 0..<program.columnCount where slotOf[j] < 0 && !excluded[j] && program.kinds[j] == .nonnegative {
                if (d[j] ?? .zero).sign >= 0 { fixed.append(j) }
            }
        } else {
            for entry in reducedCosts(duals: y, costs: costs) where program.kinds[entry.index] == .nonnegative && entry.value.sign > 0 {
                fixed.append(entry.index)
            }
        }
        for j in fixed { excluded[j] = true }
        return fixed
    }

    /// Whether column `j` (nonbasic) can move in `direction` by a positive step from the
    /// current point without leaving the face, given the nonzeros of `alpha = B⁻¹ A_j`.
    func canMove(alpha: [SparseEntry], direction: Int) -> Bool {
        for entry in alpha {
            let slot = entry.index, a = entry.value
            let column = basis[slot]
            switch program.kinds[column] {
            case .free: continue
            case .fixedZero: return false
            case .nonnegative:
                let rate = direction > 0 ? -a : a
                if rate.sign < 0 && basicValues[slot].isZero { return false }
            }
        }
        return true
    }

    /// The nonbasic columns still free to move on the face (not fixed, not artificial).
    var movableNonbasicColumns: [Int] {
        (0..<program.columnCount).filter { slotOf[$0] < 0 && !excluded[$0] && program.kinds[$0] != .fixedZero }
    }
}
