import BackendContract
import ExactArithmetic
import Foundation
import LayoutModel

/// A solver outside LayoutBench, run as an adapter process (docs/outside-solvers.md).
///
/// Each concurrent caller gets an adapter process of its own from a pool, so the runner's
/// Dispatch workers (and each isolated worker process) hold their own; an adapter serves
/// many cases. Anything an adapter does wrong — dying, hanging past the request's deadline
/// (it is then killed with its process group, and a fresh one takes the next request),
/// garbage, a protocol error — comes back as a thrown ``BackendError/internalFailure``, which
/// a campaign records as a crash finding against the solver; nothing it sends can trap here.
public final class OutsideSolverBackend: LayoutBackend, ReproducerWriting, @unchecked Sendable {
    // Sound: the mutable state (`idle`, `probed`, `installed`) is only touched under `lock`;
    // a session is used by one caller at a time (taken out of `idle` while in use).
    public let definition: AdapterDefinition
    public let manifest: AdapterManifest
    /// How long an adapter may take to start and say hello.
    public var startTimeout: Duration = .seconds(30)
    /// Added to a request's budget before the adapter counts as hung.
    public var grace: Duration = .seconds(5)
    /// The deadline of a request without a time budget.
    public var defaultTimeout: Duration = .seconds(120)

    private let lock = NSLock()
    private var idle: [AdapterSession] = []
    private var probed: Result<AdapterHello, AdapterFailure>?
    private var installed: Bool?

    public init(definition: AdapterDefinition, manifest: AdapterManifest) {
        self.definition = definition
        self.manifest = manifest
    }

    deinit {
        for session in idle { session.close() }
    }

    public var name: String { definition.name }
    public var summary: String { definition.summary }

    /// Whether the manifest's check command finds the solver (run once, then remembered).
    public var isInstalled: Bool {
        if let known = lock.withLock({ installed }) { return known }
        let answer = manifest.isInstalled(definition)
        lock.withLock { installed = answer }
        return answer
    }

    /// The adapter's hello (starting one adapter the first time).
    public func hello() -> Result<AdapterHello, AdapterFailure> {
        if let known = lock.withLock({ probed }) { return known }
        do {
            let session = try checkout()
            checkin(session)
            return .success(session.hello)
        } catch {
            return .failure(error)
        }
    }

    /// As declared in the hello; an adapter that cannot start claims nothing beyond values.
    public var capabilities: BackendCapabilities {
        if case .success(let hello) = hello(), case .success(let capabilities) = hello.capabilities.resolved() {
            return capabilities
        }
        return BackendCapabilities(
            priorities: .lexicographic,
            reports: .init(conflict: false, ambiguity: false, objective: false, exactValues: false))
    }

    public func supports(_ system: ConstraintSystem) -> Support {
        if case .success(let hello) = hello(), hello.capabilities.whole == false {
            return .unsupported("the adapter takes update steps only")
        }
        if case .success(let hello) = hello(), hello.capabilities.rowForm == "gtk-attributes",
           case .weighted(let mapping) = capabilities.priorities,
           let why = GtkRowMapping.unsupported(system, strengthScale: Rational(literal: mapping.weight(of: .required).scale)) {
            return .unsupported(why)
        }
        return .supported
    }

    // MARK: Sessions

    func checkout() throws(AdapterFailure) -> AdapterSession {
        if let session = lock.withLock({ idle.popLast() }) { return session }
        let command = manifest.resolve(definition.command)
        do {
            let session = try AdapterSession(command: command, startTimeout: startTimeout)
            lock.withLock { if probed == nil { probed = .success(session.hello) } }
            return session
        } catch {
            lock.withLock { if probed == nil { probed = .failure(error) } }
            throw error
        }
    }

    func checkin(_ session: AdapterSession) {
        guard !session.isDead else { return }
        lock.withLock { idle.append(session) }
    }

    /// Stops every idle adapter (the next request starts a fresh one).
    public func shutdown() {
        let sessions = lock.withLock { () -> [AdapterSession] in
            defer { idle = [] }
            return idle
        }
        for session in sessions { session.close() }
    }

    /// Sends `request` on `session` under `budget`: the adapter is told the wall time as
    /// `deadline_ms`, and its reply is waited for that long plus the grace (without a wall
    /// time, the default timeout).
    func send(_ request: [String: Any], on session: AdapterSession, budget: Budget) throws(AdapterFailure) -> AdapterReply {
        var request = request
        if let wall = budget.wallTime {
            request["deadline_ms"] = Int(wall.components.seconds * 1000 + wall.components.attoseconds / 1_000_000_000_000_000)
        }
        return try session.request(request, timeout: budget.wallTime.map { $0 + grace } ?? defaultTimeout)
    }

    /// Sends one request on a session of its own and returns the reply, with failures as
    /// backend errors.
    func exchange(_ request: [String: Any], budget: Budget) throws(BackendError) -> AdapterReply {
        let session: AdapterSession
        do {
            session = try checkout()
        } catch {
            throw .internalFailure(backend: name, message: error.description)
        }
        do {
            let reply = try send(request, on: session, budget: budget)
            checkin(session)
            if let log = reply.log, !log.isEmpty { throw AdapterFailure.logged(log) }
            switch reply.type {
            case "error": throw AdapterFailure.adapterError(reply.message ?? "no message")
            case "unsupported": throw BackendError.unsupported(backend: name, reason: reply.reason ?? "no reason given")
            default: return reply
            }
        } catch let error as AdapterFailure {
            throw .internalFailure(backend: name, message: error.description)
        } catch let error as BackendError {
            throw error
        } catch {
            throw .internalFailure(backend: name, message: "\(error)")
        }
    }

    // MARK: Whole systems

    public func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        let start = ContinuousClock.now
        let lowered = system.lowered(as: Rational.self)
        let request: [String: Any]
        if case .success(let hello) = hello(), !hello.capabilities.takesRows {
            request = AdapterRequest.solveConstraints(system)
        } else {
            request = AdapterRequest.solveRows(lowered)
        }
        let reply = try exchange(request, budget: budget)
        do {
            return try result(reply, lowered: lowered, requiredRows: Set(lowered.rows.indices.filter { lowered.rows[$0].isRequired }),
                              start: start)
        } catch {
            throw .internalFailure(backend: name, message: error.description)
        }
    }

    /// A `result` reply as a solution of `lowered`, every field checked.
    func result(
        _ reply: AdapterReply, lowered: LinearSystem<Rational>, requiredRows: Set<Int>, start: ContinuousClock.Instant
    ) throws(AdapterFailure) -> BackendResult {
        guard reply.type == "result" else { throw .protocolError("a '\(reply.type)' reply to a solve") }
        let declared = capabilities
        let statistics = SolveStatistics(
            iterations: 0, duration: ContinuousClock.now - start,
            solverTime: reply.solverNanoseconds.map { .nanoseconds(max($0, 0)) })
        let count = lowered.variableCount
        switch reply.status {
        case "budget":
            return BackendResult(solution: .budgetExceeded(variableCount: count), statistics: statistics)
        case "optimal", "unsatisfiable":
            break
        default:
            throw .protocolError("status '\(reply.status ?? "missing")'")
        }
        guard let numbers = reply.values, numbers.count == count else {
            throw .protocolError("\(reply.values?.count ?? 0) values for \(count) unknowns")
        }
        var exact: [Rational] = []
        exact.reserveCapacity(count)
        for number in numbers {
            guard let value = number.exact else { throw .protocolError("a value that is not a finite number: \(number)") }
            exact.append(value)
        }
        let rejected = reply.rejected ?? []
        guard rejected.allSatisfy(requiredRows.contains), Set(rejected).count == rejected.count else {
            throw .protocolError("rejected rows \(rejected) are not distinct required rows")
        }
        let broken = rejected.sorted()
        guard (reply.status == "unsatisfiable") == !broken.isEmpty else {
            throw .protocolError("status \(reply.status ?? "") with \(broken.count) rejected rows")
        }
        var reports = declared.reports
        let ambiguous: [Unknown]
        if declared.reports.ambiguity, let list = reply.ambiguous {
            guard list.allSatisfy({ (0..<count).contains($0) }) else { throw .protocolError("ambiguous unknowns out of range") }
            ambiguous = Set(list).sorted().map { Unknown(variable: $0) }
        } else {
            ambiguous = []
            reports.ambiguity = false
        }
        let conflict: [Int]
        if declared.reports.conflict, let list = reply.conflict {
            guard list.allSatisfy({ (0..<lowered.rows.count).contains($0) }) else { throw .protocolError("conflict rows out of range") }
            conflict = Set(list).sorted()
        } else {
            conflict = []
            reports.conflict = false
        }
        // E(p) per level, recomputed exactly from the point (a reported objective is not trusted).
        var objective = [Rational](repeating: .zero, count: lowered.levels.count)
        for row in lowered.rows where row.level > 0 {
            let d = row.value(at: exact)
            switch row.relation {
            case .equal: objective[row.level - 1] += d.magnitude
            case .lessThanOrEqual: if d.sign > 0 { objective[row.level - 1] += d }
            case .greaterThanOrEqual: if d.sign < 0 { objective[row.level - 1] -= d }
            }
        }
        let exactReported = declared.reports.exactValues && numbers.allSatisfy(\.isText)
        let solution = Solution(
            status: broken.isEmpty ? .optimal : .unsatisfiable, values: exact.map(\.doubleValue),
            objective: objective.map(\.doubleValue), ambiguous: ambiguous, broken: broken, conflict: conflict,
            exactValues: exactReported ? exact.map(\.description) : nil,
            exactObjective: exactReported ? objective.map(\.description) : nil)
        return BackendResult(solution: solution, statistics: statistics, reports: reports == declared.reports ? nil : reports)
    }

    // MARK: Update steps

    /// A live system on an adapter of its own, changed by row-level steps: rows get ids in
    /// the order they are added (0, 1, …, never reused), and `values` solves the rows as
    /// they stand, in id order (spec §7: the fresh solution of the current system).
    public func openLiveSystem(variables: Int, budget: Budget = Budget(wallTime: .seconds(10))) throws(BackendError) -> LiveSystem {
        let session: AdapterSession
        do {
            session = try checkout()
        } catch {
            throw .internalFailure(backend: name, message: error.description)
        }
        guard session.hello.capabilities.steps == true else {
            checkin(session)
            throw .unsupported(backend: name, reason: "the adapter does not take update steps")
        }
        let live = LiveSystem(backend: self, session: session, variables: variables, budget: budget)
        try live.send(["type": "reset", "variables": variables])
        return live
    }

    // MARK: Reproducers

    public func reproducer(for system: ConstraintSystem, expectation: ReproducerExpectation) -> [ReproducerFile] {
        guard let style = definition.reproducer else { return [] }
        let version: String
        if case .success(let hello) = hello() { version = hello.version } else { version = "unknown" }
        return Reproducer(style: style, solver: name, version: version, capabilities: capabilities)
            .files(for: system, expectation: expectation)
    }
}

/// A system kept alive in one adapter and changed step by step (see
/// ``OutsideSolverBackend/openLiveSystem(variables:budget:)``).
public final class LiveSystem {
    let backend: OutsideSolverBackend
    private let session: AdapterSession
    public private(set) var variables: Int
    public let budget: Budget
    /// The rows as they stand, by id; nil for removed ones.
    public private(set) var rows: [LinearRow<Rational>?] = []
    public private(set) var priorities: [Priority?] = []
    /// Time the solver reported for the steps so far.
    public private(set) var solverTime: Duration = .zero

    init(backend: OutsideSolverBackend, session: AdapterSession, variables: Int, budget: Budget) {
        self.backend = backend
        self.session = session
        self.variables = variables
        self.budget = budget
    }

    deinit { backend.checkin(session) }

    @discardableResult
    func send(_ request: [String: Any]) throws(BackendError) -> AdapterReply {
        let reply: AdapterReply
        do {
            reply = try backend.send(request, on: session, budget: budget)
        } catch {
            throw .internalFailure(backend: backend.name, message: error.description)
        }
        if let log = reply.log, !log.isEmpty {
            throw .internalFailure(backend: backend.name, message: AdapterFailure.logged(log).description)
        }
        switch reply.type {
        case "error": throw .internalFailure(backend: backend.name, message: AdapterFailure.adapterError(reply.message ?? "").description)
        case "unsupported": throw .unsupported(backend: backend.name, reason: reply.reason ?? "no reason given")
        default: break
        }
        if let ns = reply.solverNanoseconds { solverTime += .nanoseconds(max(ns, 0)) }
        return reply
    }

    private func acknowledge(_ reply: AdapterReply) throws(BackendError) {
        guard reply.type == "ok" else {
            throw .internalFailure(backend: backend.name, message: AdapterFailure.protocolError("a '\(reply.type)' reply to a step").description)
        }
    }

    private func existing(_ id: Int) throws(BackendError) -> LinearRow<Rational> {
        guard rows.indices.contains(id), let row = rows[id] else {
            throw .internalFailure(backend: backend.name, message: "no live row \(id)")
        }
        return row
    }

    /// Adds rows (over `variables` unknowns, which may grow); returns their ids.
    @discardableResult
    public func add(_ newRows: [(row: LinearRow<Rational>, priority: Priority)], variables: Int? = nil) throws(BackendError) -> [Int] {
        if let variables { self.variables = max(self.variables, variables) }
        var request: [String: Any] = ["type": "add", "rows": newRows.map { AdapterRequest.row($0.row, priority: $0.priority) }]
        if variables != nil { request["variables"] = self.variables }
        try acknowledge(try send(request))
        let first = rows.count
        rows += newRows.map { Optional($0.row) }
        priorities += newRows.map { Optional($0.priority) }
        return Array(first..<rows.count)
    }

    public func remove(_ id: Int) throws(BackendError) {
        _ = try existing(id)
        try acknowledge(try send(["type": "remove", "row": id]))
        rows[id] = nil
        priorities[id] = nil
    }

    public func setConstant(_ id: Int, to constant: Rational) throws(BackendError) {
        var row = try existing(id)
        try acknowledge(try send(["type": "set-constant", "row": id, "constant": ExactText.decimal(constant)]))
        row.constant = constant
        rows[id] = row
    }

    /// A new optional priority for an optional row (required stays required: spec §7).
    public func setPriority(_ id: Int, to priority: Priority) throws(BackendError) {
        _ = try existing(id)
        guard priority.isRequired == (priorities[id]?.isRequired ?? false) else {
            throw .unsupported(backend: backend.name, reason: "a priority may not move to or from required; remove and add")
        }
        try acknowledge(try send(["type": "set-priority", "row": id, "priority": priority.value.description]))
        priorities[id] = priority
    }

    /// The current rows as a lowered system (removed ones left out) and the ids in its row order.
    public var current: (system: LinearSystem<Rational>, ids: [Int]) {
        let ids = rows.indices.filter { rows[$0] != nil }
        let levels = Array(Set(ids.compactMap { priorities[$0] }.filter { !$0.isRequired })).sorted(by: >)
        var levelOf: [Priority: Int] = [:]
        for (k, p) in levels.enumerated() { levelOf[p] = k + 1 }
        let lowered = ids.enumerated().map { position, id -> LinearRow<Rational> in
            var row = rows[id]!
            row.level = priorities[id].flatMap { levelOf[$0] } ?? 0
            row.constraintIndex = position
            return row
        }
        return (LinearSystem(variableCount: variables, rows: lowered, levels: levels), ids)
    }

    /// Solves the rows as they stand. The solution's broken and conflict lists are positions
    /// in ``current``'s row order.
    public func values() throws(BackendError) -> BackendResult {
        let start = ContinuousClock.now
        let reply = try send(["type": "values"])
        let (system, ids) = current
        var position: [Int: Int] = [:]
        for (p, id) in ids.enumerated() { position[id] = p }
        var translated = reply
        translated.rejected = try reply.rejected.map { list throws(BackendError) in
            try list.map { id throws(BackendError) in
                guard let p = position[id] else {
                    throw .internalFailure(backend: backend.name, message: AdapterFailure.protocolError("rejected row \(id) is not live").description)
                }
                return p
            }
        }
        translated.conflict = reply.conflict.map { $0.compactMap { position[$0] } }
        do {
            return try backend.result(translated, lowered: system,
                                      requiredRows: Set(system.rows.indices.filter { system.rows[$0].isRequired }), start: start)
        } catch {
            throw .internalFailure(backend: backend.name, message: error.description)
        }
    }
}
