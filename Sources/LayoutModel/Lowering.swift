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

    /// `Σ terms + constant` at a point. Inlinable, so that other modules get it specialised
    /// (a backend evaluating every row at its point paid several times the arithmetic for
    /// the generic call).
    @inlinable
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
        LinearSystem<T>(variableCount: variableCount, rows: rows.map { $0.mapScalars(convert) }, levels: levels)
    }
}

extension LinearRow {
    /// The same row with every scalar converted once; terms that convert to zero are dropped.
    public func mapScalars<T: LinearScalar>(_ convert: (Scalar) -> T) -> LinearRow<T> {
        LinearRow<T>(
            terms: terms.compactMap { term in
                let c = convert(term.coefficient)
                return c.isZero ? nil : LinearTerm(variable: term.variable, coefficient: c)
            },
            constant: convert(constant), relation: relation, level: level, constraintIndex: constraintIndex)
    }
}

extension ConstraintSystem {
    /// The number of unknowns: four per view.
    public var variableCount: Int { 4 * viewCount }

    /// The distinct optional priorities that occur, highest first.
    public var optionalLevels: [Priority] {
        priorityCensus(recordingPlaces: false).distinct.sorted(by: >)
    }

    /// The optional levels, highest first, and each constraint's level number (0 for a
    /// required one): one pass over the priorities for the whole lowering, instead of a
    /// lookup per row.
    func levelOfEachConstraint() -> (levels: [Priority], levelOf: [Int32]) {
        let census = priorityCensus(recordingPlaces: true)
        let order = census.distinct.indices.sorted { census.distinct[$0] > census.distinct[$1] }
        var levelOfPlace = Array(repeating: Int32(0), count: order.count)
        for (k, place) in order.enumerated() { levelOfPlace[place] = Int32(k + 1) }
        let levelOf = census.places.map { $0 < 0 ? 0 : levelOfPlace[Int($0)] }
        return (order.map { census.distinct[$0] }, levelOf)
    }

    /// The distinct optional priorities in the order they first occur and, when asked, each
    /// constraint's place among them (-1 for a required one).
    private func priorityCensus(recordingPlaces: Bool) -> (distinct: [Priority], places: [Int32]) {
        // Hashing a priority hashes its literal's digits: while there are few distinct ones
        // (most layouts use a handful), a linear scan of those seen is cheaper.
        var distinct: [Priority] = []
        var hashed: [Priority: Int32] = [:]
        var places: [Int32] = []
        if recordingPlaces { places.reserveCapacity(constraints.count) }
        // The previous constraint's index and place: its priority is compared in place (a
        // copy retains and releases its digits).
        var previous: (index: Int, place: Int32)?
        // By index: `for constraint in constraints` copies each whole constraint out (a
        // retain and a release of each of its literals) to read one field.
        for index in constraints.indices {
            // Required priorities are told by their exponent and value, without digits; runs
            // of one priority are common (a row's pins, a family's hugging): look up once per run.
            let place: Int32
            if constraints[index].priority.value.isThousand {
                place = -1
            } else if let previous, constraints[index].priority == constraints[previous.index].priority {
                place = previous.place
            } else {
                let priority = constraints[index].priority
                if hashed.isEmpty {
                    if let found = distinct.firstIndex(of: priority) {
                        place = Int32(found)
                    } else {
                        place = Int32(distinct.count)
                        distinct.append(priority)
                        if distinct.count > PriorityLevels.linearScanLimit {
                            for (k, seen) in distinct.enumerated() { hashed[seen] = Int32(k) }
                        }
                    }
                } else if let found = hashed[priority] {
                    place = found
                } else {
                    place = Int32(distinct.count)
                    hashed[priority] = place
                    distinct.append(priority)
                }
                previous = (index, place)
            }
            if recordingPlaces { places.append(place) }
        }
        return (distinct, places)
    }

    /// The display name of a variable, `ITEM.x` etc.
    public func unknownName(_ unknown: Unknown) -> String {
        "\(items[unknown.item].name).\(unknown.component.name)"
    }

    /// The optional levels, highest first, and each priority's level number.
    @usableFromInline
    func levelNumbers() -> PriorityLevels { PriorityLevels(optionalLevels) }

    /// Lowers every constraint to a linear row (spec §2–§3), computing in `Scalar`.
    ///
    /// `@inlinable`, with the generic helpers it calls, so that a module that knows `Scalar`
    /// (the exact backend's `Rational`, which this module cannot name) gets a specialised
    /// copy: run generically, each arithmetic operation went through the protocol's witness
    /// table and the exact backend's lowering was 126.7 M of its 266.6 M instructions on
    /// `table-cells` at 1,000 views (19.6 M specialised).
    ///
    /// Coefficients come out exactly when `Scalar` is exact; use a `Rational` lowering and
    /// ``LinearSystem/mapScalars(_:)`` to round each coefficient to `Double` once (or
    /// ``loweredRoundingOnce(exactRow:)``, which gives the same rows faster).
    @inlinable
    public func lowered<Scalar: LinearScalar>(as _: Scalar.Type = Scalar.self) -> LinearSystem<Scalar> {
        let levels = levelNumbers()
        var rows: [LinearRow<Scalar>] = []
        rows.reserveCapacity(constraints.count)
        var scratch = LoweredTerms<Scalar>()
        // Optional once: wrapping it per call copied its arrays (a retain and a release each), per row.
        let ancestry: ItemAncestry? = ItemAncestry(self)
        for (index, constraint) in constraints.enumerated() {
            let constant = lowerTerms(constraint, index: index, ancestry: ancestry, into: &scratch)
            rows.append(LinearRow(
                terms: scratch.array, constant: constant, relation: constraint.relation,
                level: levels.level(of: constraint.priority), constraintIndex: index))
        }
        return LinearSystem(variableCount: variableCount, rows: rows, levels: levels.levels)
    }

    /// Lowers one constraint.
    @inlinable
    public func lower<Scalar: LinearScalar>(_ constraint: Constraint, index: Int, level: Int) -> LinearRow<Scalar> {
        var terms = LoweredTerms<Scalar>()
        let constant = lowerTerms(constraint, index: index, ancestry: nil, into: &terms)
        return LinearRow(terms: terms.array, constant: constant, relation: constraint.relation, level: level, constraintIndex: index)
    }

    /// Writes the constraint's lowered terms into `terms` (emptied first; sorted by variable,
    /// merged, zero-free) and returns its constant. Nearest common ancestors come
    /// from `ancestry` when there is one (a table, for lowering many constraints).
    ///
    /// The arithmetic is the same, operation by operation, for every `Scalar`: each side's
    /// terms and constant, the second side's times −multiplier, the constant, the row
    /// scale, then terms of one variable summed in the order they were written (a rounding
    /// scalar such as `Double` therefore rounds the same way whatever the caller).
    @inlinable @inline(__always)
    func lowerTerms<Scalar: LinearScalar>(
        _ constraint: borrowing Constraint, index: Int, ancestry: ItemAncestry?, into terms: inout LoweredTerms<Scalar>
    ) -> Scalar {
        lowerTerms(
            constraint.first, constraint.second, multiplier: constraint.multiplier, constant: constraint.constant,
            index: index, ancestry: ancestry, into: &terms)
    }

    /// ``lowerTerms(_:index:ancestry:into:)`` from the fields lowering reads, so that a caller
    /// lowering the system's own constraints reads them in place: a whole constraint passed
    /// from the array was copied (a retain and a release of each of its strings) per row.
    @inlinable
    func lowerTerms<Scalar: LinearScalar>(
        _ first: AttributeReference, _ second: AttributeReference?, multiplier: NumericLiteral,
        constant literalConstant: NumericLiteral, index: Int, ancestry: ItemAncestry?,
        into terms: inout LoweredTerms<Scalar>
    ) -> Scalar {
        terms.removeAll()
        let mirrored = isMirrored(first, second)
        // Only positions are measured from the nearest common ancestor.
        let needsAncestor = !first.attribute.isSize || second?.attribute.isSize == false
        let ancestor = needsAncestor
            ? second.map { second in
                ancestry?.nearestCommonAncestor(first.item, second.item) ?? nearestCommonAncestor(first.item, second.item)
            } ?? first.item
            : first.item
        var constant = expression(first, ancestor: ancestor, mirrored: mirrored, times: nil, into: &terms)
        if let second {
            let factor = -Scalar(literal: multiplier)
            let rhs = expression(second, ancestor: ancestor, mirrored: mirrored, times: factor, into: &terms)
            constant = constant + rhs * factor
        }
        constant = constant - Scalar(literal: literalConstant)
        // Most systems scale no row: a hash lookup per row was a tenth of lowering's cost.
        if !rowScales.isEmpty, let k = rowScales[index] {
            let scale = Scalar(literal: k)
            for i in terms.indices { terms[i].coefficient = terms[i].coefficient * scale }
            // `0 + c·k`, not `c·k`: in Double the two differ in the sign of a zero.
            constant = .zero + constant * scale
        }
        terms.sortAndMerge()
        return constant
    }

    /// Appends the attribute's expression in root space, relative to `ancestor`'s origin
    /// (negated when it is a horizontal position in a mirrored constraint), to `terms`,
    /// each coefficient times `factor` when there is one, and returns its constant (not
    /// multiplied: the caller does that once).
    @inlinable
    func expression<Scalar: LinearScalar>(
        _ ref: AttributeReference, ancestor: ItemIndex, mirrored: Bool, times factor: Scalar?,
        into terms: inout LoweredTerms<Scalar>
    ) -> Scalar {
        let owner = ref.item
        let rtl = direction == .rightToLeft
        let one = Scalar.one
        let first = terms.count
        var constant = Scalar.zero
        // Plain calls with the accumulators passed in: nested functions capturing them would
        // box them on the heap, once per side of every constraint. Both axes share one
        // shape per place (the vertical one's components and margins in place of the
        // horizontal one's), so the same operations run in the same order on either.
        let horizontal = ref.attribute.axis == .horizontal
        let position: FrameComponent = horizontal ? .x : .y
        let size: FrameComponent = horizontal ? .w : .h
        let (place, withinMargins) = EdgePlace.of(ref.attribute, rightToLeft: rtl)
        switch place {
        case .size: edge(size, of: owner, one, &terms, &constant)
        case .near:
            edge(position, of: owner, one, &terms, &constant)
            // Margins read in place (a copy of them retains four literals).
            if withinMargins {
                constant = constant + (horizontal ? Scalar(literal: items[owner].margins.left) : Scalar(literal: items[owner].margins.top))
            }
        case .far:
            edge(position, of: owner, one, &terms, &constant); edge(size, of: owner, one, &terms, &constant)
            if withinMargins {
                constant = constant
                    - (horizontal ? Scalar(literal: items[owner].margins.right) : Scalar(literal: items[owner].margins.bottom))
            }
        case .center:
            let half = one / Scalar(integer: 2)
            edge(position, of: owner, one, &terms, &constant); edge(size, of: owner, half, &terms, &constant)
            if withinMargins {
                let (near, far) = horizontal
                    ? (Scalar(literal: items[owner].margins.left), Scalar(literal: items[owner].margins.right))
                    : (Scalar(literal: items[owner].margins.top), Scalar(literal: items[owner].margins.bottom))
                constant = constant + (near - far) * half
            }
        case .firstBaseline:
            edge(.y, of: owner, one, &terms, &constant)
            if let b = items[owner].baselines {
                constant = constant + Scalar(literal: b.first)
            } else {
                edge(.h, of: owner, one, &terms, &constant)
            }
        case .lastBaseline:
            edge(.y, of: owner, one, &terms, &constant); edge(.h, of: owner, one, &terms, &constant)
            if let b = items[owner].baselines { constant = constant - Scalar(literal: b.last) }
        }
        if !ref.attribute.isSize {
            // UIKit evaluates in the nearest common ancestor's coordinate space.
            edge(ref.attribute.axis == .horizontal ? .x : .y, of: ancestor, -one, &terms, &constant)
            if mirrored && ref.attribute.axis == .horizontal {
                let minusOne = -one
                for i in first..<terms.count { terms[i].coefficient = terms[i].coefficient * minusOne }
                constant = .zero + constant * minusOne
            }
        }
        if let factor {
            for i in first..<terms.count { terms[i].coefficient = terms[i].coefficient * factor }
        }
        return constant
    }

    /// Adds `coefficient × (item's component)`: a term for a view, a constant for the root.
    @inlinable @inline(__always)
    func edge<Scalar: LinearScalar>(
        _ component: FrameComponent, of item: ItemIndex, _ coefficient: Scalar,
        _ terms: inout LoweredTerms<Scalar>, _ constant: inout Scalar
    ) {
        if item == 0 {
            // The root's frame literal read in place.
            let value = items[0].frame.map { Scalar(literal: $0[component.rawValue]) } ?? Scalar(literal: NumericLiteral.zero)
            constant = constant + value * coefficient
        } else {
            terms.append(LinearTerm(variable: Unknown(item: item, component: component).variable, coefficient: coefficient))
        }
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

/// Where along its axis an attribute lies once the layout direction has turned leading and
/// trailing into near (left, top) or far (right, bottom), and whether it is measured within
/// the margins: what lowering writes for it, the same shape on both axes.
@usableFromInline
enum EdgePlace {
    case size, near, far, center, firstBaseline, lastBaseline

    @inlinable @inline(__always)
    static func of(_ attribute: Attribute, rightToLeft rtl: Bool) -> (place: EdgePlace, withinMargins: Bool) {
        switch attribute {
        case .width, .height: return (.size, false)
        case .left, .top: return (.near, false)
        case .right, .bottom: return (.far, false)
        case .leading: return (rtl ? .far : .near, false)
        case .trailing: return (rtl ? .near : .far, false)
        case .centerX, .centerY: return (.center, false)
        case .leftMargin, .topMargin: return (.near, true)
        case .rightMargin, .bottomMargin: return (.far, true)
        case .leadingMargin: return (rtl ? .far : .near, true)
        case .trailingMargin: return (rtl ? .near : .far, true)
        case .centerXWithinMargins, .centerYWithinMargins: return (.center, true)
        case .firstBaseline: return (.firstBaseline, false)
        case .lastBaseline: return (.lastBaseline, false)
        }
    }
}

/// A system's optional levels, highest first, and each priority's level number: 1 for the
/// highest, 0 for a required priority (and one that is not among them).
///
/// Up to ``linearScanLimit`` levels a priority is found by a linear scan: hashing one hashes
/// its literal's digit string, and on 100 self-sizing table cells (three priorities
/// interleaved constraint by constraint) the set and dictionary of levels were a fifth of
/// the float backend's solve. Above it, a dictionary.
@usableFromInline
struct PriorityLevels {
    /// The optional priorities, highest first.
    @usableFromInline let levels: [Priority]
    /// Each priority's level number, above ``linearScanLimit`` levels only.
    private let hashedLevels: [Priority: Int]

    /// The most levels looked up by a linear scan.
    static let linearScanLimit = 16

    init(_ levels: [Priority]) {
        self.levels = levels
        var hashed: [Priority: Int] = [:]
        if levels.count > Self.linearScanLimit {
            for (k, priority) in levels.enumerated() { hashed[priority] = k + 1 }
        }
        hashedLevels = hashed
    }

    /// The level number of `priority`.
    @usableFromInline
    func level(of priority: Priority) -> Int {
        if levels.count > Self.linearScanLimit { return hashedLevels[priority] ?? 0 }
        return levels.firstIndex(of: priority).map { $0 + 1 } ?? 0
    }
}
