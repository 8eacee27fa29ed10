import SeededRandom
import Foundation
import Reporting
import Testing

/// Compares renderings with files committed under Tests/ReportingTests/Snapshots/.
///
/// To accept a deliberate change, run the tests with `LAYOUTBENCH_RECORD_SNAPSHOTS=1`, which
/// rewrites the files, and review the diff before committing.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["LAYOUTBENCH_RECORD_SNAPSHOTS"] == "1" {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: file)
            } catch {
                Issue.record("cannot record \(file.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = try? Data(contentsOf: file) else {
            Issue.record("no snapshot \(file.path); run with LAYOUTBENCH_RECORD_SNAPSHOTS=1 to create it", sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        Issue.record(Comment(rawValue: difference(expected: expected, actual: actual, name: name)), sourceLocation: sourceLocation)
    }

    /// The first differing line with some context, in unified-diff style.
    static func difference(expected: String, actual: String, name: String) -> String {
        let old = expected.components(separatedBy: "\n"), new = actual.components(separatedBy: "\n")
        var first = 0
        while first < old.count, first < new.count, old[first] == new[first] { first += 1 }
        var lines = ["snapshot \(name) differs from the rendering, first at line \(first + 1) "
            + "(expected \(old.count) lines, got \(new.count)); if the change is intended, rerun with LAYOUTBENCH_RECORD_SNAPSHOTS=1:"]
        for index in max(0, first - 2)..<first { lines.append("  " + old[index]) }
        for index in first..<min(old.count, first + 4) { lines.append("- " + old[index]) }
        for index in first..<min(new.count, first + 4) { lines.append("+ " + new[index]) }
        return lines.joined(separator: "\n")
    }
}

@Suite("Snapshots")
struct SnapshotTests {
    @Test("Markdown of a quick bench run")
    func benchMarkdown() {
        Snapshot.check(MarkdownReport.render(.bench(SampleReports.quickBench())), named: "bench.md")
    }

    @Test("Markdown of a quick bench run against its baseline")
    func benchMarkdownWithBaseline() {
        Snapshot.check(MarkdownReport.render(.bench(SampleReports.quickBench()), baseline: .bench(SampleReports.quickBaseline())),
                       named: "bench-vs-baseline.md")
    }

    @Test("Markdown of a small fuzz run")
    func fuzzMarkdown() {
        Snapshot.check(MarkdownReport.render(.fuzz(SampleReports.smallFuzz())), named: "fuzz.md")
    }

    @Test("Markdown of a fuzz run against its baseline, and of a sharded merge")
    func fuzzMarkdownWithBaseline() {
        Snapshot.check(MarkdownReport.render(.fuzz(SampleReports.smallFuzz()), baseline: .fuzz(SampleReports.fuzzBaseline())),
                       named: "fuzz-vs-baseline.md")
        Snapshot.check(MarkdownReport.render(.fuzz(SampleReports.shardedFuzz())), named: "fuzz-sharded.md")
    }

    @Test("terminal comparisons")
    func terminal() throws {
        Snapshot.check(try TerminalComparison.render(.bench(SampleReports.quickBaseline()), .bench(SampleReports.quickBench())),
                       named: "compare-bench.txt")
        Snapshot.check(try TerminalComparison.render(.fuzz(SampleReports.fuzzBaseline()), .fuzz(SampleReports.smallFuzz())),
                       named: "compare-fuzz.txt")
    }

    @Test("renderings do not depend on the order of the document's rows")
    func orderIndependent() {
        var shuffled = SampleReports.quickBench()
        var rng = SplitMix64(seed: 99)
        shuffled.results.shuffle(using: &rng)
        #expect(MarkdownReport.render(.bench(shuffled)) == MarkdownReport.render(.bench(SampleReports.quickBench())))
        #expect(HTMLReport.render(.bench(shuffled)) == HTMLReport.render(.bench(SampleReports.quickBench())))
    }

    @Test("the difference message points at the first changed line")
    func differenceMessage() {
        let message = Snapshot.difference(expected: "a\nb\nc\nd", actual: "a\nb\nX\nd", name: "t.md")
        #expect(message.contains("first at line 3"))
        #expect(message.contains("- c"))
        #expect(message.contains("+ X"))
    }
}

@Suite("TerminalComparison")
struct TerminalComparisonTests {
    @Test("changed-only leaves out unchanged rows but still counts them")
    func changedOnly() throws {
        let text = try TerminalComparison.render(.bench(SampleReports.quickBaseline()), .bench(SampleReports.quickBench()), changedOnly: true)
        let tableRows = text.split(separator: "\n").filter { $0.contains("optimal") }
        #expect(tableRows.count == 11)
        #expect(text.contains("5 regressions, 6 improvements in 75 rows"))
        let fuzz = try TerminalComparison.render(.fuzz(SampleReports.fuzzBaseline()), .fuzz(SampleReports.smallFuzz()), changedOnly: true)
        #expect(!fuzz.contains("suboptimal/float"))
        #expect(fuzz.contains("crash/float"))
    }

    @Test("colour wraps regressions in red and improvements in green, and only when asked")
    func color() throws {
        let plain = try TerminalComparison.render(.bench(SampleReports.quickBaseline()), .bench(SampleReports.quickBench()))
        #expect(!plain.contains("\u{1B}["))
        let colored = try TerminalComparison.render(.bench(SampleReports.quickBaseline()), .bench(SampleReports.quickBench()), color: true)
        #expect(colored.contains("\u{1B}[1;31mgrid"))
        #expect(colored.contains("\u{1B}[32mform"))
    }

    @Test("columns line up, counted in characters")
    func alignment() throws {
        let text = try TerminalComparison.render(.bench(SampleReports.quickBaseline()), .bench(SampleReports.quickBench()))
        let lines = text.split(separator: "\n").prefix(77)
        // The verdict column starts at the same character offset on every line.
        let header = try #require(lines.first)
        let offset = try #require(header.range(of: "verdict")).lowerBound
        let column = header.distance(from: header.startIndex, to: offset)
        for line in lines.dropFirst(2) {
            #expect(line.count >= column + 1)
            let start = line.index(line.startIndex, offsetBy: column)
            #expect(line[line.index(before: start)] == " " && line[start] != " ", "\(line)")
        }
    }
}
