import BackendContract
import LayoutModel

/// Adds every row of a pooled system to a solver in the one-shot order
/// (``CassowaryBackend/linksPulledForward(_:_:)`` of the walk's order) and keeps the verdicts
/// of §5.1's walk: the one-shot solve's additions, and the incremental path's when it builds
/// its solver (the first pass of a sequence, or a relabelling).
///
/// The walk (spec §5.1) is defined in the file's order: a required row that conflicts with
/// the required rows held before it in the file is broken. Pulled forward, a link can be
/// added before rows that come before it in the file. So when a required row fails, the
/// required rows added so far (held or broken) must be exactly those before it in the file,
/// as the walk has them there. Where they are not (a link from further on is held, or the
/// failing row is a link moved ahead of rows before it), the links from further on are
/// removed again, and the rest goes in in the walk's order, so the failing row meets the rows
/// the walk has there. A row held with a link from further on would be held without it too
/// (fewer rows hold together), so no verdict given before changes.
///
/// A broken row's explanation names only rows before it in the file: when it is judged,
/// every required row before it has been added and none after it.
struct AdditionWalk {
    /// The walk's order (``CassowaryBackend/walkOrder(_:)``), where a taken-back link goes.
    private let walk: [Int]
    /// What is left to add, from ``position`` on.
    private var queue: [Int]
    private var position = 0
    /// The rows in the order they were added: an entry is -1 once its link is taken back.
    private var added: [Int] = []
    /// The required rows held (as row indices), in the order added; -1 for a link taken back.
    private var keptRequired: [Int] = []
    /// For each handle id, the place of its row in ``keptRequired`` (-1: an optional row or a
    /// link taken back). Ids are reused after a removal, so a place is written at every
    /// addition.
    private var keptPlace: [Int] = []
    /// For each row, the id of the handle it is held under (-1: not held).
    private(set) var handleOf: [Int32]
    /// For each held required row, its entry in ``added`` (for taking a link back).
    private var entryOf: [Int32]
    /// The required rows found broken, in the order found.
    private(set) var brokenRows: [Int] = []
    // The walk's verdicts hold where the required rows added so far (held or broken) are
    // exactly the ones before the failing row in the file: as many as come before it
    // (`requiredBefore`, counted at the first failure) and none after it.
    private var requiredAdded = 0
    private var latestRequired = -1
    private var requiredBefore: [Int32] = []
    /// Whether the last row added was required (true before the first).
    private var inRequiredRun = true
    /// Rows added (or found broken) so far, required and optional, counted in
    /// ``addUntilBroken(to:_:strengths:rebuildFactor:runChanged:)`` (a row added again after a link was
    /// taken back counts again).
    private(set) var rowsAdded = (required: 0, optional: 0)

    /// A walk over `linear`'s rows, from its first row.
    init(_ linear: PooledLinearSystem) {
        walk = CassowaryBackend.walkOrder(linear)
        queue = CassowaryBackend.linksPulledForward(walk, linear)
        handleOf = [Int32](repeating: -1, count: linear.rows.count)
        entryOf = [Int32](repeating: -1, count: linear.rows.count)
        added.reserveCapacity(linear.rows.count)
        keptPlace.reserveCapacity(linear.rows.count)
    }

    /// The rows added, in order: those held and the broken ones (a link taken back counts at
    /// its second addition).
    var order: [Int] { added.filter { $0 >= 0 } }

    /// The required rows held, in the order they were added.
    var heldRequired: [Int] { keptRequired.filter { $0 >= 0 } }

    /// The held required rows an explanation of the solver's names.
    func rows(of explanation: [ConstraintHandle]) -> [Int] {
        explanation.compactMap { handle in
            handle.id < keptPlace.count && keptPlace[handle.id] >= 0 ? keptRequired[keptPlace[handle.id]] : nil
        }
    }

    /// Adds rows until one is found broken (returning it and the solver's explanation) or
    /// every row is in (nil). `strengths[level]` is the strength a row at `level` is added at
    /// (index 0: required). `runChanged` is told when the rows go from required to optional
    /// or back, with ``rowsAdded`` then, for the caller's account of where the time went
    /// (``WalkTimeSplit``). With a `rebuildFactor`, the solver's rows are rebuilt between
    /// additions when its walks outgrow them (``CassowarySolver/rebuildIfWalksOutgrewRows(factor:)``).
    ///
    /// - Throws: the solver's errors other than a conflict (a budget running out); the walk
    ///   can go on after none of them.
    mutating func addUntilBroken(
        to solver: inout CassowarySolver, _ linear: PooledLinearSystem, strengths: [Strength],
        rebuildFactor: Int = 0,
        runChanged: (_ rowsAdded: (required: Int, optional: Int)) -> Void = { _ in }
    ) throws(CassowaryError) -> (row: Int, explanation: [ConstraintHandle])? {
        while position < queue.count {
            solver.rebuildIfWalksOutgrewRows(factor: rebuildFactor)
            let index = queue[position]
            position += 1
            let row = linear.rows[index]
            if row.isRequired != inRequiredRun {
                inRequiredRun = row.isRequired
                runChanged(rowsAdded)
            }
            if row.isRequired { rowsAdded.required += 1 } else { rowsAdded.optional += 1 }
            let strength = strengths[row.level]
            guard row.isRequired else {
                let handle = try solver.addConstraint(
                    linear.terms[row.termRange], constant: row.constant, relation: row.relation, strength: strength)
                keep(handle, at: -1)
                handleOf[index] = Int32(handle.id)
                added.append(index)
                continue
            }
            do {
                let handle = try solver.addConstraint(
                    linear.terms[row.termRange], constant: row.constant, relation: row.relation, strength: strength)
                keep(handle, at: keptRequired.count)
                keptRequired.append(index)
                handleOf[index] = Int32(handle.id)
                entryOf[index] = Int32(added.count)
                added.append(index)
                requiredAdded += 1
                latestRequired = max(latestRequired, index)
            } catch .unsatisfiable(let explanation) {
                if requiredBefore.isEmpty { requiredBefore = Self.requiredRowsBefore(linear) }
                if latestRequired > index || requiredAdded != requiredBefore[index] {
                    try takeBackLinks(after: index, from: &solver)
                    continue
                }
                brokenRows.append(index)
                added.append(index)
                requiredAdded += 1
                latestRequired = max(latestRequired, index)
                return (index, explanation)
            }
        }
        return nil
    }

    /// Back to the walk's order from the failing row `index` on: takes the links from further
    /// on back, then queues what is left in the walk's order (the failing row included).
    private mutating func takeBackLinks(after index: Int, from solver: inout CassowarySolver) throws(CassowaryError) {
        for place in keptRequired.indices where keptRequired[place] > index {
            let link = keptRequired[place]
            try solver.removeConstraint(ConstraintHandle(id: Int(handleOf[link])))
            keptPlace[Int(handleOf[link])] = -1
            keptRequired[place] = -1
            handleOf[link] = -1
            requiredAdded -= 1
            added[Int(entryOf[link])] = -1
        }
        latestRequired = keptRequired.max() ?? -1
        var isAdded = [Bool](repeating: false, count: handleOf.count)
        // `added` holds the broken rows too (they were walked).
        for entry in added where entry >= 0 { isAdded[entry] = true }
        queue = walk.filter { !isAdded[$0] }
        position = 0
    }

    private mutating func keep(_ handle: ConstraintHandle, at place: Int) {
        if handle.id == keptPlace.count { keptPlace.append(place) } else { keptPlace[handle.id] = place }
    }

    /// For each row, how many required rows come before it in the file.
    static func requiredRowsBefore(_ linear: PooledLinearSystem) -> [Int32] {
        var before = [Int32](repeating: 0, count: linear.rows.count)
        var count: Int32 = 0
        for index in linear.rows.indices {
            before[index] = count
            if linear.rows[index].isRequired { count += 1 }
        }
        return before
    }
}

/// Splits the time of the one-shot solve's additions between the required rows (the `solve`
/// phase) and the optional ones (`levels`) without reading the clock at every switch
/// between them.
///
/// Where the two interleave (`cassowary-benchmark`, `random`) the rows switch every row or
/// two, and a lap of the clock at each switch, with the code it runs, slowed the additions
/// between. On `cassowary-benchmark` at 100 views (perf samples in one process) the
/// additions took 1.37 times as long as the core adding the same rows, against 1.17 with no
/// laps at all; over three alternating runs the whole one-shot solve went from 2.21 times
/// the core to 1.98 with this split. So the clock is read at a switch only once ``lapRows``
/// rows have gone in since the last lap, and a lap's time is split between the phases in
/// proportion to the rows of each kind it covers: as measured where runs are long, an
/// estimate by rows where they interleave.
struct WalkTimeSplit {
    /// Rows between laps at least (but for the laps at a conflict and at the end).
    static let lapRows = 64

    private var charged = (required: 0, optional: 0)
    private var seen = (required: 0, optional: 0)

    /// Records the walk's ``AdditionWalk/rowsAdded``.
    mutating func note(_ rowsAdded: (required: Int, optional: Int)) { seen = rowsAdded }

    /// Whether enough rows went in since the last lap for another.
    var isDue: Bool { seen.required + seen.optional - charged.required - charged.optional >= Self.lapRows }

    /// Charges `lap` (the time since the last lap) to `solve` and `levels` by the rows noted
    /// since then; all of it to `solve` when no optional row was among them (or no row at
    /// all: a lap at a conflict found at once).
    mutating func charge(_ lap: Duration, to phases: inout SolvePhases) {
        let required = seen.required - charged.required
        let optional = seen.optional - charged.optional
        charged = seen
        guard optional > 0 else {
            phases.solve += lap
            return
        }
        let requiredPart = lap * (Double(required) / Double(required + optional))
        phases.solve += requiredPart
        phases.levels += lap - requiredPart
    }
}
