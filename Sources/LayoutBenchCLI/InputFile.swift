import ArgumentParser
import Foundation
import LayoutModel

/// Reads and validates `.layout` files for the subcommands.
enum InputFile {
    /// Why a file could not be turned into a system; printed as one line on stderr.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a file as UTF-8 text.
    static func text(at path: String) throws(Failure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure(description: "\(path): the file is not UTF-8 text")
        }
        return text
    }

    /// Parses and validates a file: `.layout` text, or a system in its JSON form (`.json`).
    static func system(at path: String, rules: ValidationRules) throws(Failure) -> ConstraintSystem {
        let text = try text(at: path)
        if path.hasSuffix(".json") {
            let system: ConstraintSystem
            do {
                system = try JSONDecoder().decode(ConstraintSystem.self, from: Data(text.utf8))
            } catch {
                throw Failure(description: "\(path): not a system in JSON form: \(error)")
            }
            if let issue = system.validate(rules: rules).first {
                let place = issue.constraintIndex.map { " constraint \($0 + 1):" } ?? ""
                throw Failure(description: "\(path):\(place) \(issue.message)")
            }
            return system
        }
        do {
            return try LayoutParser.parse(text, file: path, rules: rules)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// Parses a file or exits with status 2 and the error on stderr.
    static func systemOrExit(at path: String, rules: ValidationRules) throws -> ConstraintSystem {
        do {
            return try system(at: path, rules: rules)
        } catch {
            printError(error.description)
            throw ExitStatus.invalidInput
        }
    }
}

extension ValidationRules: ExpressibleByArgument {}
