import Foundation
import Fuzzing
import LayoutModel

/// The failures a corpus already records: every `.layout` file marked `# expect-fail: B` or
/// `# expect-ill-conditioned: B` (`docs/fuzzing.md`, "The regression corpus").
///
/// The guided fuzzer reads `Corpora/` as seeds, so without this it would stop at bugs that
/// are known and recorded (CI's minute found float's open incremental bug again and again).
/// A finding about backend B is *known* when an entry that expects B to fail is
///
/// - the very input judged (a seed, or a mutant that came back to it): the input's sequence,
///   as the byte form decodes it, equals the entry's sequence put through the byte form
///   (items renamed `root`, `v1`, …, IDs dropped); or
/// - the finding's reduced repro: the report's fingerprint is the entry's file name (how
///   ``FindingStore`` names it), or the repro through the byte form equals the entry's.
///
/// Anything else is new, and stays fatal.
public struct KnownFailures: Sendable {
    /// One recorded failure.
    public struct Entry: Sendable, Hashable {
        /// The corpus file.
        public var file: String
        /// The backends it expects to fail (or to answer within rounding).
        public var backends: Set<String>
        /// The file's name without `.layout`: the fingerprint it was stored under.
        public var fingerprint: String
        /// Its sequence after the byte form's trip, as canonical text.
        public var normalized: String
    }

    public private(set) var entries: [Entry] = []
    private var byNormalized: [String: [Int]] = [:]
    private var byFingerprint: [String: [Int]] = [:]

    /// No known failures.
    public init() {}

    /// The expected failures among the `.layout` files under `paths` (files or folders;
    /// missing paths are skipped). A marked file that does not parse is an error with its
    /// position: an expectation nobody can check must not silently excuse findings.
    public init(paths: [String]) throws {
        for file in CorpusReplay.layoutFiles(under: paths) {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw LayoutError(file: file, location: SourceLocation(line: 1, column: 1), kind: .syntax,
                                  message: "cannot read the corpus file (\(error.localizedDescription))")
            }
            let backends = FindingStore.expectedFailures(in: text)
                .union(FindingStore.expectedIllConditioned(in: text))
                .union(FindingStore.expectedIncrementalFailures(in: text))
            guard !backends.isEmpty else { continue }
            let sequence = try LayoutParser.parseSequence(text, file: file)
            let name = (file as NSString).lastPathComponent
            add(Entry(file: file, backends: backends, fingerprint: String(name.dropLast(".layout".count)),
                      normalized: Self.normalized(sequence)))
        }
    }

    /// Adds an entry (its indexes with it).
    public mutating func add(_ entry: Entry) {
        byNormalized[entry.normalized, default: []].append(entries.count)
        byFingerprint[entry.fingerprint, default: []].append(entries.count)
        entries.append(entry)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// A sequence as the byte form gives it back: what an input decodes to when it was written
    /// from this sequence, whatever its items were called.
    public static func normalized(_ sequence: UpdateSequence) -> String {
        GuidedCase(bytes: GuidedCase(sequence: sequence).bytes).sequence.canonicalText
    }

    /// The entry that records `finding` on the input `guided` itself, if any.
    public func entry(for finding: Finding, onInput guided: GuidedCase) -> Entry? {
        guard !entries.isEmpty, let culprit = finding.backends.first else { return nil }
        return first(byNormalized[guided.sequence.canonicalText], expecting: culprit)
    }

    /// The entry that records a reduced finding, if any (by fingerprint, then by repro).
    public func entry(for report: FuzzCampaign.Report) -> Entry? {
        guard !entries.isEmpty, let culprit = report.finding.backends.first else { return nil }
        if let entry = first(byFingerprint[report.fingerprint], expecting: culprit) { return entry }
        guard let repro = try? LayoutParser.parseSequence(report.repro) else { return nil }
        return first(byNormalized[Self.normalized(repro)], expecting: culprit)
    }

    private func first(_ indices: [Int]?, expecting backend: String) -> Entry? {
        indices?.lazy.map { entries[$0] }.first { $0.backends.contains(backend) }
    }
}
