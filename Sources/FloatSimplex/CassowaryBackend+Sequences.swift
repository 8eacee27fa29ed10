import BackendContract
import LayoutModel

extension CassowaryBackend {
    /// Every pass of `sequence` through one ``IncrementalPassSolver``: the steps go through
    /// the solver's incremental API and nothing is solved from scratch (spec §7: each answer
    /// is still that of a fresh solve of the pass's system). `budget` applies to each pass.
    public func solve(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult {
        var driver = IncrementalPassSolver(
            sequence: sequence, conflictFilterLimit: conflictFilterLimit, ambiguityProbeLimit: ambiguityProbeLimit)
        var passes: [PassOutcome] = []
        passes.reserveCapacity(sequence.passCount)
        for pass in 0..<sequence.passCount {
            let steps = pass == 0 ? [] : sequence.updates[pass - 1]
            let result: Result<BackendResult, BackendError>
            do throws(BackendError) {
                result = .success(try driver.solveNextPass(steps, budget: budget))
            } catch {
                result = .failure(error)
            }
            passes.append(PassOutcome(pass: pass, steps: steps.count, result: result))
        }
        return SequenceResult(passes: passes)
    }
}
