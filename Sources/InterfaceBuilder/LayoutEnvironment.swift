import LayoutModel

/// What UIKit computes around a layout root before Auto Layout runs: the unsafe parts of
/// the screen (status bar, simulated bars, home indicator), every view's layout margins,
/// and which size-class variations apply.
struct LayoutEnvironment {
    let document: IBDocument
    let candidate: LayoutRootCandidate
    /// The root's stored frame (its origin places a scene's view on the screen).
    var rootFrame = IBRect(x: 0, y: 0, width: 0, height: 0)

    init(document: IBDocument, candidate: LayoutRootCandidate) {
        self.document = document
        self.candidate = candidate
    }

    var device: DeviceProfile { document.device }

    // MARK: Size classes

    /// Whether a variation key (`heightClass=compact-widthClass=regular`) holds on the device.
    func matches(traits key: String) -> Bool {
        guard !device.isMac else { return false }
        for condition in key.split(separator: "-") {
            let parts = condition.split(separator: "=")
            guard parts.count == 2 else { return false }
            let value = String(parts[1])
            switch parts[0] {
            case "widthClass": if value != device.widthClass.rawValue { return false }
            case "heightClass": if value != device.heightClass.rawValue { return false }
            default: return false
            }
        }
        return true
    }

    // MARK: Safe area

    /// The bars IB simulates on a scene: status bar, navigation bar, tab bar or toolbar.
    struct SimulatedBars {
        var top: Double
        var bottom: Double
    }

    /// How the scene sits among other controllers (navigation and tab bar controllers).
    var scenes = SceneContext()

    /// True for files saved by Xcode 8 and earlier (tools version below 13000): iOS 10's
    /// layout, with top and bottom layout guides and no safe area in the margins.
    var isLegacyLayout: Bool { document.toolsVersion > 0 && document.toolsVersion < 13000 }

    /// Heights of the screen's unsafe strips at the top and bottom, for this root: the status
    /// bar, and the navigation bar, toolbar or tab bar the file sets or IB infers from the
    /// controller's place among navigation and tab bar controllers.
    var simulatedBars: SimulatedBars {
        guard candidate.kind == .sceneView, !device.isMac, let controller = candidate.controller else {
            return SimulatedBars(top: 0, bottom: 0)
        }
        let id = controller["id"] ?? ""
        if scenes.embedded.contains(id) { return SimulatedBars(top: 0, bottom: 0) }
        var top = 0.0
        // The status bar: a notch is always unsafe; on other iPhones, Xcode 10.2 and later
        // (tools version 14400 and up) simulate it only where the file asks for it.
        switch controller.child(key: "simulatedStatusBarMetrics")?.name {
        case "nil"?: break
        case "simulatedStatusBarMetrics"?: top += device.statusBar
        default:
            if device.homeIndicator > 0 || document.toolsVersion < 14400 { top += device.statusBar }
        }
        switch controller.child(key: "simulatedTopBarMetrics") {
        case let bar? where bar.name == "simulatedNavigationBarMetrics":
            top += bar.flag("prompted") == true ? 74 : 44
        case nil where scenes.inNavigation.contains(id):
            top += 44
        default: break
        }
        var bottom = device.homeIndicator
        switch controller.child(key: "simulatedBottomBarMetrics")?.name {
        case "simulatedTabBarMetrics"?: bottom += 49
        case "simulatedToolbarMetrics"?: bottom += 44
        case nil where scenes.inTabBar.contains(id): bottom += 49
        default: break
        }
        return SimulatedBars(top: top, bottom: bottom)
    }

    /// The unsafe insets of the root's own bounds. The root sits on the screen at its stored
    /// y when that is not 0; a root shorter than the screen by the bars sits below opaque bars.
    var rootSafeAreaInsets: IBInsets {
        guard candidate.kind == .sceneView, !device.isMac else { return .zero }
        let bars = simulatedBars
        // A freeform scene taller than the device is its own screen.
        let screenHeight = max(device.isLandscape ? device.screenWidth : device.screenHeight, rootFrame.maxY)
        var screenY = rootFrame.y
        // Below an opaque navigation bar the view starts under the bars.
        if candidate.controller?.child(key: "simulatedTopBarMetrics")?.flag("translucent") == false {
            screenY = max(screenY, bars.top)
        }
        if screenY == 0 && bars.top > 0 && rootFrame.height < screenHeight {
            let belowTop = screenHeight - bars.top
            if rootFrame.height == belowTop || rootFrame.height == belowTop - (bars.bottom - device.homeIndicator) {
                screenY = bars.top
            }
        }
        let top = max(0, bars.top - screenY)
        let bottom = max(0, screenY + rootFrame.height - (screenHeight - bars.bottom))
        return IBInsets(top: min(top, rootFrame.height), left: 0, bottom: min(bottom, rootFrame.height), right: 0)
    }

    /// A view's safe-area insets: the part of it that overlaps the root's unsafe strips
    /// (from the frames IB stored, as UIKit computes them from the laid-out frames).
    func safeAreaInsets(of item: Int, in assembly: LayoutAssembly) -> IBInsets {
        let root = rootSafeAreaInsets
        if item == 0 { return root }
        guard let g = assembly.items[item].storedGlobal, !root.isZero else { return .zero }
        let top = max(0, min(g.height, root.top - g.y))
        let bottom = max(0, min(g.height, g.maxY - (rootFrame.height - root.bottom)))
        return IBInsets(top: top, left: 0, bottom: bottom, right: 0)
    }

    // MARK: Layout margins

    /// Every item's layout margins:
    /// - a view controller's root view: its explicit margins or none, at least the system
    ///   minimum (16 points leading and trailing on narrow iPhones, 20 from 414 points
    ///   wide, 0 top and bottom), plus the safe-area insets;
    /// - a table view cell's content view: 11 top and bottom (15 in grouped tables from iOS 14
    ///   on; 8 all round before iOS 11), at the sides the cell's margins where the content view
    ///   reaches them (it preserves them): the table's system minimum, or 15 for a cell alone
    ///   in a xib;
    /// - any other view: its explicit margins or UIView's 8, raised where it preserves its
    ///   superview's margins and lies inside them, and by its own safe-area insets.
    /// AppKit views have no layout margins; their items keep the format's default.
    func assignMargins(_ assembly: inout LayoutAssembly, notes: inout [ImportNote]) {
        guard !device.isMac else { return }
        for index in assembly.items.indices {
            guard let view = assembly.items[index].view else { continue }
            var m = view.layoutMargins ?? IBInsets(top: 8, left: 8, bottom: 8, right: 8)
            // The root's own width decides (a freeform scene, a table's cells).
            let side = device.systemMinimumSideMargin(forWidth: candidate.kind == .cellContentView
                ? (candidate.table?.child("rect", key: "frame")?.number("width") ?? rootFrame.width)
                : rootFrame.width)
            let legacy = isLegacyLayout
            if index == 0 {
                switch candidate.kind {
                case .sceneView:
                    let explicit = view.layoutMargins ?? IBInsets(top: 0, left: 0, bottom: 0, right: 0)
                    let respects = candidate.controller?.flag("viewRespectsSystemMinimumLayoutMargins") != false
                    m = respects
                        ? IBInsets(top: explicit.top, left: max(explicit.left, side), bottom: explicit.bottom, right: max(explicit.right, side))
                        : explicit
                    if view.insetsLayoutMarginsFromSafeArea && !legacy {
                        let safe = rootSafeAreaInsets
                        m = IBInsets(top: m.top + safe.top, left: m.left + safe.left, bottom: m.bottom + safe.bottom, right: m.right + safe.right)
                    }
                case .cellContentView where view.element == "tableViewCellContentView" && legacy:
                    m = view.layoutMargins ?? IBInsets(top: 8, left: 8, bottom: 8, right: 8)
                case .cellContentView where view.element == "tableViewCellContentView":
                    // Grouped tables of iOS 14 and later pad their cells more (the corpus's
                    // files from Xcode 12 on show 15).
                    let grouped = ["grouped", "insetGrouped"].contains(candidate.table?["style"] ?? "") && document.toolsVersion >= 17000
                    let vertical = grouped ? 15.0 : 11.0
                    let own = view.layoutMargins ?? IBInsets(top: vertical, left: 8, bottom: vertical, right: 8)
                    // The content view preserves the cell's side margins where it reaches
                    // them: the table's (the system minimum), or a lone cell's own 15.
                    let cellSide = candidate.table == nil ? 15 : side
                    let cellWidth = candidate.cell?.child("rect", key: "frame")?.number("width") ?? rootFrame.width
                    m = IBInsets(top: own.top, left: max(own.left, cellSide - rootFrame.x), bottom: own.bottom,
                                 right: max(own.right, cellSide - (cellWidth - rootFrame.maxX)))
                default:
                    break
                }
            } else {
                if view.preservesSuperviewLayoutMargins, let parent = assembly.items[index].parent,
                   let frame = assembly.items[index].storedLocal, let parentFrame = assembly.items[parent].storedLocal {
                    let pm = assembly.items[parent].margins
                    let raised = IBInsets(
                        top: max(m.top, pm.top.doubleValue - frame.y),
                        left: max(m.left, pm.left.doubleValue - frame.x),
                        bottom: max(m.bottom, pm.bottom.doubleValue - (parentFrame.height - frame.maxY)),
                        right: max(m.right, pm.right.doubleValue - (parentFrame.width - frame.maxX)))
                    if raised != m {
                        notes.append(ImportNote(kind: .fromStoredFrames, objectID: view.id,
                            message: "preserves its superview's margins: \(RootImporter.text(raised)) where it lies inside them (from the stored frames)"))
                        m = raised
                    }
                }
                if view.insetsLayoutMarginsFromSafeArea && !legacy {
                    let safe = safeAreaInsets(of: index, in: assembly)
                    if !safe.isZero {
                        m = IBInsets(top: m.top + safe.top, left: m.left + safe.left, bottom: m.bottom + safe.bottom, right: m.right + safe.right)
                        notes.append(ImportNote(kind: .fromStoredFrames, objectID: view.id,
                            message: "margins raised by the safe area it overlaps (\(RootImporter.text(safe)), from the stored frames)"))
                    }
                }
            }
            assembly.items[index].margins = Margins(
                top: NumericLiteral(RootImporter.rounded(m.top)), left: NumericLiteral(RootImporter.rounded(m.left)),
                bottom: NumericLiteral(RootImporter.rounded(m.bottom)), right: NumericLiteral(RootImporter.rounded(m.right)))
        }
    }
}
