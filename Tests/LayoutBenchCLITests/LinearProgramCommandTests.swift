import Foundation
import Testing

/// `import mps`, `solve-lp` and `bench-netlib` through the built executable.
@Suite struct LinearProgramCommandTests {
    typealias CLI = SequenceCommandTests

    static let toy = """
        NAME          TOY
        ROWS
         N  COST
         L  LIM
        COLUMNS
            X         COST         -1           LIM          1
            Y         COST         -1           LIM          2
        RHS
            RHS       LIM          4
        BOUNDS
         UP BND       X            1.5
        ENDATA
        """

    @Test func importSummarisesAndPrintsTheProgram() throws {
        let file = try CLI.file("toy.mps", Self.toy)
        let run = try CLI.run(["import", "mps", file, "--full"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("rows 1, columns 2, nonzeros 2"))
        #expect(run.output.contains("LIM: -inf <= 1 X + 2 Y <= 4"))
        #expect(run.output.contains("bound 0 <= X <= 3/2"))
    }

    @Test func solveLPPrintsTheExactOptimumAndChecksItsCertificate() throws {
        let file = try CLI.file("toy.mps", Self.toy)
        let run = try CLI.run(["solve-lp", file])
        #expect(run.status == 0, "\(run.error)")
        // x = 3/2, y = 5/4: −11/4.
        #expect(run.output.contains("status optimal"))
        #expect(run.output.contains("objective -11/4"))
        #expect(run.output.contains("objective32 -0.27500000000000000000000000000000e1"))
        #expect(run.output.contains("certificate checked"))
    }

    @Test func malformedMPSIsAPositionedErrorWithStatus2() throws {
        let file = try CLI.file("bad.mps", "NAME X\nROWS\n N C\nCOLUMNS\n    X  C  1.2.3\nENDATA\n")
        let run = try CLI.run(["solve-lp", file])
        #expect(run.status == 2)
        #expect(run.error.contains("bad.mps:5:11: '1.2.3' is not a number"), "\(run.error)")
    }

    @Test func unknownBackendIsRejected() throws {
        let file = try CLI.file("toy.mps", Self.toy)
        #expect(try CLI.run(["solve-lp", file, "--backend", "simplex9000"]).status == 2)
    }
}
