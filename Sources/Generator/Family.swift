import LayoutModel

/// The version of the generator's output. Bump it whenever any family's output for a given
/// (family, size, seed) changes, so that a header names the exact generator that wrote it.
public let generatorVersion = 1

/// What a family is for.
public enum FamilyKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// What apps do: the layouts solvers are tuned for.
    case realistic
    /// Random valid systems: breadth rather than realism.
    case random
    /// Inputs built to break solvers: degeneracy, redundancy, conflicts, bad numbers.
    case pathological
}

/// A named way of building constraint systems of a given size from a random stream.
///
/// `generate` must draw every random choice from the generator it is handed, so that a
/// (family, size, seed) triple always builds the same system.
public struct Family: Sendable {
    /// The name users select it by (`--family NAME`), lower-case with hyphens.
    public let name: String
    public let kind: FamilyKind
    /// One line on what the family builds and why it is worth solving.
    public let rationale: String
    /// What `size` counts, when that is not simply the number of views.
    public let sizeNote: String?
    /// Builds a system with about `size` views (at least 1).
    public let generate: @Sendable (_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem

    public init(
        name: String, kind: FamilyKind, rationale: String, sizeNote: String? = nil,
        generate: @escaping @Sendable (_ size: Int, _ rng: inout SeededGenerator) -> ConstraintSystem
    ) {
        self.name = name
        self.kind = kind
        self.rationale = rationale
        self.sizeNote = sizeNote
        self.generate = generate
    }
}

/// One generated system with everything needed to regenerate it.
public struct GeneratedCase: Sendable, Hashable {
    public let family: String
    public let size: Int
    public let seed: UInt64
    public let system: ConstraintSystem
    /// The comment lines that open the file: the command that regenerates it, the
    /// generator version, and the family's rationale.
    public let header: String

    /// The `.layout` file: ``header`` followed by the system's canonical text. Computed on
    /// each access (printing a 100,000-view system is not free); the in-process runner
    /// usually needs only ``system``.
    public var text: String { header + system.canonicalText }

    /// The file name `--out` uses: `FAMILY-nSIZE-sSEED.layout` (a seed family's path, with
    /// its `/`, `:` and `#`, flattened to one name).
    public var fileName: String { Self.fileName(family: family, size: size, seed: seed) }

    /// `FAMILY-nSIZE-sSEED.layout`, the family's `/`, `:` and `#` flattened to `_`.
    public static func fileName(family: String, size: Int, seed: UInt64) -> String {
        let name = String(family.map { "/:#".contains($0) ? "_" : $0 })
        return "\(name)-n\(size)-s\(seed).layout"
    }
}

/// The catalogue of families.
public enum Families {
    /// Every family, realistic first, then random, then pathological; families added later
    /// come last, so that a campaign's earlier families keep their indices.
    public static let all: [Family] = RealisticFamilies.all + RandomFamilies.all + PathologicalFamilies.all
        + BlindSpotFamilies.all

    /// The sizes generation accepts; others are clamped into this range.
    public static let sizes: ClosedRange<Int> = 1...1_000_000

    /// The family with this name.
    public static func named(_ name: String) -> Family? {
        all.first { $0.name == name }
    }

    /// The families of one kind, in catalogue order.
    public static func ofKind(_ kind: FamilyKind) -> [Family] {
        all.filter { $0.kind == kind }
    }
}

/// Builds the case for `(family, size, seed)`. The same arguments give the same system and
/// the same text on every machine. `size` is clamped to ``Families/sizes``.
public func generate(family: Family, size: Int, seed: UInt64) -> GeneratedCase {
    let size = min(max(size, Families.sizes.lowerBound), Families.sizes.upperBound)
    var rng = SeededGenerator(seed: seed)
    var system = family.generate(size, &rng)
    system.name = "\(family.name) size \(size) seed \(seed)"
    // A seed family (`fuzz --seeds`) is regenerated from the campaign's seeds folder.
    let seeds = family.name.hasPrefix("seed:") ? "--seeds SEEDS_DIR " : ""
    var header = "# layoutbench generate \(seeds)--family \(family.name) --size \(size) --seed \(seed) (generator v\(generatorVersion))\n"
    header += "# \(family.kind.rawValue): \(family.rationale)\n"
    if let note = family.sizeNote { header += "# size: \(note)\n" }
    return GeneratedCase(family: family.name, size: size, seed: seed, system: system, header: header)
}

/// Builds case `index` of a campaign: the seed is
/// ``SeededGenerator/caseSeed(campaign:index:)``, and the case's header names that seed,
/// so the case can be regenerated alone with `--seed`.
public func generate(family: Family, size: Int, campaign: UInt64, index: UInt64) -> GeneratedCase {
    generate(family: family, size: size, seed: SeededGenerator.caseSeed(campaign: campaign, index: index))
}
