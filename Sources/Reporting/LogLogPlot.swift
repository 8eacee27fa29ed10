import Foundation

/// An inline SVG plot of solve time against size, both axes logarithmic, one series per
/// backend with its fitted power law.
///
/// Static markup only (no script), so it reads in any browser, in a mail client and on paper.
/// Every data point is a `<circle>` carrying `data-backend`, `data-size` and `data-p50`
/// attributes and a `<title>` tooltip, which lets scripts/check-html-render.sh find the points
/// in the markup and their colours in a screenshot.
struct LogLogPlot: Sendable {
    struct Point: Sendable, Hashable {
        var size: Double
        /// Nanoseconds.
        var p50: Double
        var p90: Double
        var tooltip: String
    }

    struct Series: Sendable, Hashable {
        var name: String
        /// A CSS colour, `#RRGGBB`.
        var color: String
        var points: [Point]
        var fit: GrowthFit?
    }

    var title: String
    var series: [Series]

    // Geometry, in SVG user units.
    static let width = 780.0
    static let height = 400.0
    static let left = 76.0
    static let right = 560.0
    static let top = 46.0
    static let bottom = 338.0

    /// Whether there is anything to draw.
    var isEmpty: Bool { series.allSatisfy { $0.points.isEmpty } }

    func svg(id: String) -> String {
        let points = series.flatMap(\.points)
        guard !points.isEmpty else { return "" }
        var sizes = points.map(\.size)
        var times = points.map(\.p50) + points.map(\.p90).filter { $0 > 0 && $0.isFinite }
        for s in series {
            guard let fit = s.fit, let lo = s.points.map(\.size).min(), let hi = s.points.map(\.size).max() else { continue }
            times += [fit.predictedTime(atSize: lo), fit.predictedTime(atSize: hi)].filter { $0 > 0 && $0.isFinite }
        }
        sizes = sizes.filter { $0 > 0 }
        let x = Axis(values: sizes, from: Self.left, to: Self.right)
        let y = Axis(values: times, from: Self.bottom, to: Self.top)

        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" \
            width="\(Int(Self.width))" height="\(Int(Self.height))" role="img" aria-labelledby="\(id)-title" class="plot">
            <title id="\(id)-title">\(Markup.html(title))</title>
            <rect x="0" y="0" width="\(Int(Self.width))" height="\(Int(Self.height))" fill="#ffffff"/>
            <text x="\(Self.left)" y="24" class="plot-title">\(Markup.html(title))</text>

            """
        out += grid(x: x, y: y)
        out += "<g class=\"series\">\n"
        for s in series where !s.points.isEmpty {
            out += "<g data-series=\"\(Markup.html(s.name))\">\n"
            if let fit = s.fit, let lo = s.points.map(\.size).min(), let hi = s.points.map(\.size).max(), hi > lo {
                let a = fit.predictedTime(atSize: lo), b = fit.predictedTime(atSize: hi)
                if a > 0, b > 0, a.isFinite, b.isFinite {
                    out += "<line x1=\"\(n(x.position(lo)))\" y1=\"\(n(y.position(a)))\" x2=\"\(n(x.position(hi)))\" y2=\"\(n(y.position(b)))\" "
                        + "stroke=\"\(s.color)\" stroke-width=\"2\" stroke-dasharray=\"7 4\" opacity=\"0.85\" class=\"fit\"/>\n"
                }
            }
            for point in s.points {
                let cx = n(x.position(point.size)), cy = n(y.position(point.p50))
                if point.p90 > point.p50, point.p90.isFinite {
                    out += "<line x1=\"\(cx)\" y1=\"\(cy)\" x2=\"\(cx)\" y2=\"\(n(y.position(point.p90)))\" stroke=\"\(s.color)\" stroke-width=\"1.5\" opacity=\"0.7\" class=\"whisker\"/>\n"
                }
                out += "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"4.5\" fill=\"\(s.color)\" stroke=\"#ffffff\" stroke-width=\"1\" "
                    + "data-backend=\"\(Markup.html(s.name))\" data-size=\"\(ReportFormat.fixed(point.size, decimals: 0))\" "
                    + "data-p50=\"\(ReportFormat.fixed(point.p50, decimals: 1))\" data-color=\"\(s.color)\">"
                    + "<title>\(Markup.html(point.tooltip))</title></circle>\n"
            }
            out += "</g>\n"
        }
        out += "</g>\n"
        out += legend()
        out += "</svg>"
        return out
    }

    private func grid(x: Axis, y: Axis) -> String {
        var out = "<g class=\"axes\">\n"
        for value in x.minorTicks {
            let px = n(x.position(value))
            out += "<line x1=\"\(px)\" y1=\"\(Self.top)\" x2=\"\(px)\" y2=\"\(Self.bottom)\" stroke=\"#eeeeee\"/>\n"
        }
        for value in y.minorTicks {
            let py = n(y.position(value))
            out += "<line x1=\"\(Self.left)\" y1=\"\(py)\" x2=\"\(Self.right)\" y2=\"\(py)\" stroke=\"#eeeeee\"/>\n"
        }
        for tick in x.ticks {
            let px = n(x.position(tick.value))
            let stroke = tick.mantissa == 1 ? "#cccccc" : "#e0e0e0"
            out += "<line x1=\"\(px)\" y1=\"\(Self.top)\" x2=\"\(px)\" y2=\"\(n(Self.bottom + 5))\" stroke=\"\(stroke)\"/>\n"
            out += "<text x=\"\(px)\" y=\"\(n(Self.bottom + 20))\" text-anchor=\"middle\" class=\"tick\">\(ReportFormat.sizeTick(mantissa: tick.mantissa, decade: tick.decade))</text>\n"
        }
        for tick in y.ticks {
            let py = y.position(tick.value)
            let stroke = tick.mantissa == 1 ? "#cccccc" : "#e0e0e0"
            out += "<line x1=\"\(n(Self.left - 5))\" y1=\"\(n(py))\" x2=\"\(Self.right)\" y2=\"\(n(py))\" stroke=\"\(stroke)\"/>\n"
            out += "<text x=\"\(n(Self.left - 9))\" y=\"\(n(py + 4))\" text-anchor=\"end\" class=\"tick\">\(ReportFormat.timeTick(mantissa: tick.mantissa, decade: tick.decade))</text>\n"
        }
        out += "<rect x=\"\(Self.left)\" y=\"\(Self.top)\" width=\"\(n(Self.right - Self.left))\" height=\"\(n(Self.bottom - Self.top))\" fill=\"none\" stroke=\"#555555\"/>\n"
        out += "<text x=\"\(n((Self.left + Self.right) / 2))\" y=\"\(n(Self.bottom + 44))\" text-anchor=\"middle\" class=\"axis-label\">size (log scale)</text>\n"
        let midY = n((Self.top + Self.bottom) / 2)
        out += "<text x=\"18\" y=\"\(midY)\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(midY))\" class=\"axis-label\">solve time, p50 (log scale)</text>\n"
        out += "</g>\n"
        return out
    }

    private func legend() -> String {
        var out = "<g class=\"legend\">\n"
        var y = Self.top + 8
        let x = Self.right + 22
        for s in series {
            let exponent = s.fit.map { ReportFormat.exponent($0.exponent) } ?? "no fit"
            out += "<circle cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"5\" fill=\"\(s.color)\"/>\n"
            out += "<line x1=\"\(n(x + 10))\" y1=\"\(n(y))\" x2=\"\(n(x + 28))\" y2=\"\(n(y))\" stroke=\"\(s.color)\" stroke-width=\"2\" stroke-dasharray=\"7 4\"/>\n"
            out += "<text x=\"\(n(x + 34))\" y=\"\(n(y + 4))\" class=\"legend-label\">\(Markup.html(s.name)): \(exponent)</text>\n"
            y += 18
            let detail: String
            if let fit = s.fit {
                detail = "r² \(ReportFormat.fixed(fit.rSquared, decimals: 3)), \(fit.pointCount) points"
            } else {
                detail = s.points.isEmpty ? "not timed" : "\(s.points.count) point\(s.points.count == 1 ? "" : "s"), one size"
            }
            out += "<text x=\"\(n(x + 34))\" y=\"\(n(y + 2))\" class=\"legend-detail\">\(Markup.html(detail))</text>\n"
            y += 24
        }
        out += "</g>\n"
        return out
    }

    /// A coordinate with one decimal: enough for the screen, and stable text for diffs.
    private func n(_ value: Double) -> String { ReportFormat.fixed(value, decimals: 1) }
}

/// One logarithmic axis: the data's range with a margin, so that no point sits on the frame,
/// mapped onto a pixel range; labelled at powers of ten, and also at 2× and 5× them when the
/// range spans too few decades for those alone to show the scale.
private struct Axis {
    /// log10 of the ends.
    var low: Double
    var high: Double
    var from: Double
    var to: Double

    struct Tick {
        var mantissa: Int
        var decade: Int
        var value: Double { Double(mantissa) * pow(10, Double(decade)) }
    }

    init(values: [Double], from: Double, to: Double) {
        // Clamped, so that a malformed document (1e300 ns) cannot ask for thousands of ticks.
        let logs = values.filter { $0 > 0 && $0.isFinite }.map { min(30, max(-30, log10($0))) }
        var lo = logs.min() ?? 0, hi = logs.max() ?? 1
        if hi - lo < 0.5 {
            // One size or one time: show half a decade either side, enough to read the scale.
            let middle = (lo + hi) / 2
            lo = middle - 0.5
            hi = middle + 0.5
        }
        let margin = (hi - lo) * 0.06
        self.low = lo - margin
        self.high = hi + margin
        self.from = from
        self.to = to
    }

    private func inRange(_ value: Double) -> Bool {
        let l = log10(value)
        return l >= low - 1e-9 && l <= high + 1e-9
    }

    private var decadeRange: ClosedRange<Int> {
        Int(low.rounded(.down))...max(Int(low.rounded(.down)), Int(high.rounded(.up)))
    }

    var ticks: [Tick] {
        let decades = decadeRange
        let ones = decades.map { Tick(mantissa: 1, decade: $0) }.filter { inRange($0.value) }
        if ones.count >= 3 {
            // Many decades: thin the labels so they do not collide.
            let stride = ones.count > 12 ? 2 : 1
            return ones.enumerated().filter { $0.offset % stride == 0 }.map(\.element)
        }
        return decades.flatMap { d in [1, 2, 5].map { Tick(mantissa: $0, decade: d) } }.filter { inRange($0.value) }
    }

    /// 2×, 3×, … 9× each decade, drawn faintly when there are few decades.
    var minorTicks: [Double] {
        let decades = decadeRange
        guard decades.count <= 7 else { return [] }
        return decades.flatMap { d in (2...9).map { Double($0) * pow(10, Double(d)) } }.filter(inRange)
    }

    func position(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return from }
        let t = (log10(value) - low) / (high - low)
        return from + (to - from) * min(max(t, -0.02), 1.02)
    }
}
