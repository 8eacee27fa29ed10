#if LAYOUTBENCH_FAULTS
import BackendContract
import ExactSimplex
import FloatSimplex
import Foundation
import GaussianBackend
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// The fuzzer's self-tests with faults planted in the real backends (debug builds only):
/// the default campaign — `fuzz --backend all` with its default seed, families, sizes and
/// oracles — must call each fault's backend wrong within a fixed number of cases. Reported
/// figures (cases and time to catch) are printed, not asserted.
@Suite struct PlantedFaultTests {
    /// At most this many cases per fault.
    static let caseLimit: UInt64 = 300

    /// `layoutbench fuzz --backend all` as the CLI configures it, without reduction.
    static func defaultCampaign() -> FuzzCampaign {
        let exact = ExactSimplexBackend()
        return FuzzCampaign(FuzzCampaign.Configuration(
            seed: 1, families: Families.all.filter { $0.name != "long-chain" }, sizes: 1...10,
            backends: [exact, CassowaryBackend(), GaussianEliminationBackend()], reference: exact, reducer: nil))
    }

    /// The first case (and its wrong finding) that blames `backend`, with the fault planted.
    static func firstCatch(_ fault: PlantedFault?, backend: String, limit: UInt64) -> (UInt64, Finding)? {
        let campaign = defaultCampaign()
        return withFault(fault) {
            for index in 0..<limit {
                let found = campaign.judge(index)
                if let finding = found.findings.map(\.finding).first(where: { $0.verdict == .wrong && $0.backends.first == backend }) {
                    return (index, finding)
                }
            }
            return nil
        }
    }

    @Test(arguments: PlantedFault.campaignFaults.indices)
    func theDefaultCampaignCatchesThePlantedFault(index: Int) throws {
        let (fault, backend) = PlantedFault.campaignFaults[index]
        let start = ContinuousClock.now
        let caught = Self.firstCatch(fault, backend: backend, limit: Self.caseLimit)
        let (case_, finding) = try #require(caught, "\(fault.rawValue) was not caught in \(Self.caseLimit) cases")
        print("planted fault \(fault.rawValue): caught at case \(case_) after \(ContinuousClock.now - start) (debug build), \(finding.kind.rawValue): \(finding.verdictNote ?? finding.detail)")
    }

    /// The same campaign without a fault calls nothing wrong on the cases the faults need.
    @Test func withoutAFaultNothingIsWrong() {
        let campaign = Self.defaultCampaign()
        for index in 0..<UInt64(120) {
            let found = campaign.judge(index)
            let wrong = found.findings.map(\.finding).filter { $0.verdict == .wrong }
            #expect(wrong.isEmpty, "case \(index) (\(found.spec.family)): \(wrong.map { "\($0.signature): \($0.detail) — \($0.verdictNote ?? "")" })")
        }
    }
}
#endif
