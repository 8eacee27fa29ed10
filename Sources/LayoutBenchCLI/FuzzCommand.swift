import ArgumentParser
import BackendContract
import Foundation
import Fuzzing
import Generator
import Synchronization

/// Set by SIGINT: the campaign stops after the case in flight and writes its summary.
let interruptRequested = Atomic<Bool>(false)

/// `layoutbench fuzz`
struct FuzzCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Differential fuzzing: generate systems, solve with every backend, judge, reduce findings.",
        discussion: """
            Case i of a campaign is generated from (--seed, i) alone. Each case is solved by every \
            backend that supports it, judged against the exact reference (status, feasibility, \
            objective, determined values, ambiguity, broken list, conflict) and by one metamorphic \
            oracle; each finding is reduced to a small repro and written to OUT/findings as \
            FINGERPRINT.layout (+ .expected.json, .finding.json), atomically, as it appears. \
            Ctrl-C stops after the case in flight and still writes OUT/summary.json.
            """)

    @Option(help: "The campaign seed.")
    var seed: UInt64 = 1

    @Option(help: "How many cases to run.")
    var cases: Int?

    @Option(help: "Stop after this many seconds (with --cases, whichever comes first).")
    var time: Double?

    @Option(help: "Comma-separated backends under test, or all.")
    var backend: String = "all"

    @Option(help: "Comma-separated generator families (default: every family).")
    var families: String?

    @Option(help: "Smallest system size (views).")
    var minSize: Int = 1

    @Option(help: "Largest system size (views).")
    var maxSize: Int = 10

    @Option(help: "Where findings and the summary go.")
    var out: String = "fuzz-out"

    @Option(help: "Also add each reduced finding to this regression corpus folder (e.g. Corpora/regressions).")
    var corpus: String?

    @Option(help: "Reduce at most this many findings of one signature (class, backend, oracle); the rest are counted.")
    var perSignature: Int = 3

    @Flag(help: "Keep findings whole instead of reducing them.")
    var noReduce = false

    @Flag(help: "No progress lines on stderr.")
    var quiet = false

    func validate() throws {
        if cases == nil && time == nil { throw ValidationError("give --cases, --time or both") }
        if let cases, cases < 0 { throw ValidationError("--cases must not be negative") }
        if minSize < 1 || maxSize < minSize { throw ValidationError("need 1 <= --min-size <= --max-size") }
        if perSignature < 1 { throw ValidationError("--per-signature must be at least 1") }
    }

    func run() throws {
        let backends = try BackendRegistry.select(backend)
        guard let reference = BackendRegistry.backend(named: BackendRegistry.referenceName) else {
            printError("no exact reference backend is registered")
            throw ExitStatus.internalFailure
        }
        let chosenFamilies = try FamilySelection.parse(families)
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: seed, families: chosenFamilies, sizes: minSize...maxSize, backends: backends,
            reference: reference, reducer: noReduce ? nil : Reducer()))
        let outURL = URL(fileURLWithPath: out)
        let store: FindingStore
        do {
            store = try FindingStore(directory: outURL.appendingPathComponent("findings"))
        } catch {
            printError("\(out): cannot create the output folder: \(error)")
            throw ExitStatus.invalidInput
        }
        signal(SIGINT) { _ in interruptRequested.store(true, ordering: .relaxed) }

        let start = ContinuousClock.now
        var summary = FuzzSummary(seed: seed, backends: backends.map(\.name), families: chosenFamilies.map(\.name))
        var reducedPerSignature: [String: Int] = [:]
        var index: UInt64 = 0
        var lastProgress = start
        while true {
            if let cases, index >= UInt64(cases) { break }
            if let time, (ContinuousClock.now - start) > .milliseconds(Int64(time * 1000)) { break }
            if interruptRequested.load(ordering: .relaxed) { summary.interrupted = true; break }
            let found = campaign.judge(index)
            summary.cases += 1
            for (finding, transform) in found.findings {
                summary.count(finding)
                let done = reducedPerSignature[finding.signature, default: 0]
                guard done < perSignature else { continue }
                reducedPerSignature[finding.signature] = done + 1
                let report = campaign.report(finding, transform: transform, system: found.system, spec: found.spec)
                do {
                    if try store.store(report) {
                        summary.record(report)
                        if let corpus {
                            try FindingStore.addToCorpus(report, directory: URL(fileURLWithPath: corpus), date: Self.today())
                        }
                        if !quiet { printError("finding \(report.fingerprint): \(finding.detail) [\(report.reducedConstraints) constraints after reduction]") }
                    }
                } catch {
                    printError("cannot write finding \(report.fingerprint): \(error)")
                    throw ExitStatus.internalFailure
                }
            }
            index += 1
            if !quiet, ContinuousClock.now - lastProgress > .seconds(2) {
                lastProgress = ContinuousClock.now
                let elapsed = Self.seconds(ContinuousClock.now - start)
                printError("[\(index)\(cases.map { "/\($0)" } ?? "")] \(summary.totalFindings) findings, \(String(format: "%.1f", Double(index) / max(elapsed, 1e-9))) cases/s")
            }
        }
        summary.seconds = Self.seconds(ContinuousClock.now - start)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try FindingStore.atomicWrite(try encoder.encode(summary), to: outURL.appendingPathComponent("summary.json"))
        } catch {
            printError("cannot write the summary: \(error)")
            throw ExitStatus.internalFailure
        }
        print(summary.text)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func today() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date())
    }
}

/// Reads `--families`.
enum FamilySelection {
    static func parse(_ list: String?) throws -> [Family] {
        guard let list else { return Families.all }
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

/// What a campaign found, for the terminal and `summary.json`.
struct FuzzSummary: Codable {
    var seed: UInt64
    var backends: [String]
    var families: [String]
    var cases = 0
    var seconds = 0.0
    var interrupted = false
    /// Findings per class, every occurrence counted.
    var byKind: [String: Int] = [:]
    /// Findings per signature (class/backend/oracle), every occurrence counted.
    var bySignature: [String: Int] = [:]
    /// The stored (reduced) findings.
    var fingerprints: [String] = []
    /// Constraint counts of the reduced repros.
    var reducedSizes: [Int] = []

    var totalFindings: Int { byKind.values.reduce(0, +) }

    mutating func count(_ finding: Finding) {
        byKind[finding.kind.rawValue, default: 0] += 1
        bySignature[finding.signature, default: 0] += 1
    }

    mutating func record(_ report: FuzzCampaign.Report) {
        fingerprints.append(report.fingerprint)
        reducedSizes.append(report.reducedConstraints)
    }

    var text: String {
        var lines = ["fuzz: \(cases) cases in \(String(format: "%.1f", seconds)) s (seed \(seed))\(interrupted ? ", interrupted" : "")"]
        if bySignature.isEmpty {
            lines.append("no findings")
        } else {
            lines.append("findings (class/backend/oracle: occurrences):")
            for (signature, n) in bySignature.sorted(by: { $0.key < $1.key }) { lines.append("  \(signature): \(n)") }
        }
        if !reducedSizes.isEmpty {
            let sorted = reducedSizes.sorted()
            let median = sorted[sorted.count / 2]
            let p90 = sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
            lines.append("reduced repros: \(sorted.count), constraints median \(median), p90 \(p90), max \(sorted.last ?? 0)")
            let buckets = [(1...3, "1-3"), (4...6, "4-6"), (7...10, "7-10"), (11...Int.max, ">10")]
            lines.append("  sizes: " + buckets.map { range, label in "\(label): \(sorted.filter { range.contains($0) }.count)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
