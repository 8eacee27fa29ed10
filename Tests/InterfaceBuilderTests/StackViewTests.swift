import Foundation
import InterfaceBuilder
import LayoutModel
import Testing

/// Stack views, lowered to the constraints UIStackView makes. Every stored frame below is
/// worked out by hand from UIStackView's documented behaviour; the import must reproduce it.
@Suite struct StackViewTests {
    /// A root of the given size holding one stack view pinned by `pins` (constraints between
    /// `S` and `root`); `arranged` are its subviews.
    static func stack(_ attributes: String, frame stackFrame: String, arranged: String, pins: String,
                      root: (Double, Double) = (300, 100)) -> String {
        iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, root.0, root.1))
                <subviews>
                    <stackView opaque="NO" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" \(attributes) id="S">
                        \(stackFrame)
                        <subviews>
            \(arranged)
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
            \(pins)
                </constraints>
            </view>
            """)
    }

    static let pinTopLeadingTrailing = """
        <constraint firstItem="S" firstAttribute="top" secondItem="root" secondAttribute="top" id="p1"/>
        <constraint firstItem="S" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="p2"/>
        <constraint firstAttribute="trailing" secondItem="S" secondAttribute="trailing" id="p3"/>
        """
    static let pinAllEdges = pinTopLeadingTrailing + """
        <constraint firstAttribute="bottom" secondItem="S" secondAttribute="bottom" id="p4"/>
        """

    /// A plain view of a fixed size.
    static func box(_ id: String, _ f: String, width: Double? = nil, height: Double? = nil, hidden: Bool = false) -> String {
        var constraints = ""
        if let width { constraints += #"<constraint firstAttribute="width" constant="\#(width)" id="\#(id)-w"/>"# }
        if let height { constraints += #"<constraint firstAttribute="height" constant="\#(height)" id="\#(id)-h"/>"# }
        return """
            <view \(hidden ? #"hidden="YES""# : "") translatesAutoresizingMaskIntoConstraints="NO" id="\(id)">
                \(f)
                \(constraints.isEmpty ? "" : "<constraints>\(constraints)</constraints>")
            </view>
            """
    }

    /// A label whose intrinsic size is its stored frame's.
    static func label(_ id: String, _ f: String, hugging: Int = 251, size: Double = 17) -> String {
        """
        <label opaque="NO" horizontalHuggingPriority="\(hugging)" verticalHuggingPriority="251" text="x" translatesAutoresizingMaskIntoConstraints="NO" id="\(id)">
            \(f)
            <fontDescription key="fontDescription" type="system" pointSize="\(size)"/>
        </label>
        """
    }

    /// fill, top alignment, spacing 8: the label that hugs less (250) takes the slack; the
    /// stack is as tall as its tallest view.
    @Test func fillDistributionStretchesTheLowestHugging() throws {
        let text = Self.stack(#"alignment="top" spacing="8""#, frame: frame(0, 0, 300, 40), arranged: """
            \(Self.label("L1", frame(0, 0, 60, 20), hugging: 251))
            \(Self.label("L2", frame(68, 0, 232, 40), hugging: 250))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        let solution = try expectAgreement(layout)
        #expect(solution.ambiguous.isEmpty)
        let lines = constraintLines(layout)
        #expect(lines.contains("stackView_S_canvas_start: label_L1.leading == stackView_S.leading"))
        #expect(lines.contains("stackView_S_spacing1: label_L2.leading == label_L1.trailing + 8"))
        #expect(lines.contains("stackView_S_align_start: label_L1.top == stackView_S.top"))
        #expect(lines.contains("stackView_S_canvas_fit: stackView_S.height <= 0 @49"))
    }

    /// fillEqually, vertical, spacing 10: three views share 110 − 20 equally.
    @Test func fillEquallyVertical() throws {
        let text = Self.stack(#"axis="vertical" distribution="fillEqually" spacing="10""#, frame: frame(10, 10, 100, 110), arranged: """
            \(Self.box("A", frame(0, 0, 100, 30)))
            \(Self.box("B", frame(0, 40, 100, 30)))
            \(Self.box("C", frame(0, 80, 100, 30)))
            """, pins: """
            <constraint firstItem="S" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="p1"/>
            <constraint firstItem="S" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="p2"/>
            <constraint firstAttribute="trailing" secondItem="S" secondAttribute="trailing" constant="10" id="p3"/>
            <constraint firstAttribute="bottom" secondItem="S" secondAttribute="bottom" constant="10" id="p4"/>
            """, root: (120, 130))
        let layout = try onlyLayout(text)
        let solution = try expectAgreement(layout)
        #expect(solution.ambiguous.isEmpty)
        #expect(constraintLines(layout).contains { $0.hasSuffix(": view_C.height == view_A.height") && $0.hasPrefix("stackView_S_fill_equally") })
    }

    /// fillProportionally, spacing 10: intrinsic widths 50 and 100 share the 290 left after
    /// the spacing in proportion: 96.67 and 193.33 (rounded to the 2x grid at the edges).
    @Test func fillProportionallySharesByIntrinsicWidth() throws {
        let text = Self.stack(#"distribution="fillProportionally" spacing="10""#, frame: frame(0, 0, 300, 20), arranged: """
            <view translatesAutoresizingMaskIntoConstraints="NO" placeholderIntrinsicWidth="50" placeholderIntrinsicHeight="20" id="A">
                \(frame(0, 0, 96.5, 20))
            </view>
            <view translatesAutoresizingMaskIntoConstraints="NO" placeholderIntrinsicWidth="100" placeholderIntrinsicHeight="20" id="B">
                \(frame(106.5, 0, 193.5, 20))
            </view>
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        let solution = try expectAgreement(layout)
        let a = try #require(solvedFrame("A", in: layout, solution))
        #expect(abs(a[2] - 290.0 / 3) < 1e-9)
    }

    /// equalSpacing: widths 40, 60, 80 in 300 leave 120 for two equal gaps of 60 (at least
    /// the spacing, 5).
    @Test func equalSpacing() throws {
        let text = Self.stack(#"distribution="equalSpacing" spacing="5""#, frame: frame(0, 0, 300, 20), arranged: """
            \(Self.box("A", frame(0, 0, 40, 20), width: 40, height: 20))
            \(Self.box("B", frame(100, 0, 60, 20), width: 60, height: 20))
            \(Self.box("C", frame(220, 0, 80, 20), width: 80, height: 20))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        let solution = try expectAgreement(layout)
        #expect(solution.ambiguous.isEmpty)
        #expect(constraintLines(layout).contains("stackView_S_spacing1: view_B.leading >= view_A.trailing + 5"))
    }

    /// equalCentering: centres at 20 and 260 (first and last pinned to the ends) put the
    /// middle view's centre at 140, so it starts at 110.
    @Test func equalCentering() throws {
        let text = Self.stack(#"distribution="equalCentering" spacing="5""#, frame: frame(0, 0, 300, 20), arranged: """
            \(Self.box("A", frame(0, 0, 40, 20), width: 40, height: 20))
            \(Self.box("B", frame(110, 0, 60, 20), width: 60, height: 20))
            \(Self.box("C", frame(220, 0, 80, 20), width: 80, height: 20))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        #expect(constraintLines(layout).contains { $0.contains("_equal_centering:") && $0.hasSuffix("@149") })
    }

    /// Alignments across a horizontal stack 60 high: center puts a 20-high view at 20,
    /// trailing (bottom) at 40, fill stretches to 60.
    @Test(arguments: [("center", 20.0, 20.0), ("bottom", 40.0, 20.0), ("fill", 0.0, 60.0), ("top", 0.0, 20.0)])
    func alignment(name: String, y: Double, height: Double) throws {
        let alignment = name == "fill" ? "" : #"alignment="\#(name)""#
        let text = Self.stack(alignment + #" spacing="0""#, frame: frame(0, 0, 300, 60), arranged: """
            \(Self.box("A", frame(0, y, 100, height), width: 100, height: name == "fill" ? nil : 20))
            \(Self.box("B", frame(100, 0, 200, 60), width: 200, height: 60))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
    }

    /// Vertical stack, leading / center / trailing alignment of a 100-wide view in 300.
    @Test(arguments: [("leading", 0.0), ("center", 100.0), ("trailing", 200.0)])
    func verticalAlignment(name: String, x: Double) throws {
        let text = Self.stack(#"axis="vertical" alignment="\#(name)""#, frame: frame(0, 0, 300, 50), arranged: """
            \(Self.box("A", frame(x, 0, 100, 20), width: 100, height: 20))
            \(Self.box("B", frame(0, 20, 300, 30), width: 300, height: 30))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
    }

    /// First-baseline alignment: a 13-point label beside a 17-point one shares its baseline
    /// (17 pt: baseline 16 below the top; 13 pt in a 16-high label: 12.5 below), so it sits
    /// 3.5 lower; the stack is as tall as the two together need.
    @Test func firstBaselineAlignment() throws {
        let text = Self.stack(#"alignment="firstBaseline" spacing="8""#, frame: frame(0, 0, 300, 20.5), arranged: """
            \(Self.label("big", frame(0, 0, 100, 20.5), hugging: 251, size: 17))
            \(Self.label("small", frame(108, 3.5, 192, 16), hugging: 250, size: 13))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        #expect(constraintLines(layout).contains("stackView_S_align_baseline: label_small.firstBaseline == label_big.firstBaseline"))
    }

    /// A hidden arranged view takes no room and no spacing: B follows A at 30 + 10; the
    /// hidden view is 0 high, and its place along the axis is not compared.
    @Test func hiddenArrangedViewsCollapse() throws {
        let text = Self.stack(#"axis="vertical" spacing="10""#, frame: frame(0, 0, 300, 70), arranged: """
            \(Self.box("A", frame(0, 0, 300, 30), height: 30))
            \(Self.box("H", frame(0, 0, 300, 0), hidden: true))
            \(Self.box("B", frame(0, 40, 300, 30), height: 30))
            """, pins: Self.pinTopLeadingTrailing)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        let hidden = try #require(layout.expectedFrames["view_H"])
        #expect(hidden[1] == nil && hidden[3] == 0)
        #expect(constraintLines(layout).contains("stackView_S_hiding2: view_H.height == 0"))
    }

    /// Arrangement relative to margins (IB turns it on with explicit margins): the views
    /// start 10 in from the stack's edges.
    @Test func marginsRelativeArrangement() throws {
        let text = iOSXib("""
            <view contentMode="scaleToFill" id="root">
                \(frame(0, 0, 300, 40))
                <subviews>
                    <stackView opaque="NO" contentMode="scaleToFill" distribution="fillEqually" translatesAutoresizingMaskIntoConstraints="NO" id="S">
                        \(frame(0, 0, 300, 40))
                        <subviews>
                            \(Self.box("A", frame(10, 5, 140, 30)))
                            \(Self.box("B", frame(150, 5, 140, 30)))
                        </subviews>
                        <edgeInsets key="layoutMargins" top="5" left="10" bottom="5" right="10"/>
                    </stackView>
                </subviews>
                <constraints>
            \(Self.pinAllEdges)
                </constraints>
            </view>
            """)
        let layout = try onlyLayout(text)
        try expectAgreement(layout)
        #expect(constraintLines(layout).contains("stackView_S_canvas_start: view_A.leading == stackView_S.leadingMargin"))
    }
}
