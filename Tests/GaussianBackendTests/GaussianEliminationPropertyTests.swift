import Generator
import BackendContract
import GaussianBackend
import LayoutModel
import Testing

/// Random small systems of required equalities, judged through the backend's own answers to
/// modified systems: every claim in a solution (kept rows hold, the conflict is infeasible and
/// irreducible, an unknown is or is not determined) predicts the outcome of another solve.
/// Coefficients are 1, 2 or ½ and constants integers, so the arithmetic is exact and the
/// tolerance never decides anything here.
@Suite("Properties of random systems")
struct PropertyTests {
    static let seeds: Range<UInt64> = 0..<150
    let backend = GaussianEliminationBackend()

    /// Three views (c inside a, so some constraints meet a non-root common ancestor) and 4–14
    /// equalities between attributes of one axis.
    static func randomLayout(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        func pick(_ options: [String]) -> String { options[Int.random(in: 0..<options.count, using: &rng)] }
        let views = ["a", "b", "c"]
        var lines = ["root superview 375 667", "view a", "view b", "view c in a"]
        for _ in 0..<Int.random(in: 4...14, using: &rng) {
            let value = Int.random(in: -20...120, using: &rng)
            let constant = value < 0 ? "- \(-value)" : "+ \(value)"
            let first = pick(views), second = pick(views + ["superview"])
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                lines.append("\(first).\(pick(["width", "height"])) == \(abs(value))")
            case 1:
                let sizes = ["width", "height"]
                lines.append(
                    "\(first).\(pick(sizes)) == \(pick(["1", "2", "0.5"])) * \(pick(views)).\(pick(sizes)) \(constant)")
            default:
                let axis = Bool.random(using: &rng) ? ["left", "right", "centerX"] : ["top", "bottom", "centerY"]
                lines.append("\(first).\(pick(axis)) == \(second).\(pick(axis)) \(constant)")
            }
        }
        return lines.joined(separator: "\n")
    }

    func solve(_ system: ConstraintSystem) throws -> Solution {
        try backend.solve(system, budget: .unlimited).solution
    }

    func with(_ system: ConstraintSystem, constraints: [Constraint]) -> ConstraintSystem {
        ConstraintSystem(name: system.name, direction: system.direction, items: system.items, constraints: constraints)
    }

    /// `unknown == value` in root space, as a constraint the format allows (V2: a position is
    /// pinned to the root's edge, not to a bare constant).
    func pin(_ unknown: Unknown, to value: Double) -> Constraint {
        let attribute: Attribute = [.left, .top, .width, .height][unknown.component.rawValue]
        let root = attribute.isSize ? nil : AttributeReference(item: 0, attribute: attribute)
        return Constraint(
            first: AttributeReference(item: unknown.item, attribute: attribute), relation: .equal,
            second: root, constant: NumericLiteral(value))
    }

    @Test func keptConstraintsHoldAtThePoint() throws {
        for seed in Self.seeds {
            let system = try LayoutParser.parse(Self.randomLayout(seed: seed))
            let solution = try solve(system)
            #expect(solution.status == (solution.broken.isEmpty ? .optimal : .unsatisfiable), "seed \(seed)")
            for row in system.lowered(as: Double.self).rows where !solution.broken.contains(row.constraintIndex) {
                #expect(abs(row.value(at: solution.values)) <= 1e-9, "seed \(seed), constraint \(row.constraintIndex)")
            }
        }
    }

    @Test func conflictsAreIrreducibleInfeasibleSubsets() throws {
        var conflictsSeen = 0
        for seed in Self.seeds {
            let system = try LayoutParser.parse(Self.randomLayout(seed: seed))
            let solution = try solve(system)
            guard let firstBroken = solution.broken.first else {
                #expect(solution.conflict.isEmpty, "seed \(seed)")
                continue
            }
            conflictsSeen += 1
            let conflict = solution.conflict
            #expect(conflict.last == firstBroken, "seed \(seed): the conflict ends at the first broken constraint")
            #expect(conflict == conflict.sorted(), "seed \(seed)")
            let subset = with(system, constraints: conflict.map { system.constraints[$0] })
            #expect(try solve(subset).status == .unsatisfiable, "seed \(seed): the conflict is infeasible")
            for dropped in conflict {
                let rest = with(system, constraints: conflict.filter { $0 != dropped }.map { system.constraints[$0] })
                #expect(try solve(rest).status == .optimal, "seed \(seed): feasible without \(dropped)")
            }
        }
        #expect(conflictsSeen >= 20, "the generator should produce conflicts")
    }

    /// Appending `u == value(u) + 7` breaks it exactly when u is determined; the constraints
    /// before it keep their fate.
    @Test func ambiguityClaimsPredictWhetherAPinBreaks() throws {
        var ambiguousSeen = 0
        for seed in Self.seeds {
            let system = try LayoutParser.parse(Self.randomLayout(seed: seed))
            let solution = try solve(system)
            ambiguousSeen += solution.ambiguous.count
            for variable in 0..<system.variableCount {
                let unknown = Unknown(variable: variable)
                let pinned = with(system, constraints: system.constraints + [pin(unknown, to: solution.values[variable] + 7)])
                let after = try solve(pinned)
                let pinIndex = system.constraints.count
                let expectedBroken = solution.ambiguous.contains(unknown) ? solution.broken : solution.broken + [pinIndex]
                #expect(after.broken == expectedBroken, "seed \(seed), \(system.unknownName(unknown))")
            }
        }
        #expect(ambiguousSeen >= 100, "the generator should leave unknowns ambiguous")
    }
}
