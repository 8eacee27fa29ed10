import Testing
@testable import LayoutModel

@Suite struct VisualFormatTests {
    static let header = """
        root r 375 667
        view a
        view b
        view c

        """

    /// The constraints a VFL line generates, printed canonically.
    func lines(_ vfl: String, header: String = Self.header) throws -> [String] {
        let s = try parse(header + vfl + "\n")
        #expect(s.constraints.allSatisfy { $0.origin == .visualFormat })
        return s.constraints.map(s.constraintLine)
    }

    @Test func superviewEdges() throws {
        #expect(try lines("H:|-50-[a]-50-|") == ["a.leading == r.leading + 50", "r.trailing == a.trailing + 50"])
        #expect(try lines("V:|-75-[a]|") == ["a.top == r.top + 75", "r.bottom == a.bottom"])
        #expect(try lines("|[a]|") == ["a.leading == r.leading", "r.trailing == a.trailing"])
    }

    @Test func standardSpacing() throws {
        #expect(try lines("|-[a]-[b]-|") == [
            "a.leading == r.leading + 20", "b.leading == a.trailing + 8", "r.trailing == b.trailing + 20",
        ])
        #expect(try lines("[a]-[b]") == ["b.leading == a.trailing + 8"])
        #expect(try lines("V:[a]-[b]") == ["b.top == a.bottom + 8"])
    }

    @Test func flushViews() throws {
        #expect(try lines("[a][b]") == ["b.leading == a.trailing"])
    }

    @Test func viewPredicates() throws {
        #expect(try lines("H:[a(50)]") == ["a.width == 50"])
        #expect(try lines("H:[a(>=50)]") == ["a.width >= 50"])
        #expect(try lines("V:[a]-10-[b]") == ["b.top == a.bottom + 10"])
        #expect(try lines("H:[a(100@20)]") == ["a.width == 100 @20"])
        #expect(try lines("H:[a(==b)]") == ["a.width == b.width"])
        #expect(try lines("V:[a(b)]") == ["a.height == b.height"])
        #expect(try lines("H:[a(>=70,<=100)]") == ["a.width >= 70", "a.width <= 100"])
        #expect(try lines("H:[a(<=b@750)]") == ["a.width <= b.width @750"])
    }

    /// VFL priorities take the named levels constraint lines take (issue 19).
    @Test func namedPriorities() throws {
        #expect(try lines("H:[a(100@high)]") == ["a.width == 100 @750"])
        #expect(try lines("H:[a(>=b@low,<=200@fitting)]") == ["a.width >= b.width @250", "a.width <= 200 @50"])
        #expect(try lines("H:|-(>=8@required)-[a]") == ["a.leading >= r.leading + 8"])
        #expect(try lines("H:[a]-(20@high)-[b]") == ["b.leading == a.trailing + 20 @750"])
    }

    @Test func connectionPredicates() throws {
        #expect(try lines("H:|-(>=8@750)-[a]-(<=20,>=5)-[b]") == [
            "a.leading >= r.leading + 8 @750", "b.leading <= a.trailing + 20", "b.leading >= a.trailing + 5",
        ])
        #expect(try lines("[a]-(-5)-[b]") == ["b.leading == a.trailing - 5"])
    }

    /// Apple's find panel: text order puts each connection before the next view's predicates.
    @Test func findPanelOrder() throws {
        #expect(try lines("|-[a]-[b]-[c(>=20)]-|") == [
            "a.leading == r.leading + 20", "b.leading == a.trailing + 8", "c.leading == b.trailing + 8",
            "c.width >= 20", "r.trailing == c.trailing + 20",
        ])
    }

    @Test func alignment() throws {
        #expect(try lines("H:|[a][b][c]| align top,centerY") == [
            "a.leading == r.leading", "b.leading == a.trailing", "c.leading == b.trailing", "r.trailing == c.trailing",
            "b.top == a.top", "b.centerY == a.centerY", "c.top == b.top", "c.centerY == b.centerY",
        ])
        #expect(try lines("V:[a][b] align leading") == ["b.top == a.bottom", "b.leading == a.leading"])
        #expect(try lines("[a][b] align baseline") == ["b.leading == a.trailing", "b.lastBaseline == a.lastBaseline"])
    }

    @Test func centringTrick() throws {
        let header = "root superview 375 667\nview secondView intrinsic - 40\n"
        let s = try parse(header + "H:[superview]-(<=0)-[secondView(200)] align centerY\n")
        #expect(s.constraints.dropFirst(2).map(s.constraintLine) == [
            "secondView.leading <= superview.trailing", "secondView.width == 200",
            "secondView.centerY == superview.centerY",
        ])
    }

    @Test func nestedParentIsTheSuperview() throws {
        let s = try parse("root r 100 100\nview p\nview x in p\nview y in p\n|-[x]-[y]-|\n")
        #expect(s.constraints.map(s.constraintLine) == [
            "x.leading == p.leading + 20", "y.leading == x.trailing + 8", "p.trailing == y.trailing + 20",
        ])
    }

    @Test func rtlFlipsHorizontalLines() throws {
        let s = try parse("direction rtl\n" + Self.header + "H:|-10-[a]\n")
        // a.leading (right edge) is 10 inside the superview's leading (right) edge.
        #expect(loweredRow(s, 0).terms == ["a.x": -1, "a.w": -1])
        #expect(loweredRow(s, 0).constant == 365)
    }

    @Test func numbering() throws {
        let s = try parse(Self.header + "|-[a]-|\na.width == 5\n")
        #expect(s.constraintName(2) == "c3")
    }

    /// (line, column, kind)
    static let errors: [(String, Int, LayoutError.Kind)] = [
        ("H:|-[a]-|-[b]", 9, .visualFormat),
        ("|-|", 3, .visualFormat),
        ("H:-[a]", 3, .syntax),
        ("H:[a]-", 7, .syntax),
        ("H:[a]-(pad)-[b]", 8, .visualFormat),
        ("H:[a(==zzz)]", 8, .undeclaredName),
        ("H:[a(50@2000)]", 9, .v5OutOfRange),
        ("H:[a][b] align width", 16, .visualFormat),
        ("V:[a][b] align top", 16, .visualFormat),
        ("H:[a] align", 12, .syntax),
        ("H:[a", 5, .syntax),
        ("H:[a(50]", 8, .syntax),
        ("H:[r]-[a]-|", 4, .visualFormat),
        ("H:[a]-5[b]", 8, .syntax),
        ("H:[a(50@urgent)]", 9, .syntax),
        ("H:[a(50@)]", 9, .syntax),
        ("H:|", 1, .visualFormat),
    ]

    @Test(arguments: 0..<errors.count)
    func positionedErrors(index: Int) throws {
        let (line, column, kind) = Self.errors[index]
        let error = try #require(parseError(Self.header + line + "\n"), "\(line)")
        #expect(error.location == SourceLocation(line: 5, column: column), "\(line): \(error)")
        #expect(error.kind == kind, "\(line): \(error)")
    }

    @Test func mixedParentsWithSuperviewEdge() throws {
        let error = try #require(parseError("root r 100 100\nview p\nview x in p\nview y\n|-[x]-[y]-|\n"))
        #expect(error.kind == .visualFormat)
        #expect(error.location == SourceLocation(line: 5, column: 8))
    }
}
