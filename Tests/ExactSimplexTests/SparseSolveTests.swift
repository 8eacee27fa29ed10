import BackendContract
import ExactArithmetic
@testable import ExactSimplex
import Generator
import LayoutModel
import Testing

/// A random sparse basis of `size` columns: a nonzero diagonal under a random permutation
/// plus a few random entries per column, like a layout basis (singular at times).
private func randomColumns(size: Int, rng: inout SplitMix64) -> [[SparseEntry]] {
    var permutation = Array(0..<size)
    permutation.shuffle(using: &rng)
    return (0..<size).map { slot in
        var entries: [Int: Rational] = [permutation[slot]: Rational(Int.random(in: 1...3, using: &rng))]
        for _ in 0..<Int.random(in: 0...2, using: &rng) {
            let row = Int.random(in: 0..<size, using: &rng)
            entries[row, default: .zero] += Rational(Int.random(in: -4...4, using: &rng))
        }
        return entries.filter { !$0.value.isZero }.sorted { $0.key < $1.key }.map { SparseEntry($0.key, $0.value) }
    }
}

private func randomSparse(size: Int, rng: inout SplitMix64) -> [SparseEntry] {
    let indices = Set((0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0..<size, using: &rng) })
    return indices.sorted().map { SparseEntry($0, Rational(numerator: Int.random(in: -5...5, using: &rng), denominator: Int.random(in: 1...3, using: &rng))) }
}

/// A right-hand side with a nonzero in every place: `solveSparse` takes its dense path
/// (more than a quarter of the places nonzero) for these.
private func denseRightHandSide(size: Int, rng: inout SplitMix64) -> [SparseEntry] {
    (0..<size).map { SparseEntry($0, Rational(numerator: Int.random(in: 1...5, using: &rng), denominator: Int.random(in: 1...3, using: &rng))) }
}

private func dense(_ entries: [SparseEntry], size: Int) -> [Rational] {
    var vector = [Rational](repeating: .zero, count: size)
    for entry in entries { vector[entry.index] = entry.value }
    return vector
}

/// The generic LU (ExactLP's) on the same columns: an independent implementation to check
/// the layout backend's hypersparse solves against.
private func reference(_ columns: [[SparseEntry]]) -> SparseLU<Rational>? {
    guard case .factorized(let lu) = SparseLU<Rational>.factorize(columns: columns.map { $0.map { ($0.index, $0.value) } }) else {
        return nil
    }
    return lu
}

@Suite("Sparse basis solves")
struct SparseSolveTests {
    /// The hypersparse solves visit only the steps a right-hand side reaches; in exact
    /// arithmetic they must give exactly the vectors of an independent factorization (the
    /// generic `SparseLU<Rational>` of the same columns), also after eta updates and after
    /// slots are negated in place (the crash basis's error-column swaps) on both.
    @Test("sparse FTRAN and BTRAN equal the generic LU's dense solves", arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func sparseEqualsGeneric(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let size = Int.random(in: 16...60, using: &rng)
        // Random entries can make a basis singular: draw again until one is regular.
        var factorized: (BasisFactorization, SparseLU<Rational>)?
        while factorized == nil {
            let columns = randomColumns(size: size, rng: &rng)
            switch BasisFactorization.factorize(columns: columns) {
            case .factorized(let lu):
                let generic = try #require(reference(columns), "the generic LU calls a regular basis singular")
                factorized = (lu, generic)
            case .singular:
                #expect(reference(columns) == nil, "the generic LU calls a singular basis regular")
            }
        }
        var (lu, generic) = try #require(factorized)
        for slot in 0..<size where Bool.random(using: &rng) {
            lu.negate(slot: slot)
            generic.negate(slot: slot)
        }
        for round in 0..<4 {
            for trial in 0..<10 {
                // Every other right-hand side dense: `solveSparse`'s dense path too.
                let a = trial.isMultiple(of: 2) ? randomSparse(size: size, rng: &rng) : denseRightHandSide(size: size, rng: &rng)
                let z = lu.solveSparse(a)
                #expect(dense(z, size: size) == generic.solve(a.map { ($0.index, $0.value) }), "FTRAN, seed \(seed), round \(round)")
                #expect(z.map(\.index) == z.map(\.index).sorted() && z.allSatisfy { !$0.value.isZero })
                let c = trial.isMultiple(of: 2) ? randomSparse(size: size, rng: &rng) : denseRightHandSide(size: size, rng: &rng)
                let y = lu.solveTransposedSparse(c)
                #expect(dense(y, size: size) == generic.solveTransposed(dense(c, size: size)), "BTRAN, seed \(seed), round \(round)")
                #expect(y.map(\.index) == y.map(\.index).sorted() && y.allSatisfy { !$0.value.isZero })
            }
            // An eta update: a random column replaces a slot where its solve is nonzero.
            let incoming = randomSparse(size: size, rng: &rng)
            let alpha = lu.solveSparse(incoming)
            guard let pivot = alpha.first else { continue }
            // Each factorization's own alpha: the two must agree before the update.
            let genericAlpha = generic.solve(incoming.map { ($0.index, $0.value) })
            #expect(dense(alpha, size: size) == genericAlpha, "update alpha, seed \(seed), round \(round)")
            lu.replace(slot: pivot.index, alpha: alpha)
            generic.replace(slot: pivot.index, alpha: genericAlpha)
            if round == 1 {
                lu.negate(slot: pivot.index)
                generic.negate(slot: pivot.index)
            }
        }
    }

    /// Negating a slot in place leaves the factorization of the negated basis.
    @Test("a negated slot solves as the negated basis")
    func negatedSlot() throws {
        var rng = SplitMix64(seed: 42)
        let size = 24
        var columns = randomColumns(size: size, rng: &rng)
        while case .singular = BasisFactorization.factorize(columns: columns) { columns = randomColumns(size: size, rng: &rng) }
        guard case .factorized(var lu) = BasisFactorization.factorize(columns: columns) else { return }
        lu.negate(slot: 3)
        lu.negate(slot: 7)
        for s in [3, 7] { columns[s] = columns[s].map { SparseEntry($0.index, -$0.value) } }
        guard case .factorized(var negated) = BasisFactorization.factorize(columns: columns) else {
            Issue.record("the negated basis came out singular")
            return
        }
        for _ in 0..<20 {
            let a = randomSparse(size: size, rng: &rng)
            #expect(lu.solveSparse(a) == negated.solveSparse(a))
            let c = randomSparse(size: size, rng: &rng)
            #expect(lu.solveTransposedSparse(c) == negated.solveTransposedSparse(c))
        }
    }

    /// Thousands of priority levels on one view: no pivot (the crash basis is optimal at
    /// every level), one optimality check and one certificate per level, each level's
    /// certificate weighing only the levels it needs, and the certificate checks.
    @Test("1,000 priority levels on one view solve with sparse level certificates")
    func manyLevels() throws {
        var text = "root s 0 0 1000 1000\nview a\n"
        for i in 0..<1000 { text += "a.width == \(i) @\(1 + Double(i) * 998 / 1000)\n" }
        let system = try parse(text)
        let (solution, certificate) = try solveCertified(system)
        #expect(solution.status == .optimal)
        #expect(solution.values[2] == 999)
        #expect(solution.objective.count == 1000)
        #expect(solution.objective.last == 999)
        #expect(certificate.levels.count == 1000)
        let weighted = certificate.levels.map(\.nonzeroLevelMultipliers.count).max() ?? 0
        #expect(weighted <= 1, "a level certificate weighs \(weighted) higher levels")
        let report = try ExactSimplexBackend().solveWithReport(system, budget: .unlimited)
        #expect(report.result.statistics.iterations == 2000)
    }
}
