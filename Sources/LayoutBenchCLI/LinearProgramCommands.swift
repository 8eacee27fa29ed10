import ArgumentParser
import ExactArithmetic
import ExactLP
import Foundation
import MathematicalProgramming

/// `layoutbench import mps FILE.mps[.gz]`
struct ImportMPSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mps",
        abstract: "Read a free-format MPS file (gzipped or not) exactly and summarise it, or print it whole.",
        discussion: "See docs/netlib.md. Exit status: 0 when the file was read, 2 when it is malformed (file:line:column: message).")

    @Argument(help: "The MPS file (.mps or .mps.gz).")
    var file: String

    @Flag(help: "Print every row, column bound and objective coefficient, not only the summary.")
    var full = false

    func run() throws {
        let lp = try readProgram(file)
        print("name \(lp.name.isEmpty ? "-" : lp.name)")
        print("sense \(lp.sense.rawValue)")
        print("rows \(lp.rowCount), columns \(lp.columnCount), nonzeros \(lp.nonzeroCount)")
        let ranged = (0..<lp.rowCount).filter { lp.rowLower[$0] != nil && lp.rowUpper[$0] != nil && lp.rowLower[$0] != lp.rowUpper[$0] }.count
        let equalities = (0..<lp.rowCount).filter { lp.rowLower[$0] != nil && lp.rowLower[$0] == lp.rowUpper[$0] }.count
        print("equality rows \(equalities), ranged rows \(ranged)")
        let boxed = (0..<lp.columnCount).filter { lp.columnLower[$0] != nil && lp.columnUpper[$0] != nil }.count
        let free = (0..<lp.columnCount).filter { lp.columnLower[$0] == nil && lp.columnUpper[$0] == nil }.count
        print("boxed columns \(boxed), free columns \(free), integer-marked columns \(lp.integerColumns.count)")
        if !lp.objectiveConstant.isZero { print("objective constant \(lp.objectiveConstant)") }
        guard full else { return }
        print("\(lp.sense.rawValue) " + (0..<lp.columnCount).filter { !lp.objective[$0].isZero }
            .map { "\(lp.objective[$0]) \(lp.columnNames[$0])" }.joined(separator: " + "))
        var rows = [[String]](repeating: [], count: lp.rowCount)
        for j in 0..<lp.columnCount {
            for entry in lp.columns[j] { rows[entry.row].append("\(entry.value) \(lp.columnNames[j])") }
        }
        for i in 0..<lp.rowCount {
            print("\(lp.rowNames[i]): \(Self.range(lp.rowLower[i], rows[i].joined(separator: " + "), lp.rowUpper[i]))")
        }
        for j in 0..<lp.columnCount where lp.columnLower[j] != .zero || lp.columnUpper[j] != nil {
            print("bound \(Self.range(lp.columnLower[j], lp.columnNames[j], lp.columnUpper[j]))")
        }
    }

    static func range(_ lower: Rational?, _ middle: String, _ upper: Rational?) -> String {
        if let lower, lower == upper { return "\(middle) = \(lower)" }
        return "\(lower.map(String.init(describing:)) ?? "-inf") <= \(middle) <= \(upper.map(String.init(describing:)) ?? "+inf")"
    }
}

/// Reads an MPS file; reader errors are positioned and map to status 2 through the exit
/// contract (`ExitStatus.typed`).
func readProgram(_ file: String) throws -> ExactLinearProgram {
    try MPSReader.read(path: file)
}

/// One LP solve by any of the backends `solve-lp` and `bench-netlib` know.
struct LPSolveRecord: Codable {
    var problem: String
    var backend: String
    var status: String
    /// The objective as an exact rational (`p/q`), when known exactly.
    var objective: String?
    /// The objective rounded to 32 significant digits.
    var objective32: String?
    var pivots: Int?
    /// The objective constant (MPS: the negated RHS of the objective row), included in
    /// `objective`; Koch's values, like esolver's, leave it out, so the verdict subtracts it.
    var objectiveConstant: String?
    /// For the exact backend: the pivots (with bound flips) of the floating-point warm start
    /// and of the exact simplex after it.
    var pivotSplit: [Int]?
    /// For the exact backend: the seconds of the floating-point warm start.
    var floatSeconds: Double?
    var seconds: Double
    /// For the exact backend: whether LPCertificateVerifier accepted the certificate.
    var certificateChecked: Bool?
    /// Against the published value: `match`, `MISMATCH`, `close` (a decimal solver within
    /// 1e-6 relative) or `unknown`.
    var verdict: String?

    static func exact(_ problem: String, _ lp: ExactLinearProgram, timeLimit: Seconds, warmStart: Bool = true) -> LPSolveRecord {
        let clock = ContinuousClock()
        let start = clock.now
        let result = ExactLPSolver.solve(lp, options: .init(timeLimit: timeLimit.duration, floatWarmStart: warmStart))
        let seconds = (clock.now - start).seconds
        let checked = result.certificate.map { LPCertificateVerifier.failure(of: $0, for: lp) == nil }
        var record = LPSolveRecord(
            problem: problem, backend: "exact", status: result.status.rawValue, objective: result.objective?.description,
            objective32: result.objective.map { SignificantDigits.scientific($0) }, pivots: result.totalIterations,
            seconds: seconds, certificateChecked: checked)
        record.pivotSplit = [result.floatPivots, result.pivots + result.boundFlips]
        record.floatSeconds = result.floatDuration.seconds
        if !lp.objectiveConstant.isZero { record.objectiveConstant = lp.objectiveConstant.description }
        return record
    }

    static func outside(_ solver: OutsideLPSolver, _ problem: String, file: String, timeLimit: Seconds) throws -> LPSolveRecord {
        let plain = try plainMPS(file)
        defer { if plain != file { try? FileManager.default.removeItem(atPath: plain) } }
        let outcome = try solver.solve(mpsPath: plain, timeLimit: Int(timeLimit.value.rounded(.up)))
        return LPSolveRecord(
            problem: problem, backend: solver.rawValue, status: outcome.status,
            objective: outcome.objectiveIsExact ? outcome.objective?.description : nil,
            objective32: outcome.objective.map { outcome.objectiveIsExact ? SignificantDigits.scientific($0) : "\($0.doubleValue)" },
            pivots: outcome.pivots, seconds: outcome.seconds, certificateChecked: nil,
            decimalObjective: outcome.objectiveIsExact ? nil : outcome.objective)
    }

    /// The objective of a solver that prints decimals (judged with a tolerance); not written.
    private var decimalObjective: Rational?
    private enum CodingKeys: String, CodingKey {
        case problem, backend, status, objective, objective32, pivots, objectiveConstant, pivotSplit, floatSeconds, seconds, certificateChecked, verdict
    }

    init(problem: String, backend: String, status: String, objective: String?, objective32: String?, pivots: Int?,
         seconds: Double, certificateChecked: Bool?, decimalObjective: Rational? = nil) {
        self.problem = problem
        self.backend = backend
        self.status = status
        self.objective = objective
        self.objective32 = objective32
        self.pivots = pivots
        self.seconds = seconds
        self.certificateChecked = certificateChecked
        self.decimalObjective = decimalObjective
    }

    /// Sets ``verdict`` against a published value.
    mutating func judge(against known: PublishedOptima.Known?) {
        guard let known else { verdict = "unknown"; return }
        switch known {
        case .infeasible: verdict = status == "infeasible" ? "match" : "MISMATCH"
        case .unbounded: verdict = status == "unbounded" ? "match" : "MISMATCH"
        case .optimal(let value):
            if status != "optimal" {
                verdict = status == "stopped" ? "stopped" : "MISMATCH"
            } else if let decimalObjective {
                let tolerance = max(value.magnitude, .one) * Rational(numerator: 1, denominator: 1_000_000)
                verdict = (decimalObjective - value).magnitude <= tolerance ? "close" : "MISMATCH"
            } else if let text = objective, let exact = Rational(text) {
                let constant = objectiveConstant.flatMap { Rational($0) } ?? .zero
                verdict = SignificantDigits.matches(exact - constant, published: value) ? "match" : "MISMATCH"
            } else {
                verdict = "MISMATCH"
            }
        }
    }
}

/// The MPS file uncompressed on disk (outside solvers are given plain files).
func plainMPS(_ file: String) throws -> String {
    guard file.hasSuffix(".gz") else { return file }
    let data = try CompressedInput.contents(of: file)
    let path = NSTemporaryDirectory() + "layoutbench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))-"
        + (file as NSString).lastPathComponent.replacingOccurrences(of: ".gz", with: "")
    try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    return path
}

/// The problem name of a Netlib file (`afiro.mps.gz` → `afiro`).
func problemName(_ file: String) -> String {
    var name = (file as NSString).lastPathComponent
    for suffix in [".gz", ".mps"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
    return name
}

/// `layoutbench solve-lp FILE.mps[.gz] --backend exact|esolver|glpsol|highs`
struct SolveLPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve-lp",
        abstract: "Solve a linear program from an MPS file exactly (or with an outside LP solver).",
        discussion: """
            Prints the status, the objective as an exact rational and rounded to 32 significant \
            digits, the pivots and the time. The exact backend's certificate (optimality, Farkas or \
            ray) is checked by an independent verifier. Exit status: 0 solved, 1 stopped or the \
            certificate failed, 2 unreadable input. See docs/netlib.md.
            """)

    @Argument(help: "The MPS file (.mps or .mps.gz).")
    var file: String

    @Option(help: "exact, esolver, glpsol (glpsol --exact) or highs.")
    var backend: String = "exact"

    @OptionGroup var limit: LPTimeLimit

    @Option(help: "A .solu file of published optima to judge the answer against.")
    var solu: String?

    func validate() throws {
        guard backend == "exact" || OutsideLPSolver(rawValue: backend) != nil else {
            throw ValidationError("unknown LP backend '\(backend)' (exact, esolver, glpsol, highs)")
        }
    }

    func run() throws {
        var record: LPSolveRecord
        if let solver = OutsideLPSolver(rawValue: backend) {
            _ = try readProgram(file)
            record = try LPSolveRecord.outside(solver, problemName(file), file: file, timeLimit: limit.timeLimit)
        } else {
            record = LPSolveRecord.exact(problemName(file), try readProgram(file), timeLimit: limit.timeLimit)
        }
        print("status \(record.status)")
        if let objective = record.objective { print("objective \(objective)") }
        if let objective = record.objective32 { print("objective32 \(objective)") }
        if let constant = record.objectiveConstant { print("objective constant \(constant) (included above)") }
        if let pivots = record.pivots { print("pivots \(pivots)") }
        if let split = record.pivotSplit { print("pivots float \(split[0]), exact \(split[1])") }
        if let seconds = record.floatSeconds { print("float run \(String(format: "%.3f", seconds)) s") }
        print("time \(String(format: "%.3f", record.seconds)) s")
        if let checked = record.certificateChecked { print("certificate \(checked ? "checked" : "REJECTED")") }
        if let solu {
            let optima = try PublishedOptima(path: solu)
            record.judge(against: optima[problemName(file)])
            print("verdict \(record.verdict ?? "unknown")")
            if record.verdict == "MISMATCH" { throw ExitCode(1) }
        }
        if record.status == "stopped" || record.certificateChecked == false { throw ExitCode(1) }
    }
}

/// `layoutbench bench-netlib`: the Netlib LP set, exact against outside solvers and Koch's optima.
struct BenchNetlibCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-netlib",
        abstract: "Solve Netlib problems exactly (and with esolver, glpsol --exact, HiGHS) and judge them against Koch's optima.",
        discussion: """
            Reads ../shared/corpora/netlib (or --corpus): every NAME.mps.gz, and koch-quick.solu. Each \
            problem is solved once per backend with --time-limit seconds; the exact backend's \
            certificate is checked, and its objective must equal Koch's value to all 32 printed \
            digits (verdict `match`). Writes a JSON array of records (--json) and prints a Markdown \
            table with the time ratio exact/esolver and its geometric mean. See docs/netlib.md.
            """)

    @Option(help: "The folder with NAME.mps.gz and koch-quick.solu.")
    var corpus: String = "../shared/corpora/netlib"

    @Option(help: "Comma-separated problem names (default: all in the folder, smallest file first).")
    var problems: String?

    @Option(help: "Comma-separated backends: exact, esolver, glpsol, highs (those installed).")
    var backend: String = "exact,esolver"

    @OptionGroup var limit: LPTimeLimit

    @Option(help: "Write the records as JSON here (written atomically).")
    var json: String?

    @Option(help: ArgumentHelp(
        "An earlier run's --json file: its records join the table (and --json) unless this run solves the same problem with the same backend.",
        discussion: "Lets a slow backend's run (esolver's, say) be made once and set beside new exact runs."))
    var previous: [String] = []

    func run() throws {
        let optima = try PublishedOptima(path: corpus + "/koch-quick.solu")
        let solving = backend.split(separator: ",").map(String.init)
        var earlier: [LPSolveRecord] = []
        for path in previous {
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(path): cannot read the file") }
            do {
                earlier += try JSONDecoder().decode([LPSolveRecord].self, from: data)
            } catch {
                throw ValidationError("\(path): not a bench-netlib --json file (\(error.localizedDescription))")
            }
        }
        var backends = solving
        for record in earlier where !backends.contains(record.backend) { backends.append(record.backend) }
        for name in solving where name != "exact" && OutsideLPSolver(rawValue: name) == nil {
            throw ValidationError("unknown LP backend '\(name)'")
        }
        var files: [String]
        if let problems {
            files = problems.split(separator: ",").map { "\(corpus)/\($0).mps.gz" }
        } else {
            let names = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".mps.gz") }
            let size = { (name: String) -> Int in
                ((try? FileManager.default.attributesOfItem(atPath: "\(corpus)/\(name)"))?[.size] as? Int) ?? 0
            }
            files = names.sorted { (size($0), $0) < (size($1), $1) }.map { "\(corpus)/\($0)" }
        }
        var records: [LPSolveRecord] = []
        for file in files {
            let name = problemName(file)
            let lp = try readProgram(file)
            for solverName in solving {
                var record: LPSolveRecord
                if let solver = OutsideLPSolver(rawValue: solverName) {
                    guard solver.executable != nil else { continue }
                    do {
                        record = try LPSolveRecord.outside(solver, name, file: file, timeLimit: limit.timeLimit)
                    } catch {
                        printError("\(name) \(solverName): \(error)")
                        continue
                    }
                } else {
                    record = LPSolveRecord.exact(name, lp, timeLimit: limit.timeLimit)
                }
                record.judge(against: optima[name])
                printError("\(name) \(solverName): \(record.status) \(record.verdict ?? "") \(String(format: "%.2f", record.seconds)) s, \(record.pivots.map(String.init) ?? "?") pivots")
                records.append(record)
            }
            if let json { try Self.write(Self.merged(earlier, records), to: json) }
        }
        print(Self.markdown(Self.merged(earlier, records), backends: backends))
    }

    /// The earlier records this run did not redo, then this run's.
    static func merged(_ earlier: [LPSolveRecord], _ records: [LPSolveRecord]) -> [LPSolveRecord] {
        earlier.filter { old in !records.contains { $0.problem == old.problem && $0.backend == old.backend } } + records
    }

    static func write(_ records: [LPSolveRecord], to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(records).write(to: URL(fileURLWithPath: path), options: .atomic)
        guard let back = FileManager.default.contents(atPath: path),
            (try? JSONDecoder().decode([LPSolveRecord].self, from: back))?.count == records.count
        else { throw ValidationError("\(path) did not read back") }
    }

    /// One row per problem: each backend's verdict, seconds and pivots, and exact/esolver.
    static func markdown(_ records: [LPSolveRecord], backends: [String]) -> String {
        var problems: [String] = []
        for record in records where !problems.contains(record.problem) { problems.append(record.problem) }
        var header = "| problem |"
        var rule = "|---|"
        for name in backends {
            header += " \(name) | s | pivots |"
            rule += "---|---:|---:|"
        }
        let compare = backends.contains("exact") && backends.contains("esolver")
        if compare {
            header += " exact/esolver |"
            rule += "---:|"
        }
        var lines = [header, rule]
        var logRatios: [Double] = []
        for problem in problems {
            var line = "| \(problem) |"
            var times: [String: Double] = [:]
            for name in backends {
                guard let record = records.first(where: { $0.problem == problem && $0.backend == name }) else {
                    line += " – | | |"
                    continue
                }
                let verdict = record.status == "optimal" ? (record.verdict ?? "?") : record.status
                line += " \(verdict) | \(String(format: "%.3f", record.seconds)) | \(record.pivots.map(String.init) ?? "?") |"
                let good = record.verdict == "match" && (name != "exact" || record.certificateChecked == true)
                if good { times[name] = max(record.seconds, 1e-4) }
            }
            if compare {
                if let e = times["exact"], let q = times["esolver"] {
                    line += " \(String(format: "%.2f", e / q)) |"
                    logRatios.append(log(e / q))
                } else {
                    line += " |"
                }
            }
            lines.append(line)
        }
        if compare && !logRatios.isEmpty {
            let mean = exp(logRatios.reduce(0, +) / Double(logRatios.count))
            lines.append("")
            lines.append("Geometric mean of exact/esolver time over \(logRatios.count) problems both solved: \(String(format: "%.2f", mean))")
        }
        return lines.joined(separator: "\n")
    }
}
