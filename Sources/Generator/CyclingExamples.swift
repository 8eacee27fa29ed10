import LayoutModel

/// A linear program in the textbook form `minimise c·x subject to A x REL b, x ≥ 0`, with
/// exact decimal coefficients, as the simplex-cycling family encodes it.
public struct TextbookLinearProgram: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        /// One coefficient per variable ("0" where the variable does not occur).
        public var coefficients: [NumericLiteral]
        public var relation: Relation
        public var bound: NumericLiteral
    }

    /// A short identifier used in view names (`beale`, `kuhn`).
    public var name: String
    /// Where the example comes from.
    public var source: String
    /// Variable names as the source writes them (`x4` ... `x7`).
    public var variables: [String]
    /// Objective coefficients, to be minimised.
    public var objective: [NumericLiteral]
    public var rows: [Row]

    init(name: String, source: String, variables: [String], objective: [String], rows: [([String], Relation, String)]) {
        self.name = name
        self.source = source
        self.variables = variables
        self.objective = objective.map(NumericLiteral.decimal)
        self.rows = rows.map { Row(coefficients: $0.0.map(NumericLiteral.decimal), relation: $0.1, bound: .decimal($0.2)) }
    }

    /// Beale's example, the first LP shown to cycle under Dantzig's largest-coefficient rule
    /// with lowest-index tie-breaking: E. M. L. Beale, "Cycling in the dual simplex
    /// algorithm", Naval Research Logistics Quarterly 2 (1955) 269-275, in the form most
    /// textbooks reproduce (minimum -5/4 at x4 = 1, x6 = 1). The slacks x1, x2, x3 are
    /// implicit in the `<=` rows. At the origin both homogeneous rows are tight together
    /// with x4..x7 >= 0: six tight constraints at a vertex of a 4-dimensional polyhedron.
    public static let beale = TextbookLinearProgram(
        name: "beale",
        source: "Beale 1955 (Naval Res. Logist. Q. 2:269-275), textbook form",
        variables: ["x4", "x5", "x6", "x7"],
        objective: ["-0.75", "20", "-0.5", "6"],
        rows: [
            (["0.25", "-8", "-1", "9"], .lessThanOrEqual, "0"),
            (["0.5", "-12", "-0.5", "3"], .lessThanOrEqual, "0"),
            (["0", "0", "1", "0"], .lessThanOrEqual, "1"),
        ])

    /// Kuhn's example, which cycles under the same rule: reported by Balinski and Tucker
    /// (1969) and given by R. G. Bland, "New finite pivoting rules for the simplex method",
    /// Mathematics of Operations Research 2 (1977) 103-107, and by V. Chvátal, Linear
    /// Programming (1983), ch. 3. The second row, `1/3 x4 + x5 - 1/3 x6 - 2 x7 <= 0`, is
    /// scaled by 3 so that every coefficient is a finite decimal; positive row scaling
    /// changes neither the feasible set nor the ratio test. Slacks x1, x2, x3 are implicit.
    /// The origin is degenerate exactly as in Beale's example.
    public static let kuhn = TextbookLinearProgram(
        name: "kuhn",
        source: "Kuhn's example as in Bland 1977 (Math. Oper. Res. 2:103-107) and Chvatal 1983, ch. 3",
        variables: ["x4", "x5", "x6", "x7"],
        objective: ["-2", "-3", "1", "12"],
        rows: [
            (["-2", "-9", "1", "9"], .lessThanOrEqual, "0"),
            (["1", "3", "-1", "-6"], .lessThanOrEqual, "0"),
            (["2", "3", "-1", "-12"], .lessThanOrEqual, "2"),
        ])

    /// Both examples, in the order the family writes them.
    public static let cyclingExamples: [TextbookLinearProgram] = [beale, kuhn]

    /// A lower bound on the objective over the feasible set, so that an optional
    /// `z <= bound` has error `z - bound` everywhere that matters (both examples have
    /// minima above -10).
    static let objectiveFloor = NumericLiteral.integer(-1000)
}

extension TextbookLinearProgram {
    /// Writes the LP as a layout. Variable xj is the width of view `PREFIXxj`, with
    /// `xj.width >= 0` required. A sum `Σ aj xj` is a chain of term views laid end to end
    /// from the root's left edge: term k has `width == ak * xj.width` and its left edge on
    /// the previous term's right edge, so the last term's right edge is the sum. A row is
    /// then `last.right REL superview.left + b` (a row with a single coefficient 1 is
    /// written `xj.width REL b`), and the objective is one optional constraint
    /// `last.right <= superview.left - 1000 @objectivePriority`, whose error is the
    /// objective plus 1000. Every view's y and height are pinned, so nothing is left
    /// ambiguous by the encoding itself.
    func encode(into b: inout SystemBuilder, prefix: String, rowOrder: [Int], objectivePriority: Priority) {
        var band = 0
        func pin(_ view: ItemIndex, _ b: inout SystemBuilder) {
            b.add(view, .top, .equal, b.root, .top, plus: NumericLiteral.integer(10 * band))
            b.add(view, .height, .equal, NumericLiteral.integer(8))
        }
        var xs: [ItemIndex] = []
        for name in variables {
            let x = b.addView("\(prefix)\(name)")
            b.add(x, .left, .equal, b.root, .left)
            pin(x, &b)
            b.add(x, .width, .greaterThanOrEqual, .zero)
            xs.append(x)
        }
        func chain(_ coefficients: [NumericLiteral], label: String, _ b: inout SystemBuilder) -> ItemIndex? {
            band += 1
            var previous: ItemIndex?
            for (j, a) in coefficients.enumerated() where !a.isZero {
                let term = b.addView("\(prefix)\(label)_\(variables[j])")
                b.follow(term, .left, after: previous, .right, orRoot: .left)
                pin(term, &b)
                b.add(term, .width, .equal, xs[j], .width, times: a)
                previous = term
            }
            return previous
        }
        for i in rowOrder {
            let row = rows[i]
            let nonzero = row.coefficients.enumerated().filter { !$0.element.isZero }
            if nonzero.count == 1, let only = nonzero.first, only.element == .one {
                b.add(xs[only.offset], .width, row.relation, row.bound)
            } else if let last = chain(row.coefficients, label: "row\(i + 1)", &b) {
                b.add(last, .right, row.relation, b.root, .left, plus: row.bound)
            }
        }
        if let last = chain(objective, label: "z", &b) {
            b.add(last, .right, .lessThanOrEqual, b.root, .left, plus: Self.objectiveFloor, priority: objectivePriority)
        }
    }

    /// The number of views ``encode(into:prefix:rowOrder:objectivePriority:)`` adds.
    var encodedViewCount: Int {
        let nonzero = { (c: [NumericLiteral]) in c.filter { !$0.isZero }.count }
        var count = variables.count + nonzero(objective)
        for row in rows {
            let n = nonzero(row.coefficients)
            if !(n == 1 && row.coefficients.contains(.one)) { count += n }
        }
        return count
    }
}
