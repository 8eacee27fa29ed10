import BackendContract
import ExactArithmetic
import ExactSimplex
@testable import Fuzzing
import Generator
import LayoutModel
@testable import OutsideSolvers
import Testing

/// GTK holds values to the pixel only within 2²⁴ px (float32 geometry): systems whose
/// constants could reach beyond are declined before they are sent (no GTK needed to check).
@Suite struct GtkPixelRangeDeclineTests {
    static let scale = Rational(1_000_000)

    @Test func extremeConstantsAreDeclinedWithTheReason() throws {
        let why = GtkRowMapping.unsupported(try parse("root superview 0 0 375 667\nview a\na.width == 1e9\n"), strengthScale: Self.scale)
        #expect(why?.contains("2^24") == true, "\(why ?? "taken")")
        // A chain of views adds its constants up: two of 9e6 reach beyond, one does not.
        let one = "root superview 0 0 375 667\nview a\na.left == superview.left\na.width == 9000000\n"
        #expect(GtkRowMapping.unsupported(try parse(one), strengthScale: Self.scale) == nil)
        let two = one + "view b\nb.left == a.right\nb.width == 9000000\n"
        #expect(GtkRowMapping.unsupported(try parse(two), strengthScale: Self.scale) != nil)
    }

    @Test func everyExtremeConstantsCaseIsDeclinedAndEveryAppLikeOneTaken() throws {
        let extreme = try #require(Families.named("extreme-constants"))
        for seed in UInt64(1)...20 {
            let system = generate(family: extreme, size: Int(seed % 6) + 1, seed: seed).system
            #expect(GtkRowMapping.unsupported(system, strengthScale: Self.scale) != nil, "seed \(seed)")
        }
        for name in ["form", "grid", "equal-widths", "near-conflicts"] {
            let family = try #require(Families.named(name))
            for seed in UInt64(1)...10 {
                let why = GtkRowMapping.unsupported(generate(family: family, size: 8, seed: seed).system, strengthScale: Self.scale)
                #expect(why?.contains("2^24") != true, "\(name) seed \(seed): \(why ?? "")")
            }
        }
    }
}

/// The same bound as GTK shows it (measured on GTK 4.8.3, docs/outside-solvers.md "GTK").
@Suite(.enabled(if: Solvers.installed("gtk"),
                "the gtk adapter is not built (scripts/install-outside-solvers.sh: libgtk-4-dev, libjson-glib-dev, xvfb)"))
struct GtkPixelRangeTests {
    /// Within the range GTK's answer is exact to the pixel and judged without findings.
    @Test func aViewJustWithinTheRangeIsPlacedToThePixel() throws {
        let gtk = Solvers.backend("gtk")
        let system = try parse("root superview 0 0 375 667\nview a\na.left == superview.left + 16000000\na.width == 3\na.top == superview.top\na.height == 10\n")
        #expect(gtk.supports(system).isSupported)
        let result = try gtk.solve(system, budget: Budget(wallTime: .seconds(10)))
        #expect(result.solution.values == [16000000, 0, 3, 10])
        let found = campaign([gtk], families: ["random"], oracles: []).judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(found.isEmpty, "\(found.map(\.detail))")
    }

    /// A multiplier can carry a value beyond the range that the constants do not show: the
    /// adapter answers `unsupported` (no finding), not a value GTK cannot hold.
    @Test func aValueCarriedBeyondTheRangeIsUnsupported() throws {
        let gtk = Solvers.backend("gtk")
        let system = try parse("""
            root superview 0 0 375 667
            view a
            a.left == superview.left
            a.width == 20000
            view b
            b.left == superview.left
            b.width == 1000 * a.width
            """)
        #expect(gtk.supports(system).isSupported)
        #expect {
            try gtk.solve(system, budget: Budget(wallTime: .seconds(10)))
        } throws: { error in
            if case BackendError.unsupported = error { return "\(error)".contains("2^24") }
            return false
        }
        let found = campaign([gtk], families: ["random"], oracles: []).judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(found.isEmpty, "\(found.map(\.detail))")
    }
}

/// GTK weighs a non-required constraint's error as `A REL m·B + c` writes it: a row whose
/// first attribute has a coefficient other than ±1 (`w1.top == -2.6032 * w1.bottom - 60`
/// lowers to `2.6032·h + 60`) would be weighed divided by it, which the declared weight
/// mapping does not say: such a system is declined (the cassowary-benchmark `suboptimal`
/// findings were this).
@Suite struct GtkScaledOptionalRowTests {
    @Test func anOptionalRowGtkWouldWeighDifferentlyIsDeclined() throws {
        let scaled = "root superview 896 414\nview w1\nw1.top == w1.bottom @251\nw1.top == -2.6032 * w1.bottom - 60 @250\n"
        let why = GtkRowMapping.unsupported(try parse(scaled), strengthScale: GtkPixelRangeDeclineTests.scale)
        #expect(why?.contains("divided by 2.6032") == true, "\(why ?? "taken")")
        // Required, the same row is taken (no weight), and so is an optional row of coefficient 1.
        let required = "root superview 896 414\nview w1\nw1.top == -2.6032 * w1.bottom - 60\n"
        #expect(GtkRowMapping.unsupported(try parse(required), strengthScale: GtkPixelRangeDeclineTests.scale) == nil)
        let plain = "root superview 896 414\nview a\nview b\na.width == 2.5 * b.width + 3 @250\n"
        #expect(GtkRowMapping.unsupported(try parse(plain), strengthScale: GtkPixelRangeDeclineTests.scale) == nil)
    }
}

/// Rejections read from whole pixels (docs/outside-solvers.md, "Rejections within a pixel").
@Suite(.enabled(if: Solvers.installed("gtk"),
                "the gtk adapter is not built (scripts/install-outside-solvers.sh: libgtk-4-dev, libjson-glib-dev, xvfb)"))
struct GtkRejectionTests {
    /// From the campaign (equal-spacing-rtl): GTK's x for the last gap is a hair below 0 and
    /// floors to −1 against `superview.trailing == gap0_4.trailing` (x == 0), off by exactly
    /// Σ|a|. GTK kept the row: it is not reported rejected, and nothing is wrong.
    @Test func aRowOffByExactlyItsRoundingIsKept() throws {
        let gtk = Solvers.backend("gtk")
        let family = try #require(Families.named("equal-spacing-rtl"))
        let system = generate(family: family, size: 9, seed: 9481787893391882065).system
        let result = try gtk.solve(system, budget: Budget(wallTime: .seconds(10)))
        #expect(result.solution.broken.isEmpty)
        let found = campaign([gtk], families: ["random"], oracles: []).judge(system, oracle: nil, seed: 0).map(\.finding)
        #expect(!found.contains { $0.verdict == .wrong }, "\(found.map(\.detail))")
    }

    /// A conflict of more than a pixel is still seen: 172 px wide against at most 0.
    @Test func aConflictBeyondThePixelIsRejected() throws {
        let gtk = Solvers.backend("gtk")
        let system = try parse("root superview 0 0 375 667\nview a\na.width <= 0\na.width == 172\na.left == superview.left + 4\n")
        #expect(try gtk.solve(system, budget: Budget(wallTime: .seconds(10))).solution.broken == [1])
    }
}
