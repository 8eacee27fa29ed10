#if LAYOUTBENCH_FAULTS
/// Deliberate bugs the fuzzer's self-tests plant in the backends, one at a time, to show
/// that the default campaign catches each (`docs/fuzzing.md`, "Planted faults").
///
/// The whole type exists only in debug builds (`LAYOUTBENCH_FAULTS` is defined for the
/// debug configuration alone), and so does every hook that reads it: a release binary has
/// neither. The active fault is a task-local value, so tests that run concurrently each see
/// their own (none outside ``withFault(_:_:)``).
public enum PlantedFault: String, Sendable, Hashable, CaseIterable {
    // The exact backend (caught by the reference checks).
    /// At the weakest level, the lexicographic phase fixes the columns whose reduced cost is
    /// zero along with the positive ones (`>= 0` for `> 0`): the optimal face shrinks, and
    /// unknowns that move on it read determined.
    case exactFixesFlatColumns = "exact-fixes-flat-columns"
    /// The conflict gathers, besides the first broken constraint's own, the Farkas support of
    /// every later broken constraint: too big, yet infeasible, on systems with several routes
    /// to a contradiction.
    case exactConflictUnion = "exact-conflict-union"
    /// The determinacy shortcut forgets that a level fixed the slack of a required upper
    /// bound, so a position held by an upper bound active at the optimum reads ambiguous.
    case exactUpperBoundShortcut = "exact-upper-bound-shortcut"
    /// Farkas multipliers of `>=` constraints are certified with the wrong sign.
    case exactFarkasSign = "exact-farkas-sign"
    /// A conflict member's irreducibility witness is the point before the member was dropped.
    case exactStaleWitness = "exact-stale-witness"
    /// Where Bland's rule should take over (after 20 degenerate pivots in a row), pricing
    /// gives up and calls the degenerate vertex optimal: the level stops short of its optimum
    /// on inputs whose degenerate runs are that long.
    case exactBlandStopsEarly = "exact-bland-stops-early"
    /// The propagation of columns zero on the optimal face also forces a degenerate row whose
    /// columns all enter it negatively (a sign slip), so ambiguous unknowns read determined.
    case exactZeroFaceSign = "exact-zero-face-sign"

    // The float backend (caught by the backward-error judge as wrong).
    /// Optional priorities with the same integral part share a level (999.9999 and 999).
    case floatMergesNearPriorities = "float-merges-near-priorities"
    /// A pivot passes the entering symbol's reduced cost on without its weakest level.
    case floatDropsWeakCostUpdate = "float-drops-weak-cost-update"
    /// The ambiguity estimate reads the reduced cost of a required upper bound's slack as
    /// zero, so a position the bound holds at the optimum reads ambiguous.
    case floatUpperBoundAmbiguity = "float-upper-bound-ambiguity"
    /// The conflict is the union of every broken constraint's conflict, not the first's.
    case floatConflictUnion = "float-conflict-union"
    /// The pivot tolerance is 1e-3 relative instead of 1e-9: a well-posed pair whose
    /// elimination leaves a pivot of 1e-4 reads as dependent.
    case floatPivotTolerance = "float-pivot-tolerance"

    // The Gaussian baseline.
    /// The pivot tolerance is 1e-3 relative instead of 1e-10: nearly dependent but
    /// well-posed rows read as dependent.
    case gaussianPivotTolerance = "gaussian-pivot-tolerance"
    /// A basic unknown counts as undetermined only through free columns before its pivot.
    case gaussianFreeColumnsBeforePivot = "gaussian-free-columns-before-pivot"

    // The float backend's incremental path (caught by `fuzz --sequences` and by unit tests).
    /// `suggestValue` moves the edit constant but does not re-optimise.
    case incrementalSuggestSkipsOptimize = "incremental-suggest-skips-optimize"
    /// A failed attempt's rollback (a rejected addition, an infeasible constant change) keeps
    /// one journal entry: a basic symbol's value, the first the attempt journaled.
    case incrementalRollbackKeepsEntry = "incremental-rollback-keeps-entry"
    /// Removing an optional constraint leaves its error symbol's cost in the objective.
    case incrementalRemovalKeepsErrorCost = "incremental-removal-keeps-error-cost"

    /// The faults a fuzz campaign must catch, with the backend each is planted in.
    public static let campaignFaults: [(fault: PlantedFault, backend: String)] = [
        (.exactFixesFlatColumns, "exact"), (.exactConflictUnion, "exact"), (.exactUpperBoundShortcut, "exact"),
        (.exactFarkasSign, "exact"), (.exactStaleWitness, "exact"), (.exactZeroFaceSign, "exact"), (.exactBlandStopsEarly, "exact"),
        (.floatMergesNearPriorities, "float"), (.floatDropsWeakCostUpdate, "float"), (.floatUpperBoundAmbiguity, "float"),
        (.floatConflictUnion, "float"), (.floatPivotTolerance, "float"),
        (.gaussianPivotTolerance, "gaussian"), (.gaussianFreeColumnsBeforePivot, "gaussian"),
    ]

    /// The fault planted in the current task, if any.
    @TaskLocal public static var active: PlantedFault?

    /// Whether this fault is the one planted in the current task.
    public static func isActive(_ fault: PlantedFault) -> Bool { active == fault }
}

/// Runs `body` with `fault` planted (in this task and the child tasks it starts).
public func withFault<T>(_ fault: PlantedFault?, _ body: () throws -> T) rethrows -> T {
    try PlantedFault.$active.withValue(fault, operation: body)
}
#endif
