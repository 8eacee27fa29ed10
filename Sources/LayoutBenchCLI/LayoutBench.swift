import ArgumentParser
import BackendContract
import Foundation
import History
import InterfaceBuilder
import LayoutModel
import MathematicalProgramming
import OutsideSolvers
import Reporting
import Runner

/// `layoutbench`: benchmark and differential fuzzer for Auto Layout-style constraint solvers.
/// Run by an executable's `main.swift`: LayoutBenchMain (the shipped `layoutbench`) and
/// LayoutBenchTestbed (the same with the tests' faulty backends).
public struct LayoutBench: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "layoutbench",
        abstract: "Benchmark and differential fuzzer for Auto Layout-style constraint solvers.",
        discussion: """
            Systems are written in the .layout format (docs/layout-format.md). Exit status: \
            0 when a result is printed (or a check passed); 1 for an internal failure, or a \
            check that found something (wrong answers in fuzz, failures in replay, regressions \
            in report compare); 2 for invalid input or usage (the error on stderr as \
            file:line:column: message, or the option at fault); 3 when the chosen backend does \
            not support a valid system; 130 when interrupted.
            """,
        version: toolVersion,
        subcommands: CommandRegistry.subcommands
    )

    public init() {}

    /// Adds `extraBackends` to the built-in ones `--backend` can name, then runs the command
    /// line as ``main()`` does. An executable that adds backends calls this before anything
    /// else; the registry is fixed from its first use on.
    public static func main(addingBackends extraBackends: [any LayoutBackend]) {
        BackendRegistry.add(extraBackends)
        main()
    }

    /// Parses and runs the command, then maps whatever ended it to the one exit contract
    /// (``ExitStatus``): ArgumentParser's own usage code (64) is invalid input here.
    public static func main() {
        let code: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            code = 0
        } catch let error where ExitStatus.typed(error) != nil {
            // A typed error no command caught: it carries its own position and message.
            printError(String(describing: error))
            code = ExitStatus.typed(error)!.rawValue
        } catch {
            let parserCode = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if parserCode == .success { print(message) } else { printError(message) }
            }
            code = ExitStatus.mapped(parserCode).rawValue
        }
        Foundation.exit(code)
    }
}

/// The exit codes shared by every subcommand (spec §6), and the one mapping to them.
enum ExitStatus {
    /// A check found something (wrong answers, failed replays, regressions), or a bug: a
    /// backend failed, a file could not be written.
    static let internalFailure = ExitCode(1)
    /// Invalid input or usage: a malformed file, an unknown backend, a bad option value.
    static let invalidInput = ExitCode(2)
    /// A valid system the chosen backend does not support (e.g. `gaussian` with optional
    /// constraints): nothing is wrong with the input, the backend declines it.
    static let unsupported = ExitCode(3)
    /// `fuzz`: the campaign ran and holds wrong findings (ill-conditioned and semantics ones
    /// never fail it): a check that found something.
    static let wrongFindings = ExitCode(1)

    /// The code a process exits with for `code` as ArgumentParser reports it.
    static func mapped(_ code: ExitCode) -> ExitCode {
        code == .validationFailure ? invalidInput : code
    }

    /// The exit status of the project's typed errors, so that one that escapes a command is
    /// reported as what it is (invalid input, a declining backend) and not as ArgumentParser's
    /// generic "Error:" with status 1. `nil` for errors this table does not know.
    static func typed(_ error: any Error) -> ExitCode? {
        switch error {
        case is InputFile.Failure, is LayoutError, is MPSError, is CompressedInput.ReadError, is IBImportError,
             is ReportDocumentError, is ReportComparisonError, is CampaignError,
             is ReportMerge.MergeError, is ManifestError:
            return invalidInput
        case let error as HistoryError:
            switch error {
            case .database, .locked: return internalFailure
            default: return invalidInput
            }
        case let error as BackendError:
            switch error {
            case .unsupported: return unsupported
            case .outOfRange: return invalidInput
            case .internalFailure: return internalFailure
            }
        default:
            return nil
        }
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Prints `value` as JSON on stdout the way the tool's documents are written: keys sorted,
/// indented, slashes left as they are (stable for diffs and `jq`).
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
