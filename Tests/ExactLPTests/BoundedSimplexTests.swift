import ExactArithmetic
import ExactLP
import Foundation
import MathematicalProgramming
import Testing

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/ExactLPTests/<file>
    return parts.joined(separator: "/")
}()

/// The shared Netlib corpus, read where it lies (never copied).
let netlibCorpus = repositoryRoot + "/../shared/corpora/netlib"

/// Solves and insists the certificate proves the status.
func solveChecked(_ lp: ExactLinearProgram, bland: Int = 50, warm: Bool = true, dual: Bool = true) throws -> ExactLPResult {
    let result = ExactLPSolver.solve(lp, options: .init(degenerateRunBeforeBland: bland, floatWarmStart: warm, floatDualSimplex: dual))
    let certificate = try #require(result.certificate)
    #expect(LPCertificateVerifier.failure(of: certificate, for: lp) == nil)
    return result
}

@Suite("Bounded exact simplex")
struct BoundedSimplexTests {
    @Test func optimumWithBoundsRangesAndFreeColumns() throws {
        // max 3x + 2y − z, x + y ≤ 4, x + 3y ≥ 2 (ranged to ≤ 6), x − z = 1, x ≤ 3, z free.
        let lp = try read("""
            NAME
            OBJSENSE
                MAX
            ROWS
             N  OBJ
             L  A
             G  B
             E  C
            COLUMNS
                X  OBJ  3  A  1
                X  B  1  C  1
                Y  OBJ  2  A  1
                Y  B  3
                Z  OBJ  -1  C  -1
            RHS
                RHS  A  4  B  2
                RHS  C  1
            RANGES
                RNG  B  4
            BOUNDS
             UP BND X 3
             FR BND Z
            ENDATA
            """)
        let result = try solveChecked(lp)
        #expect(result.status == .optimal)
        // x = 3, y = 1, z = 2: 9 + 2 − 2 = 9.
        #expect(result.objective == 9)
    }

    @Test func infeasibleGivesAFarkasCertificate() throws {
        // x + y ≤ 1 and x + y ≥ 3.
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             L  A
             G  B
            COLUMNS
                X  OBJ  1  A  1
                X  B  1
                Y  A  1  B  1
            RHS
                RHS  A  1  B  3
            ENDATA
            """)
        let result = try solveChecked(lp)
        #expect(result.status == .infeasible)
        guard case .infeasible(let y)? = result.certificate else { Issue.record("no Farkas vector"); return }
        // A vector of zeros proves nothing, and the verifier says so.
        #expect(LPCertificateVerifier.failure(of: .infeasible(y: y.map { _ in .zero }), for: lp) != nil)
    }

    @Test func infeasibleBoundsAgainstAnEquality() throws {
        // x + 2y = 10 with x ≤ 2, y ≤ 3.
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             E  A
            COLUMNS
                X  A  1
                Y  A  2
            RHS
                RHS  A  10
            BOUNDS
             UP B X 2
             UP B Y 3
            ENDATA
            """)
        #expect(try solveChecked(lp).status == .infeasible)
    }

    @Test func unboundedGivesARay() throws {
        // min −x − y with x − y ≤ 1 and y free: x = 1 + y grows without end.
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             L  A
            COLUMNS
                X  OBJ  -1  A  1
                Y  OBJ  -1  A  -1
            RHS
                RHS  A  1
            BOUNDS
             MI B Y
            ENDATA
            """)
        let result = try solveChecked(lp)
        #expect(result.status == .unbounded)
        guard case .unbounded(let x, let ray)? = result.certificate else { Issue.record("no ray"); return }
        // The opposite direction leaves the bounds: rejected.
        #expect(LPCertificateVerifier.failure(of: .unbounded(x: x, ray: ray.map { -$0 }), for: lp) != nil)
    }

    @Test func verifierRejectsAWrongOptimum() throws {
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             G  A
            COLUMNS
                X  OBJ  1  A  1
                Y  OBJ  2  A  1
            RHS
                RHS  A  1
            ENDATA
            """)
        let result = try solveChecked(lp)
        #expect(result.objective == 1)
        // y = 1 is feasible but not optimal; no dual vector makes it complementary.
        for dual in [Rational(0), 1, 2] {
            #expect(LPCertificateVerifier.failure(of: .optimal(x: [0, 1], y: [dual]), for: lp) != nil)
        }
        // An infeasible point is rejected whatever the duals.
        #expect(LPCertificateVerifier.failure(of: .optimal(x: [0, 0], y: [0]), for: lp) != nil)
    }

    /// Beale's classic cycling example: Dantzig's rule with the textbook tie-break cycles;
    /// Bland's rule after the first degenerate pivot must still reach the optimum −5/4.
    @Test(arguments: [0, 1, 50])
    func bealeCyclingExampleTerminates(bland: Int) throws {
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             L  R1
             L  R2
             L  R3
            COLUMNS
                X4  OBJ  -0.75  R1  0.25
                X4  R2  0.5
                X5  OBJ  20  R1  -8
                X5  R2  -12
                X6  OBJ  -0.5  R1  -1
                X6  R2  -0.5  R3  1
                X7  OBJ  6  R1  9
                X7  R2  3
            RHS
                RHS  R3  1
            ENDATA
            """)
        let result = try solveChecked(lp, bland: bland)
        #expect(result.status == .optimal)
        #expect(result.objective == Rational(numerator: -5, denominator: 4))
    }

    @Test func decimalRenderingAndKochComparison() {
        let value = Rational(numerator: -406659, denominator: 875)
        #expect(SignificantDigits.scientific(value) == "-0.46475314285714285714285714285714e3")
        #expect(SignificantDigits.scientific(Rational(numerator: 2, denominator: 3), digits: 3) == "0.667e0")
        #expect(SignificantDigits.scientific(Rational(numerator: 9999, denominator: 100), digits: 2) == "0.10e3")
        let koch = MPSReader.exactNumber("-0.46475314285714285714285714285714e3")!
        #expect(SignificantDigits.matches(value, published: koch))
        #expect(!SignificantDigits.matches(value + Rational(numerator: 1, denominator: 1_000_000_000_000_000), published: koch))
        #expect(SignificantDigits.matches(70, published: MPSReader.exactNumber("0.7e2")!))
    }
}

@Suite("Netlib, solved exactly", .enabled(if: FileManager.default.fileExists(atPath: netlibCorpus), "../shared/corpora/netlib is absent"))
struct NetlibTests {
    static let optima: PublishedOptima? = try? PublishedOptima(path: netlibCorpus + "/koch-quick.solu")

    /// With the floating-point warm start (the default: dual then primal), with a primal-only
    /// warm start, and without one (exact pivots from the slack basis all the way): the same
    /// exact optimum every way.
    @Test(arguments: ["afiro", "sc50a", "sc50b", "adlittle", "blend"], ["dual", "primal", "none"])
    func matchesKochToAll32Digits(problem: String, warmStart: String) throws {
        let lp = try MPSReader.read(path: "\(netlibCorpus)/\(problem).mps.gz")
        let result = try solveChecked(lp, warm: warmStart != "none", dual: warmStart == "dual")
        #expect(result.status == .optimal)
        guard case .optimal(let koch)? = Self.optima?[problem] else {
            Issue.record("no Koch value for \(problem)")
            return
        }
        let objective = try #require(result.objective)
        #expect(SignificantDigits.matches(objective, published: koch), "\(SignificantDigits.scientific(objective)) vs \(koch)")
    }
}
