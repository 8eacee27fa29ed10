/// What the importer knows about IB's view classes: which element names are views, which
/// have an intrinsic content size on which axis, which AppKit controls draw outside their
/// alignment rectangle, and which AppKit views are flipped.
enum ViewCatalog {
    /// Element names IB writes for UIKit views.
    static let iOSViews: Set<String> = [
        "view", "label", "button", "textField", "textView", "imageView", "stackView", "scrollView",
        "tableView", "tableViewCell", "tableViewCellContentView", "collectionView", "collectionViewCell",
        "collectionViewCellContentView", "collectionReusableView", "switch", "slider", "segmentedControl",
        "activityIndicatorView", "progressView", "pageControl", "stepper", "datePicker", "pickerView",
        "searchBar", "navigationBar", "toolbar", "tabBar", "webView", "wkWebView", "mapView",
        "containerView", "visualEffectView", "glkView", "mtkView", "sceneKitView", "arscnView", "arskView",
        "skView", "tableHeaderView", "colorWell", "visualEffectView",
    ]

    /// Element names IB writes for AppKit views.
    static let macViews: Set<String> = [
        "customView", "view", "textField", "secureTextField", "searchField", "tokenField", "comboBox",
        "button", "popUpButton", "segmentedControl", "slider", "stepper", "progressIndicator", "imageView",
        "box", "scrollView", "clipView", "scroller", "tableView", "outlineView", "tableCellView",
        "tableHeaderView", "textView", "stackView", "gridView", "visualEffectView", "splitView", "tabView",
        "datePicker", "colorWell", "levelIndicator", "pathControl", "matrix", "collectionView", "browser",
        "webView", "wkWebView", "mapView", "openGLView", "switch", "tableRowView", "containerView",
    ]

    static func isView(_ element: String, platform: IBPlatform) -> Bool {
        platform == .iOS ? iOSViews.contains(element) : macViews.contains(element)
    }

    /// Views whose subviews are placed by the view itself (scrolling, splitting, tabs), not by
    /// constraints: their subviews keep the frames IB stored.
    static func managesSubviewFrames(_ element: String, platform: IBPlatform) -> Bool {
        switch platform {
        case .iOS: return ["tableView", "collectionView", "pickerView", "webView", "wkWebView", "mapView"].contains(element)
        case .macOS:
            return ["scrollView", "clipView", "splitView", "tabView", "tableView", "outlineView", "collectionView", "browser", "matrix", "gridView"]
                .contains(element)
        }
    }

    /// The axes on which a view of this class has an intrinsic content size (UIKit's and
    /// AppKit's `intrinsicContentSize`), given what the element says.
    static func intrinsicAxes(of view: IBView, platform: IBPlatform) -> (horizontal: Bool, vertical: Bool) {
        let node = view.node
        switch (platform, view.element) {
        case (.iOS, "label"), (.iOS, "button"), (.iOS, "imageView"), (.iOS, "switch"),
             (.iOS, "activityIndicatorView"), (.iOS, "segmentedControl"), (.iOS, "stepper"),
             (.iOS, "pageControl"), (.iOS, "datePicker"), (.iOS, "pickerView"):
            return (true, true)
        case (.iOS, "textField"):
            return (true, true)
        case (.iOS, "textView"):
            // A text view sizes to its text only when it does not scroll.
            let fits = node.flag("scrollEnabled") == false
            return (fits, fits)
        case (.iOS, "slider"), (.iOS, "progressView"), (.iOS, "searchBar"), (.iOS, "navigationBar"),
             (.iOS, "toolbar"), (.iOS, "tabBar"):
            return (false, true)
        case (.macOS, "textField"), (.macOS, "secureTextField"), (.macOS, "searchField"),
             (.macOS, "tokenField"), (.macOS, "comboBox"):
            // Editable, bezeled fields have no intrinsic width; labels size to their text.
            let cell = node.child(key: "cell")
            let editable = cell?.flag("editable") == true
            let bordered = cell?["borderStyle"] != nil
            return (!(editable && bordered) && view.element == "textField", true)
        case (.macOS, "button"), (.macOS, "popUpButton"), (.macOS, "segmentedControl"), (.macOS, "stepper"),
             (.macOS, "imageView"), (.macOS, "progressIndicator"), (.macOS, "switch"), (.macOS, "colorWell"),
             (.macOS, "levelIndicator"), (.macOS, "datePicker"), (.macOS, "pathControl"):
            if view.element == "progressIndicator" && node["style"] != "spinning" { return (false, true) }
            return (true, true)
        case (.macOS, "slider"):
            return node.flag("vertical") == true ? (true, false) : (false, true)
        case (.macOS, "box"):
            return node["boxType"] == "separator" ? (false, true) : (false, false)
        default:
            return (false, false)
        }
    }

    /// Whether an AppKit view is flipped (its subviews' frames have y growing downwards).
    static func isFlipped(_ element: String, platform: IBPlatform) -> Bool {
        platform == .iOS || ["stackView", "tableView", "outlineView", "textView", "collectionView", "tableCellView", "clipView"].contains(element)
    }

    /// Alignment-rect insets (top, left, bottom, right) of AppKit controls: Auto Layout
    /// places the alignment rectangle; the frame IB stores is larger by these insets.
    /// Values are those the corpus's own constraints show (docs/interface-builder.md): the
    /// bezel's shadow of push buttons and pop-up buttons lies outside the alignment rectangle
    /// in files of Xcode 11 and before (tools version below 17000) and of Xcode 12–14 (below
    /// 22000, slightly different); Xcode 15 and later store the alignment rectangle itself.
    static func alignmentInsets(of view: IBView, platform: IBPlatform, toolsVersion: Double) -> IBInsets {
        guard platform == .macOS else {
            // UIKit controls whose frame IB stores larger than what they align: the corpus's
            // files show a switch's right edge 2 points out, and before iOS 26 a slider's
            // track 2 points in at the sides and 1 at the bottom.
            switch view.element {
            case "switch": return IBInsets(top: 0, left: 0, bottom: 0, right: 2)
            case "slider" where toolsVersion < 24000: return IBInsets(top: 0, left: 2, bottom: 1, right: 2)
            default: return .zero
            }
        }
        let cell = view.node.child(key: "cell")
        let bigSur = toolsVersion >= 17000
        let current = toolsVersion >= 22000
        switch view.element {
        case "box" where view.node["boxType"] == "separator":
            // A separator's frame is 5 points across its line, which is what it aligns.
            guard let r = view.node.child("rect", key: "frame"), let w = r.number("width"),
                  let h = r.number("height") else { return .zero }
            return w >= h ? IBInsets(top: 2, left: 0, bottom: 2, right: 0) : IBInsets(top: 0, left: 2, bottom: 0, right: 2)
        case "button":
            switch (cell?["type"], cell?["bezelStyle"], cell?["controlSize"]) {
            case ("push"?, "rounded"?, nil), ("push"?, "rounded"?, "regular"?):
                if current { return .zero }
                return bigSur ? IBInsets(top: 5, left: 7, bottom: 7, right: 7) : IBInsets(top: 4, left: 6, bottom: 7, right: 6)
            case ("smallSquare"?, "smallSquare"?, _):
                return current ? IBInsets(top: 1, left: 0, bottom: 1, right: 0) : .zero
            default:
                return .zero
            }
        case "popUpButton" where cell?["bezelStyle"] == "recessed":
            return current ? IBInsets(top: 0, left: 0, bottom: 1, right: 0) : .zero
        case "popUpButton" where cell?["bezelStyle"] == "rounded":
            if current { return .zero }
            return bigSur ? IBInsets(top: 1, left: 3, bottom: 4, right: 4) : IBInsets(top: 1, left: 2, bottom: 3, right: 3)
        case "progressIndicator" where view.node["style"] != "spinning" && !bigSur:
            return IBInsets(top: 1, left: 0, bottom: 1, right: 0)
        case "textField", "secureTextField":
            // Borderless labels draw their text 2 points inside the frame on each side.
            if cell?["borderStyle"] == nil && cell?.flag("bordered") != true && cell?.flag("bezeled") != true {
                return IBInsets(top: 0, left: 2, bottom: 0, right: 2)
            }
            return .zero
        default:
            return .zero
        }
    }

    /// Image views showing an SF Symbol (`catalog="system"` on the view, its image reference
    /// or its cell) or an AppKit template image (`…Template`, drawn from symbols since macOS
    /// 11): Auto Layout aligns the symbol's alignment rectangle, which depends on the symbol's
    /// glyph metrics that no file states, so the stored frame is not the item's rectangle.
    static func showsSymbolImage(_ view: IBView) -> Bool {
        guard view.element == "imageView" else { return false }
        let node = view.node
        let sources = [node, node.child(key: "cell"), node.child("imageReference", key: "image")].compactMap { $0 }
        return sources.contains { source in
            source["catalog"] == "system" || (source["image"]?.hasSuffix("Template") ?? false)
        }
    }
}
