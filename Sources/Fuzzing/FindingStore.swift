import Foundation
import LayoutModel

/// Writes findings to a folder, one set of files per fingerprint, each file atomically
/// (a temporary file renamed over the target), so a killed run never leaves half a file.
///
/// For a fingerprint F: `F.layout` (the reduced repro with a header), `F.expected.json`
/// (the reference's answer, when it has one) and `F.finding.json` (everything known about
/// the finding, for machines).
public struct FindingStore: Sendable {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes a report unless its fingerprint is already stored from a case of a lower
    /// index (so that what is kept does not depend on the order cases finish in); true when
    /// it was written.
    @discardableResult
    public func store(_ report: FuzzCampaign.Report) throws -> Bool {
        let base = directory.appendingPathComponent(report.fingerprint)
        let layout = base.appendingPathExtension("layout")
        if FileManager.default.fileExists(atPath: layout.path) {
            let stored = try? JSONDecoder().decode(
                FuzzCampaign.Report.self, from: Data(contentsOf: base.appendingPathExtension("finding.json")))
            if let stored, stored.caseSpec.index <= report.caseSpec.index { return false }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        if let expected = report.expected {
            try Self.atomicWrite(try encoder.encode(expected), to: base.appendingPathExtension("expected.json"))
        }
        try Self.atomicWrite(try encoder.encode(report), to: base.appendingPathExtension("finding.json"))
        for file in report.reproducers ?? [] {
            let url = base.appendingPathExtension(file.suffix)
            try Self.atomicWrite(Data(file.contents.utf8), to: url)
            if file.executable { chmod(url.path, 0o755) }
        }
        // The repro goes last: its presence marks the set complete.
        try Self.atomicWrite(Data(Self.reproText(report).utf8), to: layout)
        return true
    }

    /// Removes the stored findings `keep` rejects (their three files).
    public func prune(keeping keep: (FuzzCampaign.Report) -> Bool) throws {
        for report in try reports() where !keep(report) {
            let base = directory.appendingPathComponent(report.fingerprint)
            for suffix in Self.fileSuffixes(of: report) {
                try? FileManager.default.removeItem(at: base.appendingPathExtension(suffix))
            }
        }
    }

    /// Every report stored in the folder.
    public func reports() throws -> [FuzzCampaign.Report] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".finding.json") }.sorted()
        return try names.map {
            try JSONDecoder().decode(FuzzCampaign.Report.self, from: Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }

    /// The repro file: a header that says what fails and how to get the case back, then the
    /// reduced system. `date` is added for regression-corpus copies.
    public static func reproText(_ report: FuzzCampaign.Report, date: String? = nil) -> String {
        let f = report.finding
        let spec = report.caseSpec
        var lines = ["# layoutbench finding: \(f.kind.rawValue) (\(f.backends.joined(separator: " vs ")))"]
        lines.append("# detail: " + f.detail.replacingOccurrences(of: "\n", with: " "))
        if let oracle = f.oracle { lines.append("# oracle: \(oracle)" + (report.transform.map { " — \($0)" } ?? "")) }
        lines.append("# case \(spec.index): family \(spec.family), size \(spec.size), seed \(spec.seed)")
        if let base = spec.base {
            // An update sequence: the sequence family's steps on a system of the base family.
            if spec.family == "guided" {
                lines.append("# update sequence from the coverage-guided fuzzer, judged along it: the seed is the FNV-1a hash of its input (scripts/fuzz-guided.sh)")
            } else {
                lines.append("# sequence: \(spec.family) on \(base), size \(spec.size), \(spec.steps ?? 0) steps asked, seed \(spec.seed) (generateSequence)")
            }
            if spec.family.hasPrefix("seed-updates:") {
                lines.append("# regenerate: layoutbench generate --seeds SEEDS_DIR --family \(spec.family) --size \(spec.size) --seed \(spec.seed) --steps \(spec.steps ?? 0)")
            }
            if let at = f.wherePhrase { lines.append("# first wrong: \(at) of the case" + (report.reproPass.map { "; pass \($0) of this repro" } ?? "")) }
            lines.append("# original: \(report.originalSteps ?? 0) steps, \(report.originalViews) views, \(report.originalConstraints) constraints; reduced: \(report.reducedSteps ?? 0) steps in \(report.reducedPasses ?? 1) passes, \(report.reducedViews) views, \(report.reducedConstraints) constraints")
        } else {
            if spec.family == "guided" {
                lines.append("# from the coverage-guided fuzzer: the seed is the FNV-1a hash of its input (scripts/fuzz-guided.sh)")
            } else {
                // A seed family (`fuzz --seeds`) is regenerated from the campaign's seeds folder.
                let seeds = spec.family.hasPrefix("seed:") ? "--seeds SEEDS_DIR " : ""
                lines.append("# regenerate: layoutbench generate \(seeds)--family \(spec.family) --size \(spec.size) --seed \(spec.seed)")
            }
            lines.append("# original: \(report.originalViews) views, \(report.originalConstraints) constraints; reduced: \(report.reducedViews) views, \(report.reducedConstraints) constraints")
        }
        if let date { lines.append("# found: \(date)") }
        if let culprit = f.backends.first { lines.append("# expect-fail: \(culprit)") }
        lines.append("# verdict: \(f.verdict.rawValue)")
        for file in report.reproducers ?? [] where file.executable {
            lines.append("# reproducer: \(report.fingerprint).\(file.suffix) (the solver alone, in its own API)")
        }
        return lines.joined(separator: "\n") + "\n" + report.repro
    }

    /// Copies a report into a regression corpus folder (`Corpora/regressions`), dated.
    public static func addToCorpus(_ report: FuzzCampaign.Report, directory: URL, date: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let base = directory.appendingPathComponent(report.fingerprint)
        if let expected = report.expected {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try atomicWrite(try encoder.encode(expected), to: base.appendingPathExtension("expected.json"))
        }
        try atomicWrite(Data(reproText(report, date: date).utf8), to: base.appendingPathExtension("layout"))
    }

    /// The suffixes of the files a finding may have (`FINGERPRINT.SUFFIX`).
    public static func fileSuffixes(of report: FuzzCampaign.Report) -> [String] {
        ["layout", "expected.json", "finding.json"] + (report.reproducers ?? []).map(\.suffix)
    }

    /// Removes the temporary files of ``atomicWrite(_:to:)`` that a killed process left in
    /// `directory` (and its subfolders): those whose writer is no longer running.
    public static func removeStaleTemporaries(in directory: URL) {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return }
        for case let url as URL in walker {
            let name = url.lastPathComponent
            guard name.hasPrefix("."), name.hasSuffix(".tmp") else { continue }
            let parts = name.dropLast(".tmp".count).split(separator: ".")
            guard let pid = parts.last.flatMap({ pid_t($0) }), pid > 0 else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// Writes through a temporary file in the same folder and renames it over the target.
    public static func atomicWrite(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        try data.write(to: temporary)
        if rename(temporary.path, url.path) != 0 {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": code])
        }
    }

    /// The backends a corpus file expects to fail (`# expect-fail: a, b` lines).
    public static func expectedFailures(in text: String) -> Set<String> {
        backends(in: text, header: "# expect-fail:")
    }

    /// The backends a corpus file expects to fail on their incremental path only
    /// (`# expect-fail-incremental: a, b` lines): a one-shot solve of the file passes, but
    /// the file run as the first pass of an update sequence (or with steps after it) still
    /// meets the bug. `replay` holds the one-shot solve to the expected result as usual.
    public static func expectedIncrementalFailures(in text: String) -> Set<String> {
        backends(in: text, header: "# expect-fail-incremental:")
    }

    /// The backends whose answers to a corpus file may differ from its expected result
    /// where the judge explains the difference by rounding (`# expect-ill-conditioned: a, b`
    /// lines): a near-conflict below a backend's precision, say. They must still answer,
    /// and the judge must call no difference wrong.
    public static func expectedIllConditioned(in text: String) -> Set<String> {
        backends(in: text, header: "# expect-ill-conditioned:")
    }

    private static func backends(in text: String, header: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix(header) {
            for name in line.dropFirst(header.count).split(separator: ",") {
                names.insert(name.trimmingCharacters(in: .whitespaces))
            }
        }
        return names
    }
}
