import ChildProcesses
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a file whole, decompressing gzip (`.gz`, or the gzip magic bytes) with `gzip -dc`.
public enum CompressedInput {
    /// A file that cannot be read or decompressed.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The bytes of `path`, decompressed when gzipped.
    public static func contents(of path: String) throws -> Data {
        guard let raw = FileManager.default.contents(atPath: path) else {
            throw ReadError(description: "\(path):1:1: cannot read the file")
        }
        guard raw.count >= 2, raw[raw.startIndex] == 0x1F, raw[raw.startIndex + 1] == 0x8B else { return raw }
        return try gunzip(path)
    }

    private static func gunzip(_ path: String) throws -> Data {
        let gzip = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gzip else { throw ReadError(description: "\(path):1:1: gzip is not installed, so the file cannot be decompressed") }
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: gzip, arguments: ["-dc", "--", path], environment: [:], inheritStandardError: false)
        } catch {
            throw ReadError(description: "\(path):1:1: \(error)")
        }
        let output = readToEnd(child)
        let reason = child.waitForExit()
        guard child.exitStatus == 0 else {
            throw ReadError(description: "\(path):1:1: gzip -dc \(reason): the file is not valid gzip")
        }
        return output
    }

    /// Everything the child writes to its standard output, until it closes it.
    static func readToEnd(_ child: ChildProcess) -> Data {
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        return output
    }
}
