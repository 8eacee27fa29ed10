import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// Cases the fuzzer's backward-error judge called wrong, now right.
@Suite struct JudgedCasesTests {
    static func solve(_ text: String) throws -> (ConstraintSystem, Solution) {
        let system = try LayoutParser.parse(text, file: "case.layout")
        return (system, try CassowaryBackend().solve(system, budget: .unlimited).solution)
    }

    static func variable(_ system: ConstraintSystem, _ name: String, _ component: FrameComponent) -> Int {
        Unknown(item: system.items.firstIndex { $0.name == name } ?? 0, component: component).variable
    }

    /// A reduced cost of 1 at priority 251 is not rounding residue because another level's
    /// rows carry a multiplier of 1e9 (or 1e12): 10 at @251 is never traded for 1e10 at @250.
    @Test(arguments: ["1e9", "1e12", "12345678.9"])
    func noLexicographicTradeOnLargeMultipliers(multiplier: String) throws {
        let (system, solution) = try Self.solve("""
            root r 100 100
            view gauge
            view needle
            needle.width == 0
            g: gauge.width == 10 @251
            n: needle.width == \(multiplier) * gauge.width @250
            """)
        #expect(solution.values[Self.variable(system, "gauge", .w)] == 10)
        #expect(solution.objective.first == 0)
    }

    static let cone = """
        root r 100 100
        view a
        view b
        a.left == r.left
        a.top == r.top
        a.height == 10
        b.left == r.left
        b.top == r.top
        b.height == 10
        a.width >= 0
        b.width >= 0
        a.width <= 2 * b.width
        b.width <= 2 * a.width
        """

    /// At the apex of `x, y ≥ 0, x ≤ 2y, y ≤ 2x` every single column is blocked, yet the
    /// ray (1, 1) is open: both widths are ambiguous.
    @Test func aDegenerateConeIsAmbiguousAlongItsRay() throws {
        let (system, solution) = try Self.solve(Self.cone)
        let widths = [Self.variable(system, "a", .w), Self.variable(system, "b", .w)].map { Unknown(variable: $0) }
        #expect(Set(widths).isSubset(of: solution.ambiguous), "\(solution.ambiguous.map(system.unknownName))")
    }

    /// The same cone held at its apex by a weak wish is determined there.
    @Test func aConePinnedAtItsApexIsDetermined() throws {
        let (system, solution) = try Self.solve(Self.cone + "\na.width <= 0 @250\n")
        #expect(solution.ambiguous.isEmpty, "\(solution.ambiguous.map(system.unknownName))")
        #expect(solution.values[Self.variable(system, "a", .w)] == 0 && solution.values[Self.variable(system, "b", .w)] == 0)
    }

    /// The probe leaves the solver as it was.
    @Test func probingChangesNothing() throws {
        let system = try LayoutParser.parse(Self.cone, file: "cone.layout")
        let linear = try #require(CassowaryBackend.lower(system))
        var solver = CassowarySolver()
        for row in linear.rows { try solver.addConstraint(LinearConstraint(row)) }
        let before = (0..<linear.variableCount).map { solver.value(of: Variable($0)) }
        let moved = solver.movesOnOptimalSet(Variable(Self.variable(system, "a", .w)), probeLevel: 1)
        #expect(moved.contains(Variable(Self.variable(system, "a", .w))))
        #expect((0..<linear.variableCount).map { solver.value(of: Variable($0)) } == before)
        #expect(solver.constraintCount == linear.rows.count)
    }
}
