import LayoutModel

/// A rectangle as IB stores it (`<rect key="frame" x= y= width= height=>`), in the
/// superview's coordinate space (on macOS, y grows upwards unless the superview is flipped).
public struct IBRect: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var components: [Double] { [x, y, width, height] }
}

/// Insets of an edge set: top, left, bottom, right.
public struct IBInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = IBInsets(top: 0, left: 0, bottom: 0, right: 0)
    public var isZero: Bool { self == .zero }
}

/// `<autoresizingMask>`: which parts of a frame stretch when the superview resizes.
/// Min and max are in the superview's coordinates (on macOS minY is the bottom margin).
public struct IBAutoresizingMask: Sendable, Hashable, Codable {
    public var flexibleMinX = false
    public var widthSizable = false
    public var flexibleMaxX = false
    public var flexibleMinY = false
    public var heightSizable = false
    public var flexibleMaxY = false

    public init() {}
}

/// One `<constraint>` as written, installed on ``owner``.
public struct IBConstraint: Sendable, Hashable {
    public var id: String
    /// The view the constraint is installed on (the implicit first item).
    public var owner: String
    public var firstItem: String
    public var firstAttribute: String
    public var relation: Relation
    public var secondItem: String?
    public var secondAttribute: String?
    /// The multiplier as UIKit reads it (a ratio `16:9` becomes the Double 16/9).
    public var multiplier: NumericLiteral
    /// The multiplier as written when it was a ratio (`16:9`, `1/3`), for the notes.
    public var multiplierText: String?
    public var constant: NumericLiteral
    public var priority: Priority
    /// Placeholder constraints are removed at build time.
    public var isPlaceholder: Bool
    public var location: SourceLocation
}

/// A layout guide IB knows: a view's safe area, a view controller's top or bottom
/// layout guide, a scroll view's content or frame guide.
public struct IBLayoutGuide: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case safeArea, topLayoutGuide, bottomLayoutGuide, contentLayoutGuide, frameLayoutGuide, layoutMargins
    }
    public var id: String
    public var kind: Kind
    /// The view the guide belongs to.
    public var owner: String
    public var location: SourceLocation
}

/// UIStackView / NSStackView properties.
public struct IBStackProperties: Sendable, Hashable {
    public enum Distribution: String, Sendable, Hashable, CaseIterable {
        case fill, fillEqually, fillProportionally, equalSpacing, equalCentering, gravityAreas
    }
    public enum Alignment: String, Sendable, Hashable {
        /// Along the cross axis: the leading (top) edge, the centre, the trailing (bottom)
        /// edge, both edges, or a baseline.
        case fill, leading, center, trailing, firstBaseline, lastBaseline
    }
    public var vertical: Bool
    public var distribution: Distribution
    public var alignment: Alignment
    public var spacing: Double
    public var baselineRelative: Bool
    public var marginsRelative: Bool
    /// NSStackView's hugging of its content (horizontal, vertical); nil on iOS.
    public var stackHugging: AxisPair<Priority>?
}

/// A font as the file describes it: a point size and a family; enough for line metrics.
public struct IBFont: Sendable, Hashable {
    public var pointSize: Double
    /// `system`, `boldSystem`, a text style, or a family name.
    public var family: String
}

/// One view of an IB file with what the importer needs from it.
public struct IBView: Sendable {
    public var id: String
    /// The element name: `view`, `label`, `stackView`, `tableViewCellContentView`…
    public var element: String
    /// The `key` attribute (`view`, `contentView`…), nil for plain subviews.
    public var key: String?
    public var customClass: String?
    public var userLabel: String?
    public var frame: IBRect?
    public var autoresizingMask: IBAutoresizingMask?
    /// True when the view's frame is turned into constraints (IB writes `NO` for views
    /// laid out by constraints).
    public var translatesAutoresizingMask: Bool
    /// IB's `fixedFrame="YES"`: placed without constraints, the view keeps its stored frame.
    public var hasFixedFrame = false
    public var isHidden: Bool
    public var isMisplaced: Bool
    public var isAmbiguous: Bool
    public var hugging: AxisPair<Priority>
    public var resistance: AxisPair<Priority>
    /// `<edgeInsets key="layoutMargins">` (or directional ones, read left to right).
    public var layoutMargins: IBInsets?
    public var preservesSuperviewLayoutMargins: Bool
    public var insetsLayoutMarginsFromSafeArea: Bool
    /// IB's design-time intrinsic size (`placeholderIntrinsicWidth/Height`); `infinite`
    /// (no metric) is nil on that axis.
    public var placeholderIntrinsic: AxisPair<Double?>?
    public var stack: IBStackProperties?
    public var font: IBFont?
    /// `numberOfLines` of a label (1 when absent).
    public var numberOfLines: Int
    /// The image name an image view or button shows.
    public var imageName: String?
    /// Constraints installed on this view, in file order, before variations are applied.
    public var constraints: [IBConstraint]
    /// Guides owned by this view (its safe area; a root view also gets its controller's
    /// top and bottom layout guides).
    public var guides: [IBLayoutGuide]
    /// Views laid out in this view: `<subviews>`, and the content view of boxes and
    /// visual-effect views.
    public var subviews: [IBView]
    /// Size-class variations: `(trait key, included IDs, excluded IDs)`.
    public var variations: [IBVariation]
    /// Attributes the importer reads but does not model, as notes.
    public var unmodelled: [String] = []
    /// The view's `<` in the file.
    public var location: SourceLocation
    /// The element itself, for the rare details only some classes have.
    public var node: XMLElementNode

    /// The name the header and notes use: `label OH0-PK-L1q "Title"`.
    public var displayName: String {
        var text = "\(element) \(id)"
        if let customClass { text += " (\(customClass))" }
        if let userLabel { text += " \"\(userLabel)\"" }
        return text
    }
}

/// `<variation key="...">` with its `<mask>`s.
public struct IBVariation: Sendable, Hashable {
    /// `default`, or conditions like `heightClass=compact-widthClass=regular`.
    public var key: String
    public var included: [String]
    public var excluded: [String]
    /// What the mask governs: `constraints` or `subviews`.
    public var maskKey: String
    public var location: SourceLocation
}
