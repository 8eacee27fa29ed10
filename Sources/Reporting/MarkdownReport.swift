/// GitHub-flavoured Markdown for pull-request comments and nightly summaries.
///
/// Short by design: the headline tables are open, the per-row timings sit in a collapsed
/// `<details>` block, and a comparison lists only the rows that changed. The output is a pure
/// function of the documents (sorted rows, fixed number formats), so it can be snapshot-tested.
public enum MarkdownReport {
    /// The Markdown for `document`, with a comparison when `baseline` is of the same kind.
    public static func render(_ document: ReportDocument, baseline: ReportDocument? = nil, options: RenderOptions = RenderOptions()) -> String {
        var lines: [String]
        switch document {
        case .bench(let report): lines = bench(report, baseline: baseline, options: options)
        case .fuzz(let report):
            lines = fuzz(report, baseline: baseline, options: options)
            if !options.findingHistory.isEmpty { lines += FindingStatesSection.markdown(options.findingHistory) }
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Bench

    private static func bench(_ report: BenchReport, baseline: ReportDocument?, options: RenderOptions) -> [String] {
        let analysis = BenchAnalysis(report)
        var lines = ["## LayoutBench — \(c(report.suite)) bench", ""]
        lines.append("**Started** \(c(report.createdAt)) · **wall time** \(ReportFormat.duration(seconds: report.seconds)) · "
            + "**repetitions** \(report.repetitions) (+\(report.warmupRuns) warm-up) · **layoutbench** \(c(report.machine.toolVersion))")
        lines.append("**Machine** \(c(HTMLReport.machineLine(report.machine)))")
        lines.append("")

        if let baseline {
            switch baseline {
            case .bench(let old):
                lines += comparison(BenchComparison(baseline: old, current: report, rule: options.rule), baseline: old)
            case .fuzz:
                lines += ["> [!WARNING]", "> The baseline is a fuzz report; a bench report can only be compared with a bench report.", ""]
            }
        }

        lines.append("### Status")
        lines.append("")
        lines.append("| backend | " + analysis.statuses.map(c).joined(separator: " | ") + " | total |")
        lines.append("|:--|" + String(repeating: "--:|", count: analysis.statuses.count + 1))
        for backend in analysis.backends {
            let counts = analysis.statusCounts(backend: backend)
            lines.append("| \(c(backend)) | " + analysis.statuses.map { String(counts[$0] ?? 0) }.joined(separator: " | ")
                + " | \(counts.values.reduce(0, +)) |")
        }
        lines.append("")

        if let screens = analysis.screens {
            lines.append("### Screens")
            lines.append("")
            lines.append(screens.legend)
            lines.append("")
            lines.append("| " + screens.headings.map(c).joined(separator: " | ") + " |")
            lines.append("|:--|--:|--:|" + String(repeating: "--:|", count: screens.backends.count) + ":--|:--|")
            for line in screens.lines {
                let cells = screens.cells(line).map { line.isSummary ? "**\(c($0))**" : c($0) }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }

        lines.append("### Growth exponents")
        lines.append("")
        lines.append("Least-squares slope of log p50 against log size (time ≈ c·n^k).")
        lines.append("")
        lines.append("| family | " + analysis.backends.map(c).joined(separator: " | ") + " |")
        lines.append("|:--|" + String(repeating: "--:|", count: analysis.backends.count))
        for family in analysis.families {
            let cells = analysis.backends.map { backend in
                analysis.fit(family: family, backend: backend).map { ReportFormat.exponent($0.exponent) } ?? ReportFormat.missing
            }
            lines.append("| \(c(family)) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")

        lines.append("<details><summary>Solve times (\(report.results.count) rows)</summary>")
        lines.append("")
        lines.append("| family | size | backend | status | samples | p50 | p90 | p99 |")
        lines.append("|:--|--:|:--|:--|--:|--:|--:|--:|")
        for family in analysis.families {
            for row in analysis.rows(family: family) {
                var cells = [c(row.family), String(row.size), c(row.backend), c(row.status)]
                if let t = row.timing {
                    cells += [String(t.samples)] + [t.p50, t.p90, t.p99].map { ReportFormat.duration(nanoseconds: $0) }
                } else {
                    cells += Array(repeating: ReportFormat.missing, count: 4)
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        lines.append("")
        lines.append("</details>")
        lines.append("")
        return lines
    }

    private static func comparison(_ comparison: BenchComparison, baseline: BenchReport) -> [String] {
        var lines = ["### Comparison with the baseline", ""]
        let regressions = comparison.regressions.count, improvements = comparison.improvements.count
        let mark = regressions > 0 ? "🔴" : (improvements > 0 ? "🟢" : "⚪")
        lines.append("\(mark) **\(regressions) regression\(regressions == 1 ? "" : "s")**, \(improvements) improvement\(improvements == 1 ? "" : "s") "
            + "in \(comparison.rows.count) rows, against the \(c(baseline.suite)) run of \(c(baseline.createdAt)) "
            + "(layoutbench \(c(baseline.machine.toolVersion)), \(c(baseline.machine.hostname))).")
        lines.append("")
        for warning in comparison.warnings {
            lines += ["> ⚠️ Warning: \(warning).", ""]
        }
        lines.append("| backend | p50 ratio (geometric mean) | rows timed in both |")
        lines.append("|:--|--:|--:|")
        for backend in comparison.backends {
            let mean = comparison.geometricMeanRatio(backend: backend)
            lines.append("| \(c(backend)) | \(mean.map { ReportFormat.fixed($0.ratio, decimals: 3) + "×" } ?? ReportFormat.missing) | \(mean?.rows ?? 0) |")
        }
        lines.append("")
        let changed = comparison.rows.filter { $0.verdict != .unchanged }
        lines += changedRows(
            header: "| | family | size | backend | status | p50 before | p50 after | Δ | threshold |",
            alignment: "|:--|:--|--:|:--|:--|--:|--:|--:|--:|",
            changed.map { row in
                let marker: String
                switch row.verdict {
                case .regression, .statusRegression: marker = "🔴 " + HTMLReport.verdictText(row)
                case .improvement, .statusImprovement: marker = "🟢 " + HTMLReport.verdictText(row)
                case .added, .removed, .unchanged: marker = HTMLReport.verdictText(row)
                }
                return [
                    marker, c(row.family), String(row.size), c(row.backend), c(HTMLReport.statusText(row)),
                    row.baseline?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing,
                    row.current?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing,
                    HTMLReport.deltaText(row),
                    row.threshold.map { "±" + ReportFormat.duration(nanoseconds: $0) } ?? ReportFormat.missing,
                ]
            })
        let quiet = comparison.rows.count - changed.count
        lines.append("\(quiet) row\(quiet == 1 ? "" : "s") within noise not listed. Rule: |Δp50| > max(p90 − p50 of either run, "
            + "\(ReportFormat.fixed(comparison.rule.minimumRelativeChange * 100, decimals: 1))% of the baseline p50); a worse or changed status counts as a regression.")
        lines.append("")
        return lines
    }

    // MARK: Fuzz

    private static func fuzz(_ report: FuzzReport, baseline: ReportDocument?, options: RenderOptions) -> [String] {
        let analysis = FuzzAnalysis(report)
        var lines = ["## LayoutBench — fuzz campaign, seed \(report.seed)", ""]
        lines.append("**Cases** \(analysis.totals.cases) · **solving time** \(ReportFormat.duration(seconds: analysis.totals.seconds)) · "
            + "**backends** \(c(report.backends.joined(separator: ", "))) · **shards** \(c(analysis.shardLine))")
        lines.append("**Families** \(report.families.isEmpty ? "every family" : c(report.families.joined(separator: ", ")))")
        lines.append("")
        if analysis.totals.interrupted {
            lines += ["> [!WARNING]", "> The campaign was interrupted: fewer cases ran than were asked for.", ""]
        }
        if !report.missingShards.isEmpty {
            lines += ["> [!WARNING]", "> Missing shards: \(report.missingShards.sorted().map(String.init).joined(separator: ", ")); the counts cover only the shards present.", ""]
        }

        if let baseline {
            switch baseline {
            case .fuzz(let old): lines += comparison(FuzzComparison(baseline: old, current: report), baseline: old)
            case .bench:
                lines += ["> [!WARNING]", "> The baseline is a bench report; a fuzz report can only be compared with a fuzz report.", ""]
            }
        }

        lines.append("### Findings")
        lines.append("")
        if analysis.wrongSignatures.isEmpty {
            lines.append("🟢 No wrong findings: every backend agreed with the reference, or differed only as rounding explains, and every oracle held.")
        } else {
            lines.append("🔴 \(analysis.wrongOccurrences) wrong occurrence\(analysis.wrongOccurrences == 1 ? "" : "s") of \(analysis.wrongSignatures.count) signature\(analysis.wrongSignatures.count == 1 ? "" : "s"); "
                + "\(analysis.wrongFindings.count) stored finding\(analysis.wrongFindings.count == 1 ? "" : "s").")
            lines.append("")
            lines += signatureTable(analysis.wrongSignatures, analysis)
        }
        lines.append("")
        if !analysis.forgivenSignatures.isEmpty {
            lines.append("⚪ Counted apart, not failures: \(analysis.forgivenOccurrences) \(analysis.forgivenLabel) occurrence\(analysis.forgivenOccurrences == 1 ? "" : "s") "
                + "(\(analysis.forgivenReason)\(analysis.perturbationRange.map { "; stored ones by relative perturbations of \($0)" } ?? "")).")
            lines.append("")
            lines += signatureTable(analysis.forgivenSignatures, analysis)
            lines.append("")
        }
        if !analysis.familyRows.isEmpty {
            lines.append("<details><summary>Per family</summary>")
            lines.append("")
            lines.append("| family | cases | wrong | ill-conditioned |")
            lines.append("|:--|--:|--:|--:|")
            for (family, tally) in analysis.familyRows {
                lines.append("| \(c(family)) | \(tally.cases) | \(tally.wrongCases) (\(FuzzAnalysis.share(tally.wrongCases, of: tally.cases))) | \(tally.illConditionedCases) (\(FuzzAnalysis.share(tally.illConditionedCases, of: tally.cases))) |")
            }
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        if !analysis.totals.crashedCases.isEmpty {
            lines.append("**Crashed cases** (\(analysis.totals.crashedCases.count)): " + analysis.totals.crashedCases.sorted().map(String.init).joined(separator: ", "))
            lines.append("")
        }

        if !analysis.findings.isEmpty {
            lines.append("### Stored findings")
            lines.append("")
            lines.append("Replay from the report's folder with the command shown.")
            lines.append("")
            lines.append("| finding | class | backends | verdict | case | reduced to | replay |")
            lines.append("|:--|:--|:--|:--|:--|:--|:--|")
            for finding in analysis.findings {
                let name = Markup.markdownCode(finding.fingerprint)
                let link = Markup.relativeLink(finding.repro, prefix: options.reproPrefix).map { "[\(name)](\($0))" } ?? name
                let kind = c(finding.kind) + (finding.oracle.map { " (" + c($0) + ")" } ?? "")
                var origin = "\(c(finding.family)) n\(finding.size) seed \(finding.seed)"
                var reduced = "\(finding.reducedConstraints) of \(finding.originalConstraints) constraints, \(finding.reducedViews) view\(finding.reducedViews == 1 ? "" : "s")"
                if let base = finding.base, let at = finding.sequencePhrase {
                    // An update sequence: where it first went wrong, and its steps.
                    origin += " on \(c(base)), first wrong at \(at.split(separator: ";")[0])"
                    reduced = "\(finding.reducedSteps ?? 0) of \(finding.originalSteps ?? 0) steps, " + reduced
                }
                let verdict = c(finding.verdict) + (finding.perturbation.map { " (" + ReportFormat.scientific($0) + ")" } ?? "")
                lines.append("| \(link) | \(kind) | \(c(finding.backends.joined(separator: " vs "))) | \(verdict) | \(origin) | \(reduced) | \(Markup.markdownCode(FuzzAnalysis.replayCommand(finding))) |")
            }
            lines.append("")
            lines.append("<details><summary>Details</summary>")
            lines.append("")
            for finding in analysis.findings {
                lines.append("- \(Markup.markdownCode(finding.fingerprint)): \(c(finding.detail))")
            }
            lines.append("")
            lines.append("</details>")
            lines.append("")
        }
        return lines
    }

    /// Signatures with their occurrences and rate per 1000 cases.
    private static func signatureTable(_ entries: [(signature: String, count: Int)], _ analysis: FuzzAnalysis) -> [String] {
        ["| signature | occurrences | per 1000 cases |", "|:--|--:|--:|"]
            + entries.map { "| \(Markup.markdownCode($0.signature)) | \($0.count) | \(analysis.rate($0.count)) |" }
    }

    private static func comparison(_ comparison: FuzzComparison, baseline: FuzzReport) -> [String] {
        var lines = ["### Comparison with the baseline", ""]
        let new = comparison.regressions.count, gone = comparison.improvements.count
        let mark = new > 0 ? "🔴" : (gone > 0 ? "🟢" : "⚪")
        lines.append("\(mark) **\(new) new wrong signature\(new == 1 ? "" : "s")**, \(gone) gone, against seed \(baseline.seed) (\(FuzzTotals(baseline).cases) cases).")
        lines.append("")
        lines += changedRows(
            header: "| | signature | before | after |", alignment: "|:--|:--|--:|--:|",
            comparison.rows.filter { $0.verdict != .persisting }.map { row in
                let marker = row.isWrong ? (row.verdict == .new ? "🔴 new" : "🟢 gone") : (row.verdict == .new ? "⚪ new" : "⚪ gone")
                return [marker, Markup.markdownCode(row.signature), String(row.baselineCount), String(row.currentCount)]
            })
        if !comparison.newFindings.isEmpty {
            lines.append("New stored findings: " + comparison.newFindings.map { Markup.markdownCode($0.fingerprint) }.joined(separator: ", "))
            lines.append("")
        }
        return lines
    }

    /// The table of a comparison's changed rows (cells already escaped), then a blank line;
    /// nothing at all when no row changed.
    private static func changedRows(header: String, alignment: String, _ rows: [[String]]) -> [String] {
        guard !rows.isEmpty else { return [] }
        return [header, alignment] + rows.map { "| " + $0.joined(separator: " | ") + " |" } + [""]
    }

    /// A cell or inline text from the document.
    private static func c(_ text: String) -> String { Markup.markdownCell(text) }
}
