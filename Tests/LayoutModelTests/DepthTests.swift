import Testing
@testable import LayoutModel

/// Deep nesting costs what flat nesting costs (issue 18, item 7): nearest common ancestors
/// come from a depth table, not from each item's whole chain of ancestors.
@Suite struct DepthTests {
    /// A chain of `depth` views, each inside the previous, each tied to its parent.
    static func nestedChain(depth: Int) -> String {
        var text = "root r 375 667\nview v0\nv0.left == r.left\nv0.top == r.top\nv0.width == 300\nv0.height == 600\n"
        for i in 1..<depth {
            text += "view v\(i) in v\(i - 1)\n"
            text += "v\(i).left == v\(i - 1).left + 1\nv\(i).top == v\(i - 1).top + 1\n"
            text += "v\(i).width == v\(i - 1).width\nv\(i).height == v\(i - 1).height\n"
        }
        return text
    }

    /// The chain, 12,500 deep: it parses, lowers and frames (this took 23–42 s when
    /// every row walked its items' whole ancestry).
    @Test func deepChainParsesAndLowers() throws {
        let system = try parse(Self.nestedChain(depth: 12_500))
        #expect(system.viewCount == 12_500)
        let rows = system.lowered(as: Double.self).rows
        #expect(rows.count == 4 * 12_500)
        // v1.left == v0.left + 1 in v0's space: v1.x − v0.x − 1.
        #expect(loweredRow(system, 4).terms == ["v1.x": 1, "v0.x": -1])
        let ancestry = ItemAncestry(system)
        #expect(ancestry.depths.last == 12_500)
        #expect(ancestry.nearestCommonAncestor(12_500, 2) == 2)
    }

    /// The table agrees with the definition (the deepest item on both ancestor chains) on
    /// random trees, and the table-free walk agrees with both.
    @Test func ancestorTableAgreesWithTheDefinition() {
        var random = TestRandom(state: 7)
        for _ in 0..<50 {
            var system = ConstraintSystem(rootName: "r", frame: [.zero, .zero, .one, .one])
            for k in 1...40 { system.addView(Item(name: "v\(k)", parent: random.below(k))) }
            let ancestry = ItemAncestry(system)
            func chain(_ i: ItemIndex) -> [ItemIndex] {
                var out = [i]
                while let p = system.items[out[out.count - 1]].parent { out.append(p) }
                return out
            }
            for _ in 0..<100 {
                let a = random.below(system.items.count), b = random.below(system.items.count)
                let expected = chain(a).first { chain(b).contains($0) }
                #expect(ancestry.nearestCommonAncestor(a, b) == expected)
                #expect(system.nearestCommonAncestor(a, b) == expected)
            }
        }
    }

    /// A parent that is not an earlier item (a system that failed validation) neither traps
    /// nor loops.
    @Test func malformedParentsEndTheWalk() {
        var system = ConstraintSystem(rootName: "r", frame: [.zero, .zero, .one, .one])
        system.items.append(Item(name: "a", parent: 2))
        system.items.append(Item(name: "b", parent: 1))
        system.items[0].parent = 0
        #expect(system.nearestCommonAncestor(1, 2) == 1)
        #expect(ItemAncestry(system).nearestCommonAncestor(2, 1) == 1)
        #expect(system.nearestCommonAncestor(5, 1) == 0)
    }
}
