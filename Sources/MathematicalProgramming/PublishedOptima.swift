import ExactArithmetic
import Foundation

/// Published optimal values in the `.solu` format of SoPlex's test sets
/// (`=opt= NAME VALUE`, also `=inf= NAME` and `=unbd= NAME`), read exactly.
public struct PublishedOptima: Sendable {
    /// What is known about one problem.
    public enum Known: Sendable, Equatable {
        case optimal(Rational)
        case infeasible
        case unbounded
    }

    public var problems: [String: Known]

    /// What is known about `name`; a file name without the list's hyphen (`vtpbase` for
    /// `vtp-base`) finds it too.
    public subscript(name: String) -> Known? {
        problems[name] ?? problems.first(where: { $0.key.replacingOccurrences(of: "-", with: "") == name })?.value
    }

    /// Reads a `.solu` file; lines it does not understand are errors with their position.
    public init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MPSError(file: path, line: 1, column: 1, message: "cannot read the file")
        }
        problems = [:]
        for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.isEmpty { continue }
            func fail(_ message: String) -> MPSError { MPSError(file: path, line: index + 1, column: 1, message: message) }
            switch fields[0] {
            case "=opt=":
                guard fields.count >= 3 else { throw fail("expected =opt= NAME VALUE") }
                if fields[2] == "infeasible" {
                    problems[String(fields[1])] = .infeasible
                } else if fields[2] == "unbounded" {
                    problems[String(fields[1])] = .unbounded
                } else if let value = MPSReader.exactNumber(fields[2]) {
                    problems[String(fields[1])] = .optimal(value)
                } else {
                    throw fail("'\(fields[2])' is not a number, infeasible or unbounded")
                }
            case "=inf=":
                guard fields.count >= 2 else { throw fail("expected =inf= NAME") }
                problems[String(fields[1])] = .infeasible
            case "=unbd=":
                guard fields.count >= 2 else { throw fail("expected =unbd= NAME") }
                problems[String(fields[1])] = .unbounded
            default:
                throw fail("unknown line '\(fields[0])'")
            }
        }
    }
}
