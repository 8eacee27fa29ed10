import Foundation
import SeededRandom
import History
import Testing

/// Steps in bench series: 30 synthetic nights of a real report, and the detector's rates on
/// simulated series.
@Suite struct StepDetectorTests {
    /// Thirty nights built from Reports/baseline.json, every timing with ±5% noise and one
    /// series 40% slower from night 17: exactly that step is found.
    @Test func thirtyNightsFindTheOneStep() throws {
        let history = try HistoryFixtures.thirtyNights(in: try HistoryFixtures.folder())
        #expect(try history.runs(kind: .bench).count == 30)
        let series = try history.benchSeries(hostname: nil, suite: nil)
        #expect(series.count >= 100)
        #expect(series.allSatisfy { $0.points.count == 30 })
        let steps = StepDetector().steps(in: series)
        #expect(steps.count == 1)
        let step = try #require(steps.first)
        #expect(step.family == "form" && step.size == 100 && step.backend == "float")
        let nights = (16...18).map(HistoryFixtures.nightTime)
        #expect(nights.contains(step.run))
        #expect(abs(step.ratio - 1.4) < 0.1)
    }

    @Test func stepsDownAreFoundAndFlatSeriesAreQuiet() {
        let detector = StepDetector()
        let down = (0..<20).map { $0 < 10 ? 1000.0 : 600.0 }
        #expect(detector.steps(down).map(\.index) == [10])
        #expect(detector.steps(down).first.map { abs($0.ratio - 0.6) < 1e-9 } == true)
        #expect(detector.steps(Array(repeating: 5.0, count: 30)).isEmpty)
        #expect(detector.steps([1, 2, 3]).isEmpty)
        // A 2% change of a noiseless series is real but below the reported minimum.
        #expect(detector.steps((0..<20).map { $0 < 10 ? 1000.0 : 1020.0 }).isEmpty)
    }

    /// The detector's rates with its defaults, on series of 30 nights with ±5% uniform noise
    /// (the figures docs/history.md gives): false alarms per noise-only series, and the share
    /// of 10%, 20% and 40% steps (at a random night between 9 and 22) found within ±1 night.
    @Test func simulatedRates() {
        let detector = StepDetector()
        var generator = SeededGenerator(seed: 2024)
        let trials = 2000
        func series(step: Double, at index: Int) -> [Double] {
            (0..<30).map { night in (night >= index ? step : 1) * HistoryFixtures.noise(&generator, amplitude: 0.05) * 250_000 }
        }
        var falseAlarms = 0
        for _ in 0..<trials where !detector.steps(series(step: 1, at: 30)).isEmpty { falseAlarms += 1 }
        var detected: [Double: Int] = [:]
        var spurious = 0
        for step in [1.1, 1.2, 1.4] {
            for _ in 0..<trials {
                let index = 8 + Int(generator.bounded(14))
                let found = detector.steps(series(step: step, at: index))
                if found.contains(where: { abs($0.index - index) <= 1 }) { detected[step, default: 0] += 1 }
                spurious += found.filter { abs($0.index - index) > 1 }.count
            }
        }
        let rate = { (count: Int) in Double(count) / Double(trials) }
        print("step detector, \(trials) series of 30 nights, ±5% noise: false alarms \(rate(falseAlarms)) per series;",
              "detected 10%: \(rate(detected[1.1] ?? 0)), 20%: \(rate(detected[1.2] ?? 0)), 40%: \(rate(detected[1.4] ?? 0));",
              "misplaced or extra \(spurious) of \(3 * trials)")
        #expect(rate(falseAlarms) <= 0.01)
        #expect(rate(detected[1.4] ?? 0) >= 0.99)
        #expect(rate(detected[1.2] ?? 0) >= 0.9)
    }
}
