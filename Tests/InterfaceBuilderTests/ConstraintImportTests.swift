import Foundation
import InterfaceBuilder
import LayoutModel
import Testing

/// Constraints as IB writes them: implicit first items, multipliers in every spelling,
/// priorities, placeholders, size-class variations.
@Suite struct ConstraintImportTests {
    /// A (20,20,160,90) with width 160 and width = 16:9 × height; B beside it at 0.75 of A's
    /// width and square (1:1); C a third (1/3) of the root's width and twice (2) A's height;
    /// D 50 wide because the @750 constraint beats the @250 one. Frames are UIKit's, rounded
    /// to the 2x pixel grid (C's right edge 153.33 goes to 153.5).
    static let multipliers = iOSXib("""
        <view contentMode="scaleToFill" id="root">
            \(frame(0, 0, 400, 400))
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="A">
                    \(frame(20, 20, 160, 90))
                    <constraints>
                        <constraint firstAttribute="width" constant="160" id="a-w"/>
                        <constraint firstAttribute="width" secondItem="A" secondAttribute="height" multiplier="16:9" id="a-ratio"/>
                    </constraints>
                </view>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="B">
                    \(frame(190, 20, 120, 120))
                    <constraints>
                        <constraint firstAttribute="height" secondItem="B" secondAttribute="width" multiplier="1:1" id="b-square"/>
                    </constraints>
                </view>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="C">
                    \(frame(20, 120, 133.5, 180))
                </view>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="D">
                    \(frame(163.5, 120, 50, 30))
                    <constraints>
                        <constraint firstAttribute="width" constant="50" priority="750" id="d-w750"/>
                        <constraint firstAttribute="width" constant="80" priority="250" id="d-w250"/>
                        <constraint firstAttribute="height" constant="30" id="d-h"/>
                        <constraint firstAttribute="width" constant="300" placeholder="YES" id="d-placeholder"/>
                    </constraints>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="A" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="a-x"/>
                <constraint firstItem="A" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="a-y"/>
                <constraint firstItem="B" firstAttribute="leading" secondItem="A" secondAttribute="trailing" constant="10" id="b-x"/>
                <constraint firstItem="B" firstAttribute="top" secondItem="A" secondAttribute="top" id="b-y"/>
                <constraint firstItem="B" firstAttribute="width" secondItem="A" secondAttribute="width" multiplier="0.75" id="b-w"/>
                <constraint firstItem="C" firstAttribute="leading" secondItem="A" secondAttribute="leading" id="c-x"/>
                <constraint firstItem="C" firstAttribute="top" secondItem="A" secondAttribute="bottom" constant="10" id="c-y"/>
                <constraint firstItem="C" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="1/3" id="c-w"/>
                <constraint firstItem="C" firstAttribute="height" secondItem="A" secondAttribute="height" multiplier="2" id="c-h"/>
                <constraint firstItem="D" firstAttribute="leading" secondItem="C" secondAttribute="trailing" constant="10" id="d-x"/>
                <constraint firstAttribute="top" secondItem="D" secondAttribute="top" constant="-120" id="d-y"/>
            </constraints>
        </view>
        """)

    @Test func multipliersPrioritiesAndImplicitItems() throws {
        let layout = try onlyLayout(Self.multipliers)
        try expectAgreement(layout)
        let lines = constraintLines(layout)
        // The implicit first item is the view the constraint is installed on.
        #expect(lines.contains("ib_a_w: view_A.width == 160"))
        #expect(lines.contains("ib_d_y: view_root.top == view_D.top - 120"))
        // Ratios become the Double UIKit computes; decimals stay as written.
        #expect(lines.contains("ib_a_ratio: view_A.width == 1.7777777777777777 * view_A.height"))
        #expect(lines.contains("ib_b_square: view_B.height == view_B.width"))
        #expect(lines.contains("ib_c_w: view_C.width == 0.3333333333333333 * view_root.width"))
        #expect(lines.contains("ib_c_h: view_C.height == 2 * view_A.height"))
        #expect(lines.contains("ib_b_w: view_B.width == 0.75 * view_A.width"))
        #expect(lines.contains("ib_d_w750: view_D.width == 50 @750"))
        // The placeholder is gone, and said so.
        #expect(!lines.contains { $0.contains("placeholder") })
        #expect(layout.notes.contains { $0.kind == .removed && $0.message.contains("d-placeholder") })
        #expect(layout.notes.contains { $0.kind == .modelled && $0.message.contains("16:9") })
    }

    @Test func ratioAndDecimalMultipliersParse() {
        #expect(IBMultiplier.parse("2") == NumericLiteral(2))
        #expect(IBMultiplier.parse("0.75") == NumericLiteral(parsing: "0.75"))
        #expect(IBMultiplier.parse("1:1") == NumericLiteral(1))
        #expect(IBMultiplier.parse("16:9") == NumericLiteral(16.0 / 9.0))
        #expect(IBMultiplier.parse("1/3") == NumericLiteral(1.0 / 3.0))
        #expect(IBMultiplier.parse("3:0") == nil)
        #expect(IBMultiplier.parse("a:b") == nil)
        #expect(IBMultiplier.parse("") == nil)
    }

    /// The base configuration excludes `x-compact` and `x-regular`; a portrait iPhone is
    /// compact in width, so the compact variation puts `x-compact` back.
    @Test func sizeClassVariationsOfTheTargetDevice() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 100))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="V">
                        \(frame(40, 10, 50, 50))
                        <constraints>
                            <constraint firstAttribute="width" constant="50" id="v-w"/>
                            <constraint firstAttribute="height" constant="50" id="v-h"/>
                        </constraints>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="V" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="y"/>
                    <constraint firstItem="V" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="40" id="x-compact"/>
                    <constraint firstItem="V" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="99" id="x-regular"/>
                </constraints>
                <variation key="default">
                    <mask key="constraints">
                        <exclude reference="x-compact"/>
                        <exclude reference="x-regular"/>
                    </mask>
                </variation>
                <variation key="widthClass=compact">
                    <mask key="constraints">
                        <include reference="x-compact"/>
                    </mask>
                </variation>
                <variation key="heightClass=regular-widthClass=regular">
                    <mask key="constraints">
                        <include reference="x-regular"/>
                    </mask>
                </variation>
            </view>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        let lines = constraintLines(layout)
        #expect(lines.contains { $0.hasPrefix("ib_x_compact:") })
        #expect(!lines.contains { $0.hasPrefix("ib_x_regular:") })
        #expect(layout.notes.contains { $0.kind == .removed && $0.message.contains("x-regular") })
    }

    /// A view no constraint names is never added to UIKit's engine: it stays where it was
    /// loaded, and the import fixes it there (with a note).
    @Test func unconstrainedViewsKeepTheirFrames() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 100))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="free">
                        \(frame(12, 34, 56, 7.5))
                    </view>
                </subviews>
            </view>
            """)
        let layout = try onlyLayout(text)
        let solution = try expectAgreement(layout)
        #expect(solution.ambiguous.isEmpty)
        #expect(layout.notes.contains { $0.objectID == "free" && $0.message.contains("keeps its stored frame") })
    }
}
