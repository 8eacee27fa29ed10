import Foundation
import LayoutModel

/// UIKit or AppKit.
public enum IBPlatform: String, Sendable, Hashable, Codable {
    case iOS, macOS
}

/// An Interface Builder file read far enough to find its layout roots: the platform, the
/// device, the images' sizes, and the element tree.
public struct IBDocument: Sendable {
    public var file: String
    public var platform: IBPlatform
    public var device: DeviceProfile
    /// False when the file does not use Auto Layout: every view keeps its autoresizing mask.
    public var usesAutoLayout: Bool
    /// `<resources><image name= width= height=>`: the sizes of the images views show.
    public var imageSizes: [String: (width: Double, height: Double)]
    /// `toolsVersion` of the Xcode that saved the file (`14087.3`); 0 when absent.
    public var toolsVersion: Double
    /// Notes that concern the whole file (an unknown device, …).
    public var notes: [String]
    public var root: XMLElementNode

    /// Reads the XML and the document header; throws on malformed XML or a file that is not
    /// an IB document.
    public init(data: Data, file: String) throws(IBImportError) {
        self.file = file
        let root = try XMLTreeReader(file: file).read(data)
        guard root.name == "document" else {
            throw IBImportError(file: file, location: root.location,
                                message: "not an Interface Builder document: the document element is <\(root.name)>, not <document>")
        }
        self.root = root
        notes = []
        switch root["targetRuntime"] {
        case "iOS.CocoaTouch"?, "iOS.CocoaTouch.iPad"?: platform = .iOS
        case "MacOSX.Cocoa"?: platform = .macOS
        case let other?:
            throw IBImportError(file: file, location: root.location,
                                message: "unsupported targetRuntime \"\(other)\" (iOS.CocoaTouch and MacOSX.Cocoa are supported)")
        case nil:
            throw IBImportError(file: file, location: root.location, message: "the document has no targetRuntime")
        }
        usesAutoLayout = root.flag("useAutolayout") == true
        toolsVersion = root.number("toolsVersion") ?? 0
        if platform == .macOS {
            device = .mac
        } else if let element = root.child("device") {
            let id = element["id"] ?? ""
            if let profile = DeviceProfile.named(id, landscape: element["orientation"] == "landscape") {
                device = profile
            } else {
                device = .defaultPhone
                notes.append("unknown device \"\(id)\": laid out as \(DeviceProfile.defaultPhone.id)")
            }
        } else {
            device = .defaultPhone
            notes.append("no <device>: laid out as \(DeviceProfile.defaultPhone.id), Xcode's default before files named one")
        }
        var sizes: [String: (width: Double, height: Double)] = [:]
        for image in root.child("resources")?.children("image") ?? [] {
            if let name = image["name"], let w = image.number("width"), let h = image.number("height") {
                sizes[name] = (w, h)
            }
        }
        imageSizes = sizes
    }

    /// Reads a file from disk.
    public init(contentsOf path: String) throws(IBImportError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IBImportError(file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the file")
        }
        try self.init(data: data, file: path)
    }
}

/// Turns view elements into ``IBView``s, rejecting what it cannot read with a positioned error.
struct IBViewReader {
    var file: String
    var platform: IBPlatform

    func error(_ node: XMLElementNode, _ message: String) -> IBImportError {
        IBImportError(file: file, location: node.location, message: message)
    }

    /// Reads a view and its subviews. `extraGuides` are guides defined outside the view that
    /// belong to it (a view controller's top and bottom layout guides).
    /// `owner` is the ID of the element holding a keyed view (IB leaves some cells' content
    /// views without an ID); `parentSize` resolves frames written as insets (`frameInset`).
    func readView(_ node: XMLElementNode, extraGuides: [XMLElementNode] = [], owner: String? = nil,
                  parentSize: (width: Double, height: Double)? = nil) throws(IBImportError) -> IBView {
        guard let id = node["id"] ?? owner.flatMap({ o in node["key"].map { "\(o).\($0)" } }) else {
            throw error(node, "<\(node.name)> has no id")
        }
        var view = IBView(
            id: id, element: node.name, key: node["key"], customClass: node["customClass"], userLabel: node["userLabel"],
            frame: nil, autoresizingMask: nil,
            translatesAutoresizingMask: node["translatesAutoresizingMaskIntoConstraints"] != "NO",
            isHidden: node.flag("hidden") == true, isMisplaced: node.flag("misplaced") == true,
            isAmbiguous: node.flag("ambiguous") == true,
            hugging: AxisPair(horizontal: try priority(node, "horizontalHuggingPriority", default: .low),
                              vertical: try priority(node, "verticalHuggingPriority", default: .low)),
            resistance: AxisPair(horizontal: try priority(node, "horizontalCompressionResistancePriority", default: .high),
                                 vertical: try priority(node, "verticalCompressionResistancePriority", default: .high)),
            layoutMargins: nil,
            preservesSuperviewLayoutMargins: node.flag("preservesSuperviewLayoutMargins") == true,
            insetsLayoutMarginsFromSafeArea: node.flag("insetsLayoutMarginsFromSafeArea") != false,
            placeholderIntrinsic: nil, stack: nil, font: nil,
            numberOfLines: Int(node["numberOfLines"] ?? "1") ?? 1,
            imageName: node["image"], constraints: [], guides: [], subviews: [], variations: [],
            location: node.location, node: node)

        for (attribute, what) in Self.unmodelledAttributes where node[attribute] != nil && node[attribute] != "NO" {
            view.unmodelled.append("\(attribute)=\"\(node[attribute]!)\" (\(what)) is not modelled")
        }
        if let w = node["placeholderIntrinsicWidth"], let h = node["placeholderIntrinsicHeight"] {
            view.placeholderIntrinsic = AxisPair(horizontal: try intrinsicMetric(node, w), vertical: try intrinsicMetric(node, h))
        }
        if node.name == "stackView" {
            view.stack = try stackProperties(node)
            // IB lays a stack view with explicit margins out relative to them.
            if node.child("edgeInsets", key: "layoutMargins") != nil || node.child("directionalEdgeInsets", key: "directionalLayoutMargins") != nil {
                view.stack?.marginsRelative = true
            }
        }
        view.font = font(of: node)
        if view.imageName == nil, node.name == "button" {
            view.imageName = node.children("state").first { $0["key"] == "normal" }?["image"]
        }

        // The frame first: subviews written as insets need it.
        for child in node.children where child.name == "rect" && child["key"] == "frame" || child.name == "frame" && child["key"] == "frameInset" {
            view.frame = child.name == "rect" ? try rect(child) : try frameInset(child, parentSize: parentSize)
        }
        let size = view.frame.map { (width: $0.width, height: $0.height) }
        view.hasFixedFrame = node.flag("fixedFrame") == true
        for child in node.children {
            switch (child.name, child["key"]) {
            case ("rect", "frame"?), ("frame", "frameInset"?):
                continue
            case ("rect", "frame"?):
                view.frame = try rect(child)
            case ("frame", "frameInset"?):
                view.frame = try frameInset(child, parentSize: parentSize)
            case ("autoresizingMask", _):
                view.autoresizingMask = autoresizingMask(child)
            case ("edgeInsets", "layoutMargins"?):
                view.layoutMargins = IBInsets(top: try number(child, "top"), left: try number(child, "left"),
                                              bottom: try number(child, "bottom"), right: try number(child, "right"))
            case ("directionalEdgeInsets", "directionalLayoutMargins"?):
                view.layoutMargins = IBInsets(top: try number(child, "top"), left: try number(child, "leading"),
                                              bottom: try number(child, "bottom"), right: try number(child, "trailing"))
            case ("constraints", _):
                for c in child.children {
                    guard c.name == "constraint" else {
                        throw error(c, "unknown element <\(c.name)> in <constraints> (only <constraint> may stand there)")
                    }
                    view.constraints.append(try constraint(c, owner: id))
                }
            case ("viewLayoutGuide", let key):
                view.guides.append(try guide(child, key: key, owner: id))
            case ("layoutGuides", _):
                for g in child.children {
                    guard g.name == "viewLayoutGuide" else {
                        throw error(g, "unknown element <\(g.name)> in <layoutGuides>")
                    }
                    view.guides.append(try guide(g, key: g["key"], owner: id))
                }
            case ("subviews", _):
                for s in child.children {
                    guard ViewCatalog.isView(s.name, platform: platform) else {
                        throw error(s, "unknown view element <\(s.name)> in <subviews>")
                    }
                    view.subviews.append(try readView(s, parentSize: size))
                }
            case ("view", "contentView"?) where ["box", "visualEffectView"].contains(node.name):
                view.subviews.append(try readView(child, owner: id, parentSize: size))
            case ("gridCells", _) where node.name == "gridView":
                // NSGridView places the content view of each cell.
                for cell in child.children("gridCell") {
                    if let content = cell.child(key: "contentView"), ViewCatalog.isView(content.name, platform: platform) {
                        view.subviews.append(try readView(content, owner: cell["id"], parentSize: size))
                    }
                }
            case ("variation", let key?):
                view.variations += try variations(child, key: key)
            default:
                continue
            }
        }
        for g in extraGuides {
            switch g["type"] {
            case "top"?: view.guides.append(IBLayoutGuide(id: try required(g, "id"), kind: .topLayoutGuide, owner: id, location: g.location))
            case "bottom"?: view.guides.append(IBLayoutGuide(id: try required(g, "id"), kind: .bottomLayoutGuide, owner: id, location: g.location))
            default: throw error(g, "a view controller layout guide of unknown type \"\(g["type"] ?? "")\"")
            }
        }
        return view
    }

    /// Attributes that change layout in ways the importer does not model, reported per view.
    static let unmodelledAttributes: [(String, String)] = [
        ("layoutMarginsFollowReadableWidth", "margins that follow the readable content guide"),
        ("semanticContentAttribute", "a forced layout direction"),
        ("contentInsetAdjustmentBehavior", "scroll view content insets"),
        ("detachesHiddenViews", "NSStackView's detaching of hidden views"),
    ]

    private func required(_ node: XMLElementNode, _ attribute: String) throws(IBImportError) -> String {
        guard let value = node[attribute] else { throw error(node, "<\(node.name)> has no \(attribute)") }
        return value
    }

    /// Geometry beyond this many points is refused: no screen is that large, and arithmetic
    /// on it stays exact enough in `Double`.
    static let largestCoordinate = 1e7

    func number(_ node: XMLElementNode, _ attribute: String) throws(IBImportError) -> Double {
        let text = try required(node, attribute)
        guard let value = Double(text), value.isFinite else {
            throw error(node, "\(attribute)=\"\(text)\" is not a finite number")
        }
        guard abs(value) <= Self.largestCoordinate else {
            throw error(node, "\(attribute)=\"\(text)\" is out of range (at most \(Int(Self.largestCoordinate)) points)")
        }
        return value
    }

    private func rect(_ node: XMLElementNode) throws(IBImportError) -> IBRect {
        let r = IBRect(x: try number(node, "x"), y: try number(node, "y"),
                       width: try number(node, "width"), height: try number(node, "height"))
        guard r.width >= 0, r.height >= 0 else { throw error(node, "a frame with a negative size") }
        return r
    }

    /// Xcode 8's inset form: `minX`, `minY`, `maxX`, `maxY` are distances from the
    /// superview's edges; `width` and `height` are given or follow from them.
    private func frameInset(_ node: XMLElementNode, parentSize: (width: Double, height: Double)?) throws(IBImportError) -> IBRect {
        func value(_ key: String) throws(IBImportError) -> Double? { node[key] == nil ? nil : try number(node, key) }
        let (minX, maxX, minY, maxY) = (try value("minX"), try value("maxX"), try value("minY"), try value("maxY"))
        var width = try value("width")
        var height = try value("height")
        if width == nil || height == nil || (minX == nil && maxX != nil) || (minY == nil && maxY != nil) {
            guard let parentSize else { throw error(node, "a frame written as insets without a superview frame") }
            width = width ?? parentSize.width - (minX ?? 0) - (maxX ?? 0)
            height = height ?? parentSize.height - (minY ?? 0) - (maxY ?? 0)
            let x = minX ?? (maxX.map { parentSize.width - $0 - width! } ?? 0)
            let y = minY ?? (maxY.map { parentSize.height - $0 - height! } ?? 0)
            return IBRect(x: x, y: y, width: max(width!, 0), height: max(height!, 0))
        }
        return IBRect(x: minX ?? 0, y: minY ?? 0, width: max(width!, 0), height: max(height!, 0))
    }

    private func autoresizingMask(_ node: XMLElementNode) -> IBAutoresizingMask {
        var mask = IBAutoresizingMask()
        mask.flexibleMinX = node.flag("flexibleMinX") == true
        mask.widthSizable = node.flag("widthSizable") == true
        mask.flexibleMaxX = node.flag("flexibleMaxX") == true
        mask.flexibleMinY = node.flag("flexibleMinY") == true
        mask.heightSizable = node.flag("heightSizable") == true
        mask.flexibleMaxY = node.flag("flexibleMaxY") == true
        return mask
    }

    private func priority(_ node: XMLElementNode, _ attribute: String, default value: Priority) throws(IBImportError) -> Priority {
        guard let text = node[attribute] else { return value }
        guard let literal = NumericLiteral(parsing: text), literal.isRepresentable else {
            throw error(node, "\(attribute)=\"\(text)\" is not a number")
        }
        let p = Priority(literal)
        guard p.isInRange else { throw error(node, "\(attribute)=\"\(text)\" is not a priority in (0, 1000]") }
        return p
    }

    private func intrinsicMetric(_ node: XMLElementNode, _ text: String) throws(IBImportError) -> Double? {
        if text == "infinite" { return nil }
        guard let value = Double(text), value.isFinite, value >= 0, value <= Self.largestCoordinate else {
            throw error(node, "placeholder intrinsic size \"\(text)\" is not a size")
        }
        return value
    }

    private func stackProperties(_ node: XMLElementNode) throws(IBImportError) -> IBStackProperties {
        let vertical: Bool
        switch platform {
        case .iOS: vertical = node["axis"] == "vertical"
        case .macOS: vertical = node["orientation"] == "vertical"
        }
        let distributionText = node["distribution"] ?? (platform == .iOS ? "fill" : "gravityAreas")
        guard let distribution = IBStackProperties.Distribution(rawValue: distributionText) else {
            throw error(node, "unknown stack view distribution \"\(distributionText)\"")
        }
        let alignment: IBStackProperties.Alignment
        switch node["alignment"] {
        case nil, "fill"?: alignment = platform == .iOS || node["alignment"] != nil ? .fill : (vertical ? .center : .center)
        case "leading"?, "top"?, "left"?: alignment = .leading
        case "trailing"?, "bottom"?, "right"?: alignment = .trailing
        case "center"?, "centerX"?, "centerY"?: alignment = .center
        case "firstBaseline"?: alignment = .firstBaseline
        case "lastBaseline"?, "baseline"?: alignment = .lastBaseline
        case let other?: throw error(node, "unknown stack view alignment \"\(other)\"")
        }
        var hugging: AxisPair<Priority>?
        if platform == .macOS {
            hugging = AxisPair(horizontal: try priority(node, "horizontalStackHuggingPriority", default: Priority(250)),
                               vertical: try priority(node, "verticalStackHuggingPriority", default: Priority(250)))
        }
        return IBStackProperties(
            vertical: vertical, distribution: distribution, alignment: alignment,
            // `spacingType="standard"` is UIStackView.spacingUseSystem: 8 between views.
            spacing: node["spacingType"] == "standard" ? 8 : node["spacing"] == nil ? (platform == .iOS ? 0 : 8) : try number(node, "spacing"),
            baselineRelative: node.flag("baselineRelativeArrangement") == true,
            marginsRelative: node.flag("layoutMarginsRelativeArrangement") == true,
            stackHugging: hugging)
    }

    /// The font a label, button, text field or AppKit control draws with.
    private func font(of node: XMLElementNode) -> IBFont? {
        let candidates = [node.child("fontDescription", key: "fontDescription"), node.child(key: "cell")?.child("font", key: "font")]
            + node.children.compactMap { $0.name == "buttonConfiguration" ? $0.child("fontDescription") : nil }
        for case let element? in candidates {
            if let font = FontMetrics.font(described: element) { return font }
        }
        return nil
    }

    private func guide(_ node: XMLElementNode, key: String?, owner: String) throws(IBImportError) -> IBLayoutGuide {
        let kind: IBLayoutGuide.Kind
        switch key {
        case "safeArea"?: kind = .safeArea
        case "contentLayoutGuide"?: kind = .contentLayoutGuide
        case "frameLayoutGuide"?: kind = .frameLayoutGuide
        case "layoutMarginsGuide"?: kind = .layoutMargins
        default:
            throw error(node, "a layout guide \(key.map { "with key \"\($0)\"" } ?? "without a key") (user-defined guides are not supported)")
        }
        return IBLayoutGuide(id: try required(node, "id"), kind: kind, owner: owner, location: node.location)
    }

    private func variations(_ node: XMLElementNode, key: String) throws(IBImportError) -> [IBVariation] {
        var result: [IBVariation] = []
        for mask in node.children {
            guard mask.name == "mask" else {
                throw error(mask, "a size-class variation of <\(mask.name)> is not supported (only constraint and subview masks)")
            }
            var variation = IBVariation(key: key, included: [], excluded: [], maskKey: mask["key"] ?? "", location: mask.location)
            for entry in mask.children {
                guard let reference = entry["reference"] else { throw error(entry, "<\(entry.name)> without a reference") }
                switch entry.name {
                case "include": variation.included.append(reference)
                case "exclude": variation.excluded.append(reference)
                default: throw error(entry, "unknown element <\(entry.name)> in <mask>")
                }
            }
            result.append(variation)
        }
        return result
    }

    /// Reads a `<constraint>` installed on `owner`.
    func constraint(_ node: XMLElementNode, owner: String) throws(IBImportError) -> IBConstraint {
        let id = try required(node, "id")
        let firstAttribute = try required(node, "firstAttribute")
        let relation: Relation
        switch node["relation"] {
        case nil: relation = .equal
        case "greaterThanOrEqual"?: relation = .greaterThanOrEqual
        case "lessThanOrEqual"?: relation = .lessThanOrEqual
        case let other?: throw error(node, "unknown relation \"\(other)\"")
        }
        let secondItem = node["secondItem"]
        let secondAttribute = node["secondAttribute"]
        if (secondItem == nil) != (secondAttribute == nil) {
            throw error(node, secondItem == nil ? "secondAttribute without secondItem" : "secondItem without secondAttribute")
        }
        var multiplier = NumericLiteral.one
        var multiplierText: String?
        if let text = node["multiplier"] {
            guard let value = Self.multiplier(text) else { throw error(node, "multiplier \"\(text)\" is not a number or a ratio") }
            multiplier = value
            if text.contains(":") || text.contains("/") { multiplierText = text }
        }
        var constant = NumericLiteral.zero
        if let text = node["constant"] {
            guard let value = NumericLiteral(parsing: text), value.isRepresentable else {
                throw error(node, "constant \"\(text)\" is not a finite number")
            }
            constant = value
        }
        return IBConstraint(
            id: id, owner: owner, firstItem: node["firstItem"] ?? owner, firstAttribute: firstAttribute,
            relation: relation, secondItem: secondItem, secondAttribute: secondAttribute,
            multiplier: multiplier, multiplierText: multiplierText, constant: constant,
            priority: try priority(node, "priority", default: .required),
            isPlaceholder: node.flag("placeholder") == true, location: node.location)
    }

    static func multiplier(_ text: String) -> NumericLiteral? { IBMultiplier.parse(text) }
}

/// A constraint's `multiplier` attribute.
public enum IBMultiplier {
    /// `2`, `0.75`, or a ratio `16:9` / `1/3` as UIKit computes it (a Double quotient);
    /// nil for anything else, or a ratio with a zero divisor.
    public static func parse(_ text: String) -> NumericLiteral? {
        for separator in [":", "/"] where text.contains(separator) {
            let parts = text.split(separator: Character(separator), omittingEmptySubsequences: false)
            guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 else { return nil }
            let q = a / b
            guard q.isFinite, q != 0 || a == 0 else { return nil }
            return NumericLiteral(q)
        }
        guard let literal = NumericLiteral(parsing: text), literal.isRepresentable else { return nil }
        return literal
    }
}
