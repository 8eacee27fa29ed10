import Testing
@testable import LayoutModel

@Suite struct LoweringTests {
    static let header = """
        root r 100 200
        view a margins 1 2 3 4 baseline 5 6
        view b

        """

    /// (attribute, expected terms of `a.ATTR == b.ATTR`, constant)
    static let attributes: [(String, [String: Double], Double)] = [
        ("left", ["a.x": 1, "b.x": -1], 0),
        ("right", ["a.x": 1, "a.w": 1, "b.x": -1, "b.w": -1], 0),
        ("top", ["a.y": 1, "b.y": -1], 0),
        ("bottom", ["a.y": 1, "a.h": 1, "b.y": -1, "b.h": -1], 0),
        ("leading", ["a.x": 1, "b.x": -1], 0),
        ("trailing", ["a.x": 1, "a.w": 1, "b.x": -1, "b.w": -1], 0),
        ("width", ["a.w": 1, "b.w": -1], 0),
        ("height", ["a.h": 1, "b.h": -1], 0),
        ("centerX", ["a.x": 1, "a.w": 0.5, "b.x": -1, "b.w": -0.5], 0),
        ("centerY", ["a.y": 1, "a.h": 0.5, "b.y": -1, "b.h": -0.5], 0),
        ("firstBaseline", ["a.y": 1, "b.y": -1, "b.h": -1], 5),
        ("lastBaseline", ["a.y": 1, "a.h": 1, "b.y": -1, "b.h": -1], -6),
        ("baseline", ["a.y": 1, "a.h": 1, "b.y": -1, "b.h": -1], -6),
        ("leftMargin", ["a.x": 1, "b.x": -1], -6),
        ("rightMargin", ["a.x": 1, "a.w": 1, "b.x": -1, "b.w": -1], 4),
        ("topMargin", ["a.y": 1, "b.y": -1], -7),
        ("bottomMargin", ["a.y": 1, "a.h": 1, "b.y": -1, "b.h": -1], 5),
        ("leadingMargin", ["a.x": 1, "b.x": -1], -6),
        ("trailingMargin", ["a.x": 1, "a.w": 1, "b.x": -1, "b.w": -1], 4),
        ("centerXWithinMargins", ["a.x": 1, "a.w": 0.5, "b.x": -1, "b.w": -0.5], -1),
        ("centerYWithinMargins", ["a.y": 1, "a.h": 0.5, "b.y": -1, "b.h": -0.5], -1),
    ]

    @Test(arguments: 0..<attributes.count)
    func everyAttribute(index: Int) throws {
        let (name, terms, constant) = Self.attributes[index]
        let s = try parse(Self.header + "a.\(name) == b.\(name)\n")
        let row = loweredRow(s, 0)
        #expect(row.terms == terms, "\(name)")
        #expect(row.constant == constant, "\(name)")
    }

    @Test func everyAttributeIsCovered() {
        let covered = Set(Self.attributes.compactMap { Attribute(name: $0.0) })
        #expect(covered == Set(Attribute.allCases))
    }

    @Test func mirroringUnderRTL() throws {
        let s = try parse("""
            direction rtl
            root r 100 200
            view a margins 1 2 3 4
            view b
            b.leading == a.trailing + 8
            a.leadingMargin == b.leadingMargin
            a.trailingMargin == b.trailingMargin
            a.left == b.left + 3
            a.centerX == b.leading
            a.width == b.width
            """)
        // -(b.x + b.w) = -(a.x) + 8: b's right edge lies 8 left of a's left edge.
        #expect(loweredRow(s, 0).terms == ["a.x": 1, "b.x": -1, "b.w": -1])
        #expect(loweredRow(s, 0).constant == -8)
        // -(a.x + a.w - 4) + (b.x + b.w - 8)
        #expect(loweredRow(s, 1).terms == ["a.x": -1, "a.w": -1, "b.x": 1, "b.w": 1])
        #expect(loweredRow(s, 1).constant == -4)
        // -(a.x + 2) + (b.x + 8)
        #expect(loweredRow(s, 2).terms == ["a.x": -1, "b.x": 1])
        #expect(loweredRow(s, 2).constant == 6)
        // Not mirrored: names no directional attribute.
        #expect(loweredRow(s, 3).terms == ["a.x": 1, "b.x": -1])
        #expect(loweredRow(s, 3).constant == -3)
        // Mirrored because the other side names leading: -(a.x + a.w/2) = -(b.x + b.w).
        #expect(loweredRow(s, 4).terms == ["a.x": -1, "a.w": -0.5, "b.x": 1, "b.w": 1])
        #expect(loweredRow(s, 5).terms == ["a.w": 1, "b.w": -1])
    }

    @Test func nearestCommonAncestorCoordinates() throws {
        let s = try parse("""
            root r 10 20 400 400
            view p
            view c in p
            view d in p
            c.centerX == 0.5 * p.centerX
            a1: c.left == 2 * d.left + 1
            c.left == r.left + 5
            c.centerY == 0.5 * r.centerY
            c.width == 100
            c.width == r.width
            """)
        // A = p: (c.x − p.x) + c.w/2 = 0.5 × (p.w/2)
        #expect(loweredRow(s, 0).terms == ["c.x": 1, "p.x": -1, "c.w": 0.5, "p.w": -0.25])
        #expect(loweredRow(s, 0).constant == 0)
        // A = p: (c.x − p.x) = 2 (d.x − p.x) + 1
        #expect(loweredRow(s, 1).terms == ["c.x": 1, "d.x": -2, "p.x": 1])
        #expect(loweredRow(s, 1).constant == -1)
        // A = r: (c.x − 10) = (10 − 10) + 5
        #expect(loweredRow(s, 2).terms == ["c.x": 1])
        #expect(loweredRow(s, 2).constant == -15)
        // A = r: (c.y − 20) + c.h/2 = 0.5 × ((20 − 20) + 400/2)
        #expect(loweredRow(s, 3).terms == ["c.y": 1, "c.h": 0.5])
        #expect(loweredRow(s, 3).constant == -120)
        #expect(loweredRow(s, 4).terms == ["c.w": 1] && loweredRow(s, 4).constant == -100)
        #expect(loweredRow(s, 5).terms == ["c.w": 1] && loweredRow(s, 5).constant == -400)
    }

    @Test func sameItemOnBothSides() throws {
        let s = try parse("root r 100 100\nview a\na.centerX == a.left + 10\na.height == 2 * a.width\n")
        // A = a: (0 + a.w/2) − 0 − 10
        #expect(loweredRow(s, 0).terms == ["a.w": 0.5] && loweredRow(s, 0).constant == -10)
        #expect(loweredRow(s, 1).terms == ["a.h": 1, "a.w": -2])
    }

    @Test func levelsAndFrames() throws {
        let s = try parse("""
            root r 5 5 100 100
            view a
            view b in a
            a.width == 10 @250
            a.width == 20 @750
            a.height == 30 @250
            b.width == 1
            """)
        let lowered = s.lowered(as: Double.self)
        #expect(lowered.levels == [Priority(750), Priority(250)])
        #expect(lowered.rows.map(\.level) == [2, 1, 2, 0])
        #expect(lowered.variableCount == 8)
        let values: [Double] = [7, 8, 10, 30, 9, 11, 1, 2]
        #expect(s.frames(values: values, global: false) == [[2, 3, 10, 30], [2, 3, 1, 2]])
        #expect(s.frames(values: values, global: true) == [[7, 8, 10, 30], [9, 11, 1, 2]])
        #expect(lowered.rows[0].value(at: values) == 0)
    }

    /// Each constraint's level from the one census pass equals its priority's level looked
    /// up, with few distinct priorities (a linear scan) and with more than the scan's limit
    /// (hashed), interleaved so that runs and first occurrences differ from the sorted order.
    @Test(arguments: [3, PriorityLevels.linearScanLimit + 5])
    func levelOfEachConstraintMatchesTheLookup(distinct: Int) throws {
        var text = "root r 100 100\nview a\n"
        for k in 0..<(3 * distinct) {
            let priority = 100 + (k * 5) % distinct * 10
            text += "a.width == \(k) @\(priority)\n"
            if k % 4 == 0 { text += "a.height == \(k)\n" }
        }
        let system = try parse(text)
        let (levels, levelOf) = system.levelOfEachConstraint()
        #expect(levels == system.optionalLevels)
        #expect(levels.count == distinct)
        let lookup = system.levelNumbers()
        for (index, constraint) in system.constraints.enumerated() {
            #expect(Int(levelOf[index]) == lookup.level(of: constraint.priority), "constraint \(index)")
        }
    }

    /// The pooled rows are the same rows: each run of the pool is its row's terms.
    @Test func pooledRowsAreTheRows() throws {
        let s = try parse("root r 100 100\nview a\nview b\na.left == b.right + 8\nb.width == 0.5 * a.width @250\na.top == r.top + 10\n")
        let linear = s.lowered(as: Double.self)
        let pooled = PooledLinearSystem(linear)
        #expect(pooled.unpooled == linear)
        #expect(pooled.terms.count == linear.rows.reduce(0) { $0 + $1.terms.count })
        let point: [Double] = [1, 2, 3, 4, 5, 6, 7, 8]
        for index in linear.rows.indices {
            #expect(pooled.row(index) == linear.rows[index])
            #expect(pooled.value(ofRow: index, at: point) == linear.rows[index].value(at: point))
            #expect(pooled.rows[index].isRequired == linear.rows[index].isRequired)
        }
    }
}
