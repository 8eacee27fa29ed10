/// What every rendering derives from a bench report, computed once and in one fixed order.
struct BenchAnalysis: Sendable {
    let report: BenchReport
    /// The report's backends in run order, then any backend only the results name, sorted.
    let backends: [String]
    /// Families, sorted; the apps suite's screens (one layout each) are in ``screens`` instead.
    let families: [String]
    /// `bench --suite apps`: the screen, app and total rows, one line per family.
    let screens: AppScreenTable?
    /// Rows per family, in ``BenchOrder``.
    let rowsByFamily: [String: [BenchResult]]
    /// Statuses present: the known ones in order of merit, then others sorted.
    let statuses: [String]

    static let knownStatuses = ["optimal", "unsatisfiable", "unsupported", "budgetExceeded", "failed"]

    /// Series colours (Okabe–Ito, without the yellow that vanishes on white, then two more):
    /// told apart by most colour-blind readers and in greyscale print by their dashes' order.
    static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B", "#7F7F7F"]

    init(_ report: BenchReport) {
        self.report = report
        var seen = Set<String>()
        var backends: [String] = []
        for name in report.backends where seen.insert(name).inserted { backends.append(name) }
        for name in Set(report.results.map(\.backend)).subtracting(seen).sorted() { backends.append(name) }
        self.backends = backends
        let grouped = Dictionary(grouping: report.results, by: \.family)
        let screenFamilies = Set(report.results.filter { $0.screen?.screens == 1 }.map(\.family))
        families = grouped.keys.filter { !screenFamilies.contains($0) }.sorted()
        rowsByFamily = grouped.mapValues { $0.sorted(by: BenchOrder.precedes) }
        let present = Set(report.results.map(\.status))
        statuses = Self.knownStatuses.filter(present.contains) + present.subtracting(Self.knownStatuses).sorted()
        screens = AppScreenTable(report, backends: backends)
    }

    func rows(family: String) -> [BenchResult] { rowsByFamily[family] ?? [] }

    /// The backend's colour: its position among the report's backends picks it, so a backend
    /// keeps its colour across every plot of the page.
    func color(backend: String) -> String {
        let index = backends.firstIndex(of: backend) ?? 0
        return Self.palette[index % Self.palette.count]
    }

    /// Rows that have a usable median time.
    func timedRows(family: String, backend: String) -> [BenchResult] {
        rows(family: family).filter { row in
            guard row.backend == backend, let t = row.timing else { return false }
            return t.p50 > 0 && t.p50.isFinite && row.size > 0
        }
    }

    /// The power law of the backend's median time in this family, when it has two sizes.
    func fit(family: String, backend: String) -> GrowthFit? {
        GrowthFit(points: timedRows(family: family, backend: backend).compactMap { row in
            row.timing.map { (Double(row.size), $0.p50) }
        })
    }

    /// How many rows of each status the backend has.
    func statusCounts(backend: String, family: String? = nil) -> [String: Int] {
        let rows = family.map { self.rows(family: $0) } ?? report.results
        var counts: [String: Int] = [:]
        for row in rows where row.backend == backend { counts[row.status, default: 0] += 1 }
        return counts
    }

    /// Rows of the family that were not timed, for the note under its plot.
    func untimedRows(family: String) -> [BenchResult] {
        rows(family: family).filter { row in
            guard let t = row.timing else { return true }
            return !(t.p50 > 0 && t.p50.isFinite && row.size > 0)
        }
    }

    /// The plot of one family.
    func plot(family: String) -> LogLogPlot {
        let series = backends.map { backend -> LogLogPlot.Series in
            let rows = timedRows(family: family, backend: backend)
            let points = rows.compactMap { row -> LogLogPlot.Point? in
                guard let t = row.timing else { return nil }
                let tooltip = "\(backend) — \(family) size \(row.size) (seed \(row.seed), \(row.constraints) constraints): "
                    + "p50 \(ReportFormat.duration(nanoseconds: t.p50)), p90 \(ReportFormat.duration(nanoseconds: t.p90)), "
                    + "\(t.samples) sample\(t.samples == 1 ? "" : "s")"
                return LogLogPlot.Point(size: Double(row.size), p50: t.p50, p90: t.p90, tooltip: tooltip)
            }
            return LogLogPlot.Series(name: backend, color: color(backend: backend), points: points, fit: fit(family: family, backend: backend))
        }.filter { !$0.points.isEmpty }
        return LogLogPlot(title: "\(family) — time vs size (log-log)", series: series)
    }
}

/// The apps suite's table: one line per screen (an IB layout root), app and total, in the
/// report's order (each app's screens, then the app, then the total), with each backend's
/// median solve time and the reference's facts (ambiguity, agreement with Xcode's frames).
/// Markdown and HTML render the same cells.
struct AppScreenTable: Sendable {
    struct Line: Sendable {
        var family: String
        /// An app's or the total row (bold in renderings).
        var isSummary: Bool
        var views: Int
        var constraints: Int
        /// Per backend of the table: p50, with the status when it is not `optimal`.
        var times: [String]
        var ambiguity: String
        var agreement: String
    }

    let backends: [String]
    let lines: [Line]
    /// The reference backend the facts come from.
    let reference: String

    init?(_ report: BenchReport, backends: [String]) {
        var order: [String] = []
        var rows: [String: [BenchResult]] = [:]
        for row in report.results where row.screen != nil {
            if rows[row.family] == nil { order.append(row.family) }
            rows[row.family, default: []].append(row)
        }
        guard let first = order.first, let facts = rows[first]?.first?.screen else { return nil }
        self.backends = backends
        reference = facts.reference
        lines = order.map { family in
            let familyRows = rows[family] ?? []
            let facts = familyRows[0].screen!
            let times = backends.map { backend -> String in
                guard let row = familyRows.first(where: { $0.backend == backend }) else { return ReportFormat.missing }
                let time = row.timing.map { ReportFormat.duration(nanoseconds: $0.p50) }
                if row.status == "optimal" { return time ?? ReportFormat.missing }
                return row.status + (time.map { " " + $0 } ?? "")
            }
            return Line(family: family, isSummary: facts.screens != 1, views: familyRows[0].views,
                        constraints: familyRows[0].constraints, times: times,
                        ambiguity: facts.ambiguityText(), agreement: facts.agreementText())
        }
    }

    /// The column headings.
    var headings: [String] {
        ["screen", "views", "constraints"] + backends.map { "\($0) p50" } + ["ambiguous (\(reference))", "IB frames (\(reference))"]
    }

    func cells(_ line: Line) -> [String] {
        [line.family, String(line.views), String(line.constraints)] + line.times + [line.ambiguity, line.agreement]
    }

    /// One sentence on what the columns mean.
    var legend: String {
        "One line per screen (a layout root of an Interface Builder file, `app:APP/FILE#ROOT`), per app and in total. "
            + "Times are each backend's median solve; the last two columns are what the reference backend (\(reference)) finds: "
            + "views with an ambiguous unknown, and whether its frames, rounded as the Xcode that saved the file rounds them, "
            + "equal the frames Xcode stored (docs/interface-builder.md) — not compared where Xcode marks a view misplaced or "
            + "ambiguous, or where the file is stale. App and total lines count screens."
    }
}
