import InterfaceBuilder
import LayoutModel
import Testing

@Suite struct PixelRoundingTests {
    @Test func edgesNotSizesAreRounded() {
        // x 10.3 → 10.5, right edge 30.6 → 30.5: the width comes out 20, not round(20.3).
        #expect(PixelRounding.round([10.3, 0.2, 20.3, 5.0], scale: 2) == [10.5, 0, 20, 5])
        // At 3x: 30.9 → 31, 0.6 → 1, 91.8 → 92, 15.6 → 16 pixels.
        let third = PixelRounding.round([10.3, 0.2, 20.3, 5.0], scale: 3)
        for (value, expected) in zip(third, [31.0 / 3, 1.0 / 3, 61.0 / 3, 5.0]) {
            #expect(abs(value - expected) < 1e-12)
        }
        // Halves go away from zero.
        #expect(PixelRounding.round(0.25, scale: 2) == 0.5)
        #expect(PixelRounding.round(-0.25, scale: 2) == -0.5)
    }

    /// Rounding happens in the root's coordinates: a child at 117.255 inside a parent at
    /// 116.49 ends at 233.745, which rounds to 233.5, so relative to the parent's rounded
    /// origin (116.5) it is 117 wide — not the 117.5 that rounding its own frame would give.
    @Test func roundingHappensInRootCoordinates() throws {
        var system = ConstraintSystem(rootName: "root", frame: [.zero, .zero, NumericLiteral(400), NumericLiteral(100)])
        let parent = system.addView(Item(name: "parent", parent: 0))
        _ = system.addView(Item(name: "child", parent: parent))
        let global: [[Double]] = [[116.49, 0, 236.51, 10], [116.49, 0, 117.255, 10]]
        let local = PixelRounding.roundedFrames(of: system, globalFrames: global, scale: 2)
        #expect(local[0] == [116.5, 0, 236.5, 10])
        #expect(local[1] == [0, 0, 117, 10])
    }

    /// AppKit stores whole points, halves rounded up in its own coordinates: to the right,
    /// and, under a superview that is not flipped, up the screen (to the smaller y here).
    @Test func appKitHalves() throws {
        var system = ConstraintSystem(rootName: "root", frame: [.zero, .zero, NumericLiteral(100), NumericLiteral(100)])
        _ = system.addView(Item(name: "a", parent: 0))
        _ = system.addView(Item(name: "b", parent: 0))
        let local: [[Double]] = [[5.5, 5.5, 13, 13], [5.5, 5.5, 13, 13]]
        let rounded = PixelRounding.appKitFrames(of: system, localFrames: local, scale: 1, upwardItems: [1])
        #expect(rounded[0] == [6, 5, 13, 13])
        #expect(rounded[1] == [6, 6, 13, 13])
    }
}
