import Foundation
import InterfaceBuilder
import LayoutModel
import Testing

/// What UIKit and AppKit compute outside Auto Layout: guides, margins, autoresizing masks,
/// intrinsic sizes, baselines, AppKit's coordinates and alignment rectangles.
@Suite struct EnvironmentTests {
    /// A scene in a navigation bar on a 4.7" iPhone with the status bar shown: the safe area
    /// starts at 20 + 44; the root's margins are 16 at the sides (a 375-point view) on top of
    /// that. A container with 30-point left margins holds a view that preserves them, so its
    /// own left margin becomes 30 where it touches the container's edge.
    @Test func safeAreaMarginsAndPreservedMargins() throws {
        let text = iOSStoryboard("""
            <scene sceneID="s1">
                <objects>
                    <viewController id="vc">
                        <view key="view" contentMode="scaleToFill" id="root">
                            \(frame(0, 0, 375, 667))
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="top">
                                    \(frame(16, 72, 343, 50))
                                    <constraints><constraint firstAttribute="height" constant="50" id="top-h"/></constraints>
                                </view>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="box">
                                    \(frame(0, 200, 375, 100))
                                    <subviews>
                                        <view translatesAutoresizingMaskIntoConstraints="NO" preservesSuperviewLayoutMargins="YES" id="inner">
                                            \(frame(0, 0, 375, 100))
                                            <subviews>
                                                <view translatesAutoresizingMaskIntoConstraints="NO" id="dot">
                                                    \(frame(30, 8, 10, 10))
                                                    <constraints>
                                                        <constraint firstAttribute="width" constant="10" id="dot-w"/>
                                                        <constraint firstAttribute="height" constant="10" id="dot-h"/>
                                                    </constraints>
                                                </view>
                                            </subviews>
                                            <constraints>
                                                <constraint firstItem="dot" firstAttribute="leading" secondItem="inner" secondAttribute="leadingMargin" id="dot-x"/>
                                                <constraint firstItem="dot" firstAttribute="top" secondItem="inner" secondAttribute="topMargin" id="dot-y"/>
                                            </constraints>
                                        </view>
                                    </subviews>
                                    <constraints>
                                        <constraint firstAttribute="height" constant="100" id="box-h"/>
                                        <constraint firstItem="inner" firstAttribute="leading" secondItem="box" secondAttribute="leading" id="in1"/>
                                        <constraint firstItem="inner" firstAttribute="top" secondItem="box" secondAttribute="top" id="in2"/>
                                        <constraint firstAttribute="trailing" secondItem="inner" secondAttribute="trailing" id="in3"/>
                                        <constraint firstAttribute="bottom" secondItem="inner" secondAttribute="bottom" id="in4"/>
                                    </constraints>
                                    <edgeInsets key="layoutMargins" top="8" left="30" bottom="8" right="8"/>
                                </view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="top" firstAttribute="top" secondItem="safe" secondAttribute="top" constant="8" id="t1"/>
                                <constraint firstItem="top" firstAttribute="leading" secondItem="root" secondAttribute="leadingMargin" id="t2"/>
                                <constraint firstAttribute="trailingMargin" secondItem="top" secondAttribute="trailing" id="t3"/>
                                <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="b1"/>
                                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="b2"/>
                                <constraint firstAttribute="trailing" secondItem="box" secondAttribute="trailing" id="b3"/>
                            </constraints>
                            <viewLayoutGuide key="safeArea" id="safe"/>
                        </view>
                        <simulatedStatusBarMetrics key="simulatedStatusBarMetrics"/>
                        <simulatedNavigationBarMetrics key="simulatedTopBarMetrics" prompted="NO"/>
                    </viewController>
                </objects>
            </scene>
            """)
        let layout = try onlyLayout(text, file: "Test.storyboard")
        try expectAgreement(layout)
        let root = layout.system.root
        #expect(root.margins.left == NumericLiteral(16) && root.margins.top == NumericLiteral(64))
        #expect(constraintLines(layout).contains("safeArea_safe_top: safeArea_safe.top == view_root.top + 64"))
        let inner = try #require(layout.system.itemIndex(named: "view_inner"))
        #expect(layout.system.items[inner].margins.left == NumericLiteral(30))
        #expect(layout.notes.contains { $0.objectID == "inner" && $0.kind == .fromStoredFrames })
    }

    /// Xcode 8's top and bottom layout guides: a view 10 below the top guide of a scene
    /// inferred to sit in a navigation controller (its root shows it), above a tab bar.
    @Test func topAndBottomLayoutGuides() throws {
        let text = iOSStoryboard("""
            <scene sceneID="n">
                <objects>
                    <navigationController id="nav">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar">
                            \(frame(0, 20, 375, 44))
                        </navigationBar>
                        <connections>
                            <segue destination="vc" kind="relationship" relationship="rootViewController" id="rel"/>
                        </connections>
                    </navigationController>
                </objects>
            </scene>
            <scene sceneID="s">
                <objects>
                    <viewController id="vc">
                        <layoutGuides>
                            <viewControllerLayoutGuide type="top" id="tlg"/>
                            <viewControllerLayoutGuide type="bottom" id="blg"/>
                        </layoutGuides>
                        <view key="view" contentMode="scaleToFill" id="root">
                            \(frame(0, 0, 375, 667))
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="V">
                                    \(frame(0, 74, 375, 544))
                                </view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="V" firstAttribute="top" secondItem="tlg" secondAttribute="bottom" constant="10" id="c1"/>
                                <constraint firstItem="blg" firstAttribute="top" secondItem="V" secondAttribute="bottom" id="c2"/>
                                <constraint firstItem="V" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c3"/>
                                <constraint firstAttribute="trailing" secondItem="V" secondAttribute="trailing" id="c4"/>
                            </constraints>
                        </view>
                        <simulatedTabBarMetrics key="simulatedBottomBarMetrics"/>
                    </viewController>
                </objects>
            </scene>
            """, tools: "12120")
        let layout = try onlyLayout(text, file: "Test.storyboard")
        try expectAgreement(layout)
        let lines = constraintLines(layout)
        #expect(lines.contains("topLayoutGuide_tlg_height: topLayoutGuide_tlg.height == 64"))
        #expect(lines.contains("bottomLayoutGuide_blg_height: bottomLayoutGuide_blg.height == 49"))
    }

    /// Views that translate their autoresizing mask: the frames stay as stored, and when the
    /// superview grows each flexible part takes its share (margins of 50 and 150 around a
    /// fixed width take 1/4 and 3/4 of the change; a flexible width takes all of it).
    @Test func autoresizingMasks() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 100))
                <subviews>
                    <view contentMode="scaleToFill" id="floating">
                        \(frame(50, 10, 100, 20))
                        <autoresizingMask key="autoresizingMask" flexibleMinX="YES" flexibleMaxX="YES" flexibleMaxY="YES"/>
                    </view>
                    <view contentMode="scaleToFill" id="wide">
                        \(frame(10, 40, 280, 20))
                        <autoresizingMask key="autoresizingMask" widthSizable="YES" flexibleMaxY="YES"/>
                    </view>
                    <view contentMode="scaleToFill" id="fixed">
                        \(frame(10, 70, 30, 20))
                        <autoresizingMask key="autoresizingMask" flexibleMaxX="YES" flexibleMaxY="YES"/>
                    </view>
                </subviews>
            </view>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        var wider = layout.system
        wider.setRootFrame([.zero, .zero, NumericLiteral(400), NumericLiteral(100)])
        let solution = try solve(wider)
        let frames: [[Double]] = wider.frames(values: solution.values, global: false)
        func solved(_ id: String) -> [Double] { frames[wider.itemIndex(named: "view_\(id)")! - 1] }
        #expect(solved("floating") == [75, 10, 100, 20])
        #expect(solved("wide") == [10, 40, 380, 20])
        #expect(solved("fixed") == [10, 70, 30, 20])
    }

    /// Intrinsic sizes: a label's from its stored frame (said so), an image view's from the
    /// image in the file's resources, a custom view's from IB's placeholder.
    @Test func intrinsicSizeSources() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 100))
                <subviews>
                    <label opaque="NO" text="Hello" translatesAutoresizingMaskIntoConstraints="NO" id="L">
                        \(frame(0, 0, 41.5, 20.5))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                    <imageView image="star" translatesAutoresizingMaskIntoConstraints="NO" id="I">
                        \(frame(0, 30, 40, 30))
                    </imageView>
                    <view translatesAutoresizingMaskIntoConstraints="NO" placeholderIntrinsicWidth="70" placeholderIntrinsicHeight="infinite" id="P">
                        \(frame(100, 0, 70, 100))
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="L" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c1"/>
                    <constraint firstItem="L" firstAttribute="top" secondItem="root" secondAttribute="top" id="c2"/>
                    <constraint firstItem="I" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c3"/>
                    <constraint firstItem="I" firstAttribute="top" secondItem="L" secondAttribute="bottom" constant="9.5" id="c4"/>
                    <constraint firstItem="P" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="100" id="c5"/>
                    <constraint firstItem="P" firstAttribute="top" secondItem="root" secondAttribute="top" id="c6"/>
                    <constraint firstAttribute="bottom" secondItem="P" secondAttribute="bottom" id="c7"/>
                </constraints>
            </view>
            """, resources: #"<image name="star" width="40" height="30"/>"#)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        let system = layout.system
        func item(_ name: String) throws -> Item { system.items[try #require(system.itemIndex(named: name))] }
        #expect(try item("label_L").intrinsic == AxisPair(horizontal: NumericLiteral(parsing: "41.5"), vertical: NumericLiteral(parsing: "20.5")))
        #expect(try item("imageView_I").intrinsic == AxisPair(horizontal: NumericLiteral(40), vertical: NumericLiteral(30)))
        #expect(try item("view_P").intrinsic == AxisPair(horizontal: NumericLiteral(70), vertical: nil))
        #expect(layout.notes.contains { $0.kind == .fromStoredFrames && $0.message.contains("label_L 41.5x20.5") })
    }

    /// Baselines from font metrics: a 13-point label aligned on the last baseline of a
    /// 17-point one. 17 pt: line 20.5 high, baseline 16 below its top; 13 pt, 16 high:
    /// baseline 12.5 below the top, 3.5 above the bottom.
    @Test func baselinesFromFonts() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 100))
                <subviews>
                    <label opaque="NO" text="Big" translatesAutoresizingMaskIntoConstraints="NO" id="big">
                        \(frame(10, 20, 30, 20.5))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                    <label opaque="NO" text="small" translatesAutoresizingMaskIntoConstraints="NO" id="small">
                        \(frame(50, 23.5, 30, 16))
                        <fontDescription key="fontDescription" style="UICTFontTextStyleFootnote"/>
                    </label>
                </subviews>
                <constraints>
                    <constraint firstItem="big" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="c1"/>
                    <constraint firstItem="big" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="c2"/>
                    <constraint firstItem="small" firstAttribute="leading" secondItem="big" secondAttribute="trailing" constant="10" id="c3"/>
                    <constraint firstItem="small" firstAttribute="baseline" secondItem="big" secondAttribute="baseline" id="c4"/>
                </constraints>
            </view>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        let small = layout.system.items[try #require(layout.system.itemIndex(named: "label_small"))]
        #expect(small.baselines == Baselines(first: NumericLiteral(parsing: "12.5")!, last: NumericLiteral(parsing: "3.5")!))
        #expect(constraintLines(layout).contains("ib_c4: label_small.lastBaseline == label_big.lastBaseline"))
    }

    /// AppKit: frames are stored with y growing upwards and include a push button's bezel
    /// shadow (6 points at the sides, 4 above, 7 below in Xcode 10's files); the import turns
    /// both into the format's top-left alignment rectangles.
    @Test func appKitCoordinatesAndAlignmentRectangles() throws {
        let text = macXib("""
            <window title="W" releasedWhenClosed="NO" visibleAtLaunch="NO" animationBehavior="default" id="win">
                <rect key="contentRect" x="0" y="0" width="200" height="100"/>
                <view key="contentView" id="content">
                    \(frame(0, 0, 200, 100))
                    <autoresizingMask key="autoresizingMask"/>
                    <subviews>
                        <textField verticalHuggingPriority="750" translatesAutoresizingMaskIntoConstraints="NO" id="label">
                            \(frame(18, 64, 104, 16))
                            <textFieldCell key="cell" title="Name" id="lc"><font key="font" metaFont="system"/></textFieldCell>
                        </textField>
                        <button verticalHuggingPriority="750" translatesAutoresizingMaskIntoConstraints="NO" id="ok">
                            \(frame(114, 13, 80, 32))
                            <buttonCell key="cell" type="push" title="OK" bezelStyle="rounded" alignment="center" borderStyle="border" id="bc"><font key="font" metaFont="system"/></buttonCell>
                        </button>
                    </subviews>
                    <constraints>
                        <constraint firstItem="label" firstAttribute="leading" secondItem="content" secondAttribute="leading" constant="20" id="c1"/>
                        <constraint firstItem="label" firstAttribute="top" secondItem="content" secondAttribute="top" constant="20" id="c2"/>
                        <constraint firstAttribute="trailing" secondItem="ok" secondAttribute="trailing" constant="12" id="c3"/>
                        <constraint firstAttribute="bottom" secondItem="ok" secondAttribute="bottom" constant="20" id="c4"/>
                    </constraints>
                </view>
            </window>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        #expect(layout.platform == .macOS && layout.device.scale == 1)
        #expect(layout.expectedFrames["textField_label"] == [20, 20, 100, 16])
        #expect(layout.expectedFrames["button_ok"] == [120, 59, 68, 21])
    }

    /// A cell's content view is a root; the cell's own constraints may name its views.
    @Test func cellContentViewWithConstraintsOnTheCell() throws {
        let text = iOSXib("""
            <tableViewCell contentMode="scaleToFill" id="cell">
                \(frame(0, 0, 320, 60))
                <tableViewCellContentView key="contentView" opaque="NO" contentMode="center" tableViewCell="cell" id="content">
                    \(frame(0, 0, 320, 59.5))
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="bar">
                            \(frame(15, 0, 4, 60))
                            <constraints><constraint firstAttribute="width" constant="4" id="bar-w"/></constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="bar" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="bar-x"/>
                    </constraints>
                </tableViewCellContentView>
                <constraints>
                    <constraint firstItem="bar" firstAttribute="top" secondItem="cell" secondAttribute="top" id="bar-top"/>
                    <constraint firstAttribute="bottom" secondItem="bar" secondAttribute="bottom" id="bar-bottom"/>
                </constraints>
            </tableViewCell>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        #expect(layout.rootKind == .cellContentView)
        #expect(layout.system.root.margins.left == NumericLiteral(15))
        #expect(layout.notes.contains { $0.objectID == "cell" })
    }
}
