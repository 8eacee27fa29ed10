import ChildProcesses
import ExactArithmetic
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// LP solvers outside LayoutBench, run on an MPS file for comparison: QSopt_ex's `esolver`
/// (exact), GLPK's `glpsol --exact` (rational simplex, decimal output) and HiGHS through
/// Python's `highspy` (floating point). They are timed and counted here, never trusted.
public enum OutsideLPSolver: String, CaseIterable, Sendable {
    case esolver, glpsol, highs

    /// What the solver reported.
    public struct Outcome: Sendable {
        /// `optimal`, `infeasible`, `unbounded`, `stopped` or the solver's own word.
        public var status: String
        /// The objective: exact for esolver, parsed from a decimal otherwise.
        public var objective: Rational?
        /// True when `objective` is the solver's exact rational.
        public var objectiveIsExact: Bool
        public var pivots: Int?
        public var seconds: Double
    }

    /// The failure to run the solver at all.
    public struct RunError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The executable, when installed (for HiGHS: `/usr/bin/env`, which finds the
    /// `python3` on PATH, when that Python has `highspy`).
    public var executable: String? {
        if self == .highs {
            guard let (_, status) = try? Self.capture("/usr/bin/env", ["python3", "-c", "import highspy"]), status == 0 else { return nil }
            return "/usr/bin/env"
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"] {
            let found = "\(directory)/\(rawValue)"
            if FileManager.default.isExecutableFile(atPath: found) { return found }
        }
        return nil
    }

    /// Solves the (uncompressed) MPS file at `path` with a time limit in seconds.
    public func solve(mpsPath path: String, timeLimit: Int) throws -> Outcome {
        guard let executable else { throw RunError(description: "\(rawValue) is not installed") }
        let clock = ContinuousClock()
        let start = clock.now
        switch self {
        case .esolver:
            let solution = NSTemporaryDirectory() + "layoutbench-esolver-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sol"
            defer { try? FileManager.default.removeItem(atPath: solution) }
            // esolver logs its pivot counts on standard error.
            let (log, _) = try Self.capture(
                "/bin/sh", ["-c", "exec \"$0\" -R \"$1\" -O \"$2\" \"$3\" 2>&1", executable, String(timeLimit), solution, path])
            let seconds = (clock.now - start).seconds
            var pivots = 0
            for line in log.split(separator: "\n") where line.hasPrefix("time = ") {
                for key in ["pI = ", "pII = ", "dI = ", "dII = "] {
                    if let range = line.range(of: key) {
                        let digits = line[range.upperBound...].prefix(while: \.isNumber)
                        pivots += Int(digits) ?? 0
                    }
                }
            }
            let text = (try? String(contentsOfFile: solution, encoding: .utf8)) ?? ""
            var status = "stopped"
            var objective: Rational?
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("status ") { status = trimmed.dropFirst(7).lowercased() }
                if trimmed.hasPrefix("Value = ") { objective = Rational(String(trimmed.dropFirst(8))) }
            }
            if text.isEmpty && log.contains("INFEASIBLE") { status = "infeasible" }
            if text.isEmpty && log.contains("UNBOUNDED") { status = "unbounded" }
            return Outcome(status: status, objective: objective, objectiveIsExact: true, pivots: pivots, seconds: seconds)
        case .glpsol:
            let (log, _) = try Self.capture(executable, ["--exact", "--tmlim", String(timeLimit), "--mps", path])
            let seconds = (clock.now - start).seconds
            var pivots: Int?
            var objective: Rational?
            var status = "stopped"
            for line in log.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("*") || trimmed.first?.isNumber == true && trimmed.contains("objval") {
                    let fields = trimmed.replacingOccurrences(of: "*", with: " ").split(separator: " ")
                    if let count = fields.first.flatMap({ Int($0.replacingOccurrences(of: ":", with: "")) }) { pivots = count }
                }
                if trimmed.hasPrefix("OPTIMAL") { status = "optimal" }
                if trimmed.contains("PROBLEM HAS NO PRIMAL FEASIBLE SOLUTION") { status = "infeasible" }
                if trimmed.contains("PROBLEM HAS UNBOUNDED SOLUTION") { status = "unbounded" }
            }
            if let range = log.range(of: "objval = ", options: .backwards) {
                let number = log[range.upperBound...].drop(while: \.isWhitespace).prefix(while: { !$0.isWhitespace })
                objective = MPSReader.exactNumber(Substring(number))
            }
            return Outcome(status: status, objective: objective, objectiveIsExact: false, pivots: pivots, seconds: seconds)
        case .highs:
            let script = """
                import sys, highspy
                h = highspy.Highs()
                h.setOptionValue("output_flag", False)
                h.setOptionValue("time_limit", float(sys.argv[2]))
                h.readModel(sys.argv[1])
                h.run()
                info = h.getInfo()
                print(h.modelStatusToString(h.getModelStatus()))
                print(repr(info.objective_function_value))
                print(info.simplex_iteration_count)
                """
            let (log, status) = try Self.capture(executable, ["python3", "-c", script, path, String(timeLimit)])
            let seconds = (clock.now - start).seconds
            let lines = log.split(separator: "\n").map(String.init)
            guard status == 0, lines.count >= 3 else { throw RunError(description: "highspy failed: \(log)") }
            let word = lines[lines.count - 3].lowercased()
            let outcome = word == "optimal" ? "optimal" : word.contains("infeasible") ? "infeasible" : word.contains("unbounded") ? "unbounded" : word
            let objective = Double(lines[lines.count - 2]).flatMap(Rational.init(exactly:))
            return Outcome(status: outcome, objective: objective, objectiveIsExact: false, pivots: Int(lines[lines.count - 1]), seconds: seconds)
        }
    }

    /// Runs `executable` to its end and returns its standard output (standard error goes to
    /// /dev/null) and exit status.
    static func capture(_ executable: String, _ arguments: [String]) throws -> (String, Int32) {
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                inheritStandardError: false)
        } catch {
            throw RunError(description: "\(error)")
        }
        let output = CompressedInput.readToEnd(child)
        child.waitForExit()
        return (String(decoding: output, as: UTF8.self), child.exitStatus ?? -1)
    }
}

extension Duration {
    /// The duration in seconds.
    public var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) * 1e-18
    }
}
