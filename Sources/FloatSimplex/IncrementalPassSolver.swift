import BackendContract
import ExactArithmetic
import LayoutModel

/// Solves an update sequence (spec §7) pass by pass through one long-lived
/// ``CassowarySolver``, never re-solving from scratch: what an app's layout engine does.
///
/// Each step's ``SystemChange``s map to the incremental API: a changed constant (a `set …
/// constant`, an intrinsic size, every row naming the root on `set root`) shifts the row's
/// marker (``CassowarySolver/setConstants(_:)``, one re-optimisation for all of a pass's
/// changes); a removal is `removeConstraint`; an addition is `addConstraint` of the newly
/// lowered row; a priority change removes the row and adds it at its new level.
///
/// The answer of every pass is that of a fresh solve of the pass's system, including §5.1's
/// greedy walk of the required constraints: the solver holds exactly the required
/// constraints a walk in file order keeps. Whenever a required constraint changed, was
/// removed or added while some required one is not held, the walk is repaired: each
/// required constraint not held, in file order, is added; when it fails with a conflict that
/// names held constraints *after* it in file order, those are taken out (to be walked again
/// after it) and it is tried again; when the conflict names only earlier ones, it is broken.
///
/// Solver variables are stable across passes: view `k` (the k-th ever declared, 1-based)
/// owns variables `4(k−1)…4(k−1)+3`, whatever its position after removals. Levels are
/// labels with gaps in priority order (only the order matters to the solver); a priority
/// that finds no gap between its neighbours relabels everything by rebuilding the solver.
public struct IncrementalPassSolver: Sendable {
    /// One constraint of the current system, at the same position.
    struct Entry: Sendable {
        /// The row the solver holds for it (or would hold: a broken one), constant shifts
        /// applied; its strength is the priority's level label.
        var row: LinearConstraint
        /// The priority as written: a pass compares it with the new system's to find
        /// priority changes, and counts the held constraints per priority by it.
        var priority: Priority
        /// Nil for a required constraint that is broken (or not yet walked).
        var handle: ConstraintHandle?
        /// Added by the current pass and not lowered yet.
        var isNew: Bool
        /// Names the constraint in ``RowStep``s (never reused).
        var key: Int
        /// For a broken constraint: the keys of the held constraints the solver's conflict
        /// named when it was rejected (where the conflict's filtering starts).
        var explanation: [Int] = []
        /// A constant change not yet applied to ``row`` (−Δ of the constraint's constant).
        var pendingShift = 0.0
        var hasPendingShift = false
        /// Whether ``row``'s constant was shifted (``pendingShift``) since the row was lowered:
        /// it may then differ in its last bit from lowering anew, which a new priority does.
        var hasShiftedConstant = false
        /// Whether the constraint names the root (its constant then follows the root's size).
        var namesRoot = false
        /// For a row naming the root: its constant as an exact affine function of the root's
        /// width and height (nil until a resize first needs it, and again once the
        /// constraint's own constant changes).
        var rootAffine: RootAffineConstant?

        /// A constraint just added: its row and priority are read when the pass settles.
        static func placeholder(key: Int) -> Entry {
            Entry(row: LinearConstraint([], relation: .equal), priority: .required, handle: nil, isNew: true, key: key)
        }
    }

    /// A row-level change, as a solver without this driver's walk (kiwi) would be told it.
    public enum RowStep: Sendable, Hashable {
        case add(key: Int, row: LinearConstraint)
        case remove(key: Int)
        case setConstant(key: Int, constant: Double)
    }

    /// With ``recordsRowSteps``, the row-level changes of each pass answered so far (the first
    /// pass's are its additions), for replaying the same steps on another solver.
    public private(set) var rowSteps: [[RowStep]] = []
    /// Whether ``rowSteps`` is kept.
    public var recordsRowSteps = false
    private var nextKey = 0

    /// Why a pass could not be answered.
    enum PassFailure: Error {
        case budgetExceeded
        case unsupported(String)
        case internalFailure(String)
    }

    public private(set) var solver: CassowarySolver
    private var replay: SequenceReplay
    private var entries: [Entry] = []
    /// `itemSerials[i]`: the serial of the current system's item i (the root's is 0).
    private var itemSerials: [Int]
    private var nextSerial: Int
    /// Serials of removed items, handed to new items once the solver has forgotten their
    /// variables (their constraints went with them): the variable numbers, and with them the
    /// solver's variable map, stay as large as the most items held at once.
    private var freeSerials: [Int] = []
    private var labels = PriorityLabels()
    /// How many current optional constraints have each priority.
    private var priorityCounts: [Priority: Int] = [:] {
        didSet { labelsInUse = nil }
    }
    /// The solver labels of the priorities in use, ascending (nil: recompute): read by every
    /// answer, changed only with ``priorityCounts``.
    private var labelsInUse: [Int]?
    /// False only when the last walk left no required row broken and none has lost its row or
    /// been added since: a pass that changes required constants then needs no walk (a scan of
    /// every entry otherwise; a drag at 100 views changes a required row every pass).
    private var mayHaveBroken = true
    /// ``answer()``'s scratch: the values by stable variable (entries beyond the current
    /// variables are stale and never read: no row names a variable the system lacks).
    private var stableValues: [Double] = []
    /// Positions changed by the current pass (constant, priority, new), in no order.
    private var dirty: [Int] = []
    /// Positions whose constant changed by a known amount (no lowering needed), in no order.
    private var shifted: [Int] = []
    /// Positions of rows naming the root when the root was resized this pass, in no order:
    /// each takes its new constant from its ``RootAffineConstant`` where it has one, and is
    /// lowered anew otherwise.
    private var resized: [Int] = []
    /// Whether a resized root's rows take their constants from ``RootAffineConstant``s
    /// (false: every one is lowered anew each resize, as before; tests compare the two).
    var usesRootAffine = true
    /// How many row constants a resize took from ``RootAffineConstant``s (for tests).
    private(set) var rootAffineConstantsTaken = 0
    /// Positions of held rows given a new (optional) priority this pass, in no order: each
    /// keeps its lowered row and moves to its new level in place (``reprioritise``) unless it
    /// is lowered anew anyway.
    private var reprioritised: [Int] = []
    /// Whether a new priority moves a row without lowering it anew (false: every one is
    /// lowered anew, as before; tests compare the two).
    var movesPrioritiesWithoutLowering = true
    /// How many priority changes moved a row without lowering it (for tests).
    private(set) var prioritiesMovedWithoutLowering = 0
    /// Whether a pass ends by rebuilding a tableau (its additions, mostly) left denser than
    /// twice the constraints (``CassowarySolver/refactorIfDenserThanConstraints(allowance:)``;
    /// false: never, as before; tests compare the two).
    var refactorsDenseTableau = true
    /// The rebuild's allowance (``CassowarySolver/refactorIfDenserThanConstraints(allowance:)``;
    /// tests lower it to reach the rebuild on small systems).
    var denseTableauAllowance = 1024
    private var requiredChanged = false
    /// Keys of the required constraints that this pass removed, took out or changed (held or
    /// broken): a broken constraint whose explanation names none of them, and which is not
    /// among them, still conflicts with the same held rows, and the walk does not retry it.
    private var changedRequired: Set<Int> = []
    /// The key of the entry each solver handle belongs to (by handle id; stale for ids not
    /// held, which ``position(of:)`` checks). Entries' keys ascend in file order.
    private var keyOfHandle: [Int] = []
    /// A solver call failed mid-pass: the next pass starts from a new solver.
    private var needsRebuild = true
    private let conflictFilterLimit: Int
    /// At most this many variables the ambiguity estimate leaves undecided are probed per pass.
    private let ambiguityProbeLimit: Int
    /// Whether results carry the ambiguity estimate (a walk over the whole tableau).
    public var reportsAmbiguity: Bool
    /// Whether an unsatisfiable pass's result carries the irreducible conflict of its first
    /// broken constraint (a deletion filter: one fresh solve per member). Status and broken
    /// list are always reported; a benchmark of per-step cost (kiwi reports no conflict)
    /// turns this off.
    public var reportsConflict = true
    /// Whether results carry the objective (E(level) of every level in use: each optional
    /// row evaluated, half of a drag pass at 100 views). Values, status and the broken list
    /// are always reported; a benchmark of per-step cost (kiwi computes no objective) turns
    /// this off, and its results then carry an empty objective.
    public var reportsObjective = true
    /// At least the magnitude of every literal of the current system
    /// (``ConstraintSystem/largestLiteralMagnitude``): raised by every change, recomputed
    /// only after a view is added. Reading every literal of the system each pass (what
    /// ``BackendResult/checkedRepresentable(in:backend:)`` does) was a fifth of a pass's cost.
    private var literalBound = Double.infinity
    private var literalBoundIsStale = true
    /// Scratch kept across passes, so that a pass allocates nothing but its answer: the
    /// changes of the step being followed, and the constants handed to the solver.
    private var changeBuffer: [SystemChange] = []
    /// The values array of the answer before last: by the next answer its caller has usually
    /// let go of it, and it is filled again instead of a new one being allocated (when the
    /// caller still holds it, copy-on-write makes a new one, as before).
    private var spareValues: [Double] = []
    private var lastValues: [Double] = []
    /// Whether every value of ``lastValues`` is finite and at most 2⁵⁰⁰ in magnitude.
    private var lastValuesAreSmall = false
    private var constantBuffer: [(handle: ConstraintHandle, constant: Double)] = []
    /// `valueSymbols[v]`: the tableau symbol of the current system's variable v (−1: none),
    /// so that the answer reads each value with two array reads. Made afresh when the
    /// solver's map from variables to symbols changes (``CassowarySolver/symbolMapVersion``),
    /// or this driver's from the system's variables to the solver's (``valueSymbolsAreStale``).
    private var valueSymbols: [Int32] = []
    private var valueSymbolsVersion = -1
    private var valueSymbolsAreStale = true

    /// A driver positioned before the first pass of `sequence`; ``solveNextPass(_:budget:)``
    /// with no steps answers the first pass.
    public init(
        initial: ConstraintSystem, reportsAmbiguity: Bool = true, conflictFilterLimit: Int = 256, ambiguityProbeLimit: Int = 64
    ) throws(LayoutError) {
        self.init(replay: try SequenceReplay(initial: initial), reportsAmbiguity: reportsAmbiguity,
                  conflictFilterLimit: conflictFilterLimit, ambiguityProbeLimit: ambiguityProbeLimit)
    }

    /// A driver positioned before the first pass of `sequence`, whose `updates[k]` are the
    /// steps of the (k+2)-th call of ``solveNextPass(_:budget:)``.
    public init(sequence: UpdateSequence, reportsAmbiguity: Bool = true, conflictFilterLimit: Int = 256, ambiguityProbeLimit: Int = 64) {
        self.init(replay: sequence.makeReplay(), reportsAmbiguity: reportsAmbiguity, conflictFilterLimit: conflictFilterLimit,
                  ambiguityProbeLimit: ambiguityProbeLimit)
    }

    private init(replay: SequenceReplay, reportsAmbiguity: Bool, conflictFilterLimit: Int, ambiguityProbeLimit: Int) {
        self.replay = replay
        solver = CassowarySolver()
        itemSerials = Array(replay.current.items.indices)
        nextSerial = replay.current.items.count
        self.reportsAmbiguity = reportsAmbiguity
        self.conflictFilterLimit = conflictFilterLimit
        self.ambiguityProbeLimit = ambiguityProbeLimit
    }

    /// The system of the pass last answered.
    public var current: ConstraintSystem { replay.current }

    /// Applies a pass's steps and answers the pass. A step that does not apply throws and
    /// the driver is then unusable (a validated sequence's steps always apply).
    public mutating func solveNextPass(_ steps: [UpdateStep], budget: Budget = .unlimited) throws(BackendError) -> BackendResult {
        let start = ContinuousClock.now
        let pivotsBefore = solver.pivotCount
        solver.restartBudget(budget)
        if recordsRowSteps { rowSteps.append([]) }
        var failure: PassFailure?
        var changes = changeBuffer
        changeBuffer = []  // so that `changes` is unique
        // Through a buffer pointer: iterating the array copies every step (its strings and
        // locations) on the way to `apply`, which only reads it.
        try steps.withUnsafeBufferPointer { (steps) throws(BackendError) in
            for index in steps.indices {
                if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
                do {
                    try replay.apply(steps[index], appendingTo: &changes)
                } catch {
                    throw .internalFailure(backend: "float", message: "step does not apply: \(error)")
                }
                // After a failure the replay goes on alone: the next settle starts afresh from it.
                if needsRebuild { continue }
                do throws(PassFailure) {
                    for change in changes { try follow(change) }
                } catch {
                    failure = failure ?? error
                    needsRebuild = true
                }
            }
        }
        changeBuffer = changes
        let solution: Solution
        do throws(PassFailure) {
            if let failure { throw failure }
            try settle()
            solution = try answer()
        } catch {
            needsRebuild = true
            dirty.removeAll()
            shifted.removeAll()
            resized.removeAll()
            reprioritised.removeAll()
            changedRequired.removeAll()
            switch error {
            case .budgetExceeded:
                return BackendResult(
                    solution: .budgetExceeded(variableCount: replay.current.variableCount),
                    statistics: SolveStatistics(iterations: solver.pivotCount - pivotsBefore, duration: ContinuousClock.now - start))
            case .unsupported(let why): throw .unsupported(backend: "float", reason: why)
            case .internalFailure(let why): throw .internalFailure(backend: "float", message: why)
            }
        }
        let surelyRepresentable = isSurelyRepresentable(solution.status, valuesAreSmall: lastValuesAreSmall)
        // Moved, not copied: each copy of a `Solution` goes through the runtime's value witness.
        let result = BackendResult(
            solution: consume solution,
            statistics: SolveStatistics(iterations: solver.pivotCount - pivotsBefore, duration: ContinuousClock.now - start))
        // As the one-shot solve: a point beyond Double's range is no answer.
        if surelyRepresentable { return result }
        return try result.checkedRepresentable(in: replay.current, backend: "float")
    }

    /// Whether ``BackendResult/checkedRepresentable(in:backend:)`` would pass a result of this
    /// status as it is:
    /// its common case (values up to 2⁵⁰⁰, literals up to 2²⁵⁰) is decided here from
    /// ``literalBound`` without reading the system's literals. `valuesAreSmall`: every value
    /// is known finite and at most 2⁵⁰⁰ (found while reading them).
    private mutating func isSurelyRepresentable(_ status: SolveStatus, valuesAreSmall: Bool) -> Bool {
        if literalBoundIsStale || needsRebuild {
            literalBound = replay.current.largestLiteralMagnitude
            literalBoundIsStale = false
        }
        return valuesAreSmall && status != .budgetExceeded && literalBound <= 0x1p250
            && replay.current.constraints.count < 1 << 20
    }

    // MARK: Following changes

    private mutating func follow(_ change: SystemChange) throws(PassFailure) {
        switch change {
        case .constantChanged(let index, let from, let to) where !entries[index].isNew && replay.current.rowScales.isEmpty:
            literalBound = max(literalBound, to.doubleValue.magnitude)
            // The row reads `… − constant`: it shifts by −Δ, without lowering anew (the
            // lowering's exact arithmetic is most of a pass's cost otherwise).
            entries[index].pendingShift -= to.doubleValue - from.doubleValue
            // The affine constant was taken with the old constant.
            entries[index].rootAffine = nil
            if !entries[index].hasPendingShift {
                entries[index].hasPendingShift = true
                shifted.append(index)
            }
        case .constantChanged(let index, _, let to):
            literalBound = max(literalBound, to.doubleValue.magnitude)
            entries[index].rootAffine = nil
            dirty.append(index)
        case .priorityChanged(let index, _, _):
            if movesPrioritiesWithoutLowering && !entries[index].isNew {
                reprioritised.append(index)
            } else {
                dirty.append(index)
            }
        case .rootResized(_, let to):
            literalBound = max(literalBound, to.horizontal.doubleValue.magnitude, to.vertical.doubleValue.magnitude)
            // Rows added this pass are not lowered yet (and are in ``dirty``): the rest know
            // whether they name the root, without a copy of each constraint to ask it.
            for index in entries.indices where entries[index].namesRoot && !entries[index].isNew {
                if usesRootAffine { resized.append(index) } else { dirty.append(index) }
            }
        case .constraintsRemoved(let indices):
            for index in indices {
                let entry = entries[index]
                if !entry.isNew && recordsRowSteps { trace(.remove(key: entry.key)) }
                if !entry.isNew && !entry.priority.isRequired { priorityCounts[entry.priority, default: 1] -= 1 }
                guard let handle = entry.handle else { continue }
                if entry.priority.isRequired {
                    requiredChanged = true
                    changedRequired.insert(entry.key)
                }
                if needsRebuild { continue }
                do {
                    try solver.removeConstraint(handle)
                } catch {
                    throw Self.failure(error)
                }
            }
            entries.remove(atSortedOffsets: indices)
            dirty = dirty.compactMap { position in Self.shifted(position, removing: indices) }
            shifted = shifted.compactMap { position in Self.shifted(position, removing: indices) }
            if !resized.isEmpty { resized = resized.compactMap { position in Self.shifted(position, removing: indices) } }
            if !reprioritised.isEmpty {
                reprioritised = reprioritised.compactMap { position in Self.shifted(position, removing: indices) }
            }
        case .constraintsAppended(let range):
            for index in range {
                let constraint = replay.current.constraints[index]
                literalBound = max(literalBound, constraint.constant.doubleValue.magnitude, constraint.multiplier.doubleValue.magnitude)
                if !replay.current.rowScales.isEmpty { literalBoundIsStale = true }
                entries.append(Entry.placeholder(key: nextKey))
                nextKey += 1
                dirty.append(index)
            }
        case .itemAdded:
            literalBoundIsStale = true
            valueSymbolsAreStale = true
            itemSerials.append(takeSerial())
        case .itemsRemoved(let indices):
            valueSymbolsAreStale = true
            for index in indices { freeSerials.append(itemSerials[index]) }
            itemSerials.remove(atSortedOffsets: indices)
        }
    }

    /// A serial for a new item: the last freed one whose variables the solver no longer
    /// knows (a variable it still knew would carry its old row into the new item), else a new one.
    private mutating func takeSerial() -> Int {
        while !needsRebuild, let serial = freeSerials.popLast() {
            // One still known is given up (a rare leak of four numbers), not retried.
            if (0..<4).allSatisfy({ !solver.knows(Variable(4 * (serial - 1) + $0)) }) { return serial }
        }
        nextSerial += 1
        return nextSerial - 1
    }

    private mutating func trace(_ step: RowStep) {
        rowSteps[rowSteps.count - 1].append(step)
    }

    /// Where `position` moves when the ascending `removed` go; nil if it is one of them.
    private static func shifted(_ position: Int, removing removed: [Int]) -> Int? {
        var low = 0, high = removed.count
        while low < high {
            let mid = (low + high) / 2
            if removed[mid] < position { low = mid + 1 } else { high = mid }
        }
        if low < removed.count && removed[low] == position { return nil }
        return position - low
    }

    private static func failure(_ error: CassowaryError) -> PassFailure {
        switch error {
        case .budgetExceeded: return .budgetExceeded
        default: return .internalFailure(error.description)
        }
    }

    // MARK: Settling a pass

    /// Brings the solver to the pass's system: rows lowered anew where they changed, constant
    /// changes in one batch, new optional rows added, the required walk repaired.
    private mutating func settle() throws(PassFailure) {
        let rebuilding = needsRebuild
        if needsRebuild {
            let system = replay.current
            valueSymbolsAreStale = true
            solver = CassowarySolver(budget: solver.budget)
            itemSerials = Array(system.items.indices)
            nextSerial = system.items.count
            freeSerials = []
            literalBoundIsStale = true
            labels = PriorityLabels()
            priorityCounts = [:]
            entries = system.constraints.indices.map { Entry.placeholder(key: nextKey + $0) }
            nextKey += entries.count
            dirty = Array(entries.indices)
            shifted = []
            resized = []
            reprioritised = []
            requiredChanged = true
            mayHaveBroken = true
            needsRebuild = false
        }
        var constants = constantBuffer
        constantBuffer = []  // so that `constants` is unique
        constants.removeAll(keepingCapacity: true)
        var newOptional: [Int] = []
        // Rows naming a resized root that have no affine constant yet: lowered anew below,
        // then given one, so that the next resize lowers none of them.
        var needsAffine: [Int] = []
        if !resized.isEmpty { try resizeRootRows(&constants, &needsAffine) }
        if !reprioritised.isEmpty { try reprioritise() }
        // Constant shifts alone (a drag, the keyboard, an intrinsic size) lower nothing.
        var relowered: Set<Int> = []
        if !dirty.isEmpty {
            guard try lowerDirty(&constants, &newOptional) else {
                // No gap left between two levels: relabel by building a new solver.
                needsRebuild = true
                return try settle()
            }
            if !needsAffine.isEmpty { findRootAffineConstants(needsAffine) }
            if !shifted.isEmpty { relowered = Set(dirty) }
            dirty.removeAll(keepingCapacity: true)
        }
        if !shifted.isEmpty {
            for index in shifted {
                let delta = entries[index].pendingShift
                entries[index].pendingShift = 0
                entries[index].hasPendingShift = false
                // A row lowered anew this pass already has its final constant.
                guard delta != 0, relowered.isEmpty || !relowered.contains(index) else { continue }
                entries[index].row.constant += delta
                entries[index].hasShiftedConstant = true
                if recordsRowSteps { trace(.setConstant(key: entries[index].key, constant: entries[index].row.constant)) }
                if let handle = entries[index].handle { constants.append((handle, entries[index].row.constant)) }
                if entries[index].row.strength.isRequired {
                    requiredChanged = true
                    // Read only by a walk's retries of rows broken before it: with none broken
                    // now (``mayHaveBroken`` false), no retry can depend on this change.
                    if mayHaveBroken { changedRequired.insert(entries[index].key) }
                }
            }
            shifted.removeAll(keepingCapacity: true)
        }
        try changeConstants(constants)
        constants.removeAll(keepingCapacity: true)
        constantBuffer = constants
        if rebuilding {
            try addEveryRow()
            newOptional.removeAll()
        } else if requiredChanged && mayHaveBroken {
            try walkRequired()
        }
        requiredChanged = false
        if !changedRequired.isEmpty { changedRequired.removeAll(keepingCapacity: true) }
        for index in newOptional {
            do {
                let handle = try solver.addConstraint(entries[index].row)
                entries[index].handle = handle
                noteHandle(handle, of: index)
            } catch {
                throw Self.failure(error)
            }
        }
        // Additions (the first pass's above all) write reduced rows and never refactorise: the
        // first pass of 1,000 stacked table cells left rows as long as the stack, which every
        // later constant change walked (1.6 ms a cell-reuse pass). An O(1) test unless the
        // tableau has outgrown its constraints; kept only if no value or reduced cost moves.
        // A tableau that has held a row pivoted on an element far below it (a 1e-9
        // multiplier) is rebuilt at the end of every pass, as the one-shot solve is after
        // one: its rows carry that pivot's rounding, amplified, into the answer.
        if !solver.refactorAfterSmallPivot(sinceEver: true) && refactorsDenseTableau {
            solver.refactorIfDenserThanConstraints(allowance: denseTableauAllowance)
        }
    }

    /// Lowers the rows of ``dirty`` (new, re-prioritised, or naming the resized root) and
    /// brings the solver's rows to them: constant changes go to `constants`, new optional rows
    /// to `newOptional` (added after the walk). False when a priority found no label (nothing
    /// changed then). ``dirty`` is left sorted, for the caller to clear (a shift recorded for
    /// one of its rows is already in the new row).
    private mutating func lowerDirty(
        _ constants: inout [(handle: ConstraintHandle, constant: Double)], _ newOptional: inout [Int]
    ) throws(PassFailure) -> Bool {
        let system = replay.current
        dirty.sort()
        var levels: [Int] = []
        levels.reserveCapacity(dirty.count)
        for index in dirty {
            guard let level = labels.label(for: system.constraints[index].priority) else { return false }
            levels.append(level)
        }
        var previous = -1
        for (index, level) in zip(dirty, levels) where index != previous {
            previous = index
            let row = try lowered(system.constraints[index], at: index, in: system, level: level)
            if !entries[index].isNew && entries[index].row.strength == row.strength && entries[index].row.relation == row.relation
                && entries[index].row.terms == row.terms {
                // The common case (a row naming a resized root, not yet given an affine
                // constant): only the constant can have moved. In place, without copying the
                // entry (same label, same priority).
                takeConstant(row.constant, at: index, &constants)
                continue
            }
            let constraint = system.constraints[index]
            var entry = entries[index]
            defer { entries[index] = entry }
            if entry.isNew {
                entry.isNew = false
                entry.row = row
                entry.priority = constraint.priority
                entry.namesRoot = constraint.first.item == 0 || constraint.second?.item == 0
                if recordsRowSteps { trace(.add(key: entry.key, row: row)) }
                if constraint.priority.isRequired {
                    requiredChanged = true
                    mayHaveBroken = true
                } else {
                    priorityCounts[constraint.priority, default: 0] += 1
                    newOptional.append(index)
                }
                continue
            }
            let old = entry.row
            entry.row = row
            entry.hasShiftedConstant = false
            if recordsRowSteps {
                if old.strength != row.strength || old.terms != row.terms || old.relation != row.relation {
                    trace(.remove(key: entry.key))
                    trace(.add(key: entry.key, row: row))
                } else if old.constant != row.constant {
                    trace(.setConstant(key: entry.key, constant: row.constant))
                }
            }
            if entry.priority != constraint.priority {
                priorityCounts[entry.priority, default: 1] -= 1
                priorityCounts[constraint.priority, default: 0] += 1
                entry.priority = constraint.priority
            }
            guard let handle = entry.handle else {
                if constraint.priority.isRequired {
                    requiredChanged = true
                    changedRequired.insert(entry.key)
                }
                continue
            }
            if old.terms == row.terms && old.relation == row.relation && old.strength == row.strength {
                if old.constant != row.constant {
                    constants.append((handle, row.constant))
                    // A broken constraint may hold now (the walk runs only if one is broken).
                    if constraint.priority.isRequired {
                        requiredChanged = true
                        changedRequired.insert(entry.key)
                    }
                }
                continue
            }
            if old.terms == row.terms && old.relation == row.relation && !old.strength.isRequired && !row.strength.isRequired {
                // A new optional level: moved in place (and a new constant, if any, with it).
                do {
                    try solver.setStrength(handle, to: row.strength)
                } catch {
                    throw Self.failure(error)
                }
                if old.constant != row.constant { constants.append((handle, row.constant)) }
                continue
            }
            // New terms (defensively; a step never changes them): the row goes and comes back.
            do {
                try solver.removeConstraint(handle)
            } catch {
                throw Self.failure(error)
            }
            entry.handle = nil
            if constraint.priority.isRequired {
                requiredChanged = true
                mayHaveBroken = true
                changedRequired.insert(entry.key)
            } else {
                newOptional.append(index)
            }
        }
        return true
    }

    /// Gives entry `index` (lowered, its terms, relation and level unchanged) the constant
    /// `constant`: a held row's goes to `constants`; a required row's change may let a
    /// broken one hold (the walk runs only if one is broken; its retries read
    /// ``changedRequired`` only for rows broken before it, see `settle`).
    private mutating func takeConstant(
        _ constant: Double, at index: Int, _ constants: inout [(handle: ConstraintHandle, constant: Double)]
    ) {
        let old = entries[index].row.constant
        entries[index].row.constant = constant
        entries[index].hasShiftedConstant = false
        if recordsRowSteps && old != constant { trace(.setConstant(key: entries[index].key, constant: constant)) }
        if let handle = entries[index].handle {
            guard old != constant else { return }
            constants.append((handle, constant))
            if entries[index].row.strength.isRequired {
                requiredChanged = true
                if mayHaveBroken { changedRequired.insert(entries[index].key) }
            }
        } else if entries[index].row.strength.isRequired {
            requiredChanged = true
            changedRequired.insert(entries[index].key)
        }
    }

    /// The rows of ``reprioritised`` (a new optional priority, held): each moves to its new
    /// level in place (``CassowarySolver/setStrength(_:to:)``) with its row as it is — a
    /// priority changes no term and no constant, so lowering it anew (what a priority change
    /// did before, a fifth of a priority-toggle pass) gives the same row at another level.
    /// Rows lowered anew this pass anyway, with a shift pending or taken since their lowering
    /// (lowering anew may move such a constant by its last bit), or not held go to ``dirty``;
    /// all of them do when a priority finds no label (``lowerDirty`` then relabels).
    private mutating func reprioritise() throws(PassFailure) {
        reprioritised.sort()
        let system = replay.current
        let lowersAnyway: Set<Int> = dirty.isEmpty ? [] : Set(dirty)
        var levels: [Int] = []
        levels.reserveCapacity(reprioritised.count)
        for index in reprioritised {
            guard let level = labels.label(for: system.constraints[index].priority) else {
                dirty.append(contentsOf: reprioritised)
                reprioritised.removeAll(keepingCapacity: true)
                return
            }
            levels.append(level)
        }
        var previous = -1
        for (index, level) in zip(reprioritised, levels) where index != previous {
            previous = index
            let priority = system.constraints[index].priority
            guard !priority.isRequired, !entries[index].priority.isRequired, let handle = entries[index].handle,
                  !entries[index].hasPendingShift, !entries[index].hasShiftedConstant,
                  lowersAnyway.isEmpty || !lowersAnyway.contains(index) else {
                dirty.append(index)
                continue
            }
            let strength = Strength(level: level)
            #if DEBUG
            var expected = entries[index].row
            expected.strength = strength
            let relowered = try lowered(system.constraints[index], at: index, in: system, level: level)
            precondition(relowered == expected, "row \(index) at its new priority: \(expected), lowered anew \(relowered)")
            #endif
            if entries[index].row.strength != strength {
                do {
                    try solver.setStrength(handle, to: strength)
                } catch {
                    throw Self.failure(error)
                }
                entries[index].row.strength = strength
                if recordsRowSteps {
                    trace(.remove(key: entries[index].key))
                    trace(.add(key: entries[index].key, row: entries[index].row))
                }
            }
            if entries[index].priority != priority {
                priorityCounts[entries[index].priority, default: 1] -= 1
                priorityCounts[priority, default: 0] += 1
                entries[index].priority = priority
            }
            prioritiesMovedWithoutLowering &+= 1
        }
        reprioritised.removeAll(keepingCapacity: true)
    }

    /// The rows of ``resized`` (naming the root, which this pass resized): each with an affine
    /// constant, and not otherwise changed this pass, takes its new constant from it — exactly
    /// the constant lowering anew gives, without lowering (on a rotation at 10 views, lowering
    /// every row naming the root was half of a pass). The others go to ``dirty``, and those
    /// without an affine constant to `needsAffine`.
    private mutating func resizeRootRows(
        _ constants: inout [(handle: ConstraintHandle, constant: Double)], _ needsAffine: inout [Int]
    ) throws(PassFailure) {
        resized.sort()
        let size = replay.current.root.frame.flatMap { frame in
            RootAffineConstant.exactDouble(frame[2]).flatMap { w in RootAffineConstant.exactDouble(frame[3]).map { (w, $0) } }
        }
        // A row also lowered anew this pass takes its constant from that; so does one with a
        // new priority (one lowering gives both, one removal and addition in the row steps).
        let lowersAnyway: Set<Int> = dirty.isEmpty && reprioritised.isEmpty ? [] : Set(dirty).union(reprioritised)
        var previous = -1
        for index in resized where index != previous {
            previous = index
            if let size, let affine = entries[index].rootAffine, !entries[index].hasPendingShift,
               lowersAnyway.isEmpty || !lowersAnyway.contains(index),
               let constant = affine.constant(width: size.0, height: size.1) {
                #if DEBUG
                let system = replay.current
                let row = try lowered(system.constraints[index], at: index, in: system, level: entries[index].row.strength.level)
                precondition(
                    row.constant.bitPattern == constant.bitPattern,
                    "row \(index)'s affine constant \(constant) is not the lowered \(row.constant)")
                #endif
                takeConstant(constant, at: index, &constants)
                rootAffineConstantsTaken &+= 1
            } else {
                dirty.append(index)
                if entries[index].rootAffine == nil { needsAffine.append(index) }
            }
        }
        resized.removeAll(keepingCapacity: true)
    }

    /// Gives the rows at `positions` (naming the root, just lowered) their constants as exact
    /// affine functions of the root's width and height: lowered exactly with the root's size
    /// 0 × 0, 1 × 0 and 0 × 1 (the same origin), the constant is `base + a·W + b·H` with
    /// `base` the first, `a` and `b` the differences. A row whose three numbers are not each
    /// exactly a `Double` gets none and is lowered anew on every resize.
    private mutating func findRootAffineConstants(_ positions: [Int]) {
        let system = replay.current
        let frame = system.root.frame ?? [.zero, .zero, .zero, .zero]
        var atZero = system, atWidth = system, atHeight = system
        atZero.setRootFrame([frame[0], frame[1], .zero, .zero])
        atWidth.setRootFrame([frame[0], frame[1], NumericLiteral(1), .zero])
        atHeight.setRootFrame([frame[0], frame[1], .zero, NumericLiteral(1)])
        for index in positions {
            let constraint = system.constraints[index]
            let base: LinearRow<Rational> = atZero.lower(constraint, index: index, level: 0)
            let width: LinearRow<Rational> = atWidth.lower(constraint, index: index, level: 0)
            let height: LinearRow<Rational> = atHeight.lower(constraint, index: index, level: 0)
            entries[index].rootAffine = RootAffineConstant(
                base: base.constant, width: width.constant - base.constant, height: height.constant - base.constant)
        }
    }

    /// Changes held rows' constants at once; if that makes the required rows infeasible,
    /// one at a time, taking out each that cannot take its new constant (the walk decides).
    private mutating func changeConstants(_ constants: [(handle: ConstraintHandle, constant: Double)]) throws(PassFailure) {
        guard !constants.isEmpty else { return }
        do throws(CassowaryError) {
            try solver.setConstants(constants)
            return
        } catch .unsatisfiable {
        } catch {
            throw Self.failure(error)
        }
        for change in constants {
            do throws(CassowaryError) {
                try solver.setConstant(change.handle, to: change.constant)
            } catch .unsatisfiable {
                do {
                    try solver.removeConstraint(change.handle)
                } catch {
                    throw Self.failure(error)
                }
                if let index = entries.firstIndex(where: { $0.handle == change.handle }) {
                    entries[index].handle = nil
                    changedRequired.insert(entries[index].key)
                }
                requiredChanged = true
                mayHaveBroken = true
            } catch {
                throw Self.failure(error)
            }
        }
    }

    /// A new solver's additions (the first pass, or a relabelling): every row, in the one-shot
    /// solve's order with the walk's verdicts kept (``AdditionWalk``).
    ///
    /// ``walkRequired()`` in file order with the optional rows after it, as a later pass adds
    /// rows, made the first pass of a sequence on `form` quadratic: each field's link came in
    /// after both ends were in the tableau and pivoted on rows as long as the stack (1.07 s at
    /// 1,000 views, where the one-shot solve of the same system took 5.5 ms).
    private mutating func addEveryRow() throws(PassFailure) {
        // The entries as a pooled system: the solver's variables (stable serials), and each
        // label's rank among the labels in use (strongest first) as its level. Labels are
        // found through their first entry (hashing a label is cheaper than a priority).
        var firstWithLabel: [Int: Int] = [:]
        for index in entries.indices where !entries[index].row.strength.isRequired {
            let label = entries[index].row.strength.level
            if firstWithLabel[label] == nil { firstWithLabel[label] = index }
        }
        let labels = firstWithLabel.keys.sorted()
        var rank: [Int: Int] = [:]
        for (k, label) in labels.enumerated() { rank[label] = k + 1 }
        var rows: [PooledLinearSystem.Row] = []
        var terms: [LinearTerm<Double>] = []
        var variableCount = 0
        rows.reserveCapacity(entries.count)
        for index in entries.indices {
            let row = entries[index].row
            rows.append(PooledLinearSystem.Row(
                start: terms.count, count: row.terms.count, constant: row.constant, relation: row.relation,
                level: row.strength.isRequired ? 0 : rank[row.strength.level]!, constraintIndex: index))
            for term in row.terms {
                terms.append(LinearTerm(variable: term.variable.index, coefficient: term.coefficient))
                variableCount = max(variableCount, term.variable.index + 1)
            }
        }
        let linear = PooledLinearSystem(
            variableCount: variableCount, rows: rows, terms: terms, levels: labels.map { entries[firstWithLabel[$0]!].priority })
        let strengths = [Strength.required] + labels.map(Strength.init(level:))
        var walk = AdditionWalk(linear)
        var broken = false
        do throws(CassowaryError) {
            while let (row, explanation) = try walk.addUntilBroken(to: &solver, linear, strengths: strengths) {
                entries[row].explanation = walk.rows(of: explanation).map { entries[$0].key }
                broken = true
            }
        } catch {
            throw Self.failure(error)
        }
        for index in entries.indices where walk.handleOf[index] >= 0 {
            let handle = ConstraintHandle(id: Int(walk.handleOf[index]))
            entries[index].handle = handle
            noteHandle(handle, of: index)
        }
        mayHaveBroken = broken
    }

    /// Makes the held required rows exactly those §5.1's walk keeps (see the type's comment).
    ///
    /// Linear in the entries only through one scan for broken rows: a conflict's members are
    /// found through ``keyOfHandle`` and a binary search over the keys (ascending in file
    /// order), not through a map of every held row rebuilt each walk (which, with the copy of
    /// every entry it made, was most of a conflict-then-remove pass at 100 views).
    private mutating func walkRequired() throws(PassFailure) {
        var queue: [Int] = []
        for index in entries.indices where entries[index].handle == nil && entries[index].row.strength.isRequired {
            queue.append(index)
        }
        var broken = false
        defer { mayHaveBroken = broken }
        var k = 0
        while k < queue.count {
            let candidate = queue[k]
            if stillConflicts(candidate) {
                broken = true
                k += 1
                continue
            }
            let conflict: [ConstraintHandle]
            do throws(CassowaryError) {
                let handle = try solver.addConstraint(entries[candidate].row)
                entries[candidate].handle = handle
                noteHandle(handle, of: candidate)
                k += 1
                continue
            } catch .unsatisfiable(let members) {
                conflict = members
            } catch {
                throw Self.failure(error)
            }
            let positions = conflict.compactMap { position(of: $0) }
            let later = positions.filter { $0 > candidate }.sorted()
            if later.isEmpty {
                entries[candidate].explanation = positions.map { entries[$0].key }
                broken = true
                k += 1  // broken: infeasible with kept constraints before it
                continue
            }
            for position in later {
                guard let handle = entries[position].handle else { continue }
                do {
                    try solver.removeConstraint(handle)
                } catch {
                    throw Self.failure(error)
                }
                entries[position].handle = nil
                changedRequired.insert(entries[position].key)
                // Walked again after the candidate, in file order.
                var slot = k + 1
                while slot < queue.count && queue[slot] < position { slot += 1 }
                queue.insert(position, at: slot)
            }
        }
    }

    /// Remembers which entry a new handle belongs to (handles are the solver's record ids,
    /// reused after removals, so an entry's is written whenever it gets one).
    private mutating func noteHandle(_ handle: ConstraintHandle, of position: Int) {
        if handle.id >= keyOfHandle.count {
            keyOfHandle.append(contentsOf: repeatElement(-1, count: handle.id + 1 - keyOfHandle.count))
        }
        keyOfHandle[handle.id] = entries[position].key
    }

    /// The position of the entry holding `handle`, if one does.
    private func position(of handle: ConstraintHandle) -> Int? {
        guard handle.id >= 0, handle.id < keyOfHandle.count else { return nil }
        let key = keyOfHandle[handle.id]
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].key < key { low = mid + 1 } else { high = mid }
        }
        guard low < entries.count, entries[low].key == key, entries[low].handle == handle else { return nil }
        return low
    }

    /// Whether a broken constraint certainly still conflicts: neither it nor any held row of
    /// its explanation (the required rows it was found infeasible with, all before it in file
    /// order) changed or went this pass, so the same rows still prove it infeasible. Adding a
    /// required row never mends a broken one (rows are appended after it; more rows, fewer
    /// points), so a pass that only adds or breaks required rows retries none of the old
    /// broken ones — the walk's cost is then the new rows', not every broken row's again
    /// (which made conflict-then-remove and readd-after-conflict passes grow with the
    /// number of broken rows).
    private func stillConflicts(_ position: Int) -> Bool {
        guard !entries[position].explanation.isEmpty else { return false }
        if changedRequired.isEmpty { return true }
        return !changedRequired.contains(entries[position].key) && !entries[position].explanation.contains { changedRequired.contains($0) }
    }

    /// `constraint` lowered as the fresh backend lowers it (exactly, then each number rounded
    /// once), over the stable variables.
    private func lowered(_ constraint: Constraint, at index: Int, in system: ConstraintSystem, level: Int) throws(PassFailure) -> LinearConstraint {
        // The one-shot backend's fast lowering first (the same row: each number the exact
        // one's rounded once); exact arithmetic only for the rows it cannot do that for. On a
        // rotation every row naming the root is lowered anew each pass, so this is most of it.
        if let row = system.loweredRoundingOnce(index, level: level) {
            var terms: [LinearConstraint.Term] = []
            terms.reserveCapacity(row.terms.count)
            for term in row.terms {
                guard term.coefficient.isFinite else { throw .unsupported("coefficients beyond Double range") }
                if term.coefficient != 0 { terms.append(.init(stableVariable(term.variable), term.coefficient)) }
            }
            guard row.constant.isFinite else { throw .unsupported("coefficients beyond Double range") }
            return LinearConstraint(terms, constant: row.constant, relation: constraint.relation, strength: Strength(level: level))
        }
        let row: LinearRow<Rational> = system.lower(constraint, index: index, level: level)
        var terms: [LinearConstraint.Term] = []
        terms.reserveCapacity(row.terms.count)
        for term in row.terms {
            let coefficient = term.coefficient.doubleValue
            guard coefficient.isFinite else { throw .unsupported("coefficients beyond Double range") }
            if coefficient != 0 { terms.append(.init(stableVariable(term.variable), coefficient)) }
        }
        let constant = row.constant.doubleValue
        guard constant.isFinite else { throw .unsupported("coefficients beyond Double range") }
        return LinearConstraint(terms, constant: constant, relation: constraint.relation, strength: Strength(level: level))
    }

    /// The solver variable of the current system's variable `4·(item−1)+component`.
    private func stableVariable(_ variable: Int) -> Variable {
        Variable(4 * (itemSerials[variable / 4 + 1] - 1) + variable % 4)
    }

    // MARK: The answer

    /// Reads every value of the current system from the solver, noting in
    /// ``lastValuesAreSmall`` whether all are finite and at most 2⁵⁰⁰ in magnitude.
    private mutating func readValues() -> [Double] {
        let variableCount = replay.current.variableCount
        if valueSymbolsAreStale || valueSymbolsVersion != solver.symbolMapVersion || valueSymbols.count != variableCount {
            valueSymbols.removeAll(keepingCapacity: true)
            for variable in 0..<variableCount {
                valueSymbols.append(solver.symbol(of: stableVariable(variable)).map { Int32(truncatingIfNeeded: $0) } ?? -1)
            }
            valueSymbolsVersion = solver.symbolMapVersion
            valueSymbolsAreStale = false
        }
        var small = true
        let symbolStates = solver.tableau.symbols
        let map = valueSymbols
        var values = spareValues
        spareValues = []
        if values.count != variableCount { values = [Double](repeating: 0, count: variableCount) }
        values.withUnsafeMutableBufferPointer { buffer in
            symbolStates.withUnsafeBufferPointer { symbols in
                map.withUnsafeBufferPointer { map in
                    for variable in 0..<variableCount {
                        let symbol = Int(map[variable])
                        // A variable without a symbol, or whose symbol is not basic, is 0 (``CassowarySolver/value(of:)``).
                        let value = symbol >= 0 && symbols[symbol].isBasic ? symbols[symbol].value : 0
                        buffer[variable] = value
                        // False for NaN and infinities too.
                        if !(value.magnitude <= 0x1p500) { small = false }
                    }
                }
            }
        }
        spareValues = lastValues
        lastValues = values
        #if DEBUG
        for variable in 0..<variableCount {
            let expected = solver.value(of: stableVariable(variable))
            precondition(values[variable] == expected || (values[variable].isNaN && expected.isNaN),
                         "value of variable \(variable): \(values[variable]) read, \(expected) in the solver")
        }
        #endif
        lastValuesAreSmall = small
        return values
    }

    /// The answer of the pass (its values' smallness in ``lastValuesAreSmall``: a tuple
    /// return copies the solution through the runtime's generic tuple copy).
    private mutating func answer() throws(PassFailure) -> Solution {
        let system = replay.current
        let variableCount = system.variableCount
        let values = readValues()
        let sumsObjective = reportsObjective
        // The values by stable variable too, for the objective's rows (which name stable
        // variables): one array read per term instead of a lookup in the solver.
        var stableValue = self.stableValues
        self.stableValues = []  // so that `stableValue` is unique
        defer { self.stableValues = stableValue }
        if sumsObjective {
            if stableValue.count < 4 * nextSerial {
                stableValue.append(contentsOf: repeatElement(0, count: 4 * nextSerial - stableValue.count))
            }
            for variable in 0..<variableCount { stableValue[stableVariable(variable).index] = values[variable] }
        }
        // Levels in use, by their solver labels (ascending label = descending priority);
        // entries are matched by label, an integer, not by hashing their priorities.
        let labelsInUse: [Int]
        if !sumsObjective && !reportsAmbiguity {
            labelsInUse = []
        } else if let cached = self.labelsInUse {
            labelsInUse = cached
        } else {
            var found: [Int] = []
            var labels = self.labels
            for (priority, count) in priorityCounts where count > 0 {
                if let label = labels.label(for: priority) { found.append(label) }
            }
            found.sort()
            labelsInUse = found
            self.labelsInUse = found
        }
        var objective = [Double](repeating: 0, count: sumsObjective ? labelsInUse.count : 0)
        var broken: [Int] = []
        // Through buffer pointers over locals (no closure here may capture `self`: it would
        // copy the solver for every read). Without an objective to sum, only a possibly
        // broken required row needs the scan: with ``mayHaveBroken`` false every one is held.
        if sumsObjective || mayHaveBroken {
            entries.withUnsafeBufferPointer { entries in
                stableValue.withUnsafeBufferPointer { stableValue in
                    objective.withUnsafeMutableBufferPointer { objective in
                        for index in entries.indices {
                            let level = entries[index].row.strength.level
                            if level == 0 {
                                if entries[index].handle == nil { broken.append(index) }
                                continue
                            }
                            if !sumsObjective { continue }
                            var low = 0, high = labelsInUse.count
                            while low < high {
                                let mid = (low + high) / 2
                                if labelsInUse[mid] < level { low = mid + 1 } else { high = mid }
                            }
                            guard low < labelsInUse.count, labelsInUse[low] == level else { continue }
                            // The row's error (``LinearConstraint/error(at:)``), summed inline.
                            var residual = entries[index].row.constant
                            for term in entries[index].row.terms { residual += term.coefficient * stableValue[term.variable.index] }
                            switch entries[index].row.relation {
                            case .equal: objective[low] += abs(residual)
                            case .lessThanOrEqual: objective[low] += max(0, residual)
                            case .greaterThanOrEqual: objective[low] += max(0, -residual)
                            }
                        }
                    }
                }
            }
        }
        var ambiguous: [Unknown] = []
        if reportsAmbiguity {
            var variableOfStable: [Int: Int] = [:]
            for variable in 0..<variableCount { variableOfStable[stableVariable(variable).index] = variable }
            // As a fresh solve does (CassowaryBackend): the estimate, then probes for the
            // variables it leaves undecided (degenerate vertices), weaker than every level.
            let estimate = solver.ambiguityEstimate()
            var marked = Set(estimate.ambiguous.compactMap { variableOfStable[$0.index] })
            let probeLevel = (labelsInUse.last ?? 0) + 1
            if probeLevel <= Int(Int32.max) && !estimate.undecided.isEmpty {
                // On a copy: the probes' rollback drops the suggestions' cached columns, which
                // the next pass's edits reuse.
                var probe = solver
                let known = marked
                for moved in probe.probeUndecided(
                    estimate.undecided,
                    known: { variableOfStable[$0.index].map { known.contains($0) } ?? true },
                    probeLevel: probeLevel, limit: ambiguityProbeLimit) {
                    if let v = variableOfStable[moved.index] { marked.insert(v) }
                }
            }
            for variable in 0..<variableCount where !solver.knows(stableVariable(variable)) { marked.insert(variable) }
            ambiguous = marked.sorted().map { Unknown(variable: $0) }
        }
        var conflict: [Int] = []
        if let first = broken.first, reportsConflict {
            guard let found = self.conflict(of: first) else { throw .budgetExceeded }
            conflict = found
        }
        return Solution(
            status: broken.isEmpty ? .optimal : .unsatisfiable, values: values, objective: objective,
            ambiguous: ambiguous, broken: broken, conflict: conflict)
    }

    /// An irreducible conflict of the first broken constraint and the kept ones before it,
    /// found as the one-shot backend finds it (deletion filtering of fresh solves, under what
    /// is left of the pass's budget); nil when that runs out.
    private func conflict(of first: Int) -> [Int]? {
        func linearRow(_ index: Int) -> LinearRow<Double> {
            let row = entries[index].row
            return LinearRow(
                terms: row.terms.map { LinearTerm(variable: $0.variable.index, coefficient: $0.coefficient) }.sorted { $0.variable < $1.variable },
                constant: row.constant, relation: row.relation, level: 0, constraintIndex: index)
        }
        let kept = (0..<first).filter { entries[$0].priority.isRequired && entries[$0].handle != nil }
        let named = Set(entries[first].explanation)
        let explanation = kept.filter { named.contains(entries[$0].key) }
        return CassowaryBackend(conflictFilterLimit: conflictFilterLimit)
            .irreducibleConflict(failing: linearRow(first), explanation: explanation.map(linearRow), kept: kept.map(linearRow),
                                 budget: solver.remainingBudget)
    }
}

/// Solver levels for priorities: labels in priority order (higher priority, smaller label)
/// with gaps, so that a new priority usually fits between its neighbours without relabelling.
struct PriorityLabels: Sendable {
    private var priorities: [Priority] = []  // descending
    private var labels: [Int] = []  // ascending
    private static let gap = 1 << 16
    private static let limit = Int(Int32.max)

    /// The label of `priority` (0 for required), or nil if it fits between no two labels.
    mutating func label(for priority: Priority) -> Int? {
        if priority.isRequired { return 0 }
        var low = 0, high = priorities.count
        while low < high {
            let mid = (low + high) / 2
            if priorities[mid] > priority { low = mid + 1 } else { high = mid }
        }
        if low < priorities.count && priorities[low] == priority { return labels[low] }
        let above = low > 0 ? labels[low - 1] : 0
        let below = low < labels.count ? labels[low] : min(above + 2 * Self.gap, Self.limit)
        guard below - above >= 2 else { return nil }
        let label = above + (low < labels.count ? (below - above) / 2 : Self.gap)
        guard label > above && label < below || (low == labels.count && label <= Self.limit) else { return nil }
        priorities.insert(priority, at: low)
        labels.insert(label, at: low)
        return label
    }
}

extension Array {
    /// Removes the elements at ascending offsets, moving each survivor once.
    mutating func remove(atSortedOffsets offsets: [Int]) {
        guard !offsets.isEmpty else { return }
        if offsets.count <= 4 {
            // A few: each removal moves the tail's storage as it is (no copy of an element
            // and its references, which the loop below makes for every survivor).
            for offset in offsets.reversed() { remove(at: offset) }
            return
        }
        var write = offsets[0]
        var next = 0
        for read in offsets[0]..<count {
            if next < offsets.count && offsets[next] == read {
                next += 1
                continue
            }
            self[write] = self[read]
            write += 1
        }
        removeSubrange(write...)
    }
}
