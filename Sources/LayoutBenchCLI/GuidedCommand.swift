import ArgumentParser
import BackendContract
import Foundation
import Fuzzing
import GuidedFuzzing
import LayoutModel
import Reporting
import Runner

/// `layoutbench guided seeds|findings`: the ordinary side of the coverage-guided fuzzer
/// (`scripts/fuzz-guided.sh`), which itself is built apart with libFuzzer.
struct GuidedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guided",
        abstract: "Seeds for the coverage-guided fuzzer, and its crash artefacts as findings.",
        subcommands: [GuidedSeedsCommand.self, GuidedFindingsCommand.self, GuidedShowCommand.self])
}

/// `layoutbench guided seeds --out DIR [PATH...]`
struct GuidedSeedsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seeds",
        abstract: "Write the guided fuzzer's seed corpus: the generator's families and .layout files, in its byte form.",
        discussion: """
            Every family but long-chain at sizes 2, 4 and 8 (seeds 1 and 2), every sequence \
            family on 3 views of its base (or of form, hugging-contest and conflict-early), and every .layout \
            file under the given paths (the corpora; imported app layouts written by `layoutbench \
            import ib --out`), each as one file named by its origin.
            """)

    @Option(help: "The corpus folder (created when missing).")
    var out: String

    @Argument(help: "Files or folders of .layout files to add (e.g. Corpora).")
    var paths: [String] = []

    @Option(help: "Instead of the families: the first N cases of `fuzz --seed 1 --backend all` (to measure coverage).")
    var generative: Int?

    func run() throws {
        let directory = URL(fileURLWithPath: out)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written = 0
        func write(_ name: String, _ bytes: [UInt8]) throws {
            try FindingStore.atomicWrite(Data(bytes), to: directory.appendingPathComponent("seed-" + name))
            written += 1
        }
        if let generative {
            for (name, bytes) in GuidedSeeds.fromCampaign(seed: 1, count: generative) { try write(name, bytes) }
        } else {
            for (name, bytes) in GuidedSeeds.fromFamilies() { try write(name, bytes) }
        }
        for file in CorpusReplay.layoutFiles(under: paths) {
            // A file that does not parse is a LayoutError: the exit contract reports it (status 2).
            let text = try InputFile.text(at: file)
            let name = file.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: ".layout", with: "")
            try write(name, try GuidedSeeds.fromLayout(text, file: file))
        }
        print("guided seeds: \(written) inputs in \(out)")
    }
}

/// `layoutbench guided show ARTEFACT...`
struct GuidedShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a guided input (a libFuzzer artefact or corpus file) as the .layout text the harness judges.",
        discussion: """
            Every byte string decodes to some update sequence (docs/fuzzing.md, "Coverage-guided \
            fuzzing"); this prints it unreduced, for `layoutbench solve` or a debugger. Several \
            inputs are printed one after another, each after a `# input: PATH` line.
            """)

    @Argument(help: "Guided inputs (crash-* artefacts, corpus files).")
    var inputs: [String]

    func run() throws {
        for path in inputs {
            guard let data = FileManager.default.contents(atPath: path) else {
                printError("\(path):1:1: cannot read the input")
                throw ExitStatus.invalidInput
            }
            if inputs.count > 1 { print("# input: \(path)") }
            print(GuidedCase(bytes: [UInt8](data)).sequence.canonicalText, terminator: "")
        }
    }
}

/// `layoutbench guided findings ARTEFACT... --out DIR`
struct GuidedFindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "findings",
        abstract: "Turn the guided fuzzer's crash artefacts into ordinary findings (reduced repros, OUT/report.json).",
        discussion: """
            Each artefact is decoded and judged again; every wrong finding on it is reduced and \
            stored as `fuzz` stores its own (OUT/findings/F.layout, F.expected.json, \
            F.finding.json), and OUT/report.json lists them in the fuzz report schema. An \
            artefact that shows no wrong finding here (a timeout or out-of-memory input) is \
            named on standard error. With --known, a finding that a corpus file marked \
            `# expect-fail: B` or `# expect-ill-conditioned: B` records (the input itself, or \
            the reduced repro: same fingerprint or same system) is known: stored apart in \
            OUT/known/ and counted, not reported as wrong. Exits 1 when there are new wrong \
            findings.
            """)

    @Argument(help: "libFuzzer artefacts (crash-*, or any input files).")
    var artefacts: [String] = []

    @Option(help: "The output folder.")
    var out: String

    @Option(help: "A planted fault's name (debug builds): convert a self-test's artefacts.")
    var plantedFault: String?

    @Option(help: "A corpus file or folder whose expected failures are known, not new (repeatable; e.g. Corpora).")
    var known: [String] = []

    func run() throws {
        // A marked corpus file that does not parse is a LayoutError: the exit contract reports it.
        let conversion = ArtefactConversion(known: try KnownFailures(paths: known))
        let outURL = URL(fileURLWithPath: out)
        let store = try FindingStore(directory: outURL.appendingPathComponent("findings"))
        let knownStore = try FindingStore(directory: outURL.appendingPathComponent("known"))
        var knownCount = 0
        var occurrences: [String: Int] = [:]
        let start = ContinuousClock.now
        for (index, path) in artefacts.sorted().enumerated() {
            guard let data = FileManager.default.contents(atPath: path) else {
                printError("\(path):1:1: cannot read the artefact")
                throw ExitStatus.invalidInput
            }
            let converted = try withPlantedFault { conversion.reports(of: [UInt8](data), index: UInt64(index)) }
            if converted.new.isEmpty && converted.known.isEmpty {
                printError("\(path): no wrong finding on this input (timeout, out of memory, or fixed)")
            }
            for (report, entry) in converted.known {
                knownCount += 1
                try knownStore.store(report)
                print("\(path): \(report.finding.signature) is known: \(entry.file) expects \(entry.backends.sorted().joined(separator: ", ")) to fail → known/\(report.fingerprint).layout")
            }
            for report in converted.new {
                occurrences[report.finding.signature, default: 0] += 1
                try store.store(report)
                print("\(path): \(report.finding.signature) → findings/\(report.fingerprint).layout")
            }
        }
        let summary = ShardSummary(
            index: 0, cases: artefacts.count, interrupted: false, occurrences: occurrences, crashedCases: [],
            seconds: (ContinuousClock.now - start).inSeconds, families: nil)
        let report = FuzzReport(
            seed: 0, shardCount: 1, shards: [summary], missingShards: [], backends: ["exact", "float", "gaussian"],
            families: [GuidedJudge.family], perSignature: artefacts.count,
            findings: try store.reports().map { FuzzRunner.entry($0) }.sorted { $0.fingerprint < $1.fingerprint })
        try FuzzRunner.write(report, to: outURL.appendingPathComponent("report.json"))
        print("guided findings: \(report.findings.count) stored from \(artefacts.count) artefacts, \(knownCount) known (\(out)/known); \(out)/report.json")
        if !report.findings.isEmpty { throw ExitStatus.wrongFindings }
    }

    /// Runs `body` with the named fault planted (an error in a build without faults).
    func withPlantedFault<T>(_ body: () throws -> T) throws -> T {
        guard let name = plantedFault else { return try body() }
        #if LAYOUTBENCH_FAULTS
        guard let fault = PlantedFault(rawValue: name) else {
            printError("--planted-fault: no fault named '\(name)'")
            throw ExitStatus.invalidInput
        }
        return try withFault(fault, body)
        #else
        printError("--planted-fault: this build has no planted faults (a debug build has)")
        throw ExitStatus.invalidInput
        #endif
    }
}
