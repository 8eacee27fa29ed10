import Fuzzing
import Generator
import LayoutModel

/// Turns libFuzzer's artefacts (the inputs it saved when the harness aborted) into the
/// findings `layoutbench fuzz` writes: each artefact is decoded, judged again in this
/// process, and every wrong finding on it is reduced by the project's reducer and packed
/// with its repro and the reference's expectation.
public struct ArtefactConversion: Sendable {
    public let judge: GuidedJudge
    /// Failures the corpus records: their findings are reported apart, not as new.
    public let known: KnownFailures

    public init(judge: GuidedJudge = GuidedJudge(), known: KnownFailures = KnownFailures()) {
        self.judge = judge
        self.known = known
    }

    /// One artefact's reduced wrong findings, new and known apart.
    public struct Converted: Sendable {
        public var new: [FuzzCampaign.Report] = []
        /// Findings an expected-failure entry of the corpus records, with the entry.
        public var known: [(report: FuzzCampaign.Report, entry: KnownFailures.Entry)] = []
    }

    /// The reduced findings of one artefact (`index` orders artefacts: the finding store keeps
    /// the lowest index per fingerprint). Empty when the artefact no longer shows a wrong
    /// finding (a hang or an out-of-memory artefact, or a fault not planted here).
    public func reports(of bytes: [UInt8], index: UInt64) -> Converted {
        let guided = GuidedCase(bytes: bytes)
        let seed = GuidedJudge.seed(of: bytes)
        var seen = Set<String>()
        var converted = Converted()
        for found in judge.findings(guided, seed: seed)
        where GuidedJudge.isFatal(found.occurrence.finding) && seen.insert(found.occurrence.finding.signature).inserted {
            let report = judge.report(found, caseIndex: index, seed: seed, oracle: guided.oracle)
            if let entry = known.entry(for: found.occurrence.finding, onInput: guided) ?? known.entry(for: report) {
                converted.known.append((report, entry))
            } else {
                converted.new.append(report)
            }
        }
        return converted
    }
}

/// Seeds for the guided fuzzer: systems in the byte form.
public enum GuidedSeeds {
    /// Every family (but `long-chain`, too long for the fuzzer's inputs) at a few sizes and
    /// seeds, as `(name, bytes)`, then ``fromSequenceFamilies(bases:steps:)``.
    public static func fromFamilies(sizes: [Int] = [2, 4, 8], seeds: ClosedRange<UInt64> = 1...2) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for family in Families.all where family.name != "long-chain" {
            for size in sizes {
                for seed in seeds {
                    let system = generate(family: family, size: size, seed: seed).system
                    out.append(("\(family.name)-n\(size)-s\(seed)", GuidedCase(system: system).bytes))
                }
            }
        }
        return out + fromSequenceFamilies()
    }

    /// Every sequence family (spec §7) on its own base family, or else on a few bases (a form, a
    /// hugging contest, an early conflict), 3 views, seed 1, as `(name, bytes)`: update steps
    /// for the fuzzer to mutate (the form keeps up to ``GuidedLimits/updatePasses`` passes of
    /// ``GuidedLimits/stepsPerPass`` steps), where the float backend's incremental path lives.
    public static func fromSequenceFamilies(bases: [String] = ["form", "hugging-contest", "conflict-early"], steps: Int = 12) -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for family in SequenceFamilies.all {
            for base in family.base.map({ [$0] }) ?? bases {
                guard let base = Families.named(base),
                      let generated = generateSequence(family: family, base: base, size: 3, steps: steps, seed: 1) else { continue }
                out.append(("\(family.name)-on-\(generated.base)", GuidedCase(sequence: generated.sequence).bytes))
            }
        }
        return out
    }

    /// The first `count` cases of the generative campaign `layoutbench fuzz --seed SEED
    /// --backend all` (every family but long-chain, 1–10 views), each with its oracle and
    /// re-decision as the campaign judges it: the generative fuzzer's inputs in this form, so
    /// that coverage of both fuzzers is measured by one harness.
    public static func fromCampaign(seed: UInt64, count: Int) -> [(String, [UInt8])] {
        let campaign = FuzzCampaign(FuzzCampaign.Configuration(
            seed: seed, families: Families.all.filter { $0.name != "long-chain" }, backends: [],
            reference: GuidedJudge().campaign.configuration.reference, reducer: nil))
        return (0..<UInt64(max(count, 0))).compactMap { index in
            let spec = campaign.caseSpec(index)
            guard let system = campaign.system(for: spec) else { return nil }
            let guided = GuidedCase(system: system, oracle: spec.oracle, redecide: index % 4 == 0)
            return ("case-\(index)", guided.bytes)
        }
    }

    /// A `.layout` file's text (a system or an update sequence) as a seed.
    public static func fromLayout(_ text: String, file: String) throws -> [UInt8] {
        GuidedCase(sequence: try LayoutParser.parseSequence(text, file: file)).bytes
    }
}
