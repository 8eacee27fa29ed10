import ChildProcesses
import Foundation
import Fuzzing

#if canImport(Glibc)
import Glibc
#endif

/// How a reduction ended.
enum ReductionOutcome {
    case reduced(FuzzCampaign.Report)
    /// The isolated worker died (a trap, a signal) or hung while reducing: the occurrence
    /// describes that as a `crash` (or `budget`) finding of the case; the finding being
    /// reduced is kept whole by the caller.
    case workerFailed(FuzzCampaign.Occurrence)
    /// The worker could not serve the request (it could not start, or refused it).
    case unavailable
}

/// Runs cases for one worker thread of the pool.
protocol CaseExecutor: AnyObject {
    /// Judges a case. A case whose isolated worker dies or hangs comes back with a crash or
    /// budget occurrence instead.
    func judge(_ index: UInt64) -> JudgedCase
    /// Reduces an occurrence.
    func reduce(_ index: UInt64, _ occurrence: FuzzCampaign.Occurrence) -> ReductionOutcome
    /// Stops any child process.
    func shutdown()
}

/// Runs cases in this process: fastest, but a trapping backend takes the run down.
final class InProcessExecutor: CaseExecutor {
    let campaign: FuzzCampaign

    init(campaign: FuzzCampaign) { self.campaign = campaign }

    func judge(_ index: UInt64) -> JudgedCase {
        let found = campaign.judge(index)
        return JudgedCase(spec: found.spec, occurrences: found.findings)
    }

    func reduce(_ index: UInt64, _ occurrence: FuzzCampaign.Occurrence) -> ReductionOutcome {
        guard let report = campaign.report(occurrence, spec: campaign.caseSpec(index)) else { return .unavailable }
        return .reduced(report)
    }

    func shutdown() {}
}

/// How isolated workers are started and watched.
public struct Isolation: Sendable {
    /// The `layoutbench` executable (the worker is `layoutbench worker`).
    public var executable: URL
    /// Arguments before `worker` (none normally).
    public var arguments: [String]
    /// Extra environment for the workers (tests enable their faulty backends this way).
    public var environment: [String: String]
    /// A case (or a reduction) that takes longer than this is a hang: the worker is killed.
    public var caseTimeout: Duration

    public init(executable: URL, arguments: [String] = [], environment: [String: String] = [:], caseTimeout: Duration = .seconds(120)) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.caseTimeout = caseTimeout
    }

    /// The environment a worker starts with: `inherited` (this process's), then ``environment``
    /// over it. Unless the worker's standard error is shown (`LAYOUTBENCH_WORKER_STDERR=inherit`)
    /// or the caller chose otherwise, the Swift runtime's backtracer is off
    /// (`SWIFT_BACKTRACE=enable=no`): a crashing worker's stderr goes to /dev/null and the
    /// runner records the death itself, so a backtrace is seconds of symbolication for
    /// nothing — and a backtracer whose crashed worker the runner has already reaped was left
    /// behind, blocked on a read, one per crash.
    public func workerEnvironment(inheriting inherited: [String: String]) -> [String: String] {
        var result = inherited
        for (key, value) in environment { result[key] = value }
        if result["LAYOUTBENCH_WORKER_STDERR"] != "inherit" && result["SWIFT_BACKTRACE"] == nil {
            result["SWIFT_BACKTRACE"] = "enable=no"
        }
        return result
    }
}

/// Runs cases in a child `layoutbench worker`, replaced whenever it dies or hangs.
final class IsolatedExecutor: CaseExecutor {
    let isolation: Isolation
    let spec: CampaignSpec
    /// The parent's own copy of the campaign, to name a dead case.
    let campaign: FuzzCampaign
    private var child: ChildProcess?
    private var channel: FrameChannel?

    init(isolation: Isolation, spec: CampaignSpec, campaign: FuzzCampaign) {
        self.isolation = isolation
        self.spec = spec
        self.campaign = campaign
    }

    /// What happened to a request.
    private enum Answer {
        case event(WorkerEvent)
        case died(last: Running?, reason: String)
        case hung(last: Running?)
    }

    /// What the worker said it was solving last.
    private struct Running {
        var backend: String
        var oracle: String?
        var phrase: String { oracle.map { "\(backend) was solving the \($0) transform" } ?? "\(backend) was solving" }
    }

    private func start() throws {
        let environment = isolation.workerEnvironment(inheriting: ProcessInfo.processInfo.environment)
        // From the permanent spawn thread, so that the worker's parent-death signal fires
        // when this process dies and not when a Dispatch thread retires.
        let inherit = environment["LAYOUTBENCH_WORKER_STDERR"] == "inherit"
        let child = try SpawnThread.shared.run { [isolation] in
            try ChildProcess(
                executable: isolation.executable.path, arguments: isolation.arguments + ["worker"],
                environment: ParentDeath.environment(environment), inheritStandardError: inherit)
        }
        self.child = child
        self.channel = FrameChannel(input: child.output, output: child.input)
        switch exchange(.configure(spec), until: { if case .ready = $0 { return true }; return false }) {
        case .event(.ready): break
        case .event(.failed(let message)): throw CampaignError("worker refused the campaign: \(message)")
        default: throw CampaignError("worker did not start")
        }
    }

    /// Sends a request and reads events until `done` accepts one, the worker dies, or the
    /// case timeout passes.
    private func exchange(_ request: WorkerRequest, until done: (WorkerEvent) -> Bool) -> Answer {
        guard let channel else { return .died(last: nil, reason: "no worker") }
        var last: Running?
        do {
            try channel.send(request)
        } catch {
            return .died(last: nil, reason: reap())
        }
        let deadline = ContinuousClock.now + isolation.caseTimeout
        while true {
            do {
                let event = try channel.receive(WorkerEvent.self, deadline: deadline)
                if case .solving(let backend, let oracle) = event { last = Running(backend: backend, oracle: oracle); continue }
                if done(event) { return .event(event) }
                if case .failed = event { return .event(event) }
            } catch FrameChannel.ChannelError.timedOut {
                kill()
                return .hung(last: last)
            } catch {
                return .died(last: last, reason: reap())
            }
        }
    }

    /// Waits for a dead child and says how it ended.
    private func reap() -> String {
        guard let child else { return "no worker" }
        let reason = child.waitForExit()
        discard()
        return reason
    }

    private func kill() {
        child?.kill()
        discard()
    }

    private func discard() {
        child = nil
        channel = nil
    }

    private func ensureStarted() -> String? {
        if child != nil { return nil }
        do {
            try start()
            return nil
        } catch {
            kill()
            return "\(error)"
        }
    }

    func judge(_ index: UInt64) -> JudgedCase {
        let spec = campaign.caseSpec(index)
        if let failure = ensureStarted() {
            return JudgedCase(spec: spec, occurrences: [Self.occurrence(.crash, nil, "worker could not start: \(failure)", spec)])
        }
        switch exchange(.judge(index), until: { if case .judged = $0 { return true }; return false }) {
        case .event(.judged(let judged)):
            return judged
        case .event(let other):
            return JudgedCase(spec: spec, occurrences: [Self.occurrence(.crash, nil, "worker gave an unexpected answer \(other)", spec)])
        case .died(let last, let reason):
            return JudgedCase(spec: spec, occurrences: [Self.occurrence(
                .crash, last, "worker \(reason) while \(last?.phrase ?? "nothing was solving")", spec)])
        case .hung(let last):
            return JudgedCase(spec: spec, occurrences: [Self.occurrence(
                .budget, last,
                "worker hung past the case timeout of \(isolation.caseTimeout) while \(last?.phrase ?? "nothing was solving")", spec)])
        }
    }

    private static func occurrence(_ kind: Finding.Kind, _ last: Running?, _ detail: String, _ spec: FuzzCampaign.CaseSpec) -> FuzzCampaign.Occurrence {
        FuzzCampaign.Occurrence(
            finding: Finding(kind: kind, backends: [last?.backend ?? "worker"], detail: detail, oracle: last?.oracle,
                             seed: spec.seed, family: spec.family),
            transform: last?.oracle.map { "the case's \($0) transform (re-applied from the case seed)" })
    }

    func reduce(_ index: UInt64, _ occurrence: FuzzCampaign.Occurrence) -> ReductionOutcome {
        guard ensureStarted() == nil else { return .unavailable }
        let spec = campaign.caseSpec(index)
        let what = "reducing the \(occurrence.finding.kind.rawValue) finding of \(occurrence.finding.backends.first ?? "-")"
        switch exchange(.reduce(index, occurrence), until: { if case .reduced = $0 { return true }; return false }) {
        case .event(.reduced(let report)):
            return .reduced(report)
        case .event:
            return .unavailable
        case .died(let last, let reason):
            return .workerFailed(Self.occurrence(
                .crash, last, "worker \(reason) while \(what) (\(last?.phrase ?? "nothing was solving"))", spec))
        case .hung(let last):
            return .workerFailed(Self.occurrence(
                .budget, last,
                "worker hung past the case timeout of \(isolation.caseTimeout) while \(what) (\(last?.phrase ?? "nothing was solving"))", spec))
        }
    }

    func shutdown() { kill() }
}
