/// One of an item's four unknowns in root space.
public enum FrameComponent: Int, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case x, y, w, h

    public var name: String {
        switch self {
        case .x: return "x"
        case .y: return "y"
        case .w: return "w"
        case .h: return "h"
        }
    }

    public static func < (a: FrameComponent, b: FrameComponent) -> Bool { a.rawValue < b.rawValue }
}

/// A root-space unknown: an item (never the root, whose frame is fixed) and a component.
public struct Unknown: Sendable, Hashable, Comparable, Codable {
    public var item: ItemIndex
    public var component: FrameComponent

    public init(item: ItemIndex, component: FrameComponent) {
        self.item = item
        self.component = component
    }

    /// Variable `4·(item−1) + component`: the numbering every backend uses.
    public init(variable: Int) {
        self.item = variable / 4 + 1
        self.component = FrameComponent(rawValue: variable % 4) ?? .x
    }

    public var variable: Int { 4 * (item - 1) + component.rawValue }

    public static func < (a: Unknown, b: Unknown) -> Bool { a.variable < b.variable }
}

/// `coefficient × variable`.
public struct LinearTerm<Scalar: LinearScalar>: Sendable, Equatable {
    public var variable: Int
    public var coefficient: Scalar

    public init(variable: Int, coefficient: Scalar) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A lowered constraint: `Σ terms + constant  REL  0`, so that for an optional constraint the
/// value of the left side is its `d = lhs − rhs` (spec §5).
public struct LinearRow<Scalar: LinearScalar>: Sendable, Equatable {
    /// Sorted by variable, no zero coefficients, each variable once.
    public var terms: [LinearTerm<Scalar>]
    public var constant: Scalar
    public var relation: Relation
    /// 0 for required; otherwise the 1-based index into ``LinearSystem/levels``.
    public var level: Int
    /// The constraint's index in ``ConstraintSystem/constraints``.
    public var constraintIndex: Int

    public init(terms: [LinearTerm<Scalar>], constant: Scalar, relation: Relation, level: Int, constraintIndex: Int) {
        self.terms = terms
        self.constant = constant
        self.relation = relation
        self.level = level
        self.constraintIndex = constraintIndex
    }

    public var isRequired: Bool { level == 0 }

    /// `Σ terms + constant` at a point.
    public func value(at point: [Scalar]) -> Scalar {
        var sum = constant
        for term in terms { sum = sum + term.coefficient * point[term.variable] }
        return sum
    }
}

/// A constraint system lowered to linear rows over the unknowns `x, y, w, h` of every view.
public struct LinearSystem<Scalar: LinearScalar>: Sendable, Equatable {
    /// `4 × viewCount`.
    public var variableCount: Int
    /// One row per constraint, in file order.
    public var rows: [LinearRow<Scalar>]
    /// The distinct optional priorities, highest first (level k is `levels[k - 1]`).
    public var levels: [Priority]

    public init(variableCount: Int, rows: [LinearRow<Scalar>], levels: [Priority]) {
        self.variableCount = variableCount
        self.rows = rows
        self.levels = levels
    }

    /// The same rows with every scalar converted once (for example exact → `Double`).
    public func mapScalars<T: LinearScalar>(_ convert: (Scalar) -> T) -> LinearSystem<T> {
        LinearSystem<T>(
            variableCount: variableCount,
            rows: rows.map { row in
                LinearRow<T>(
                    terms: row.terms.compactMap { term in
                        let c = convert(term.coefficient)
                        return c.isZero ? nil : LinearTerm(variable: term.variable, coefficient: c)
                    },
                    constant: convert(row.constant), relation: row.relation, level: row.level,
                    constraintIndex: row.constraintIndex)
            },
            levels: levels)
    }
}

/// An affine expression under construction.
private struct Affine<Scalar: LinearScalar> {
    var terms: [LinearTerm<Scalar>] = []
    var constant: Scalar = .zero

    mutating func add(_ variable: Int, _ coefficient: Scalar) {
        terms.append(LinearTerm(variable: variable, coefficient: coefficient))
    }

    mutating func add(_ other: Affine, times factor: Scalar) {
        for term in other.terms { add(term.variable, term.coefficient * factor) }
        constant = constant + other.constant * factor
    }

    /// Sorted, merged, zero-free terms.
    func normalizedTerms() -> [LinearTerm<Scalar>] {
        let sorted = terms.sorted { $0.variable < $1.variable }
        var merged: [LinearTerm<Scalar>] = []
        merged.reserveCapacity(sorted.count)
        for term in sorted {
            if let last = merged.last, last.variable == term.variable {
                merged[merged.count - 1].coefficient = last.coefficient + term.coefficient
            } else {
                merged.append(term)
            }
        }
        return merged.filter { !$0.coefficient.isZero }
    }
}

extension ConstraintSystem {
    /// The number of unknowns: four per view.
    public var variableCount: Int { 4 * viewCount }

    /// The distinct optional priorities that occur, highest first.
    public var optionalLevels: [Priority] {
        Array(Set(constraints.lazy.map(\.priority).filter { !$0.isRequired })).sorted(by: >)
    }

    /// The display name of a variable, `ITEM.x` etc.
    public func unknownName(_ unknown: Unknown) -> String {
        "\(items[unknown.item].name).\(unknown.component.name)"
    }

    /// Lowers every constraint to a linear row (spec §2–§3), computing in `Scalar`.
    ///
    /// Coefficients come out exactly when `Scalar` is exact; use a `Rational` lowering and
    /// ``LinearSystem/mapScalars(_:)`` to round each coefficient to `Double` once.
    public func lowered<Scalar: LinearScalar>(as _: Scalar.Type = Scalar.self) -> LinearSystem<Scalar> {
        let levels = optionalLevels
        var levelOf: [Priority: Int] = [:]
        for (k, p) in levels.enumerated() { levelOf[p] = k + 1 }
        var rows: [LinearRow<Scalar>] = []
        rows.reserveCapacity(constraints.count)
        let ancestry = ItemAncestry(self)
        for (index, constraint) in constraints.enumerated() {
            rows.append(lower(
                constraint, index: index, level: levelOf[constraint.priority] ?? 0,
                ancestor: { ancestry.nearestCommonAncestor($0, $1) }))
        }
        return LinearSystem(variableCount: variableCount, rows: rows, levels: levels)
    }

    /// Lowers one constraint.
    public func lower<Scalar: LinearScalar>(_ constraint: Constraint, index: Int, level: Int) -> LinearRow<Scalar> {
        lower(constraint, index: index, level: level, ancestor: { nearestCommonAncestor($0, $1) })
    }

    /// Lowers one constraint, finding nearest common ancestors with `ancestor` (a table when
    /// many constraints are lowered, see ``ItemAncestry``).
    private func lower<Scalar: LinearScalar>(
        _ constraint: Constraint, index: Int, level: Int, ancestor nearestCommonAncestor: (ItemIndex, ItemIndex) -> ItemIndex
    ) -> LinearRow<Scalar> {
        let mirrored = isMirrored(constraint)
        // Only position attributes are shifted into the ancestor's space (V1 keeps sizes with
        // sizes), so a size constraint needs no ancestor.
        let ancestor = constraint.first.attribute.isSize ? constraint.first.item
            : constraint.second.map { nearestCommonAncestor(constraint.first.item, $0.item) } ?? constraint.first.item
        var row = expression(constraint.first, ancestor: ancestor, mirrored: mirrored) as Affine<Scalar>
        if let second = constraint.second {
            let rhs: Affine<Scalar> = expression(second, ancestor: ancestor, mirrored: mirrored)
            row.add(rhs, times: -Scalar(literal: constraint.multiplier))
        }
        row.constant = row.constant - Scalar(literal: constraint.constant)
        if let k = rowScales[index] {
            var scaled = Affine<Scalar>()
            scaled.add(row, times: Scalar(literal: k))
            row = scaled
        }
        return LinearRow(
            terms: row.normalizedTerms(), constant: row.constant, relation: constraint.relation,
            level: level, constraintIndex: index)
    }

    /// Adds `coefficient × (item's component)`: a variable for a view, a constant for the root.
    private func addComponent<Scalar: LinearScalar>(
        _ component: FrameComponent, of item: ItemIndex, times coefficient: Scalar, to expr: inout Affine<Scalar>
    ) {
        if item == 0 {
            let frame = items[0].frame ?? [.zero, .zero, .zero, .zero]
            expr.constant = expr.constant + Scalar(literal: frame[component.rawValue]) * coefficient
        } else {
            expr.add(Unknown(item: item, component: component).variable, coefficient)
        }
    }

    /// The attribute's expression in root space, relative to `ancestor`'s origin, negated
    /// when it is a horizontal position in a mirrored constraint.
    private func expression<Scalar: LinearScalar>(
        _ ref: AttributeReference, ancestor: ItemIndex, mirrored: Bool
    ) -> Affine<Scalar> {
        let item = items[ref.item]
        let rtl = direction == .rightToLeft
        let one = Scalar.one
        let half = one / Scalar(integer: 2)
        let margins = item.margins
        let mT = Scalar(literal: margins.top), mL = Scalar(literal: margins.left)
        let mB = Scalar(literal: margins.bottom), mR = Scalar(literal: margins.right)
        var e = Affine<Scalar>()
        func edge(_ c: FrameComponent, _ k: Scalar = one) { addComponent(c, of: ref.item, times: k, to: &e) }
        switch ref.attribute {
        case .width: edge(.w)
        case .height: edge(.h)
        case .left: edge(.x)
        case .right: edge(.x); edge(.w)
        case .centerX: edge(.x); edge(.w, half)
        case .leading: edge(.x); if rtl { edge(.w) }
        case .trailing: edge(.x); if !rtl { edge(.w) }
        case .leftMargin: edge(.x); e.constant = e.constant + mL
        case .rightMargin: edge(.x); edge(.w); e.constant = e.constant - mR
        case .leadingMargin:
            edge(.x)
            if rtl { edge(.w); e.constant = e.constant - mR } else { e.constant = e.constant + mL }
        case .trailingMargin:
            edge(.x)
            if rtl { e.constant = e.constant + mL } else { edge(.w); e.constant = e.constant - mR }
        case .centerXWithinMargins:
            edge(.x); edge(.w, half); e.constant = e.constant + (mL - mR) * half
        case .top: edge(.y)
        case .bottom: edge(.y); edge(.h)
        case .centerY: edge(.y); edge(.h, half)
        case .firstBaseline:
            edge(.y)
            if let b = item.baselines { e.constant = e.constant + Scalar(literal: b.first) } else { edge(.h) }
        case .lastBaseline:
            edge(.y); edge(.h)
            if let b = item.baselines { e.constant = e.constant - Scalar(literal: b.last) }
        case .topMargin: edge(.y); e.constant = e.constant + mT
        case .bottomMargin: edge(.y); edge(.h); e.constant = e.constant - mB
        case .centerYWithinMargins:
            edge(.y); edge(.h, half); e.constant = e.constant + (mT - mB) * half
        }
        if !ref.attribute.isSize {
            // UIKit evaluates in the nearest common ancestor's coordinate space.
            addComponent(ref.attribute.axis == .horizontal ? .x : .y, of: ancestor, times: -one, to: &e)
            if mirrored && ref.attribute.axis == .horizontal {
                var negated = Affine<Scalar>()
                negated.add(e, times: -one)
                return negated
            }
        }
        return e
    }

    /// Frames `[x, y, width, height]` of every view, from root-space values of the unknowns:
    /// relative to the parent's origin (UIKit's `frame`), or in root space when `global`.
    public func frames<Scalar: LinearScalar>(values: [Scalar], global: Bool) -> [[Scalar]] {
        (1..<max(items.count, 1)).map { index in
            var frame = (0..<4).map { values[Unknown(item: index, component: FrameComponent(rawValue: $0) ?? .x).variable] }
            if !global, let parent = items[index].parent {
                frame[0] = frame[0] - origin(of: parent, component: .x, values: values)
                frame[1] = frame[1] - origin(of: parent, component: .y, values: values)
            }
            return frame
        }
    }

    private func origin<Scalar: LinearScalar>(of item: ItemIndex, component: FrameComponent, values: [Scalar]) -> Scalar {
        if item == 0 {
            return Scalar(literal: (items[0].frame ?? [.zero, .zero, .zero, .zero])[component.rawValue])
        }
        return values[Unknown(item: item, component: component).variable]
    }
}
