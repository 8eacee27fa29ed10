import ChildProcesses
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A reply line that carries its request's `id`.
protocol IdentifiedReply {
    var id: Int? { get }
}

/// One running adapter process: JSON lines out, JSON lines in, each read under a deadline.
///
/// Not thread-safe: one caller at a time (``OutsideSolverBackend`` hands each caller a
/// session of its own). Once it has failed (died, hung, sent garbage) it is dead for good.
final class AdapterSession {
    let child: ChildProcess
    private(set) var hello: AdapterHello
    private var buffer: [UInt8] = []
    private var nextID = 1
    private(set) var isDead = false

    /// Longest reply line accepted: a guard against a runaway adapter.
    static let maximumLine = 64 << 20

    /// Starts the adapter and reads its hello within `startTimeout`.
    init(command: [String], startTimeout: Duration) throws(AdapterFailure) {
        var environment = ProcessInfo.processInfo.environment
        environment = ParentDeath.environment(environment)
        environment["PYTHONUNBUFFERED"] = "1"
        let inherit = environment["LAYOUTBENCH_ADAPTER_STDERR"] == "inherit"
        let child: ChildProcess
        do {
            child = try SpawnThread.shared.run {
                try ChildProcess(
                    executable: command[0], arguments: Array(command.dropFirst()), environment: environment,
                    inheritStandardError: inherit, newProcessGroup: true)
            }
        } catch {
            throw .cannotStart("\(error)")
        }
        self.child = child
        self.hello = AdapterHello(type: "", protocol: 0, name: "", version: "", capabilities: DeclaredCapabilities(
            priorities: .init(model: "lexicographic"), reports: .init()))
        let line: Data
        do {
            line = try readLine(deadline: ContinuousClock.now + startTimeout, waited: startTimeout)
        } catch {
            if case .died(let how) = error { throw .cannotStart("it exited before its hello (\(how))") }
            throw error
        }
        guard let hello = try? JSONDecoder().decode(AdapterHello.self, from: line), hello.type == "hello" else {
            kill()
            throw .garbage("a first line that is not a hello: \(Self.excerpt(line))")
        }
        guard hello.protocol == outsideSolverProtocolVersion else {
            kill()
            throw .protocolError("the adapter speaks protocol \(hello.protocol); LayoutBench speaks \(outsideSolverProtocolVersion)")
        }
        self.hello = hello
    }

    /// Sends one request (an `id` is added) and reads its reply within `timeout`.
    func request(_ object: [String: Any], timeout: Duration) throws(AdapterFailure) -> AdapterReply {
        try request(object, as: AdapterReply.self, timeout: timeout)
    }

    /// Sends one request (an `id` is added) and reads its reply, decoded as `Reply`, within
    /// `timeout`: the adapter's own reply types and helpers that answer other requests
    /// (GTK's VFL parser, GtkVisualFormatParser) share the session's deadlines and checks.
    func request<Reply: Decodable & IdentifiedReply>(
        _ object: [String: Any], as: Reply.Type, timeout: Duration
    ) throws(AdapterFailure) -> Reply {
        guard !isDead else { throw .died("an earlier request killed it") }
        var object = object
        let id = nextID
        nextID += 1
        object["id"] = id
        if let ms = object["deadline_ms"] as? Int, ms <= 0 { object["deadline_ms"] = 1 }
        var data = try AdapterRequest.encode(object)
        data.append(UInt8(ascii: "\n"))
        try write(data)
        let line = try readLine(deadline: ContinuousClock.now + timeout, waited: timeout)
        let reply: Reply
        do {
            reply = try JSONDecoder().decode(Reply.self, from: line)
        } catch {
            kill()
            throw .garbage(Self.excerpt(line))
        }
        guard reply.id == id else {
            kill()
            throw .protocolError("reply for request \(reply.id.map(String.init) ?? "null"), expected \(id)")
        }
        return reply
    }

    private func write(_ data: Data) throws(AdapterFailure) {
        let failed: Bool = data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(child.input, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += n
            }
            return false
        }
        if failed { throw .died(reap()) }
    }

    /// Reads up to the next newline; a dead, silent or runaway adapter is killed.
    private func readLine(deadline: ContinuousClock.Instant, waited: Duration) throws(AdapterFailure) -> Data {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
                return line
            }
            guard buffer.count <= Self.maximumLine else {
                kill()
                throw .garbage("a line longer than \(Self.maximumLine) bytes")
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else {
                kill()
                throw .hung(waited)
            }
            var descriptor = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .died(reap())
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = chunk.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .died(reap())
            }
            if n == 0 { throw .died(reap()) }
            buffer += chunk[..<n]
        }
    }

    /// Waits for a child whose pipe closed and says how it ended.
    private func reap() -> String {
        isDead = true
        // Its output closed; it may still be running (closed stdout on purpose): end it.
        if !child.hasExited {
            usleep(50_000)
            if !child.hasExited { child.kill() }
        }
        return child.waitForExit()
    }

    /// Kills the adapter (its whole process group).
    func kill() {
        isDead = true
        child.kill()
    }

    /// Asks the adapter to quit, then makes sure it has.
    func close() {
        if !isDead, let data = try? AdapterRequest.encode(["type": "quit"]) {
            _ = try? write(data + [UInt8(ascii: "\n")])
        }
        kill()
    }

    static func excerpt(_ line: Data) -> String {
        let text = String(decoding: line.prefix(200), as: UTF8.self)
        return "'" + text + (line.count > 200 ? "…" : "") + "'"
    }

    deinit { if !isDead { kill() } }
}
