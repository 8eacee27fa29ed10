import ArgumentParser
import LayoutModel

/// `layoutbench validate FILE...`
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check .layout files against the format and validation rules V1–V6.",
        discussion: "Prints one line per file. Exits 2 if any file is invalid, with file:line:column: message for each.")

    @Argument(help: "The .layout files to check.")
    var files: [String]

    @Option(help: "runtime (V1–V5, what UIKit enforces) or guide (adds V6: position attributes take multiplier 1).")
    var rules: ValidationRules = .runtime

    func run() throws {
        var invalid = 0
        for path in files {
            do {
                let system = try InputFile.system(at: path, rules: rules)
                print("\(path): ok (\(system.viewCount) views, \(system.constraints.count) constraints)")
            } catch {
                printError(error.description)
                invalid += 1
            }
        }
        if invalid > 0 { throw ExitStatus.invalidInput }
    }
}
