import BackendContract
import FloatSimplex
import Foundation
import LayoutModel

/// What one run of an update sequence through ``IncrementalPassSolver`` cost.
public struct SequenceMeasurement: Sendable {
    /// Seconds per pass after the first (each pass's steps, the re-optimisation and reading
    /// every value and the status; no objective, no ambiguity estimate, no irreducible
    /// conflict), in order.
    public var passSeconds: [Double]
    /// The first pass: building the solver from the initial system.
    public var firstPassSeconds: Double
    /// From-scratch float solves (`CassowaryBackend`, lowering included) of sampled passes.
    public var scratchSeconds: [Double]
    /// The solver's storage (terms + symbols) and the process's resident memory, sampled
    /// evenly over the passes: flat when nothing leaks.
    public var storage: [(pass: Int, storage: Int, residentBytes: Int?)]
    /// The row-level steps of every pass, for kiwi (when asked for).
    public var rowSteps: [[IncrementalPassSolver.RowStep]]
    /// Passes whose answer broke a required constraint (the sequence families should have none).
    public var unsatisfiablePasses: Int
    /// Pivots over every pass after the first.
    public var pivots: Int
}

/// Runs update sequences through the incremental path, and samples from-scratch solves.
public enum SequenceBenchmark {
    public static func run(
        _ sequence: UpdateSequence, scratchSamples: Int = 20, storageSamples: Int = 10, recordRowSteps: Bool = false
    ) throws(BackendError) -> SequenceMeasurement {
        var driver = IncrementalPassSolver(sequence: sequence, reportsAmbiguity: false)
        // Per-step cost, as kiwi is timed: neither reports an ambiguity estimate or an
        // irreducible conflict (status and broken constraints are still found each pass).
        driver.reportsConflict = false
        // Nor an objective (kiwi's driver only updates the values).
        driver.reportsObjective = false
        driver.recordsRowSteps = recordRowSteps
        var passSeconds: [Double] = []
        passSeconds.reserveCapacity(sequence.updates.count)
        var storage: [(Int, Int, Int?)] = []
        let storageStride = max(1, sequence.updates.count / max(storageSamples, 1))
        var unsatisfiable = 0
        var pivots = 0
        var start = ContinuousClock.now
        var result = try driver.solveNextPass([])
        let firstPass = (ContinuousClock.now - start).inSeconds
        if result.solution.status == .unsatisfiable { unsatisfiable += 1 }
        for (k, steps) in sequence.updates.enumerated() {
            start = ContinuousClock.now
            result = try driver.solveNextPass(steps)
            passSeconds.append((ContinuousClock.now - start).inSeconds)
            pivots += result.statistics.iterations
            if result.solution.status == .unsatisfiable { unsatisfiable += 1 }
            if (k + 1) % storageStride == 0 {
                storage.append((k + 1, driver.solver.storedTermCount + driver.solver.symbolCount, residentBytes()))
            }
        }
        var scratch: [Double] = []
        let scratchStride = max(1, sequence.passCount / max(scratchSamples, 1))
        let backend = CassowaryBackend()
        var failure: BackendError?
        sequence.forEachPass { pass, system in
            guard failure == nil, pass % scratchStride == scratchStride - 1 || sequence.passCount == 1 else { return }
            let start = ContinuousClock.now
            do throws(BackendError) {
                _ = try backend.solve(system, budget: .unlimited)
            } catch {
                failure = error
            }
            scratch.append((ContinuousClock.now - start).inSeconds)
        }
        if let failure { throw failure }
        return SequenceMeasurement(
            passSeconds: passSeconds, firstPassSeconds: firstPass, scratchSeconds: scratch, storage: storage,
            rowSteps: driver.rowSteps, unsatisfiablePasses: unsatisfiable, pivots: pivots)
    }

    /// The float core given exactly what kiwi's driver is given (`scripts/kiwi/driver.py`,
    /// mode `sequence`): the row-level steps of each pass (``IncrementalPassSolver/rowSteps``)
    /// straight to one ``CassowarySolver`` — an addition is `addConstraint` (a rejected one is
    /// dropped, as kiwi drops it), a removal `removeConstraint`, a constant `setConstant` —
    /// then every variable any step named read into one array (kiwi's `updateVariables`).
    /// Seconds per pass after the first, as kiwi's are taken: the same work on both sides,
    /// with no step replay, lowering, §5.1 walk or answer beyond the values; and the values
    /// after the last pass, by solver variable.
    public static func rowStepSeconds(
        _ rowSteps: [[IncrementalPassSolver.RowStep]]
    ) throws(BackendError) -> (seconds: [Double], lastValues: [Double]) {
        var variableCount = 0
        var keyCount = 0
        for steps in rowSteps {
            for step in steps {
                switch step {
                case .add(let key, let row):
                    keyCount = max(keyCount, key + 1)
                    for term in row.terms { variableCount = max(variableCount, term.variable.index + 1) }
                case .remove(let key), .setConstant(let key, _):
                    keyCount = max(keyCount, key + 1)
                }
            }
        }
        var solver = CassowarySolver()
        var handles = [ConstraintHandle?](repeating: nil, count: keyCount)
        // The row each held key was added with: a removal followed by the same key's
        // re-addition at another optional level (kiwi's only way to change a priority) is an
        // in-place strength change here, as the float driver makes it.
        var heldRows = [LinearConstraint?](repeating: nil, count: keyCount)
        let variables = (0..<variableCount).map(Variable.init)
        var values = [Double](repeating: 0, count: variableCount)
        var seconds: [Double] = []
        seconds.reserveCapacity(rowSteps.count)
        for (pass, steps) in rowSteps.enumerated() {
            let start = ContinuousClock.now
            var skipsNext = false
            for (position, step) in steps.enumerated() {
                if skipsNext {
                    skipsNext = false
                    continue
                }
                do throws(CassowaryError) {
                    switch step {
                    case .add(let key, let row):
                        handles[key] = try solver.addConstraint(row)
                        heldRows[key] = row
                    case .remove(let key)
                        where position + 1 < steps.count && handles[key] != nil
                            && Self.isStrengthChange(of: heldRows[key], to: steps[position + 1], key: key):
                        guard case .add(_, let row) = steps[position + 1], let handle = handles[key] else { break }
                        skipsNext = true
                        try solver.setStrength(handle, to: row.strength)
                        if heldRows[key]?.constant != row.constant { try solver.setConstant(handle, to: row.constant) }
                        heldRows[key] = row
                    case .remove(let key):
                        heldRows[key] = nil
                        if let handle = handles[key] {
                            handles[key] = nil
                            try solver.removeConstraint(handle)
                        }
                    case .setConstant(let key, let constant):
                        if let handle = handles[key] { try solver.setConstant(handle, to: constant) }
                    }
                } catch .unsatisfiable {
                    // Rejected, as kiwi rejects it; a constant the required rows cannot take stays as it was.
                } catch {
                    throw .internalFailure(backend: "float", message: "row step \(step): \(error)")
                }
            }
            for index in variables.indices { values[index] = solver.value(of: variables[index]) }
            if pass > 0 { seconds.append((ContinuousClock.now - start).inSeconds) }
        }
        return (seconds, values)
    }

    /// Whether `next` re-adds `key`'s row `held` with the same terms and relation at another
    /// optional level (an optional row's new priority, as kiwi is told it: removal, addition).
    static func isStrengthChange(of held: LinearConstraint?, to next: IncrementalPassSolver.RowStep, key: Int) -> Bool {
        guard let held, case .add(let nextKey, let row) = next, nextKey == key else { return false }
        return !held.strength.isRequired && !row.strength.isRequired && held.strength != row.strength
            && held.relation == row.relation && held.terms == row.terms
    }

    /// Resident set size from /proc/self/statm, nil where there is none.
    public static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
