import BackendContract
import Fuzzing
import Generator
import LayoutModel
import Testing
@testable import GuidedFuzzing

/// The judge the harness runs on each input: nothing fatal on correct backends, a planted
/// fault is fatal, a fatal finding becomes an ordinary reduced finding.
@Suite struct GuidedJudgeTests {
    static let nearPriorities = """
        root root 0 0 375 667
        view a
        a.left == root.left
        a.top == root.top
        a.height == 20
        a.width == 100 @999.9999
        a.width == 200 @999
        """

    /// The seeds the generator's families give (the generative fuzzer's ground, where the
    /// landed backends have no wrong finding) are judged as the harness judges them.
    @Test func correctBackendsGiveNothingFatalOnGeneratedSeeds() {
        let judge = GuidedJudge()
        for family in Families.all where family.name != "long-chain" {
            let bytes = GuidedCase(system: generate(family: family, size: 3, seed: 7).system).bytes
            let guided = GuidedCase(bytes: bytes)
            let fatal = judge.firstFatal(guided, seed: GuidedJudge.seed(of: bytes))
            #expect(fatal == nil, "\(family.name): \(fatal.map { "\($0.occurrence.finding.signature): \($0.occurrence.finding.detail)" } ?? "")")
        }
    }

    #if LAYOUTBENCH_FAULTS
    @Test func aPlantedFaultIsFatalAndReducesToAFinding() throws {
        let system = try LayoutParser.parse(Self.nearPriorities)
        let guided = GuidedCase(bytes: GuidedCase(system: system).bytes)
        let judge = GuidedJudge()
        #expect(judge.firstFatal(guided, seed: 1) == nil)
        let found = try #require(withFault(.floatMergesNearPriorities) { judge.firstFatal(guided, seed: 1) })
        #expect(found.occurrence.finding.backends.first == "float")
        let report = withFault(.floatMergesNearPriorities) { judge.report(found, caseIndex: 0, seed: 1, oracle: guided.oracle) }
        #expect(report.caseSpec.family == GuidedJudge.family)
        #expect(report.finding.verdict == .wrong)
        #expect(report.reducedConstraints <= system.constraints.count)
        #expect(FindingStore.reproText(report).contains("# expect-fail: float"))
    }

    /// The float backend's incremental path is judged too: a planted fault of that path
    /// (which a fresh solve of each pass cannot see) is fatal on a decoded sequence, and the
    /// finding is reduced as a sequence.
    @Test func theIncrementalPathIsJudged() throws {
        let judge = GuidedJudge()
        let exact = judge.campaign.configuration.reference
        var configuration = FuzzCampaign.Configuration(
            seed: 1, families: ["form", "centered", "equal-spacing"].compactMap(Families.named), sizes: 2...6,
            backends: [exact], reference: exact)
        configuration.sequenceFamilies = ["drag", "keyboard", "random-steps"].compactMap(SequenceFamilies.named)
        configuration.maxSteps = 12
        let generated = FuzzCampaign(configuration)
        let fault = PlantedFault.incrementalSuggestSkipsOptimize
        var caught: (GuidedCase, GuidedJudge.PassFinding)?
        for index in UInt64(0)..<200 where caught == nil {
            guard let sequence = generated.sequence(for: generated.caseSpec(index)) else { continue }
            let guided = GuidedCase(bytes: GuidedCase(sequence: sequence).bytes)
            guard guided.sequence.passCount > 1,
                  let found = withFault(fault, { judge.firstFatal(guided, seed: index) }) else { continue }
            caught = (guided, found)
        }
        let (guided, found) = try #require(caught, "the incremental fault was not caught in 200 decoded sequences")
        #expect(found.sequence != nil && found.occurrence.finding.backends.first == "float", "\(found.occurrence.finding)")
        #expect(found.occurrence.finding.pass != nil)
        #expect(judge.firstFatal(guided, seed: 1) == nil, "fatal without the fault")
        let report = withFault(fault) { judge.report(found, caseIndex: 0, seed: 1, oracle: nil) }
        #expect(report.caseSpec.family == GuidedJudge.family && report.caseSpec.isSequence)
        #expect(report.reducedPasses != nil && (report.reducedSteps ?? .max) <= guided.sequence.stepCount)
        #expect(FindingStore.reproText(report).contains("# update sequence from the coverage-guided fuzzer"))
    }
    #endif
}
