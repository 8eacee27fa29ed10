import ArgumentParser
import Foundation
import Generator
import LayoutModel
import Runner

/// `layoutbench generate`: writes generated `.layout` files (issue 3).
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write seeded constraint systems as .layout files.",
        discussion: """
            The same --family, --size and --seed give byte-identical files on every machine \
            (xoshiro256** seeded through SplitMix64; see docs/generator.md). With --count K, \
            case i uses the seed caseSeed(campaign: SEED, index: i), and each file's header \
            names that seed, so any file can be regenerated alone from its first line.
            """)

    @Option(name: .long, help: "A family name, or 'all' for one case of every family (see --list).")
    var family: String?

    @Option(name: .long, help: "The seeds folder of a `fuzz --seeds` campaign, for a seed:PATH family (a mutation of that layout).")
    var seeds: String?

    @Option(name: .long, help: "For a seed-updates:PATH family (with --seeds): the update steps asked, as the finding's header says.")
    var steps: Int = 16

    @Option(name: .long, help: "About how many views each system has (1 to 1,000,000).")
    var size: Int = 10

    @OptionGroup var seeding: SeedOption

    @Option(name: .long, help: "How many cases per family; more than one derives a seed per case.")
    var count: Int = 1

    @Option(name: .long, help: "The directory to write FAMILY-nSIZE-sSEED.layout files into; without it, one case is written to standard output.")
    var out: String?

    @Flag(name: .long, help: "List the families with their kind and rationale, and exit.")
    var list = false

    func validate() throws {
        if list { return }
        guard let family else {
            throw ValidationError("--family is required (or use --list)")
        }
        guard Families.sizes.contains(size) else {
            throw ValidationError("--size must be between \(Families.sizes.lowerBound) and \(Families.sizes.upperBound)")
        }
        guard count >= 1 else {
            throw ValidationError("--count must be at least 1")
        }
        guard (1...10_000).contains(steps) else {
            throw ValidationError("--steps takes 1 to 10,000")
        }
        if out == nil && (family == "all" || count > 1) {
            throw ValidationError("--out DIR is needed to write more than one case")
        }
    }

    func run() throws {
        if list {
            for kind in FamilyKind.allCases {
                print("\(kind.rawValue):")
                for family in Families.ofKind(kind) {
                    print("  \(family.name)")
                    print("      \(family.rationale)")
                    if let note = family.sizeNote { print("      size: \(note)") }
                }
            }
            return
        }
        let name = family ?? ""
        if name.hasPrefix(SequenceFamily.seedUpdatesPrefix) { return try writeSeedSequence(name) }
        let families: [Family]
        if name == "all" {
            families = Families.all
        } else if let one = Families.named(name) {
            families = [one]
        } else if name.hasPrefix(SeedFolder.familyPrefix) {
            guard let seeds else {
                printError("\(name) is a seed family: give the campaign's seeds folder with --seeds DIR")
                throw ExitStatus.invalidInput
            }
            guard let one = try SeedSelection.load(seeds).families.first(where: { $0.name == name }) else {
                printError("\(seeds) has no seed \(name)")
                throw ExitStatus.invalidInput
            }
            families = [one]
        } else {
            printError("unknown family '\(name)'; `layoutbench generate --list` names them")
            throw ExitStatus.invalidInput
        }
        guard let out else {
            if let only = families.first {
                print(generate(family: only, size: size, seed: seeding.seed).text, terminator: "")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        } catch {
            printError("\(out): cannot create the directory: \(error.localizedDescription)")
            throw ExitStatus.internalFailure
        }
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        for family in families {
            for index in 0..<count {
                let generated = count == 1
                    ? generate(family: family, size: size, seed: seeding.seed)
                    : generate(family: family, size: size, campaign: seeding.seed, index: UInt64(index))
                let url = directory.appendingPathComponent(generated.fileName)
                do {
                    try Data(generated.text.utf8).write(to: url)
                } catch {
                    printError("\(url.path): cannot write the file: \(error.localizedDescription)")
                    throw ExitStatus.internalFailure
                }
            }
        }
    }
}

extension GenerateCommand {
    /// A `seed-updates:PATH` case of a `fuzz --seeds` campaign: the seed mutated, its own
    /// passes, then the update steps, as the multi-pass `.layout` text (spec §7).
    func writeSeedSequence(_ name: String) throws {
        guard let seeds else {
            printError("\(name) is a seed family: give the campaign's seeds folder with --seeds DIR")
            throw ExitStatus.invalidInput
        }
        let folder = try SeedSelection.load(seeds)
        guard let updates = folder.sequenceFamilies.first(where: { $0.name == name }), let baseName = updates.base,
              let base = folder.families.first(where: { $0.name == baseName }) else {
            printError("\(seeds) has no seed \(name)")
            throw ExitStatus.invalidInput
        }
        guard let generated = generateSequence(family: updates, base: base, size: size, steps: steps, seed: seeding.seed) else {
            printError("\(baseName): the mutated seed cannot start an update sequence")
            throw ExitStatus.invalidInput
        }
        let text = "# regenerate: layoutbench generate --seeds SEEDS_DIR --family \(name) --size \(size) --seed \(seeding.seed) --steps \(steps)\n"
            + "# \(generated.sequence.passCount) passes, \(generated.sequence.stepCount) steps\n" + generated.sequence.canonicalText
        guard let out else { return print(text, terminator: "") }
        let url = URL(fileURLWithPath: out, isDirectory: true)
            .appendingPathComponent(GeneratedCase.fileName(family: name, size: size, seed: seeding.seed))
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } catch {
            printError("\(url.path): cannot write the file: \(error.localizedDescription)")
            throw ExitStatus.internalFailure
        }
    }
}
