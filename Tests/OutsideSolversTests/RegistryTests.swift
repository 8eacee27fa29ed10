import Foundation
import Testing

/// The command line finds outside solvers through the manifest: `backends` lists each with
/// its version or as not installed with its install hint, `all` skips a missing one with one
/// line, and naming a missing one is an input error.
@Suite struct RegistryTests {
    @Test func missingSolversAreListedSkippedAndRefused() throws {
        let executable = try layoutbenchExecutable()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lb-registry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try Data("""
            {"version": 1, "adapters": [{"name": "absent", "summary": "a solver that is not here",
              "command": ["no-such-program-\(UUID().uuidString)"], "check": ["false"],
              "install": "apt-get install absent-solver"}]}
            """.utf8).write(to: manifest)
        let environment = ["LAYOUTBENCH_SOLVERS_MANIFEST": manifest.path, "LAYOUTBENCH_HISTORY": "off"]
        let listed = try run([executable, "backends"], environment: environment)
        #expect(listed.status == 0)
        #expect(listed.output.contains("absent"))
        #expect(listed.output.contains("not installed"))
        #expect(listed.output.contains("apt-get install absent-solver"))
        #expect(listed.output.contains("exact"))

        let layout = folder.appendingPathComponent("one.layout")
        try Data("root superview 0 0 100 100\nview a\na.width == 5\na.height == 5\n".utf8).write(to: layout)
        let all = try run([executable, "bench", "--backend", "all", "--families", "centered", "--sizes", "2", "--repetitions", "1",
                           "--out", folder.appendingPathComponent("bench").path, "--quiet"], environment: environment)
        #expect(all.status == 0, "\(all.output)")
        #expect(all.output.components(separatedBy: "skipping absent: not installed").count == 2, "\(all.output)")

        let named = try run([executable, "solve", layout.path, "--backend", "absent"], environment: environment)
        #expect(named.status != 0)
        let fuzz = try run([executable, "fuzz", "--backend", "exact,absent", "--cases", "1", "--out", folder.appendingPathComponent("f").path],
                           environment: environment)
        #expect(fuzz.status == 2, "\(fuzz.output)")
        #expect(fuzz.output.contains("backend 'absent' is not installed; install: apt-get install absent-solver"), "\(fuzz.output)")
    }
}
