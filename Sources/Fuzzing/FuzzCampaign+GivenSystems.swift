import LayoutModel

extension FuzzCampaign {
    /// Judges a system that did not come from the campaign's generator (the coverage-guided
    /// fuzzer's decoded inputs): the same comparator, reference checks and oracle as a
    /// generated case, one finding per signature, each marked with `seed`.
    public func judge(given system: ConstraintSystem, oracle: MetamorphicOracle?, seed: UInt64, redecide: Bool) -> [Occurrence] {
        var seen = Set<String>()
        var occurrences: [Occurrence] = []
        for (finding, transform) in judge(system, oracle: oracle, seed: seed, redecide: redecide)
        where seen.insert(finding.signature).inserted {
            var finding = finding
            finding.seed = seed
            occurrences.append(Occurrence(finding: finding, transform: transform))
        }
        return occurrences
    }
}

extension FuzzCampaign {
    /// Judges an update sequence that did not come from the campaign's generator as a
    /// sequence case is judged: every pass of every backend's answer along the sequence (its
    /// sequence API: the float backend incrementally) compared with the reference's, and the
    /// `from-scratch` oracle; each finding names its pass and step and is marked with `seed`.
    public func judge(givenSequence sequence: UpdateSequence, seed: UInt64) -> [Finding] {
        judge(sequence).map { finding in
            var finding = finding
            finding.seed = seed
            return finding
        }
    }
}

extension FuzzCampaign.CaseSpec {
    /// A case that stands for a system from outside the generator: `family` names where it
    /// came from (`guided`), `index` its position there.
    public static func given(index: UInt64, family: String, size: Int, seed: UInt64, oracle: MetamorphicOracle?) -> Self {
        Self(index: index, family: family, size: size, seed: seed, oracle: oracle)
    }

    /// An update sequence from outside the generator: `family` is also its base, `steps` its
    /// step count.
    public static func given(index: UInt64, family: String, size: Int, seed: UInt64, steps: Int) -> Self {
        Self(index: index, family: family, size: size, seed: seed, oracle: nil, base: family, steps: steps)
    }
}
