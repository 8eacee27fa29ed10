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
            plain constraints and defaults omitted; reading it back gives the same system. An \
            update sequence prints its steps after each 'layout' line, and in JSON as \
            "updates". The JSON form is for machines; every command that takes a .layout file \
            also takes it (a file ending in .json).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case layout, json
    }

    @Argument(help: "A .layout file (or a system in JSON form).")
    var file: String

    @Option(help: "layout (canonical text) or json.")
    var format: Format = .layout

    @OptionGroup var validation: ValidationRulesOption

    func run() throws {
        let sequence = try InputFile.sequenceOrExit(at: file, rules: validation.rules)
        switch format {
        case .layout:
            print(sequence.canonicalText, terminator: "")
        case .json:
            do {
                print(try sequence.jsonText())
            } catch {
                printError("\(file): cannot encode the system: \(error)")
                throw ExitStatus.internalFailure
            }
        }
    }
}
