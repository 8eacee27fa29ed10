import ArgumentParser
import LayoutModel

/// `layoutbench validate FILE...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check .layout files against the format and validation rules V1–V6.",
        discussion: """
            Prints one line per file (with its passes and steps when it holds an update \
            sequence). Files ending in .json are read in the JSON form. Exits 2 if any file is \
            invalid, with file:line:column: message for each.
            """)

    @Argument(help: "The .layout files (or JSON forms) to check.")
    var files: [String]

    @OptionGroup var validation: ValidationRulesOption

    func run() throws {
        var invalid = 0
        for path in files {
            do {
                let sequence = try InputFile.sequence(at: path, rules: validation.rules)
                let system = sequence.initial
                let passes = sequence.passCount > 1 ? ", \(sequence.passCount) passes, \(sequence.stepCount) steps" : ""
                print("\(path): ok (\(system.viewCount) views, \(system.constraints.count) constraints\(passes))")
            } catch {
                printError(error.description)
                invalid += 1
            }
        }
        if invalid > 0 { throw ExitStatus.invalidInput }
    }
}
