import ChildProcesses
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A child started by ``ChildProcesses/ChildProcess`` keeps only its standard streams: a
/// descriptor the parent opened without close-on-exec is not inherited.
@Suite struct ChildProcessDescriptorTests {
    /// A pipe made the way another library in the process may make one (no close-on-exec):
    /// a child that inherited its write end would hold it open, and a reader of that pipe
    /// would wait for the end of a process long finished (a CI run hung this way, an outside
    /// solver's adapter holding a CLI test's pipe).
    @Test func aChildHoldsNoDescriptorItWasNotGiven() throws {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        let script = "for fd in \(pipeEnds[0]) \(pipeEnds[1]); do if [ -e /proc/self/fd/$fd ]; then echo open $fd; else echo closed $fd; fi; done"
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], environment: [:], inheritStandardError: false)
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(child.output, &buffer, buffer.count)
            if count <= 0 { break }
            text.append(contentsOf: buffer[0..<count])
        }
        child.waitForExit()
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == ["closed \(pipeEnds[0])", "closed \(pipeEnds[1])"])
    }
}
