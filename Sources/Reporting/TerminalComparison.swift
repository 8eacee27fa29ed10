/// Two reports compared as an aligned plain-text table for the terminal.
public enum TerminalComparison {
    /// The table comparing `current` (B) against `baseline` (A), with a closing summary line.
    ///
    /// Regressions are marked `▲ REGRESSION`, improvements `▼ improved`; with `color`, they are
    /// also red and green (ANSI escapes; leave it off when the output is not a terminal).
    /// With `changedOnly`, rows that did not change are left out (the summary still counts them).
    /// Throws when one report is a bench report and the other a fuzz report.
    public static func render(
        _ baseline: ReportDocument, _ current: ReportDocument, rule: RegressionRule = .standard, color: Bool = false,
        changedOnly: Bool = false
    ) throws(ReportComparisonError) -> String {
        render(try ReportComparison(baseline: baseline, current: current, rule: rule), color: color, changedOnly: changedOnly)
    }

    /// The table for a comparison already made.
    public static func render(_ comparison: ReportComparison, color: Bool = false, changedOnly: Bool = false) -> String {
        switch comparison {
        case .bench(let c): bench(c, color: color, changedOnly: changedOnly)
        case .fuzz(let c): fuzz(c, color: color, changedOnly: changedOnly)
        }
    }

    private static func bench(_ comparison: BenchComparison, color: Bool, changedOnly: Bool) -> String {
        var table = TextTable(
            header: ["family", "size", "backend", "status", "p50 A", "p50 B", "Δ", "threshold", "verdict"],
            rightAligned: [1, 4, 5, 6, 7])
        for row in comparison.rows where !(changedOnly && row.verdict == .unchanged) {
            let status = HTMLReport.statusText(row)
            let verdict: String
            var tone = Tone.plain
            switch row.verdict {
            case .regression, .statusRegression:
                verdict = "▲ REGRESSION" + (row.verdict == .statusRegression ? " (status)" : "")
                tone = .bad
            case .improvement, .statusImprovement:
                verdict = "▼ improved" + (row.verdict == .statusImprovement ? " (status)" : "")
                tone = .good
            case .unchanged: verdict = "="
            case .added: verdict = "only in B"
            case .removed: verdict = "only in A"
            }
            table.add([
                row.family, String(row.size), row.backend, status,
                row.baseline?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing,
                row.current?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing,
                row.ratio.map { ReportFormat.percentChange($0 - 1) } ?? ReportFormat.missing,
                row.threshold.map { "±" + ReportFormat.duration(nanoseconds: $0) } ?? ReportFormat.missing,
                verdict + (row.seedsDiffer ? " (seeds differ)" : ""),
            ], tone: tone)
        }
        var out = comparison.warnings.map { "warning: \($0)\n" }.joined()
        out += table.rows.isEmpty ? "" : table.render(color: color) + "\n"
        for backend in comparison.backends {
            if let mean = comparison.geometricMeanRatio(backend: backend) {
                out += "\(backend): B/A p50 geometric mean \(ReportFormat.fixed(mean.ratio, decimals: 3))× over \(mean.rows) row\(mean.rows == 1 ? "" : "s")\n"
            }
        }
        out += summaryLine(regressions: comparison.regressions.count, improvements: comparison.improvements.count,
                           rows: comparison.rows.count, color: color)
        out += "rule: |Δp50| > max(p90 − p50 of A, of B, \(ReportFormat.fixed(comparison.rule.minimumRelativeChange * 100, decimals: 1))% of p50 A)\n"
        return out
    }

    private static func fuzz(_ comparison: FuzzComparison, color: Bool, changedOnly: Bool) -> String {
        var table = TextTable(header: ["signature", "A", "B", "verdict"], rightAligned: [1, 2])
        for row in comparison.rows where !(changedOnly && row.verdict == .persisting) {
            let cells = [row.signature, String(row.baselineCount), String(row.currentCount)]
            switch (row.verdict, row.isWrong) {
            case (.new, true): table.add(cells + ["▲ NEW"], tone: .bad)
            case (.gone, true): table.add(cells + ["▼ gone"], tone: .good)
            case (.new, false): table.add(cells + ["new (not judged)"], tone: .plain)
            case (.gone, false): table.add(cells + ["gone (not judged)"], tone: .plain)
            case (.persisting, _): table.add(cells + ["="], tone: .plain)
            }
        }
        var out = table.rows.isEmpty ? "" : table.render(color: color) + "\n"
        if comparison.rows.isEmpty { out = "no findings in either report\n\n" }
        for finding in comparison.newFindings {
            out += "new finding \(finding.fingerprint): layoutbench replay \(Markup.shellWord(finding.repro))\n"
        }
        out += summaryLine(regressions: comparison.regressions.count, improvements: comparison.improvements.count,
                           rows: comparison.rows.count, color: color, noun: "signature")
        return out
    }

    private static func summaryLine(regressions: Int, improvements: Int, rows: Int, color: Bool, noun: String = "row") -> String {
        let text = "\(regressions) regression\(regressions == 1 ? "" : "s"), \(improvements) improvement\(improvements == 1 ? "" : "s") in \(rows) \(noun)\(rows == 1 ? "" : "s")"
        let tone: Tone = regressions > 0 ? .bad : (improvements > 0 ? .good : .plain)
        return tone.wrap(text, color: color) + "\n"
    }
}

/// A row's colour in the terminal.
public enum Tone: Sendable {
    case plain, good, bad

    /// `text` in this colour when `color` (ANSI escapes), else as it is.
    public func wrap(_ text: String, color: Bool) -> String {
        guard color else { return text }
        switch self {
        case .plain: return text
        case .good: return "\u{1B}[32m" + text + "\u{1B}[0m"
        case .bad: return "\u{1B}[1;31m" + text + "\u{1B}[0m"
        }
    }
}

/// Columns padded to their widest cell, counted in characters (`µ`, `Δ`, `→` are one column
/// each in a monospaced terminal), two spaces apart.
struct TextTable: Sendable {
    var header: [String]
    var rightAligned: Set<Int>
    var rows: [(cells: [String], tone: Tone)] = []

    init(header: [String], rightAligned: Set<Int>) {
        self.header = header
        self.rightAligned = rightAligned
    }

    mutating func add(_ cells: [String], tone: Tone) {
        rows.append((cells.map { $0.replacingOccurrences(of: "\n", with: " ") }, tone))
    }

    func render(color: Bool) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.cells.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, width) in widths.enumerated() {
                let cell = index < cells.count ? cells[index] : ""
                let padding = String(repeating: " ", count: max(0, width - cell.count))
                parts.append(rightAligned.contains(index) ? padding + cell : cell + padding)
            }
            // Trailing spaces would make the snapshot depend on invisible characters.
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var out = line(header) + "\n"
        out += line(widths.map { String(repeating: "─", count: $0) }) + "\n"
        for row in rows { out += row.tone.wrap(line(row.cells), color: color) + "\n" }
        return out
    }
}
