import Foundation

/// A power law `time ≈ coefficient · size^exponent`, fitted by ordinary least squares on
/// `(log size, log time)`.
///
/// The exponent is the slope of the straight line a log-log plot shows: about 1 for a solver
/// that is linear in the system's size, 2 for quadratic, 3 for dense elimination. Fitting in
/// log space weighs every size equally, which is what a reader of the plot expects; a fit on
/// raw times would be dominated by the largest size.
public struct GrowthFit: Sendable, Hashable {
    /// The fitted slope of `ln time` against `ln size`.
    public var exponent: Double
    /// `exp(intercept)`: the fitted time at size 1, in the time unit of the input.
    public var coefficient: Double
    /// The coefficient of determination in log space, 0...1 (1 when every point lies on the line).
    public var rSquared: Double
    /// The number of points the fit used.
    public var pointCount: Int

    /// A fit with known parameters (for tests, or a fit computed elsewhere).
    public init(exponent: Double, coefficient: Double, rSquared: Double, pointCount: Int) {
        self.exponent = exponent
        self.coefficient = coefficient
        self.rSquared = rSquared
        self.pointCount = pointCount
    }

    /// Fits `points` of (size, time). Points whose size or time is not a positive finite
    /// number are skipped, since they have no logarithm.
    ///
    /// Returns nil when fewer than two distinct sizes remain: one size fixes no slope.
    public init?(points: [(size: Double, time: Double)]) {
        let logs = points.compactMap { point -> (x: Double, y: Double)? in
            guard point.size > 0, point.time > 0, point.size.isFinite, point.time.isFinite else { return nil }
            return (log(point.size), log(point.time))
        }
        guard logs.count >= 2 else { return nil }
        let n = Double(logs.count)
        let meanX = logs.reduce(0) { $0 + $1.x } / n
        let meanY = logs.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for (x, y) in logs {
            sxx += (x - meanX) * (x - meanX)
            sxy += (x - meanX) * (y - meanY)
            syy += (y - meanY) * (y - meanY)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx
        let intercept = meanY - slope * meanX
        var residual = 0.0
        for (x, y) in logs {
            let r = y - (intercept + slope * x)
            residual += r * r
        }
        exponent = slope
        coefficient = exp(intercept)
        rSquared = syy > 0 ? max(0, 1 - residual / syy) : 1
        pointCount = logs.count
    }

    /// The fitted time at `size`.
    public func predictedTime(atSize size: Double) -> Double {
        coefficient * pow(size, exponent)
    }
}
