import BackendContract
import LayoutModel
import Testing
@testable import FloatSimplex

/// Thousands of priority levels: reduced costs as long as the levels, added to in place and
/// journaled by the level they change; the one-shot backend adds optional rows strongest
/// level first, so a level weaker than every one held costs no pivot.
@Suite struct ManyLevelsTests {
    /// `self += factor · other` by the rule ``LexVector/add(_:times:)`` documents, computed
    /// independently (a dictionary per level): an entry is dropped when it is zero or
    /// cancellation residue of its two summands.
    static func referenceSum(_ a: [LexVector.Entry], _ b: [LexVector.Entry], times factor: Double) -> [LexVector.Entry] {
        var values: [Int32: (value: Double, magnitude: Double)] = [:]
        for entry in a { values[entry.level] = (entry.value, 0) }
        for entry in b {
            let added = factor * entry.value
            if let old = values[entry.level] {
                values[entry.level] = (old.value + added, max(abs(old.value), abs(added)))
            } else {
                values[entry.level] = (added, 0)
            }
        }
        return values.keys.sorted().compactMap { level in
            let (value, magnitude) = values[level]!
            return value == 0 || Tolerance.isCancelled(value, of: magnitude) ? nil : LexVector.Entry(level: level, value: value)
        }
    }

    static func vector(_ entries: [LexVector.Entry]) -> LexVector {
        var vector = LexVector()
        for entry in entries { vector.add(LexVector(level: entry.level, value: entry.value), times: 1) }
        return vector
    }

    @Test func inPlaceAdditionEqualsAnIndependentSum() {
        var random = TestRandom(seed: 1823)
        for _ in 0..<3000 {
            let length = random.int(0...12)
            let levels = (0..<length).map { _ in Int32(random.int(1...16)) }
            var entries: [LexVector.Entry] = []
            for level in Set(levels).sorted() { entries.append(.init(level: level, value: Double(random.int(-4...4)) + 0.25)) }
            var vector = Self.vector(entries)
            #expect(vector.entries == entries)
            // A one-entry addend (updated, inserted anywhere, or cancelled) or a longer one.
            let addend: [LexVector.Entry]
            if random.chance(0.7) {
                let level = random.chance(0.5) && !entries.isEmpty ? entries[random.int(0...(entries.count - 1))].level : Int32(random.int(1...17))
                let existing = entries.first { $0.level == level }?.value
                let value = existing.map { random.chance(0.5) ? -$0 : $0 + 1 } ?? 1.5
                addend = [.init(level: level, value: value)]
            } else {
                addend = Set((0..<random.int(2...5)).map { _ in Int32(random.int(1...17)) }).sorted().map { .init(level: $0, value: 2) }
            }
            let factor = random.chance(0.5) ? 1.0 : -0.5
            vector.add(Self.vector(addend), times: factor)
            #expect(vector.entries == Self.referenceSum(entries, addend, times: factor))
        }
    }

    @Test func oneLevelIsReadAndRestoredExactly() {
        var random = TestRandom(seed: 18)
        for _ in 0..<500 {
            let entries = Set((0..<random.int(0...10)).map { _ in Int32(random.int(1...20)) }).sorted().map {
                LexVector.Entry(level: $0, value: Double(random.int(1...9)))
            }
            let original = Self.vector(entries)
            let level = Int32(random.int(1...21))
            let old = original.value(atLevel: level)
            #expect(old == (entries.first { $0.level == level }?.value ?? 0))
            var changed = original
            changed.add(LexVector(level: level, value: random.chance(0.5) ? -old : 3), times: 1)
            changed.setValue(old, atLevel: level)
            #expect(changed == original)
        }
    }

    /// A view whose optional widths each conflict with every other, the stronger ones added
    /// last (so each addition pivots), with a budget that ends an addition inside its
    /// re-optimisation: the rollback restores reduced costs dozens of levels long from the
    /// journal's one-level entries, bit for bit; a later addition still succeeds.
    @Test func aBudgetStopWithLongReducedCostsLeavesNoTrace() throws {
        let levels = 60
        var solver = CassowarySolver(budget: Budget(iterations: 40))
        var added = 0
        var stopped = 0
        for i in 0..<levels {
            let width = constraint([(0, 1)], -Double(i), .equal, level: levels - i)
            let before = solver.fingerprint
            do {
                try solver.addConstraint(width)
                added += 1
            } catch {
                #expect(error == .budgetExceeded)
                #expect(solver.fingerprint == before, "an addition stopped by the budget left a trace")
                stopped += 1
            }
        }
        #expect(added >= 30 && stopped > 0)
        #expect(solver.tableau.reducedCosts.contains { $0.count > 20 })
        var free = CassowarySolver(budget: .unlimited)
        for i in 0..<levels { try free.addConstraint(constraint([(0, 1)], -Double(i), .equal, level: levels - i)) }
        #expect(free.value(of: Variable(0)) == Double(levels - 1))
    }

    static func levelsLayout(_ order: [Int], count: Int) -> String {
        var text = "root s 0 0 1000 1000\nview a\n"
        for i in order { text += "a.width == \(i) @\(1 + Double(i) * 998 / Double(count))\n" }
        return text
    }

    /// 3,000 levels on one view, weakest first in the file (the order that made float
    /// quadratic): no pivot at all, the strongest level's width, and the same answer from a
    /// shuffled file.
    @Test func thousandsOfLevelsInFileOrderCostNoPivot() throws {
        let count = 3000
        let ascending = try LayoutParser.parse(Self.levelsLayout(Array(0..<count), count: count))
        let float = try CassowaryBackend().solve(ascending, budget: .unlimited)
        #expect(float.solution.status == .optimal)
        #expect(float.statistics.iterations == 0)
        #expect(float.solution.values[2] == Double(count - 1))
        var random = TestRandom(seed: 3000)
        var shuffled = Array(0..<count)
        for index in stride(from: count - 1, to: 0, by: -1) { shuffled.swapAt(index, random.int(0...index)) }
        let other = try CassowaryBackend().solve(try LayoutParser.parse(Self.levelsLayout(shuffled, count: count)), budget: .unlimited)
        #expect(other.solution.values == float.solution.values)
        #expect(other.statistics.iterations == 0)
    }
}
