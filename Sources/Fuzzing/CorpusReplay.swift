import BackendContract
import ExactSimplex
import Foundation
import Generator
import LayoutModel

/// Re-solves corpus files with every backend that supports them and checks each result
/// against the file's expected result.
public struct CorpusReplay: Sendable {
    /// A case that cannot be replayed: its expected result is missing or checks nothing.
    public struct ReplayError: Error, CustomStringConvertible {
        public var description: String
    }

    /// One (file, backend) outcome.
    public struct Outcome: Sendable, Hashable {
        public enum Verdict: Sendable, Hashable {
            /// The result matches the expectation.
            case passed
            /// The backend does not support the system (the reason).
            case unsupported(String)
            /// The result differs (the differences).
            case failed([String])
            /// The file says this backend fails it (`# expect-fail:`), and it still does.
            case expectedFailure([String])
            /// The file says this backend fails it, but it passed: the bug may be fixed.
            case unexpectedPass
        }

        public var file: String
        public var backend: String
        public var verdict: Verdict
        public var statistics: SolveStatistics?
    }

    public var backends: [any LayoutBackend]
    public var budget: Budget
    /// Judges every result also against the spec through the exact reference (nil: compare
    /// with the expected result only).
    public var comparator: Comparator?

    public init(backends: [any LayoutBackend], comparator: Comparator? = nil, budget: Budget = Budget(wallTime: .seconds(60))) {
        self.backends = backends
        self.comparator = comparator
        self.budget = budget
    }

    /// Every `.layout` file under the paths (files are taken as given, folders recursively),
    /// sorted so that runs are comparable.
    public static func layoutFiles(under paths: [String]) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if !isDirectory.boolValue {
                files.append(path)
                continue
            }
            guard let walker = manager.enumerator(atPath: path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".layout") {
                files.append((path as NSString).appendingPathComponent(relative))
            }
        }
        return files.sorted()
    }

    /// `# oracle: NAME …` and the seed of `# case I: family F, size N, seed S` in a repro's header.
    static func oracleHeader(in text: String) -> (MetamorphicOracle, UInt64)? {
        var oracle: MetamorphicOracle?
        var seed: UInt64?
        for line in text.split(separator: "\n") where line.hasPrefix("#") {
            if line.hasPrefix("# oracle: ") {
                let name = line.dropFirst("# oracle: ".count).prefix { $0 != " " }
                oracle = MetamorphicOracle(rawValue: String(name))
            } else if line.hasPrefix("# case "), let range = line.range(of: "seed ") {
                seed = UInt64(line[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let oracle, let seed else { return nil }
        return (oracle, seed)
    }

    /// Replays one file: parses it (a parse error is thrown), then solves with each backend.
    public func replay(file: String) throws -> [Outcome] {
        let url = URL(fileURLWithPath: file)
        let text = try String(contentsOf: url, encoding: .utf8)
        if let sequence = try? LayoutParser.parseSequence(text, file: file), sequence.passCount > 1 {
            return replay(sequence, file: file, text: text)
        }
        let system = try LayoutParser.parse(text, file: file)
        let expectedURL = ExpectedResult.url(for: url)
        // A case without a usable expectation would pass whatever the backends answer.
        guard FileManager.default.fileExists(atPath: expectedURL.path) else {
            throw ReplayError(description: "\(file): no expected result (\(expectedURL.path) is missing)")
        }
        let expected: ExpectedResult
        do {
            expected = try ExpectedResult(contentsOf: expectedURL)
        } catch {
            throw ReplayError(description: "\(expectedURL.path): not an expected result (\(error))")
        }
        if let problem = expected.incompleteness(for: system) {
            throw ReplayError(description: "\(expectedURL.path): \(problem)")
        }
        let expectFail = FindingStore.expectedFailures(in: text)
        var outcomes: [BackendOutcome] = []
        var verdicts: [Outcome] = []
        for backend in backends {
            if case .unsupported(let reason) = backend.supports(system) {
                verdicts.append(Outcome(file: file, backend: backend.name, verdict: .unsupported(reason)))
                continue
            }
            var problems: [String] = []
            var statistics: SolveStatistics?
            do {
                let result = try backend.solve(system, budget: budget)
                statistics = result.statistics
                outcomes.append(BackendOutcome(backend: backend.name, result: .success(result)))
                problems = expected.mismatches(in: result.solution, of: system)
            } catch BackendError.unsupported(_, let reason) {
                // An outside solver that finds out only in its adapter.
                verdicts.append(Outcome(file: file, backend: backend.name, verdict: .unsupported(reason)))
                continue
            } catch {
                outcomes.append(BackendOutcome(backend: backend.name, result: .failure(BackendFailure(error))))
                problems = ["\(error)"]
            }
            verdicts.append(Outcome(file: file, backend: backend.name, verdict: problems.isEmpty ? .passed : .failed(problems), statistics: statistics))
        }
        // Backends allowed an ill-conditioned difference need the judge, even where the
        // replay otherwise compares with the expected result only.
        let illConditioned = FindingStore.expectedIllConditioned(in: text)
        var judgedWrong = Set<String>()
        let comparator = self.comparator ?? (illConditioned.isEmpty ? nil : Comparator(reference: ExactSimplexBackend(), backends: backends))
        if let comparator {
            if !outcomes.contains(where: { $0.backend == comparator.reference.name }), comparator.reference.supports(system).isSupported {
                let reference = comparator.reference
                outcomes.append(BackendOutcome(backend: reference.name, result: Result { try reference.solve(system, budget: budget) }.mapError { BackendFailure($0) }))
            }
            for finding in comparator.compare(system, outcomes: outcomes) {
                guard let culprit = finding.backends.first, let i = verdicts.firstIndex(where: { $0.backend == culprit }) else { continue }
                if finding.verdict != .illConditioned { judgedWrong.insert(culprit) }
                let problem = "\(finding.kind.rawValue)" + (finding.verdict == .wrong ? "" : " (\(finding.verdict.rawValue))")
                    + ": \(finding.detail)"
                switch verdicts[i].verdict {
                case .failed(let problems): verdicts[i].verdict = .failed(problems + [problem])
                case .passed: verdicts[i].verdict = .failed([problem])
                default: break
                }
            }
        }
        // A metamorphic repro names its oracle and case seed: re-apply it to every result.
        if let (oracle, seed) = Self.oracleHeader(in: text) {
            for outcome in outcomes {
                guard case .success(let result) = outcome.result, result.solution.status != .budgetExceeded,
                      let backend = backends.first(where: { $0.name == outcome.backend }),
                      let i = verdicts.firstIndex(where: { $0.backend == outcome.backend }) else { continue }
                var random = FuzzCampaign.oracleRandom(caseSeed: seed)
                let required = Set(system.constraints.indices.filter { system.constraints[$0].priority.isRequired })
                guard let transformed = oracle.apply(to: system, kept: required.subtracting(result.solution.broken), random: &random),
                      backend.supports(transformed.system).isSupported else { continue }
                let problem: String?
                do {
                    let after = try backend.solve(transformed.system, budget: budget)
                    problem = after.solution.status == .budgetExceeded ? nil
                        : transformed.violation(original: system, result.solution, transformed: after.solution, tolerance: comparator?.tolerance ?? Tolerance())
                } catch {
                    problem = "the transformed system failed: \(error)"
                }
                guard let problem else { continue }
                judgedWrong.insert(outcome.backend)
                let text = "metamorphic-violation (\(oracle.rawValue)): \(problem)"
                switch verdicts[i].verdict {
                case .failed(let problems): verdicts[i].verdict = .failed(problems + [text])
                case .passed: verdicts[i].verdict = .failed([text])
                default: break
                }
            }
        }
        // An answer whose every difference the judge explains by rounding passes (a crash is
        // a finding of its own, never ill-conditioned).
        for i in verdicts.indices where illConditioned.contains(verdicts[i].backend) && !judgedWrong.contains(verdicts[i].backend) {
            if case .failed = verdicts[i].verdict, outcomes.contains(where: { $0.backend == verdicts[i].backend && (try? $0.result.get()) != nil }) {
                verdicts[i].verdict = .passed
            }
        }
        for i in verdicts.indices where expectFail.contains(verdicts[i].backend) {
            switch verdicts[i].verdict {
            case .failed(let problems): verdicts[i].verdict = .expectedFailure(problems)
            case .passed: verdicts[i].verdict = .unexpectedPass
            default: break
            }
        }
        return verdicts
    }

    /// Replays an update sequence (a repro of `fuzz --sequences`): every backend answers every
    /// pass its own way, each pass is judged against the reference (the comparator's, else the
    /// exact backend: a sequence has no expected result beside it), and each backend's answers
    /// against its own answers to the passes alone (the from-scratch oracle).
    func replay(_ sequence: UpdateSequence, file: String, text: String) -> [Outcome] {
        let expectFail = FindingStore.expectedFailures(in: text)
        let comparator = self.comparator ?? Comparator(reference: ExactSimplexBackend(), backends: backends)
        var configuration = FuzzCampaign.Configuration(
            seed: 0, families: [], backends: backends, reference: comparator.reference, tolerance: comparator.tolerance)
        configuration.budget = budget
        var problems: [String: [String]] = [:]
        for finding in FuzzCampaign(configuration).judge(sequence) {
            guard let culprit = finding.backends.first else { continue }
            let what = finding.kind.rawValue + (finding.oracle.map { " (\($0))" } ?? "")
                + (finding.verdict == .wrong ? "" : " (\(finding.verdict.rawValue))")
            problems[culprit, default: []].append("\(finding.wherePhrase ?? "-"): \(what): \(finding.detail)")
        }
        var verdicts: [Outcome] = []
        for backend in backends {
            // A backend that supports no pass is unsupported; its failures on passes it
            // supports are the comparator's crash and budget findings.
            let unsupported = sequence.passSystems.compactMap { system -> String? in
                if case .unsupported(let reason) = backend.supports(system) { return reason } else { return nil }
            }
            if unsupported.count == sequence.passCount, let reason = unsupported.first {
                verdicts.append(Outcome(file: file, backend: backend.name, verdict: .unsupported(reason)))
                continue
            }
            let own = problems[backend.name] ?? []
            var verdict: Outcome.Verdict = own.isEmpty ? .passed : .failed(own)
            if expectFail.contains(backend.name) {
                switch verdict {
                case .failed(let problems): verdict = .expectedFailure(problems)
                case .passed: verdict = .unexpectedPass
                default: break
                }
            }
            verdicts.append(Outcome(file: file, backend: backend.name, verdict: verdict))
        }
        return verdicts
    }
}
