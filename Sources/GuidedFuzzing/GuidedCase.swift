import Fuzzing
import LayoutModel

/// One input of the coverage-guided fuzzer, decoded: a valid update sequence (spec §7; a
/// single system when it has one pass), the metamorphic oracle applied to each pass, and
/// whether the exact reference's determinacy is decided again by the min/max method.
///
/// Every byte string decodes to one (``init(bytes:)``), and ``bytes`` writes it back so that
/// decoding gives the same case again: the fuzzer's mutations of bytes are mutations of
/// valid systems, and a structural mutation (``StructuralMutator``) is a mutation of bytes.
public struct GuidedCase: Sendable, Hashable {
    public var sequence: UpdateSequence
    public var oracle: MetamorphicOracle?
    /// Decide the reference's determinacy again on every pass (slower, catches more).
    public var redecide: Bool

    public init(sequence: UpdateSequence, oracle: MetamorphicOracle? = nil, redecide: Bool = false) {
        self.sequence = sequence
        self.oracle = oracle
        self.redecide = redecide
    }

    /// A one-pass case.
    public init(system: ConstraintSystem, oracle: MetamorphicOracle? = nil, redecide: Bool = false) {
        self.init(sequence: UpdateSequence(system), oracle: oracle, redecide: redecide)
    }

    /// The case the bytes stand for (``GuidedCaseDecoder``); never fails.
    public init(bytes: some Collection<UInt8>) {
        var decoder = GuidedCaseDecoder(Array(bytes))
        self = decoder.decode()
    }

    /// The bytes that decode to this case (``GuidedCaseEncoder``).
    public var bytes: [UInt8] { GuidedCaseEncoder.encode(self) }
}

/// The names decoded systems give their items: the root, then `v1`, `v2`, ….
enum DecodedNames {
    static let root = "root"
    static func view(_ index: Int) -> String { "v\(index)" }
}

/// Limits that keep decoded cases small enough to solve thousands of times a second.
public enum GuidedLimits {
    /// Views and constraints written in one byte (a larger count takes the escape and two bytes).
    public static let smallViews = 9
    public static let smallConstraints = 33
    /// The most items or constraints a decoded system has (imported seeds may be large).
    public static let maxCount = 4_096
    /// Update passes after the first, and steps per pass.
    public static let updatePasses = 4
    public static let stepsPerPass = 5
    /// Significant digits a literal number keeps.
    public static let literalDigits = 31
    /// Bytes at or above this escape: a literal number follows, or a two-byte count.
    static let escape: UInt8 = 0xF0
}

/// The attributes a constraint's second item may take, given its first: the same kind (size
/// or position), on the same axis for positions, without mixing leading/trailing with
/// left/right (rules V1, V3, V4). Indexing into this list keeps every decoded constraint valid.
enum CompatibleAttributes {
    static let table: [Attribute: [Attribute]] = {
        var table: [Attribute: [Attribute]] = [:]
        for a in Attribute.allCases {
            table[a] = Attribute.allCases.filter { b in
                if a.isSize != b.isSize { return false }
                if a.isSize { return true }
                if a.axis != b.axis { return false }
                return !((a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional))
            }
        }
        return table
    }()

    static func of(_ attribute: Attribute) -> [Attribute] { table[attribute] ?? [attribute] }
}

/// The kinds of update step the byte form spells: every step of spec §7.
enum StepKind: UInt8, CaseIterable {
    case setConstant, setPriority, setRootSize, removeConstraint, setIntrinsic, addView, addConstraint, removeView
}
