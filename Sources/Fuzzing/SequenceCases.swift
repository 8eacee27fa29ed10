import BackendContract
import ExactArithmetic
import Generator
import LayoutModel

/// Update sequences (spec §7) as fuzz cases.
///
/// A sequence case is a sequence family's steps on a generated system. Every backend answers
/// every pass through its own sequence path (``LayoutBackend/solve(_:budget:)-(UpdateSequence,_)``,
/// incremental for the float backend); the exact reference answers each pass from scratch.
/// Each pass is judged by the comparator like a system case, and a finding records the pass
/// (and the steps taken by then) at which the backend first went wrong that way. The
/// metamorphic oracle of a sequence case, `from-scratch`, asks each backend for every pass's
/// system alone and wants the same answer as its answer along the sequence (everything
/// equal: status, broken list, objective, determined values, ambiguity), at the first pass
/// where it differs. The reference checks of system cases (certificate, re-decision) are not
/// run on sequence cases: the reference solves each pass as it solves a system.
extension FuzzCampaign {
    /// The oracle name of sequence cases: a pass's incremental answer against the same
    /// backend's answer to the pass's system alone.
    public static let fromScratchOracle = "from-scratch"

    public static let fromScratchTransform = "the pass's system solved alone, from scratch, by the same backend"

    /// A sequence case: the sequence family, the base family, the size and the step count come
    /// from the case seed alone.
    func sequenceCaseSpec(_ index: UInt64, seed: UInt64) -> CaseSpec {
        var choice = SeededGenerator(seed: SplitMix64.mix(seed ^ 0x5e9_ca5e))
        let families = configuration.sequenceFamilies
        let family = families[choice.index(below: families.count)]
        let base = configuration.families[choice.index(below: configuration.families.count)]
        let size = choice.int(in: configuration.sizes)
        let steps = choice.int(in: 1...max(configuration.maxSteps, 1))
        return CaseSpec(index: index, family: family.name, size: size, seed: seed, oracle: nil,
                        base: family.base ?? base.name, steps: steps)
    }

    /// The update sequence of a sequence case, regenerated from its spec (nil when the spec
    /// names no sequence, or its base system cannot start one).
    public func sequence(for spec: CaseSpec) -> UpdateSequence? {
        guard let name = spec.base, let base = configuration.families.first(where: { $0.name == name }) ?? Families.named(name),
              let family = configuration.sequenceFamilies.first(where: { $0.name == spec.family }) ?? SequenceFamilies.named(spec.family)
        else { return nil }
        return generateSequence(family: family, base: base, size: spec.size, steps: spec.steps ?? 0, seed: spec.seed)?.sequence
    }

    func judgeSequenceCase(_ spec: CaseSpec) -> CaseFindings {
        guard let sequence = sequence(for: spec) else {
            return CaseFindings(spec: spec, system: ConstraintSystem(rootName: "root", frame: [.zero, .zero, .zero, .zero]), findings: [])
        }
        var seen = Set<String>()
        var findings: [Occurrence] = []
        for var finding in judge(sequence) where seen.insert(finding.signature).inserted {
            finding.seed = spec.seed
            finding.family = spec.family
            findings.append(Occurrence(finding: finding, transform: finding.oracle == nil ? nil : Self.fromScratchTransform))
        }
        return CaseFindings(spec: spec, system: sequence.initial, findings: findings, sequence: sequence)
    }

    /// Judges every pass of a sequence: the comparator's findings (when `comparing`) and the
    /// `from-scratch` oracle's (when `fromScratch`), each at the first pass it shows, one per
    /// signature. With `culprit`, only that backend (and the reference) solves.
    func judge(_ sequence: UpdateSequence, culprit: String? = nil, comparing: Bool = true, fromScratch: Bool = true) -> [Finding] {
        var systems: [ConstraintSystem] = []
        var stepsBefore: [Int] = []
        var taken = 0
        sequence.forEachPass { pass, system in
            if pass > 0 { taken += sequence.updates[pass - 1].count }
            systems.append(system)
            stepsBefore.append(taken)
        }
        let referenceName = configuration.reference.name
        configuration.willSolve?(referenceName, nil)
        let reference = configuration.reference.solve(sequence, budget: configuration.budget)
        var answers: [(backend: any LayoutBackend, result: SequenceResult)] = []
        for backend in configuration.backends where backend.name != referenceName && (culprit == nil || backend.name == culprit) {
            configuration.willSolve?(backend.name, nil)
            answers.append((backend, backend.solve(sequence, budget: configuration.budget)))
        }
        func located(_ finding: Finding, _ pass: Int) -> Finding {
            var finding = finding
            finding.pass = pass + 1
            finding.step = stepsBefore[pass]
            return finding
        }
        var findings: [Finding] = []
        var seen = Set<String>()
        if comparing {
            for pass in systems.indices {
                let outcomes = ([(referenceName, reference)] + answers.map { ($0.backend.name, $0.result) }).compactMap {
                    Self.outcome($0.0, $0.1.passes[pass])
                }
                for finding in judgeOutcomes(systems[pass], outcomes)
                where (culprit == nil || finding.backends.first == culprit) && seen.insert(finding.signature).inserted {
                    findings.append(located(finding, pass))
                }
            }
        }
        guard fromScratch else { return findings }
        for (backend, result) in answers {
            for pass in systems.indices {
                if let finding = fromScratchViolation(backend, systems[pass], result.passes[pass], reference: reference.passes[pass]) {
                    findings.append(located(finding, pass))
                    break
                }
            }
        }
        return findings
    }

    /// A pass's answer as the comparator takes it; nil for a pass the backend does not support.
    static func outcome(_ backend: String, _ pass: PassOutcome) -> BackendOutcome? {
        switch pass.result {
        case .success(let result): return BackendOutcome(backend: backend, result: .success(result))
        case .failure(.unsupported): return nil
        case .failure(let error): return BackendOutcome(backend: backend, result: .failure(BackendFailure("\(error)")))
        }
    }

    /// The `from-scratch` oracle on one pass: the backend's answer along the sequence against
    /// its answer to the pass's system alone. Its verdict is that of a metamorphic violation:
    /// wrong when the comparator calls either answer wrong against the reference.
    func fromScratchViolation(_ backend: any LayoutBackend, _ system: ConstraintSystem, _ along: PassOutcome, reference: PassOutcome) -> Finding? {
        guard case .success(let answer) = along.result, answer.solution.status != .budgetExceeded,
              backend.supports(system).isSupported,
              // The relation is "everything equal", as for renamed items: it binds where that one does.
              oracleApplies(.renameItems, to: backend, result: answer, system: system,
                            outcomes: Self.outcome(configuration.reference.name, reference).map { [$0] } ?? [])
        else { return nil }
        switch solve(backend, system).result {
        case .failure(let failure):
            return Finding(kind: .metamorphicViolation, backends: [backend.name],
                           detail: "the pass's system alone failed: \(failure.message)", oracle: Self.fromScratchOracle)
        case .success(let alone):
            if alone.solution.status == .budgetExceeded { return nil }
            let tolerance = metamorphicTolerance(backend, system)
            let identity = MetamorphicOracle.Transformed(
                oracle: .renameItems, system: system, originalIndex: system.constraints.indices.map { Optional($0) },
                frames: .identical, description: Self.fromScratchTransform)
            let undetermined: [Unknown]
            if case .success(let exact) = reference.result { undetermined = exact.solution.ambiguous } else { undetermined = [] }
            guard let difference = identity.violation(original: system, answer.solution, transformed: alone.solution, tolerance: tolerance,
                                                      undetermined: Set(undetermined))
            else { return nil }
            var finding = Finding(kind: .metamorphicViolation, backends: [backend.name],
                                  detail: "along the sequence vs the pass alone: \(difference)", oracle: Self.fromScratchOracle)
            if comparator.precision(of: backend.name) != nil {
                finding = classifyViolation(finding, backend: backend.name, answers: [(system, answer.solution), (system, alone.solution)],
                                            measure: false, labels: ["along-the-sequence", "from-scratch"])
            }
            return finding
        }
    }

    /// The first finding of a sequence of the same class about the same backend, with the same
    /// verdict and oracle, if there is one.
    func sameFinding(_ finding: Finding, on sequence: UpdateSequence) -> Finding? {
        guard let culprit = finding.backends.first else { return nil }
        let isOracle = finding.oracle == Self.fromScratchOracle
        return judge(sequence, culprit: culprit, comparing: !isOracle, fromScratch: isOracle).first {
            $0.kind == finding.kind && $0.backends.first == culprit && $0.verdict == finding.verdict && $0.oracle == finding.oracle
        }
    }

    /// Reduces a sequence finding (steps, passes, then the first system's constraints, items
    /// and numbers: ``Reducer/reduce(_:failingPass:reproduces:)``) and packs it with its repro.
    /// Crashes and budget findings are kept whole, as for systems.
    public func report(_ finding: Finding, sequence: UpdateSequence, spec: CaseSpec, reduce: Bool = true) -> Report {
        var finding = finding
        var repro = sequence
        var reproPass = finding.pass
        let reducible = reduce && finding.kind != .crash && finding.kind != .budget
        // The conditioning of the pass where it went wrong (the perturbation that explains an
        // ill-conditioned finding is not measured: it needs the answer along the sequence).
        if reducible, let pass = finding.pass, (1...sequence.passCount).contains(pass),
           let (reference, judge) = referenceJudge(sequence.system(atPass: pass - 1)) {
            finding.conditioning = judge.conditioning(of: reference)
        }
        if reducible, let reducer = configuration.reducer {
            repro = reducer.reduce(sequence, failingPass: finding.pass.map { $0 - 1 }) { sameFinding(finding, on: $0) != nil }.sequence
            reproPass = sameFinding(finding, on: repro)?.pass
        }
        let text = repro.canonicalText
        // A repro reduced to one pass is a system: it gets its expectation as one.
        var expected: ExpectedResult?
        if reduce, repro.passCount == 1, configuration.reference.supports(repro.initial).isSupported,
           let result = try? configuration.reference.solve(repro.initial, budget: configuration.budget),
           result.solution.status != .budgetExceeded {
            expected = ExpectedResult(solution: result.solution, of: repro.initial)
        }
        var report = Report(
            finding: finding, fingerprint: finding.fingerprint(reducedText: text), caseSpec: spec,
            originalViews: sequence.initial.viewCount, originalConstraints: sequence.initial.constraints.count, repro: text,
            reducedViews: repro.initial.viewCount, reducedConstraints: repro.initial.constraints.count, expected: expected,
            transform: finding.oracle == nil ? nil : Self.fromScratchTransform)
        report.originalSteps = sequence.stepCount
        report.reducedSteps = repro.stepCount
        report.reducedPasses = repro.passCount
        report.reproPass = reproPass
        return report
    }
}
