import Reporting
import Testing

@Suite("ReportFormat")
struct ReportFormatTests {
    @Test("durations pick the unit that keeps three significant digits", arguments: [
        (0.4, "0 ns"), (850, "850 ns"), (999.4, "999 ns"), (999.6, "1.00 µs"), (1_234, "1.23 µs"), (45_600, "45.6 µs"),
        (999_400, "999 µs"), (1_500_000, "1.50 ms"), (12_345_678, "12.3 ms"), (2e9, "2.00 s"), (3.6e12, "3600 s"),
        (9_996, "10.0 µs"), (99_960, "100 µs"),
    ])
    func durations(nanoseconds: Double, expected: String) {
        #expect(ReportFormat.duration(nanoseconds: nanoseconds) == expected)
    }

    @Test("non-finite values print as the placeholder, negative zero as zero")
    func oddValues() {
        #expect(ReportFormat.duration(nanoseconds: .nan) == ReportFormat.missing)
        #expect(ReportFormat.fixed(.infinity, decimals: 2) == ReportFormat.missing)
        #expect(ReportFormat.fixed(-0.001, decimals: 2) == "0.00")
        #expect(ReportFormat.fixed(-0.0, decimals: 0) == "0")
        #expect(ReportFormat.fixed(-1.5, decimals: 1) == "-1.5")
        #expect(ReportFormat.fixed(2.5, decimals: 99) == "2.500000000")
    }

    @Test("percentages are signed, byte counts binary, exponents two decimals")
    func others() {
        #expect(ReportFormat.percentChange(0.1234) == "+12.3%")
        #expect(ReportFormat.percentChange(-0.04) == "-4.0%")
        #expect(ReportFormat.percentChange(0) == "0.0%")
        #expect(ReportFormat.bytes(512) == "512 B")
        #expect(ReportFormat.bytes(1536) == "1.50 KiB")
        #expect(ReportFormat.bytes(8 * 1024 * 1024 * 1024) == "8.00 GiB")
        #expect(ReportFormat.bytes(.max) == "16.0 EiB")
        #expect(ReportFormat.exponent(1.1249) == "n^1.12")
    }

    @Test("the repro prefix is the relative path from the output folder to the report's")
    func reproPrefix() {
        #expect(RenderOptions.reproPrefix(reportDirectory: "/r/run", outputDirectory: "/r/run") == "")
        #expect(RenderOptions.reproPrefix(reportDirectory: "/r/run", outputDirectory: "/r/html") == "../run/")
        #expect(RenderOptions.reproPrefix(reportDirectory: "/r/run/a", outputDirectory: "/r") == "run/a/")
        #expect(RenderOptions.reproPrefix(reportDirectory: "/", outputDirectory: "/x/y") == "../../")
    }
}
