import BackendContract
import ExactSimplex
import Foundation
import GaussianBackend
import Generator
import LayoutModel
import Testing
@testable import Fuzzing

/// The fuzzer tests itself: each deliberately faulty backend is caught within a bounded
/// number of cases and reduced to a small repro that still shows the same finding.
@Suite struct FuzzerSelfTests {
    static let exact = ExactSimplexBackend()

    static func families(_ names: [String]) -> [Family] {
        names.compactMap(Families.named)
    }

    /// (fault, families likely to show it)
    static let faults: [(FaultyBackend.Fault, [String])] = [
        (.rtlSign, ["equal-widths-rtl", "form-rtl", "long-row-rtl", "grid-rtl"]),
        (.priorityOffByOne, ["hugging-contest", "weak-crowd", "random"]),
        (.droppedConstraint, ["equal-widths", "centered", "random"]),
        (.looseEpsilon, ["equal-widths", "table-cells"]),
        (.forgetfulRollback, ["conflict-early", "conflict-late", "random"]),
        (.brokenOrder, ["conflict-early", "conflict-late", "random"]),
    ]

    @Test(arguments: 0..<faults.count)
    func faultIsCaughtAndReduced(index: Int) throws {
        let (fault, familyNames) = Self.faults[index]
        let faulty = FaultyBackend(base: Self.exact, fault: fault)
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 7, families: Self.families(familyNames), sizes: 2...8, backends: [faulty],
            reference: Self.exact, oracles: [], reducer: Reducer()))
        var caught: (FuzzCampaign.CaseFindings, Finding)?
        for case_ in 0..<150 as Range<UInt64> {
            let found = campaign.judge(case_)
            if let finding = found.findings.map(\.finding).first(where: { $0.backends.first == faulty.name }) {
                caught = (found, finding)
                break
            }
        }
        let (found, finding) = try #require(caught, "\(fault.rawValue) was not caught in 150 cases")
        let report = campaign.report(finding, transform: nil, system: found.system, spec: found.spec)
        #expect(report.reducedConstraints <= 8, "\(fault.rawValue): reduced to \(report.reducedConstraints) constraints\n\(report.repro)")
        #expect(report.reducedConstraints <= report.originalConstraints)
        // The repro reads back and still fails the same way.
        let repro = try LayoutParser.parse(report.repro, file: "repro.layout")
        #expect(campaign.reproduces(finding, on: repro, seed: found.spec.seed), "\(fault.rawValue)\n\(report.repro)")
    }

    /// Correct backends give no findings, metamorphic oracles included.
    @Test func correctBackendsGiveNoFindings() {
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: 11, families: Families.all.filter { $0.name != "long-chain" }, sizes: 1...6,
            backends: [Self.exact, GaussianEliminationBackend()], reference: Self.exact, reducer: nil))
        for index in 0..<(3 * UInt64(MetamorphicOracle.allCases.count) * 4) {
            let found = campaign.judge(index)
            #expect(found.findings.isEmpty, "case \(index) (\(found.spec.family), oracle \(found.spec.oracle?.rawValue ?? "-")): \(found.findings.map(\.finding.detail))\n\(found.system.canonicalText)")
        }
    }

    /// Same seed, same cases and findings, whatever order the cases run in.
    @Test func casesDependOnSeedAndIndexOnly() {
        let configuration = FuzzCampaign.Configuration(
            seed: 3, families: Families.all, backends: [Self.exact], reference: Self.exact, reducer: nil)
        let a = FuzzCampaign(configuration), b = FuzzCampaign(configuration)
        let forward = (0..<20 as Range<UInt64>).map(a.caseSpec)
        let backward = (0..<20 as Range<UInt64>).reversed().map(b.caseSpec).reversed()
        #expect(forward == Array(backward))
        #expect(Set(forward.map(\.seed)).count == 20)
    }
}

@Suite struct ReducerTests {
    @Test func ddminFindsTheOneConstraintThatMatters() throws {
        let system = try LayoutParser.parse("""
            root r 100 100
            view a intrinsic 10 10
            view b in a
            view c
            a.left == r.left + 1
            key: b.width == 2 * a.width + 3.7 @750
            c.top == r.top + 2.5
            b.height == 7
            c.width == c.height
            """)
        let outcome = Reducer().reduce(system) { candidate in
            candidate.constraints.contains { $0.id == "key" }
        }
        #expect(outcome.system.constraints.count == 1)
        #expect(outcome.system.items.map(\.name) == ["r", "a", "b"])
        // Numbers simplified: multiplier 1, constant 0, required.
        #expect(outcome.system.canonicalText.hasSuffix("key: b.width == a.width\n"))
    }

    @Test func removingLeafItemsRenumbers() throws {
        let system = try LayoutParser.parse("root r 1 1\nview a\nview b\nview c in b\nc.width == b.width\na.width == 1\n")
        let smaller = system.removingLeafItem(1)
        #expect(smaller.items.map(\.name) == ["r", "b", "c"])
        #expect(smaller.items.map(\.parent) == [nil, 0, 1])
        #expect(smaller.constraints.map(smaller.constraintLine) == ["c.width == b.width"])
    }
}
