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

    /// The shared Netlib corpus, read where it lies.
    static let netlib: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/LayoutBenchCLITests/<file>
        return parts.joined(separator: "/") + "/../shared/corpora/netlib"
    }()

    /// An earlier run's records (here afiro's) join a new run's (sc50b's) in the table and in
    /// --json; a file that is not such records is refused with its path.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: netlib), "../shared/corpora/netlib is absent"))
    func benchNetlibSetsAnEarlierRunBesideANewOne() throws {
        let earlier = try CLI.file("earlier.json", "")
        let first = try CLI.run(["bench-netlib", "--corpus", Self.netlib, "--problems", "afiro", "--backend", "exact", "--json", earlier])
        #expect(first.status == 0, "\(first.error)")
        let both = earlier + ".both.json"
        let second = try CLI.run([
            "bench-netlib", "--corpus", Self.netlib, "--problems", "sc50b", "--backend", "exact", "--previous", earlier, "--json", both,
        ])
        #expect(second.status == 0, "\(second.error)")
        #expect(second.output.contains("| afiro | match |"), "\(second.output)")
        #expect(second.output.contains("| sc50b | match |"), "\(second.output)")
        let written = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: both))) as? [[String: Any]]
        #expect(written?.compactMap { $0["problem"] as? String } == ["afiro", "sc50b"])
        let notRecords = try CLI.file("toy.mps", Self.toy)
        let refused = try CLI.run(["bench-netlib", "--corpus", Self.netlib, "--problems", "afiro", "--previous", notRecords])
        #expect(refused.status != 0)
        #expect(refused.error.contains("\(notRecords): not a bench-netlib --json file"), "\(refused.error)")
    }
}
