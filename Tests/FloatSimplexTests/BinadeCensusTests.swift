import Generator
import Testing
@testable import FloatSimplex

@Suite struct BinadeCensusTests {
    /// The largest binade present, against the numbers themselves: insertions, removals that
    /// empty the top binade (and the next), replacements, zeros and non-finite numbers.
    @Test func largestFollowsTheNumbersHeld() {
        var random = SeededGenerator(seed: 29)
        var census = BinadeCensus()
        var held: [Double] = []
        #expect(census.largest == 0)
        for step in 0..<4_000 {
            if held.isEmpty || random.next() % 3 != 0 {
                // Magnitudes from 1e-300 to 1e300, either sign, some zeros and infinities.
                let exponent = Int(random.next() % 600) - 300
                let x = random.next() % 50 == 0 ? 0 : random.next() % 97 == 0 ? .infinity : Double(sign: random.next() % 2 == 0 ? .plus : .minus, exponent: exponent, significand: 1.5)
                census.insert(x)
                held.append(x)
            } else if random.next() % 2 == 0 {
                census.remove(held.remove(at: Int(random.next() % UInt64(held.count))))
            } else {
                let index = Int(random.next() % UInt64(held.count))
                let new = held[index] * 0x1p-40
                census.replace(held[index], with: new)
                held[index] = new
            }
            let counted = held.filter { $0 != 0 && $0.isFinite }
            let largest = counted.map(\.magnitude).max() ?? 0
            #expect(census.count == counted.count, "step \(step)")
            // A lower bound within a factor of 2 of the largest magnitude held.
            #expect(largest == 0 ? census.largest == 0 : census.largest <= largest && largest < 2 * census.largest, "step \(step)")
        }
    }

    /// The scale of held constraints follows removals: a layout whose largest constant left
    /// with its view is measured by what is left (the removal that rebuilds the rows, see
    /// `Corpora/regressions/suboptimal-float-c6f864c15159aa27`).
    @Test func aSolverCountsItsHeldConstants() throws {
        var solver = CassowarySolver()
        let a = Variable(0), b = Variable(1)
        let big = try solver.addConstraint(LinearConstraint([.init(a, 1)], constant: -31_420_000_000, relation: .greaterThanOrEqual))
        _ = try solver.addConstraint(LinearConstraint([.init(b, 1)], constant: -20, relation: .lessThanOrEqual, strength: Strength(level: 1)))
        #expect(solver.heldConstants.largest == 0x1p34)
        try solver.setConstants([(big, -1_000)])
        #expect(solver.heldConstants.largest == 512)
        try solver.removeConstraint(big)
        #expect(solver.heldConstants.largest == 16)
        #expect(solver.heldConstants.count == 1)
    }
}
