import BackendContract
/// What a tableau symbol stands for.
enum SymbolKind: UInt8, Sendable {
    /// A caller's variable: unrestricted in sign.
    case external
    /// ≥ 0: an inequality's marker.
    case slack
    /// ≥ 0, costs one unit per unit at its constraint's level.
    case error
    /// Fixed at 0: a required equality's marker. Never enters the basis.
    case dummy
    /// Belonged to a removed constraint; appears in no row.
    case retired

    var isRestricted: Bool { self == .slack || self == .error }
}

/// A symbol's state apart from its row and column index.
struct SymbolState: Sendable {
    var kind: SymbolKind
    var isBasic = false
    /// The cost level of an error symbol (0: none).
    var costLevel: Int32
    /// A basic symbol's place in the topological order of rows.
    var rank = 0
    var value = 0.0
    /// The constraint a marker, slack or error symbol belongs to (the variable's index for
    /// externals).
    var owner: Int
    var candidateSlot: Int32 = -1
    var infeasibleSlot: Int32 = -1
    /// A basic symbol's row: `value = constant + Σ terms`, the terms at
    /// `Tableau.terms[rowStart ..< rowStart + rowCount]`.
    var constant = 0.0
    var rowStart: Int32 = 0
    var rowCount: Int32 = 0

    @inline(__always)
    var rowRange: Range<Int> { Int(rowStart)..<Int(rowStart) + Int(rowCount) }
    /// Cone-walk scratch: the walk (epoch) that last reached the symbol, and what it has
    /// accumulated there. Beside the fields a walk reads anyway (basic flag, rank, row).
    var seen: UInt32 = 0
    /// An external symbol's place in the solver's list of edits (-1: not an edit variable).
    var editSlot: Int32 = -1
    var accumulator = 0.0

    init(kind: SymbolKind, costLevel: Int32, owner: Int) {
        self.kind = kind
        self.costLevel = costLevel
        self.owner = owner
    }
}

/// A symbol's place in the tableau's list of candidates (`SymbolState.candidateSlot`).
enum CandidateSlot: SlotField {
    @inline(__always) static func slot(in record: SymbolState) -> Int32 { record.candidateSlot }
    @inline(__always) static func setSlot(_ slot: Int32, in record: inout SymbolState) { record.candidateSlot = slot }
}

/// A symbol's place in the tableau's list of infeasible symbols (`SymbolState.infeasibleSlot`).
enum InfeasibleSlot: SlotField {
    @inline(__always) static func slot(in record: SymbolState) -> Int32 { record.infeasibleSlot }
    @inline(__always) static func setSlot(_ slot: Int32, in record: inout SymbolState) { record.infeasibleSlot = slot }
}

/// `coefficient × symbol` in a row.
struct Term: Sendable, Hashable {
    var symbol: Int
    var coefficient: Double

    init(_ symbol: Int, _ coefficient: Double) {
        self.symbol = symbol
        self.coefficient = coefficient
    }
}

/// A row outside the tableau's storage: `basic = constant + Σ coefficient·symbol` (a
/// definition), or `Σ terms + constant = 0` (a constraint). Rows inside the tableau live in
/// its term pool; this is for the rarer paths (refactorisation, removal, tests) and for the
/// reduced rows handed between a BTRAN and a pivot.
struct Row: Sendable, Hashable {
    var constant: Double
    var terms: [Term]

    init(constant: Double, terms: [Term]) {
        self.constant = constant
        self.terms = terms
    }

    static let empty = Row(constant: 0, terms: [])
}

/// The simplex tableau in triangular form.
///
/// A dense Cassowary tableau (kiwi's) writes every basic variable in terms of non-basic ones
/// only. On a chain of views that makes the row of the i-th position as long as the chain:
/// the tableau holds Θ(n²) entries and each addition substitutes into Θ(n) rows. Here a
/// basic symbol's row may also name *other basic symbols*, provided the references form no
/// cycle; `rank` is a topological order (a row names only symbols of lower rank). This is
/// an LU factorisation of the basis kept in product form: on chains, trees and grids, whose
/// bases are triangular, rows stay as short as the constraints that made them.
///
/// The reduced (fully non-basic) form of a row is computed on demand by walking its
/// backward cone (`reduce`, a BTRAN); the effect of a non-basic column on the basic
/// variables by walking the forward cone through the column index `users` (`column`, an
/// FTRAN). Values of basic variables are cached and refreshed along forward cones; the
/// reduced objective (one lexicographic vector per non-basic symbol) is maintained
/// incrementally, as in kiwi.
struct Tableau: Sendable {
    /// Per symbol, everything but its reduced cost, its row's terms and its users (one array of records rather than a
    /// dozen parallel arrays: a symbol's state is read together, and a small solver — one
    /// table cell — allocates one array for it instead of a dozen).
    var symbols: [SymbolState] = []
    /// Per symbol, the reduced cost of a non-basic symbol (zero for basic ones). Kept apart
    /// from `SymbolState` so that the record stays trivially copyable (a `LexVector` may own
    /// an array): reading a symbol's state then copies no reference.
    var reducedCosts: [LexVector] = []
    /// The term pool: every basic symbol's row is a run of it (`SymbolState.rowRange`).
    ///
    /// One array for all rows instead of one per row: a solver of a dozen constraints (one
    /// table cell) would otherwise allocate and release an array for every row it writes.
    /// A row is never rewritten in place: a new one is appended and the old run becomes
    /// garbage, so a journal entry needs only the old run's place, and a rollback restores
    /// places and truncates the pool. `compactIfWasteful()` drops garbage between calls.
    var terms: [Term] = []
    /// Terms in the pool that no row owns.
    var garbage = 0
    /// Column index: the basic symbols whose rows name this symbol directly.
    var users = ColumnIndex()

    /// Non-basic symbols whose reduced cost shows an improving direction.
    var candidates = SlotIndexedSet<CandidateSlot>()
    /// While set, every symbol whose candidacy is updated (its reduced cost or basis changed)
    /// is appended to ``candidacyUpdates``, for an ``EnteringQueue`` to re-read.
    var watchesCandidacy = false
    var candidacyUpdates: [Int] = []
    /// Basic symbols outside their bounds.
    var infeasible = SlotIndexedSet<InfeasibleSlot>()

    // Cone walks: the current walk's number (see `SymbolState.seen`) and its queue.
    var epoch: UInt32 = 0
    var heap = KeyedHeap()
    /// The FTRAN columns of the symbols last shifted, as the basic symbols that move with
    /// each, in rank order (see `refreshValues(downstreamOfShifted:)`); emptied by any change
    /// of a row.
    var shiftCones: [(symbol: Int, order: [Int])] = []
    /// Scratch of `place`: per symbol, `generation << 2 | in old row (1) | in new row (2)`.
    var placeMarks: [UInt64] = []
    var placeGeneration: UInt64 = 0
    /// Scratch of `refreshValues(downstreamOfShifted:)`: the old values it journals.
    var shiftedValues: [(symbol: Int, value: Double)] = []
    /// A spent column's or reduced row's storage, handed back through `recycle` for the next
    /// `column` or `reduce` to reuse.
    var termBuffer: [Term] = []
    /// The symbols the current walk reached: `touched[..<touchedCount]` (the rest is stale;
    /// overwriting instead of emptying the array saves a call per walk).
    var touched: [Int] = []
    var touchedCount = 0
    /// BTRAN scratch beside `SymbolState.accumulator`, indexed by symbol: the largest magnitude
    /// summed into it by this walk, the size of the numbers whose cancellation the sum may be
    /// left over from. Apart from `SymbolState` so that copying the symbols (a checkpoint, the
    /// ambiguity estimate's scratch tableau) copies no more than before.
    var accumulatedMagnitudes: [Double] = []

    /// Ranks handed to rows that name only non-basic symbols (below everything) and to rows
    /// that may name anything (above everything).
    var lowRank = 0
    var highRank = 0

    var tolerance = Tolerance()
    var pivots = 0
    /// Terms of rows read by column walks (FTRAN), reductions (BTRAN) and value propagation:
    /// the tableau's work, counted as the clock cannot be (the same on every machine). A
    /// pivot's cost is its cones, which a pivot count does not show.
    var termsRead = 0
    /// Σ row lengths over basic symbols: with the records' own size, it tells how much fill-in
    /// pivots have added since the last refactorisation.
    var termCount = 0
    var refactorisations = 0
    /// `termCount` when the tableau was last known free of fill-in (after a refactorisation,
    /// or grown by additions, which add short rows).
    var cleanTermCount = 0
    /// Whether a pivot since the last refactorisation divided by an element far below its
    /// row's largest (``smallPivotRatio``). Such a pivot writes rows whose entries carry the
    /// rounding of the whole row times 1/element; a fresh factorisation of the same basis does
    /// not, so a removal (which can leave the basis those rows were written for) rebuilds.
    var sawSmallPivot = false {
        didSet { if sawSmallPivot { everSawSmallPivot = true } }
    }
    /// Whether ``sawSmallPivot`` was ever set: a tableau that has held such rows is rebuilt
    /// at the end of every pass of the incremental driver
    /// (``CassowarySolver/refactorAfterSmallPivot(sinceEver:)``).
    var everSawSmallPivot = false
    /// |pivot element| / max |row entry| below which ``sawSmallPivot`` is set.
    static let smallPivotRatio = 1e-6

    /// Undo records of the current attempt: `journal[..<journalLength]` (entries beyond are
    /// stale, overwritten in place, so ending an attempt costs nothing).
    var journal: [JournalEntry] = []
    var journalLength = 0
    var journalSpill: [LexVector] = []
    var journaling = false
    /// The candidate and infeasible lists when the attempt began (restored on rollback).
    var savedCandidates: [Int] = []
    var savedInfeasible: [Int] = []
    var journalBase = 0

    /// Retired symbols (and forgotten external ones) waiting to be handed out again by
    /// `newSymbol`, most recently retired last. Without it a long-lived solver — a layout
    /// engine adding and removing rows for 100,000 passes — grows a record, a reduced cost and a
    /// column-index head per symbol it ever made, and every walk over all symbols (a
    /// refactorisation, the ambiguity estimate) slows with it. Each member is `.retired`,
    /// non-basic, named by no row, on no list, with a zero reduced cost and value.
    var freeSymbols: [Int] = []
    /// Symbols the current attempt took from `freeSymbols`, with their retired state: a
    /// rollback restores them and hands them back in the same order.
    var reusedSymbols: [(symbol: Int, state: SymbolState)] = []

    #if DEBUG
    /// Debug builds: how often ``checkInvariantsAfterMutation()`` was reached.
    var mutationChecks = 0
    #endif

    var symbolCount: Int { symbols.count }
}
