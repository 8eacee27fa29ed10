import FloatSimplex
import Foundation
import LayoutModel

/// A benchmark workload for the incremental API: constraints to add in order, then edit
/// variables and a sequence of suggestions. The same workload is exported to kiwi
/// (``kiwiJSON()``) so both solvers see identical rows in identical order.
public struct IncrementalWorkload: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// `v[i].leading == v[i-1].trailing + 8`, `width == 50 @250`, `width >= 20`.
        case chain
        /// A binary tree of nested views, each pinned to its parent's edges by margins of 8,
        /// siblings side by side with equal widths.
        case tree
        /// A grid: rows and columns spaced by 8, shared column widths and row heights, and a
        /// redundant column alignment for every inner cell.
        case grid
        /// Independent table cells of 12 constraints each (a cell and its title label), each
        /// laid out by a solver of its own, as a table view lays out its cells.
        case cells
        /// An enaml-like form (labels and fields around a midline) with the window's width and
        /// height as strong edit variables, resized by 1,000 suggestions.
        case form
        /// The chain with the root's width as a variable pinned to the last view, made an edit
        /// variable and swept by 1,000 suggestions.
        case resize
    }

    /// A variable made editable, at a strength.
    public struct Edit: Sendable {
        public var variable: Variable
        public var strength: Strength
    }

    public var kind: Kind
    public var size: Int
    public var constraints: [LinearConstraint]
    public var variableCount: Int
    /// The number of optional levels.
    public var levelCount: Int
    /// kiwi strengths for levels 1…`levelCount`, where the workload copies a kiwi benchmark;
    /// nil lets the driver spread the levels over kiwi's range.
    public var kiwiStrengths: [Double]? = nil
    public var edits: [Edit] = []
    /// Each step suggests values for some edit variables, then the values are read.
    public var suggestions: [[(variable: Variable, value: Double)]] = []
    /// When set, every consecutive `groupSize` constraints go to a fresh solver.
    public var groupSize: Int? = nil
    /// The layout the rows come from, when there is one (for the one-shot backends).
    public var system: ConstraintSystem?

    /// The name of a workload made from a layout (``adding(_:name:)``).
    var layoutName: String? = nil

    public var name: String { layoutName ?? "\(kind.rawValue)-\(size)" }

    /// A whole layout's rows in the order the `float` backend adds them
    /// (``CassowaryBackend/additionOrder(_:)``), lowered as it lowers them, so that timing this
    /// workload times the backend's incremental core on the same system; nil when a number
    /// does not fit a `Double`. `kind` says nothing here (it is `.chain`); `name` is `name`.
    /// `order`, when given, is the order a solve added the rows in
    /// (``CassowaryBackend/solveReportingOrder(_:budget:)``).
    public static func adding(_ system: ConstraintSystem, name: String, order: [Int]? = nil) -> IncrementalWorkload? {
        guard let linear = CassowaryBackend.lower(system) else { return nil }
        let ordered = order.map { $0.map { linear.rows[$0] } } ?? CassowaryBackend.additionOrder(linear)
        var workload = IncrementalWorkload(
            kind: .chain, size: system.viewCount, constraints: ordered.map(LinearConstraint.init),
            variableCount: linear.variableCount, levelCount: linear.levels.count, system: system)
        workload.layoutName = name
        return workload
    }

    /// Builds the workload. `size` counts views (chain, tree, grid, resize), cells, or form rows.
    public static func make(_ kind: Kind, size: Int) -> IncrementalWorkload {
        let size = max(1, size)
        switch kind {
        case .chain: return fromSystem(kind, size: size, chainSystem(size))
        case .tree: return fromSystem(kind, size: size, treeSystem(size))
        case .grid: return fromSystem(kind, size: size, gridSystem(size))
        case .cells:
            var workload = fromSystem(kind, size: size, cellsSystem(size))
            workload.groupSize = 12
            return workload
        case .form: return form(rows: size)
        case .resize: return resize(size)
        }
    }

    static func fromSystem(_ kind: Kind, size: Int, _ system: ConstraintSystem) -> IncrementalWorkload {
        let linear = system.lowered(as: Double.self)
        return IncrementalWorkload(
            kind: kind, size: size, constraints: linear.rows.map(LinearConstraint.init),
            variableCount: linear.variableCount, levelCount: linear.levels.count,
            system: system)
    }

    // MARK: Layouts

    private static func reference(_ item: ItemIndex, _ attribute: Attribute) -> AttributeReference {
        AttributeReference(item: item, attribute: attribute)
    }

    private static func add(
        _ system: inout ConstraintSystem, _ a: ItemIndex, _ aa: Attribute, _ relation: Relation,
        _ b: ItemIndex?, _ ba: Attribute?, plus constant: Int = 0, priority: Int = 1000
    ) {
        system.constraints.append(Constraint(
            first: reference(a, aa), relation: relation,
            second: b.flatMap { b in ba.map { reference(b, $0) } },
            constant: NumericLiteral(constant), priority: Priority(priority)))
    }

    /// The chain workload as a layout: `n` views side by side, each 8 after the previous, preferring 50 wide (@250), at least 20.
    public static func chainSystem(_ n: Int) -> ConstraintSystem {
        var system = ConstraintSystem(
            name: "chain \(n)", rootName: "root", frame: [.zero, .zero, NumericLiteral(58 * n + 8), NumericLiteral(100)])
        for i in 0..<n {
            let view = system.addView(Item(name: "v\(i)", parent: 0))
            if i == 0 {
                add(&system, view, .leading, .equal, 0, .leading, plus: 8)
            } else {
                add(&system, view, .leading, .equal, view - 1, .trailing, plus: 8)
            }
            add(&system, view, .width, .equal, nil, nil, plus: 50, priority: 250)
            add(&system, view, .width, .greaterThanOrEqual, nil, nil, plus: 20)
        }
        return system
    }

    /// The tree workload as a layout: `n` nested views, each pinned to its parent by margins of 8, siblings of equal width.
    public static func treeSystem(_ n: Int) -> ConstraintSystem {
        let side = NumericLiteral(1_000_000)
        var system = ConstraintSystem(name: "tree \(n)", rootName: "root", frame: [.zero, .zero, side, side])
        // View k (1-based) has parent k/2 (view 1's parent is the root) and children 2k, 2k+1.
        for k in 1...n {
            let parent: ItemIndex = k == 1 ? 0 : k / 2
            let view = system.addView(Item(name: "t\(k)", parent: parent))
            let isRight = k > 1 && k % 2 == 1
            let hasSibling = k > 1 && (isRight || k + 1 <= n)
            if isRight {
                add(&system, view, .leading, .equal, view - 1, .trailing, plus: 8)
                add(&system, view, .trailing, .equal, parent, .trailing, plus: -8)
                add(&system, view, .width, .equal, view - 1, .width)
            } else {
                add(&system, view, .leading, .equal, parent, .leading, plus: 8)
                if !hasSibling { add(&system, view, .trailing, .equal, parent, .trailing, plus: -8) }
            }
            add(&system, view, .top, .equal, parent, .top, plus: 8)
            add(&system, view, .bottom, .equal, parent, .bottom, plus: -8)
        }
        return system
    }

    /// The grid workload as a layout: rows and columns spaced by 8 with shared widths and heights.
    public static func gridSystem(_ n: Int) -> ConstraintSystem {
        var columns = 1
        while columns * columns < n { columns += 1 }
        var system = ConstraintSystem(
            name: "grid \(n)", rootName: "root", frame: [.zero, .zero, NumericLiteral(1_000_000), NumericLiteral(1_000_000)])
        for k in 0..<n {
            let view = system.addView(Item(name: "g\(k)", parent: 0))
            let row = k / columns, column = k % columns
            let left = view - 1, above = view - columns
            add(&system, view, .leading, .equal, column == 0 ? 0 : left, column == 0 ? .leading : .trailing, plus: 8)
            add(&system, view, .top, .equal, row == 0 ? 0 : above, row == 0 ? .top : .bottom, plus: 8)
            if row == 0 {
                add(&system, view, .width, .equal, nil, nil, plus: 40, priority: 250)
                add(&system, view, .width, .greaterThanOrEqual, nil, nil, plus: 20)
            } else {
                add(&system, view, .width, .equal, above, .width)
            }
            if column == 0 {
                add(&system, view, .height, .equal, nil, nil, plus: 30, priority: 250)
                add(&system, view, .height, .greaterThanOrEqual, nil, nil, plus: 20)
            } else {
                add(&system, view, .height, .equal, left, .height)
            }
            if row > 0 && column > 0 { add(&system, view, .leading, .equal, above, .leading) }
        }
        return system
    }

    /// The cells workload as a layout: `n` independent table cells of a title label each.
    public static func cellsSystem(_ n: Int) -> ConstraintSystem {
        var system = ConstraintSystem(
            name: "cells \(n)", rootName: "root", frame: [.zero, .zero, NumericLiteral(375), NumericLiteral(667)])
        for i in 0..<n {
            let cell = system.addView(Item(name: "cell\(i)", parent: 0))
            let title = system.addView(Item(name: "title\(i)", parent: cell))
            add(&system, cell, .leading, .equal, 0, .leading)
            add(&system, cell, .top, .equal, 0, .top)
            add(&system, cell, .width, .equal, nil, nil, plus: 375)
            add(&system, cell, .height, .greaterThanOrEqual, nil, nil, plus: 44)
            add(&system, cell, .height, .equal, nil, nil, plus: 60, priority: 250)
            add(&system, title, .leading, .equal, cell, .leading, plus: 16)
            add(&system, title, .trailing, .lessThanOrEqual, cell, .trailing, plus: -16)
            add(&system, title, .width, .equal, nil, nil, plus: 400, priority: 500)
            add(&system, title, .width, .greaterThanOrEqual, nil, nil, plus: 100)
            add(&system, title, .top, .equal, cell, .top, plus: 8)
            add(&system, title, .bottom, .lessThanOrEqual, cell, .bottom, plus: -8)
            add(&system, title, .height, .equal, nil, nil, plus: 21, priority: 750)
        }
        return system
    }

    // MARK: Incremental workloads with edit variables

    /// Rows `Σ terms + constant REL 0` over plain variables, for workloads with no layout file.
    struct RowBuilder {
        var constraints: [LinearConstraint] = []
        var variableCount = 0

        mutating func variable() -> Variable {
            variableCount += 1
            return Variable(variableCount - 1)
        }

        mutating func add(_ terms: [(Variable, Double)], _ constant: Double, _ relation: Relation, level: Int = 0) {
            constraints.append(LinearConstraint(
                terms.map { LinearConstraint.Term($0.0, $0.1) }, constant: constant, relation: relation,
                strength: Strength(level: level)))
        }
    }

    /// The chain of `n` views with the root's width W (a variable) pinned to the last view:
    /// `W == v[n-1].trailing + 8`; W is made an edit variable (level 1, above the widths'
    /// level 2) and swept between 43 and 73 points per view by 1,000 suggestions.
    static func resize(_ n: Int) -> IncrementalWorkload {
        var rows = RowBuilder()
        var previousX: Variable?
        var previousW: Variable?
        for _ in 0..<n {
            let x = rows.variable(), w = rows.variable()
            if let px = previousX, let pw = previousW {
                rows.add([(x, 1), (px, -1), (pw, -1)], -8, .equal)
            } else {
                rows.add([(x, 1)], -8, .equal)
            }
            rows.add([(w, 1)], -50, .equal, level: 2)
            rows.add([(w, 1)], -20, .greaterThanOrEqual)
            previousX = x
            previousW = w
        }
        let width = rows.variable()
        if let px = previousX, let pw = previousW { rows.add([(width, 1), (px, -1), (pw, -1)], -8, .equal) }
        var workload = IncrementalWorkload(
            kind: .resize, size: n, constraints: rows.constraints, variableCount: rows.variableCount,
            levelCount: 2)
        workload.edits = [Edit(variable: width, strength: Strength(level: 1))]
        let natural = 8 + 58 * Double(n)
        workload.suggestions = (0..<1000).map { step in
            [(width, (natural + 200 * sin(Double(step) * 2 * .pi / 250)).rounded())]
        }
        return workload
    }

    /// A dialog in the style enaml generates: `rows` label–field pairs around a midline inside
    /// a window whose width and height are strong edit variables; kiwi's own enaml-like
    /// benchmark resizes such a form. Levels: 1 strong, 2 "smedium", 3 "mmedium", 4 medium, 5 weak.
    static func form(rows count: Int) -> IncrementalWorkload {
        var rows = RowBuilder()
        let (strong, smedium, mmedium, medium, weak) = (1, 2, 3, 4, 5)
        let left = rows.variable(), top = rows.variable(), width = rows.variable(), height = rows.variable()
        let contentLeft = rows.variable(), contentRight = rows.variable()
        let contentTop = rows.variable(), contentBottom = rows.variable(), midline = rows.variable()
        for v in [left, top, width, height] { rows.add([(v, 1)], 0, .greaterThanOrEqual) }
        rows.add([(width, 1)], 0, .equal, level: medium)
        rows.add([(height, 1)], 0, .equal, level: medium)
        rows.add([(contentLeft, 1), (left, -1)], -10, .equal)
        rows.add([(contentRight, 1), (left, -1), (width, -1)], 10, .equal)
        rows.add([(contentTop, 1), (top, -1)], -10, .equal)
        rows.add([(contentBottom, 1), (top, -1), (height, -1)], 10, .equal)
        var previousFieldTop: Variable?
        var previousFieldHeight: Variable?
        for k in 0..<count {
            let intrinsic = Double([67, 66, 24, 80, 45][k % 5])
            let lx = rows.variable(), ly = rows.variable(), lw = rows.variable(), lh = rows.variable()
            let fx = rows.variable(), fy = rows.variable(), fw = rows.variable(), fh = rows.variable()
            for v in [lx, ly, lw, lh, fx, fy, fw, fh] { rows.add([(v, 1)], 0, .greaterThanOrEqual) }
            rows.add([(lx, 1), (contentLeft, -1)], 0, .greaterThanOrEqual)
            rows.add([(lx, 1), (contentLeft, -1)], 0, .equal, level: mmedium)
            rows.add([(lw, 1)], -intrinsic, .equal, level: weak)
            rows.add([(lw, 1)], -intrinsic, .greaterThanOrEqual, level: strong)
            rows.add([(lh, 1)], -16, .equal, level: strong)
            rows.add([(lh, 1)], -16, .greaterThanOrEqual, level: strong)
            rows.add([(fx, 1), (midline, -1)], 0, .equal, level: strong)
            rows.add([(fx, 1), (lx, -1), (lw, -1)], -10, .greaterThanOrEqual)
            rows.add([(fx, 1), (lx, -1), (lw, -1)], -10, .equal, level: mmedium)
            rows.add([(fw, 1)], -125, .greaterThanOrEqual, level: strong)
            rows.add([(contentRight, 1), (fx, -1), (fw, -1)], 0, .greaterThanOrEqual)
            rows.add([(contentRight, 1), (fx, -1), (fw, -1)], 0, .equal, level: mmedium)
            rows.add([(fh, 1)], -21, .equal, level: strong)
            rows.add([(fh, 1)], -21, .greaterThanOrEqual, level: strong)
            rows.add([(fy, 1), (fh, 0.5), (ly, -1), (lh, -0.5)], 0, .equal, level: strong)
            if let pt = previousFieldTop, let ph = previousFieldHeight {
                rows.add([(fy, 1), (pt, -1), (ph, -1)], -10, .greaterThanOrEqual)
                rows.add([(fy, 1), (pt, -1), (ph, -1)], -10, .equal, level: mmedium)
            } else {
                rows.add([(fy, 1), (contentTop, -1)], 0, .greaterThanOrEqual)
                rows.add([(fy, 1), (contentTop, -1)], 0, .equal, level: mmedium)
                rows.add([(ly, 1), (contentTop, -1)], 0, .greaterThanOrEqual)
            }
            rows.add([(fw, 1)], -16_777_200, .lessThanOrEqual, level: smedium)
            previousFieldTop = fy
            previousFieldHeight = fh
        }
        if let pt = previousFieldTop, let ph = previousFieldHeight {
            rows.add([(contentBottom, 1), (pt, -1), (ph, -1)], 0, .greaterThanOrEqual)
            rows.add([(contentBottom, 1), (pt, -1), (ph, -1)], 0, .equal, level: mmedium)
        }
        var workload = IncrementalWorkload(
            kind: .form, size: count, constraints: rows.constraints, variableCount: rows.variableCount,
            levelCount: 5)
        workload.kiwiStrengths = [1_000_000, 100_000, 1_250, 1_000, 1]
        workload.edits = [Edit(variable: width, strength: Strength(level: strong)), Edit(variable: height, strength: Strength(level: strong))]
        let sizes: [(Double, Double)] = [(400, 600), (600, 400), (800, 1200), (1200, 800), (400, 800), (800, 400)]
        workload.suggestions = (0..<500).map { step in
            let (w, h) = sizes[step % sizes.count]
            return [(width, w), (height, h)]
        }
        return workload
    }
}
