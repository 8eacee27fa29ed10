import Foundation
import LayoutModel

/// A disagreement with the spec's meaning of a solution, found by the comparator, a
/// metamorphic oracle, or a backend that failed.
public struct Finding: Sendable, Hashable, Codable {
    /// The class of a finding; the reducer keeps a case only while the same class reproduces.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Statuses differ, or the broken lists differ.
        case statusMismatch = "status-mismatch"
        /// A returned point violates a kept required constraint beyond the tolerance.
        case infeasiblePoint = "infeasible-point"
        /// The objective recomputed from the point is worse than the reference's at some level.
        case suboptimal
        /// A determined unknown has a different value.
        case determinedMismatch = "determined-mismatch"
        /// The sets of ambiguous unknowns differ.
        case ambiguityMismatch = "ambiguity-mismatch"
        /// A reported conflict is feasible, not irreducible, or misses the first broken one.
        case badConflict = "bad-conflict"
        /// A transformed system's answer breaks the transform's relation.
        case metamorphicViolation = "metamorphic-violation"
        /// The backend threw, trapped or was killed.
        case crash
        /// The backend ran out of its budget.
        case budget
        /// The exact backend's certificate was rejected by the independent checker.
        case badCertificate = "bad-certificate"
    }

    /// Whether a finding is a bug.
    public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
        /// No perturbation within the backend's declared precision explains the answer
        /// (certain), or the backend computes exactly, crashed or ran out of its budget.
        case wrong
        /// The answer is not refuted as exactly right for a system whose numbers differ
        /// from the given one by at most the backend's declared relative precision
        /// (`docs/fuzzing.md`, "Verdicts"): expected of a floating-point solver.
        case illConditioned = "ill-conditioned"
        /// A difference from the format's lexicographic answer that the backend's own declared
        /// semantics (a weighted priority model) explains: a note, not a bug (set by the
        /// ``SemanticsJudge`` of outside solvers).
        case semantics

        /// What findings written before verdicts existed read as: `wrong` (nothing was
        /// forgiven then).
        public enum Unrecorded: AbsentValueDefault {
            public static let value = Verdict.wrong
        }
    }

    /// How near a case is to the inputs that defeat floating point, measured on the
    /// reference's answer.
    public struct Conditioning: Sendable, Hashable, Codable {
        /// The smallest relative perturbation (coefficients relative to themselves,
        /// constants relative to the system's scale; to a factor of 2) that makes the
        /// reference's kept required constraints infeasible; nil when none of up to 1e-2 does,
        /// 0 when every perturbation tried (down to 2⁻⁷⁰) does.
        public var distanceToInfeasibility: Double?
        /// Rows that hold with equality at the reference's point (required equalities,
        /// active inequalities, optional rows at their kink).
        public var tightRows: Int
        /// Unknowns of the system.
        public var unknowns: Int
        /// Tight rows beyond the number of unknowns: how degenerate the reference's vertex is.
        public var degeneracy: Int { max(0, tightRows - unknowns) }

        public init(distanceToInfeasibility: Double?, tightRows: Int, unknowns: Int) {
            self.distanceToInfeasibility = distanceToInfeasibility
            self.tightRows = tightRows
            self.unknowns = unknowns
        }
    }

    public var kind: Kind
    /// The backend the finding is about (the reference is named second in `backends` where
    /// two backends are compared).
    public var backends: [String]
    /// What differs, in words.
    public var detail: String
    /// The oracle, for metamorphic violations.
    public var oracle: String?
    /// Where the case came from.
    public var seed: UInt64?
    public var family: String?
    /// Wrong (a bug), ill-conditioned (explained by rounding), or a semantic difference;
    /// `wrong` where a finding written before verdicts existed has none.
    @DefaultWhenAbsent<Verdict.Unrecorded> public var verdict: Verdict
    /// For an ill-conditioned finding: the smallest relative perturbation found to explain
    /// it (to a factor of 2).
    public var perturbation: Double?
    /// Why the verdict is what it is, in words (the refuting condition, or how it is explained).
    public var verdictNote: String?
    /// The case's conditioning.
    public var conditioning: Conditioning?
    /// For an update sequence (spec §7): the pass at which the backend first went wrong this
    /// way, 1-based as in the file (pass 1 is the first system), and the update steps the
    /// sequence had taken by then. Nil for a case that is one system.
    public var pass: Int?
    public var step: Int?

    public init(
        kind: Kind, backends: [String], detail: String, oracle: String? = nil, seed: UInt64? = nil, family: String? = nil,
        verdict: Verdict = .wrong, perturbation: Double? = nil, verdictNote: String? = nil, conditioning: Conditioning? = nil
    ) {
        self.kind = kind
        self.backends = backends
        self.detail = detail
        self.oracle = oracle
        self.seed = seed
        self.family = family
        self.verdict = verdict
        self.perturbation = perturbation
        self.verdictNote = verdictNote
        self.conditioning = conditioning
    }

    private enum CodingKeys: String, CodingKey {
        case kind, backends, detail, oracle, seed, family, verdict, perturbation, verdictNote, conditioning, pass, step
    }

    /// Where in an update sequence the finding first showed, in words (nil for a system).
    public var wherePhrase: String? {
        guard let pass else { return nil }
        return "pass \(pass)" + (step.map { " (after \($0) update step\($0 == 1 ? "" : "s"))" } ?? "")
    }

    /// What de-duplicates findings: the class, the backend at fault, the oracle and, for
    /// findings that are not wrong, the verdict (`status-mismatch/float@ill-conditioned`), so
    /// that expected rounding never crowds a bug of the same class out of the kept findings.
    /// Two cases with the same signature are taken for the same bug until reduction tells
    /// them apart (``fingerprint(reducedText:)``).
    public var signature: String {
        let base = ([kind.rawValue, backends.first ?? "-"] + (oracle.map { [$0] } ?? [])).joined(separator: "/")
        return verdict == .wrong ? base : base + "@" + verdict.rawValue
    }

    /// The signature plus a hash of the reduced repro's canonical text: stable across runs
    /// and machines (FNV-1a, 64 bits), so shards can merge findings by it.
    public func fingerprint(reducedText: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in reducedText.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        let name = signature.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "@", with: "-")
        return name + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
