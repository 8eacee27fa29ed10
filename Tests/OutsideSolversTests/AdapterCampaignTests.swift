import BackendContract
import Foundation
@testable import Fuzzing
import Generator
import LayoutModel
@testable import OutsideSolvers
import Testing

/// Every shipped adapter on a small campaign of realistic layouts (what apps do), judged by
/// its own declared semantics: nothing crashes or runs out of time, a lexicographic solver
/// agrees with the exact backend, and a weighted one differs from it only where its
/// weighting explains the difference (`semantics` notes).
@Suite struct AdapterCampaignTests {
    static let families = ["equal-widths", "centered", "form", "table-cells", "nested", "grid", "long-row", "hugging-contest"]

    func smallCampaign(_ name: String) {
        let backend = Solvers.backend(name)
        let run = campaign([backend], families: Self.families, sizes: 1...5, seed: 15)
        var judged = 0
        for (index, system, finding) in findings(run, cases: 0..<30) {
            judged += 1
            let culprit = finding.backends.first ?? "-"
            #expect(culprit == name, "the exact backend itself: \(finding)")
            if finding.verdict == .semantics {
                #expect(backend.capabilities.isWeighted, "only a weighted solver earns semantics notes: \(finding)")
                continue
            }
            Issue.record("case \(index): \(finding.kind.rawValue): \(finding.detail)\n\(system.canonicalText)")
        }
        _ = judged
    }

    @Test(.enabled(if: Solvers.installed("kiwisolver"), "kiwisolver is not installed (scripts/install-outside-solvers.sh)"))
    func kiwisolver() { smallCampaign("kiwisolver") }

    @Test(.enabled(if: Solvers.installed("cassowary"), "cassowary is not installed (scripts/install-outside-solvers.sh)"))
    func cassowary() { smallCampaign("cassowary") }

    @Test(.enabled(if: Solvers.installed("z3"), "z3-solver is not installed (scripts/install-outside-solvers.sh)"))
    func z3() { smallCampaign("z3") }

    @Test(.enabled(if: Solvers.installed("highspy"), "highspy is not installed (scripts/install-outside-solvers.sh)"))
    func highspy() { smallCampaign("highspy") }

    @Test(.enabled(if: Solvers.installed("qsopt-ex"), "esolver (qsopt-ex) is not installed (scripts/install-outside-solvers.sh)"))
    func qsoptEx() { smallCampaign("qsopt-ex") }

    @Test(.enabled(if: Solvers.installed("glpk"), "glpsol (glpk-utils) is not installed (scripts/install-outside-solvers.sh)"))
    func glpk() { smallCampaign("glpk") }
}

/// z3 is a second exact reference: on the seed corpus and a few hundred generated cases it
/// must agree with the exact backend everywhere (status, broken list, objective, determined
/// values, ambiguity, conflicts); any disagreement is a finding with an exact verdict.
@Suite(.enabled(if: Solvers.installed("z3"), "z3-solver is not installed (scripts/install-outside-solvers.sh)"))
struct Z3AgreementTests {
    @Test func onTheSeedCorpus() throws {
        let z3 = Solvers.backend("z3")
        let run = campaign([z3], families: ["random"], oracles: [])
        let files = try FileManager.default.contentsOfDirectory(atPath: Repository.seeds.path).filter { $0.hasSuffix(".layout") }.sorted()
        try #require(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: Repository.seeds.appendingPathComponent(file), encoding: .utf8)
            let system = try LayoutParser.parse(text, file: file)
            let found = run.judge(system, oracle: nil, seed: 0).map(\.finding)
            #expect(found.isEmpty, "\(file): \(found.map { "\($0.kind.rawValue) \($0.backends): \($0.detail)" })")
        }
    }

    @Test func onGeneratedCases() {
        let z3 = Solvers.backend("z3")
        // Every family but the 10^4-view ones, with the oracles.
        let families = Families.all.map(\.name).filter { $0 != "long-chain" }
        let run = campaign([z3], families: families, sizes: 1...6, seed: 2024)
        for (index, _, finding) in findings(run, cases: 0..<240) {
            Issue.record("case \(index) (\(finding.family ?? "?")): \(finding.kind.rawValue) \(finding.backends): \(finding.detail)")
        }
    }
}
