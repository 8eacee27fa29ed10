import ArgumentParser
import BackendContract
import CertificateChecker
import ExactArithmetic
import ExactSimplex
import Foundation
import LayoutModel

/// `layoutbench solve FILE`
struct SolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "solve",
        abstract: "Solve a .layout file with one backend and print the frames.",
        discussion: """
            Frames are [x, y, width, height] relative to the parent's origin (UIKit's frame), \
            or in root coordinates with --global. The JSON form is the spec's result form (§6). \
            A file with an update sequence (spec §7) is solved pass by pass, each from scratch \
            with the whole budget: text output gives each pass's table, JSON the last pass's \
            result with "passes", every pass's result in order. With --along, the backend \
            follows the sequence its own way instead (float: one incremental solver through \
            every update, the budget per pass), as `fuzz` and `replay` judge it.
            """)

    @Argument(help: "The .layout file (or JSON form) to solve.")
    var file: String

    @Option(help: "The backend to solve with (see `layoutbench backends`).")
    var backend: String = BackendRegistry.defaultName

    @Option(help: "text (a table) or json (the spec's result form).")
    var format: OutputFormat = .text

    @Flag(help: "Give frames in the root's coordinates instead of the parent's.")
    var global = false

    @OptionGroup var validation: ValidationRulesOption

    @Option(help: "Stop after this many iterations (pivots or row operations).")
    var maxIterations: Int?

    @Option(help: "Stop after this many seconds (0 < S <= 30 days).")
    var timeLimit: Seconds?

    @Flag(help: "Solve an update sequence's passes along it, as the backend does between layout passes (incremental for float), not each from scratch.")
    var along = false

    @Flag(help: "Also produce the exact backend's certificate (Farkas for a conflict, duals per level) and check it with the independent checker; exits 1 if it does not check.")
    var certify = false

    @Option(help: "With --certify, write the certificate (JSON) to this file.")
    var certificateOut: String?

    func validate() throws {
        if let maxIterations, maxIterations < 1 { throw ValidationError("--max-iterations must be at least 1") }
        if along && certify { throw ValidationError("--certify checks each pass solved alone; it does not combine with --along") }
    }

    func run() throws {
        guard let solver = BackendRegistry.backend(named: backend) else {
            printError("unknown backend '\(backend)'; choose one of: \(BackendRegistry.names)")
            throw ExitStatus.invalidInput
        }
        let sequence = try InputFile.sequenceOrExit(at: file, rules: validation.rules)
        let passCount = sequence.passCount
        func label(_ pass: Int) -> String { passCount > 1 ? "\(file): pass \(pass + 1)" : file }
        if certificateOut != nil && passCount > 1 {
            printError("\(file): --certificate-out takes a file of one pass; this one has \(passCount)")
            throw ExitStatus.invalidInput
        }
        // Every pass must be supported before any is solved, so output is all or nothing.
        // Passes are replayed rather than held, so long sequences stay small.
        try sequence.forEachPass { pass, system in
            if case .unsupported(let reason) = solver.supports(system) {
                printError("\(label(pass)): backend \(solver.name) does not support this system: \(reason)")
                throw ExitStatus.unsupported
            }
        }
        // Each pass is solved from scratch (spec §7: a pass means the fresh solution of the
        // system as it stands), with the whole budget.
        let budget = Budget(iterations: maxIterations, wallTime: timeLimit?.duration)
        var documents: [ResultDocument] = []
        var verdicts: [CertificateVerdict?] = []
        // Along the sequence: every pass's answer from the backend's own path, taken in order.
        let alongPasses = along ? solver.solve(sequence, budget: budget).passes : nil
        try sequence.forEachPass { pass, system in
            let (result, verdict): (BackendResult, CertificateVerdict?)
            if let alongPasses {
                switch alongPasses[pass].result {
                case .success(let answer): (result, verdict) = (answer, nil)
                case .failure(let error): throw reported(error, system: system, label: label(pass))
                }
            } else {
                (result, verdict) = try solve(system, with: solver, budget: budget, label: label(pass))
            }
            let solution = result.solution
            guard solution.values.allSatisfy(\.isFinite), solution.objective.allSatisfy(\.isFinite) else {
                printError("\(label(pass)): backend \(solver.name) returned a non-finite value")
                throw ExitStatus.internalFailure
            }
            verdicts.append(verdict)
            switch format {
            case .json:
                documents.append(ResultDocument(
                    system: system, solution: solution, global: global,
                    exactFrames: exactFrames(system: system, solution: solution)))
            case .text:
                let table = ResultTable(system: system, result: result, backend: solver.name, global: global).text
                print(passCount > 1 ? (pass > 0 ? "\n" : "") + "pass \(pass + 1):\n" + table : table)
            }
        }
        if format == .json, var document = documents.last {
            // The last pass's result, and every pass's when there are several (spec §7).
            if passCount > 1 { document.passes = documents }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                print(String(decoding: try encoder.encode(document), as: UTF8.self))
            } catch {
                printError("\(file): cannot encode the result: \(error)")
                throw ExitStatus.internalFailure
            }
        }
        var rejected = false
        for (pass, verdict) in verdicts.enumerated() {
            let prefix = passCount > 1 ? "pass \(pass + 1): " : ""
            switch verdict {
            case .verified?:
                printError(prefix + "certificate: verified by the independent checker")
            case .rejected(let reasons)?:
                printError(prefix + "certificate: REJECTED: " + reasons.joined(separator: "; "))
                rejected = true
            case nil:
                break
            }
        }
        if rejected { throw ExitStatus.internalFailure }
    }

    /// Solves one pass, with the certificate checked when `--certify` asks for it.
    private func solve(_ system: ConstraintSystem, with solver: any LayoutBackend, budget: Budget, label: String)
        throws -> (BackendResult, CertificateVerdict?)
    {
        do {
            guard certify else { return (try solver.solve(system, budget: budget), nil) }
            guard let exact = solver as? ExactSimplexBackend else {
                printError("--certify needs the exact backend (--backend exact)")
                throw ExitStatus.invalidInput
            }
            let (certified, certificate) = try exact.solveCertified(system, budget: budget)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let data = try encoder.encode(certificate)
            if let certificateOut { try Self.writeCertificate(data, to: certificateOut) }
            guard certified.solution.status != .budgetExceeded else { return (certified, nil) }
            return (certified, CertificateVerifier.verify(certificate: data, system: system, solution: certified.solution))
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw reported(error, system: system, label: label)
        }
    }

    /// Prints a backend's failure on `system` and gives the exit status it maps to.
    private func reported(_ error: any Error, system: ConstraintSystem, label: String) -> ExitCode {
        if case BackendError.outOfRange(_, let constraint, let message) = error {
            // Valid, but its solution is no number: the input's fault, told at the constraint.
            let at = system.constraints.indices.contains(constraint) ? system.constraints[constraint].source?.first : nil
            printError((at.map { "\(file):\($0)" } ?? label) + ": " + message)
            return ExitStatus.invalidInput
        }
        printError("\(label): \(error)")
        return ExitStatus.internalFailure
    }

    /// Writes the certificate atomically (temporary file, then rename) to a regular file,
    /// and straight through to a device or pipe (`/dev/stdout`): renaming over those replaced
    /// the device node itself with a file, so `/dev/full` reported success. A failed write
    /// names the file and exits 1.
    static func writeCertificate(_ data: Data, to path: String) throws {
        do {
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            if let type, type != .typeRegular, type != .typeSymbolicLink || !isRegularTarget(path) {
                guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
                defer { try? handle.close() }
                try handle.write(contentsOf: data)
            } else {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            }
        } catch {
            printError("cannot write the certificate: " + fileErrorText(error, path: path))
            throw ExitStatus.internalFailure
        }
    }

    /// Whether a symbolic link ends at a regular file (or at nothing yet).
    private static func isRegularTarget(_ path: String) -> Bool {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType else { return true }
        return type == .typeRegular
    }

    /// The frames as exact rational strings, when the backend computed exactly.
    private func exactFrames(system: ConstraintSystem, solution: Solution) -> [[String]]? {
        guard let exact = solution.exactValues, exact.count == system.variableCount else { return nil }
        var values: [Rational] = []
        values.reserveCapacity(exact.count)
        for text in exact {
            guard let value = Rational(text) else { return nil }
            values.append(value)
        }
        return system.frames(values: values, global: global).map { $0.map(\.description) }
    }
}

/// The text form of a result: a status line, a frame table, objective, ambiguity, broken.
struct ResultTable {
    var system: ConstraintSystem
    var result: BackendResult
    var backend: String
    var global: Bool

    var text: String {
        let s = result.solution
        var lines: [String] = []
        let ms = result.statistics.duration.inSeconds * 1000
        lines.append("status: \(s.status.rawValue)   (backend \(backend), \(result.statistics.iterations) iterations, \(Self.format(ms)) ms)")
        if s.status == .budgetExceeded { return lines.joined(separator: "\n") }
        let ambiguous = Set(s.ambiguous)
        let frames = system.frames(values: s.values, global: global)
        var rows = [["item", "x", "y", "width", "height"]]
        for index in 1..<max(system.items.count, 1) {
            var row = [system.items[index].name]
            for component in FrameComponent.allCases {
                let value = Self.shortest(frames[index - 1][component.rawValue])
                row.append(ambiguous.contains(Unknown(item: index, component: component)) ? value + "?" : value)
            }
            rows.append(row)
        }
        let widths = (0..<5).map { col in rows.map { $0[col].count }.max() ?? 0 }
        for row in rows {
            lines.append(zip(row, widths).enumerated().map { col, cell in
                col == 0 ? cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: cell.1 - cell.0.count) + cell.0
            }.joined(separator: "  "))
        }
        if !s.objective.isEmpty {
            let levels = system.optionalLevels
            lines.append("objective: " + zip(levels, s.objective).map { "@\($0.0): \(Self.shortest($0.1))" }.joined(separator: ", "))
        }
        if !s.ambiguous.isEmpty {
            lines.append("ambiguous (marked ?): " + s.ambiguous.map(system.unknownName).joined(separator: ", "))
        }
        if !s.broken.isEmpty {
            lines.append("broken: " + s.broken.map(system.constraintName).joined(separator: ", "))
            lines.append("conflict: " + s.conflict.map(system.constraintName).joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The shortest text that reads back as the same `Double` (Swift's `description`), whole
    /// numbers without a decimal point: a frame printed by `solve` can be pasted into a
    /// `.layout` file or compared with another backend's digit for digit.
    static func shortest(_ value: Double) -> String {
        if value == 0 { return "0" }  // -0.0 too: a frame has no sign of zero
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// Up to 6 decimals, trailing zeros dropped (durations).
    static func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
