import BackendContract
import ExactSimplex
import FloatSimplex
import Fuzzing
import GaussianBackend
import Generator
import LayoutModel

/// Judges a decoded case the way `layoutbench fuzz` judges a generated one — every pass of
/// its sequence solved from scratch by every in-process backend (exact, float, Gaussian),
/// compared with the exact reference, the reference's certificate checked, the case's
/// oracle applied; and a case of several passes also as `fuzz --sequences` judges one, every
/// backend answering along the sequence through its sequence API (float incrementally) —
/// and says whether the fuzzer must stop: only on a `wrong` finding
/// (a failed certificate check is one, against `exact`). Budget findings do not stop it:
/// on an instrumented build they measure the instrumentation, and libFuzzer's own
/// `-timeout` catches a hang.
public struct GuidedJudge: Sendable {
    public let campaign: FuzzCampaign

    /// The family name findings of the guided fuzzer carry.
    public static let family = "guided"

    public init(budget: Budget = Budget(iterations: 200_000, wallTime: .seconds(60)), reduce: Bool = true) {
        let exact = ExactSimplexBackend()
        campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 0, families: [], backends: [exact, CassowaryBackend(), GaussianEliminationBackend()], reference: exact,
            budget: budget, reducer: reduce ? Reducer() : nil))
    }

    /// A finding on one pass of a case.
    public struct PassFinding: Sendable {
        public var pass: Int
        public var system: ConstraintSystem
        public var occurrence: FuzzCampaign.Occurrence
        /// Set for a finding along the sequence (a backend's sequence path, or the
        /// `from-scratch` oracle): the whole sequence, reduced as a sequence.
        public var sequence: UpdateSequence?
    }

    /// The seed findings of a case record: the FNV-1a hash of its bytes, so that a finding
    /// leads back to its input.
    public static func seed(of bytes: some Collection<UInt8>) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
    }

    /// Every finding on every pass.
    public func findings(_ guided: GuidedCase, seed: UInt64) -> [PassFinding] {
        var found: [PassFinding] = []
        var systems: [ConstraintSystem] = []
        guided.sequence.forEachPass { pass, system in
            systems.append(system)
            for occurrence in campaign.judge(given: system, oracle: guided.oracle, seed: seed, redecide: guided.redecide) {
                found.append(PassFinding(pass: pass, system: system, occurrence: occurrence))
            }
        }
        guard guided.sequence.passCount > 1 else { return found }
        // Along the sequence: what each pass's fresh solve above cannot show, an incremental
        // path that drifts from it.
        let seen = Set(found.map(\.occurrence.finding.signature))
        for finding in campaign.judge(givenSequence: guided.sequence, seed: seed) where !seen.contains(finding.signature) {
            let pass = min(max((finding.pass ?? 1) - 1, 0), systems.count - 1)
            found.append(PassFinding(
                pass: pass, system: systems[pass],
                occurrence: FuzzCampaign.Occurrence(finding: finding, transform: finding.oracle == nil ? nil : FuzzCampaign.fromScratchTransform),
                sequence: guided.sequence))
        }
        return found
    }

    /// Whether a finding stops the fuzzer: a wrong verdict, unless it is about the budget.
    public static func isFatal(_ finding: Finding) -> Bool {
        finding.verdict == .wrong && finding.kind != .budget
    }

    /// The first fatal finding on a case, if any, passing over those `known` records on this
    /// very input (a corpus seed marked as an expected failure).
    public func firstFatal(_ guided: GuidedCase, seed: UInt64, known: KnownFailures = KnownFailures()) -> PassFinding? {
        findings(guided, seed: seed).first {
            Self.isFatal($0.occurrence.finding) && known.entry(for: $0.occurrence.finding, onInput: guided) == nil
        }
    }

    /// The finding reduced and packed as `layoutbench fuzz` stores its own (`FindingStore`).
    public func report(_ found: PassFinding, caseIndex: UInt64, seed: UInt64, oracle: MetamorphicOracle?) -> FuzzCampaign.Report {
        if let sequence = found.sequence {
            let spec = FuzzCampaign.CaseSpec.given(
                index: caseIndex, family: Self.family, size: sequence.initial.viewCount, seed: seed, steps: sequence.stepCount)
            return campaign.report(found.occurrence.finding, sequence: sequence, spec: spec)
        }
        let spec = FuzzCampaign.CaseSpec.given(
            index: caseIndex, family: Self.family, size: found.system.viewCount, seed: seed, oracle: oracle)
        return campaign.report(found.occurrence.finding, transform: found.occurrence.transform, system: found.system, spec: spec)
    }
}
