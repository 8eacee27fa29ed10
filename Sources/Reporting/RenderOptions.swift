/// Choices shared by the HTML and Markdown renderings.
public struct RenderOptions: Sendable, Hashable {
    /// Prepended to each finding's `repro` path in links: the path from the rendered file's
    /// folder to the JSON report's folder (`""` when they are the same, `"../run/"` …).
    /// The replay commands shown are not prefixed: they are run from the report's folder.
    public var reproPrefix: String
    /// The rule that flags regressions against a baseline.
    public var rule: RegressionRule
    /// For a fuzz report recorded in the history: its signatures' states (new, open, fixed,
    /// back), shown in a section of their own; empty shows none.
    public var findingHistory: [FindingHistoryNote] = []

    /// Options with links relative to the report's own folder and the standard rule by default.
    public init(reproPrefix: String = "", rule: RegressionRule = .standard) {
        self.reproPrefix = reproPrefix
        self.rule = rule
    }

    /// The `reproPrefix` for a rendering written to `outputDirectory` of a report read from
    /// `reportDirectory`: both absolute, standardised paths (no `.` or `..` components).
    /// Returns `""` when they are the same folder, otherwise a relative path ending in `/`.
    public static func reproPrefix(reportDirectory: String, outputDirectory: String) -> String {
        let from = outputDirectory.split(separator: "/").map(String.init)
        let to = reportDirectory.split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "" : parts.joined(separator: "/") + "/"
    }
}
