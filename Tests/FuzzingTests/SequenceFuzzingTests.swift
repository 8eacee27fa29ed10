import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import GaussianBackend
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// Update sequences as fuzz cases (`fuzz --sequences`): every pass of every backend judged
/// against the exact reference, the from-scratch oracle, and the sequence reducer.
@Suite struct SequenceFuzzingTests {
    static let exact = ExactSimplexBackend()

    /// `layoutbench fuzz --sequences all --backend exact,float` as the CLI configures it
    /// (default seed, base families, sizes and --max-steps).
    static func sequenceCampaign(reducer: Reducer? = nil, backends: [any LayoutBackend] = [exact, CassowaryBackend()]) -> FuzzCampaign {
        var configuration = FuzzCampaign.Configuration(
            seed: 1, families: Families.all.filter { $0.name != "long-chain" }, sizes: 1...10,
            backends: backends, reference: exact, reducer: reducer)
        configuration.sequenceFamilies = SequenceFamilies.all
        return FuzzCampaign(configuration)
    }

    /// The case spec of a sequence campaign depends on the index alone and names a sequence.
    @Test func sequenceCasesAreSequencesAndDeterministic() throws {
        let campaign = Self.sequenceCampaign()
        for index in UInt64(0)..<20 {
            let spec = campaign.caseSpec(index)
            #expect(spec.isSequence && spec.oracle == nil)
            #expect(SequenceFamilies.named(spec.family) != nil && spec.base.flatMap(Families.named) != nil)
            #expect(spec == Self.sequenceCampaign().caseSpec(index))
            if let sequence = campaign.sequence(for: spec) {
                #expect(sequence == campaign.sequence(for: spec))
            }
        }
        // A campaign of systems is unchanged: no sequence fields in its specs.
        let systems = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all, backends: [Self.exact], reference: Self.exact))
        let spec = systems.caseSpec(3)
        #expect(!spec.isSequence && spec.steps == nil)
        let json = String(decoding: try JSONEncoder().encode(spec), as: UTF8.self)
        #expect(!json.contains("base") && !json.contains("steps"))
    }

    /// Correct backends: no wrong finding on the first cases of the default sequence campaign,
    /// the from-scratch oracle included (exact, float and Gaussian, every pass).
    @Test func correctBackendsHaveNoWrongFindings() {
        let campaign = Self.sequenceCampaign(backends: [Self.exact, CassowaryBackend(), GaussianEliminationBackend()])
        for index in UInt64(0)..<60 {
            let found = campaign.judge(index)
            let wrong = found.findings.map(\.finding).filter { $0.verdict == .wrong }
            #expect(wrong.isEmpty, "case \(index) (\(found.spec.family) on \(found.spec.base ?? "-")): \(wrong.map { "\($0.signature) at \($0.wherePhrase ?? "-"): \($0.detail) — \($0.verdictNote ?? "")" })")
        }
    }

    /// A finding on a sequence names the pass and step where the backend first went wrong:
    /// a backend that breaks from the third pass on is caught there, and the reducer keeps
    /// three passes but none of the steps (the passes alone make it fail).
    @Test func findingsNameTheirPassAndReduceOverSteps() throws {
        let text = """
            root r 400 400
            view a
            a.left == r.left
            a.top == r.top
            a.height == 10
            w: a.width == 100
            layout
            set w constant 110
            layout
            set w constant 120
            layout
            set w constant 130
            layout
            set w constant 140
            """
        let sequence = try LayoutParser.parseSequence(text)
        let faulty = PassCountingBackend(base: Self.exact, wrongFromPass: 2)
        var configuration = FuzzCampaign.Configuration(seed: 1, families: [], backends: [faulty], reference: Self.exact)
        configuration.reducer = Reducer()
        let campaign = FuzzCampaign(configuration)
        let findings = campaign.judge(sequence)
        let finding = try #require(findings.first { $0.backends.first == faulty.name && $0.oracle == nil }, "\(findings)")
        #expect(finding.pass == 3 && finding.step == 2, "\(finding.wherePhrase ?? "-")")
        let spec = FuzzCampaign.CaseSpec(index: 0, family: "hand-written", size: 1, seed: 0, oracle: nil, base: "none", steps: 4)
        let report = campaign.report(finding, sequence: sequence, spec: spec)
        #expect(report.reducedSteps == 0 && report.reducedPasses == 3 && report.reproPass == 3, "\(report.repro)")
        #expect(report.originalSteps == 4)
        // The repro is a valid sequence whose text parses back to it.
        let repro = try LayoutParser.parseSequence(report.repro)
        #expect(repro.passCount == 3 && repro.stepCount == 0)
        #expect(FindingStore.reproText(report).contains("# first wrong: pass 3 (after 2 update steps)"))
    }

    /// `replay` runs a sequence file pass by pass, judged by the exact backend: a backend that
    /// goes wrong at pass 3 fails there, the float backend passes.
    @Test func replayJudgesEveryPassOfASequenceFile() throws {
        let text = "root r 400 400\nview a\na.left == r.left\na.top == r.top\na.height == 10\nw: a.width == 100\n"
            + "layout\nset w constant 110\nlayout\nset w constant 120\n"
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutbench-seq-\(UUID().uuidString).layout")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let faulty = PassCountingBackend(base: Self.exact, wrongFromPass: 2)
        let outcomes = try CorpusReplay(backends: [Self.exact, CassowaryBackend(), faulty]).replay(file: url.path)
        #expect(outcomes.count == 3)
        for outcome in outcomes {
            switch (outcome.backend, outcome.verdict) {
            case ("pass-counting", .failed(let problems)): #expect(problems.contains { $0.hasPrefix("pass 3") }, "\(problems)")
            case ("exact", .passed), ("float", .passed): break
            default: Issue.record("\(outcome.backend): \(outcome.verdict)")
            }
        }
    }

    /// The reducer drops steps and passes and shrinks the first system, and every candidate it
    /// tests is a valid sequence.
    @Test func reducerKeepsCandidatesValid() throws {
        let family = try #require(SequenceFamilies.named("random-steps"))
        let base = try #require(Families.named("form"))
        let generated = try #require(generateSequence(family: family, base: base, size: 6, steps: 20, seed: 11)).sequence
        // "Reproduces" while some step adds a constraint.
        func addsAConstraint(_ s: UpdateSequence) -> Bool {
            s.updates.joined().contains { if case .addConstraint = $0.action { return true } else { return false } }
        }
        try #require(addsAConstraint(generated))
        var tested = 0
        let outcome = Reducer().reduce(generated) { candidate in
            tested += 1
            #expect((try? UpdateSequence(initial: candidate.initial, updates: candidate.updates)) != nil)
            return addsAConstraint(candidate)
        }
        #expect(outcome.tests == tested)
        #expect(outcome.sequence.stepCount == 1 && outcome.sequence.passCount == 2, "\(outcome.sequence.canonicalText)")
        #expect(outcome.sequence.initial.constraints.count < generated.initial.constraints.count)
    }
}

/// The exact backend, with every pass from `wrongFromPass` on (0-based) answered with its
/// first determined value moved by 1: wrong along a sequence, right on each system alone.
struct PassCountingBackend: LayoutBackend {
    let base: ExactSimplexBackend
    let wrongFromPass: Int
    var name: String { "pass-counting" }
    var summary: String { "test backend" }
    func supports(_ system: ConstraintSystem) -> Support { base.supports(system) }
    func solve(_ system: ConstraintSystem, budget: Budget) throws(BackendError) -> BackendResult {
        try base.solve(system, budget: budget)
    }
    func solve(_ sequence: UpdateSequence, budget: Budget) -> SequenceResult {
        var result = base.solve(sequence, budget: budget)
        for pass in result.passes.indices where pass >= wrongFromPass {
            guard case .success(var answer) = result.passes[pass].result, answer.solution.values.count > 2 else { continue }
            answer.solution.values[2] += 1  // a.width
            answer.solution.exactValues = nil
            result.passes[pass].result = .success(answer)
        }
        return result
    }
}

#if LAYOUTBENCH_FAULTS
/// The float backend's three planted incremental faults (`PlantedFault`, debug builds only),
/// each caught by the default sequence campaign — `fuzz --sequences all` (seed 1, every
/// sequence family on every family but long-chain, sizes 1–10, up to 16 steps) — within a fixed
/// number of cases, and reduced to a repro of at most six steps that shows the fault and passes
/// without it. The case limit is well inside 60 seconds of a debug build on one loaded core
/// (about 15 cases a second). Figures are printed, not asserted.
@Suite struct PlantedIncrementalFaultTests {
    static let caseLimit: UInt64 = 300

    static func campaign() -> FuzzCampaign {
        SequenceFuzzingTests.sequenceCampaign(reducer: Reducer())
    }

    @Test(arguments: [PlantedFault.incrementalSuggestSkipsOptimize, .incrementalRollbackKeepsEntry, .incrementalRemovalKeepsErrorCost])
    func theDefaultSequenceCampaignCatchesAndReducesTheFault(_ fault: PlantedFault) throws {
        let campaign = Self.campaign()
        let start = ContinuousClock.now
        let caught: (FuzzCampaign.CaseFindings, Finding)? = withFault(fault) {
            for index in 0..<Self.caseLimit {
                let found = campaign.judge(index)
                if let finding = found.findings.map(\.finding).first(where: { $0.verdict == .wrong && $0.backends.first == "float" }) {
                    return (found, finding)
                }
            }
            return nil
        }
        let (found, finding) = try #require(caught, "\(fault.rawValue) was not caught in \(Self.caseLimit) sequence cases")
        let caughtAfter = ContinuousClock.now - start
        let sequence = try #require(found.sequence)
        let report = withFault(fault) { campaign.report(finding, sequence: sequence, spec: found.spec) }
        print("planted fault \(fault.rawValue): caught at case \(found.spec.index) (\(found.spec.family) on \(found.spec.base ?? "-")) after \(caughtAfter), \(finding.signature) at \(finding.wherePhrase ?? "-"); reduced \(report.originalSteps ?? 0) -> \(report.reducedSteps ?? 0) steps, \(report.originalConstraints) -> \(report.reducedConstraints) constraints in \(ContinuousClock.now - start - caughtAfter) (debug build):\n\(report.repro)")
        #expect(finding.pass != nil && finding.step != nil)
        #expect((report.reducedSteps ?? .max) <= 6, "\(report.repro)")
        // The repro still shows the fault, and not without it.
        let repro = try LayoutParser.parseSequence(report.repro)
        #expect(withFault(fault) { campaign.sameFinding(finding, on: repro) } != nil)
        #expect(campaign.sameFinding(finding, on: repro) == nil, "the repro fails without the fault: \(report.repro)")
    }
}
#endif

/// Exact and float agree on every pass (no `wrong` finding of the comparator, nor of the
/// from-scratch oracle where noted) of the shared examples and of thousands of generated
/// sequences.
@Suite struct SequenceAgreementTests {
    static func campaign() -> FuzzCampaign {
        let exact = ExactSimplexBackend()
        return FuzzCampaign(FuzzCampaign.Configuration(seed: 1, families: [], backends: [exact, CassowaryBackend()], reference: exact))
    }

    static func wrongFindings(_ sequence: UpdateSequence, fromScratch: Bool = true) -> [String] {
        campaign().judge(sequence, fromScratch: fromScratch).filter { $0.verdict == .wrong }.map {
            "\($0.signature) at \($0.wherePhrase ?? "-"): \($0.detail)"
        }
    }

    /// The shared spec's §7 example (`../shared/design/layout-format.md`), after a system that
    /// has the names it uses.
    @Test func sharedSpecExample() throws {
        let spec = try String(contentsOfFile: repositoryRoot + "/../shared/design/layout-format.md", encoding: .utf8)
        let section = try #require(spec.range(of: "## 7. Update sequences"))
        let blockStart = try #require(spec.range(of: "```\n", range: section.upperBound..<spec.endIndex))
        let blockEnd = try #require(spec.range(of: "```", range: blockStart.upperBound..<spec.endIndex))
        let example = String(spec[blockStart.upperBound..<blockEnd.lowerBound])
        let header = """
            root superview 375 667
            view card
            view badge in card
            card.left == superview.left + 20
            card.top == superview.top + 20
            card.width <= 300
            card.height == 200 @750
            badge.width == 20
            badge.height == 20 @750
            card.centerX == superview.centerX @250
            view title in card intrinsic 120 21
            named: title.top == card.top + 8
            title.leading == card.leading + 8

            """
        let sequence = try LayoutParser.parseSequence(header + example)
        #expect(sequence.passCount == 2)
        let wrong = Self.wrongFindings(sequence)
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// Every corpus file (`Corpora/`), alone and as the first system of generated steps of
    /// every sequence family (the from-scratch oracle on the files alone). Files that expect the float backend to fail (`# expect-fail:
    /// float`, known ill-conditioned cases, or `# expect-fail-incremental: float`) are left out.
    @Test func corpusFilesAsSequences() throws {
        let files = CorpusReplay.layoutFiles(under: [repositoryRoot + "/Corpora"])
        #expect(files.count >= 30)
        var sequences = 0
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            guard !FindingStore.expectedFailures(in: text).union(FindingStore.expectedIncrementalFailures(in: text)).contains("float")
            else { continue }
            let sequence = try LayoutParser.parseSequence(text, file: file)
            var all = [sequence]
            for (k, family) in SequenceFamilies.all.enumerated() {
                if let extended = extendSequence(family: family, initial: sequence.system(atPass: sequence.passCount - 1), steps: 6, seed: UInt64(k)) {
                    all.append(extended)
                }
            }
            for candidate in all {
                sequences += 1
                let wrong = Self.wrongFindings(candidate, fromScratch: candidate.passCount == 1)
                #expect(wrong.isEmpty, "\(file): \(candidate.canonicalText)\n\(wrong)")
            }
        }
        #expect(sequences >= 300)
    }

    /// 2,000 generated sequences: every sequence family on eight base families, 25 seeds each,
    /// 1 to 3 views, about 8 steps; every pass compared.
    @Test(arguments: SequenceFamilies.all.map(\.name))
    func generatedSequences(_ familyName: String) throws {
        let family = try #require(SequenceFamilies.named(familyName))
        let bases = ["form", "table-cells", "nested", "random", "conflict-early", "priority-ties", "equal-spacing", "hugging-contest"]
        var count = 0
        for base in bases {
            let baseFamily = try #require(Families.named(base))
            for seed in UInt64(0)..<25 {
                guard let generated = generateSequence(family: family, base: baseFamily, size: 1 + Int(seed % 3), steps: 8, seed: seed)
                else { continue }
                count += 1
                let wrong = Self.wrongFindings(generated.sequence, fromScratch: false)
                #expect(wrong.isEmpty, "\(generated.description): \(wrong)")
            }
        }
        #expect(count >= 180)
    }
}
