import BackendContract
import LayoutModel

/// The incremental Cassowary solver (Badros, Borning & Stuckey, ACM TOCHI 2001) in `Double`,
/// with true lexicographic priorities.
///
/// In the spirit of kiwi's `Solver`: add and remove constraints, make variables editable and
/// suggest values for them; after every call the values are those of a lexicographically
/// optimal point (spec §5) of the constraints added so far. Differences from kiwi:
///
/// - Strengths are levels compared lexicographically (``Strength``), never packed into one
///   number, so no amount of weaker error buys any stronger error.
/// - A required constraint that cannot hold is rejected with its conflict set and leaves no
///   trace: every change the attempt made is undone from a journal, so the solver is
///   exactly as before (rows, values, reduced costs).
/// - The tableau is kept in triangular form (see `Tableau`), so chains and trees of views do
///   not grow rows as long as the chain.
/// - An edit variable starts at its current value, not at 0.
///
/// `CassowarySolver` is a value type: copying it copies the whole state (lazily, by the
/// standard library's copy-on-write arrays).
public struct CassowarySolver: Sendable {
    /// A held constraint: what the solver needs of it besides its row. Its terms live only
    /// in ``recordTerms`` (over symbols), so a record holds no array: a solver of thousands
    /// of constraints is freed as a handful of buffers, and a caller's rows are read, never kept.
    struct Record: Sendable {
        /// The constraint's constant, as added or as last changed.
        var constant: Double
        var relation: Relation
        var strength: Strength
        /// The constraint over symbols, markers included: `Σ terms + constant = 0` (what a
        /// refactorisation starts from), its terms at `recordTerms[start ..< start + count]`
        /// and its constant the constraint's.
        // Stored in 32 bits (a record is kept per constraint, thousands per solver or per
        // thousand small solvers), read as `Int`.
        private var storedStart: Int32
        private var storedCount: Int32
        private var storedMarker: Int32
        private var storedOther: Int32

        var start: Int {
            get { Int(storedStart) }
            set { storedStart = Int32(truncatingIfNeeded: newValue) }
        }
        var count: Int { Int(storedCount) }
        var marker: Int { Int(storedMarker) }
        var other: Int { Int(storedOther) }

        init(constant: Double, relation: Relation, strength: Strength, start: Int, count: Int, marker: Int, other: Int) {
            self.constant = constant
            self.relation = relation
            self.strength = strength
            storedStart = Int32(truncatingIfNeeded: start)
            storedCount = Int32(truncatingIfNeeded: count)
            storedMarker = Int32(truncatingIfNeeded: marker)
            storedOther = Int32(truncatingIfNeeded: other)
        }
    }

    struct Edit: Sendable {
        var variable: Variable
        var handle: ConstraintHandle
        var target: Double
    }

    var tableau = Tableau()
    var records: [Record?] = []
    /// Ids of removed constraints (nil in `records`), handed out again by `addConstraint`, so
    /// that `records` is as long as the most constraints ever held at once, not the number
    /// ever added. A handle is therefore valid until its constraint is removed, and no longer.
    var freeRecords: [Int] = []
    /// Public calls so far (debug builds: how often the invariants are checked).
    var invariantCalls = 0
    /// The records' rows, one run each (one array for all, as the tableau's term pool).
    var recordTerms: [Term] = []
    /// Terms of removed records still in `recordTerms`.
    var recordGarbage = 0
    var liveCount = 0
    /// The constants of the held constraints by binade: the scale a removal compares the
    /// removed constraint with (``refactorIfFilled(settled:afterRemoval:removedMagnitude:)``).
    var heldConstants = BinadeCensus()
    /// The edit variables, each found through its symbol's `editSlot`. Not a dictionary:
    /// edits are few, and the first dictionary keyed by `Variable` in a process costs the
    /// runtime a conformance lookup several times longer than making the edit itself.
    var edits: [Edit] = []
    /// Symbols of variables numbered `denseBase…`, stored as symbol + 1 (0: none).
    var denseSymbols: [Int] = []
    var denseBase = 0
    var sparseSymbols: [Int: Int] = [:]
    /// Changes whenever a variable gets or loses its symbol: a map from variables to symbols
    /// made at one version (``IncrementalPassSolver``'s answer) holds while it stays.
    var symbolMapVersion = 0
    /// ``setConstants(_:)``'s list of the constants it changed (kept for its capacity).
    var previousConstants: [(id: Int, constant: Double)] = []
    var meter: BudgetMeter?
    /// `meter != nil`, without copying the meter out to ask (once per pivot).
    var metered = false
    /// The budget the meter is started from.
    var budget: Budget = .unlimited
    /// Whether every public call gets the whole budget (a long-lived solver), rather than
    /// the solver's whole life (the one-shot backend).
    var budgetPerCall = false
    /// Whether the primal ratio test walks the whole entering column. By default it stops at
    /// the first well-conditioned row that blocks at step zero
    /// (``Tableau/column(of:throughFirstDegenerateBlockMoving:)``): a valid pivot (no ratio is
    /// below zero), though not always the row the whole column's tie-break would pick. Set
    /// by the tests that compare the two, and by ``noneMovesOnOptimalSet(_:probeLevel:shortWalks:flatColumns:)``
    /// without `shortWalks`.
    var walksWholeEnteringColumns = false
    /// Whether the primal simplex keeps many candidates in an ``EnteringQueue`` (the tests
    /// that compare it with the scan turn it off).
    var queuesManyCandidates = true
    /// How many ``EnteringQueue``s the primal simplex has built.
    public internal(set) var enteringQueuesBuilt = 0
    /// Σ terms over the records' own rows: the size a refactorised tableau has.
    var originalTerms = 0
    /// Per symbol, how many held records name it (external symbols only; 0 for the rest):
    /// a removal that takes the count to 0 purges the variable from the tableau
    /// (``purgeUnnamed(_:changed:)``).
    var namingRecords: [Int32] = []
    /// ``refactorIfDenserThanConstraints(allowance:)`` tries no rebuild until the tableau holds more
    /// terms than this (set when a rebuild was not kept).
    var denseRefactorFloor = 0
    /// The largest magnitude removed (``refactorIfFilled(settled:afterRemoval:removedMagnitude:)``)
    /// in the current run of removals since the last rebuild: any other call ends the run.
    var removalRunMagnitude = 0.0
    /// How many rebuilds ``refactorIfDenserThanConstraints(allowance:)`` kept (for tests).
    public internal(set) var denseRefactorsKept = 0
    /// How many times an addition or a change of constants broke down (the tableau's rows
    /// and columns disagreeing, or a value beyond `Double`) and was tried again on rows
    /// rebuilt from the constraints.
    public internal(set) var rebuildsAfterBreakdown = 0
    /// How many rebuilds ``rebuildIfWalksOutgrewRows(factor:)`` made (for tests).
    public internal(set) var rebuildsForWalkWork = 0
    /// ``Tableau/termsRead`` after the last such rebuild (or check that found none due).
    var termsReadAtWorkRebuild = 0

    /// Variables numbered this far above `denseBase` or more are looked up in a dictionary.
    static let denseLimit = 1 << 22

    /// A solver with no constraints. With a budget, every pivot and the clock are charged to
    /// it, and an addition that exhausts it is undone and throws ``CassowaryError/budgetExceeded``.
    ///
    /// With `perCall`, the budget applies to each call (`addConstraint`, `removeConstraint`,
    /// `suggestValue`, `setConstants`) on its own, so a solver kept alive across many calls
    /// never runs out; otherwise it applies to everything the solver does in its life.
    public init(budget: Budget = .unlimited, perCall: Bool = false) {
        self.budget = budget
        budgetPerCall = perCall
        if budget.iterations != nil || budget.wallTime != nil {
            meter = BudgetMeter(budget)
            metered = true
        }
    }

    /// Starts the budget afresh (and replaces it, when `budget` is given): what an
    /// incremental driver does at each layout pass.
    public mutating func restartBudget(_ budget: Budget? = nil) {
        if let budget { self.budget = budget }
        metered = self.budget.iterations != nil || self.budget.wallTime != nil
        meter = metered ? BudgetMeter(self.budget) : nil
    }

    /// What is left of the budget now: work done outside the solver on its behalf (the
    /// conflict filtering of ``CassowaryBackend``) runs under it, not beside it.
    public var remainingBudget: Budget {
        guard let meter else { return budget }
        return Budget(iterations: budget.iterations.map { $0 - meter.iterations },
                      wallTime: budget.wallTime.map { $0 - meter.elapsed })
    }

    /// Charges the budget for `iterations` done on the solver's behalf; false once it is spent.
    public mutating func chargeBudget(_ iterations: Int) -> Bool {
        guard metered, iterations > 0 else { return true }
        return meter?.spend(iterations) != false
    }

    /// At the start of a public call: a per-call budget starts afresh.
    mutating func beginCall() {
        if budgetPerCall && metered { meter = BudgetMeter(budget) }
        removalRunMagnitude = 0
    }

    /// The number of constraints currently held (edit constraints included).
    public var constraintCount: Int { liveCount }

    /// Pivots performed so far (the solver's unit of work).
    public var pivotCount: Int { tableau.pivots }

    /// Whether `handle` names a constraint currently held.
    public func hasConstraint(_ handle: ConstraintHandle) -> Bool {
        handle.id >= 0 && handle.id < records.count && records[handle.id] != nil
    }

    /// The constraint `handle` names, if it is held: its terms as the solver holds them (one
    /// per variable, in the order first named; terms that cancelled are gone).
    public func constraint(_ handle: ConstraintHandle) -> LinearConstraint? {
        guard hasConstraint(handle), let record = records[handle.id] else { return nil }
        var terms: [LinearConstraint.Term] = []
        for index in record.start..<record.start + record.count {
            let term = recordTerms[index]
            if tableau.symbols[term.symbol].kind == .external {
                terms.append(LinearConstraint.Term(Variable(tableau.symbols[term.symbol].owner), term.coefficient))
            }
        }
        return LinearConstraint(terms, constant: record.constant, relation: record.relation, strength: record.strength)
    }

    /// The variable's value at the current optimum (0 for a variable never constrained).
    public func value(of variable: Variable) -> Double {
        guard let symbol = symbol(of: variable) else { return 0 }
        return tableau.symbols[symbol].isBasic ? tableau.symbols[symbol].value : 0
    }

    /// E(level) for levels 1…`levelCount`: the summed errors of the optional constraints held
    /// at each level, at the current point.
    public func objective(levelCount: Int) -> [Double] {
        var sums = Array(repeating: 0.0, count: max(levelCount, 0))
        for record in records {
            guard let record else { continue }
            let level = record.strength.level
            if level >= 1 && level <= levelCount {
                var d = record.constant
                for index in record.start..<record.start + record.count {
                    let term = recordTerms[index]
                    if tableau.symbols[term.symbol].kind == .external && tableau.symbols[term.symbol].isBasic {
                        d += term.coefficient * tableau.symbols[term.symbol].value
                    }
                }
                sums[level - 1] += LinearConstraint.error(d, record.relation)
            }
        }
        return sums
    }

    /// Why the simplex stopped short.
    enum Failure: Error {
        /// The constraints owning these ids cannot all hold.
        case infeasible([Int])
        case budgetExceeded
        case breakdown(String)
    }
}
