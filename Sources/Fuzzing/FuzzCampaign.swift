import BackendContract
import ExactArithmetic
import ExactSimplex
import Generator
import LayoutModel

/// A differential fuzzing campaign: case `i` is generated from the campaign seed and `i`
/// alone, solved by every backend that supports it, judged by the comparator and by one
/// metamorphic oracle, and every finding is reduced to a small repro.
///
/// Cases are independent and deterministic, so a campaign's findings do not depend on the
/// order (or the process) in which its cases run.
public struct FuzzCampaign: Sendable {
    public struct Configuration: Sendable {
        public var seed: UInt64
        public var families: [Family]
        /// Sizes (views) are drawn uniformly from this range.
        public var sizes: ClosedRange<Int>
        /// The backends under test (the reference may be among them).
        public var backends: [any LayoutBackend]
        /// The exact backend: the judge.
        public var reference: any LayoutBackend
        public var oracles: [MetamorphicOracle]
        public var budget: Budget
        public var tolerance: Tolerance
        /// Reduce findings (nil: keep them whole).
        public var reducer: Reducer?
        /// Every this many cases (by index), and on every case with a finding, the exact
        /// reference's determinacy is decided again by the min/max method (0: only on
        /// findings).
        public var redecisionInterval: Int = 4
        /// Called with a backend's name (and the oracle, when it solves a transformed system)
        /// just before it solves, so that an isolated worker can tell its parent what was
        /// running if it dies.
        public var willSolve: (@Sendable (String, MetamorphicOracle?) -> Void)?
        /// Sequence families (spec §7): when not empty, every case is an update sequence of
        /// one of them on a system of one of ``families`` (``SequenceCases``), not a system.
        public var sequenceFamilies: [SequenceFamily] = []
        /// With ``sequenceFamilies``: even case indices stay systems (judged with the
        /// oracles and reference checks), odd ones are update sequences (`fuzz --seeds`).
        public var alternatesSystemCases = false
        /// A sequence case's step count is drawn uniformly from 1 through this.
        public var maxSteps: Int = 16

        public init(
            seed: UInt64, families: [Family], sizes: ClosedRange<Int> = 1...10, backends: [any LayoutBackend],
            reference: any LayoutBackend, oracles: [MetamorphicOracle] = MetamorphicOracle.allCases,
            budget: Budget = Budget(iterations: 1_000_000, wallTime: .seconds(10)),
            tolerance: Tolerance = Tolerance(), reducer: Reducer? = Reducer()
        ) {
            self.seed = seed
            self.families = families
            self.sizes = sizes
            self.backends = backends
            self.reference = reference
            self.oracles = oracles
            self.budget = budget
            self.tolerance = tolerance
            self.reducer = reducer
        }
    }

    /// Which case an index stands for.
    public struct CaseSpec: Sendable, Hashable, Codable {
        public var index: UInt64
        public var family: String
        public var size: Int
        public var seed: UInt64
        public var oracle: MetamorphicOracle?
        /// For an update sequence: the base family whose system the steps change (``family``
        /// is then the sequence family) and the steps asked for. Nil for a system.
        public var base: String?
        public var steps: Int?

        /// Whether the case is an update sequence.
        public var isSequence: Bool { base != nil }
    }

    /// A finding with its repro.
    public struct Report: Sendable, Hashable, Codable {
        public var finding: Finding
        public var fingerprint: String
        public var caseSpec: CaseSpec
        public var originalViews: Int
        public var originalConstraints: Int
        /// The reduced system's canonical text (the whole system when not reduced).
        public var repro: String
        public var reducedViews: Int
        public var reducedConstraints: Int
        /// The reference's answer on the repro, when it has one.
        public var expected: ExpectedResult?
        /// What the oracle did, for metamorphic findings.
        public var transform: String?
        /// A standalone program in the culprit's own language and API (outside solvers),
        /// written beside the repro as `FINGERPRINT.SUFFIX`.
        public var reproducers: [ReproducerFile]?
        /// For an update sequence: steps and passes before and after reduction, and the pass
        /// of the repro at which the finding shows first (1-based).
        public var originalSteps: Int?
        public var reducedSteps: Int?
        public var reducedPasses: Int?
        public var reproPass: Int?
    }

    public let configuration: Configuration
    let comparator: Comparator

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        self.comparator = Comparator(
            reference: configuration.reference, tolerance: configuration.tolerance, backends: configuration.backends,
            referenceBudget: configuration.budget)
    }

    /// The case behind an index: family, size and seed come from the campaign seed and the
    /// index only (``SeededGenerator/caseSeed(campaign:index:)``).
    public func caseSpec(_ index: UInt64) -> CaseSpec {
        let seed = SeededGenerator.caseSeed(campaign: configuration.seed, index: index)
        if !configuration.sequenceFamilies.isEmpty && !(configuration.alternatesSystemCases && index % 2 == 0) {
            return sequenceCaseSpec(index, seed: seed)
        }
        var choice = SeededGenerator(seed: SplitMix64.mix(seed ^ 0x5eed_f00d))
        let family = configuration.families[choice.index(below: configuration.families.count)]
        let size = choice.int(in: configuration.sizes)
        let oracle = configuration.oracles.isEmpty ? nil : configuration.oracles[Int(index % UInt64(configuration.oracles.count))]
        return CaseSpec(index: index, family: family.name, size: size, seed: seed, oracle: oracle)
    }

    /// A finding before reduction, with the oracle's transform where there is one.
    public struct Occurrence: Sendable, Hashable, Codable {
        public var finding: Finding
        public var transform: String?

        public init(finding: Finding, transform: String?) {
            self.finding = finding
            self.transform = transform
        }
    }

    /// One case's system and the findings on it, not yet reduced.
    public struct CaseFindings: Sendable {
        public var spec: CaseSpec
        public var system: ConstraintSystem
        /// One finding per signature.
        public var findings: [Occurrence]
        /// The update sequence, for a sequence case (``system`` is then its first pass).
        public var sequence: UpdateSequence?
    }

    /// Generates and judges one case.
    public func judge(_ index: UInt64) -> CaseFindings {
        let spec = caseSpec(index)
        if spec.isSequence { return judgeSequenceCase(spec) }
        guard let family = configuration.families.first(where: { $0.name == spec.family }) else {
            return CaseFindings(spec: spec, system: ConstraintSystem(rootName: "root", frame: [.zero, .zero, .zero, .zero]), findings: [])
        }
        let system = generate(family: family, size: spec.size, seed: spec.seed).system
        var seen = Set<String>()
        var findings: [Occurrence] = []
        let redecide = configuration.redecisionInterval > 0 && index % UInt64(configuration.redecisionInterval) == 0
        for (finding, transform) in judge(system, oracle: spec.oracle, seed: spec.seed, redecide: redecide)
        where seen.insert(finding.signature).inserted {
            var finding = finding
            finding.seed = spec.seed
            finding.family = spec.family
            findings.append(Occurrence(finding: finding, transform: transform))
        }
        return CaseFindings(spec: spec, system: system, findings: findings)
    }

    /// Runs one case and returns its findings, each reduced.
    public func run(_ index: UInt64) -> [Report] {
        let found = judge(index)
        if let sequence = found.sequence {
            return found.findings.map { report($0.finding, sequence: sequence, spec: found.spec) }
        }
        return found.findings.map { report($0.finding, transform: $0.transform, system: found.system, spec: found.spec) }
    }

    /// Regenerates a case and packs one of its findings as a report (reduced unless `reduce`
    /// is false); nil when the case cannot be regenerated.
    public func report(_ occurrence: Occurrence, spec: CaseSpec, reduce: Bool = true) -> Report? {
        if spec.isSequence {
            guard let sequence = sequence(for: spec) else { return nil }
            return report(occurrence.finding, sequence: sequence, spec: spec, reduce: reduce)
        }
        guard let system = system(for: spec) else { return nil }
        return report(occurrence.finding, transform: occurrence.transform, system: system, spec: spec, reduce: reduce)
    }

    /// The system of a case, regenerated from its spec.
    public func system(for spec: CaseSpec) -> ConstraintSystem? {
        if spec.isSequence { return sequence(for: spec)?.initial }
        return configuration.families.first { $0.name == spec.family }.map { generate(family: $0, size: spec.size, seed: spec.seed).system }
    }

    /// Solves with every supporting backend and collects comparator, reference-check and
    /// oracle findings. `redecide` asks for the min/max re-decision of the reference's
    /// determinacy even when nothing else is found.
    func judge(_ system: ConstraintSystem, oracle: MetamorphicOracle?, seed: UInt64, redecide: Bool = false) -> [(finding: Finding, transform: String?)] {
        var outcomes: [BackendOutcome] = []
        var certificate: SolutionCertificate?
        var all = configuration.backends
        if !all.contains(where: { $0.name == configuration.reference.name }) { all.append(configuration.reference) }
        for backend in all where backend.supports(system).isSupported {
            if backend.name == configuration.reference.name, let exact = backend as? ExactSimplexBackend {
                let certified = solveCertified(exact, system)
                outcomes.append(certified.outcome)
                certificate = certified.certificate
            } else {
                outcomes.append(solve(backend, system))
            }
        }
        var compared = judgeOutcomes(system, outcomes)
        compared += referenceFindings(
            system, outcomes: outcomes, certificate: certificate, redecide: redecide || !compared.isEmpty, seed: seed)
        var findings = compared.map { ($0, String?.none) }
        guard let oracle else { return findings }
        for backend in configuration.backends {
            guard let outcome = outcomes.first(where: { $0.backend == backend.name }),
                  case .success(let original) = outcome.result, original.solution.status != .budgetExceeded,
                  oracleApplies(oracle, to: backend, result: original, system: system, outcomes: outcomes),
                  let violation = metamorphicViolation(oracle, backend: backend, system: system, original: original.solution, seed: seed,
                                                       reference: referenceSolution(outcomes))
            else { continue }
            var finding = violation.finding
            finding.conditioning = compared.first?.conditioning
            findings.append((finding, violation.transform))
        }
        return findings
    }

    /// The exact reference's outcome with its certificate.
    func solveCertified(_ exact: ExactSimplexBackend, _ system: ConstraintSystem) -> (outcome: BackendOutcome, certificate: SolutionCertificate?) {
        configuration.willSolve?(exact.name, nil)
        do {
            let (result, certificate) = try exact.solveCertified(system, budget: configuration.budget)
            return (BackendOutcome(backend: exact.name, result: .success(result)), certificate)
        } catch {
            return (BackendOutcome(backend: exact.name, result: .failure(BackendFailure(error))), nil)
        }
    }

    /// Findings against the exact reference itself (``ReferenceCheck``): its certificate on
    /// every case; its determinacy decided again, and a few determined unknowns checked on
    /// the independently written optimal face, when `redecide`.
    func referenceFindings(
        _ system: ConstraintSystem, outcomes: [BackendOutcome], certificate: SolutionCertificate?, redecide: Bool, seed: UInt64
    ) -> [Finding] {
        guard let exact = configuration.reference as? ExactSimplexBackend,
              let outcome = outcomes.first(where: { $0.backend == exact.name }),
              case .success(let result) = outcome.result, result.solution.status != .budgetExceeded
        else { return [] }
        let check = ReferenceCheck(exact: exact)
        var findings: [Finding] = []
        if let certificate { findings += check.certificateFindings(system, result.solution, certificate) }
        if redecide {
            configuration.willSolve?(exact.name, nil)
            findings += check.redecisionFindings(system, result.solution, budget: configuration.budget)
            if !findings.contains(where: { $0.kind == .ambiguityMismatch }) {
                findings += check.faceFindings(system, result.solution, seed: seed)
            }
        }
        return findings
    }

    /// The comparator for backends with the reference's semantics, the ``SemanticsJudge`` for
    /// those that declare others (outside solvers).
    func judgeOutcomes(_ system: ConstraintSystem, _ outcomes: [BackendOutcome]) -> [Finding] {
        let all = configuration.backends + [configuration.reference]
        func capabilities(_ name: String) -> BackendCapabilities {
            all.first { $0.name == name }?.capabilities ?? .reference
        }
        let own = outcomes.filter { $0.backend != configuration.reference.name && capabilities($0.backend) != .reference }
        var findings = comparator.compare(system, outcomes: outcomes.filter { o in !own.contains { $0.backend == o.backend } })
        guard !own.isEmpty else { return findings }
        let reference = referenceSolution(outcomes)
        let semantics = SemanticsJudge(comparator: comparator)
        for outcome in own {
            let declared = capabilities(outcome.backend)
            let found = semantics.judge(system, outcome, capabilities: declared, reference: reference)
            findings += classified(found, system: system, outcome: outcome, capabilities: declared, reference: reference)
        }
        return findings
    }

    /// The semantics judge's `wrong` findings about an outside solver, given their
    /// backward-error verdict as the comparator gives the built-in backends'
    /// (``BackwardErrorJudge``, at the solver's ``BackendContract/relativePrecision(of:)``).
    /// For a weighted solver only the classes whose meaning does not depend on the priority
    /// model are classified (an infeasible point, the broken list, the conflict), and
    /// `determined-mismatch`, which the semantics judge reports only at a point that attains
    /// the lexicographic optimum (so the lexicographic question is the one it asks). Its
    /// `suboptimal` (worse than its own weighted optimum) and `ambiguity-mismatch` findings
    /// stay `wrong`: no backward-error question about the weighted optimum is asked.
    /// Classifying can only turn `wrong` into `ill-conditioned` where a perturbation explains
    /// the point, never the other way.
    func classified(
        _ found: [Finding], system: ConstraintSystem, outcome: BackendOutcome, capabilities: BackendCapabilities, reference: Solution?
    ) -> [Finding] {
        guard let reference, case .success(let result) = outcome.result, !found.isEmpty else { return found }
        let modelFree: Set<Finding.Kind> = [.infeasiblePoint, .statusMismatch, .badConflict, .determinedMismatch]
        let verdicts = BackwardErrorJudge(system: system, rows: system.lowered(as: Rational.self),
                                          roundingUnit: capabilities.roundingUnit)
        let precision = comparator.precision(of: outcome.backend)
        return found.map { finding in
            guard finding.verdict == .wrong, !capabilities.isWeighted || modelFree.contains(finding.kind) else { return finding }
            return verdicts.classify(finding, answer: result.solution, reference: reference, precision: precision)
        }
    }

    func referenceSolution(_ outcomes: [BackendOutcome]) -> Solution? {
        guard let outcome = outcomes.first(where: { $0.backend == configuration.reference.name }),
              case .success(let result) = outcome.result, result.solution.status != .budgetExceeded
        else { return nil }
        return result.solution
    }

    /// Whether an oracle's relation binds a backend on this system. The built-in backends:
    /// always. A lexicographic backend that does not report ambiguity: where the reference
    /// finds every unknown determined (else its values may rightly differ). A weighted one:
    /// where its own weighted optimum is a single point, and never for relabelled priorities
    /// (weights change with the labels).
    func oracleApplies(
        _ oracle: MetamorphicOracle, to backend: any LayoutBackend, result: BackendResult, system: ConstraintSystem,
        outcomes: [BackendOutcome]
    ) -> Bool {
        let capabilities = backend.capabilities
        guard capabilities != .reference else { return true }
        guard let reference = referenceSolution(outcomes) else { return false }
        switch capabilities.priorities {
        case .lexicographic:
            return (result.reports ?? capabilities.reports).ambiguity || reference.ambiguous.isEmpty
        case .weighted(let mapping):
            guard oracle != .relabelPriorities else { return false }
            let semantics = SemanticsJudge(comparator: comparator)
            let weights = SemanticsJudge.weights(mapping, levels: system.optionalLevels)
            return (try? semantics.weightedOptimum(system, broken: reference.broken, weights: weights)?.get())?.ambiguous.isEmpty == true
        }
    }

    func solve(_ backend: any LayoutBackend, _ system: ConstraintSystem, oracle: MetamorphicOracle? = nil) -> BackendOutcome {
        configuration.willSolve?(backend.name, oracle)
        do {
            return BackendOutcome(backend: backend.name, result: .success(try backend.solve(system, budget: configuration.budget)))
        } catch {
            return BackendOutcome(backend: backend.name, result: .failure(BackendFailure(error)))
        }
    }

    /// The random stream an oracle draws from for a case: replaying a repro re-applies the
    /// oracle exactly as the campaign did.
    public static func oracleRandom(caseSeed seed: UInt64) -> SeededGenerator {
        SeededGenerator(seed: SplitMix64.mix(seed ^ 0x0ac1e))
    }

    /// Applies the oracle (its random choices seeded by the case) and checks the relation,
    /// comparing only values the reference's answer to the original (`reference`) finds
    /// determined.
    ///
    /// A violation by a floating-point backend is wrong when the comparator calls one of its
    /// two answers wrong against the reference's answer to the same system; otherwise both
    /// answers are explained by perturbations within its precision (or agree with the
    /// reference within the tolerance) and the violation is ill-conditioned.
    func metamorphicViolation(
        _ oracle: MetamorphicOracle, backend: any LayoutBackend, system: ConstraintSystem, original: Solution, seed: UInt64,
        reference: Solution?, measure: Bool = false
    ) -> (finding: Finding, transform: String)? {
        var random = Self.oracleRandom(caseSeed: seed)
        let required = Set(system.constraints.indices.filter { system.constraints[$0].priority.isRequired })
        guard let transformed = oracle.apply(to: system, kept: required.subtracting(original.broken), random: &random),
              backend.supports(transformed.system).isSupported
        else { return nil }
        let outcome = solve(backend, transformed.system, oracle: oracle)
        var finding: Finding
        switch outcome.result {
        case .failure(let failure):
            if failure.isUnsupported { return nil }
            finding = Finding(kind: .metamorphicViolation, backends: [backend.name],
                              detail: "the transformed system failed: \(failure.message)", oracle: oracle.rawValue)
        case .success(let result):
            if result.solution.status == .budgetExceeded { return nil }
            let tolerance = metamorphicTolerance(backend, system)
            guard let v = transformed.violation(original: system, original, transformed: result.solution, tolerance: tolerance,
                                                undetermined: Set(reference?.ambiguous ?? [])) else { return nil }
            finding = Finding(kind: .metamorphicViolation, backends: [backend.name], detail: v, oracle: oracle.rawValue)
            if comparator.precision(of: backend.name) != nil {
                finding = classifyViolation(finding, backend: backend.name,
                                            answers: [(system, original), (transformed.system, result.solution)], measure: measure)
            }
        }
        return (finding, transformed.description)
    }

    /// The tolerance two answers of one backend are compared with: the campaign's, widened
    /// for a backend that rounds its answers (whole pixels: each may be a unit off).
    func metamorphicTolerance(_ backend: any LayoutBackend, _ system: ConstraintSystem) -> Tolerance {
        var tolerance = configuration.tolerance
        if let unit = backend.capabilities.roundingUnit {
            tolerance.absolute = SemanticsJudge.rounded(tolerance.absolute, unit: 2 * unit, rows: system.lowered(as: Rational.self))
        }
        return tolerance
    }

    /// The verdict of a metamorphic violation: the worst verdict of the comparator's
    /// findings about the backend's answers to the original and the transformed system.
    /// `labels` name the answers in the verdict's note.
    func classifyViolation(
        _ violation: Finding, backend: String, answers: [(ConstraintSystem, Solution)], measure: Bool,
        labels: [String] = ["original", "transformed"]
    ) -> Finding {
        var finding = violation
        finding.verdict = .illConditioned
        var notes: [String] = []
        var largest: Double?
        for (k, (system, solution)) in answers.enumerated() {
            guard configuration.reference.supports(system).isSupported,
                  let reference = try? configuration.reference.solve(system, budget: configuration.budget),
                  reference.solution.status != .budgetExceeded
            else { continue }
            let outcomes = [
                BackendOutcome(backend: configuration.reference.name, result: .success(reference)),
                BackendOutcome(backend: backend, result: .success(BackendResult(solution: solution, statistics: SolveStatistics()))),
            ]
            for var f in judgeOutcomes(system, outcomes) where f.backends.first == backend {
                if measure, let precision = comparator.precision(of: backend) {
                    f = BackwardErrorJudge(system: system, rows: system.lowered(as: Rational.self),
                                           roundingUnit: configuration.backends.first { $0.name == backend }?.capabilities.roundingUnit)
                        .measured(f, answer: solution, reference: reference.solution, precision: precision)
                }
                if f.verdict == .semantics { finding.verdict = .semantics }
                if f.verdict == .wrong {
                    finding.verdict = .wrong
                    finding.verdictNote = "the \(labels.indices.contains(k) ? labels[k] : "answer \(k + 1)") answer is wrong: \(f.kind.rawValue): \(f.detail)"
                    return finding
                }
                notes.append(f.kind.rawValue)
                if let p = f.perturbation { largest = max(largest ?? 0, p) }
            }
        }
        finding.perturbation = largest
        finding.verdictNote = notes.isEmpty
            ? "both answers agree with the reference within the tolerance"
            : "both answers are explained by \(finding.verdict == .semantics ? "the solver's declared semantics or rounding" : "rounding") (\(notes.joined(separator: ", ")))"
        return finding
    }

    /// True when the system still shows a finding of the same class about the same backend,
    /// with the same verdict.
    func reproduces(_ finding: Finding, on system: ConstraintSystem, seed: UInt64) -> Bool {
        guard let culprit = finding.backends.first,
              let backend = (configuration.backends + [configuration.reference]).first(where: { $0.name == culprit }),
              backend.supports(system).isSupported
        else { return false }
        if finding.kind == .metamorphicViolation {
            // As in the campaign: only where the oracle binds the backend (a reduction must not
            // shrink a case into one where it does not, e.g. down to an unconstrained view).
            let outcomes = [solve(backend, system)]
                + (configuration.reference.supports(system).isSupported ? [solve(configuration.reference, system)] : [])
            guard let oracle = finding.oracle.flatMap(MetamorphicOracle.init(rawValue:)),
                  case .success(let original) = outcomes[0].result, original.solution.status != .budgetExceeded,
                  oracleApplies(oracle, to: backend, result: original, system: system, outcomes: outcomes)
            else { return false }
            return metamorphicViolation(oracle, backend: backend, system: system, original: original.solution, seed: seed,
                                        reference: referenceSolution(outcomes))?
                .finding.verdict == finding.verdict
        }
        if culprit == configuration.reference.name {
            return judge(system, oracle: nil, seed: seed, redecide: true).contains {
                $0.finding.kind == finding.kind && $0.finding.backends.first == culprit
            }
        }
        var outcomes = [solve(backend, system)]
        if configuration.reference.supports(system).isSupported {
            outcomes.append(solve(configuration.reference, system))
        }
        return judgeOutcomes(system, outcomes).contains {
            $0.kind == finding.kind && $0.backends.first == culprit && $0.verdict == finding.verdict
        }
    }

    /// The finding with what only a report needs, measured on the (unreduced) case: the
    /// case's conditioning and, for an ill-conditioned finding, the smallest perturbation
    /// found to explain it. Solves the case again with the finding's backend.
    public func measured(_ finding: Finding, system: ConstraintSystem, seed: UInt64) -> Finding {
        var finding = finding
        guard let (reference, judge) = referenceJudge(system) else { return finding }
        finding.conditioning = judge.conditioning(of: reference)
        guard finding.verdict == .illConditioned, let culprit = finding.backends.first,
              let backend = configuration.backends.first(where: { $0.name == culprit }),
              let precision = comparator.precision(of: culprit),
              case .success(let answer) = solve(backend, system).result, answer.solution.status != .budgetExceeded
        else { return finding }
        if finding.kind == .metamorphicViolation {
            if let oracle = finding.oracle.flatMap(MetamorphicOracle.init(rawValue:)),
               let again = metamorphicViolation(oracle, backend: backend, system: system, original: answer.solution,
                                                seed: seed, reference: reference, measure: true)?.finding {
                finding.perturbation = again.perturbation
                finding.verdictNote = again.verdictNote
            }
            return finding
        }
        let rounded = backend.capabilities.roundingUnit.map {
            BackwardErrorJudge(system: system, rows: system.lowered(as: Rational.self), roundingUnit: $0)
        } ?? judge
        return rounded.measured(finding, answer: answer.solution, reference: reference, precision: precision)
    }

    /// The reference's answer to a system and the backward-error judge of the system (nil
    /// when the reference has no answer).
    func referenceJudge(_ system: ConstraintSystem) -> (reference: Solution, judge: BackwardErrorJudge)? {
        guard configuration.reference.supports(system).isSupported,
              let reference = try? configuration.reference.solve(system, budget: configuration.budget),
              reference.solution.status != .budgetExceeded
        else { return nil }
        return (reference.solution, BackwardErrorJudge(system: system, rows: system.lowered(as: Rational.self)))
    }

    /// Reduces a finding (unless reduction is off) and packs it with its repro and expectation.
    /// With `reduce` false (a worker died reducing it), the whole case is the repro, and
    /// nothing is solved (the caller may be the parent of isolated workers, which never runs
    /// a backend).
    public func report(_ finding: Finding, transform: String?, system: ConstraintSystem, spec: CaseSpec, reduce: Bool = true) -> Report {
        let finding = reduce && finding.kind != .crash && finding.kind != .budget
            ? measured(finding, system: system, seed: spec.seed) : finding
        var repro = system
        // Budget findings depend on time; reducing them would chase noise.
        if reduce, let reducer = configuration.reducer, finding.kind != .budget {
            repro = reducer.reduce(system) { reproduces(finding, on: $0, seed: spec.seed) }.system
        }
        let text = repro.canonicalText
        var expected: ExpectedResult?
        if reduce, configuration.reference.supports(repro).isSupported,
           let result = try? configuration.reference.solve(repro, budget: configuration.budget),
           result.solution.status != .budgetExceeded {
            expected = ExpectedResult(solution: result.solution, of: repro)
        }
        var report = Report(
            finding: finding, fingerprint: finding.fingerprint(reducedText: text), caseSpec: spec,
            originalViews: system.viewCount, originalConstraints: system.constraints.count, repro: text,
            reducedViews: repro.viewCount, reducedConstraints: repro.constraints.count, expected: expected,
            transform: transform)
        if reduce, finding.verdict != .semantics, let culprit = finding.backends.first,
           let writer = configuration.backends.first(where: { $0.name == culprit }) as? any ReproducerWriting,
           let expectation = reproducerExpectation(repro, writer: writer, finding: finding) {
            report.reproducers = writer.reproducer(for: repro, expectation: expectation)
        }
        return report
    }

    /// The exact answer a reproducer checks against: the reference's broken list and the
    /// optimum of the solver's own objective (per level, or the one weighted sum).
    func reproducerExpectation(_ system: ConstraintSystem, writer: any LayoutBackend, finding: Finding) -> ReproducerExpectation? {
        guard configuration.reference.supports(system).isSupported,
              let result = try? configuration.reference.solve(system, budget: configuration.budget),
              result.solution.status != .budgetExceeded
        else { return nil }
        let rows = system.lowered(as: Rational.self)
        let bound = configuration.tolerance.bound(scale: Tolerance.scale(of: system, rows: rows))
        let reference = result.solution
        var objective = reference.exactObjective ?? reference.objective.map { "\($0)" }
        if case .weighted(let mapping) = writer.capabilities.priorities {
            let weights = SemanticsJudge.weights(mapping, levels: rows.levels)
            guard let optimum = try? SemanticsJudge(comparator: comparator).weightedOptimum(system, broken: reference.broken, weights: weights)?.get()
            else { return nil }
            objective = [optimum.value]
        }
        var what = "\(finding.kind.rawValue): \(finding.detail)"
        if let oracle = finding.oracle { what += " (metamorphic oracle \(oracle); the reproducer checks the reduced system itself)" }
        return ReproducerExpectation(broken: reference.broken, objective: objective, bound: bound, finding: what)
    }
}

extension ExpectedResult {
    /// The expectation a solution sets: frame components that are not determined are null
    /// (a relative x or y also when the parent's is not), and the conflict is not compared
    /// literally, since a system may have several irreducible conflicts.
    public init(solution: Solution, of system: ConstraintSystem) {
        let ambiguous = Set(solution.ambiguous)
        let frames: [[Double]] = system.frames(values: solution.values, global: false)
        var table: [String: [Double?]] = [:]
        for index in 1..<max(system.items.count, 1) {
            let parent = system.items[index].parent ?? 0
            table[system.items[index].name] = FrameComponent.allCases.map { component in
                var open = ambiguous.contains(Unknown(item: index, component: component))
                if parent != 0 && (component == .x || component == .y) {
                    open = open || ambiguous.contains(Unknown(item: parent, component: component))
                }
                return open ? nil : frames[index - 1][component.rawValue]
            }
        }
        self.init(
            status: solution.status, frames: table, objective: solution.objective,
            ambiguous: solution.ambiguous.map(system.unknownName), broken: solution.broken.map(system.constraintName),
            conflict: solution.conflict.map(system.constraintName))
        self.conflictIsUnique = false
    }
}
