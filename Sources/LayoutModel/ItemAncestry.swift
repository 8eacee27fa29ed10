/// Every item's parent and depth, computed once, so that the nearest common ancestor of two
/// items costs their distance to it rather than their depth.
///
/// Lowering asks for the ancestor of every constraint; walking each item's chain up to the
/// root made a chain nested 12,500 deep cost O(depth²). With depths known, the deeper item
/// walks up to the other's depth and then both walk together, which is one step for a
/// constraint between a view and its parent.
///
/// Parents that are not earlier items (only a system that failed validation has them) are
/// read as the root, so a malformed system can neither trap nor loop here.
public struct ItemAncestry: Sendable {
    /// `parents[i]` is item i's parent (the root's is itself, 0).
    public let parents: [ItemIndex]
    /// The root has depth 0, its views 1, and so on.
    public let depths: [Int]

    public init(_ system: ConstraintSystem) {
        var parents = [ItemIndex](repeating: 0, count: system.items.count)
        var depths = [Int](repeating: 0, count: system.items.count)
        for index in system.items.indices.dropFirst() {
            let parent = system.items[index].parent.flatMap { (0..<index).contains($0) ? $0 : nil } ?? 0
            parents[index] = parent
            depths[index] = depths[parent] + 1
        }
        self.parents = parents
        self.depths = depths
    }

    /// The nearest common ancestor of two items (an item is its own ancestor).
    public func nearestCommonAncestor(_ a: ItemIndex, _ b: ItemIndex) -> ItemIndex {
        guard parents.indices.contains(a), parents.indices.contains(b) else { return 0 }
        var a = a, b = b
        while depths[a] > depths[b] { a = parents[a] }
        while depths[b] > depths[a] { b = parents[b] }
        while a != b { a = parents[a]; b = parents[b] }
        return a
    }

    /// The same answer without a table: both depths are found by walking up (at most
    /// `itemCount` steps each, so a parent cycle cannot hang it), then as above.
    static func nearestCommonAncestor(
        _ a: ItemIndex, _ b: ItemIndex, parentOf: (ItemIndex) -> ItemIndex?, itemCount: Int
    ) -> ItemIndex {
        func parent(_ i: ItemIndex) -> ItemIndex {
            guard let p = parentOf(i), (0..<i).contains(p) else { return 0 }
            return p
        }
        func depth(_ i: ItemIndex) -> Int {
            var d = 0
            var cursor = i
            while cursor != 0 { cursor = parent(cursor); d += 1 }
            return d
        }
        guard (0..<itemCount).contains(a), (0..<itemCount).contains(b) else { return 0 }
        var a = a, b = b
        var da = depth(a), db = depth(b)
        while da > db { a = parent(a); da -= 1 }
        while db > da { b = parent(b); db -= 1 }
        while a != b { a = parent(a); b = parent(b) }
        return a
    }
}
