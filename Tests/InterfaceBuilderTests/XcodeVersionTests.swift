import Foundation
import InterfaceBuilder
import LayoutModel
import Testing

/// What the Xcode that saved a file did to the frames it stored, read from the document's
/// tools version; and the mechanical test that tells a stale file from an approximation.
@Suite struct XcodeVersionTests {
    /// A 200-point square centred in a 275 × 303 view: UIKit's 2x grid keeps it at
    /// (37.5, 51.5); the frame is stored as `x`, `y`.
    static func centredSquare(x: Double, y: Double, tools: String) -> String {
        iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 275, 303))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="square">
                        \(frame(x, y, 200, 200))
                        <constraints>
                            <constraint firstAttribute="width" constant="200" id="w"/>
                            <constraint firstAttribute="height" constant="200" id="h"/>
                        </constraints>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="square" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="cx"/>
                    <constraint firstItem="square" firstAttribute="centerY" secondItem="root" secondAttribute="centerY" id="cy"/>
                </constraints>
            </view>
            """, tools: tools)
    }

    static func agreement(_ text: String) throws -> FrameAgreement {
        let layout = try onlyLayout(text)
        return FrameAgreement(layout: layout, solution: try solve(layout.system))
    }

    @Test func roundingIsReadFromTheToolsVersion() {
        #expect(StoredFrameRounding.of(platform: .iOS, toolsVersion: 12120) == .devicePixels)  // Xcode 8.3
        #expect(StoredFrameRounding.of(platform: .iOS, toolsVersion: 13771) == .devicePixelsOrWholePoints)  // Xcode 9.2
        #expect(StoredFrameRounding.of(platform: .iOS, toolsVersion: 14113) == .devicePixelsOrWholePoints)  // Xcode 9.4
        #expect(StoredFrameRounding.of(platform: .iOS, toolsVersion: 14460.31) == .devicePixels)  // Xcode 10.1
        #expect(StoredFrameRounding.of(platform: .iOS, toolsVersion: 0) == .devicePixels)
        #expect(StoredFrameRounding.of(platform: .macOS, toolsVersion: 14109) == .appKitPoints)
    }

    /// Xcode 9 stored some frames on whole points (each component rounded, halves away from
    /// zero) and others on the device's pixels; both agree in its files, only the pixels in
    /// the files of other versions.
    @Test func xcode9FilesMayStoreWholePoints() throws {
        let xcode9 = try onlyLayout(Self.centredSquare(x: 38, y: 52, tools: "14109"))
        #expect(xcode9.storedFrameRounding == .devicePixelsOrWholePoints)
        // Said in the header and the expected answer, for readers of the files.
        #expect(xcode9.layoutText.contains("# stored frames rounded: devicePixelsOrWholePoints\n"))
        let expected = try #require(JSONSerialization.jsonObject(with: xcode9.expectedJSON) as? [String: Any])
        #expect(expected["rounding"] as? String == "devicePixelsOrWholePoints")
        #expect(try Self.agreement(Self.centredSquare(x: 38, y: 52, tools: "14109")).agrees)
        #expect(try Self.agreement(Self.centredSquare(x: 37.5, y: 51.5, tools: "14109")).agrees)
        // Whole points the other way (37, 51) are neither rounding.
        #expect(try Self.agreement(Self.centredSquare(x: 37, y: 51, tools: "14109")).mismatches
                == ["view_square.x = 37.5, stored 37", "view_square.y = 51.5, stored 51"])
        // Xcode 10 and later, and Xcode 8, keep the half point.
        for tools in ["16097", "12120"] {
            #expect(try Self.agreement(Self.centredSquare(x: 37.5, y: 51.5, tools: tools)).agrees)
            #expect(try Self.agreement(Self.centredSquare(x: 38, y: 52, tools: tools)).mismatches
                    == ["view_square.x = 37.5, stored 38", "view_square.y = 51.5, stored 52"])
        }
    }

    /// Whole points round each component on its own: a 269.6-point height at y 33.7 is stored
    /// 270 high at 34 (rounding the edges would give 269).
    @Test func wholePointsRoundSizesNotEdges() throws {
        func text(y: Double, height: Double) -> String {
            iOSXib("""
                <view contentMode="scaleToFill" id="root">
                    \(frame(0, 0, 375, 337))
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="v">
                            \(frame(37.5, y, 300, height))
                            <constraints>
                                <constraint firstAttribute="width" constant="300" id="w"/>
                            </constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="v" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="cx"/>
                        <constraint firstItem="v" firstAttribute="centerY" secondItem="root" secondAttribute="centerY" id="cy"/>
                        <constraint firstItem="v" firstAttribute="height" secondItem="root" secondAttribute="height" multiplier="0.8" id="h"/>
                    </constraints>
                </view>
                """, tools: "14109")
        }
        #expect(try Self.agreement(text(y: 34, height: 270)).agrees)
        #expect(try Self.agreement(text(y: 33.5, height: 270)).agrees)  // the 2x grid: 33.5 … 303.5
        #expect(try !Self.agreement(text(y: 34, height: 269)).agrees)
    }

    /// Xcode 12–14 (tools 17000–21999) store a regular push button 32 high around a 20-point
    /// alignment rectangle: 5 above, 7 below, 7 at the sides (the corpus's share sheet and
    /// Feedbin sign-in pin the rectangle at both ends).
    @Test func bigSurPushButtonInsets() throws {
        let text = macXib("""
            <customView id="content">
                \(frame(0, 0, 200, 50))
                <autoresizingMask key="autoresizingMask"/>
                <subviews>
                    <button verticalHuggingPriority="750" translatesAutoresizingMaskIntoConstraints="NO" id="ok">
                        \(frame(116, 3, 76, 32))
                        <buttonCell key="cell" type="push" title="OK" bezelStyle="rounded" alignment="center" borderStyle="border" id="bc"><font key="font" metaFont="system"/></buttonCell>
                    </button>
                </subviews>
                <constraints>
                    <constraint firstAttribute="trailing" secondItem="ok" secondAttribute="trailing" constant="15" id="c1"/>
                    <constraint firstAttribute="bottom" secondItem="ok" secondAttribute="bottom" constant="10" id="c2"/>
                    <constraint firstItem="ok" firstAttribute="top" secondItem="content" secondAttribute="top" constant="20" id="c3"/>
                    <constraint firstItem="ok" firstAttribute="width" constant="62" id="c4"/>
                </constraints>
            </customView>
            """, tools: "17701")
        let layout = try onlyLayout(text)
        // Stored y 3 (up) in a 50-high view: the frame spans 15 … 47 from the top.
        #expect(layout.expectedFrames["button_ok"] == [123, 20, 62, 20])
        try expectAgreement(layout)
    }

    /// A file whose stored frames break one of its own required constraints by more than a
    /// point is stale; a symbol image's or a baseline's constraint is no such evidence (their
    /// rectangles are modelled, not stored), and a frame half a pixel off is rounding.
    @Test func staleEvidence() throws {
        func text(storedHeight: Double, image: String = "") -> String {
            let element = image.isEmpty ? "view" : "imageView"
            return iOSXib("""
                <view contentMode="scaleToFill" id="root">
                    \(frame(0, 0, 320, 200))
                    <subviews>
                        <\(element) translatesAutoresizingMaskIntoConstraints="NO" \(image) id="v">
                            \(frame(10, 10, 100, storedHeight))
                            <constraints>
                                <constraint firstAttribute="height" constant="50" id="h"/>
                                <constraint firstAttribute="width" constant="100" id="w"/>
                            </constraints>
                        </\(element)>
                    </subviews>
                    <constraints>
                        <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="x"/>
                        <constraint firstItem="v" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="y"/>
                    </constraints>
                </view>
                """, resources: image.isEmpty ? "" : #"<image name="chevron.down" catalog="system" width="128" height="72"/>"#)
        }
        let stale = try onlyLayout(text(storedHeight: 80))
        #expect(stale.staleEvidence == ["ib_h by 30"])
        #expect(try !Self.agreement(text(storedHeight: 80)).agrees)
        #expect(try onlyLayout(text(storedHeight: 50)).staleEvidence.isEmpty)
        #expect(try onlyLayout(text(storedHeight: 50.5)).staleEvidence.isEmpty)
        let symbol = try onlyLayout(text(storedHeight: 80, image: #"image="chevron.down" catalog="system""#))
        #expect(symbol.symbolImageItems == ["imageView_v"])
        #expect(symbol.staleEvidence.isEmpty)
        #expect(symbol.constraintsBrokenByStoredFrames == ["ib_h by 30"])
    }

    /// Text metrics are modelled, not stored: stored frames that break a baseline constraint
    /// are no evidence of a stale file.
    @Test func baselineConstraintsAreNoStaleEvidence() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 320, 100))
                <subviews>
                    <label opaque="NO" userInteractionEnabled="NO" text="A" translatesAutoresizingMaskIntoConstraints="NO" id="a">
                        \(frame(10, 10, 40, 20.5))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                    <label opaque="NO" userInteractionEnabled="NO" text="B" translatesAutoresizingMaskIntoConstraints="NO" id="b">
                        \(frame(60, 15, 40, 20.5))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="ax"/>
                    <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="ay"/>
                    <constraint firstItem="b" firstAttribute="leading" secondItem="a" secondAttribute="trailing" constant="10" id="bx"/>
                    <constraint firstItem="b" firstAttribute="baseline" secondItem="a" secondAttribute="baseline" id="by"/>
                </constraints>
            </view>
            """)
        let layout = try onlyLayout(text)
        #expect(layout.constraintsBrokenByStoredFrames == ["ib_by by 5"])
        #expect(layout.staleEvidence.isEmpty)
    }

    /// AppKit template images are symbols too.
    @Test func templateImagesAreSymbols() throws {
        let text = macXib("""
            <customView id="content">
                \(frame(0, 0, 100, 40))
                <autoresizingMask key="autoresizingMask"/>
                <subviews>
                    <imageView translatesAutoresizingMaskIntoConstraints="NO" id="gear">
                        \(frame(10, 2, 16, 27))
                        <constraints>
                            <constraint firstAttribute="height" constant="16" id="h"/>
                            <constraint firstAttribute="width" constant="16" id="w"/>
                        </constraints>
                        <imageCell key="cell" refusesFirstResponder="YES" alignment="left" imageScaling="proportionallyDown" image="NSActionTemplate" id="cell"/>
                    </imageView>
                </subviews>
                <constraints>
                    <constraint firstItem="gear" firstAttribute="leading" secondItem="content" secondAttribute="leading" constant="10" id="x"/>
                    <constraint firstItem="gear" firstAttribute="centerY" secondItem="content" secondAttribute="centerY" id="y"/>
                </constraints>
            </customView>
            """, tools: "24765")
        let layout = try onlyLayout(text)
        #expect(layout.symbolImageItems == ["imageView_gear"])
        #expect(layout.staleEvidence.isEmpty)
        #expect(!layout.constraintsBrokenByStoredFrames.isEmpty)
    }
}
