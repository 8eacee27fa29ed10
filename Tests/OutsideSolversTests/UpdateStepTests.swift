import BackendContract
import ExactArithmetic
import ExactSimplex
import Foundation
@testable import Fuzzing
import LayoutModel
@testable import OutsideSolvers
import Testing

/// Row-level update steps on every adapter, from a hand-built step list: after each step
/// the live system's values are judged, by the adapter's own semantics, against a fresh
/// exact solve of the system as it stands (spec §7).
@Suite struct UpdateStepTests {
    static let text = """
        root superview 0 0 400 300
        view a
        view b
        a.left == superview.left + 10
        a.width == 100 @750
        b.left == a.right + 8
        b.width == a.width
        b.right <= superview.right - 10
        a.top == superview.top
        b.top == a.top
        a.height == 20 @500
        b.height == a.height
        """

    enum Step {
        case setConstant(Int, String)
        case setPriority(Int, Int)
        case remove(Int)
        case add(String)
    }

    static let steps: [Step] = [
        .setConstant(0, "50"),
        .setPriority(1, 250),
        .add("b.width == 300 @600"),
        .remove(3),
        .setConstant(4, "-300"),
        .add("a.height == 40 @400"),
        .add("a.width >= 500"),
    ]

    func replay(_ name: String, steps: [Step] = Self.steps) throws {
        let backend = Solvers.backend(name)
        var system = try parse(Self.text)
        let live = try backend.openLiveSystem(variables: system.variableCount)
        let lowered = system.lowered(as: Rational.self)
        var ids = try live.add(lowered.rows.map { ($0, $0.isRequired ? Priority.required : lowered.levels[$0.level - 1]) })
        let judge = campaign([backend], families: ["random"], oracles: [])
        func check(_ label: String) throws {
            let result = try live.values()
            let found = judge.judgeOutcomes(system, [
                BackendOutcome(backend: name, result: .success(result)),
                BackendOutcome(backend: "exact", result: Result { try ExactSimplexBackend().solve(system, budget: .unlimited) }
                    .mapError { BackendFailure("\($0)") }),
            ]).filter { $0.verdict != .semantics }
            #expect(found.isEmpty, "\(name) after \(label): \(found.map(\.detail))\n\(system.canonicalText)")
        }
        try check("adding every row")
        for step in steps {
            switch step {
            case .setConstant(let index, let constant):
                system.constraints[index].constant = try #require(NumericLiteral(parsing: constant))
                let row: LinearRow<Rational> = system.lower(system.constraints[index], index: index, level: 0)
                try live.setConstant(ids[index], to: row.constant)
            case .setPriority(let index, let priority):
                system.constraints[index].priority = Priority(priority)
                try live.setPriority(ids[index], to: Priority(priority))
            case .remove(let index):
                system.constraints.remove(at: index)
                try live.remove(ids.remove(at: index))
            case .add(let line):
                let extra = try parse(Self.text.components(separatedBy: "\n").prefix(3).joined(separator: "\n") + "\n" + line)
                let constraint = extra.constraints[0]
                system.constraints.append(constraint)
                let row: LinearRow<Rational> = system.lower(constraint, index: system.constraints.count - 1, level: 0)
                ids += try live.add([(row, constraint.priority)])
            }
            try check("\(step)")
        }
    }

    @Test(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
    func kiwisolver() throws { try replay("kiwisolver") }

    @Test(.enabled(if: Solvers.installed("cassowary"), "cassowary is not installed (scripts/install-outside-solvers.sh)"))
    func cassowary() throws { try replay("cassowary") }

    @Test(.enabled(if: Solvers.installed("z3"), "z3-solver is not installed (scripts/install-outside-solvers.sh)"))
    func z3() throws { try replay("z3") }

    @Test(.enabled(if: Solvers.installed("highspy"), "highspy is not installed (scripts/install-outside-solvers.sh)"))
    func highspy() throws { try replay("highspy") }

    @Test(.enabled(if: Solvers.installed("qsopt-ex"), "esolver (qsopt-ex) is not installed (scripts/install-outside-solvers.sh)"))
    func qsoptEx() throws { try replay("qsopt-ex") }

    @Test(.enabled(if: Solvers.installed("glpk"), "glpsol (glpk-utils) is not installed (scripts/install-outside-solvers.sh)"))
    func glpk() throws { try replay("glpk") }
}
