import ExactArithmetic
import SeededRandom
import Testing

/// The rank of dense rational rows by plain Gaussian elimination: the reference the sparse
/// elimination is checked against.
private func denseRank(_ rows: [[Rational]]) -> Int {
    var matrix = rows
    var rank = 0
    let columns = matrix.first?.count ?? 0
    for column in 0..<columns where rank < matrix.count {
        guard let pivot = (rank..<matrix.count).first(where: { !matrix[$0][column].isZero }) else { continue }
        matrix.swapAt(rank, pivot)
        for r in (rank + 1)..<matrix.count where !matrix[r][column].isZero {
            let factor = matrix[r][column] / matrix[rank][column]
            for c in column..<columns { matrix[r][c] -= factor * matrix[rank][c] }
        }
        rank += 1
    }
    return rank
}

private func sparse(_ row: [Rational]) -> LinearIndependence.SparseRow {
    row.enumerated().compactMap { $0.element.isZero ? nil : (column: $0.offset, value: $0.element) }
}

@Suite("Linear independence")
struct LinearIndependenceTests {
    @Test("a chain closed by two pins is independent, and stays so however long")
    func chain() {
        // x₀ = 0, x_{i} − x_{i−1} = 1 for i in 1…n, x_n = 5: n + 2 rows over n + 1 unknowns
        // and the constant column.
        for n in [1, 10, 2_000] {
            let constant = n + 1
            var rows: [LinearIndependence.SparseRow] = [[(0, 1)]]
            for i in 1...n { rows.append([(i, 1), (i - 1, -1), (constant, -1)]) }
            rows.append([(n, 1), (constant, -5)])
            // Linear work: the limit is a small multiple of the entries.
            #expect(LinearIndependence.areIndependent(rows, workLimit: 8 * (3 * n + 3)) == true)
        }
    }

    @Test("a repeated row, a multiple, a sum and a zero row are dependent")
    func dependent() {
        let a: LinearIndependence.SparseRow = [(0, 1), (1, Rational(numerator: 1, denominator: 3))]
        let b: LinearIndependence.SparseRow = [(1, 2), (5, -7)]
        #expect(LinearIndependence.areIndependent([a, b]) == true)
        #expect(LinearIndependence.areIndependent([a, b, a]) == false)
        #expect(LinearIndependence.areIndependent([a, [(0, -2), (1, Rational(numerator: -2, denominator: 3))]]) == false)
        #expect(LinearIndependence.areIndependent([a, b, [(0, 1), (1, Rational(numerator: 7, denominator: 3)), (5, -7)]]) == false)
        #expect(LinearIndependence.areIndependent([a, [(3, 0)]]) == false)
        #expect(LinearIndependence.areIndependent([]) == true)
    }

    @Test("agrees with dense elimination on random small matrices", arguments: 0..<200)
    func agreesWithDenseRank(seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed))
        func next(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &generator) }
        let rowCount = 1 + next(6), columnCount = 1 + next(6)
        var rows: [[Rational]] = (0..<rowCount).map { _ in
            (0..<columnCount).map { _ in next(3) == 0 ? Rational(next(7) - 3) : .zero }
        }
        // Now and then a row that combines two others, so dependence is common.
        if rowCount >= 3 && next(2) == 0 {
            rows[rowCount - 1] = zip(rows[0], rows[1]).map { $0 * 2 - $1 * Rational(numerator: 1, denominator: 2) }
        }
        let independent = denseRank(rows) == rowCount
        #expect(LinearIndependence.areIndependent(rows.map(sparse)) == independent, "\(rows)")
    }

    @Test("past its work limit it answers nil, not a guess")
    func workLimit() {
        // Dense rows fill in: each reduction touches every column.
        let rows: [LinearIndependence.SparseRow] = (0..<12).map { r in (0..<12).map { c in (c, Rational(r == c ? 13 : 1)) } }
        #expect(LinearIndependence.areIndependent(rows) == true)
        #expect(LinearIndependence.areIndependent(rows, workLimit: 20) == nil)
    }
}
