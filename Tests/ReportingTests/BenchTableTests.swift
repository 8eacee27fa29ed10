import Testing
@testable import Reporting

@Suite("BenchTable")
struct BenchTableTests {
    private func timing(samples: Int, p50: Double, p90: Double) -> TimingSummary {
        TimingSummary(samples: samples, minimum: p50 * 0.9, p50: p50, p90: p90, p99: p90, maximum: p90, mean: p50, standardDeviation: 1)
    }

    private func row(_ family: String, status: String = "optimal", timing: TimingSummary?) -> BenchResult {
        BenchResult(family: family, size: 10, seed: 1, views: 10, constraints: 30, backend: "float", status: status, timing: timing)
    }

    @Test("rows with few samples or a wide spread are flagged, steady rows are not")
    func noiseFlag() {
        #expect(BenchTable.noise(timing(samples: 3, p50: 100, p90: 101)) == "few samples (3)")
        #expect(BenchTable.noise(timing(samples: 20, p50: 100, p90: 141)) == "spread 41%")
        #expect(BenchTable.noise(timing(samples: 20, p50: 100, p90: 120)) == nil)
    }

    @Test("the table carries the flag, explains it once, and colours failed rows")
    func rendering() {
        let report = BenchReport(
            createdAt: "2026-01-01T00:00:00Z", machine: SampleReports.machine, suite: "quick", warmupRuns: 1, repetitions: 20,
            backends: ["float"],
            results: [row("chain", timing: timing(samples: 20, p50: 1_000, p90: 1_100)),
                      row("grid", timing: timing(samples: 20, p50: 1_000, p90: 2_000)),
                      row("form", status: "failed", timing: nil)],
            seconds: 2)
        let plain = BenchTable.render(report)
        let lines = plain.split(separator: "\n").map(String.init)
        #expect(lines[0].hasSuffix("noise"))
        #expect(lines.first { $0.hasPrefix("grid") }?.hasSuffix("⚠ spread 100%") == true)
        #expect(lines.first { $0.hasPrefix("chain") }?.contains("⚠") == false)
        #expect(lines.contains("3 rows, suite quick, 2.0 s, peak resident 0 MiB"))
        #expect(lines.last?.hasPrefix("⚠ 1 row flagged") == true)
        #expect(!plain.contains("\u{1B}["))
        let coloured = BenchTable.render(report, color: true)
        #expect(coloured.contains("\u{1B}[1;31mform"))
    }

    @Test("a finished row's line names the row, its status (coloured on request), p50, p90 and its noise flag")
    func finishedRowLine() {
        let steady = row("chain", timing: timing(samples: 20, p50: 1_000, p90: 1_100))
        #expect(BenchTable.line(steady) == "chain n=10 float: optimal, p50 \(BenchTable.time(1_000)), p90 \(BenchTable.time(1_100))")
        let noisy = row("grid", timing: timing(samples: 3, p50: 1_000, p90: 1_100))
        #expect(BenchTable.line(noisy).hasSuffix(" ⚠ few samples (3)"))
        let failed = row("form", status: "failed", timing: nil)
        #expect(BenchTable.line(failed) == "form n=10 float: failed")
        #expect(BenchTable.line(failed, color: true) == "form n=10 float: \u{1B}[1;31mfailed\u{1B}[0m")
        #expect(BenchTable.line(steady, color: true).contains("\u{1B}[32moptimal\u{1B}[0m"))
    }
}
