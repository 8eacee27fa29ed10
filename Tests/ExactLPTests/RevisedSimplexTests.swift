import ExactArithmetic
@testable import ExactLP
import ExactSimplex
import Foundation
import MathematicalProgramming
import Testing

@Suite("Revised simplex and its sparse LU")
struct RevisedSimplexTests {
    /// A 4×4 basis with a dense-ish core, as columns of (row, value) entries.
    static let columns: [[(index: Int, value: Rational)]] = [
        [(0, 2), (1, 1), (3, -1)],
        [(1, 3), (2, 1)],
        [(0, 1), (2, 4), (3, 2)],
        [(3, 5), (1, -2)],
    ]

    /// `B z` for the basis `columns`, with slot `s` holding `columns[s]`.
    static func multiply<S: SimplexScalar>(_ columns: [[(index: Int, value: S)]], _ z: [S]) -> [S] {
        var result = [S](repeating: .zero, count: columns.count)
        for (slot, column) in columns.enumerated() {
            for entry in column { result[entry.index] += entry.value * z[slot] }
        }
        return result
    }

    @Test func exactSolvesAgreeWithTheMatrixBeforeAndAfterAnUpdate() throws {
        guard case .factorized(var lu) = SparseLU<Rational>.factorize(columns: Self.columns) else {
            Issue.record("a regular basis was called singular")
            return
        }
        let a: [(index: Int, value: Rational)] = [(0, 1), (2, -3), (3, Rational(numerator: 1, denominator: 2))]
        var dense = [Rational](repeating: .zero, count: 4)
        for entry in a { dense[entry.index] = entry.value }
        #expect(Self.multiply(Self.columns, lu.solve(a)) == dense)
        // yᵀB = c: y·B[:, s] = c[s] for every slot.
        let c: [Rational] = [1, -2, 0, 7]
        let y = lu.solveTransposed(c)
        for (slot, column) in Self.columns.enumerated() {
            #expect(column.reduce(Rational.zero) { $0 + $1.value * y[$1.index] } == c[slot])
        }
        // Replace slot 1 by a new column; both solves follow the new basis.
        let entering: [(index: Int, value: Rational)] = [(0, 1), (1, 1), (2, 1), (3, 1)]
        lu.replace(slot: 1, alpha: lu.solve(entering))
        var updated = Self.columns
        updated[1] = entering
        #expect(Self.multiply(updated, lu.solve(a)) == dense)
        let y2 = lu.solveTransposed(c)
        for (slot, column) in updated.enumerated() {
            #expect(column.reduce(Rational.zero) { $0 + $1.value * y2[$1.index] } == c[slot])
        }
    }

    @Test func floatSolvesAgreeWithinRounding() throws {
        let columns = Self.columns.map { $0.map { (index: $0.index, value: $0.value.doubleValue) } }
        guard case .factorized(let lu) = SparseLU<Double>.factorize(columns: columns) else {
            Issue.record("a regular basis was called singular")
            return
        }
        let z = lu.solve([(0, 1.0), (2, -3.0)])
        let back = Self.multiply(columns, z)
        for (i, expected) in [1.0, 0, -3, 0].enumerated() { #expect(abs(back[i] - expected) < 1e-12) }
    }

    @Test func singularBasesNameTheirLeftoverSlotsAndRows() {
        // Slot 1 is twice slot 0: dependent.
        let columns: [[(index: Int, value: Rational)]] = [[(0, 1), (1, 1)], [(0, 2), (1, 2)], [(2, 1)]]
        guard case .singular(let slots, let rows) = SparseLU<Rational>.factorize(columns: columns) else {
            Issue.record("a singular basis was factorized")
            return
        }
        #expect(slots.count == 1 && rows.count == 1)
    }

    /// The exact run finishes from whatever basis the float run hands it: a singular one
    /// (completed with activity columns), a feasible non-optimal one, the slack basis —
    /// always the same optimum, with a certificate the verifier accepts.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: netlibCorpus), "../shared/corpora/netlib is absent"))
    func exactFinishFromAnyStartBasisReachesTheOptimum() throws {
        let lp = try MPSReader.read(path: "\(netlibCorpus)/afiro.mps.gz")
        let reference = try solveChecked(lp)
        let n = lp.columnCount, m = lp.rowCount
        let starts: [(basis: [Int], note: String)] = [
            (Array(n..<(n + m)), "slack"),
            // The first m structural columns: singular for afiro (repaired with activities).
            (Array(0..<m), "structural"),
            // Column 0 and the activities of every row but its first.
            ([0] + Array((n + 1)..<(n + m)), "one column in"),
        ]
        var repaired = 0
        for start in starts {
            var exact = RevisedSimplex<Rational>(lp: lp, options: .init(), startBasis: start.basis)
            repaired += exact.repairedSlots
            let result = exact.run()
            #expect(result.status == .optimal, "\(start.note)")
            #expect(result.objective == reference.objective, "\(start.note)")
            let certificate = try #require(result.certificate)
            #expect(LPCertificateVerifier.failure(of: certificate, for: lp) == nil, "\(start.note)")
        }
        #expect(repaired > 0, "no start basis needed repair: the singular path went untested")
    }

    /// The dual phase of the float run: x3 flips to its lower bound inside the long-step ratio
    /// test instead of entering, and the free z, whose cost pulls it to −∞, gets an artificial
    /// bound that is gone again afterwards. The basis it ends with is optimal in exact
    /// arithmetic, with the certificate checked.
    @Test func dualSimplexFlipsBoundsAndDropsItsArtificialBounds() throws {
        // min −3x1 − 2x2 − x3 + z, x1 + x2 + x3 ≤ 3/2, z − x1 ≥ −10, 0 ≤ x ≤ 1, z free.
        let lp = try read("""
            NAME
            ROWS
             N  OBJ
             L  SUM
             G  LINK
            COLUMNS
                X1  OBJ  -3  SUM  1
                X1  LINK  -1
                X2  OBJ  -2  SUM  1
                X3  OBJ  -1  SUM  1
                Z  OBJ  1  LINK  1
            RHS
                RHS  SUM  1.5  LINK  -10
            BOUNDS
             UP BND X1 1
             UP BND X2 1
             UP BND X3 1
             FR BND Z
            ENDATA
            """)
        var float = RevisedSimplex<Double>(lp: lp, options: .init())
        let stranded = float.runDual()
        #expect(stranded == 0)
        #expect(float.flips >= 1)
        #expect(float.lower[3] == nil && float.upper[3] == nil, "z keeps an artificial bound")
        let proven = try #require(ExactLPSolver.verifiedBasis(lp, basis: float.basis, atUpper: float.atUpperBounds()))
        // x1 = 1, x2 = 1/2, x3 = 0, z = −9.
        #expect(proven.objective == -13)
    }

    /// The float run's answer is never reported: no certificate, no objective.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: netlibCorpus), "../shared/corpora/netlib is absent"))
    func floatRunGivesABasisOnly() throws {
        let lp = try MPSReader.read(path: "\(netlibCorpus)/afiro.mps.gz")
        var float = RevisedSimplex<Double>(lp: lp, options: .init())
        let result = float.run()
        #expect(result.status == .optimal)
        #expect(result.certificate == nil && result.objective == nil)
        #expect(float.basis.count == lp.rowCount)
    }
}
