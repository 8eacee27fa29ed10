import ArgumentParser

/// `layoutbench report` (its html, markdown and compare subcommands are being added).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with bench and fuzz reports.",
        subcommands: [ReportMergeCommand.self])
}
