import ArgumentParser
import Foundation

/// `layoutbench`: benchmark and differential fuzzer for Auto Layout-style constraint solvers.
@main
struct LayoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layoutbench",
        abstract: "Benchmark and differential fuzzer for Auto Layout-style constraint solvers.",
        discussion: """
            Systems are written in the .layout format (docs/layout-format.md). Exit status: \
            0 when a result is printed, 2 for invalid input (the error on stderr as \
            file:line:column: message), 1 for an internal failure.
            """,
        subcommands: CommandRegistry.subcommands
    )
}

/// Exit codes shared by every subcommand (spec §6).
enum ExitStatus {
    /// Invalid input: a malformed file, an unknown backend, an unsupported system.
    static let invalidInput = ExitCode(2)
    /// A bug: a backend failed, a file could not be written.
    static let internalFailure = ExitCode(1)
    /// `fuzz`: the campaign ran and holds wrong findings (ill-conditioned ones never fail it).
    /// Findings and wrong answers exit 1 across the CLI (issue 19: 0 clean, 1 findings,
    /// 2 invalid input or usage, 3 unsupported by the chosen backend).
    static let wrongFindings = ExitCode(1)
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
