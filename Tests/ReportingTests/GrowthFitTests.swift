import SeededRandom
import Foundation
import Reporting
import Testing

@Suite("GrowthFit")
struct GrowthFitTests {
    @Test("an exact power law gives back its exponent and coefficient", arguments: [0.5, 1.0, 2.0, 3.0])
    func exactPowerLaw(exponent: Double) throws {
        let points = [4.0, 8, 16, 32, 64].map { (size: $0, time: 250 * pow($0, exponent)) }
        let fit = try #require(GrowthFit(points: points))
        #expect(abs(fit.exponent - exponent) < 1e-9)
        #expect(abs(fit.coefficient - 250) / 250 < 1e-9)
        #expect(abs(fit.rSquared - 1) < 1e-9)
        #expect(fit.pointCount == 5)
        #expect(abs(fit.predictedTime(atSize: 100) - 250 * pow(100, exponent)) / (250 * pow(100, exponent)) < 1e-9)
    }

    @Test("noise moves the exponent little and lowers r²")
    func noisy() throws {
        var rng = SplitMix64(seed: 11)
        let points = [5.0, 10, 20, 40, 80, 160].map { (size: $0, time: 900 * pow($0, 1.5) * rng.uniform(0.8, 1.25)) }
        let fit = try #require(GrowthFit(points: points))
        #expect(abs(fit.exponent - 1.5) < 0.1)
        #expect(fit.rSquared < 1 && fit.rSquared > 0.95)
    }

    @Test("the slope is the least-squares one, checked by hand")
    func handComputed() throws {
        // ln-space points (0, 0), (1, 1), (2, 3): x̄ = 1, ȳ = 4/3, Sxy = 3, Sxx = 2 → slope 1.5.
        let e = M_E
        let fit = try #require(GrowthFit(points: [(1, 1), (e, e), (e * e, e * e * e)]))
        #expect(abs(fit.exponent - 1.5) < 1e-12)
        #expect(abs(log(fit.coefficient) - (4.0 / 3 - 1.5)) < 1e-12)
    }

    @Test("one size, or points without a logarithm, give no fit")
    func degenerate() {
        #expect(GrowthFit(points: []) == nil)
        #expect(GrowthFit(points: [(10, 5)]) == nil)
        #expect(GrowthFit(points: [(10, 5), (10, 7), (10, 6)]) == nil)
        #expect(GrowthFit(points: [(10, 5), (0, 7), (-3, 6), (20, 0), (30, .nan), (.infinity, 4)]) == nil)
        let fit = GrowthFit(points: [(10, 5), (0, 7), (20, 10), (40, -1)])
        #expect(fit?.pointCount == 2)
        #expect(fit.map { abs($0.exponent - 1) < 1e-12 } == true)
    }
}
