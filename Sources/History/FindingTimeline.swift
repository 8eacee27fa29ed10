import Reporting

/// Where a finding signature stands after a run (docs/history.md, "Findings across runs").
public enum FindingState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Seen in this run for the first time.
    case new
    /// Seen before and not (yet) fixed: seen again, or missed by fewer than K covering runs.
    case open
    /// Not seen in the last K runs that covered its backends and families.
    case fixed
    /// Seen again after it was fixed.
    case back
}

/// A state a signature entered at a run.
public struct StateChange: Sendable, Hashable {
    public var runID: Int64
    public var createdAt: String
    public var state: FindingState
}

/// One signature's life across the recorded fuzz runs.
public struct SignatureHistory: Sendable, Hashable {
    /// `class/backend[/oracle][@verdict]`.
    public var signature: String
    /// The state after the latest fuzz run.
    public var state: FindingState
    public var firstSeen: String
    public var lastSeen: String
    /// Runs that saw it.
    public var runsSeen: Int
    /// Covering runs since it was last seen that did not see it.
    public var missedSince: Int
    /// Every state it entered, in order (`new` first).
    public var changes: [StateChange]
    /// The stored finding of the latest run that kept one: what to replay.
    public var latestFinding: RecordedFinding?

    /// Whether its findings are bugs (a signature without `@verdict`); ill-conditioned and
    /// semantics findings are counted apart and never fail a run.
    public var isWrong: Bool { !signature.contains("@") }

    /// When it last changed state.
    public var lastChange: String { changes.last?.createdAt ?? firstSeen }

    /// The command that replays its latest stored repro (absolute path), or rebuilds its case.
    public var replayCommand: String? {
        guard let finding = latestFinding else { return nil }
        if let path = finding.reproPath { return "layoutbench replay " + Markup.shellWord(path) }
        return "layoutbench generate --family \(Markup.shellWord(finding.family)) --size \(finding.size) --seed \(finding.seed)"
    }

    /// The backend at fault, from the signature.
    public var backend: String {
        let body = signature.split(separator: "@", maxSplits: 1).first.map(String.init) ?? signature
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count >= 2 ? String(parts[1]) : "-"
    }
}

/// What one fuzz run did to the signatures: each one it saw, and each one it made `fixed`.
public struct RunStates: Sendable, Hashable {
    public var runID: Int64
    public var createdAt: String
    public var reportPath: String?
    public var states: [String: FindingState]

    public func count(_ state: FindingState) -> Int { states.values.filter { $0 == state }.count }
}

/// The states of every finding signature, replayed from the recorded fuzz runs in time order
/// (as ClusterFuzz tracks a testcase: first seen, fixed, regressed).
///
/// A signature is `new` in the run that first sees it and `back` in a run that sees it after
/// it was `fixed`; in any later run it is `open` until K runs in a row that *cover* it have
/// not seen it, and then `fixed`. A run covers a signature when it ran the whole campaign
/// (no missing or interrupted shard) with the signature's backends (the one at fault and the
/// reference its findings were compared with) on at least one family it was found in: a
/// campaign that did not look cannot say that a bug is gone.
public struct FindingTimeline: Sendable {
    /// K: covering runs without the signature before it counts as fixed.
    public let fixedAfter: Int
    /// Every signature ever seen, sorted by signature.
    public let signatures: [SignatureHistory]
    /// Per fuzz run, oldest first.
    public let runs: [RunStates]

    public init(observations: [FuzzRunObservation], fixedAfter: Int = 3) {
        self.fixedAfter = max(1, fixedAfter)
        var histories: [String: SignatureHistory] = [:]
        // What a signature needs of a run to be covered: its backends and families.
        var backendsOf: [String: Set<String>] = [:]
        var familiesOf: [String: Set<String>] = [:]
        var runs: [RunStates] = []
        for run in observations {
            var states: [String: FindingState] = [:]
            let seen = Set(run.occurrences.filter { $0.value > 0 }.keys)
            let kept = Dictionary(grouping: run.findings, by: \.signature)
            for signature in seen.sorted() {
                var history = histories[signature] ?? SignatureHistory(
                    signature: signature, state: .new, firstSeen: run.createdAt, lastSeen: run.createdAt, runsSeen: 0,
                    missedSince: 0, changes: [], latestFinding: nil)
                let state: FindingState = histories[signature] == nil ? .new : (history.state == .fixed ? .back : .open)
                if state != history.state || history.changes.isEmpty {
                    history.changes.append(StateChange(runID: run.runID, createdAt: run.createdAt, state: state))
                }
                history.state = state
                history.lastSeen = run.createdAt
                history.runsSeen += 1
                history.missedSince = 0
                if let finding = kept[signature]?.min(by: { $0.fingerprint < $1.fingerprint }) { history.latestFinding = finding }
                backendsOf[signature, default: [history.backend]].formUnion(kept[signature]?.flatMap(\.backends) ?? [])
                familiesOf[signature, default: []].formUnion(kept[signature]?.map(\.family) ?? [])
                histories[signature] = history
                states[signature] = state
            }
            for (signature, var history) in histories where !seen.contains(signature) {
                let needed = backendsOf[signature] ?? [history.backend]
                let families = familiesOf[signature] ?? []
                let covered = run.isComplete && needed.isSubset(of: run.backends)
                    && (families.isEmpty || run.families.isEmpty || !families.isDisjoint(with: run.families))
                if covered { history.missedSince += 1 }
                if history.state != .fixed && history.missedSince >= self.fixedAfter {
                    history.state = .fixed
                    history.changes.append(StateChange(runID: run.runID, createdAt: run.createdAt, state: .fixed))
                    states[signature] = .fixed
                } else if history.state == .new || history.state == .back {
                    // New or back only in the run that saw it.
                    history.state = .open
                    history.changes.append(StateChange(runID: run.runID, createdAt: run.createdAt, state: .open))
                }
                histories[signature] = history
            }
            runs.append(RunStates(runID: run.runID, createdAt: run.createdAt, reportPath: run.reportPath, states: states))
        }
        signatures = histories.values.sorted { $0.signature < $1.signature }
        self.runs = runs
        assert(_checkInvariants())
    }

    /// Every signature's changes start with `new` and follow the state machine (`fixed` only
    /// from a seen state, `back` only after `fixed`), end in its state, and it was seen.
    func _checkInvariants() -> Bool {
        signatures.allSatisfy { history in
            guard history.changes.first?.state == .new, history.changes.last?.state == history.state, history.runsSeen >= 1 else {
                return false
            }
            return zip(history.changes, history.changes.dropFirst()).allSatisfy { previous, next in
                switch next.state {
                case .new: return false
                case .back: return previous.state == .fixed
                case .fixed: return previous.state != .fixed
                case .open: return previous.state == .new || previous.state == .back
                }
            }
        }
    }

    /// The states a run gave: the signatures it saw and those it made fixed (nil when the run
    /// is not a recorded fuzz run).
    public func states(atRun runID: Int64) -> RunStates? {
        runs.first { $0.runID == runID }
    }

    /// Signatures in any of `states` whose last sighting or last change is at or after
    /// `since` (an ISO 8601 time as stored; nil for all).
    public func signatures(in states: Set<FindingState>, since: String? = nil) -> [SignatureHistory] {
        signatures.filter { history in
            states.contains(history.state) && (since.map { history.lastSeen >= $0 || history.lastChange >= $0 } ?? true)
        }
    }
}
