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
    }

    /// How a finding is to be read (the judge's verdict).
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Wrong by any semantics.
        case wrong
        /// Within what a floating-point solver can be expected to get right on this input.
        case illConditioned = "ill-conditioned"
        /// A difference from the format's lexicographic answer that the backend's own declared
        /// semantics (a weighted priority model) explains: a note, not a bug.
        case semantics
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
    /// nil where the judge gave none (read as wrong).
    public var verdict: Verdict?

    public init(kind: Kind, backends: [String], detail: String, oracle: String? = nil, seed: UInt64? = nil, family: String? = nil,
                verdict: Verdict? = nil) {
        self.verdict = verdict
        self.kind = kind
        self.backends = backends
        self.detail = detail
        self.oracle = oracle
        self.seed = seed
        self.family = family
    }

    /// What de-duplicates findings: the class, the backend at fault and the oracle. Two cases
    /// with the same signature are taken for the same bug until reduction tells them apart
    /// (``fingerprint(reducedText:)``).
    public var signature: String {
        ([kind.rawValue, backends.first ?? "-"] + (oracle.map { [$0] } ?? []) + (verdict == .semantics ? ["semantics"] : []))
            .joined(separator: "/")
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
        return signature.replacingOccurrences(of: "/", with: "-") + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
