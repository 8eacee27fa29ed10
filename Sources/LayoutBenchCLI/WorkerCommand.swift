import ArgumentParser
import Runner

/// `layoutbench worker`: the child process of an isolated fuzz run.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Serve fuzz cases to a parent `layoutbench fuzz` over stdin/stdout (not for direct use).",
        discussion: "Frames are a 4-byte big-endian length and JSON (see Runner/WorkerProtocol.swift).",
        shouldDisplay: false)

    func run() throws {
        let status = WorkerService.serve(catalog: BackendRegistry.catalog)
        if status != 0 { throw ExitCode(status) }
    }
}
