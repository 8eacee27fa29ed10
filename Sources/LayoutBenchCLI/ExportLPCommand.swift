import ArgumentParser
import ExactSimplex
import Foundation
import LayoutModel

/// `layoutbench export-lp FILE --level K [--format lp|mps]`: the LP of one priority level,
/// with exact rational coefficients, for an outside exact solver (QSopt_ex's `esolver`).
///
/// Level 0 is the feasibility LP of every required constraint; level K ≥ 1 minimises level
/// K's error sum over the kept required constraints with levels 1…K−1 held at the optima
/// the exact backend computed. The first comment lines carry the exact backend's own
/// answer, which `scripts/qsopt/compare.sh` checks against the outside solver.
struct ExportLPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-lp",
        abstract: "Write the exact LP of one priority level (CPLEX LP or MPS).")

    @Argument(help: "The .layout file.")
    var file: String

    @Option(help: "The priority level: 0 for required feasibility, 1 for the highest optional level, …")
    var level: Int

    @Option(help: "lp (CPLEX LP) or mps (free MPS).")
    var format: String = "lp"

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    func run() throws {
        guard let fileFormat = LPFileFormat(rawValue: format) else {
            throw ValidationError("--format must be lp or mps")
        }
        let text = try InputFile.text(at: file)
        let system: ConstraintSystem
        do {
            system = try LayoutParser.parse(text, file: file)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            throw ExitStatus.invalidInput
        }
        let program: String
        do {
            program = try LevelProgramExport.export(system, level: level, format: fileFormat)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            if case .unsupported = error { throw ExitStatus.unsupported }
            throw ExitStatus.internalFailure
        }
        if let output {
            do {
                try program.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                FileHandle.standardError.write(Data("\(output): cannot write: \(error.localizedDescription)\n".utf8))
                throw ExitStatus.internalFailure
            }
        } else {
            print(program, terminator: "")
        }
    }
}
