import Runner
import Testing

@Suite struct ProgressEstimateTests {
    @Test func remainingItemsCostWhatFinishedOnesDid() {
        let estimate = ProgressEstimate(completed: 25, total: 100, elapsed: .seconds(10))
        #expect(estimate.remaining == .seconds(30))
        #expect(estimate.text == "elapsed 10s, ETA 30s")
    }

    @Test func nothingFinishedMeansNoEstimate() {
        #expect(ProgressEstimate(completed: 0, total: 100, elapsed: .seconds(4)).remaining == nil)
        #expect(ProgressEstimate(completed: 7, total: nil, elapsed: .seconds(4)).text == "elapsed 4s")
    }

    @Test func aTimeLimitBoundsTheEstimate() {
        // 10 of 1,000 cases in 60 s would take 99 minutes more; the limit ends the run in 4.
        let limited = ProgressEstimate(completed: 10, total: 1000, elapsed: .seconds(60), timeLimit: .seconds(300))
        #expect(limited.remaining == .seconds(240))
        // Bounded by time alone: the time left; past the limit: zero, never negative.
        #expect(ProgressEstimate(completed: 3, total: nil, elapsed: .seconds(20), timeLimit: .seconds(60)).remaining == .seconds(40))
        #expect(ProgressEstimate(completed: 3, total: nil, elapsed: .seconds(70), timeLimit: .seconds(60)).remaining == .zero)
    }

    @Test func aFinishedRunHasNothingLeft() {
        #expect(ProgressEstimate(completed: 100, total: 100, elapsed: .seconds(9)).remaining == .zero)
        #expect(ProgressEstimate(completed: 120, total: 100, elapsed: .seconds(9)).remaining == .zero)
    }

    @Test(arguments: [(0.0, "0s"), (0.4, "0s"), (59.4, "59s"), (65, "1m05s"), (3599, "59m59s"), (3600, "1h00m"), (7620, "2h07m")])
    func durationsReadAsPeopleSayThem(_ seconds: Double, _ text: String) {
        #expect(ProgressEstimate.format(.milliseconds(Int64(seconds * 1000))) == text)
    }
}
