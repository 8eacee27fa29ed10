import Foundation
import ChildProcesses
import Fuzzing

#if canImport(Glibc)
import Glibc
#endif

/// The messages between `layoutbench fuzz --isolate` and its `layoutbench worker` children.
///
/// Each message is a frame: a 4-byte big-endian length, then that many bytes of JSON. The
/// parent sends ``WorkerRequest``s on the child's standard input; the child answers with
/// ``WorkerEvent``s on its standard output, announcing each backend before it solves, so a
/// child that dies mid-solve is blamed on the right backend.
public enum WorkerRequest: Sendable, Codable {
    /// The campaign every later request refers to (sent once, first).
    case configure(CampaignSpec)
    /// Generate and judge case `index`.
    case judge(UInt64)
    /// Reduce a finding of case `index`.
    case reduce(UInt64, FuzzCampaign.Occurrence)
}

public enum WorkerEvent: Sendable, Codable {
    /// The campaign is set up.
    case ready
    /// A backend is about to solve (a transformed system, when an oracle is named).
    case solving(String, oracle: String?)
    case judged(JudgedCase)
    case reduced(FuzzCampaign.Report)
    /// The request could not be served (an invalid campaign); the message says why.
    case failed(String)
}

/// A judged case as it crosses the pipe.
public struct JudgedCase: Sendable, Hashable, Codable {
    public var spec: FuzzCampaign.CaseSpec
    public var occurrences: [FuzzCampaign.Occurrence]

    public init(spec: FuzzCampaign.CaseSpec, occurrences: [FuzzCampaign.Occurrence]) {
        self.spec = spec
        self.occurrences = occurrences
    }
}

/// Reads and writes frames on raw file descriptors.
public struct FrameChannel: Sendable {
    public let input: Int32
    public let output: Int32

    public init(input: Int32, output: Int32) {
        self.input = input
        self.output = output
    }

    /// Largest frame accepted: a guard against a corrupted length.
    static let maximumFrame = 256 << 20

    public enum ChannelError: Error, Sendable, Equatable {
        /// The other side closed the pipe.
        case closed
        /// Nothing arrived in time.
        case timedOut
        /// A length or payload that makes no sense.
        case malformed(String)
    }

    public func send<T: Encodable>(_ message: T) throws {
        let payload = try JSONEncoder().encode(message)
        var length = UInt32(payload.count).bigEndian
        var frame = Data(bytes: &length, count: 4)
        frame.append(payload)
        try frame.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(output, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ChannelError.closed
                }
                offset += n
            }
        }
    }

    /// Reads one frame, waiting at most `timeout` (nil: forever).
    public func receive<T: Decodable>(_ type: T.Type, deadline: ContinuousClock.Instant?) throws -> T {
        let header = try read(count: 4, deadline: deadline)
        let length = header.reduce(0) { $0 << 8 | Int($1) }
        guard length <= Self.maximumFrame else { throw ChannelError.malformed("frame of \(length) bytes") }
        let payload = try read(count: length, deadline: deadline)
        do {
            return try JSONDecoder().decode(T.self, from: payload)
        } catch {
            throw ChannelError.malformed("\(error)")
        }
    }

    private func read(count: Int, deadline: ContinuousClock.Instant?) throws -> Data {
        var data = Data(count: count)
        var offset = 0
        while offset < count {
            if let deadline {
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { throw ChannelError.timedOut }
                var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
                let ready = poll(&descriptor, 1, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw ChannelError.closed
                }
                if ready == 0 { throw ChannelError.timedOut }
            }
            let n = data.withUnsafeMutableBytes { raw in
                Glibc.read(input, raw.baseAddress! + offset, count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw ChannelError.closed
            }
            if n == 0 { throw ChannelError.closed }
            offset += n
        }
        return data
    }
}

/// The child's side: `layoutbench worker` serves requests until its input closes.
public enum WorkerService {
    public static func serve(catalog: BackendCatalog, channel: FrameChannel = FrameChannel(input: 0, output: 1)) -> Int32 {
        // A worker hung in a solve never sees its input close: it must die with the parent.
        ParentDeath.arm()
        var campaign: FuzzCampaign?
        while true {
            let request: WorkerRequest
            do {
                request = try channel.receive(WorkerRequest.self, deadline: nil)
            } catch FrameChannel.ChannelError.malformed(let reason) {
                // Not a parent speaking the protocol: say so, as invalid input.
                FileHandle.standardError.write(Data("worker: malformed request: \(reason)\n".utf8))
                return 2
            } catch {
                return 0  // the parent closed the pipe: done
            }
            do {
                switch request {
                case .configure(let spec):
                    do {
                        campaign = try spec.campaign(catalog: catalog) { backend, oracle in
                            try? channel.send(WorkerEvent.solving(backend, oracle: oracle?.rawValue))
                        }
                        try channel.send(WorkerEvent.ready)
                    } catch {
                        try channel.send(WorkerEvent.failed("\(error)"))
                    }
                case .judge(let index):
                    guard let campaign else { try channel.send(WorkerEvent.failed("no campaign configured")); continue }
                    let found = campaign.judge(index)
                    try channel.send(WorkerEvent.judged(JudgedCase(spec: found.spec, occurrences: found.findings)))
                case .reduce(let index, let occurrence):
                    guard let campaign else { try channel.send(WorkerEvent.failed("no campaign configured")); continue }
                    guard let report = campaign.report(occurrence, spec: campaign.caseSpec(index)) else {
                        try channel.send(WorkerEvent.failed("case \(index) cannot be regenerated"))
                        continue
                    }
                    try channel.send(WorkerEvent.reduced(report))
                }
            } catch {
                return 1  // the parent went away mid-answer
            }
        }
    }
}
