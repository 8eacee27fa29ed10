import FloatSimplex
import LayoutModel

/// An independent feasibility test for the rejection tests: a dense textbook phase-1 simplex
/// (free variables split in two, slacks, one artificial per row, Bland's rule). It shares no
/// code with the solver under test.
func denseIsFeasible(_ constraints: [LinearConstraint], variableCount: Int) -> Bool {
    let rows = constraints.count
    if rows == 0 { return true }
    let slackCount = constraints.filter { $0.relation != .equal }.count
    let columns = 2 * variableCount + slackCount + rows
    var table = Array(repeating: Array(repeating: 0.0, count: columns + 1), count: rows)
    var basis = Array(repeating: 0, count: rows)
    var slack = 2 * variableCount
    for (r, c) in constraints.enumerated() {
        // Σ a x + k REL 0  →  Σ a x (+/- s) = -k, with a non-negative right side.
        for t in c.terms {
            table[r][2 * t.variable.index] += t.coefficient
            table[r][2 * t.variable.index + 1] -= t.coefficient
        }
        switch c.relation {
        case .equal: break
        case .lessThanOrEqual: table[r][slack] = 1; slack += 1
        case .greaterThanOrEqual: table[r][slack] = -1; slack += 1
        }
        table[r][columns] = -c.constant
        if table[r][columns] < 0 { for j in 0...columns { table[r][j] = -table[r][j] } }
        let artificial = 2 * variableCount + slackCount + r
        table[r][artificial] = 1
        basis[r] = artificial
    }
    let firstArtificial = 2 * variableCount + slackCount
    for _ in 0..<10_000 {
        // Reduced cost of column j for min Σ artificials: −Σ_rows a_rj over rows whose basic is artificial.
        var entering = -1
        for j in 0..<firstArtificial {
            var reduced = 0.0
            for r in 0..<rows where basis[r] >= firstArtificial { reduced -= table[r][j] }
            if reduced < -1e-9 { entering = j; break }
        }
        if entering < 0 { break }
        var leaving = -1
        var best = Double.infinity
        for r in 0..<rows where table[r][entering] > 1e-9 {
            let ratio = table[r][columns] / table[r][entering]
            if ratio < best - 1e-12 || (abs(ratio - best) <= 1e-12 && basis[r] < basis[leaving]) {
                best = ratio
                leaving = r
            }
        }
        if leaving < 0 { break }
        let p = table[leaving][entering]
        for j in 0...columns { table[leaving][j] /= p }
        for r in 0..<rows where r != leaving && table[r][entering] != 0 {
            let f = table[r][entering]
            for j in 0...columns { table[r][j] -= f * table[leaving][j] }
        }
        basis[leaving] = entering
    }
    var infeasibility = 0.0
    for r in 0..<rows where basis[r] >= firstArtificial { infeasibility += table[r][columns] }
    return infeasibility <= 1e-6
}
