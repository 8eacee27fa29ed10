import ArgumentParser

/// Every subcommand, in the order `--help` lists them.
enum CommandRegistry {
    static let subcommands: [any ParsableCommand.Type] = [
        ValidateCommand.self,
        SolveCommand.self,
        BackendsCommand.self,
        GenerateCommand.self,
        BenchCommand.self,
        IncrementalBenchCommand.self,
        FuzzCommand.self,
        GuidedCommand.self,
        ReplayCommand.self,
        PrintCommand.self,
        ExportLPCommand.self,
        ReportCommand.self,
        ImportCommand.self,
        HistoryCommand.self,
        SolveLPCommand.self,
        BenchNetlibCommand.self,
        VisualFormatDiffCommand.self,
        WorkerCommand.self,
    ]
}
