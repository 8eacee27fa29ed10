import BackendContract
import FloatSimplex
import LayoutModel

/// What one run of a workload through ``CassowarySolver`` cost and produced.
public struct IncrementalMeasurement: Sendable {
    public var workload: String
    public var constraintCount: Int
    /// Adding every constraint, in order (best of several runs for short workloads).
    public var addSeconds: Double
    /// Making the edit variables editable.
    public var editSeconds: Double
    /// All suggestions, each followed by reading every value.
    public var suggestSeconds: Double
    public var suggestionCount: Int
    public var pivots: Int
    /// Constraints the solver rejected (none for the built-in workloads).
    public var rejected: Int
    /// Every variable's final value.
    public var values: [Double]
}

/// Runs workloads through the incremental API.
public enum IncrementalBenchmark {
    /// Whether a timed loop runs again: until `minimumSeconds` have been spent and at least
    /// ``minimumRuns`` runs made, at most `maximumRuns` runs, and none begun after
    /// ``maximumSeconds``. At 10,000 views a run takes 15–60 ms, and 0.2 s alone kept the
    /// best of 3–13 runs. (Most of the spread at that size is between processes, which more
    /// runs in one process do not remove: docs/float-backend.md, "Benchmark".)
    static func repeats(spent: Double, runs: Int, minimumSeconds: Double, maximumRuns: Int) -> Bool {
        runs < maximumRuns && spent < maximumSeconds && (spent < minimumSeconds || runs < minimumRuns)
    }

    /// The fewest timed runs of a workload whose runs are short enough (``repeats(spent:runs:minimumSeconds:maximumRuns:)``).
    static let minimumRuns = 10
    /// No timed run begins after this many seconds (one run of a slow workload is all it gets).
    static let maximumSeconds = 2.0

    /// Runs `workload` until `minimumSeconds` of adding have been spent (at most `maximumRuns`
    /// runs; at least ``minimumRuns`` where they fit in ``maximumSeconds``) and keeps the fastest
    /// add; suggestions run once, after the last add.
    public static func run(_ workload: IncrementalWorkload, minimumSeconds: Double = 0.2, maximumRuns: Int = 100) -> IncrementalMeasurement {
        var bestAdd = Double.infinity
        var spent = 0.0
        var runs = 0
        var solver = CassowarySolver()
        var rejected = 0
        var groupValues: [Double] = []
        repeat {
            solver = CassowarySolver()
            rejected = 0
            // Cell solvers stay alive until the clock stops, as kiwi's driver keeps its solvers:
            // both sides time building the cells, neither times tearing them down.
            var cells: [CassowarySolver] = []
            let start = ContinuousClock.now
            if let group = workload.groupSize, group > 0 {
                cells.reserveCapacity(workload.constraints.count / group + 1)
                var lower = 0
                while lower < workload.constraints.count {
                    var cell = CassowarySolver()
                    let upper = min(lower + group, workload.constraints.count)
                    for constraint in workload.constraints[lower..<upper] {
                        do { try cell.addConstraint(constraint) } catch { rejected += 1 }
                    }
                    if runs == 0 {
                        if groupValues.isEmpty { groupValues = Array(repeating: 0, count: workload.variableCount) }
                        for constraint in workload.constraints[lower..<upper] {
                            for term in constraint.terms { groupValues[term.variable.index] = cell.value(of: term.variable) }
                        }
                    }
                    lower = upper
                    // Moved, not copied, into the array.
                    cells.append(consume cell)
                }
            } else {
                for constraint in workload.constraints {
                    do { try solver.addConstraint(constraint) } catch { rejected += 1 }
                }
            }
            let seconds = (ContinuousClock.now - start).inSeconds
            cells.removeAll()
            bestAdd = min(bestAdd, seconds)
            spent += seconds
            runs += 1
        } while repeats(spent: spent, runs: runs, minimumSeconds: minimumSeconds, maximumRuns: maximumRuns)

        let editStart = ContinuousClock.now
        for edit in workload.edits { try? solver.addEditVariable(edit.variable, strength: edit.strength) }
        let editSeconds = (ContinuousClock.now - editStart).inSeconds

        // Reading every value is part of a suggestion's cost (kiwi's updateVariables); the
        // values go into `last`, so the reads cannot be optimised away.
        var last = Array(repeating: 0.0, count: workload.variableCount)
        let suggestStart = ContinuousClock.now
        for step in workload.suggestions {
            for (variable, value) in step { try? solver.suggestValue(variable, value) }
            for index in 0..<workload.variableCount { last[index] = solver.value(of: Variable(index)) }
        }
        let suggestSeconds = (ContinuousClock.now - suggestStart).inSeconds

        return IncrementalMeasurement(
            workload: workload.name, constraintCount: workload.constraints.count, addSeconds: bestAdd,
            editSeconds: editSeconds, suggestSeconds: suggestSeconds,
            suggestionCount: workload.suggestions.reduce(0) { $0 + $1.count }, pivots: solver.pivotCount,
            rejected: rejected,
            values: !groupValues.isEmpty ? groupValues
                : workload.suggestions.isEmpty ? (0..<workload.variableCount).map { solver.value(of: Variable($0)) } : last)
    }

    /// The fastest of `float`'s one-shot solves of `system` (lowering included), repeated as
    /// ``run(_:minimumSeconds:maximumRuns:)`` repeats additions, the last result, and the order
    /// the solve added the rows in (for ``IncrementalWorkload/adding(_:name:order:)``).
    public static func oneShot(
        _ system: ConstraintSystem, minimumSeconds: Double = 0.2, maximumRuns: Int = 100
    ) throws(BackendError) -> (seconds: Double, result: BackendResult, order: [Int]) {
        let backend = CassowaryBackend()
        var best = Double.infinity
        var spent = 0.0
        var runs = 0
        while true {
            let start = ContinuousClock.now
            let (result, order) = try backend.solveReportingOrder(system, budget: .unlimited)
            let seconds = (ContinuousClock.now - start).inSeconds
            best = min(best, seconds)
            spent += seconds
            runs += 1
            if !repeats(spent: spent, runs: runs, minimumSeconds: minimumSeconds, maximumRuns: maximumRuns) {
                return (best, result, order)
            }
        }
    }
}
