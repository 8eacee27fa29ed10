import BackendContract
import FloatSimplex
import Foundation
import LayoutModel

/// What one run of an update sequence through ``IncrementalPassSolver`` cost.
public struct SequenceMeasurement: Sendable {
    /// Seconds per pass after the first (each pass's steps, the re-optimisation and reading
    /// every value and the objective; no ambiguity estimate, no irreducible conflict), in order.
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

    /// Resident set size from /proc/self/statm, nil where there is none.
    public static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
