import BackendContract
import LayoutModel

/// A backend with one deliberate bug, built on a correct one: the fuzzer must catch each.
///
/// Each fault changes what the correct backend is asked, or what it answers, the way a real
/// solver bug would, and reports the result as the answer to the original system.
struct FaultyBackend: LayoutBackend {
    enum Fault: String, CaseIterable, Sendable {
        /// Under RTL, the constant of every constraint naming `leading` gets the wrong sign.
        case rtlSign = "rtl-sign"
        /// Priority comparison off by one: adjacent priorities (250 and 251) count as one level.
        case priorityOffByOne = "priority-off-by-one"
        /// The last required constraint is silently dropped.
        case droppedConstraint = "dropped-constraint"
        /// A tolerance a thousand times too large: values come back up to 1e-3 off.
        case looseEpsilon = "loose-epsilon"
        /// Rejecting a required constraint leaves part of it behind: it keeps pulling at 999.
        case forgetfulRollback = "forgetful-rollback"
        /// The broken list comes back in reverse order.
        case brokenOrder = "broken-order"
    }

    let base: any LayoutBackend
    let fault: Fault

    var name: String { "faulty-\(fault.rawValue)" }
    var summary: String { "\(base.name) with a deliberate bug: \(fault.rawValue)" }

    func supports(_ system: ConstraintSystem) -> Support { base.supports(system) }

    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        switch fault {
        case .rtlSign:
            guard system.direction == .rightToLeft else { return try base.solve(system, budget: budget) }
            var wrong = system
            for i in wrong.constraints.indices {
                let c = wrong.constraints[i]
                if c.first.attribute == .leading || c.second?.attribute == .leading {
                    wrong.constraints[i].constant = c.constant.negated
                }
            }
            return try base.solve(wrong, budget: budget)

        case .priorityOffByOne:
            var wrong = system
            for i in wrong.constraints.indices where !wrong.constraints[i].priority.isRequired {
                let p = wrong.constraints[i].priority.value.doubleValue
                if p == p.rounded(), Int(p) % 2 == 1 { wrong.constraints[i].priority = Priority(Int(p) - 1) }
            }
            return try base.solve(wrong, budget: budget)

        case .droppedConstraint:
            guard let last = system.constraints.lastIndex(where: { $0.priority.isRequired }) else {
                return try base.solve(system, budget: budget)
            }
            var wrong = system
            // Make it as weak as it gets instead of removing it, so that indices stay put.
            wrong.constraints[last].priority = Priority(NumericLiteral(parsing: "0.001") ?? .one)
            var result = try base.solve(wrong, budget: budget)
            result.solution.objective = Array(result.solution.objective.dropLast())
            return result

        case .looseEpsilon:
            var result = try base.solve(system, budget: budget)
            result.solution.values = result.solution.values.enumerated().map { i, v in v + (i % 2 == 0 ? 1e-3 : -1e-3) }
            result.solution.exactValues = nil
            return result

        case .forgetfulRollback:
            let first = try base.solve(system, budget: budget)
            guard let broken = first.solution.broken.first else { return first }
            var wrong = system
            wrong.constraints[broken].priority = Priority(999)
            var result = try base.solve(wrong, budget: budget)
            result.solution.status = first.solution.status
            result.solution.broken = first.solution.broken
            result.solution.conflict = first.solution.conflict
            result.solution.objective = first.solution.objective
            result.solution.exactValues = nil
            result.solution.exactObjective = nil
            return result

        case .brokenOrder:
            var result = try base.solve(system, budget: budget)
            result.solution.broken.reverse()
            return result
        }
    }
}

/// A backend that supports every system and throws `error` whenever it solves one.
struct ThrowingBackend: LayoutBackend {
    let name: String
    let error: BackendError

    var summary: String { "throws \(error) on every solve" }
    func supports(_ system: ConstraintSystem) -> Support { .supported }
    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult { throw error }
}
