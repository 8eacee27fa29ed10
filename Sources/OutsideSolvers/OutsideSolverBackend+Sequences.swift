import BackendContract
import ExactArithmetic
import LayoutModel

extension OutsideSolverBackend {
    /// Every pass of `sequence`. An adapter that takes update steps keeps one
    /// ``LiveSystem`` across the passes and gets each step as the row-level steps it maps to
    /// (a constant change is `set-constant` — kiwi's edit path —, a priority change
    /// `set-priority`, a removal `remove`, additions `add`), so its own incremental path is
    /// what gets judged; the others solve each pass from scratch. After a failed step the
    /// remaining passes are solved from scratch.
    public func solve(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult {
        guard capabilities.updateSteps else { return solvePassesFromScratch(sequence, budget: budget) }
        var follower = LiveSequenceFollower(backend: self, replay: sequence.makeReplay(), budget: budget)
        var passes: [PassOutcome] = []
        passes.reserveCapacity(sequence.passCount)
        for pass in 0..<sequence.passCount {
            let steps = pass == 0 ? [] : sequence.updates[pass - 1]
            passes.append(PassOutcome(pass: pass, steps: steps.count, result: follower.solveNextPass(steps)))
        }
        return SequenceResult(passes: passes)
    }
}

/// Follows a sequence's changes on a live adapter system (see
/// ``OutsideSolverBackend/solve(_:budget:)-(UpdateSequence,_)``).
///
/// Live row ids are handed out in order of addition and never reused, so the live rows in id
/// order are the current constraints in file order: the adapter solves exactly the pass's
/// system. Unknowns are stable: view `k` (the k-th ever declared) owns `4(k−1)…4(k−1)+3`.
struct LiveSequenceFollower {
    let backend: OutsideSolverBackend
    var replay: SequenceReplay
    let budget: Budget
    var live: LiveSystem?
    /// The live row id of each current constraint (−1: appended, not sent yet).
    var ids: [Int] = []
    var itemSerials: [Int]
    var nextSerial: Int
    var dirty: [Int] = []
    /// A step failed: the remaining passes are solved from scratch.
    var fromScratch = false

    init(backend: OutsideSolverBackend, replay: SequenceReplay, budget: Budget) {
        self.backend = backend
        self.replay = replay
        self.budget = budget
        itemSerials = Array(replay.current.items.indices)
        nextSerial = replay.current.items.count
    }

    mutating func solveNextPass(_ steps: [UpdateStep]) -> Result<BackendResult, BackendError> {
        let start = ContinuousClock.now
        // The solver's time of the pass covers its steps' replies and the values reply.
        let liveAtStart = live
        let solverTimeBefore = live?.solverTime ?? .zero
        var failure: BackendError?
        for step in steps {
            let changes: [SystemChange]
            do {
                changes = try replay.apply(step)
            } catch {
                return .failure(.internalFailure(backend: backend.name, message: "step does not apply: \(error)"))
            }
            guard !fromScratch, failure == nil else { continue }
            do throws(BackendError) {
                for change in changes { try follow(change) }
            } catch {
                failure = error
            }
        }
        if let failure {
            fromScratch = true
            live = nil
            return .failure(failure)
        }
        let system = replay.current
        if fromScratch {
            return Result { () throws(BackendError) in try backend.solve(system, budget: budget) }
        }
        do throws(BackendError) {
            try settle(system)
            guard let live else { throw .internalFailure(backend: backend.name, message: "no live system") }
            var result = try live.values()
            result.solution = translated(result.solution, system: system)
            result.statistics.duration = ContinuousClock.now - start
            if result.statistics.solverTime != nil {
                result.statistics.solverTime = live.solverTime - (live === liveAtStart ? solverTimeBefore : .zero)
            }
            return .success(result)
        } catch {
            fromScratch = true
            live = nil
            return .failure(error)
        }
    }

    private mutating func follow(_ change: SystemChange) throws(BackendError) {
        switch change {
        case .constantChanged(let index, _, _), .priorityChanged(let index, _, _):
            dirty.append(index)
        case .rootResized:
            let system = replay.current
            for index in system.constraints.indices where system.constraints[index].first.item == 0 || system.constraints[index].second?.item == 0 {
                dirty.append(index)
            }
        case .constraintsRemoved(let indices):
            for index in indices where ids[index] >= 0 { try live?.remove(ids[index]) }
            let removed = Set(indices)
            ids = ids.indices.filter { !removed.contains($0) }.map { ids[$0] }
            dirty = dirty.compactMap { position in
                removed.contains(position) ? nil : position - indices.prefix { $0 < position }.count
            }
        case .constraintsAppended(let range):
            ids += repeatElement(-1, count: range.count)
        case .itemAdded:
            itemSerials.append(nextSerial)
            nextSerial += 1
        case .itemsRemoved(let indices):
            let removed = Set(indices)
            itemSerials = itemSerials.indices.filter { !removed.contains($0) }.map { itemSerials[$0] }
        }
    }

    /// Sends the pass's constant and priority changes, then its new rows in file order.
    private mutating func settle(_ system: ConstraintSystem) throws(BackendError) {
        let variables = 4 * max(nextSerial - 1, 0)
        if live == nil {
            live = try backend.openLiveSystem(variables: variables, budget: budget)
            ids = Array(repeating: -1, count: system.constraints.count)
            dirty = []
        }
        guard let live else { return }
        for index in Set(dirty).sorted() where ids[index] >= 0 {
            let constraint = system.constraints[index]
            let row = lowered(constraint, at: index, in: system)
            if let old = live.rows[ids[index]], old.constant != row.constant { try live.setConstant(ids[index], to: row.constant) }
            if live.priorities[ids[index]] != constraint.priority { try live.setPriority(ids[index], to: constraint.priority) }
        }
        dirty.removeAll()
        let added = ids.indices.filter { ids[$0] < 0 }
        guard !added.isEmpty else { return }
        let rows = added.map { (row: lowered(system.constraints[$0], at: $0, in: system), priority: system.constraints[$0].priority) }
        let newIDs = try live.add(rows, variables: variables)
        for (index, id) in zip(added, newIDs) { ids[index] = id }
    }

    /// The constraint's row over the stable unknowns.
    private func lowered(_ constraint: Constraint, at index: Int, in system: ConstraintSystem) -> LinearRow<Rational> {
        var row: LinearRow<Rational> = system.lower(constraint, index: index, level: 0)
        row.terms = row.terms.map { LinearTerm(variable: stableVariable($0.variable), coefficient: $0.coefficient) }
            .sorted { $0.variable < $1.variable }
        return row
    }

    private func stableVariable(_ variable: Int) -> Int { 4 * (itemSerials[variable / 4 + 1] - 1) + variable % 4 }

    /// A live solution (over the stable unknowns, rows in id order = file order) as one of
    /// the current system.
    private func translated(_ solution: Solution, system: ConstraintSystem) -> Solution {
        var result = solution
        let count = system.variableCount
        guard solution.values.count >= 4 * max(nextSerial - 1, 0) else { return result }
        result.values = (0..<count).map { solution.values[stableVariable($0)] }
        result.exactValues = solution.exactValues.map { exact in (0..<count).map { exact[stableVariable($0)] } }
        var variableOfStable: [Int: Int] = [:]
        for variable in 0..<count { variableOfStable[stableVariable(variable)] = variable }
        result.ambiguous = solution.ambiguous.compactMap { variableOfStable[$0.variable] }.sorted().map { Unknown(variable: $0) }
        return result
    }
}
