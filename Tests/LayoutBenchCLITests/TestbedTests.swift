import Foundation
import Testing

/// The backends that trap or hang on purpose live in the test bed alone (issue 19): the
/// shipped `layoutbench` neither lists nor accepts them, whatever its environment.
@Suite struct TestbedTests {
    static let faulty = ["test-trap", "test-hang", "test-trap-reduce"]

    @Test func theShippedBinaryHasNoFaultyBackend() throws {
        let listed = try SequenceCommandTests.run(["backends"])
        #expect(listed.status == 0, "\(listed.error)")
        for name in Self.faulty { #expect(!listed.output.contains(name), "\(listed.output)") }
        // The switch that once enabled them in the shipped binary does nothing now.
        let chosen = try HistoryCommandTests.run(["solve", "--backend", "test-trap", "/dev/null"],
                                                 environment: ["LAYOUTBENCH_TEST_BACKENDS": "1"])
        #expect(chosen.status == 2 && chosen.error.contains("unknown backend 'test-trap'"), "\(chosen.error)")
    }

    @Test func theTestbedListsThemBesideTheBuiltInOnes() throws {
        let listed = try HistoryCommandTests.run(["backends"], testbed: true)
        #expect(listed.status == 0, "\(listed.error)")
        for name in Self.faulty + ["exact", "float", "gaussian"] { #expect(listed.output.contains(name), "\(listed.output)") }
    }
}
