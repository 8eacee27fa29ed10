import ArgumentParser
import Foundation
import LayoutModel

/// `layoutbench print FILE`
struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a system in canonical .layout form or in its JSON form.",
        discussion: """
            The canonical form writes one declaration or constraint a line, VFL expanded into \
            plain constraints and defaults omitted; reading it back gives the same system. The \
            JSON form is for machines; every command that takes a .layout file also takes it \
            (a file ending in .json).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case layout, json
    }

    @Argument(help: "A .layout file (or a system in JSON form).")
    var file: String

    @Option(help: "layout (canonical text) or json.")
    var format: Format = .layout

    @Option(help: "runtime (V1–V5) or guide (adds V6).")
    var rules: ValidationRules = .runtime

    func run() throws {
        let system = try InputFile.systemOrExit(at: file, rules: rules)
        switch format {
        case .layout:
            print(system.canonicalText, terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            do {
                print(String(decoding: try encoder.encode(system), as: UTF8.self))
            } catch {
                printError("\(file): cannot encode the system: \(error)")
                throw ExitStatus.internalFailure
            }
        }
    }
}
