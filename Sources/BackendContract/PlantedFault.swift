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
    /// The lexicographic phase also fixes columns whose reduced cost is zero at a level
    /// below the first: the weaker levels optimise over too small a face.
    case exactFixesFlatColumns = "exact-fixes-flat-columns"
    /// The conflict keeps one member too many: the Farkas support's last member that the
    /// deletion filter dropped.
    case exactConflictOneTooBig = "exact-conflict-one-too-big"
    /// The determinacy shortcut lets the slack of an active upper bound move both ways, so
    /// a position held by an upper bound active at the optimum reads ambiguous.
    case exactUpperBoundShortcut = "exact-upper-bound-shortcut"
    /// Farkas multipliers of broken `>=` constraints are certified with the wrong sign.
    case exactFarkasSign = "exact-farkas-sign"
    /// The ratio test breaks ties on the largest column instead of the smallest; with
    /// Bland's rule that is no longer a rule that cannot cycle, and a degenerate vertex
    /// ends the lexicographic phase early.
    case exactRatioTieLast = "exact-ratio-tie-last"
    /// The conflict's irreducibility witnesses are the points before the member was dropped.
    case exactStaleWitness = "exact-stale-witness"

    // The float backend (caught by the backward-error judge as wrong).
    /// The reduced costs of the weakest level are not updated by pivots after the first.
    case floatDropsWeakCostUpdate = "float-drops-weak-cost-update"
    /// Optional priorities less than 1 apart share a level.
    case floatMergesNearPriorities = "float-merges-near-priorities"
    /// The primal ratio test takes the last of tied rows instead of the first.
    case floatRatioTieLast = "float-ratio-tie-last"
    /// The ambiguity estimate lets a slack at zero move both ways (an active upper bound
    /// reads as a free position).
    case floatUpperBoundAmbiguity = "float-upper-bound-ambiguity"
    /// The conflict is reported as the tableau explains it, without deletion filtering.
    case floatUnfilteredConflict = "float-unfiltered-conflict"

    // The Gaussian baseline.
    /// The pivot tolerance is 1e-3 relative instead of about 1e-12: nearly dependent rows
    /// read as dependent.
    case gaussianPivotTolerance = "gaussian-pivot-tolerance"
    /// Back substitution forgets the multiplier of the last free column.
    case gaussianDropsLastFreeColumn = "gaussian-drops-last-free-column"

    // The float backend's incremental path (caught by unit tests; by sequence fuzzing later).
    /// `suggestValue` moves the edit constant but does not re-optimise.
    case incrementalSuggestSkipsOptimize = "incremental-suggest-skips-optimize"
    /// A rejected addition's rollback keeps one journal entry (the last reduced cost).
    case incrementalRollbackKeepsEntry = "incremental-rollback-keeps-entry"
    /// Removing an optional constraint leaves its error symbol's cost in the objective.
    case incrementalRemovalKeepsErrorCost = "incremental-removal-keeps-error-cost"

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
