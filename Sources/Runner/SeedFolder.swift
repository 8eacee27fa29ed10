import Foundation
import Generator
import InterfaceBuilder
import LayoutModel

/// `fuzz --seeds DIR`: the real layouts under a folder as campaign families. Every `.layout`
/// file is one seed, named `seed:RELATIVE/PATH.layout`; every Interface Builder file
/// (`.xib`, `.storyboard`) gives one seed per layout root the importer imports, named
/// `seed:RELATIVE/PATH.xib#ROOTID`. A case of a seed family is the seed mutated by
/// ``SeedMutator`` with the case's generator, so a finding's `family` names the seed file
/// (and root) and its `seed` the mutation. A `.layout` file with several passes (spec §7)
/// is used with its passes; every seed also gives an update-sequence family,
/// `seed-updates:PATH` (``SequenceFamily/seedUpdates(of:named:base:)``), whose cases are the
/// seed mutated, its own passes and further update steps.
///
/// Files that cannot be used — a `.layout` that does not parse or validate, an IB file that
/// is not readable XML — are listed in ``problems`` with their positions and left out;
/// roots the importer skips are counted in ``skippedRoots``. Nothing in the folder can make
/// loading crash: only a folder with no usable seed at all is an error.
public struct SeedFolder: Sendable {
    /// One seed system.
    public struct Seed: Sendable {
        /// The family name: `seed:` and the path relative to the folder (and `#ROOTID`).
        public var name: String
        /// The first pass's system (the whole seed for a one-pass file or an IB root).
        public var system: ConstraintSystem { sequence.initial }
        /// The seed's passes: a `.layout` file with `layout` lines (spec §7) has several.
        public var sequence: UpdateSequence

        public init(name: String, sequence: UpdateSequence) {
            self.name = name
            self.sequence = sequence
        }

        /// The name of the seed's update-sequence family: `seed-updates:` and the path.
        public var updatesName: String { SequenceFamily.seedUpdatesPrefix + name.dropFirst(SeedFolder.familyPrefix.count) }
    }

    /// The prefix of every seed family's name.
    public static let familyPrefix = "seed:"

    /// The folder as given.
    public var directory: String
    /// Sorted by name, so that a campaign's family indices do not depend on the file
    /// system's order.
    public var seeds: [Seed]
    /// Files (or roots) left out, as `file:line:column: message`.
    public var problems: [String]
    /// Layout roots of IB files that the importer skipped (their reasons are in ``problems``).
    public var skippedRoots: Int

    /// The campaign families, one per seed.
    public var families: [Family] { seeds.map { Family.mutations(of: $0.system, named: $0.name) } }

    /// The seeds' update-sequence families, one per seed (``Seed/updatesName``): the seed
    /// mutated, its own passes, then update steps of every kind.
    public var sequenceFamilies: [SequenceFamily] {
        seeds.map { SequenceFamily.seedUpdates(of: $0.sequence, named: $0.updatesName, base: $0.name) }
    }

    /// A digest of every seed's name and canonical text (FNV-1a, 64 bits, hexadecimal): a
    /// campaign records it, so that resuming or an isolated worker on a folder whose seeds
    /// changed is refused instead of judging other cases under the same indices.
    public var digest: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for seed in seeds {
            for byte in Array(seed.name.utf8) + [0] + Array(seed.sequence.canonicalText.utf8) + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }

    /// Reads every seed under `directory` (recursively).
    public static func load(_ directory: String) throws(CampaignError) -> SeedFolder {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue,
              let walker = FileManager.default.enumerator(atPath: directory)
        else { throw CampaignError("\(directory): not a readable folder (--seeds takes a folder of .layout, .xib and .storyboard files)") }
        var relatives: [String] = []
        for case let relative as String in walker
        where relative.hasSuffix(".layout") || relative.hasSuffix(".xib") || relative.hasSuffix(".storyboard") {
            relatives.append(relative)
        }
        var folder = SeedFolder(directory: directory, seeds: [], problems: [], skippedRoots: 0)
        for relative in relatives.sorted() {
            let path = (directory as NSString).appendingPathComponent(relative)
            if relative.hasSuffix(".layout") {
                folder.addLayoutFile(path, relative: relative)
            } else {
                folder.addInterfaceBuilderFile(path, relative: relative)
            }
        }
        folder.seeds.sort { $0.name < $1.name }
        guard !folder.seeds.isEmpty else {
            let why = folder.problems.isEmpty ? "holds no .layout, .xib or .storyboard files" : "holds no usable seed"
            throw CampaignError("\(directory): \(why)" + folder.problems.map { "\n  \($0)" }.joined())
        }
        return folder
    }

    /// A `.layout` file as one seed, or a problem.
    mutating func addLayoutFile(_ path: String, relative: String) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            problems.append("\(path):1:1: cannot read the file as UTF-8")
            return
        }
        do {
            // A file with several passes is a seed with its own update steps.
            seeds.append(Seed(name: Self.familyPrefix + relative, sequence: try LayoutParser.parseSequence(text, file: path)))
        } catch {
            problems.append("\(error)")
        }
    }

    /// Every imported root of an IB file as a seed; a file the importer rejects is a problem.
    mutating func addInterfaceBuilderFile(_ path: String, relative: String) {
        do {
            let imported = try InterfaceBuilderImporter.importFile(at: path)
            for layout in imported.layouts {
                // The importer's systems satisfy the format's validation; a seed must.
                guard layout.system.validate(rules: .runtime).isEmpty else {
                    problems.append("\(path):1:1: root \(layout.rootID) imports as an invalid system; left out")
                    continue
                }
                seeds.append(Seed(name: Self.familyPrefix + relative + "#" + layout.rootID, sequence: UpdateSequence(layout.system)))
            }
            skippedRoots += imported.skipped.count
            problems += imported.skipped.map { "\($0.reason.description) (root \($0.rootID) skipped)" }
        } catch {
            problems.append(error.description)
        }
    }
}
