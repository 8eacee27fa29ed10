import LayoutModel

/// The checker's own reading of the exact backend's certificate format
/// (`layoutbench-exact-certificate/3`, and versions 1 and 2 before it; described in
/// `docs/exact-backend.md`).
///
/// This module deliberately shares no code with the simplex: it declares its own types for
/// the format and re-derives every linear program from the ``LayoutModel/ConstraintSystem``.
/// (It shares the arithmetic: `Rational`, and the elimination that decides whether rows are
/// independent.)
public struct CertificateDocument: Sendable, Hashable, Codable {
    /// The format the exact backend writes now.
    public static let supportedFormat = "layoutbench-exact-certificate/3"
    /// Version 2: as version 3, but a conflict's irreducibility is always shown by witnesses.
    public static let witnessedConflictFormat = "layoutbench-exact-certificate/2"
    /// Version 1: each level's `ν` listed densely (`levelMultipliers`, `k − 1` of them).
    public static let denseLevelsFormat = "layoutbench-exact-certificate/1"
    /// Every format this checker reads.
    public static let supportedFormats: Set<String> = [supportedFormat, witnessedConflictFormat, denseLevelsFormat]

    public var format: String
    public var status: SolveStatus
    public var broken: [BrokenConstraint]
    public var conflict: Conflict?
    public var levels: [Level]

    /// A multiplier on the constraint with index `constraint` (file order).
    public struct Multiplier: Sendable, Hashable, Codable {
        public var constraint: Int
        public var value: String
    }

    /// Multipliers claimed to prove a set of required constraints infeasible.
    public struct Farkas: Sendable, Hashable, Codable {
        public var multipliers: [Multiplier]
    }

    public struct BrokenConstraint: Sendable, Hashable, Codable {
        public var constraint: Int
        public var farkas: Farkas
    }

    /// A point claimed to satisfy every conflict member but `omitted`.
    public struct Witness: Sendable, Hashable, Codable {
        public var omitted: Int
        public var values: [String]
    }

    public struct Conflict: Sendable, Hashable, Codable {
        public var farkas: Farkas
        public var witnesses: [Witness]
        /// Version 3: irreducibility claimed by the members' rows (each with its constant)
        /// being linearly independent, instead of witnesses.
        public var independentRows: Bool?
    }

    /// A claimed lower bound on the error sum of `level`.
    public struct Level: Sendable, Hashable, Codable {
        public var level: Int
        public var objective: String
        public var multipliers: [Multiplier]
        /// Version 1: `ν_1 … ν_{level−1}`.
        public var levelMultipliers: [String]?
        /// Version 2: the nonzero `ν_i`, levels ascending and below `level`.
        public var nonzeroLevelMultipliers: [LevelMultiplier]?
    }

    /// `ν_level` of a version-2 level certificate.
    public struct LevelMultiplier: Sendable, Hashable, Codable {
        public var level: Int
        public var value: String
    }
}
