import Foundation
import Reporting

/// `history html`: one self-contained page (inline CSS and SVG; no script, no fetched
/// asset) with, per machine and suite, a plot per family of each backend's p50 across runs
/// with its p90 band and the detected steps marked; the findings timeline (new, back, fixed
/// per fuzz run); and the open findings with their replay commands.
public enum TrendPage {
    /// The page for everything in `history`.
    public static func render(_ history: HistoryDatabase, detector: StepDetector = StepDetector(), fixedAfter: Int = 3) throws(HistoryError) -> String {
        var sections: [String] = []
        let groups = try history.benchGroups()
        for group in groups {
            let series = try history.benchSeries(hostname: group.hostname, suite: group.suite)
            let steps = detector.steps(in: series, machine: group.hostname, suite: group.suite)
            sections.append(benchSection(group: group, series: series, steps: steps))
        }
        if groups.isEmpty { sections.append("<h2>Benchmarks</h2><p>No bench run recorded.</p>") }
        let timeline = FindingTimeline(observations: try history.fuzzObservations(), fixedAfter: fixedAfter)
        sections.append(findingsSection(timeline))
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>LayoutBench history</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
            h1, h2, h3 { font-weight: 600; } h3 { margin-bottom: 0.2em; }
            table { border-collapse: collapse; margin: 0.5em 0 1.5em; } td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid #ddd; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            code { font-size: 12px; background: #f4f4f4; padding: 1px 3px; }
            .legend span { display: inline-block; margin-right: 1.2em; } .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
            .bar { display: inline-block; height: 10px; vertical-align: middle; }
            svg { background: #fff; border: 1px solid #e4e4e4; }
            </style></head><body>
            <h1>LayoutBench history</h1>
            <p>\(Markup.html(history.path)) — generated \(Timestamp.string(Date()))</p>
            \(sections.joined(separator: "\n"))
            </body></html>

            """
    }

    /// Writes the page atomically (temp file, then rename).
    public static func write(_ page: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(page.utf8).write(to: url, options: .atomic)
    }

    static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]

    static func benchSection(group: (hostname: String, suite: String, runs: Int, latest: String), series: [BenchSeries], steps: [SeriesStep]) -> String {
        let backends = Array(Set(series.map(\.backend))).sorted()
        let color = { (backend: String) in palette[(backends.firstIndex(of: backend) ?? 0) % palette.count] }
        let runs = Array(Set(series.flatMap { $0.points.map { RunKey(id: $0.runID, createdAt: $0.createdAt) } })).sorted()
        var out = "<h2>Benchmarks: suite \(Markup.html(group.suite)) on \(Markup.html(group.hostname))</h2>\n"
        out += "<p>\(group.runs) runs, the latest \(Markup.html(group.latest)). Lines: p50 per (size, backend); band: p50 to p90; "
        out += "▲ a detected step (the first run after it). Time axis logarithmic.</p>\n"
        out += "<p class=\"legend\">" + backends.map { "<span><i class=\"swatch\" style=\"background:\(color($0))\"></i>\(Markup.html($0))</span>" }.joined() + "</p>\n"
        if !steps.isEmpty {
            out += "<table><tr><th>first run after</th><th>family</th><th>size</th><th>backend</th><th>change</th><th>p50 before → after</th></tr>\n"
            for step in steps {
                out += "<tr><td>\(Markup.html(step.run))</td><td>\(Markup.html(step.family))</td><td class=\"n\">\(step.size)</td><td>\(Markup.html(step.backend))</td>"
                out += "<td class=\"n\">\(String(format: "%+.1f%%", (step.ratio - 1) * 100))</td><td class=\"n\">\(duration(step.before)) → \(duration(step.after))</td></tr>\n"
            }
            out += "</table>\n"
        } else {
            out += "<p>No step detected.</p>\n"
        }
        for family in Array(Set(series.map(\.family))).sorted() {
            let members = series.filter { $0.family == family }
            out += "<h3>\(Markup.html(family))</h3>\n" + plot(members, runs: runs, steps: steps.filter { $0.family == family }, color: color)
        }
        return out
    }

    struct RunKey: Hashable, Comparable {
        var id: Int64
        var createdAt: String
        static func < (a: RunKey, b: RunKey) -> Bool { (a.createdAt, a.id) < (b.createdAt, b.id) }
    }

    /// One family's plot: x is the run (in time order), y the logarithm of the time.
    static func plot(_ series: [BenchSeries], runs: [RunKey], steps: [SeriesStep], color: (String) -> String) -> String {
        let width = 900.0, height = 260.0, left = 70.0, right = 60.0, top = 12.0, bottom = 34.0
        let values = series.flatMap { $0.points.flatMap { [$0.p50, $0.p90] } }.filter { $0 > 0 }
        guard let low = values.min(), let high = values.max(), !runs.isEmpty else { return "<p>No timings.</p>" }
        let (logLow, logHigh) = (floor(log10(low)), max(ceil(log10(high)), floor(log10(low)) + 1))
        let index = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1.id, $0) })
        let x = { (run: Int64) in left + (runs.count == 1 ? 0.5 : Double(index[run] ?? 0) / Double(runs.count - 1)) * (width - left - right) }
        let y = { (value: Double) in top + (logHigh - log10(max(value, 1e-300))) / (logHigh - logLow) * (height - top - bottom) }
        var svg = "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\">\n"
        for decade in Int(logLow)...Int(logHigh) {
            let level = y(pow(10, Double(decade)))
            svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(f(level))\" y2=\"\(f(level))\" stroke=\"#e6e6e6\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(f(level + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"#666\">\(duration(pow(10, Double(decade))))</text>\n"
        }
        let labelEvery = max(1, runs.count / 8)
        for (position, run) in runs.enumerated() where position % labelEvery == 0 {
            svg += "<text x=\"\(f(x(run.id)))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\" font-size=\"10\" fill=\"#666\">\(Markup.html(String(run.createdAt.prefix(10))))</text>\n"
        }
        for member in series {
            let stroke = color(member.backend)
            let upper = member.points.map { "\(f(x($0.runID))),\(f(y($0.p90)))" }
            let lower = member.points.reversed().map { "\(f(x($0.runID))),\(f(y($0.p50)))" }
            svg += "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"\(stroke)\" fill-opacity=\"0.12\" stroke=\"none\"/>\n"
            let line = member.points.map { "\(f(x($0.runID))),\(f(y($0.p50)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(line)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"1.5\"><title>\(Markup.html("\(member.family) \(member.size) \(member.backend)"))</title></polyline>\n"
            if let last = member.points.last {
                svg += "<text x=\"\(f(x(last.runID) + 4))\" y=\"\(f(y(last.p50) + 4))\" font-size=\"10\" fill=\"\(stroke)\">\(member.size)</text>\n"
            }
            for point in member.points {
                svg += "<circle cx=\"\(f(x(point.runID)))\" cy=\"\(f(y(point.p50)))\" r=\"2\" fill=\"\(stroke)\" data-backend=\"\(Markup.html(member.backend))\" data-p50=\"\(point.p50)\" data-color=\"\(stroke)\"/>"
            }
            svg += "\n"
        }
        for step in steps {
            guard let member = series.first(where: { $0.size == step.size && $0.backend == step.backend && $0.seed == step.seed }),
                  let point = member.points.first(where: { $0.runID == step.runID }) else { continue }
            let (px, py) = (x(point.runID), y(point.p50))
            svg += "<line x1=\"\(f(px))\" x2=\"\(f(px))\" y1=\"\(top)\" y2=\"\(height - bottom)\" stroke=\"#000\" stroke-dasharray=\"4 3\" stroke-opacity=\"0.5\"/>"
            svg += "<path d=\"M \(f(px)) \(f(py - 9)) l -6 10 h 12 z\" fill=\"#000\"><title>\(Markup.html(String(format: "step %+.1f%%", (step.ratio - 1) * 100)))</title></path>"
            svg += "<text x=\"\(f(px + 8))\" y=\"\(f(py - 10))\" font-size=\"11\" font-weight=\"bold\">\(Markup.html(String(format: "%+.0f%% ", (step.ratio - 1) * 100) + "\(step.backend) \(step.size)"))</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func findingsSection(_ timeline: FindingTimeline) -> String {
        var out = "<h2>Findings</h2>\n"
        guard !timeline.runs.isEmpty else { return out + "<p>No fuzz run recorded.</p>\n" }
        out += "<p>Per fuzz run: signatures new, back (seen again after fixed), fixed (not seen in the last \(timeline.fixedAfter) runs that covered them) and open after it.</p>\n"
        out += "<table><tr><th>run</th><th>new</th><th>back</th><th>fixed</th><th>open</th><th></th></tr>\n"
        var open: Set<String> = []
        for run in timeline.runs {
            for (signature, state) in run.states { if state == .fixed { open.remove(signature) } else { open.insert(signature) } }
            let (new, back, fixed) = (run.count(.new), run.count(.back), run.count(.fixed))
            out += "<tr><td>\(Markup.html(run.createdAt))</td><td class=\"n\">\(new)</td><td class=\"n\">\(back)</td><td class=\"n\">\(fixed)</td><td class=\"n\">\(open.count)</td><td>"
            out += bar(new, "#d62728") + bar(back, "#ff7f0e") + bar(fixed, "#2ca02c") + bar(open.count - new - back, "#bbbbbb") + "</td></tr>\n"
        }
        out += "</table>\n<h2>Open findings</h2>\n"
        let current = timeline.signatures.filter { $0.state != .fixed }
        if current.isEmpty { return out + "<p>None.</p>\n" }
        out += "<table><tr><th>state</th><th>signature</th><th>first seen</th><th>last seen</th><th>runs</th><th>replay</th></tr>\n"
        for entry in current {
            out += "<tr><td>\(entry.state.rawValue)</td><td>\(Markup.html(entry.signature))</td><td>\(Markup.html(entry.firstSeen))</td>"
            out += "<td>\(Markup.html(entry.lastSeen))</td><td class=\"n\">\(entry.runsSeen)</td><td><code>\(Markup.html(entry.replayCommand ?? "-"))</code></td></tr>\n"
        }
        return out + "</table>\n"
    }

    static func bar(_ count: Int, _ color: String) -> String {
        count > 0 ? "<i class=\"bar\" style=\"width:\(min(count, 60) * 6)px;background:\(color)\" title=\"\(count)\"></i>" : ""
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Nanoseconds in a readable unit.
    static func duration(_ ns: Double) -> String {
        if ns < 1_000 { return String(format: "%.0f ns", ns) }
        if ns < 1_000_000 { return String(format: "%.3g µs", ns / 1_000) }
        if ns < 1_000_000_000 { return String(format: "%.3g ms", ns / 1_000_000) }
        return String(format: "%.3g s", ns / 1_000_000_000)
    }
}
