import BackendContract
import GaussianBackend
import LayoutModel
import Testing

@Suite("Unique solutions")
struct UniqueSolutionTests {
    /// Apple's two equal-width views (spec §6's example). By hand: heights 667 − 40 = 627;
    /// 20 + w + 8 + w + 20 = 375 gives w = 163.5; blue.x = 20 + 163.5 + 8 = 191.5.
    static let sideBySide = """
        root superview 375 667
        view red
        view blue
        red.top == superview.top + 20
        superview.bottom == red.bottom + 20
        blue.top == superview.top + 20
        superview.bottom == blue.bottom + 20
        red.leading == superview.leading + 20
        blue.leading == red.trailing + 8
        superview.trailing == blue.trailing + 20
        red.width == blue.width
        """

    @Test func sideBySideEqualWidths() throws {
        let solved = try solve(Self.sideBySide)
        #expect(solved.status == .optimal)
        #expect(isClose(try solved.frame("red"), [20, 20, 163.5, 627]))
        #expect(isClose(try solved.frame("blue"), [191.5, 20, 163.5, 627]))
        #expect(solved.ambiguous.isEmpty)
        #expect(solved.broken.isEmpty && solved.conflict.isEmpty)
        #expect(solved.solution.objective.isEmpty)
        #expect(solved.solution.exactValues == nil)
    }

    /// Red twice blue between the root's margins (16 each side): 24 + 3b = 359, so b = 335/3,
    /// red.w = 670/3, blue.x = 742/3.
    @Test func thirdsBetweenMargins() throws {
        let solved = try solve("""
            root superview 375 667 margins 8 16 8 16
            view red
            view blue
            red.leading == superview.leadingMargin
            blue.leading == red.trailing + 8
            blue.trailing == superview.trailingMargin
            red.top == superview.top + 20
            blue.top == superview.top + 20
            superview.bottom == red.bottom + 20
            superview.bottom == blue.bottom + 20
            twice: red.width == 2.0 * blue.width
            """)
        #expect(solved.status == .optimal)
        #expect(isClose(try solved.frame("red"), [16, 20, 670.0 / 3, 627]))
        #expect(isClose(try solved.frame("blue"), [742.0 / 3, 20, 335.0 / 3, 627]))
        #expect(solved.ambiguous.isEmpty)
    }

    /// Under rtl, leading is the right edge and mirrored constraints negate horizontal
    /// positions: red.x + w = 355, blue.x + w = red.x − 8, blue.x = 20, so w = 163.5 and red
    /// sits on the right at 191.5. The badge uses `left`, which is never mirrored.
    @Test func rightToLeftMirroring() throws {
        let solved = try solve("""
            direction rtl
            root superview 375 667
            view red
            view blue
            view badge
            red.top == superview.top + 20
            superview.bottom == red.bottom + 20
            blue.top == red.top
            blue.bottom == red.bottom
            red.leading == superview.leading + 20
            blue.leading == red.trailing + 8
            superview.trailing == blue.trailing + 20
            red.width == blue.width
            badge.left == superview.left + 4
            badge.top == superview.top + 4
            badge.width == 12
            badge.height == 12
            """)
        #expect(solved.status == .optimal)
        #expect(isClose(try solved.frame("red"), [191.5, 20, 163.5, 627]))
        #expect(isClose(try solved.frame("blue"), [20, 20, 163.5, 627]))
        #expect(isClose(try solved.frame("badge"), [4, 4, 12, 12]))
        #expect(solved.ambiguous.isEmpty)
    }

    /// 200 views in a row, equal widths, 2 apart, 10 from each edge of a 10000-wide root:
    /// 200w + 199·2 + 20 = 10000, so w = 47.91 and view k sits at x = 10 + 49.91k, y = k.
    /// 800 unknowns and 800 independent equations.
    @Test func chainOfTwoHundredViews() throws {
        let count = 200
        var lines = ["root superview 10000 1000"]
        lines += (0..<count).map { "view v\($0)" }
        lines.append("v0.leading == superview.leading + 10")
        for k in 1..<count {
            lines.append("v\(k).leading == v\(k - 1).trailing + 2")
            lines.append("v\(k).width == v\(k - 1).width")
        }
        lines.append("superview.trailing == v\(count - 1).trailing + 10")
        for k in 0..<count {
            lines.append("v\(k).top == superview.top + \(k)")
            lines.append("v\(k).height == 20")
        }
        let solved = try solve(lines.joined(separator: "\n"))
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous.isEmpty)
        for k in 0..<count {
            #expect(isClose(try solved.frame("v\(k)"), [10 + 49.91 * Double(k), Double(k), 47.91, 20]), "v\(k)")
        }
        // Dense and honest: Σ_{i<800} i row operations in the walk, as many in back-substitution.
        #expect(solved.result.statistics.iterations == 2 * (800 * 799 / 2))
    }
}

@Suite("Ambiguity")
struct AmbiguityTests {
    @Test func missingHorizontalPosition() throws {
        let solved = try solve("""
            root superview 375 667
            view box
            box.top == superview.top + 10
            box.width == 100
            box.height == 50
            """)
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous == ["box.x"])
        let frame = try solved.frame("box")
        #expect(isClose(Array(frame[1...]), [10, 100, 50]))
    }

    /// box's width is free, and other.x follows box's right edge: both are ambiguous, while
    /// everything else stays determined.
    @Test func missingWidthSpreadsToWhatDependsOnIt() throws {
        let solved = try solve("""
            root superview 375 667
            view box
            view other
            box.leading == superview.leading + 10
            box.top == superview.top + 10
            box.height == 50
            other.leading == box.trailing + 8
            other.top == box.top
            other.width == 20
            other.height == 20
            """)
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous == ["box.w", "other.x"])
        let box = try solved.frame("box"), other = try solved.frame("other")
        #expect(isClose([box[0], box[1], box[3]], [10, 10, 50]))
        #expect(isClose(Array(other[1...]), [10, 20, 20]))
        // Any point is fine for ambiguous unknowns, but it must satisfy every constraint.
        #expect(isClose([other[0]], [box[0] + box[2] + 8]))
    }

    /// Spec §5.3: a child pinned to an ambiguous parent is ambiguous in root space.
    @Test func childOfAnAmbiguousParent() throws {
        let solved = try solve("""
            root superview 375 667
            view card
            view child in card
            card.width == 200
            card.height == 100
            child.leading == card.leading + 10
            child.top == card.top + 10
            child.width == 50
            child.height == 20
            """)
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous == ["card.x", "card.y", "child.x", "child.y"])
        let card = try solved.frame("card"), child = try solved.frame("child")
        #expect(isClose(Array(card[2...]), [200, 100]))
        #expect(isClose(Array(child[2...]), [50, 20]))
        #expect(isClose([child[0] - card[0], child[1] - card[1]], [10, 10]))
    }

    @Test func noConstraintsLeavesEverythingFreeAtZero() throws {
        let solved = try solve("""
            root superview 375 667
            view lone
            """)
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous == ["lone.x", "lone.y", "lone.w", "lone.h"])
        #expect(try solved.frame("lone") == [0, 0, 0, 0])
        #expect(solved.result.statistics.iterations == 0)
    }
}

@Suite("Redundancy and conflicts")
struct ConflictTests {
    @Test func duplicateAndDerivedEqualitiesAreKept() throws {
        let solved = try solve("""
            root superview 375 667
            view a
            view b
            a.left == superview.left
            a.top == superview.top
            a.height == 10
            a.width == 100
            a.width == 100
            b.width == a.width
            b.width == 100
            b.left == a.right
            b.top == a.top
            b.height == a.height
            b.left == superview.left + 100
            """)
        #expect(solved.status == .optimal)
        #expect(solved.broken.isEmpty && solved.conflict.isEmpty)
        #expect(isClose(try solved.frame("a"), [0, 0, 100, 10]))
        #expect(isClose(try solved.frame("b"), [100, 0, 100, 10]))
        #expect(solved.ambiguous.isEmpty)
    }

    @Test func contradictoryWidths() throws {
        let solved = try solve("""
            root superview 375 667
            view box
            view other
            boxLeft: box.leading == superview.leading + 20
            boxTop: box.top == superview.top + 20
            box.height == 50
            narrow: box.width == 100
            wide: box.width == 200
            other.leading == box.trailing + 8
            other.top == box.top
            other.width == 80
            other.height == 30
            """)
        #expect(solved.status == .unsatisfiable)
        #expect(solved.broken == ["wide"])
        #expect(solved.conflict == ["narrow", "wide"])
        #expect(isClose(try solved.frame("box"), [20, 20, 100, 50]))
        #expect(isClose(try solved.frame("other"), [128, 20, 80, 30]))
        #expect(solved.ambiguous.isEmpty)
    }

    /// a = b + 1, b = c + 1, c = a + 1 sums to 0 = 3: the third is broken and needs both others.
    @Test func threeRowCycle() throws {
        let solved = try solve("""
            root superview 375 667
            view a
            view b
            view c
            a.width == 10
            ab: a.left == b.left + 1
            bc: b.left == c.left + 1
            ca: c.left == a.left + 1
            """)
        #expect(solved.status == .unsatisfiable)
        #expect(solved.broken == ["ca"])
        #expect(solved.conflict == ["ab", "bc", "ca"])
    }

    /// Redundant rows never enter the basis, so they stay out of the conflict; only the first
    /// broken constraint gets one.
    @Test func conflictSkipsRedundantRowsAndLaterBreaks() throws {
        let solved = try solve("""
            root superview 375 667
            view a
            view b
            base: a.width == 100
            link: b.width == a.width
            derived: b.width == 100
            again: a.width == 100
            clash: b.width == 120
            clash2: a.width == 50
            """)
        #expect(solved.status == .unsatisfiable)
        #expect(solved.broken == ["clash", "clash2"])
        #expect(solved.conflict == ["base", "link", "clash"])
        #expect(isClose([try solved.frame("a")[2], try solved.frame("b")[2]], [100, 100]))
    }

    /// A constraint that lowers to `0 = 5` is its own conflict.
    @Test func contradictionWithoutUnknowns() throws {
        let solved = try solve("""
            root superview 375 667
            view a
            a.width == 10
            never: a.width == a.width + 5
            """)
        #expect(solved.broken == ["never"])
        #expect(solved.conflict == ["never"])
        #expect(isClose([try solved.frame("a")[2]], [10]))
    }

    /// Appending broken constraints changes nothing about the kept ones: same point, bit for bit.
    @Test func brokenRowsDoNotMoveTheKeptSolution() throws {
        let base = try solve(UniqueSolutionTests.sideBySide)
        let extended = try solve(UniqueSolutionTests.sideBySide + """

            tooNarrow: red.width == 50
            flush: blue.left == superview.left
            flat: red.height == 1
            """)
        #expect(extended.status == .unsatisfiable)
        #expect(extended.broken == ["tooNarrow", "flush", "flat"])
        // red.w = 163.5 takes the whole horizontal chain: c5 (red.x), c6, c7 and c8.
        #expect(extended.conflict == ["c5", "c6", "c7", "c8", "tooNarrow"])
        #expect(extended.solution.values == base.solution.values)
        #expect(extended.ambiguous.isEmpty)
    }
}

@Suite("Support")
struct SupportTests {
    @Test(arguments: [
        ("view a\na.width >= 10", "inequalities"),
        ("view a\na.width == 10 @750", "optional constraints"),
        ("view a\na.width <= 10 @low", "inequalities and optional constraints"),
        ("view a\na.width == 10\na.height >= 1\na.left == superview.left @high", "inequalities and optional constraints"),
        ("view a intrinsic 10 20", "inequalities and optional constraints"),
        ("view a intrinsic 10 20 hug 1000 1000 resist 1000 1000", "inequalities"),
        ("view a\na.width == 1e308 * superview.width", "numbers beyond Double's range"),
    ])
    func unsupportedSystems(body: String, reason: String) throws {
        let system = try LayoutParser.parse("root superview 375 667\n" + body)
        let backend = GaussianEliminationBackend()
        #expect(backend.supports(system) == .unsupported(reason))
        #expect(throws: BackendError.unsupported(backend: "gaussian", reason: reason)) {
            try backend.solve(system, budget: .unlimited)
        }
    }

    @Test func requiredEqualitiesAreSupported() throws {
        let system = try LayoutParser.parse(UniqueSolutionTests.sideBySide)
        let backend = GaussianEliminationBackend()
        #expect(backend.supports(system) == .supported)
        #expect(backend.name == "gaussian")
        #expect(!backend.summary.isEmpty)
    }
}

@Suite("Budget")
struct BudgetTests {
    /// Eight independent equations: 0 + 1 + … + 7 = 28 row operations in the walk, 28 more in
    /// back-substitution.
    @Test func iterationsCountRowOperations() throws {
        let solved = try solve(UniqueSolutionTests.sideBySide)
        #expect(solved.result.statistics.iterations == 56)
    }

    @Test func aBudgetOfNAllowsExactlyNRowOperations() throws {
        let enough = try solve(UniqueSolutionTests.sideBySide, budget: Budget(iterations: 56))
        #expect(enough.status == .optimal)
        for limit in [0, 2, 27, 28, 55] {
            let short = try solve(UniqueSolutionTests.sideBySide, budget: Budget(iterations: limit))
            #expect(short.solution == .budgetExceeded(variableCount: 8), "limit \(limit)")
            // The refused operation is counted.
            #expect(short.result.statistics.iterations == limit + 1, "limit \(limit)")
        }
    }
}

@Suite("Rank tolerance")
struct ToleranceTests {
    /// `1.1` and `0.9090909090909092`: the literal is one unit of rounding above 1/1.1, so the
    /// reduced coefficient is about 1.1e-16 — far inside the default tolerance (dependent, kept
    /// as redundant, a.w and a.h ambiguous), yet not zero (independent at tolerance 0, forcing
    /// a.w = a.h = 0, as the exact backend would).
    static let nearReciprocal = """
        root superview 375 667
        view a
        a.left == superview.left
        a.top == superview.top
        ratio: a.width == 1.1 * a.height
        inverse: a.height == 0.9090909090909092 * a.width
        """

    @Test func nearReciprocalRowsAreDependentWithinTolerance() throws {
        let solved = try solve(Self.nearReciprocal)
        #expect(solved.status == .optimal)
        #expect(solved.broken.isEmpty)
        #expect(solved.ambiguous == ["a.w", "a.h"])

        let pinned = try solve(Self.nearReciprocal + "\npin: a.width == 110")
        #expect(pinned.status == .optimal)
        #expect(pinned.ambiguous.isEmpty)
        #expect(isClose(try pinned.frame("a"), [0, 0, 110, 100]))
    }

    @Test func nearReciprocalRowsAreIndependentAtToleranceZero() throws {
        let exact = GaussianEliminationBackend(relativeTolerance: 0)
        let solved = try solve(Self.nearReciprocal, backend: exact)
        #expect(solved.status == .optimal)
        #expect(solved.ambiguous.isEmpty)
        #expect(try solved.frame("a") == [0, 0, 0, 0])

        let pinned = try solve(Self.nearReciprocal + "\npin: a.width == 110", backend: exact)
        #expect(pinned.status == .unsatisfiable)
        #expect(pinned.broken == ["pin"])
        #expect(pinned.conflict == ["ratio", "inverse", "pin"])
    }

    /// `0.6510416666666666` is the double nearest 125/192 = 1/1.536, so elimination cancels
    /// exactly and the rows are dependent even at tolerance 0 (the exact backend, reading the
    /// literals as rationals, finds them independent).
    @Test(arguments: [GaussianEliminationBackend.defaultRelativeTolerance, 0])
    func reciprocalsThatRoundExactly(tolerance: Double) throws {
        let text = """
            root superview 375 667
            view a
            a.left == superview.left
            a.top == superview.top
            a.width == 1.536 * a.height
            a.height == 0.6510416666666666 * a.width
            """
        let backend = GaussianEliminationBackend(relativeTolerance: tolerance)
        let solved = try solve(text, backend: backend)
        #expect(solved.ambiguous == ["a.w", "a.h"])
        let pinned = try solve(text + "\na.width == 192", backend: backend)
        #expect(pinned.status == .optimal)
        #expect(isClose(try pinned.frame("a"), [0, 0, 192, 125]))
    }

    /// Ratios 1e-7 apart are well beyond the tolerance: independent, so the pin breaks.
    @Test func distinctRatiosAreIndependent() throws {
        let solved = try solve("""
            root superview 375 667
            view a
            a.left == superview.left
            a.top == superview.top
            ratio: a.width == 1.536 * a.height
            inverse: a.height == 0.6510416 * a.width
            pin: a.width == 192
            """)
        #expect(solved.broken == ["pin"])
        #expect(solved.conflict == ["ratio", "inverse", "pin"])
        #expect(try solved.frame("a") == [0, 0, 0, 0])
    }

    /// Consistency is judged relative to the constants involved, with no absolute floor.
    @Test(arguments: [
        ("100", "100.000000000001", true),
        ("100", "100.0000001", false),
        ("1e-20", "2e-20", false),
        ("1e-20", "1.00000000000001e-20", true),
        ("1e12", "1000000000000.001", true),
    ])
    func constantsAreComparedRelatively(first: String, second: String, consistent: Bool) throws {
        let solved = try solve("""
            root superview 375 667
            view a
            a.width == \(first)
            a.width == \(second)
            """)
        #expect(solved.broken == (consistent ? [] : ["c2"]))
    }

    /// The scale s of the equations changes no decision: `b.height == s·b.width` is redundant
    /// and `b.height == s·b.width + s` broken, for every s. The conflict leaves out c1: a.width's
    /// value does not matter, and its multiplier cancels exactly.
    @Test(arguments: ["1e-12", "1e-3", "1", "1e3", "1e12"])
    func decisionsIgnoreTheScaleOfTheEquations(scale: String) throws {
        let text = """
            root superview 375 667
            view a
            view b
            a.width == 10
            b.width == a.width
            b.height == \(scale) * a.width
            """
        let consistent = try solve(text + "\nb.height == \(scale) * b.width")
        #expect(consistent.broken.isEmpty)
        let inconsistent = try solve(text + "\nb.height == \(scale) * b.width + \(scale)")
        #expect(inconsistent.broken == ["c4"])
        #expect(inconsistent.conflict == ["c2", "c3", "c4"])
    }
}
