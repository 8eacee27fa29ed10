import BackendContract
import ExactArithmetic
import LayoutModel

/// The exact reference backend: the whole of spec §5 in rational arithmetic, with
/// certificates.
///
/// The required walk, the conflict, the lexicographic optimum and the determined unknowns
/// are all computed exactly by a revised simplex (``SimplexEngine``) over GMP-backed
/// ``ExactArithmetic/Rational``s; `docs/exact-backend.md` describes the method.
public struct ExactSimplexBackend: LayoutBackend {
    /// How the determined unknowns are found.
    public enum DeterminacyMethod: Sendable, Hashable {
        /// From the final basis; a min and a max LP only where degeneracy leaves it open.
        case finalBasis
        /// A min and a max LP for every unknown: slow, for cross-checking the default.
        case minimumAndMaximum
    }

    /// How the conflict is shown irreducible.
    public enum ConflictProof: Sendable, Hashable {
        /// By its rows' independence when the first Farkas support has independent rows (then
        /// that support is the conflict, with no check per member); otherwise by the deletion
        /// filter's witnesses.
        case independenceFirst
        /// Always by the deletion filter, one witness per member: for cross-checking the
        /// default (both give the same conflict).
        case witnesses
    }

    public var determinacy: DeterminacyMethod
    public var conflictProof: ConflictProof

    public init(determinacy: DeterminacyMethod = .finalBasis, conflictProof: ConflictProof = .independenceFirst) {
        self.determinacy = determinacy
        self.conflictProof = conflictProof
    }

    public var name: String { "exact" }

    public var summary: String {
        "exact rational revised simplex (GMP): lexicographic priorities, broken lists, conflicts, ambiguity, certificates"
    }

    /// Every valid system.
    public func supports(_ system: ConstraintSystem) -> Support { .supported }

    public func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        try solveWithReport(system, budget: budget).result
    }

    /// Solves and returns the certificate of the solution (see ``SolutionCertificate``).
    public func solveCertified(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> (BackendResult, SolutionCertificate) {
        let report = try solveWithReport(system, budget: budget)
        return (report.result, report.certificate)
    }

    /// Solves and returns the result, its certificate and what the solve measured.
    public func solveWithReport(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> ExactSolveReport {
        var solve = ExactSolve(system: system, budget: budget, determinacy: determinacy, conflictProof: conflictProof)
        let report: ExactSolveReport
        do {
            let (solution, certificate) = try solve.run()
            report = solve.report(solution: solution, certificate: certificate)
        } catch {
            switch error {
            case .budgetExceeded:
                return solve.report(
                    solution: .budgetExceeded(variableCount: system.variableCount),
                    certificate: SolutionCertificate(status: .budgetExceeded))
            case .internalFailure(let message):
                throw .internalFailure(backend: name, message: message)
            }
        }
        // Exact values beyond Double's range: the same answer the float backends give.
        _ = try report.result.checkedRepresentable(in: system, backend: name)
        return report
    }
}

/// A solve's result, certificate and measurements.
public struct ExactSolveReport: Sendable {
    public var result: BackendResult
    public var certificate: SolutionCertificate
    /// Exact optimal error sums per level (the rational form of `solution.objective`).
    public var exactObjective: [String] { result.solution.exactObjective ?? [] }
    /// Basis factorizations computed (each feasibility check starts with one).
    public var refactorizations: Int
    /// Linear programs solved to test the required set or a conflict candidate.
    public var feasibilityChecks: Int
    /// Min/max programs solved because the cheap determinacy test was inconclusive.
    public var determinacyPrograms: Int
    /// The largest numerator and denominator met in factors, updates, values and duals.
    public var bitWidths: BitWidths
}

/// One solve: its inputs, its meter and its counters.
struct ExactSolve {
    let system: ConstraintSystem
    let lowered: LinearSystem<Rational>
    let determinacy: ExactSimplexBackend.DeterminacyMethod
    let conflictProof: ExactSimplexBackend.ConflictProof
    var meter: BudgetMeter
    var refactorizations = 0
    var feasibilityChecks = 0
    var determinacyPrograms = 0
    var bitWidths = BitWidths()
    /// Where the time went; each phase is charged at its end from `clock`.
    var phases = SolvePhases()
    var clock = PhaseClock()

    init(
        system: ConstraintSystem, budget: Budget, determinacy: ExactSimplexBackend.DeterminacyMethod,
        conflictProof: ExactSimplexBackend.ConflictProof = .independenceFirst
    ) {
        self.system = system
        self.determinacy = determinacy
        self.conflictProof = conflictProof
        self.meter = BudgetMeter(budget)
        self.lowered = system.lowered(as: Rational.self)
        phases.lowering = clock.lap()
    }

    func report(solution: Solution, certificate: SolutionCertificate) -> ExactSolveReport {
        ExactSolveReport(
            result: BackendResult(
                solution: solution,
                statistics: SolveStatistics(iterations: meter.iterations, duration: meter.elapsed, phases: phases)),
            certificate: certificate, refactorizations: refactorizations,
            feasibilityChecks: feasibilityChecks, determinacyPrograms: determinacyPrograms,
            bitWidths: bitWidths)
    }

    private mutating func absorb(_ engine: SimplexEngine) {
        refactorizations += engine.refactorizations
        bitWidths.record(engine.bitWidths)
    }

    /// Absorbs a copy of `origin` that went on solving: only its own factorizations count.
    private mutating func absorb(_ engine: SimplexEngine, since origin: SimplexEngine) {
        refactorizations += engine.refactorizations - origin.refactorizations
        bitWidths.record(engine.bitWidths)
    }

    // MARK: The whole solve

    mutating func run() throws(SolveInterruption) -> (Solution, SolutionCertificate) {
        let rows = lowered.rows
        let required = rows.indices.filter { rows[$0].isRequired }
        let optional = rows.indices.filter { !rows[$0].isRequired }

        // The required walk (§5.1). When everything together is feasible, the walk keeps
        // every constraint and the LP just built goes on to the priorities.
        var feasible = try feasibleEngine(rows: rows.indices.map { $0 })
        var kept = required
        var brokenCertificates: [SolutionCertificate.BrokenConstraint] = []
        var conflictCertificate: SolutionCertificate.Conflict?
        var conflict: [Int] = []
        if feasible == nil {
            let walk = try requiredWalk(required)
            kept = walk.kept
            brokenCertificates = walk.broken.map {
                SolutionCertificate.BrokenConstraint(constraint: $0.row, farkas: Self.farkasCertificate($0.farkas))
            }
            guard let first = walk.broken.first else { throw .internalFailure("infeasible, yet nothing broken") }
            phases.solve += clock.lap()
            let found = try irreducibleConflict(first.row, farkas: first.farkas)
            conflict = found.members
            #if LAYOUTBENCH_FAULTS
            if PlantedFault.isActive(.exactConflictUnion) {
                conflict = Array(Set(conflict).union(walk.broken.dropFirst().flatMap { $0.farkas.keys })).sorted()
            }
            #endif
            conflictCertificate = SolutionCertificate.Conflict(
                farkas: Self.farkasCertificate(found.farkas), irreducibility: found.irreducibility)
            phases.conflict += clock.lap()
            feasible = try feasibleEngine(rows: (kept + optional).sorted())
        }
        phases.solve += clock.lap()
        guard var engine = feasible else { throw .internalFailure("the kept required set is infeasible") }
        let program = engine.program

        // The lexicographic optimum (§5.2): one level at a time from the last optimal
        // basis, restricting to each level's optimal face by fixing columns.
        let levelCount = lowered.levels.count
        var levelCosts: [[Int: Rational]] = []
        // Kept sparse: a level's duals are mostly zero, and thousands of levels of dense
        // duals (levels × rows) took hundreds of megabytes.
        var levelDuals: [[SparseEntry]] = []
        var optima: [Rational] = []
        var fixedAtLevel: [[Int]] = []
        let rowsOfLevel = program.rowsByLevel(levelCount: levelCount)
        for level in 1..<(levelCount + 1) {
            // A level without pivots still prices and fixes every column: its optimality
            // check is charged as one iteration, so `--max-iterations` bounds thousands of
            // levels as the clock does.
            try checkClock()
            guard meter.spend() else { throw .budgetExceeded }
            let costs = program.levelCosts(rows: rowsOfLevel[level])
            guard case .optimal = try engine.minimize(costs: costs, meter: &meter) else {
                throw .internalFailure("level \(level) unbounded")
            }
            let y = engine.duals(costs: costs)
            var optimum = Rational.zero
            for (column, cost) in costs { optimum.addProduct(cost, engine.value(of: column)) }
            for entry in y { bitWidths.record(entry.value) }
            levelCosts.append(costs)
            levelDuals.append(y)
            optima.append(optimum)
            #if LAYOUTBENCH_FAULTS
            let fixesFlat = level == levelCount && PlantedFault.isActive(.exactFixesFlatColumns)
            #else
            let fixesFlat = false
            #endif
            fixedAtLevel.append(engine.fixPositiveReducedCosts(duals: y, costs: costs, includingFlat: fixesFlat))
        }

        phases.levels += clock.lap()

        // Determined and ambiguous unknowns (§5.3) on the final optimal face.
        let ambiguous = try ambiguousUnknowns(engine)
        absorb(engine)
        phases.ambiguity += clock.lap()

        let values = engine.unknownValues
        let objective = try levelErrors(at: values, kept: Set(kept), expected: optima)
        for value in values { bitWidths.record(value) }

        var levelCertificates: [SolutionCertificate.Level] = []
        var dualLevels = DualLevels(
            program: program, costs: levelCosts, duals: levelDuals, optima: optima, fixedAtLevel: fixedAtLevel)
        for k in 0..<levelCount {
            try checkClock()
            guard meter.spend() else { throw .budgetExceeded }
            levelCertificates.append(dualLevels.certificate(level: k + 1))
        }
        phases.levels += clock.lap()
        let broken = brokenCertificates.map(\.constraint)
        let status: SolveStatus = broken.isEmpty ? .optimal : .unsatisfiable
        let solution = Solution(
            status: status, values: values.map(\.doubleValue), objective: objective.map(\.doubleValue),
            ambiguous: ambiguous.map { Unknown(variable: $0) }, broken: broken, conflict: conflict,
            exactValues: values.map(\.description), exactObjective: objective.map(\.description))
        var certificate = SolutionCertificate(
            status: status, broken: brokenCertificates, conflict: conflictCertificate, levels: levelCertificates)
        if var conflictCertificate = certificate.conflict, let first = broken.first, !conflictCertificate.independentRows {
            // The solution itself satisfies every kept constraint, hence the conflict less
            // its first broken member.
            conflictCertificate.witnesses.append(
                SolutionCertificate.Witness(omitted: first, values: values.map(\.description)))
            conflictCertificate.witnesses.sort { $0.omitted < $1.omitted }
            certificate.conflict = conflictCertificate
        }
        return (solution, certificate)
    }

    // MARK: Feasibility

    /// The rows in the order the crash basis should consider them (see ``SimplexEngine``).
    static func crashOrder(_ program: LinearProgram) -> [Int] {
        let rows = program.rows
        let indices = rows.indices
        let requiredEqualities = indices.filter { rows[$0].level == 0 && rows[$0].relation == .equal }
        let optional = indices.filter { rows[$0].level > 0 }.sorted {
            (rows[$0].level, rows[$0].relation == .equal ? 0 : 1, $0) < (rows[$1].level, rows[$1].relation == .equal ? 0 : 1, $1)
        }
        let requiredInequalities = indices.filter { rows[$0].level == 0 && rows[$0].relation != .equal }
        return requiredEqualities + optional + requiredInequalities
    }

    /// A feasible basis of the LP of `rows` (system row indices, ascending), or nil.
    mutating func feasibleEngine(rows: [Int]) throws(SolveInterruption) -> SimplexEngine? {
        switch try check(rows) {
        case .feasible(let engine): return engine
        case .infeasible: return nil
        }
    }

    enum CheckOutcome {
        case feasible(SimplexEngine)
        /// Multipliers `λ` by system row (nonzero only), in the certificate's convention,
        /// and the engine where phase one ended.
        case infeasible([Int: Rational], SimplexEngine)
    }

    /// Phase one on the LP of `rows`, from a crash basis.
    mutating func check(_ rows: [Int]) throws(SolveInterruption) -> CheckOutcome {
        try checkClock()
        feasibilityChecks += 1
        var engine = try crashEngine(rows)
        try checkClock()
        let farkas = try engine.makeFeasible(meter: &meter)
        absorb(engine)
        guard let y = farkas else { return .feasible(engine) }
        return .infeasible(try Self.farkasMultipliers(y, program: engine.program, bitWidths: &bitWidths), engine)
    }

    /// The LP of `rows` (system row indices, ascending) at its crash basis.
    func crashEngine(_ rows: [Int]) throws(SolveInterruption) -> SimplexEngine {
        let program = LinearProgram(system: lowered, selected: rows)
        return try SimplexEngine(program: program, order: Self.crashOrder(program))
    }

    /// The engine's Farkas vector `y` (by LP row, `yᵀb > 0` with `b = −c`) as the
    /// certificate's `λ = −y` by system row (`λᵀc > 0`).
    static func farkasMultipliers(
        _ y: [Rational], program: LinearProgram, bitWidths: inout BitWidths
    ) throws(SolveInterruption) -> [Int: Rational] {
        var multipliers: [Int: Rational] = [:]
        for (r, value) in y.enumerated() where !value.isZero {
            guard program.rows[r].level == 0 else {
                throw .internalFailure("a Farkas multiplier on an optional row")
            }
            #if LAYOUTBENCH_FAULTS
            if PlantedFault.isActive(.exactFarkasSign) && program.rows[r].relation == .greaterThanOrEqual {
                multipliers[program.rows[r].systemRow] = value
                continue
            }
            #endif
            multipliers[program.rows[r].systemRow] = -value
            bitWidths.record(value)
        }
        return multipliers
    }

    /// The greedy walk over `required` in file order: a constraint is kept iff it is
    /// feasible with those kept before it.
    ///
    /// One LP of every required row, warm-started throughout: rows are dropped
    /// (``SimplexEngine/dropRow(_:)``) and restored, and phase one goes on from where it
    /// stopped. The LP holds the kept rows K and the next rows of the walk, P; the rows after
    /// P are dropped. It starts from the LP's crash basis with the first rows in. While
    /// K ∪ P is feasible, P is kept and the next rows come in, twice as many each time. When
    /// it is infeasible, the Farkas multipliers' last row m in P bounds the first broken row
    /// r: K with P up to m is infeasible. Dropping m and everything after it, phase one
    /// either succeeds (then r = m, broken, with those multipliers as its certificate) or
    /// gives multipliers whose last row comes before m, and so on down.
    ///
    /// Each phase one thus meets about one conflict. A cold check per probe of a binary
    /// search over prefixes cost a factorisation of the whole LP for each of log n probes per
    /// broken row, and restoring every later row at once had phase one work through every
    /// later conflict again for each broken row: n² on a family that breaks a row in every
    /// few dozen (`cassowary-benchmark`).
    ///
    /// The first broken row's certificate is a cold check of the rows up to it, as the
    /// conflict's deletion filter starts from its support: the conflict is the one a walk of
    /// cold checks gives. The others' certificates are the warm multipliers (as valid, not
    /// necessarily the same).
    mutating func requiredWalk(_ required: [Int]) throws(SolveInterruption)
        -> (kept: [Int], broken: [(row: Int, farkas: [Int: Rational])])
    {
        // LP row k is `required[k]` (``LinearProgram/init(system:selected:)`` keeps the order).
        // From the crash basis with only the first rows in: phase one over every row would
        // work through every conflict at once (most of `random`'s walk).
        try checkClock()
        var engine = try crashEngine(required)
        var kept: [Int] = []
        var broken: [(row: Int, farkas: [Int: Rational])] = []
        // K is `required[..<start]` less the broken rows; P is `required[start..<included]`.
        var start = 0
        var chunk = Self.firstWalkChunk
        var included = min(chunk, required.count)
        for p in included..<required.count { engine.dropRow(p) }
        var y = try phaseOne(&engine)
        while true {
            guard var multipliers = y else {
                kept += required[start..<included]
                start = included
                guard included < required.count else { break }
                let end = min(required.count, included + chunk)
                for p in included..<end { engine.restoreRow(p) }
                included = end
                chunk *= 2
                y = try phaseOne(&engine)
                continue
            }
            var last = try Self.lastRow(of: multipliers, from: start)
            while true {
                for p in last..<included { engine.dropRow(p) }
                included = last
                guard let smaller = try phaseOne(&engine) else { break }
                multipliers = smaller
                last = try Self.lastRow(of: multipliers, from: start)
            }
            kept += required[start..<last]
            var certificate = try Self.farkasMultipliers(multipliers, program: engine.program, bitWidths: &bitWidths)
            if broken.isEmpty {
                guard case .infeasible(let cold, _) = try check(Array(required[...last])) else {
                    throw .internalFailure("the first broken row is feasible with the rows before it")
                }
                certificate = cold
            }
            broken.append((required[last], certificate))
            // K ∪ P is the feasible LP phase one just ended on; the broken row stays dropped.
            start = last + 1
            included = last + 1
            chunk = Self.firstWalkChunk
            y = nil
        }
        return (kept, broken)
    }

    /// How many rows the walk takes in after a broken one (then twice as many each time).
    static let firstWalkChunk = 32

    /// Phase one on `engine` from its basis: nil when feasible, else its Farkas vector by LP
    /// row.
    private mutating func phaseOne(_ engine: inout SimplexEngine) throws(SolveInterruption) -> [Rational]? {
        try checkClock()
        feasibilityChecks += 1
        let refactorizationsBefore = engine.refactorizations
        let farkas = try engine.makeFeasible(meter: &meter)
        refactorizations += engine.refactorizations - refactorizationsBefore
        bitWidths.record(engine.bitWidths)
        return farkas
    }

    /// The last LP row a Farkas vector names, which is at or after `start` (the rows before
    /// it are feasible together).
    private static func lastRow(of y: [Rational], from start: Int) throws(SolveInterruption) -> Int {
        guard let last = y.lastIndex(where: { !$0.isZero }), last >= start else {
            throw .internalFailure("Farkas multipliers on the kept rows alone")
        }
        return last
    }

    /// An irreducible infeasible subset containing `first`: the support of `farkas` (which
    /// contains `first`, as the constraints kept before it are feasible) when its rows are
    /// linearly independent, else what a deletion filter leaves of it. Returns its members in
    /// file order, its Farkas multipliers and how its irreducibility is shown: by independent
    /// rows, or for each member but `first` a point satisfying all the others.
    ///
    /// Independent rows (coefficients and constant together) admit one Farkas vector up to
    /// scale, so no proper subset has one and each is feasible: the filter would keep every
    /// member, and one elimination over the support replaces a check per member. A chain
    /// against a pinned end (`conflict-late`) is such a support, as long as the layout.
    ///
    /// A conflict can be as long as the layout (a chain against a pinned end), so the
    /// checks are warm-started: phase one over the members ends at an infeasible basis,
    /// and each candidate is tried from a copy of it with the candidate's row dropped
    /// (its auxiliary column made free), usually a pivot or two instead of a crash and a
    /// factorization. Only when the rest is still infeasible is it checked from scratch,
    /// so the certificate, and hence the conflict, is the one a cold check gives.
    mutating func irreducibleConflict(_ first: Int, farkas: [Int: Rational]) throws(SolveInterruption)
        -> (members: [Int], farkas: [Int: Rational], irreducibility: SolutionCertificate.Irreducibility)
    {
        // The planted stale witness lives on the filter's path: it must stay reachable.
        #if LAYOUTBENCH_FAULTS
        let filterOnly = conflictProof == .witnesses || PlantedFault.isActive(.exactStaleWitness)
        #else
        let filterOnly = conflictProof == .witnesses
        #endif
        if !filterOnly, supportIsIndependent(farkas.keys) {
            return (farkas.keys.sorted(), farkas, .independentRows)
        }
        var certificate = farkas
        var members = Set(farkas.keys)
        var witnesses: [SolutionCertificate.Witness] = []
        // Phase one's end over the current members, and the LP row of each member there.
        var base: (engine: SimplexEngine, rowOf: [Int: Int])?
        for candidate in farkas.keys.sorted() where candidate != first && members.contains(candidate) {
            let start: (engine: SimplexEngine, rowOf: [Int: Int])
            if let base {
                start = base
            } else {
                guard case .infeasible(_, let engine) = try check(members.sorted()) else {
                    throw .internalFailure("a conflict with its Farkas multipliers is feasible")
                }
                var rowOf: [Int: Int] = [:]
                for (r, row) in engine.program.rows.enumerated() { rowOf[row.systemRow] = r }
                start = (engine, rowOf)
                base = start
            }
            guard let row = start.rowOf[candidate] else { throw .internalFailure("conflict member \(candidate) not in its LP") }
            try checkClock()
            feasibilityChecks += 1
            var probe = start.engine
            probe.dropRow(row)
            let farkas = try probe.makeFeasible(meter: &meter)
            absorb(probe, since: start.engine)
            if farkas == nil {
                #if LAYOUTBENCH_FAULTS
                let witness = PlantedFault.isActive(.exactStaleWitness) ? start.engine.unknownValues : probe.unknownValues
                #else
                let witness = probe.unknownValues
                #endif
                witnesses.append(SolutionCertificate.Witness(omitted: candidate, values: witness.map(\.description)))
                continue
            }
            guard case .infeasible(let smaller, _) = try check(members.subtracting([candidate]).sorted()) else {
                throw .internalFailure("feasibility of the conflict less \(candidate) differs between checks")
            }
            certificate = smaller
            members = Set(smaller.keys)
            base = nil
        }
        guard members.contains(first) else { throw .internalFailure("the conflict lost its broken constraint") }
        witnesses.removeAll { !members.contains($0.omitted) }

        return (members.sorted(), certificate, .witnesses(witnesses))
    }

    /// Whether the lowered rows of `support` (each with its constant) are linearly
    /// independent, decided within a few times their entries' count of elimination work
    /// (else false: the deletion filter decides instead).
    private func supportIsIndependent(_ support: some Collection<Int>) -> Bool {
        let constantColumn = lowered.variableCount
        var rows: [LinearIndependence.SparseRow] = []
        rows.reserveCapacity(support.count)
        var entries = 0
        for r in support.sorted() {
            let row = lowered.rows[r]
            var sparse: LinearIndependence.SparseRow = row.terms.map { ($0.variable, $0.coefficient) }
            sparse.append((constantColumn, row.constant))
            entries += sparse.count
            rows.append(sparse)
        }
        return LinearIndependence.areIndependent(rows, workLimit: 64 * entries + 4096) == true
    }

    static func farkasCertificate(_ multipliers: [Int: Rational]) -> SolutionCertificate.Farkas {
        SolutionCertificate.Farkas(multipliers: multipliers.sorted { $0.key < $1.key }.map {
            SolutionCertificate.Multiplier(constraint: $0.key, value: $0.value.description)
        })
    }

    // MARK: Determined and ambiguous unknowns

    /// The unknowns that are not constant on the final optimal face (ascending).
    ///
    /// On the face, `x_B = β − Σ_J (B⁻¹A_j) x_j` over the nonbasic columns `J` still free to
    /// move (free unknowns, and nonnegative columns not fixed by a level). An unknown that
    /// no column of `J` reaches is determined; one reached by a column that can take a
    /// positive step (no degenerate basic variable blocks it) is ambiguous.
    ///
    /// Optimal faces of layouts are highly degenerate: a hug/resist pair that both hold
    /// (`w ≤ 181`, `w ≥ 181`) leaves one error column nonbasic and free to move but blocked
    /// by the other's basic error column at zero, and the test above could not decide the
    /// `w` it reaches. So first the columns that are zero on the whole face are found by
    /// propagation (``columnsZeroOnFace``) and dropped from `J`: with them gone, most such
    /// unknowns are reached by nothing. Only the unknowns still reached solely by blocked
    /// columns need their minimum and maximum over the face, each a warm-started LP; any
    /// point such an LP reaches that moves other unknowns shows those ambiguous too.
    mutating func ambiguousUnknowns(_ engine: SimplexEngine) throws(SolveInterruption) -> [Int] {
        // A copy for the column solves (their work vectors); the engine itself is unchanged.
        var solver = engine
        let program = engine.program
        var ambiguous = Set<Int>()
        var suspect = Set<Int>()
        if determinacy == .minimumAndMaximum {
            // The cross-check: two LPs per unknown, no shortcut.
            for unknown in 0..<program.unknownCount where try !isConstantOnFace(unknown, engine) {
                ambiguous.insert(unknown)
            }
            return ambiguous.sorted()
        }
        #if LAYOUTBENCH_FAULTS
        // The fault: the slacks of required upper bounds move, even where a level fixed them.
        let movable = engine.movableNonbasicColumns + (!PlantedFault.isActive(.exactUpperBoundShortcut) ? [] : program.rows.indices.filter {
            program.rows[$0].level == 0 && program.rows[$0].relation == .lessThanOrEqual
                && engine.slotOf[program.firstAuxiliary[$0]] < 0 && engine.excluded[program.firstAuxiliary[$0]]
        }.map { program.firstAuxiliary[$0] })
        #else
        let movable = engine.movableNonbasicColumns
        #endif
        let zero = try columnsZeroOnFace(engine, movable: movable, solver: &solver)
        for j in movable where !zero[j] {
            try checkClock()
            let alpha = solver.column(j)
            var reached: [Int] = j < program.unknownCount ? [j] : []
            for entry in alpha where engine.basis[entry.index] < program.unknownCount {
                reached.append(engine.basis[entry.index])
            }
            if reached.isEmpty { continue }
            let canMove = engine.canMove(alpha: alpha, direction: 1)
                || (program.kinds[j] == .free && engine.canMove(alpha: alpha, direction: -1))
            if canMove { ambiguous.formUnion(reached) } else { suspect.formUnion(reached) }
        }
        for unknown in suspect.subtracting(ambiguous).sorted() where !ambiguous.contains(unknown) {
            if let moved = try unknownsMovedOnFace(by: unknown, engine) { ambiguous.formUnion(moved) }
        }
        return ambiguous.sorted()
    }

    /// Marks the columns of `movable` (nonbasic) that are zero at every point of the face,
    /// by propagation over the degenerate rows.
    ///
    /// A basic variable `x_b` at zero reads `x_b = −Σ_J α_bj x_j` on the face. When
    /// `x_b ≥ 0` and every column still in that sum is nonnegative with `α_bj > 0`, the sum
    /// can only stay at zero, so each of those columns is zero on the whole face; for an
    /// artificial (`x_b = 0`) the same holds when the `α_bj` share a sign. Dropping them
    /// can leave other rows one-signed, so this runs to a fixpoint over a worklist. Every
    /// column it marks is truly zero on the face (the test is sound, not complete).
    ///
    /// The coefficients `α_bj` are read by rows, one tableau row per degenerate slot
    /// (``SimplexEngine/tableauRow(slot:wanted:)``), not by one FTRAN per movable column:
    /// a layout's degenerate rows are hug/resist pairs a few rows wide, while the columns
    /// reach down whole chains (`form`, `centered`, `table-cells`: every movable column was
    /// zero on the face, and their FTRANs summed to a quarter of the rows each, quadratic).
    /// The fixpoint does not depend on the order rows are visited in.
    func columnsZeroOnFace(_ engine: SimplexEngine, movable: [Int], solver: inout SimplexEngine) throws(SolveInterruption) -> [Bool] {
        let program = engine.program
        var zero = [Bool](repeating: false, count: program.columnCount)
        var degenerate = [Bool](repeating: false, count: program.rowCount)
        for (slot, column) in engine.basis.enumerated() {
            switch program.kinds[column] {
            case .free: break
            case .nonnegative: degenerate[slot] = engine.basicValues[slot].isZero
            case .fixedZero: degenerate[slot] = true
            }
        }
        // The terms of each degenerate row, and the degenerate rows of each column.
        var terms = [[(column: Int, positive: Bool)]](repeating: [], count: program.rowCount)
        var rowsOf = [[Int]](repeating: [], count: movable.count)
        // The updates are factorized away first when the rows would read them more than a
        // factorization costs: after a level's long step, `form` at 10,000 views carried an
        // update of 30,000 entries into each of its 10,000 degenerate rows (a third of its solve).
        if solver.prefersRefactorization(beforeSolves: degenerate.lazy.filter { $0 }.count) { try solver.refactorize() }
        var indexOf = [Int: Int]()
        var wanted = [Bool](repeating: false, count: program.columnCount)
        for (k, j) in movable.enumerated() {
            indexOf[j] = k
            wanted[j] = true
        }
        for slot in 0..<program.rowCount where degenerate[slot] {
            try checkClock()
            for entry in solver.tableauRow(slot: slot, wanted: wanted) {
                terms[slot].append((entry.index, entry.value.sign > 0))
                if let k = indexOf[entry.index] { rowsOf[k].append(slot) }
            }
        }
        var pending = (0..<program.rowCount).filter { degenerate[$0] && !terms[$0].isEmpty }
        var queued = [Bool](repeating: false, count: program.rowCount)
        for slot in pending { queued[slot] = true }
        #if LAYOUTBENCH_FAULTS
        let signSlip = PlantedFault.isActive(.exactZeroFaceSign)
        #else
        let signSlip = false
        #endif
        while let slot = pending.popLast() {
            queued[slot] = false
            var positive = 0, negative = 0
            for term in terms[slot] where !zero[term.column] {
                if program.kinds[term.column] == .free {
                    positive = -1
                    break
                }
                if term.positive { positive += 1 } else { negative += 1 }
            }
            guard positive >= 0 else { continue }
            let artificial = program.kinds[engine.basis[slot]] == .fixedZero
            let forced = (negative == 0 && positive > 0) || ((artificial || signSlip) && positive == 0 && negative > 0)
            guard forced else { continue }
            for term in terms[slot] where !zero[term.column] {
                zero[term.column] = true
                guard let k = indexOf[term.column] else { continue }
                for other in rowsOf[k] where !queued[other] {
                    queued[other] = true
                    pending.append(other)
                }
            }
        }
        return zero
    }

    /// Whether `unknown` has one value on the face: its minimum and maximum both equal the
    /// current value.
    mutating func isConstantOnFace(_ unknown: Int, _ engine: SimplexEngine) throws(SolveInterruption) -> Bool {
        try unknownsMovedOnFace(by: unknown, engine) == nil
    }

    /// Nil when `unknown` has one value on the face (its minimum and maximum both equal the
    /// current value); else the unknowns that differ from the current point at the
    /// minimum or maximum found (which include `unknown`).
    mutating func unknownsMovedOnFace(by unknown: Int, _ engine: SimplexEngine) throws(SolveInterruption) -> Set<Int>? {
        let current = engine.value(of: unknown)
        for sign in [Rational.one, -Rational.one] {
            try checkClock()
            determinacyPrograms += 1
            var probe = engine
            let outcome = try probe.minimize(costs: [unknown: sign], meter: &meter)
            absorb(probe, since: engine)
            guard case .optimal = outcome else { return [unknown] }
            if probe.value(of: unknown) != current {
                var moved: Set<Int> = [unknown]
                for other in 0..<engine.program.unknownCount where probe.value(of: other) != engine.value(of: other) {
                    moved.insert(other)
                }
                return moved
            }
        }
        return nil
    }

    /// Throws ``SolveInterruption/budgetExceeded`` once the wall-clock budget is spent.
    /// Pivots are charged to the meter, which reads the clock every few of them; this is
    /// for the long stretches without pivots (factorizations, feasibility checks of the
    /// required walk and the conflict, determinacy columns), so that a solve overruns its
    /// time budget by at most one such step.
    func checkClock() throws(SolveInterruption) {
        if meter.isOutOfTime { throw .budgetExceeded }
    }

    // MARK: Objective and certificates

    /// E(p) per level at `values`, computed from the rows; it must equal the simplex's optima.
    func levelErrors(at values: [Rational], kept: Set<Int>, expected: [Rational]) throws(SolveInterruption) -> [Rational] {
        var errors = [Rational](repeating: .zero, count: lowered.levels.count)
        for (index, row) in lowered.rows.enumerated() {
            if row.isRequired {
                if kept.contains(index) && !row.holds(at: values) { throw .internalFailure("kept constraint \(index) violated") }
                continue
            }
            let d = row.value(at: values)
            let error: Rational
            switch row.relation {
            case .equal: error = d.magnitude
            case .lessThanOrEqual: error = d.sign > 0 ? d : .zero
            case .greaterThanOrEqual: error = d.sign < 0 ? -d : .zero
            }
            errors[row.level - 1] += error
        }
        guard errors == expected else { throw .internalFailure("error sums \(errors) differ from the optima \(expected)") }
        return errors
    }
}
