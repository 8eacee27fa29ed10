import BackendContract
import ExactArithmetic
import ExactSimplex
import LayoutModel
import Testing

@Suite("Exact backend semantics")
struct ExactSimplexBackendTests {
    @Test("a layout with every unknown pinned is optimal, determined and exact")
    func determined() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading + 0.1
            a.width == 100.5
            a.top == superview.top + 20
            a.height == 2 * a.width
            """)
        let (solution, _) = try solveCertified(system)
        #expect(solution.status == .optimal)
        #expect(solution.ambiguous.isEmpty)
        #expect(exactValue(solution, system, "a", .x) == Rational(numerator: 1, denominator: 10))
        #expect(exactValue(solution, system, "a", .h) == Rational(201))
        #expect(solution.exactValues?[0] == "1/10")
    }

    @Test("a missing x is ambiguous in x only")
    func missingX() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.width == 100
            a.top == superview.top + 20
            a.height == 50
            """)
        let (solution, _) = try solveCertified(system)
        #expect(ambiguousNames(solution, system) == ["a.x"])
    }

    @Test("a missing width is ambiguous in x and w")
    func missingWidth() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading >= superview.leading + 20
            a.trailing <= superview.trailing - 20
            a.top == superview.top + 20
            a.height == 50
            """)
        let (solution, _) = try solveCertified(system)
        #expect(ambiguousNames(solution, system) == ["a.x", "a.w"])
    }

    @Test("a tie between two optional constraints of equal priority is ambiguous")
    func tie() throws {
        // Either wish can win (or anything between): E(250) = 100 for every w in [100, 200].
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading
            a.top == superview.top
            a.height == 10
            a.width == 100 @250
            a.width == 200 @250
            """)
        let (solution, _) = try solveCertified(system)
        #expect(ambiguousNames(solution, system) == ["a.w"])
        #expect(solution.exactObjective == ["100"])
    }

    @Test("a tie broken by a lower level is determined")
    func tieBrokenBelow() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading
            a.top == superview.top
            a.height == 10
            a.width == 100 @250
            a.width == 200 @250
            a.width == 150 @50
            """)
        let (solution, _) = try solveCertified(system)
        #expect(solution.ambiguous.isEmpty)
        #expect(exactValue(solution, system, "a", .w) == 150)
        #expect(solution.exactObjective == ["100", "0"])
    }

    @Test("an unconstrained child, and a child pinned to an ambiguous parent")
    func unconstrainedChild() throws {
        let system = try parse("""
            root superview 375 667
            view card
            view free in card
            view pinned in card
            card.leading == superview.leading + 10
            card.width == 200
            card.height == 100
            pinned.leading == card.leading + 10
            pinned.top == card.top + 10
            pinned.width == 20
            pinned.height == 20
            """)
        let (solution, _) = try solveCertified(system)
        #expect(ambiguousNames(solution, system) == ["card.y", "free.x", "free.y", "free.w", "free.h", "pinned.y"])
    }

    @Test("priorities are lexicographic: one constraint at 251 beats three at 250")
    func lexicographicNotWeighted() throws {
        let system = try parse("""
            root superview 375 667
            view box
            box.leading == superview.leading + 20
            box.top == superview.top + 20
            box.height == 40
            box.width == 100 @251
            box.width == 200 @250
            box.width >= 200 @250
            superview.trailing == box.trailing + 155 @250
            """)
        let (solution, certificate) = try solveCertified(system)
        #expect(exactValue(solution, system, "box", .w) == 100)
        #expect(solution.exactObjective == ["0", "300"])
        #expect(certificate.levels.count == 2)
    }

    @Test("the greedy walk breaks the later of two contradicting pins and reports an IIS")
    func unsatisfiable() throws {
        let system = try parse("""
            root superview 375 667
            view a
            view b
            a.leading == superview.leading + 10
            a.width == 100
            b.width == 30
            a.top == superview.top
            a.height == 10
            b.top == superview.top
            b.height == 10
            b.leading == a.trailing + 10
            b.trailing == superview.trailing - 10
            a.width == 50
            """)
        let (solution, certificate) = try solveCertified(system)
        #expect(solution.status == .unsatisfiable)
        #expect(solution.broken.map(system.constraintName) == ["c9", "c10"])
        // a.x = 10, a.w = 100, b.w = 30, b.x = a.x + a.w + 10 = 120: the trailing pin
        // wants b.x + b.w = 365. Conflict: c1, c2, c3, c8, c9.
        #expect(solution.conflict.map(system.constraintName) == ["c1", "c2", "c3", "c8", "c9"])
        // A chain of pins: its rows are independent, which shows it irreducible.
        #expect(certificate.conflict?.independentRows == true)
        #expect(certificate.conflict?.witnesses.isEmpty == true)
        #expect(exactValue(solution, system, "b", .x) == 120)
        let (filtered, witnessed) = try ExactSimplexBackend(conflictProof: .witnesses).solveCertified(system, budget: .unlimited)
        #expect(filtered.solution.conflict == solution.conflict)
        #expect(witnessed.conflict?.independentRows == false)
        #expect(witnessed.conflict?.witnesses.count == 5)
    }

    @Test("weighted error definitions: <= and >= count one side only")
    func oneSidedErrors() throws {
        let system = try parse("""
            root superview 375 667
            view a
            a.leading == superview.leading
            a.top == superview.top
            a.height == 10
            a.width == 100
            a.width <= 80 @500
            a.width >= 130 @500
            a.width <= 300 @500
            """)
        let (solution, _) = try solveCertified(system)
        #expect(solution.exactObjective == ["50"])
    }

    @Test("a spent budget returns budgetExceeded")
    func budget() throws {
        let system = try parse(Workload.grid(side: 4))
        let result = try ExactSimplexBackend().solve(system, budget: Budget(iterations: 0))
        let full = try ExactSimplexBackend().solve(system, budget: .unlimited)
        if full.statistics.iterations > 0 {
            #expect(result.solution.status == .budgetExceeded)
        }
        #expect(full.solution.status == .optimal)
    }

    @Test("backend identity and support")
    func identity() throws {
        let backend = ExactSimplexBackend()
        #expect(backend.name == "exact")
        #expect(backend.supports(try parse("root r 1 1")).isSupported)
        let (solution, _) = try solveCertified(try parse("root r 1 1"))
        #expect(solution.status == .optimal && solution.values.isEmpty)
    }
}
