import LayoutModel

/// The evidence behind an exact solution, in a form that can be checked without trusting
/// (or sharing code with) the simplex that produced it.
///
/// It is a data format, documented in `docs/exact-backend.md`: encode it with `JSONEncoder`
/// and hand the bytes to the `CertificateChecker` module, which reads them with its own
/// types and re-derives every linear program from the ``LayoutModel/ConstraintSystem``.
/// Rationals are strings in ``ExactArithmetic/Rational/description`` form (`"-327/2"`).
/// Constraints are named by their index in ``LayoutModel/ConstraintSystem/constraints``.
///
/// Sign conventions, for a lowered row `d_r(u) = a_r·u + c_r` (spec §2–§3):
/// - A *Farkas* certificate is `λ` with `λ_r ≥ 0` on `<=` rows, `λ_r ≤ 0` on `>=` rows,
///   free on `==` rows, `Σ λ_r a_r = 0` and `Σ λ_r c_r > 0`. Every point satisfying the
///   rows has `Σ λ_r d_r(u) ≤ 0`, yet that sum is the constant `Σ λ_r c_r > 0`: the rows
///   are infeasible.
/// - A *level* certificate for level `k` bounds `E_k` from below over the LP with the kept
///   required rows, every optional row `d_r = p_r − n_r` (`p, n ≥ 0`, error `p + n`, `p`
///   or `n` for `==`, `<=`, `>=`), and `E_i ≤ E_i*` for `i < k`. With multipliers `λ_r`
///   (required, signed as above), `μ_r` (optional, free) and `ν_i ≥ 0`, and
///   `W_r = [level r = k] + ν_{level r}·[level r < k]`, it is valid when
///   `Σ λ_r a_r + Σ μ_r a_r = 0`, `W_r w⁺_r − μ_r ≥ 0` and `W_r w⁻_r + μ_r ≥ 0`
///   (`w^±` the error weights of `p` and `n`); then
///   `E_k ≥ Σ λ_r c_r + Σ μ_r c_r − Σ ν_i E_i*` by weak duality, and the certificate
///   claims this bound equals `E_k*`.
public struct SolutionCertificate: Sendable, Hashable, Codable {
    /// The format's name and version.
    ///
    /// Version 2 lists each level's `ν` sparsely (`nonzeroLevelMultipliers`: the nonzero
    /// ones, by level); version 1 listed all `k − 1` of them (`levelMultipliers`), quadratic
    /// in the number of levels (59 MB for one view with 3,000 priorities). Version 3 may
    /// show a conflict irreducible by its rows' independence instead of one witness per
    /// member (``Conflict/independentRows``). All three are read.
    public static let formatName = "layoutbench-exact-certificate/3"

    public var format: String
    /// The status of the solution certified; nothing is certified for `budgetExceeded`.
    public var status: SolveStatus
    /// One Farkas certificate per broken required constraint, in file order, over the
    /// constraints kept before it plus itself.
    public var broken: [BrokenConstraint]
    /// The conflict (present when something is broken).
    public var conflict: Conflict?
    /// One certificate per optional priority level, highest first.
    public var levels: [Level]

    public init(status: SolveStatus, broken: [BrokenConstraint] = [], conflict: Conflict? = nil, levels: [Level] = []) {
        self.format = Self.formatName
        self.status = status
        self.broken = broken
        self.conflict = conflict
        self.levels = levels
    }

    /// A multiplier on one constraint.
    public struct Multiplier: Sendable, Hashable, Codable {
        /// The constraint's index in file order.
        public var constraint: Int
        /// The multiplier as a rational string.
        public var value: String

        public init(constraint: Int, value: String) {
            self.constraint = constraint
            self.value = value
        }
    }

    /// Multipliers proving a set of required constraints infeasible; omitted ones are zero.
    public struct Farkas: Sendable, Hashable, Codable {
        public var multipliers: [Multiplier]

        public init(multipliers: [Multiplier]) {
            self.multipliers = multipliers
        }
    }

    /// Why one required constraint was broken: it is infeasible together with those kept
    /// before it (a point satisfying every kept constraint shows the others were rightly kept).
    public struct BrokenConstraint: Sendable, Hashable, Codable {
        public var constraint: Int
        public var farkas: Farkas

        public init(constraint: Int, farkas: Farkas) {
            self.constraint = constraint
            self.farkas = farkas
        }
    }

    /// A point satisfying every conflict member but `omitted`: the conflict is irreducible.
    public struct Witness: Sendable, Hashable, Codable {
        public var omitted: Int
        /// Root-space values of all unknowns, as rational strings.
        public var values: [String]

        public init(omitted: Int, values: [String]) {
            self.omitted = omitted
            self.values = values
        }
    }

    /// How a conflict is shown irreducible.
    public enum Irreducibility: Sendable, Hashable {
        /// For each member, a point satisfying all the others.
        case witnesses([Witness])
        /// The members' lowered rows, each with its constant (`(a_r, c_r)`), are linearly
        /// independent: the Farkas vector is then the only one on them up to scale, so no
        /// proper subset is infeasible. The checker verifies it by elimination.
        case independentRows
    }

    /// The conflict is infeasible (`farkas`) and irreducible: one witness per member, or
    /// (version 3) `independentRows` and no witnesses.
    public struct Conflict: Sendable, Hashable, Codable {
        public var farkas: Farkas
        public var witnesses: [Witness]
        /// Whether irreducibility is shown by the members' rows being linearly independent
        /// (absent before version 3: false).
        public var independentRows: Bool

        public init(farkas: Farkas, irreducibility: Irreducibility) {
            self.farkas = farkas
            switch irreducibility {
            case .witnesses(let witnesses): (self.witnesses, independentRows) = (witnesses, false)
            case .independentRows: (witnesses, independentRows) = ([], true)
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            farkas = try container.decode(Farkas.self, forKey: .farkas)
            witnesses = try container.decode([Witness].self, forKey: .witnesses)
            independentRows = try container.decodeIfPresent(Bool.self, forKey: .independentRows) ?? false
        }
    }

    /// A lower bound on one level's error sum that the solution attains.
    public struct Level: Sendable, Hashable, Codable {
        /// 1-based, as in ``LayoutModel/LinearSystem/levels``.
        public var level: Int
        /// E_k*, the optimal error sum.
        public var objective: String
        /// `λ` on kept required constraints and `μ` on optional ones; omitted ones are zero.
        public var multipliers: [Multiplier]
        /// The nonzero `ν_i` by level `i < level`, ascending. Kept sparse: most are zero, and
        /// thousands of levels of dense `ν`s were quadratic in memory.
        public var nonzeroLevelMultipliers: [(level: Int, value: String)] {
            get { weightLevels.indices.map { (weightLevels[$0], weightValues[$0]) } }
            set {
                weightLevels = newValue.map(\.level)
                weightValues = newValue.map(\.value)
            }
        }
        private var weightLevels: [Int]
        private var weightValues: [String]
        /// How many `ν`s the dense form has (`level − 1`, unless read from elsewhere).
        private var weightCount: Int

        /// `ν_1 … ν_{k−1}`, on the bounds of the higher levels (the certificate's form).
        public var levelMultipliers: [String] {
            get {
                var dense = [String](repeating: "0", count: weightCount)
                for (i, value) in zip(weightLevels, weightValues) where i >= 1 && i <= weightCount { dense[i - 1] = value }
                return dense
            }
            set {
                weightCount = newValue.count
                let nonzero = newValue.indices.filter { newValue[$0] != "0" }
                weightLevels = nonzero.map { $0 + 1 }
                weightValues = nonzero.map { newValue[$0] }
            }
        }

        public init(level: Int, objective: String, multipliers: [Multiplier], levelMultipliers: [String]) {
            self.level = level
            self.objective = objective
            self.multipliers = multipliers
            self.weightLevels = []
            self.weightValues = []
            self.weightCount = 0
            self.levelMultipliers = levelMultipliers
        }

        /// A level certificate from its nonzero `ν_i` (levels ascending, each below `level`).
        public init(level: Int, objective: String, multipliers: [Multiplier], nonzeroLevelMultipliers: [(level: Int, value: String)]) {
            self.level = level
            self.objective = objective
            self.multipliers = multipliers
            self.weightLevels = nonzeroLevelMultipliers.map(\.level)
            self.weightValues = nonzeroLevelMultipliers.map(\.value)
            self.weightCount = Swift.max(level - 1, 0)
        }

        private enum CodingKeys: String, CodingKey {
            case level, objective, multipliers, levelMultipliers, nonzeroLevelMultipliers
        }

        /// One nonzero `ν_i` in the JSON form (version 2).
        private struct LevelMultiplier: Codable {
            var level: Int
            var value: String
        }

        /// Reads version 2 (`nonzeroLevelMultipliers`) or version 1 (dense `levelMultipliers`).
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let level = try container.decode(Int.self, forKey: .level)
            let objective = try container.decode(String.self, forKey: .objective)
            let multipliers = try container.decode([Multiplier].self, forKey: .multipliers)
            if let sparse = try container.decodeIfPresent([LevelMultiplier].self, forKey: .nonzeroLevelMultipliers) {
                self.init(
                    level: level, objective: objective, multipliers: multipliers,
                    nonzeroLevelMultipliers: sparse.map { ($0.level, $0.value) })
            } else {
                self.init(
                    level: level, objective: objective, multipliers: multipliers,
                    levelMultipliers: try container.decode([String].self, forKey: .levelMultipliers))
            }
        }

        /// Writes version 2: the nonzero `ν_i` only.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(level, forKey: .level)
            try container.encode(objective, forKey: .objective)
            try container.encode(multipliers, forKey: .multipliers)
            let sparse = zip(weightLevels, weightValues).map { LevelMultiplier(level: $0, value: $1) }
            try container.encode(sparse, forKey: .nonzeroLevelMultipliers)
        }
    }
}
