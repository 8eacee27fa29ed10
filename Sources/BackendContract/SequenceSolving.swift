import LayoutModel

/// One pass of an update sequence as a backend answered it.
public struct PassOutcome: Sendable, Hashable {
    /// The pass (0-based: 0 is the sequence's initial system).
    public var pass: Int
    /// The update steps applied just before this pass (0 for the first).
    public var steps: Int
    /// The pass's answer, or why there is none (a pass the backend does not support, a
    /// backend failure). Its statistics cover the pass's steps and its answer together.
    public var result: Result<BackendResult, BackendError>

    public init(pass: Int, steps: Int, result: Result<BackendResult, BackendError>) {
        self.pass = pass
        self.steps = steps
        self.result = result
    }

    /// The answer, if there is one.
    public var answer: BackendResult? { try? result.get() }

    /// The pass's duration spread over its steps (its whole duration for a pass after none).
    public var durationPerStep: Duration {
        guard let answer else { return .zero }
        return steps > 1 ? answer.statistics.duration / steps : answer.statistics.duration
    }
}

/// Every pass of an update sequence, in order.
public struct SequenceResult: Sendable, Hashable {
    public var passes: [PassOutcome]

    public init(passes: [PassOutcome]) { self.passes = passes }
}

extension LayoutBackend {
    /// The default way through a sequence: each pass's system solved from scratch
    /// (``UpdateSequence/forEachPass(_:)``), a pass the backend does not support answered by
    /// its reason. `budget` applies to each pass.
    public func solve(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult {
        solvePassesFromScratch(sequence, budget: budget)
    }

    /// Each pass's system solved alone: the default of ``solve(_:budget:)-(UpdateSequence,_)``,
    /// and the metamorphic twin of an incremental backend's answer.
    public func solvePassesFromScratch(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult {
        var passes: [PassOutcome] = []
        passes.reserveCapacity(sequence.passCount)
        sequence.forEachPass { pass, system in
            let steps = pass == 0 ? 0 : sequence.updates[pass - 1].count
            let result: Result<BackendResult, BackendError>
            switch supports(system) {
            case .supported:
                do throws(BackendError) {
                    result = .success(try solve(system, budget: budget))
                } catch {
                    result = .failure(error)
                }
            case .unsupported(let reason):
                result = .failure(.unsupported(backend: name, reason: reason))
            }
            passes.append(PassOutcome(pass: pass, steps: steps, result: result))
        }
        return SequenceResult(passes: passes)
    }
}
