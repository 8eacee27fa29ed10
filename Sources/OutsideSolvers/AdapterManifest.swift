import ChildProcesses
import Foundation

/// One outside solver as the manifest declares it.
public struct AdapterDefinition: Sendable, Hashable, Codable {
    /// The backend name (`--backend NAME`).
    public var name: String
    /// One line for `layoutbench backends`.
    public var summary: String
    /// The adapter's command line; `$here` stands for the manifest's folder.
    public var command: [String]
    /// A command that exits 0 when the solver is installed (run with a 30-second limit).
    public var check: [String]?
    /// What to run when it is not.
    public var install: String
    /// The reproducer style for its findings: kiwisolver, cassowary, z3, highspy, esolver,
    /// glpsol (nil: none).
    public var reproducer: String?

    public init(name: String, summary: String, command: [String], check: [String]? = nil, install: String, reproducer: String? = nil) {
        self.name = name
        self.summary = summary
        self.command = command
        self.check = check
        self.install = install
        self.reproducer = reproducer
    }
}

/// Why a manifest cannot be used, with its position (`file:line:column: message`).
public struct ManifestError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The manifest of outside solvers (`scripts/solvers/manifest.json`): a JSON object with
/// `version` 1 and `adapters`, each an ``AdapterDefinition``.
public struct AdapterManifest: Sendable {
    public static let fileName = "manifest.json"
    public static let supportedVersion = 1

    /// The folder the manifest lives in (`$here` in commands).
    public var directory: URL
    public var adapters: [AdapterDefinition]

    public init(directory: URL, adapters: [AdapterDefinition]) {
        self.directory = directory
        self.adapters = adapters
    }

    private struct Document: Decodable {
        var version: Int
        var adapters: [AdapterDefinition]
    }

    /// Reads a manifest; errors name the file and, for JSON errors, the line and column.
    public static func load(_ url: URL) throws(ManifestError) -> AdapterManifest {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestError("\(url.path):1:1: cannot read the manifest")
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw ManifestError("\(url.path):\(Self.position(of: error, in: data)): \(Self.describe(error))")
        }
        guard document.version == supportedVersion else {
            throw ManifestError("\(url.path):1:1: manifest version \(document.version); this LayoutBench reads version \(supportedVersion)")
        }
        var seen = Set<String>()
        for adapter in document.adapters {
            guard !adapter.name.isEmpty, adapter.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ManifestError("\(url.path):1:1: adapter name '\(adapter.name)' must be letters, digits, - and _")
            }
            guard seen.insert(adapter.name).inserted else { throw ManifestError("\(url.path):1:1: adapter '\(adapter.name)' is declared twice") }
            guard !adapter.command.isEmpty else { throw ManifestError("\(url.path):1:1: adapter '\(adapter.name)' has an empty command") }
        }
        return AdapterManifest(directory: url.deletingLastPathComponent(), adapters: document.adapters)
    }

    /// The manifest LayoutBench uses: `LAYOUTBENCH_SOLVERS_MANIFEST`, else
    /// `scripts/solvers/manifest.json` in the first folder above the executable or the
    /// working directory that has one; nil when there is none.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment["LAYOUTBENCH_SOLVERS_MANIFEST"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let starts = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        ]
        for start in starts {
            var folder = start
            while true {
                let candidate = folder.appendingPathComponent("scripts/solvers/\(fileName)")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    /// A command line with `$here` replaced and the program looked up on PATH.
    public func resolve(_ command: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var resolved = command.map { $0.replacingOccurrences(of: "$here", with: directory.path) }
        if let program = resolved.first, !program.contains("/") {
            resolved[0] = Self.which(program, path: environment["PATH"] ?? "/usr/bin:/bin") ?? program
        }
        return resolved
    }

    /// The first executable named `program` on `path`.
    public static func which(_ program: String, path: String) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs the adapter's check command: true when it exits 0 within 30 seconds. An adapter
    /// without one counts as installed when its program can be found.
    public func isInstalled(_ adapter: AdapterDefinition) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        guard let check = adapter.check, !check.isEmpty else {
            return resolve(adapter.command).first.map { FileManager.default.isExecutableFile(atPath: $0) } ?? false
        }
        let command = resolve(check, environment: environment)
        guard let child = try? ChildProcess(
            executable: command[0], arguments: Array(command.dropFirst()), environment: environment,
            inheritStandardError: false, connected: false, newProcessGroup: true)
        else { return false }
        let deadline = ContinuousClock.now + .seconds(30)
        while !child.hasExited {
            if ContinuousClock.now > deadline { child.kill(); return false }
            usleep(5_000)
        }
        return child.exitStatus == 0
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\(key.stringValue)'" + Self.path(context.codingPath)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type" + Self.path(context.codingPath) + ": \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            return "not JSON: \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "" : " at " + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// `line:column` of a JSON syntax error (JSONSerialization names the character offset;
    /// JSONDecoder does not), else 1:1.
    private static func position(of error: any Error, in data: Data) -> String {
        var text = "\(error)"
        do { _ = try JSONSerialization.jsonObject(with: data) } catch { text = "\((error as NSError).userInfo)" }
        guard let range = text.range(of: "character "),
              let offset = Int(text[range.upperBound...].prefix { $0.isNumber }) else { return "1:1" }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return "\(line):\(column)"
    }
}
