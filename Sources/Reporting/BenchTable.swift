import Foundation

/// The terminal table `bench` prints when a run ends: one row per (case, backend), percentiles,
/// iterations, the phases of a layout solve, and a noise flag.
///
/// A row is flagged when its timing cannot carry a comparison: fewer than
/// ``minimumSamples`` repetitions, or a spread (p90 − p50) above ``maximumSpread`` of the
/// median — as hyperfine warns about outliers before a user trusts its mean.
public enum BenchTable {
    /// Fewer repetitions than this and a row's percentiles are a handful of samples.
    public static let minimumSamples = 5
    /// A spread (p90 − p50) above this fraction of p50 marks a row as noisy.
    public static let maximumSpread = 0.25

    /// Why a row's timing is not to be trusted, or nil: `few samples (3)`, `spread 41%`.
    public static func noise(_ timing: TimingSummary) -> String? {
        if timing.samples < minimumSamples { return "few samples (\(timing.samples))" }
        guard timing.p50 > 0, timing.p50.isFinite, timing.p90.isFinite else { return nil }
        let spread = (timing.p90 - timing.p50) / timing.p50
        return spread > maximumSpread ? "spread \(Int((spread * 100).rounded()))%" : nil
    }

    /// The table, then a line with the row count, suite, wall time and peak memory, and a line
    /// explaining the noise flag when a row has it. With `color`, failed rows are red.
    public static func render(_ report: BenchReport, color: Bool = false) -> String {
        let outside = report.results.contains { $0.overhead != nil }
        let sequences = report.results.contains { $0.passes != nil }
        // Sequence passes report no phases: their columns would stay empty.
        let phased = report.results.contains { $0.phases != nil }
        // The apps suite: the reference's ambiguity and agreement with Xcode's frames.
        let screens = report.results.contains { $0.screen != nil }
        let header = ["family", "views", "backend", "status", "p50", "p90", "p99", "max", "iterations"]
            + (sequences ? ["passes"] : []) + (outside ? ["overhead p50"] : [])
            + (phased ? ["parse+lower", "solve", "levels", "ambiguity", "conflict"] : [])
            + (screens ? ["ambiguous", "IB frames"] : []) + ["noise"]
        // The apps suite's two fact columns are text, as are the first ones and the flag.
        let textColumns = [2, 3] + (screens ? [header.count - 3, header.count - 2] : [])
        var table = TextTable(header: header, rightAligned: Set(1..<(header.count - 1)).subtracting(textColumns))
        var flagged = 0
        for r in report.results {
            let t = r.timing
            let p = r.phases
            var row: [String] = [r.family, "\(r.views)", r.backend, r.status,
                                 t.map { time($0.p50) } ?? "-", t.map { time($0.p90) } ?? "-",
                                 t.map { time($0.p99) } ?? "-", t.map { time($0.maximum) } ?? "-",
                                 r.iterations.map(String.init) ?? "-"]
            if sequences { row.append(r.passes.map(String.init) ?? "-") }
            if outside { row.append(r.overhead.map { time($0.p50) } ?? "-") }
            if phased {
                row += [p.map { time($0.parse + $0.lowering) } ?? "-", p.map { time($0.solve) } ?? "-",
                        p.map { time($0.levels) } ?? "-", p.map { time($0.ambiguity) } ?? "-",
                        p.map { time($0.conflict) } ?? "-"]
            }
            if screens {
                row += [r.screen?.ambiguityText(detailed: false) ?? "-", r.screen?.agreementText(detailed: false) ?? "-"]
            }
            let noise = t.flatMap(Self.noise)
            if noise != nil { flagged += 1 }
            row.append(noise.map { "⚠ " + $0 } ?? "")
            table.add(row, tone: ["failed", "budgetExceeded"].contains(r.status) ? .bad : .plain)
        }
        var out = table.render(color: color)
        let peak = report.results.compactMap(\.peakResidentBytes).max() ?? 0
        out += "\(report.results.count) rows, suite \(report.suite), \(String(format: "%.1f", report.seconds)) s, peak resident \(peak / (1 << 20)) MiB"
        if flagged > 0 {
            out += "\n⚠ \(flagged) row\(flagged == 1 ? "" : "s") flagged: fewer than \(minimumSamples) samples or p90 − p50 above "
                + "\(Int(maximumSpread * 100))% of p50; rerun with more --repetitions or on a quieter machine before comparing them"
        }
        return out
    }

    /// One finished row as a line, for printing while the run goes on (the table comes at
    /// the end): `form n=100 exact: optimal, p50 1.2 ms, p90 1.3 ms`, its noise flag after it.
    /// With `color`, the status is green when optimal, red when failed or out of budget.
    public static func line(_ r: BenchResult, color: Bool = false) -> String {
        let tone: Tone = ["failed", "budgetExceeded"].contains(r.status) ? .bad : (r.status == "optimal" ? .good : .plain)
        var line = "\(r.family) n=\(r.size) \(r.backend): \(tone.wrap(r.status, color: color))"
        if let t = r.timing { line += ", p50 \(time(t.p50)), p90 \(time(t.p90))" }
        if let noise = r.timing.flatMap(Self.noise) { line += " ⚠ " + noise }
        return line
    }

    /// Nanoseconds in a readable unit.
    public static func time(_ nanoseconds: Double) -> String {
        ReportFormat.duration(nanoseconds: nanoseconds)
    }
}
