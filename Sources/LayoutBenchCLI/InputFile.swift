import ArgumentParser
import Foundation
import LayoutModel

/// Reads and validates `.layout` files (and their JSON form) for the subcommands.
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

    /// Parses and validates a file: `.layout` text, or the JSON form (a file ending in
    /// `.json`); a system, or a system with an update sequence (spec §7).
    static func sequence(at path: String, rules: ValidationRules) throws(Failure) -> UpdateSequence {
        try parsed(at: path) { (text) throws(LayoutError) in
            if path.hasSuffix(".json") { return try UpdateSequence(json: text, file: path, rules: rules) }
            return try LayoutParser.parseSequence(text, file: path, rules: rules)
        }
    }

    /// Parses and validates a file of one system; an update sequence is refused.
    static func system(at path: String, rules: ValidationRules) throws(Failure) -> ConstraintSystem {
        try parsed(at: path) { (text) throws(LayoutError) in
            if path.hasSuffix(".json") { return try ConstraintSystem(json: text, file: path, rules: rules) }
            return try LayoutParser.parse(text, file: path, rules: rules)
        }
    }

    /// The file's text through `parse`, its positioned error as the one-line failure.
    private static func parsed<T>(at path: String, _ parse: (String) throws(LayoutError) -> T) throws(Failure) -> T {
        let text = try text(at: path)
        do {
            return try parse(text)
        } catch {
            throw Failure(description: error.description)
        }
    }

    /// Parses a file (a system or a sequence) or exits with status 2 and the error on stderr.
    static func sequenceOrExit(at path: String, rules: ValidationRules) throws -> UpdateSequence {
        try orExit { () throws(Failure) in try sequence(at: path, rules: rules) }
    }

    /// Parses a file of one system or exits with status 2 and the error on stderr.
    static func systemOrExit(at path: String, rules: ValidationRules) throws -> ConstraintSystem {
        try orExit { () throws(Failure) in try system(at: path, rules: rules) }
    }

    private static func orExit<T>(_ read: () throws(Failure) -> T) throws -> T {
        do {
            return try read()
        } catch {
            printError(error.description)
            throw ExitStatus.invalidInput
        }
    }
}

extension ValidationRules: ExpressibleByArgument {}

/// The shared corpora (`../shared/corpora/NAME`, beside the repository; never copied into it).
enum SharedCorpus {
    /// `../shared/corpora/NAME` from the working directory when it exists there, else beside
    /// the repository the running executable was built in (`REPO/.build/…/layoutbench`),
    /// else the relative path (whose absence the caller reports).
    static func path(_ name: String) -> String {
        let relative = "../shared/corpora/" + name
        if FileManager.default.fileExists(atPath: relative) { return relative }
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let beside = folder.appendingPathComponent(relative).standardizedFileURL.path
                if FileManager.default.fileExists(atPath: beside) { return beside }
                break
            }
            folder.deleteLastPathComponent()
        }
        return relative
    }
}
