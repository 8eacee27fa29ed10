import Generator
import Testing
@testable import FloatSimplex

@Suite struct SymbolMemoTests {
    /// Keys drawn from a small range (many repeats and overwrites) and from a large one
    /// (growth past several doublings, clustered and spread indices), against a dictionary.
    @Test(arguments: [64, 1 << 20])
    func agreesWithADictionary(range: Int) {
        var random = SeededGenerator(seed: 23)
        var memo = SymbolMemo()
        var model: [Int: Double] = [:]
        for step in 0..<5_000 {
            let symbol = Int(random.next() % UInt64(range))
            #expect(memo[symbol] == model[symbol], "step \(step): symbol \(symbol)")
            if random.next() % 3 != 0 {
                let value = Double(step) * 0.5
                memo.remember(value, for: symbol)
                model[symbol] = value
            }
        }
        for symbol in model.keys { #expect(memo[symbol] == model[symbol]) }
        // Symbols never remembered are absent, however their hashes collide with others'.
        for symbol in 0..<min(range, 4_096) where model[symbol] == nil { #expect(memo[symbol] == nil) }
    }

    /// Consecutive indices (a tableau's symbols are numbered densely) fill the table without
    /// losing one, through every growth.
    @Test func consecutiveSymbolsSurviveGrowth() {
        var memo = SymbolMemo(expected: 1)
        for symbol in 0..<10_000 { memo.remember(Double(symbol), for: symbol) }
        #expect((0..<10_000).allSatisfy { memo[$0] == Double($0) })
        #expect(memo[10_000] == nil)
    }
}
