import Foundation
import LayoutModel
@testable import FloatSimplex
import Generator

/// The repository root, found from this file's path.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A small fixed-seed SplitMix64, so the tests' randomness is reproducible.
/// The project's SplitMix64, with draws for these tests.
typealias TestRandom = SplitMix64

extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    mutating func chance(_ p: Double) -> Bool { double(0...1) < p }
}

func term(_ variable: Int, _ coefficient: Double) -> LinearConstraint.Term {
    LinearConstraint.Term(Variable(variable), coefficient)
}

/// `Σ terms + constant REL 0` at a level.
func constraint(_ terms: [(Int, Double)], _ constant: Double, _ relation: Relation, level: Int = 0) -> LinearConstraint {
    LinearConstraint(terms.map { term($0.0, $0.1) }, constant: constant, relation: relation, strength: Strength(level: level))
}

func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-6) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

extension Tableau {
    /// Everything that defines the solver's state, in a form that compares exactly: rows as
    /// stored, values bit for bit, the column index and lists as sets.
    var fingerprint: String {
        var lines: [String] = []
        for symbol in 0..<symbolCount {
            let row = symbols[symbol].isBasic ? self.row(symbol).terms.map { "\($0.symbol):\($0.coefficient.bitPattern)" }.joined(separator: ",") : "-"
            let constant = symbols[symbol].isBasic ? "\(self.row(symbol).constant.bitPattern)" : "-"
            let cost = reducedCosts[symbol].entries.map { "\($0.level):\($0.value.bitPattern)" }.joined(separator: ",")
            lines.append(
                "\(symbol) \(symbols[symbol].kind) \(symbols[symbol].isBasic) r\(symbols[symbol].isBasic ? symbols[symbol].rank : 0) c\(constant) [\(row)] v\(symbols[symbol].value.bitPattern) u\(Array(users[symbol]).sorted()) d[\(cost)] o\(symbols[symbol].owner) l\(symbols[symbol].costLevel)")
        }
        lines.append("cand \(candidates.sorted()) inf \(infeasible.sorted()) ranks \(lowRank) \(highRank) tol \(tolerance)")
        return lines.joined(separator: "\n")
    }
}

extension CassowarySolver {
    var fingerprint: String {
        let live = records.enumerated().compactMap { $0.element == nil ? nil : "\($0.offset)" }.joined(separator: ",")
        return tableau.fingerprint + "\nrecords \(records.count) live \(live) edits \(edits.count)"
    }
}
