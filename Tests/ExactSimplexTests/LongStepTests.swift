import BackendContract
import ExactArithmetic
import ExactSimplex
import Generator
import LayoutModel
import Testing

/// The long-step ratio test passes the breakpoints of error columns (sign swaps) while the
/// objective still falls, instead of pivoting once per breakpoint.
@Suite("Long steps")
struct LongStepTests {
    /// Labels whose widths are tied, each resisting below its own intrinsic width: the
    /// width must rise to the widest, passing one breakpoint per narrower label. A step per
    /// breakpoint took a pivot for each distinct width; one long step takes one.
    @Test("tied widths rise past every narrower label's resistance in one pivot")
    func tiedWidths() throws {
        var text = "layout \"tied\"\nroot superview 4000 400\n"
        let widths = [40, 70, 10, 90, 30, 60, 20, 80, 50]
        for (i, width) in widths.enumerated() {
            text += "view l\(i) intrinsic \(width) 10 hug 250 250 resist 750 750\n"
            text += "l\(i).leading == superview.leading + \(i * 100)\nl\(i).top == superview.top\n"
            if i > 0 { text += "l\(i).width == l0.width\n" }
        }
        let system = try parse(text)
        let (solution, _) = try solveCertified(system)
        #expect(solution.status == .optimal)
        for i in widths.indices { #expect(exactValue(solution, system, "l\(i)", .w) == Rational(90)) }
        let report = try ExactSimplexBackend().solveWithReport(system, budget: .unlimited)
        let levels = system.lowered(as: Rational.self).levels.count
        // One optimality check and one certificate per level are charged as iterations too.
        #expect(report.result.statistics.iterations <= 2 * levels + 2)
    }

    /// The same on the generator's `form` (its labels' widths are tied): before, 200 views
    /// took about one level pivot per distinct label width.
    @Test("a form's levels take a handful of pivots, certified")
    func form() throws {
        let family = try #require(Families.named("form"))
        let system = generate(family: family, size: 200, seed: 1).system
        let (solution, _) = try solveCertified(system)
        #expect(solution.status == .optimal)
        let report = try ExactSimplexBackend().solveWithReport(system, budget: .unlimited)
        let levels = system.lowered(as: Rational.self).levels.count
        #expect(report.result.statistics.iterations <= 2 * levels + 4)
    }
}
