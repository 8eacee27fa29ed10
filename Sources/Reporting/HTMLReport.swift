/// One self-contained HTML page for a bench or fuzz report: inline CSS and SVG, no script, no
/// network, so the file can be mailed, archived as a CI artefact, opened offline and printed.
public enum HTMLReport {
    /// The page for `document`, with a comparison section when `baseline` is a report of the
    /// same kind (and a note saying why there is none when it is not).
    public static func render(_ document: ReportDocument, baseline: ReportDocument? = nil, options: RenderOptions = RenderOptions()) -> String {
        var page = Page()
        page.schema = document.schema
        switch document {
        case .bench(let report):
            renderBench(report, baseline: baseline, options: options, into: &page)
        case .fuzz(let report):
            renderFuzz(report, baseline: baseline, options: options, into: &page)
            if !options.findingHistory.isEmpty { page.add(FindingStatesSection.html(options.findingHistory)) }
        }
        return page.html
    }

    // MARK: Bench

    private static func renderBench(_ report: BenchReport, baseline: ReportDocument?, options: RenderOptions, into page: inout Page) {
        let analysis = BenchAnalysis(report)
        page.title = "LayoutBench — \(report.suite) bench, \(report.createdAt)"
        page.add("<h1>\(h(page.title))</h1>")
        page.add(definitionList([
            ("Suite", report.suite),
            ("Started", report.createdAt),
            ("Wall time", ReportFormat.duration(seconds: report.seconds)),
            ("Backends", analysis.backends.joined(separator: ", ")),
            ("Repetitions", "\(report.repetitions) timed after \(report.warmupRuns) warm-up run\(report.warmupRuns == 1 ? "" : "s")"),
            ("Machine", machineLine(report.machine)),
            ("layoutbench", report.machine.toolVersion),
        ]))

        var contents: [(String, String)] = [("summary", "Summary")] + (analysis.screens == nil ? [] : [("screens", "Screens")])
            + [("growth", "Growth exponents")]
        if baseline != nil { contents.append(("comparison", "Comparison with the baseline")) }
        for (index, family) in analysis.families.enumerated() { contents.append(("family-\(index)", family)) }
        if case .bench? = baseline { contents.append(("all-rows", "Every compared row")) }
        page.add("<nav><strong>Contents:</strong> " + contents.map { "<a href=\"#\($0.0)\">\(h($0.1))</a>" }.joined(separator: " · ") + "</nav>")

        // Status counts.
        page.add("<section id=\"summary\"><h2>Summary</h2>")
        page.add("<p>\(report.results.count) results: \(analysis.families.count) famil\(analysis.families.count == 1 ? "y" : "ies") × sizes × \(analysis.backends.count) backend\(analysis.backends.count == 1 ? "" : "s"). Times are per solve, in wall-clock time.</p>")
        var table = "<table><thead><tr><th class=\"text\">backend</th>"
        table += analysis.statuses.map { "<th>\(h($0))</th>" }.joined() + "<th>total</th></tr></thead><tbody>\n"
        for backend in analysis.backends {
            let counts = analysis.statusCounts(backend: backend)
            table += "<tr><td class=\"text\">\(h(backend))</td>"
            for status in analysis.statuses {
                let count = counts[status] ?? 0
                let cls = count > 0 && StatusRank.of(status) >= 2 ? " class=\"bad\"" : ""
                table += "<td\(cls)>\(count)</td>"
            }
            table += "<td>\(counts.values.reduce(0, +))</td></tr>\n"
        }
        table += "</tbody></table>"
        page.add(table)
        page.add("</section>")

        if let screens = analysis.screens {
            page.add("<section id=\"screens\"><h2>Screens</h2>")
            page.add("<p>\(h(screens.legend))</p>")
            var out = "<table><thead><tr>" + screens.headings.enumerated().map { index, heading in
                index == 0 || index >= screens.headings.count - 2 ? "<th class=\"text\">\(h(heading))</th>" : "<th>\(h(heading))</th>"
            }.joined() + "</tr></thead><tbody>\n"
            for line in screens.lines {
                let cells = screens.cells(line)
                out += line.isSummary ? "<tr class=\"summary\">" : "<tr>"
                for (index, cell) in cells.enumerated() {
                    let text = index == 0 || index >= cells.count - 2
                    let bad = index == cells.count - 1 && cell.hasPrefix("differs")
                    let cls = [text ? "text" : nil, bad ? "bad" : nil].compactMap { $0 }.joined(separator: " ")
                    out += "<td\(cls.isEmpty ? "" : " class=\"\(cls)\"")>" + (line.isSummary ? "<strong>\(h(cell))</strong>" : h(cell)) + "</td>"
                }
                out += "</tr>\n"
            }
            page.add(out + "</tbody></table>")
            page.add("</section>")
        }

        // Growth exponents, family × backend.
        page.add("<section id=\"growth\"><h2>Growth exponents</h2>")
        page.add("<p>The slope of a least-squares line through (log size, log p50) for each backend in each family: time ≈ c·n<sup>k</sup>. Needs two sizes or more.</p>")
        var growth = "<table><thead><tr><th class=\"text\">family</th>" + analysis.backends.map { "<th>\(h($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for family in analysis.families {
            growth += "<tr><td class=\"text\">\(h(family))</td>"
            for backend in analysis.backends {
                if let fit = analysis.fit(family: family, backend: backend) {
                    growth += "<td title=\"r² \(ReportFormat.fixed(fit.rSquared, decimals: 3)), \(fit.pointCount) points\">\(ReportFormat.exponent(fit.exponent))</td>"
                } else {
                    growth += "<td class=\"muted\">\(ReportFormat.missing)</td>"
                }
            }
            growth += "</tr>\n"
        }
        growth += "</tbody></table>"
        page.add(growth)
        page.add("</section>")

        if let baseline {
            page.add("<section id=\"comparison\"><h2>Comparison with the baseline</h2>")
            switch baseline {
            case .bench(let old):
                page.add(benchComparison(BenchComparison(baseline: old, current: report, rule: options.rule), baseline: old, current: report))
            case .fuzz:
                page.add("<p class=\"warning\">The baseline is a fuzz report; only a bench report can be compared with a bench report.</p>")
            }
            page.add("</section>")
        }

        for (index, family) in analysis.families.enumerated() {
            page.add("<section id=\"family-\(index)\" class=\"family\"><h2>\(h(family))</h2>")
            let plot = analysis.plot(family: family)
            if plot.isEmpty {
                page.add("<p class=\"muted\">No backend has a timed result in this family.</p>")
            } else {
                page.add("<figure>" + plot.svg(id: "plot-\(index)") + "</figure>")
            }
            let untimed = analysis.untimedRows(family: family)
            if !untimed.isEmpty {
                let byBackend = Dictionary(grouping: untimed, by: \.backend)
                let parts = analysis.backends.compactMap { backend -> String? in
                    guard let rows = byBackend[backend] else { return nil }
                    let statuses = Dictionary(grouping: rows, by: \.status).map { "\($0.value.count) \($0.key)" }.sorted()
                    return "\(backend) (\(statuses.joined(separator: ", ")))"
                }
                page.add("<p class=\"muted\">Not plotted (no time): \(h(parts.joined(separator: "; "))).</p>")
            }
            page.add(percentileTable(analysis.rows(family: family)))
            page.add("</section>")
        }

        if case .bench(let old)? = baseline {
            let comparison = BenchComparison(baseline: old, current: report, rule: options.rule)
            page.add("<section id=\"all-rows\"><h2>Every compared row</h2>")
            page.add(comparisonTable(comparison.rows))
            page.add("</section>")
        }
    }

    private static func percentileTable(_ rows: [BenchResult]) -> String {
        var out = "<table class=\"percentiles\"><thead><tr><th>size</th><th>seed</th><th>views</th><th>constraints</th><th class=\"text\">backend</th><th class=\"text\">status</th>"
        out += "<th>samples</th><th>min</th><th>p50</th><th>p90</th><th>p99</th><th>max</th><th>mean</th><th>σ</th><th>iterations</th><th>peak RSS</th></tr></thead><tbody>\n"
        for row in rows {
            out += "<tr><td>\(row.size)</td><td>\(row.seed)</td><td>\(row.views)</td><td>\(row.constraints)</td>"
            out += "<td class=\"text\">\(h(row.backend))</td>"
            let statusClass = StatusRank.of(row.status) >= 2 ? "text bad" : "text"
            out += "<td class=\"\(statusClass)\">\(h(row.status))"
            if let note = row.note, !note.isEmpty { out += " <span class=\"note\">— \(h(note))</span>" }
            out += "</td>"
            if let t = row.timing {
                out += "<td>\(t.samples)</td>"
                for value in [t.minimum, t.p50, t.p90, t.p99, t.maximum, t.mean, t.standardDeviation] {
                    out += "<td>\(ReportFormat.duration(nanoseconds: value))</td>"
                }
            } else {
                out += String(repeating: "<td class=\"muted\">\(ReportFormat.missing)</td>", count: 8)
            }
            out += "<td>\(row.iterations.map(String.init) ?? ReportFormat.missing)</td>"
            out += "<td>\(row.peakResidentBytes.map(ReportFormat.bytes) ?? ReportFormat.missing)</td></tr>\n"
        }
        return out + "</tbody></table>"
    }

    private static func benchComparison(_ comparison: BenchComparison, baseline: BenchReport, current: BenchReport) -> String {
        var out = "<p>Baseline: \(h(baseline.suite)) run of \(h(baseline.createdAt)) on \(h(machineLine(baseline.machine))), layoutbench \(h(baseline.machine.toolVersion)).</p>"
        for warning in comparison.warnings {
            out += "<p class=\"warning\">Warning: \(h(warning)).</p>"
        }
        out += "<p class=\"rule\">Rule: a row regressed when its median rose by more than max(spread<sub>baseline</sub>, spread<sub>current</sub>, "
            + "\(ReportFormat.fixed(comparison.rule.minimumRelativeChange * 100, decimals: 1))% of the baseline median), with spread = p90 − p50; "
            + "it improved when the median fell by more than that. A worse status (solved → budget exceeded, failed …) or a changed answer "
            + "(optimal ↔ unsatisfiable) is a regression too.</p>"
        out += "<p><span class=\"regression tag\">\(comparison.regressions.count) regression\(comparison.regressions.count == 1 ? "" : "s")</span> "
            + "<span class=\"improvement tag\">\(comparison.improvements.count) improvement\(comparison.improvements.count == 1 ? "" : "s")</span> "
            + "out of \(comparison.rows.count) rows.</p>"
        var summary = "<table><thead><tr><th class=\"text\">backend</th><th>geometric mean of p50 ratios</th><th>rows timed in both</th><th>regressions</th><th>improvements</th></tr></thead><tbody>\n"
        for backend in comparison.backends {
            let rows = comparison.rows.filter { $0.backend == backend }
            let mean = comparison.geometricMeanRatio(backend: backend)
            summary += "<tr><td class=\"text\">\(h(backend))</td><td>\(mean.map { ReportFormat.fixed($0.ratio, decimals: 3) + "×" } ?? ReportFormat.missing)</td>"
            summary += "<td>\(mean?.rows ?? 0)</td><td>\(rows.filter { $0.verdict.isRegression }.count)</td><td>\(rows.filter { $0.verdict.isImprovement }.count)</td></tr>\n"
        }
        out += summary + "</tbody></table>"
        let changed = comparison.rows.filter { $0.verdict != .unchanged }
        if changed.isEmpty {
            out += "<p class=\"good\">Every row is within noise of the baseline.</p>"
        } else {
            out += comparisonTable(changed)
        }
        let quiet = comparison.rows.count - changed.count
        out += "<p class=\"muted\">\(quiet) row\(quiet == 1 ? "" : "s") within noise not listed here; <a href=\"#all-rows\">every compared row</a> is at the end of the page.</p>"
        return out
    }

    private static func comparisonTable(_ rows: [BenchComparison.Row]) -> String {
        var out = "<table class=\"comparison\"><thead><tr><th class=\"text\">family</th><th>size</th><th class=\"text\">backend</th><th class=\"text\">status</th>"
        out += "<th>p50 baseline</th><th>p50 current</th><th>Δ</th><th>threshold</th><th class=\"text\">verdict</th></tr></thead><tbody>\n"
        for row in rows {
            let cls = row.verdict.isRegression ? " class=\"regression\"" : (row.verdict.isImprovement ? " class=\"improvement\"" : "")
            out += "<tr\(cls)><td class=\"text\">\(h(row.family))</td><td>\(row.size)</td><td class=\"text\">\(h(row.backend))</td><td class=\"text\">\(h(statusText(row)))</td>"
            out += "<td>\(row.baseline?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing)</td>"
            out += "<td>\(row.current?.timing.map { ReportFormat.duration(nanoseconds: $0.p50) } ?? ReportFormat.missing)</td>"
            out += "<td>\(deltaText(row))</td><td>\(row.threshold.map { "±" + ReportFormat.duration(nanoseconds: $0) } ?? ReportFormat.missing)</td>"
            out += "<td class=\"text\">\(h(verdictText(row)))</td></tr>\n"
        }
        return out + "</tbody></table>"
    }

    /// The row's status, or `before → after` when it changed.
    static func statusText(_ row: BenchComparison.Row) -> String {
        switch (row.baseline?.status, row.current?.status) {
        case let (a?, b?) where a == b: a
        case let (a?, b?): "\(a) → \(b)"
        case let (a?, nil): a
        case let (nil, b?): b
        case (nil, nil): ""
        }
    }

    /// `+1.20 ms (+15.0%)`, or the placeholder.
    static func deltaText(_ row: BenchComparison.Row) -> String {
        guard let change = row.change, let ratio = row.ratio else { return ReportFormat.missing }
        let sign = change > 0 ? "+" : (change < 0 ? "-" : "")
        return sign + ReportFormat.duration(nanoseconds: abs(change)) + " (" + ReportFormat.percentChange(ratio - 1) + ")"
    }

    static func verdictText(_ row: BenchComparison.Row) -> String {
        var text: String
        switch row.verdict {
        case .regression: text = "regression"
        case .improvement: text = "improvement"
        case .unchanged: text = "within noise"
        case .statusRegression: text = "status regression"
        case .statusImprovement: text = "status improvement"
        case .added: text = "new row"
        case .removed: text = "missing"
        }
        if row.seedsDiffer, let a = row.baseline?.seed, let b = row.current?.seed { text += " (seed \(a) vs \(b))" }
        return text
    }

    // MARK: Fuzz

    private static func renderFuzz(_ report: FuzzReport, baseline: ReportDocument?, options: RenderOptions, into page: inout Page) {
        let analysis = FuzzAnalysis(report)
        page.title = "LayoutBench — fuzz campaign, seed \(report.seed)"
        page.add("<h1>\(h(page.title))</h1>")
        page.add(definitionList([
            ("Seed", String(report.seed)),
            ("Cases", "\(analysis.totals.cases)" + (analysis.totals.interrupted ? " (interrupted before the planned end)" : "")),
            ("Shards", analysis.shardLine),
            ("Solving time", ReportFormat.duration(seconds: analysis.totals.seconds)),
            ("Backends", report.backends.joined(separator: ", ")),
            ("Families", report.families.isEmpty ? "every family" : report.families.joined(separator: ", ")),
            ("Reduced per signature", "at most \(report.perSignature)"),
        ]))
        if !report.missingShards.isEmpty {
            page.add("<p class=\"warning\">Missing shards: \(report.missingShards.sorted().map(String.init).joined(separator: ", ")). The counts below cover only the shards present.</p>")
        }
        if analysis.totals.interrupted {
            page.add("<p class=\"warning\">The campaign was interrupted: fewer cases ran than were asked for.</p>")
        }
        var contents: [(String, String)] = [("summary", "Summary")]
        if !analysis.familyRows.isEmpty { contents.append(("families", "Families")) }
        contents += [("occurrences", "Occurrences"), ("findings", "Stored findings")]
        if report.shardCount > 1 { contents.append(("shards", "Shards")) }
        if !analysis.totals.crashedCases.isEmpty { contents.append(("crashes", "Crashed cases")) }
        if baseline != nil { contents.append(("comparison", "Comparison with the baseline")) }
        page.add("<nav><strong>Contents:</strong> " + contents.map { "<a href=\"#\($0.0)\">\(h($0.1))</a>" }.joined(separator: " · ") + "</nav>")

        page.add("<section id=\"summary\"><h2>Summary</h2>")
        page.add("<p>\(analysis.wrongOccurrences) wrong finding occurrence\(analysis.wrongOccurrences == 1 ? "" : "s") (\(analysis.wrongSignatures.count) signature\(analysis.wrongSignatures.count == 1 ? "" : "s")) and "
            + "\(analysis.forgivenOccurrences) \(analysis.forgivenLabel) one\(analysis.forgivenOccurrences == 1 ? "" : "s"), counted apart, in \(analysis.totals.cases) cases; "
            + "\(report.findings.count) stored (reduced) finding\(report.findings.count == 1 ? "" : "s"), "
            + "\(analysis.totals.crashedCases.count) crashed case\(analysis.totals.crashedCases.count == 1 ? "" : "s").</p>")
        page.add("<p class=\"muted\">Only wrong findings are failures: an ill-conditioned finding is exactly right for a system whose numbers differ from the given one by at most the backend's declared relative precision (<code>docs/fuzzing.md</code>, Verdicts).</p>")
        if analysis.kinds.isEmpty {
            page.add("<p class=\"good\">No wrong findings: every backend agreed with the reference, or differed only as rounding explains, and every oracle held.</p>")
        } else {
            page.add(classTable(analysis, wrong: true))
        }
        if !analysis.forgivenKinds.isEmpty {
            page.add("<h3>\(analysis.hasSemantics ? "Ill-conditioned or semantics" : "Ill-conditioned") (counted apart)</h3>")
            if let range = analysis.perturbationRange {
                page.add("<p>Relative perturbations that explain the stored ones: \(h(range)).</p>")
            }
            page.add(classTable(analysis, wrong: false))
        }
        page.add("</section>")

        if !analysis.familyRows.isEmpty {
            page.add("<section id=\"families\"><h2>Families</h2>")
            var table = "<table><thead><tr><th class=\"text\">family</th><th>cases</th><th>with wrong findings</th><th>share</th><th>with ill-conditioned findings</th><th>share</th></tr></thead><tbody>\n"
            for (family, tally) in analysis.familyRows {
                table += "<tr><td class=\"text\">\(h(family))</td><td>\(tally.cases)</td>"
                table += "<td\(tally.wrongCases > 0 ? " class=\"bad\"" : "")>\(tally.wrongCases)</td><td>\(FuzzAnalysis.share(tally.wrongCases, of: tally.cases))</td>"
                table += "<td>\(tally.illConditionedCases)</td><td>\(FuzzAnalysis.share(tally.illConditionedCases, of: tally.cases))</td></tr>\n"
            }
            page.add(table + "</tbody></table></section>")
        }

        page.add("<section id=\"occurrences\"><h2>Occurrences</h2>")
        if analysis.signatures.isEmpty {
            page.add("<p class=\"muted\">None.</p>")
        } else {
            var table = "<table><thead><tr><th class=\"text\">signature</th><th class=\"text\">class</th><th class=\"text\">backend</th><th class=\"text\">oracle</th><th class=\"text\">verdict</th><th>occurrences</th><th>per 1000 cases</th></tr></thead><tbody>\n"
            for entry in analysis.wrongSignatures + analysis.forgivenSignatures {
                let parts = FindingSignature(parsing: entry.signature)
                table += "<tr><td class=\"text\"><code>\(h(entry.signature))</code></td><td class=\"text\">\(h(parts.kind))</td><td class=\"text\">\(h(parts.backend))</td>"
                table += "<td class=\"text\">\(h(parts.oracle ?? ReportFormat.missing))</td><td class=\"text\(parts.isWrong ? " bad" : "")\">\(h(parts.verdict))</td><td>\(entry.count)</td><td>\(analysis.rate(entry.count))</td></tr>\n"
            }
            page.add(table + "</tbody></table>")
        }
        page.add("</section>")

        page.add("<section id=\"findings\"><h2>Stored findings</h2>")
        if report.findings.isEmpty {
            page.add("<p class=\"muted\">None.</p>")
        } else {
            page.add("<p>Each finding was reduced to a small repro. Replay one from the folder that holds this report's JSON with the command shown; regenerate the original case with <code>layoutbench generate</code>.</p>")
            if !analysis.wrongFindings.isEmpty { page.add("<h3>Wrong</h3>") }
            for finding in analysis.wrongFindings {
                page.add(findingBlock(finding, prefix: options.reproPrefix))
            }
            if !analysis.forgivenFindings.isEmpty { page.add("<h3>\(analysis.hasSemantics ? "Ill-conditioned or semantics" : "Ill-conditioned") (counted apart)</h3>") }
            for finding in analysis.forgivenFindings {
                page.add(findingBlock(finding, prefix: options.reproPrefix))
            }
        }
        page.add("</section>")

        if report.shardCount > 1 {
            page.add("<section id=\"shards\"><h2>Shards</h2>")
            var table = "<table><thead><tr><th>shard</th><th>cases</th><th>occurrences</th><th>crashed</th><th>time</th><th class=\"text\">state</th></tr></thead><tbody>\n"
            for shard in report.shards.sorted(by: { $0.index < $1.index }) {
                let occurrences = shard.occurrences.values.reduce(0) { FuzzTotals.add($0, max(0, $1)) }
                table += "<tr><td>\(shard.index)</td><td>\(shard.cases)</td><td>\(occurrences)</td><td>\(shard.crashedCases.count)</td>"
                table += "<td>\(ReportFormat.duration(seconds: shard.seconds))</td><td class=\"text\">\(shard.interrupted ? "interrupted" : "complete")</td></tr>\n"
            }
            for index in report.missingShards.sorted() {
                table += "<tr class=\"regression\"><td>\(index)</td><td colspan=\"4\"></td><td class=\"text\">missing</td></tr>\n"
            }
            page.add(table + "</tbody></table></section>")
        }

        if !analysis.totals.crashedCases.isEmpty {
            page.add("<section id=\"crashes\"><h2>Crashed cases</h2>")
            page.add("<p>Indices of the campaign's cases whose worker crashed, hung or was killed:</p>")
            page.add("<p><code>\(analysis.totals.crashedCases.sorted().map(String.init).joined(separator: ", "))</code></p>")
            page.add("</section>")
        }

        if let baseline {
            page.add("<section id=\"comparison\"><h2>Comparison with the baseline</h2>")
            switch baseline {
            case .fuzz(let old):
                page.add(fuzzComparison(FuzzComparison(baseline: old, current: report), baseline: old, prefix: options.reproPrefix))
            case .bench:
                page.add("<p class=\"warning\">The baseline is a bench report; only a fuzz report can be compared with a fuzz report.</p>")
            }
            page.add("</section>")
        }
    }

    /// The class × backend table of wrong signatures, or of the others.
    private static func classTable(_ analysis: FuzzAnalysis, wrong: Bool) -> String {
        let culprits = wrong ? analysis.culprits : analysis.forgivenCulprits
        var table = "<table><thead><tr><th class=\"text\">class \\ backend at fault</th>" + culprits.map { "<th>\(h($0))</th>" }.joined() + "<th>occurrences</th><th>stored</th></tr></thead><tbody>\n"
        for kind in wrong ? analysis.kinds : analysis.forgivenKinds {
            table += "<tr><td class=\"text\">\(h(kind))</td>"
            for culprit in culprits {
                let count = analysis.occurrences(kind: kind, backend: culprit, wrong: wrong)
                table += count > 0 ? "<td\(wrong ? " class=\"bad\"" : "")>\(count)</td>" : "<td class=\"muted\">0</td>"
            }
            table += "<td>\(analysis.occurrences(kind: kind, wrong: wrong))</td><td>\(analysis.storedCount(kind: kind, wrong: wrong))</td></tr>\n"
        }
        return table + "</tbody></table>"
    }

    private static func findingBlock(_ finding: FuzzFindingEntry, prefix: String) -> String {
        let reproLink = Markup.relativeLink(finding.repro, prefix: prefix)
        var out = "<article class=\"finding\" id=\"finding-\(h(finding.fingerprint))\">"
        out += "<h3><code>\(h(finding.fingerprint))</code></h3>"
        let wrong = finding.signature.isWrong
        out += "<p><span class=\"\(wrong ? "bad" : "muted")\">\(h(finding.kind))</span> — \(h(finding.backends.joined(separator: " vs ")))"
        if let oracle = finding.oracle { out += ", oracle <code>\(h(oracle))</code>" }
        out += "; verdict <strong>\(h(finding.verdict))</strong>"
        if let perturbation = finding.perturbation { out += ", explained by a relative perturbation of \(h(ReportFormat.scientific(perturbation)))" }
        out += "</p><p class=\"detail\">\(h(finding.detail))</p>"
        if let note = finding.verdictNote { out += "<p class=\"muted\">\(h(note))</p>" }
        if let c = finding.conditioning {
            out += "<p class=\"muted\">Conditioning: distance to infeasibility \(h(c.distanceToInfeasibility.map(ReportFormat.scientific) ?? "above 1e-2")), "
                + "\(c.tightRows) tight rows for \(c.unknowns) unknowns (degeneracy \(c.degeneracy)).</p>"
        }
        if let base = finding.base, let at = finding.sequencePhrase {
            out += "<p>Update sequence \(h(finding.family)) on \(h(base)): first wrong at \(h(at)).</p>"
        }
        out += "<p>Case \(finding.caseIndex): \(h(finding.family)), size \(finding.size), seed \(finding.seed); reduced from \(finding.originalConstraints) to "
            + "\(finding.reducedConstraints) constraints on \(finding.reducedViews) view\(finding.reducedViews == 1 ? "" : "s").</p>"
        if let reproLink {
            out += "<p>Repro: <a href=\"\(h(reproLink))\">\(h(finding.repro))</a></p>"
        } else {
            out += "<p>Repro: <code>\(h(finding.repro))</code></p>"
        }
        out += "<pre><code>\(h(FuzzAnalysis.replayCommand(finding)))\n\(h(FuzzAnalysis.regenerateCommand(finding)))</code></pre>"
        return out + "</article>"
    }

    private static func fuzzComparison(_ comparison: FuzzComparison, baseline: FuzzReport, prefix: String) -> String {
        var out = "<p>Baseline: seed \(baseline.seed), \(FuzzTotals(baseline).cases) cases. A signature only the current run hit is a regression; one only the baseline hit is an improvement. Counts scale with the number of cases and are not judged.</p>"
        out += "<p><span class=\"regression tag\">\(comparison.regressions.count) new signature\(comparison.regressions.count == 1 ? "" : "s")</span> "
            + "<span class=\"improvement tag\">\(comparison.improvements.count) gone</span></p>"
        if !comparison.rows.isEmpty {
            out += "<table class=\"comparison\"><thead><tr><th class=\"text\">signature</th><th>baseline</th><th>current</th><th class=\"text\">verdict</th></tr></thead><tbody>\n"
            for row in comparison.rows {
                let cls = !row.isWrong ? "" : row.verdict == .new ? " class=\"regression\"" : (row.verdict == .gone ? " class=\"improvement\"" : "")
                out += "<tr\(cls)><td class=\"text\"><code>\(h(row.signature))</code></td><td>\(row.baselineCount)</td><td>\(row.currentCount)</td><td class=\"text\">\(row.verdict.rawValue)</td></tr>\n"
            }
            out += "</tbody></table>"
        }
        if !comparison.newFindings.isEmpty {
            out += "<p>New stored findings: " + comparison.newFindings.map { "<a href=\"#finding-\(h($0.fingerprint))\"><code>\(h($0.fingerprint))</code></a>" }.joined(separator: ", ") + "</p>"
        }
        if !comparison.goneFindings.isEmpty {
            out += "<p>Findings of the baseline not stored this time: " + comparison.goneFindings.map { "<code>\(h($0.fingerprint))</code>" }.joined(separator: ", ") + "</p>"
        }
        return out
    }

    // MARK: Pieces

    private static func h(_ text: String) -> String { Markup.html(text) }

    static func machineLine(_ machine: MachineInfo) -> String {
        "\(machine.hostname), \(machine.operatingSystem), \(machine.processorCount) CPU\(machine.processorCount == 1 ? "" : "s"), \(ReportFormat.bytes(machine.physicalMemoryBytes))"
    }

    private static func definitionList(_ items: [(String, String)]) -> String {
        "<dl class=\"facts\">" + items.map { "<dt>\(h($0.0))</dt><dd>\(h($0.1))</dd>" }.joined() + "</dl>"
    }

    /// The page around the sections.
    private struct Page {
        var title = ""
        var schema = ""
        var body: [String] = []

        mutating func add(_ fragment: String) { body.append(fragment) }

        var html: String {
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="layoutbench report html">
            <title>\(Markup.html(title))</title>
            <style>
            \(HTMLReport.style)
            </style>
            </head>
            <body>
            \(body.joined(separator: "\n"))
            <footer>Generated by <code>layoutbench report html</code> from a \(Markup.html(schema)) version \(ReportSchema.version) document.</footer>
            </body>
            </html>

            """
        }
    }

    static let style = """
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; background: #ffffff; max-width: 1180px; margin: 24px auto; padding: 0 16px; }
        h1 { font-size: 22px; margin: 0 0 12px; } h2 { font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #dddddd; padding-bottom: 4px; } h3 { font-size: 15px; margin: 12px 0 4px; }
        nav { margin: 12px 0; } nav a { color: #0b57a4; }
        dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 16px; margin: 0; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
        table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; font-size: 13px; }
        th, td { padding: 3px 7px; border-bottom: 1px solid #e3e3e3; text-align: right; vertical-align: top; white-space: nowrap; }
        th { background: #f5f5f5; font-weight: 600; } .text { text-align: left; }
        td.text { white-space: normal; }
        .muted { color: #8a8a8a; } .bad { color: #b3261e; } .good { color: #1e6b34; } .note { color: #666666; font-size: 12px; }
        tr.regression td, .regression.tag { background: #fde7e7; color: #a1120a; font-weight: 600; }
        tr.improvement td, .improvement.tag { background: #e3f4e8; color: #16632c; font-weight: 600; }
        .tag { padding: 2px 8px; border-radius: 4px; }
        .warning { background: #fff4d6; border-left: 4px solid #e0a800; padding: 6px 10px; }
        .rule { color: #444444; font-size: 13px; }
        code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 12.5px; } code { background: #f3f3f3; padding: 0 3px; border-radius: 3px; }
        pre { background: #f6f6f6; padding: 8px 10px; overflow-x: auto; } pre code { background: none; padding: 0; }
        article.finding { border: 1px solid #e3e3e3; border-radius: 6px; padding: 4px 14px; margin: 10px 0; } .detail { font-family: ui-monospace, Menlo, monospace; font-size: 12.5px; }
        figure { margin: 8px 0; } svg.plot { max-width: 100%; height: auto; font-family: system-ui, sans-serif; }
        svg .plot-title { font-size: 15px; font-weight: 600; fill: #1b1b1b; } svg .tick { font-size: 11px; fill: #444444; }
        svg .axis-label { font-size: 12px; fill: #333333; } svg .legend-label { font-size: 12.5px; fill: #1b1b1b; } svg .legend-detail { font-size: 11px; fill: #666666; }
        footer { margin-top: 32px; color: #8a8a8a; font-size: 12px; }
        @media print { body { max-width: none; margin: 0; } nav { display: none; } article.finding, figure, tr { break-inside: avoid; } a { color: inherit; text-decoration: none; } }
        """
}
