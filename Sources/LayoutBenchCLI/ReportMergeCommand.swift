import ArgumentParser
import Foundation
import Runner

/// `layoutbench report merge DIR... -o OUT`
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine fuzz shard outputs into one campaign report.",
        discussion: """
            Each DIR is a `fuzz --out` folder (or an earlier merge). Shards are united by index, \
            findings by fingerprint, and per signature the findings of the lowest case indices are \
            kept, as an unsharded run keeps them; merging is idempotent. Shards that no DIR covers \
            are listed as missing (re-run them with --shard K/N and merge again).
            """)

    @Argument(help: "Shard output folders.")
    var inputs: [String]

    @Option(name: [.short, .customLong("output")], help: "The merged folder (report.json and findings/).")
    var output: String

    @OptionGroup var history: HistoryOptions

    func run() throws {
        do {
            let report = try ReportMerge.merge(inputs: inputs.map { URL(fileURLWithPath: $0) }, into: URL(fileURLWithPath: output))
            print(FuzzSummaryText.render(report, reducedSizes: report.findings.map(\.reducedConstraints)))
            print("report: \(output)/report.json")
            _ = try history.recordFuzz(
                at: URL(fileURLWithPath: output).appendingPathComponent("report.json"), source: "merge", backends: report.backends, failOn: [])
        } catch let error as ReportMerge.MergeError {
            printError("\(error)")
            throw ExitStatus.invalidInput
        }
    }
}
