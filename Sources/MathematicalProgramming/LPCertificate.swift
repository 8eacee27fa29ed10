import ExactArithmetic

/// What an LP solver claims about an ``ExactLinearProgram``, with the evidence that makes the
/// claim checkable without trusting the solver.
///
/// Duals and rays are those of the *minimisation form*: for a maximising program the
/// objective is negated first, so every sign rule below reads the same for both senses.
public enum LPCertificate: Sendable, Equatable {
    /// `x` is feasible, and the row duals `y` make the reduced costs `d = c − Aᵀy` (and
    /// `y` itself, the reduced costs of the rows) complementary: a positive reduced cost
    /// only on a variable (or row activity) at its finite lower bound, a negative one only
    /// at its finite upper bound.
    case optimal(x: [Rational], y: [Rational])
    /// Farkas: with `r = Aᵀy` on the columns and `−y` on the row activities, the largest
    /// value `r·x − y·(Ax)` takes over the bound box is negative, while every point with
    /// `Ax` equal to the row activities gives 0 — so no point meets all rows and bounds.
    case infeasible(y: [Rational])
    /// `x` is feasible and `ray` is a direction that keeps every bound and row range (it
    /// moves only where the bound it moves towards is infinite) and lowers the objective.
    case unbounded(x: [Rational], ray: [Rational])
}

/// Checks an ``LPCertificate`` against the program alone, in exact arithmetic. It shares
/// no code with any solver.
public enum LPCertificateVerifier {
    /// Nil when the certificate proves its claim, else why not.
    public static func failure(of certificate: LPCertificate, for lp: ExactLinearProgram) -> String? {
        let cost = lp.sense == .minimize ? lp.objective : lp.objective.map { -$0 }
        switch certificate {
        case .optimal(let x, let y):
            if let problem = infeasibility(of: x, in: lp) { return problem }
            guard y.count == lp.rowCount else { return "the dual has \(y.count) entries for \(lp.rowCount) rows" }
            let activity = lp.rowActivities(x)
            var reduced = cost
            for j in 0..<lp.columnCount {
                for entry in lp.columns[j] { reduced[j].addProduct(-entry.value, y[entry.row]) }
            }
            for j in 0..<lp.columnCount {
                if let problem = complementarity(reduced[j], value: x[j], lower: lp.columnLower[j], upper: lp.columnUpper[j]) {
                    return "column \(lp.columnNames[j]): \(problem)"
                }
            }
            for i in 0..<lp.rowCount {
                if let problem = complementarity(y[i], value: activity[i], lower: lp.rowLower[i], upper: lp.rowUpper[i]) {
                    return "row \(lp.rowNames[i]): \(problem)"
                }
            }
            return nil
        case .infeasible(let y):
            guard y.count == lp.rowCount else { return "the Farkas vector has \(y.count) entries for \(lp.rowCount) rows" }
            var maximum = Rational.zero
            for j in 0..<lp.columnCount {
                var r = Rational.zero
                for entry in lp.columns[j] { r.addProduct(entry.value, y[entry.row]) }
                guard let term = largestTerm(r, lower: lp.columnLower[j], upper: lp.columnUpper[j]) else {
                    return "column \(lp.columnNames[j]) is unbounded in the direction the Farkas vector needs"
                }
                maximum += term
            }
            for i in 0..<lp.rowCount {
                guard let term = largestTerm(-y[i], lower: lp.rowLower[i], upper: lp.rowUpper[i]) else {
                    return "row \(lp.rowNames[i]) is unbounded in the direction the Farkas vector needs"
                }
                maximum += term
            }
            return maximum.sign < 0 ? nil : "the Farkas bound is \(maximum), not negative"
        case .unbounded(let x, let ray):
            if let problem = infeasibility(of: x, in: lp) { return problem }
            guard ray.count == lp.columnCount else { return "the ray has \(ray.count) entries for \(lp.columnCount) columns" }
            let change = lp.rowActivities(ray)
            for j in 0..<lp.columnCount {
                if !keepsBounds(ray[j], lower: lp.columnLower[j], upper: lp.columnUpper[j]) {
                    return "the ray leaves the bounds of column \(lp.columnNames[j])"
                }
            }
            for i in 0..<lp.rowCount {
                if !keepsBounds(change[i], lower: lp.rowLower[i], upper: lp.rowUpper[i]) {
                    return "the ray leaves the range of row \(lp.rowNames[i])"
                }
            }
            var slope = Rational.zero
            for j in 0..<lp.columnCount { slope.addProduct(cost[j], ray[j]) }
            return slope.sign < 0 ? nil : "the ray does not improve the objective (slope \(slope))"
        }
    }

    /// Nil when `x` meets every bound and row range.
    public static func infeasibility(of x: [Rational], in lp: ExactLinearProgram) -> String? {
        guard x.count == lp.columnCount else { return "the point has \(x.count) entries for \(lp.columnCount) columns" }
        for j in 0..<lp.columnCount {
            if let lower = lp.columnLower[j], x[j] < lower { return "column \(lp.columnNames[j]) = \(x[j]) is below its lower bound \(lower)" }
            if let upper = lp.columnUpper[j], x[j] > upper { return "column \(lp.columnNames[j]) = \(x[j]) is above its upper bound \(upper)" }
        }
        let activity = lp.rowActivities(x)
        for i in 0..<lp.rowCount {
            if let lower = lp.rowLower[i], activity[i] < lower { return "row \(lp.rowNames[i]) = \(activity[i]) is below \(lower)" }
            if let upper = lp.rowUpper[i], activity[i] > upper { return "row \(lp.rowNames[i]) = \(activity[i]) is above \(upper)" }
        }
        return nil
    }

    private static func complementarity(_ reduced: Rational, value: Rational, lower: Rational?, upper: Rational?) -> String? {
        if reduced.sign > 0 && value != lower { return "reduced cost \(reduced) > 0 but the value \(value) is not at its lower bound" }
        if reduced.sign < 0 && value != upper { return "reduced cost \(reduced) < 0 but the value \(value) is not at its upper bound" }
        return nil
    }

    /// The largest `r × v` for `v` in `[lower, upper]`, or nil when unbounded.
    private static func largestTerm(_ r: Rational, lower: Rational?, upper: Rational?) -> Rational? {
        if r.sign > 0 { return upper.map { r * $0 } }
        if r.sign < 0 { return lower.map { r * $0 } }
        return .zero
    }

    private static func keepsBounds(_ step: Rational, lower: Rational?, upper: Rational?) -> Bool {
        (step.sign <= 0 || upper == nil) && (step.sign >= 0 || lower == nil)
    }
}
