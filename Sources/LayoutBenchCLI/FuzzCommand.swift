import ArgumentParser
import BackendContract
import Foundation
import Fuzzing
import Generator
import Reporting
import Runner
import Synchronization

/// Set by SIGINT: runs stop taking new cases, finish the ones in flight and write their report.
let interruptRequested = Atomic<Bool>(false)

/// Installs the Ctrl-C handler (a second Ctrl-C kills the process as usual).
func stopOnInterrupt() {
    signal(SIGINT) { _ in
        if interruptRequested.load(ordering: .relaxed) { _exit(130) }
        interruptRequested.store(true, ordering: .relaxed)
    }
}

/// `layoutbench fuzz`
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Differential fuzzing: generate systems, solve with every backend, judge, reduce findings.",
        discussion: """
            Case i of a campaign is generated from (--seed, i) alone. Each case is solved by every \
            backend that supports it, judged against the exact reference (status, feasibility, \
            objective, determined values, ambiguity, broken list, conflict) and by one metamorphic \
            oracle; findings are reduced to small repros in OUT/findings (FINGERPRINT.layout, \
            .expected.json, .finding.json), written atomically as they appear. Cases run on --jobs \
            worker threads, by default each in its own `layoutbench worker` process, so a backend \
            that traps or hangs becomes a finding instead of ending the run.

            Shard K of N (--shard K/N, K from 0) takes cases K, K+N, K+2N, … of the campaign's \
            --cases; under Slurm job arrays and Kubernetes Indexed Jobs the shard comes from the \
            environment when --shard is not given. OUT/checkpoint.json records completed cases: \
            --resume continues a killed run (where --out holds no campaign yet, an empty or new folder, \
            it starts one and says so on stderr; a folder of other files is invalid input). Ctrl-C stops after the cases in flight and writes \
            OUT/report.json; `layoutbench report merge` combines shards.

            With --sequences, every case is an update sequence (spec §7): a sequence family's \
            steps (up to --max-steps) on a system of one of --families. Every pass of every \
            backend (the float backend incrementally) is judged against the exact reference's \
            fresh solve of that pass; the metamorphic oracle is from-scratch (each pass's answer \
            against the same backend given the pass's system alone). Findings name the pass and \
            step at which a backend first went wrong, and are reduced over steps, passes, \
            constraints and views.

            --seeds DIR seeds the campaign with real layouts: every .layout file under DIR, and \
            every layout root of its .xib and .storyboard files (imported as `layoutbench import \
            ib` does), is a family `seed:PATH` (`seed:PATH#ROOTID`) whose cases are that layout \
            mutated — constants perturbed, priorities changed, constraints dropped or duplicated, \
            intrinsic sizes changed — always into a valid system; the case's seed is the \
            mutation's. A .layout seed with several passes (`layout` lines) keeps them. Every \
            other case is an update sequence instead (among --sequences' cases when that is \
            given): family `seed-updates:PATH` on base `seed:PATH`, the seed mutated, its own \
            passes, then up to --max-steps update steps of every kind (set constant, intrinsic, \
            priority, root; remove; add view and constraint), judged pass by pass as --sequences \
            does. Files that cannot be read are listed with their positions and left out. \
            With --seeds the campaign's families are the seeds alone, unless --families names \
            generated ones too. `layoutbench generate --seeds DIR --family seed:PATH --seed S` \
            regenerates a case (add --steps N for a seed-updates:PATH case). See docs/fuzzing.md.
            """)

    @OptionGroup var seeding: SeedOption

    @Option(help: "The campaign's number of cases (indices 0..<C, shared out among shards).")
    var cases: Int?

    @Option(help: "Stop after this many seconds (0 < S <= 30 days).")
    var time: Seconds?

    @OptionGroup var selection: BackendSelection

    @Option(help: "Comma-separated generator families (default: every family but the 10^4+ view ones).")
    var families: String?

    @Option(help: ArgumentHelp(SequenceFamilySelection.help, valueName: "families"))
    var sequences: String?

    @Option(help: "With --sequences: the most update steps of a case (each case draws 1...N).")
    var maxSteps: Int = 16

    @Option(help: "A folder of real layouts (.layout, .xib, .storyboard) whose mutations are the campaign's cases.")
    var seeds: String?

    @Option(help: "Smallest system size (views).")
    var minSize: Int = 1

    @Option(help: "Largest system size (views).")
    var maxSize: Int = 10

    @Option(help: "Where findings, the checkpoint and the report go.")
    var out: String = "fuzz-out"

    @Option(help: "This machine's shard, K/N with K from 0 (default: from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, else the whole campaign).")
    var shard: String?

    @Option(help: "The shard count N, for JOB_COMPLETION_INDEX (Kubernetes) or Slurm arrays without SLURM_ARRAY_TASK_COUNT.")
    var shards: Int?

    @OptionGroup var workers: WorkerOptions

    @Flag(inversion: .prefixedNo, help: "Run cases in child worker processes, so traps and hangs become findings.")
    var isolate = true

    @Option(help: "Seconds a case may take in a worker before it counts as a hang.")
    var caseTimeout = Seconds(120)

    @Option(help: "Seconds one backend solve may take (its budget).")
    var solveTimeout = Seconds(10)

    @Flag(help: "Continue the run in --out from its checkpoint; with none there (no folder, or an empty one), start the campaign and say so; a folder of other files is invalid input.")
    var resume = false

    @Option(help: "Also copy the kept findings into this regression corpus folder (e.g. Corpora/regressions).")
    var corpus: String?

    @Option(help: "Reduced findings kept per signature (class, backend, oracle): those of the lowest case indices.")
    var perSignature: Int = 3

    @Flag(help: "Keep findings whole instead of reducing them.")
    var noReduce = false

    @OptionGroup var history: HistoryOptions

    @Option(help: "Fail (exit status 1) only for wrong findings in these history states (new, back, open), e.g. new,back; replaces the default failure on any wrong finding.")
    var failOn: String?

    @Flag(inversion: .prefixedNo, help: "Exit with status 1 when the campaign holds wrong findings.")
    var failOnWrong = true

    func validate() throws {
        if failOn != nil && history.disabled { throw ValidationError("--fail-on needs the history (drop --no-history)") }
        _ = try HistoryOptions.states(failOn)
        if cases == nil && time == nil { throw ValidationError("give --cases, --time or both") }
        if let cases, cases < 0 { throw ValidationError("--cases must not be negative") }
        if minSize < 1 || maxSize < minSize { throw ValidationError("need 1 <= --min-size <= --max-size") }
        if perSignature < 1 { throw ValidationError("--per-signature must be at least 1") }
        if maxSteps < 1 { throw ValidationError("--max-steps must be at least 1") }
        if let seeds {
            // The run's repros are .layout files: inside the seeds they would become seeds.
            let folder = URL(fileURLWithPath: seeds).standardizedFileURL.path + "/"
            if (URL(fileURLWithPath: out).standardizedFileURL.path + "/").hasPrefix(folder) {
                throw ValidationError("--out must not be inside the --seeds folder (its findings would become seeds)")
            }
        }
        if let shard, Shard(parsing: shard) == nil { throw ValidationError("--shard takes K/N with 0 <= K < N, e.g. 0/8") }
    }

    func run() throws {
        let backends = try selection.chosen()
        var familyNames = seeds != nil && families == nil ? [] : try FamilySelection.parse(families).map(\.name)
        let seedFolder = try seeds.map(SeedSelection.load)
        familyNames += seedFolder?.seeds.map(\.name) ?? []
        let chosenShard: Shard
        do {
            chosenShard = try shard.flatMap(Shard.init(parsing:))
                ?? Shard.fromEnvironment(ProcessInfo.processInfo.environment, shards: shards) ?? .whole
        } catch {
            printError("\(error)")
            throw ExitStatus.invalidInput
        }
        var spec = CampaignSpec(
            seed: seeding.seed, families: familyNames, minSize: minSize, maxSize: maxSize, backends: backends.map(\.name),
            budgetSeconds: solveTimeout.value, reduce: !noReduce, perSignature: perSignature)
        if let sequences {
            spec.sequenceFamilies = try SequenceFamilySelection.parse(sequences).map(\.name)
        }
        if sequences != nil || seedFolder != nil { spec.maxSteps = maxSteps }
        if seedFolder != nil { spec.seedSequences = true }
        // Workers load the seeds themselves: by an absolute path, checked by its digest.
        spec.seeds = seedFolder.map { URL(fileURLWithPath: $0.directory).standardizedFileURL.path }
        spec.seedsDigest = seedFolder?.digest
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let options = FuzzRunOptions(
            spec: spec, shard: chosenShard, cases: cases, time: time?.duration, jobs: workers.jobs,
            isolation: isolate ? Isolation(executable: executable, caseTimeout: caseTimeout.duration) : nil,
            outDirectory: URL(fileURLWithPath: out), resume: resume)
        if resume && FuzzRunner.resumeTarget(in: options.outDirectory) == .nothing {
            // Slurm array re-runs pass --resume from the first attempt on: a fresh start, said.
            printError("nothing to resume in \(out): starting a new campaign")
        }
        stopOnInterrupt()
        let display = workers.progressDisplay(timeLimit: time?.duration)
        let runner = FuzzRunner(
            options: options, catalog: BackendRegistry.catalog,
            shouldStop: { interruptRequested.load(ordering: .relaxed) },
            progress: { p in
                for finding in p.newFindings {
                    display.show(finding.isWrong ? Tone.bad.wrap(finding.text, color: display.colored) : finding.text)
                }
                let rate = Double(p.completed) / max(p.elapsed.inSeconds, 1e-9)
                display.update(completed: p.completed, total: p.total,
                               text: "\(p.occurrences) occurrences, \(p.stored) stored, \(String(format: "%.1f", rate)) cases/s")
            })
        let report: FuzzReport
        do {
            report = try runner.run()
        } catch let error as CampaignError {
            display.finish()
            printError("\(error)")
            throw ExitStatus.invalidInput
        } catch let error as CocoaError {
            // The output folder cannot be written (not a folder, full, read-only): exit 1, named.
            display.finish()
            printError(fileErrorText(error, path: out))
            throw ExitStatus.internalFailure
        } catch {
            display.finish()
            printError("fuzz failed: \(error)")
            throw ExitStatus.internalFailure
        }
        display.finish()
        if let corpus {
            let store = try FindingStore(directory: URL(fileURLWithPath: out).appendingPathComponent("findings"))
            for stored in try store.reports() {
                try FindingStore.addToCorpus(stored, directory: URL(fileURLWithPath: corpus), date: Self.today())
            }
        }
        print(FuzzSummaryText.render(report, reducedSizes: report.findings.map(\.reducedConstraints)))
        // A shard is recorded by the `report merge` of its campaign.
        let failing = report.shardCount > 1 ? [] : try history.recordFuzz(
            at: runner.reportURL, source: "fuzz", backends: report.backends, failOn: try HistoryOptions.states(failOn))
        if failOn != nil {
            // --fail-on decides the exit status alone: the known findings do not fail the run.
            print("report: \(runner.reportURL.path)")
            guard failing.isEmpty else {
                printError("failing for \(failing.count) findings in states \(failOn ?? ""): \(failing.joined(separator: ", "))")
                throw ExitStatus.internalFailure  // a check that found something
            }
            return
        }
        print("report: \(runner.reportURL.path)")
        if failOnWrong && report.wrongOccurrences > 0 { throw ExitStatus.wrongFindings }
    }

    static func today() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date())
    }
}

/// Reads `--families`; by default every family but the ones whose sizes start at 10^4 views.
enum FamilySelection {
    static func parse(_ list: String?) throws -> [Family] {
        guard let list else { return Families.all.filter { $0.name != "long-chain" } }
        var chosen: [Family] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let family = Families.named(name) else {
                printError("unknown family '\(name)'; `layoutbench generate --list` names them")
                throw ExitStatus.invalidInput
            }
            chosen.append(family)
        }
        return chosen
    }
}

/// Reads `--sequences`: a comma-separated list of sequence families, or `all`.
enum SequenceFamilySelection {
    static let help = "Comma-separated sequence families, or all: cases become update sequences on systems of --families ("
        + SequenceFamilies.all.map(\.name).joined(separator: ", ") + "; docs/generator.md)."

    static func parse(_ list: String) throws -> [SequenceFamily] {
        if list == "all" { return SequenceFamilies.all }
        var chosen: [SequenceFamily] = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let family = SequenceFamilies.named(name) else {
                printError("unknown sequence family '\(name)'; known: \(SequenceFamilies.all.map(\.name).joined(separator: ", "))")
                throw ExitStatus.invalidInput
            }
            chosen.append(family)
        }
        return chosen
    }
}

/// Reads `--seeds DIR` (for `fuzz` and `generate`): the unusable files are listed on stderr
/// with their positions; a folder without any usable seed is invalid input.
enum SeedSelection {
    static func load(_ directory: String) throws -> SeedFolder {
        let folder: SeedFolder
        do {
            folder = try SeedFolder.load(directory)
        } catch {
            printError("\(error)")
            throw ExitStatus.invalidInput
        }
        for problem in folder.problems { printError("\(problem) (left out of the seeds)") }
        printError("seeds: \(folder.seeds.count) layouts from \(directory)"
                   + (folder.skippedRoots > 0 ? ", \(folder.skippedRoots) IB roots skipped by the importer" : ""))
        return folder
    }
}

/// The end-of-run summary of a fuzz report.
enum FuzzSummaryText {
    static func render(_ report: FuzzReport, reducedSizes: [Int]) -> String {
        var lines = ["fuzz: \(report.cases) cases (seed \(report.seed), shards \(report.shards.map(\.index)) of \(report.shardCount))\(report.interrupted ? ", interrupted" : "")"]
        if !report.missingShards.isEmpty { lines.append("missing shards: \(report.missingShards)") }
        let occurrences = report.occurrences
        let wrong = occurrences.filter { FindingSignature(parsing: $0.key).isWrong }
        let forgiven = occurrences.filter { !FindingSignature(parsing: $0.key).isWrong }
        if wrong.isEmpty {
            lines.append("no wrong findings")
        } else {
            lines.append("wrong findings (class/backend/oracle: occurrences):")
            for (signature, n) in wrong.sorted(by: { $0.key < $1.key }) { lines.append("  \(signature): \(n)") }
        }
        if !forgiven.isEmpty {
            let semantics = forgiven.keys.contains { FindingSignature(parsing: $0).verdict == "semantics" }
            lines.append(semantics
                ? "ill-conditioned or semantics, counted apart (explained by rounding within the backend's precision, or by its declared semantics):"
                : "ill-conditioned, counted apart (explained by rounding within the backend's precision):")
            for (signature, n) in forgiven.sorted(by: { $0.key < $1.key }) { lines.append("  \(signature): \(n)") }
            let sizes = report.findings.filter { !$0.signature.isWrong }.compactMap(\.perturbation)
            if let low = sizes.min(), let high = sizes.max() {
                lines.append("  stored ones explained by relative perturbations of \(ReportFormat.scientific(low)) to \(ReportFormat.scientific(high))")
            }
        }
        if !report.crashedCases.isEmpty { lines.append("crashed or hung cases: \(report.crashedCases.count)") }
        if !reducedSizes.isEmpty {
            let sorted = reducedSizes.sorted()
            lines.append("kept repros: \(sorted.count); constraints after reduction: median \(sorted[sorted.count / 2]), p90 \(sorted[min(sorted.count - 1, sorted.count * 9 / 10)]), max \(sorted.last ?? 0)")
            let buckets = [(1...3, "1-3"), (4...6, "4-6"), (7...10, "7-10"), (11...Int.max, ">10")]
            lines.append("  sizes: " + buckets.map { range, label in "\(label): \(sorted.filter { range.contains($0) }.count)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
