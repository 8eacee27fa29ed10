import Foundation
import Reporting
import Testing

/// Renders reports into a temporary folder and runs scripts/check-html-render.sh on them: a
/// headless Chromium screenshot that must not be blank and must show the plots' series colours.
///
/// Needs Chromium; when `which chromium` fails the test returns early without failing (the
/// script itself can install it: `scripts/check-html-render.sh FILE` runs apt-get).
/// Set LAYOUTBENCH_RENDER_DIR to keep the pages and their screenshots.
@Suite("Render check")
struct RenderCheckTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/check-html-render.sh")

    /// Runs a command, returning its exit status and combined output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static var chromiumAvailable: Bool {
        (try? run(["which", "chromium"]).status) == 0
    }

    @Test("bench and fuzz reports render in headless Chromium")
    func render() throws {
        guard Self.chromiumAvailable else {
            // Skipped: no Chromium on this machine (install it, or run the script once, to check rendering).
            return
        }
        // LAYOUTBENCH_RENDER_DIR keeps the pages and screenshots for a look; otherwise a temporary folder.
        let kept = ProcessInfo.processInfo.environment["LAYOUTBENCH_RENDER_DIR"].map { URL(fileURLWithPath: $0) }
        let folder = kept ?? FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-render-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("findings"), withIntermediateDirectories: true)
        defer { if kept == nil { try? FileManager.default.removeItem(at: folder) } }

        let bench = folder.appendingPathComponent("bench.html")
        try Data(HTMLReport.render(.bench(SampleReports.quickBench()), baseline: .bench(SampleReports.quickBaseline())).utf8).write(to: bench)
        let benchCheck = try Self.run(["bash", Self.script.path, bench.path])
        #expect(benchCheck.status == 0, "\(benchCheck.output)")
        #expect(benchCheck.output.contains("plot colours visible"), "\(benchCheck.output)")

        let fuzzReport = SampleReports.smallFuzz()
        for finding in fuzzReport.findings {
            try Data("# \(finding.kind)\nroot superview 100 100\n".utf8).write(to: folder.appendingPathComponent(finding.repro))
        }
        let fuzz = folder.appendingPathComponent("fuzz.html")
        try Data(HTMLReport.render(.fuzz(fuzzReport)).utf8).write(to: fuzz)
        let fuzzCheck = try Self.run(["bash", Self.script.path, fuzz.path])
        #expect(fuzzCheck.status == 0, "\(fuzzCheck.output)")
    }
}
