import Reporting
import Testing

private func timing(p50: Double, p90: Double) -> TimingSummary {
    TimingSummary(samples: 5, minimum: p50 * 0.9, p50: p50, p90: p90, p99: p90, maximum: p90, mean: p50, standardDeviation: 1)
}

@Suite("RegressionRule")
struct RegressionRuleTests {
    @Test("the threshold is the larger spread or the relative floor")
    func threshold() {
        let rule = RegressionRule(minimumRelativeChange: 0.05)
        // Spreads 30 and 10; floor 5 % of 100 = 5.
        #expect(rule.threshold(baseline: timing(p50: 100, p90: 130), current: timing(p50: 120, p90: 130)) == 30)
        #expect(rule.threshold(baseline: timing(p50: 100, p90: 101), current: timing(p50: 100, p90: 140)) == 40)
        // Single-sample runs: no spread, so the floor decides.
        #expect(rule.threshold(baseline: timing(p50: 1000, p90: 1000), current: timing(p50: 2000, p90: 2000)) == 50)
        // A swapped p90 < p50 (malformed) counts as no spread, not a negative one.
        #expect(rule.threshold(baseline: timing(p50: 1000, p90: 900), current: timing(p50: 1000, p90: 900)) == 50)
        #expect(rule.threshold(baseline: timing(p50: 0, p90: 10), current: timing(p50: 100, p90: 110)) == nil)
    }

    @Test("a median must move beyond the threshold, either way")
    func verdicts() {
        let rule = RegressionRule.standard
        let a = timing(p50: 100, p90: 110)
        #expect(rule.verdict(baseline: a, current: timing(p50: 110, p90: 115)) == .unchanged)   // Δ 10 = threshold
        #expect(rule.verdict(baseline: a, current: timing(p50: 111, p90: 115)) == .regression)
        #expect(rule.verdict(baseline: a, current: timing(p50: 89, p90: 95)) == .improvement)
        #expect(rule.verdict(baseline: a, current: timing(p50: 160, p90: 250)) == .unchanged)   // current too noisy to tell
        #expect(rule.verdict(baseline: a, current: timing(p50: 100, p90: 110)) == .unchanged)
    }
}

@Suite("BenchComparison")
struct BenchComparisonTests {
    @Test("the sample runs show exact's grid regression, float's form improvement and gaussian's fixed failure")
    func sampleRuns() {
        let comparison = BenchComparison(baseline: SampleReports.quickBaseline(), current: SampleReports.quickBench())
        #expect(comparison.rows.count == 75)
        let regressions = comparison.regressions
        #expect(!regressions.isEmpty)
        #expect(regressions.allSatisfy { $0.family == "grid" && $0.backend == "exact" })
        #expect(comparison.improvements.contains { $0.family == "form" && $0.backend == "float" && $0.verdict == .improvement })
        let fixed = comparison.rows.filter { $0.verdict == .statusImprovement }
        #expect(fixed.count == 1)
        #expect(fixed.first?.baseline?.status == "failed" && fixed.first?.current?.status == "optimal")
        // Rows are sorted: family, then size, then backend.
        let keys = comparison.rows.map { "\($0.family) \(1000 + $0.size) \($0.backend)" }
        #expect(keys == keys.sorted())
        let exact = comparison.geometricMeanRatio(backend: "exact")
        #expect(exact?.rows == 24)
        #expect((exact?.ratio ?? 0) > 1)
    }

    private func row(_ family: String, size: Int = 10, seed: UInt64 = 1, backend: String = "exact", status: String = "optimal", p50: Double? = 100) -> BenchResult {
        BenchResult(family: family, size: size, seed: seed, views: size, constraints: size * 3, backend: backend, status: status,
                    timing: p50.map { timing(p50: $0, p90: $0 * 1.05) })
    }

    private func report(_ results: [BenchResult]) -> BenchReport {
        BenchReport(createdAt: "2025-01-01T00:00:00Z", machine: SampleReports.machine, suite: "custom", warmupRuns: 0, repetitions: 1,
                    backends: ["exact"], results: results, seconds: 1)
    }

    @Test("a baseline from another suite or machine is said above the table, another build is not")
    func warnings() {
        let a = report([row("a")])
        var b = report([row("a")])
        b.machine.toolVersion = "another-build"
        #expect(BenchComparison(baseline: a, current: b).warnings.isEmpty)
        b.suite = "quick"
        b.machine.hostname = "elsewhere"
        let comparison = BenchComparison(baseline: a, current: b)
        #expect(comparison.warnings.count == 2)
        #expect(comparison.warnings.first?.contains("another suite (custom, this run quick)") == true)
        #expect(comparison.warnings.last?.contains("another machine") == true)
        let terminal = TerminalComparison.render(.bench(comparison))
        #expect(terminal.hasPrefix("warning: the baseline comes from another suite"))
    }

    @Test("rows only in one run are added or removed; seeds pair up in order")
    func matching() throws {
        let a = report([row("a"), row("b"), row("c", seed: 5), row("c", seed: 9)])
        let b = report([row("b"), row("d"), row("c", seed: 6), row("c", seed: 10), row("c", seed: 11)])
        let comparison = BenchComparison(baseline: a, current: b)
        let verdicts = comparison.rows.map { "\($0.family):\($0.verdict.rawValue)" }
        #expect(verdicts == ["a:removed", "b:unchanged", "c:unchanged", "c:unchanged", "c:added", "d:added"])
        let paired = try #require(comparison.rows.first { $0.family == "c" })
        #expect(paired.seedsDiffer)
        #expect(paired.baseline?.seed == 5 && paired.current?.seed == 6)
    }

    @Test("status changes rank solved above unsupported above budget above failed; a changed answer regresses")
    func statuses() {
        func verdict(_ before: String, _ after: String) -> BenchComparison.Verdict? {
            let a = report([row("x", status: before, p50: before == "optimal" || before == "unsatisfiable" ? 100 : nil)])
            let b = report([row("x", status: after, p50: after == "optimal" || after == "unsatisfiable" ? 100 : nil)])
            return BenchComparison(baseline: a, current: b).rows.first?.verdict
        }
        #expect(verdict("optimal", "budgetExceeded") == .statusRegression)
        #expect(verdict("optimal", "failed") == .statusRegression)
        #expect(verdict("budgetExceeded", "optimal") == .statusImprovement)
        #expect(verdict("failed", "unsupported") == .statusImprovement)
        #expect(verdict("optimal", "unsatisfiable") == .statusRegression)
        #expect(verdict("unsupported", "unsupported") == .unchanged)
        #expect(verdict("optimal", "mystery") == .statusRegression)
    }
}

@Suite("FuzzComparison")
struct FuzzComparisonTests {
    @Test("new wrong signatures regress, vanished ones improve, counts and ill-conditioned signatures are not judged")
    func signatures() {
        let comparison = FuzzComparison(baseline: SampleReports.fuzzBaseline(), current: SampleReports.smallFuzz())
        #expect(comparison.rows.map(\.signature) == [
            "ambiguity-mismatch/float", "crash/float", "metamorphic-violation/float/mirror-rtl",
            "status-mismatch/float@ill-conditioned", "status-mismatch/gaussian", "suboptimal/float",
        ])
        // The ill-conditioned signature is new, yet not a regression.
        #expect(comparison.rows.first { $0.signature == "status-mismatch/float@ill-conditioned" }?.verdict == .new)
        #expect(comparison.regressions.map(\.signature) == ["crash/float", "metamorphic-violation/float/mirror-rtl"])
        #expect(comparison.improvements.map(\.signature) == ["ambiguity-mismatch/float"])
        #expect(comparison.rows.first { $0.signature == "suboptimal/float" }?.verdict == .persisting)
        #expect(comparison.newFindings.map(\.kind) == ["metamorphic-violation", "status-mismatch"])
        #expect(comparison.goneFindings.map(\.kind) == ["ambiguity-mismatch"])
    }

    @Test("signatures read back in their parts, the verdict after @")
    func signatureParts() {
        let wrong = FindingSignature(parsing: "metamorphic-violation/float/mirror-rtl")
        #expect(wrong.kind == "metamorphic-violation" && wrong.backend == "float" && wrong.oracle == "mirror-rtl" && wrong.isWrong)
        let forgiven = FindingSignature(parsing: "status-mismatch/float@ill-conditioned")
        #expect(forgiven.kind == "status-mismatch" && forgiven.backend == "float" && forgiven.oracle == nil)
        #expect(!forgiven.isWrong && forgiven.verdict == "ill-conditioned")
        #expect(forgiven.text == "status-mismatch/float@ill-conditioned" && wrong.text == "metamorphic-violation/float/mirror-rtl")
    }

    @Test("a bench report cannot be compared with a fuzz report")
    func mixedKinds() {
        #expect(throws: ReportComparisonError.self) {
            _ = try ReportComparison(baseline: .bench(SampleReports.quickBench()), current: .fuzz(SampleReports.smallFuzz()))
        }
    }
}
