import LayoutModel

/// The benchmark workloads as `.layout` text: chains, nested trees and grids.
enum Workload: String, CaseIterable, Sendable {
    case chain, tree, grid

    /// The layout with about `views` views (a grid rounds to a square).
    func layout(views: Int) -> String {
        switch self {
        case .chain: return Self.chain(views)
        case .tree: return Self.tree(views)
        case .grid: return Self.grid(side: max(1, Int(Double(views).squareRoot().rounded())))
        }
    }

    /// `v[i].leading == v[i-1].trailing + 8`, widths `== 50 @250` and `>= 20`, each view
    /// pinned top and height: a triangular system, every unknown determined.
    static func chain(_ n: Int) -> String {
        var lines = ["layout \"chain \(n)\"", "root superview 1000000 100"]
        for i in 0..<n { lines.append("view v\(i)") }
        lines.append("v0.leading == superview.leading + 8")
        for i in 0..<n {
            if i > 0 { lines.append("v\(i).leading == v\(i - 1).trailing + 8") }
            lines.append("v\(i).width == 50 @250")
            lines.append("v\(i).width >= 20")
            lines.append("v\(i).top == superview.top + 8")
            lines.append("v\(i).height == 30")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A binary tree of nested views (view i's parent is view (i−1)/2), each pinned by its
    /// parent's margins: an only child fills them, two children share them with equal
    /// widths and a gap of 8. Every view also wishes to be at least 10 tall (@500).
    static func tree(_ n: Int) -> String {
        var lines = ["layout \"tree \(n)\"", "root superview 1000000 1000"]
        for i in 0..<n { lines.append(i == 0 ? "view v0" : "view v\(i) in v\((i - 1) / 2)") }
        lines.append("v0.leading == superview.leadingMargin")
        lines.append("v0.trailing == superview.trailingMargin")
        lines.append("v0.top == superview.topMargin")
        lines.append("v0.bottom == superview.bottomMargin")
        for parent in 0..<n {
            let children = [2 * parent + 1, 2 * parent + 2].filter { $0 < n }
            guard let first = children.first, let last = children.last else { continue }
            lines.append("v\(first).leading == v\(parent).leadingMargin")
            if first != last {
                lines.append("v\(last).leading == v\(first).trailing + 8")
                lines.append("v\(last).width == v\(first).width")
            }
            lines.append("v\(last).trailing == v\(parent).trailingMargin")
            for child in children {
                lines.append("v\(child).top == v\(parent).topMargin")
                lines.append("v\(child).bottom == v\(parent).bottomMargin")
            }
        }
        for i in 0..<n { lines.append("v\(i).height >= 10 @500") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A side × side grid: cells flush with their left and upper neighbours (gap 8), equal
    /// widths along a row and equal heights down a column and along the first row, the first cell wishing for
    /// 40 × 30 (@250), the last column pinned to the root's trailing edge (@750) and every
    /// width at least 10: the 750 level fixes the widths, the 250 level the heights.
    static func grid(side k: Int) -> String {
        var lines = ["layout \"grid \(k)x\(k)\"", "root superview \(8 + 58 * k) 100000"]
        func cell(_ r: Int, _ c: Int) -> String { "g\(r)_\(c)" }
        for r in 0..<k { for c in 0..<k { lines.append("view \(cell(r, c))") } }
        for r in 0..<k {
            for c in 0..<k {
                let v = cell(r, c)
                lines.append(c == 0 ? "\(v).leading == superview.leading + 8" : "\(v).leading == \(cell(r, c - 1)).trailing + 8")
                lines.append(r == 0 ? "\(v).top == superview.top + 8" : "\(v).top == \(cell(r - 1, c)).bottom + 8")
                if c > 0 { lines.append("\(v).width == \(cell(r, c - 1)).width") }
                if r > 0 { lines.append("\(v).height == \(cell(r - 1, c)).height") }
                if r == 0 && c > 0 { lines.append("\(v).height == \(cell(0, c - 1)).height") }
                lines.append("\(v).width >= 10")
            }
            lines.append("\(cell(r, k - 1)).trailing == superview.trailing - 8 @750")
        }
        lines.append("\(cell(0, 0)).width == 40 @250")
        lines.append("\(cell(0, 0)).height == 30 @250")
        return lines.joined(separator: "\n") + "\n"
    }
}
