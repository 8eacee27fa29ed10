import BackendContract
import Testing
@testable import FloatSimplex

/// The primal simplex's shortcuts for many candidates at a degenerate vertex: the
/// ``EnteringQueue`` instead of a scan per pivot, and the entering column read only to its
/// first degenerate block. Both change which pivots are taken, never the optimum.
@Suite struct EnteringQueueTests {
    /// A row of `count` chips 8 apart from x = 0, each hugging its intrinsic width (32 to
    /// 160) at level 3 and resisting compression at level 1, one chip at level 2; the row's
    /// trailing edge would like to stay within 600 at `trailingLevel`. The row is far wider,
    /// so once the last constraint is in, every chip's hugging slack is a candidate at once
    /// (as in the `long-row` family).
    static func chipRow(_ count: Int, trailingLevel: Int, seed: UInt64) -> [LinearConstraint] {
        var random = TestRandom(seed: seed)
        let yielding = random.int(0...(count - 1))
        var constraints = [constraint([(0, 1)], 0, .equal)]
        for chip in 0..<count {
            let x = 2 * chip, width = 2 * chip + 1
            let intrinsic = Double(random.int(32...160))
            if chip > 0 { constraints.append(constraint([(x, 1), (x - 2, -1), (x - 1, -1)], -8, .equal)) }
            constraints.append(constraint([(width, 1)], -intrinsic, .lessThanOrEqual, level: 3))
            constraints.append(constraint([(width, 1)], -intrinsic, .greaterThanOrEqual, level: chip == yielding ? 2 : 1))
        }
        constraints.append(constraint([(2 * count - 2, 1), (2 * count - 1, 1)], -600, .lessThanOrEqual, level: trailingLevel))
        return constraints
    }

    @Test(arguments: [(70, 1), (70, 3), (200, 1), (200, 2)])
    func theQueueAndShortColumnsReachTheScansOptimum(_ count: Int, _ trailingLevel: Int) throws {
        let constraints = Self.chipRow(count, trailingLevel: trailingLevel, seed: UInt64(count * 10 + trailingLevel))
        var fast = CassowarySolver()
        var scanned = CassowarySolver()
        scanned.queuesManyCandidates = false
        var whole = CassowarySolver()
        whole.queuesManyCandidates = false
        whole.walksWholeEnteringColumns = true
        for c in constraints {
            try fast.addConstraint(c)
            try scanned.addConstraint(c)
            try whole.addConstraint(c)
        }
        #expect(fast.enteringQueuesBuilt > 0, "the overflow should make more than \(EnteringQueue.minimumCandidates) candidates")
        #expect(scanned.enteringQueuesBuilt == 0 && whole.enteringQueuesBuilt == 0)
        for v in 0..<(2 * count) {
            let expected = whole.value(of: Variable(v))
            #expect(isClose(fast.value(of: Variable(v)), expected, tolerance: 1e-12), "v\(v)")
            #expect(isClose(scanned.value(of: Variable(v)), expected, tolerance: 1e-12), "v\(v)")
        }
        #expect(fast.objective(levelCount: 3) == whole.objective(levelCount: 3))
        fast.tableau._checkInvariants()
        // The overflow is taken up by the chip that resists at level 2 when the edge outranks
        // it, and stays on the edge otherwise.
        let widths = (0..<count).map { fast.value(of: Variable(2 * $0 + 1)) }
        let end = fast.value(of: Variable(2 * count - 2)) + widths[count - 1]
        if trailingLevel < 2 {
            #expect(abs(end - 600) < 1e-9)
        } else {
            #expect(end > 600)
        }
    }
}
