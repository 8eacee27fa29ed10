import Foundation
import SeededRandom
import Reporting

/// The project's SplitMix64, with a draw for these samples.
extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }

    /// A Double in [low, high), from the top 53 bits.
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}

/// Hand-built documents shaped like what `bench --quick` and a small `fuzz` run write, until the
/// real commands exist. Every number is derived from fixed seeds and rounded to whole
/// nanoseconds, so renderings are identical on every platform.
enum SampleReports {
    static let machine = MachineInfo(
        hostname: "ci-runner-3", operatingSystem: "Debian GNU/Linux 12 (Linux 6.8.0)", processorCount: 2,
        physicalMemoryBytes: 8 * 1024 * 1024 * 1024, toolVersion: "a6c10bf")

    static let sizes = [5, 10, 20, 40, 80]

    /// (family, exact's coefficient and exponent, float's, whether gaussian supports it).
    static let families: [(name: String, exact: (Double, Double), float: (Double, Double), gaussian: Bool)] = [
        ("equal-widths", (9_000, 1.35), (2_400, 1.05), true),
        ("form", (14_000, 1.52), (3_100, 1.12), false),
        ("grid", (21_000, 1.81), (4_000, 1.27), false),
        ("long-chain", (7_500, 1.18), (1_900, 1.01), true),
        ("random", (30_000, 2.05), (5_200, 1.44), false),
    ]

    static func timing(median: Double, samples: Int, rng: inout SplitMix64) -> TimingSummary {
        let p50 = median.rounded()
        let p90 = (p50 * rng.uniform(1.03, 1.18)).rounded()
        let p99 = (p90 * rng.uniform(1.01, 1.10)).rounded()
        return TimingSummary(
            samples: samples, minimum: (p50 * rng.uniform(0.86, 0.97)).rounded(), p50: p50, p90: p90, p99: p99,
            maximum: (p99 * rng.uniform(1.0, 1.15)).rounded(), mean: (p50 * rng.uniform(1.0, 1.06)).rounded(),
            standardDeviation: (p50 * rng.uniform(0.02, 0.09)).rounded())
    }

    /// A `bench --quick` run: 5 families × 5 sizes × 3 backends, gaussian unsupported where the
    /// family has inequalities, exact out of budget on the largest random case.
    /// `slowdown` multiplies exact's grid medians (for a baseline with a regression).
    static func quickBench(seed: UInt64 = 7, createdAt: String = "2025-06-02T03:00:00Z", toolVersion: String = "a6c10bf",
                           exactGridFactor: Double = 1, floatFormFactor: Double = 1) -> BenchReport {
        var rng = SplitMix64(seed: seed)
        var results: [BenchResult] = []
        for family in families {
            for (sizeIndex, size) in sizes.enumerated() {
                let caseSeed = UInt64(1000 + sizeIndex)
                let views = size
                let constraints = size * 4 + 2
                let n = Double(size)
                let noise = { (rng: inout SplitMix64) in rng.uniform(0.93, 1.08) }
                // exact
                if family.name == "random" && size == 80 {
                    results.append(BenchResult(
                        family: family.name, size: size, seed: caseSeed, views: views, constraints: constraints, backend: "exact",
                        status: "budgetExceeded", note: "pivot budget of 20000 exhausted"))
                } else {
                    var median = family.exact.0 * pow(n, family.exact.1) * noise(&rng)
                    if family.name == "grid" { median *= exactGridFactor }
                    results.append(BenchResult(
                        family: family.name, size: size, seed: caseSeed, views: views, constraints: constraints, backend: "exact",
                        status: "optimal", timing: timing(median: median, samples: 5, rng: &rng), iterations: constraints * 3,
                        peakResidentBytes: UInt64(40_000_000 + size * 250_000)))
                }
                // float
                var floatMedian = family.float.0 * pow(n, family.float.1) * noise(&rng)
                if family.name == "form" { floatMedian *= floatFormFactor }
                results.append(BenchResult(
                    family: family.name, size: size, seed: caseSeed, views: views, constraints: constraints, backend: "float",
                    status: "optimal", timing: timing(median: floatMedian, samples: 5, rng: &rng), iterations: constraints * 2,
                    peakResidentBytes: UInt64(40_000_000 + size * 260_000)))
                // gaussian
                if family.gaussian {
                    let median = 1_200 * pow(n, 2.6) * noise(&rng)
                    results.append(BenchResult(
                        family: family.name, size: size, seed: caseSeed, views: views, constraints: constraints, backend: "gaussian",
                        status: "optimal", timing: timing(median: median, samples: 5, rng: &rng), iterations: constraints * constraints,
                        peakResidentBytes: UInt64(40_000_000 + size * 270_000)))
                } else {
                    results.append(BenchResult(
                        family: family.name, size: size, seed: caseSeed, views: views, constraints: constraints, backend: "gaussian",
                        status: "unsupported", note: "inequality constraints (required equalities only)"))
                }
            }
        }
        // Rows in run order, not sorted: renderings must sort them themselves.
        results.shuffle(using: &rng)
        return BenchReport(
            createdAt: createdAt,
            machine: MachineInfo(hostname: machine.hostname, operatingSystem: machine.operatingSystem, processorCount: 2,
                                 physicalMemoryBytes: machine.physicalMemoryBytes, toolVersion: toolVersion),
            suite: "quick", warmupRuns: 1, repetitions: 5, backends: ["exact", "float", "gaussian"], results: results, seconds: 14.25)
    }

    /// A baseline for ``quickBench()``: the same cases measured a night earlier, when exact was
    /// faster on grid and float slower on form; and gaussian failed on one case it now solves.
    static func quickBaseline() -> BenchReport {
        var report = quickBench(seed: 7, createdAt: "2025-06-01T03:00:00Z", toolVersion: "9f1e2d3", exactGridFactor: 1 / 1.4, floatFormFactor: 1.3)
        if let index = report.results.firstIndex(where: { $0.family == "long-chain" && $0.size == 40 && $0.backend == "gaussian" }) {
            report.results[index].status = "failed"
            report.results[index].note = "singular pivot"
            report.results[index].timing = nil
        }
        return report
    }

    static func finding(_ kind: String, _ backends: [String], oracle: String? = nil, hash: String, detail: String,
                        caseIndex: UInt64, family: String, size: Int, original: Int, reduced: Int, views: Int,
                        verdict: String = "wrong", perturbation: Double? = nil, conditioning: FuzzConditioning? = nil) -> FuzzFindingEntry {
        let signature = ([kind] + [backends.first ?? "-"] + (oracle.map { [$0] } ?? []) + (verdict == "wrong" ? [] : [verdict]))
            .joined(separator: "-")
        let fingerprint = signature + "-" + hash
        return FuzzFindingEntry(
            fingerprint: fingerprint, kind: kind, backends: backends, oracle: oracle, detail: detail, caseIndex: caseIndex,
            family: family, size: size, seed: 0x9E37_79B9_7F4A_7C15 &* (caseIndex &+ 1), originalConstraints: original,
            reducedConstraints: reduced, reducedViews: views, repro: "findings/\(fingerprint).layout",
            verdict: verdict, perturbation: perturbation,
            verdictNote: verdict == "wrong" ? "not explained by a relative perturbation of 1e-09" : "explained by a relative perturbation of at most 1e-09",
            conditioning: conditioning ?? FuzzConditioning(distanceToInfeasibility: nil, tightRows: original, unknowns: 4 * views, degeneracy: max(0, original - 4 * views)))
    }

    /// An ill-conditioned finding: counted apart, never a failure.
    static let illConditioned = finding(
        "status-mismatch", ["float", "exact"], hash: "5ca1ab1e0ddba11f",
        detail: "unsatisfiable broken [hi]; reference optimal broken []", caseIndex: 9, family: "near-conflicts", size: 2,
        original: 8, reduced: 2, views: 1, verdict: "ill-conditioned", perturbation: 9.765625e-13,
        conditioning: FuzzConditioning(distanceToInfeasibility: 4.547473508864641e-13, tightRows: 8, unknowns: 8, degeneracy: 0))

    static let findings: [FuzzFindingEntry] = [
        finding("suboptimal", ["float", "exact"], hash: "3f9a0c2e71d4b856",
                detail: "level 2 (@250): objective 14 vs reference 0 (w of card)", caseIndex: 17, family: "hugging-contest", size: 6,
                original: 41, reduced: 4, views: 2),
        finding("metamorphic-violation", ["float"], oracle: "mirror-rtl", hash: "a0b1c2d3e4f50617",
                detail: "mirror-rtl: label.x was 8, became 9 (expected 367 - 8 - label.w)", caseIndex: 88, family: "form", size: 4,
                original: 30, reduced: 6, views: 3),
        finding("status-mismatch", ["gaussian", "exact"], hash: "00ff00ff00ff00ff",
                detail: "status unsatisfiable vs reference optimal", caseIndex: 203, family: "redundant-required", size: 3,
                original: 12, reduced: 2, views: 1),
    ]

    /// A small unsharded `fuzz` run with findings and one crash.
    static func smallFuzz() -> FuzzReport {
        FuzzReport(
            seed: 42, shardCount: 1,
            shards: [ShardSummary(index: 0, cases: 500, interrupted: false,
                                  occurrences: ["suboptimal/float": 7, "metamorphic-violation/float/mirror-rtl": 2,
                                                "status-mismatch/gaussian": 1, "crash/float": 1,
                                                "status-mismatch/float@ill-conditioned": 12],
                                  crashedCases: [311], seconds: 38.5,
                                  families: ["form": FamilyTally(cases: 260, wrongCases: 2),
                                             "hugging-contest": FamilyTally(cases: 120, wrongCases: 7),
                                             "near-conflicts": FamilyTally(cases: 110, illConditionedCases: 12),
                                             "redundant-required": FamilyTally(cases: 10, wrongCases: 1)])],
            missingShards: [], backends: ["exact", "float", "gaussian"], families: [], perSignature: 3,
            findings: (findings + [illConditioned]).reversed())
    }

    /// A baseline for ``smallFuzz()``: no crash then, no mirror violation, but an ambiguity mismatch since fixed.
    static func fuzzBaseline() -> FuzzReport {
        FuzzReport(
            seed: 41, shardCount: 1,
            shards: [ShardSummary(index: 0, cases: 500, interrupted: false,
                                  occurrences: ["suboptimal/float": 9, "status-mismatch/gaussian": 1, "ambiguity-mismatch/float": 3],
                                  crashedCases: [], seconds: 36.0)],
            missingShards: [], backends: ["exact", "float", "gaussian"], families: [], perSignature: 3,
            findings: [findings[0], findings[2],
                       finding("ambiguity-mismatch", ["float", "exact"], hash: "1234567890abcdef",
                               detail: "ambiguous sets differ: float says {}, reference says {box.x}", caseIndex: 5,
                               family: "ambiguous", size: 2, original: 8, reduced: 3, views: 1)])
    }

    /// A merged campaign of four shards with shard 2 missing and shard 3 interrupted.
    static func shardedFuzz() -> FuzzReport {
        FuzzReport(
            seed: 7, shardCount: 4,
            shards: [
                ShardSummary(index: 0, cases: 250, interrupted: false, occurrences: ["suboptimal/float": 2], crashedCases: [], seconds: 20),
                ShardSummary(index: 1, cases: 250, interrupted: false, occurrences: ["suboptimal/float": 1, "crash/float": 1], crashedCases: [401], seconds: 21),
                ShardSummary(index: 3, cases: 120, interrupted: true, occurrences: [:], crashedCases: [], seconds: 9.5),
            ],
            missingShards: [2], backends: ["exact", "float"], families: ["form", "grid"], perSignature: 3,
            findings: [findings[0]])
    }
}
