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

extension FuzzCampaign.CaseSpec {
    /// A case that stands for a system from outside the generator: `family` names where it
    /// came from (`guided`), `index` its position there.
    public static func given(index: UInt64, family: String, size: Int, seed: UInt64, oracle: MetamorphicOracle?) -> Self {
        Self(index: index, family: family, size: size, seed: seed, oracle: oracle)
    }
}
