import LayoutModel

/// Turns one layout root into a system: its views become items with the frames IB stored,
/// its constraints (and the ones UIKit makes for autoresizing masks, stack views, guides)
/// become constraints, and what UIKit computes outside Auto Layout (intrinsic sizes,
/// margins, safe areas, baselines) becomes item properties.
struct RootImporter {
    let document: IBDocument
    let candidate: LayoutRootCandidate
    var assembly = LayoutAssembly()
    var notes: [ImportNote] = []
    /// IB view or guide ID → item index.
    var itemOfID: [String: Int] = [:]
    /// iOS scroll view item → the item of its content area.
    var contentItem: [Int: Int] = [:]
    /// Item → its IB view's alignment insets.
    var insetsOfItem: [Int: IBInsets] = [:]
    var platform: IBPlatform { document.platform }
    var environment: LayoutEnvironment

    init(document: IBDocument, candidate: LayoutRootCandidate, scenes: SceneContext) {
        self.document = document
        self.candidate = candidate
        self.environment = LayoutEnvironment(document: document, candidate: candidate)
        self.environment.scenes = scenes
    }

    func error(_ location: SourceLocation, _ message: String) -> IBImportError {
        IBImportError(file: document.file, location: location, message: message)
    }

    mutating func note(_ kind: ImportNote.Kind, _ id: String?, _ message: String) {
        notes.append(ImportNote(kind: kind, objectID: id, message: message))
    }

    /// Builds the imported layout, or says why the root cannot be imported.
    mutating func run(name: String, allIDs: Set<String>) throws(IBImportError) -> ImportedLayout {
        let reader = IBViewReader(file: document.file, platform: platform)
        let guides = candidate.controller?.child("layoutGuides")?.children("viewControllerLayoutGuide") ?? []
        let root = try reader.readView(candidate.node, extraGuides: guides, owner: candidate.ownerID)
        guard var rootFrame = root.frame else { throw error(root.location, "the root view has no frame") }
        guard !root.subviews.isEmpty else { throw error(root.location, "nothing to lay out: the root view has no subviews") }
        // A cell's content view is the cell less its separator, one pixel, when the table draws
        // separators; Xcode 8 files store some content views as tall as the cell, yet lay them
        // out a pixel shorter. (Later files store what they lay out.)
        if environment.isLegacyLayout, let cell = candidate.cell, root.element == "tableViewCellContentView",
           let cellHeight = cell.child("rect", key: "frame")?.number("height"),
           cellHeight == rootFrame.height, candidate.table?["separatorStyle"] != "none" {
            rootFrame.height -= 1 / document.device.scale
            note(.modelled, root.id, "content view \(Self.number(rootFrame.height)) high: the cell (\(Self.number(cellHeight))) less its separator (the file stores \(Self.number(cellHeight)))")
        }
        environment.rootFrame = rootFrame
        for message in root.unmodelled { note(.notExpressed, root.id, message) }

        // Items: the root, then every view in file order (depth first), guides and content
        // areas right after their owner.
        let rootItem = assembly.add(AssemblyItem(
            name: assembly.uniqueName(Self.baseName(root)), parent: nil, source: root.displayName, view: root,
            storedLocal: IBRect(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height),
            storedGlobal: IBRect(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height), hasExpectedFrame: false))
        itemOfID[root.id] = rootItem
        addGuidesAndContent(of: root, item: rootItem)
        for subview in root.subviews {
            try addView(subview, parentView: root, parentItem: contentItem[rootItem] ?? rootItem, managed: false)
        }

        let cellConstraints = try addCell(reader: reader, rootItem: rootItem)

        environment.assignMargins(&assembly, notes: &notes)
        addIntrinsicSizes()
        addGuideConstraints()
        addScrollContentConstraints()
        try addInterfaceBuilderConstraints(root: root, extra: cellConstraints, allIDs: allIDs)
        addStackViews()
        fixUnconstrainedViews()
        addFrameConstraints()
        assembly._checkInvariants()

        let system = assembly.system(name: name)
        // The text must read back as the same system: anything else is an importer bug, and
        // is reported for this root rather than written.
        do {
            _ = try LayoutParser.parse(system.canonicalText, file: name + ".layout")
        } catch {
            throw self.error(root.location, "the imported system is not valid: \(error.message)")
        }
        var expected: [String: [Double?]] = [:]
        var sources: [String: String] = [:]
        var misplaced: [String] = []
        var ambiguous: [String] = []
        for (index, item) in assembly.items.enumerated().dropFirst() {
            let meaningful = item.hasExpectedFrame && item.view.map { !$0.isMisplaced && !$0.isAmbiguous } ?? false
            if meaningful, let frame = item.storedLocal {
                var components: [Double?] = frame.components.map { $0 }
                if let axis = hiddenArrangedAxis[index] { components[axis == .horizontal ? 0 : 1] = nil }
                expected[item.name] = components
            } else {
                expected[item.name] = [nil, nil, nil, nil]
            }
        }
        var storedGlobal: [String: [Double]] = [:]
        var symbolImages: Set<String> = []
        for item in assembly.items.dropFirst() {
            guard let view = item.view else { continue }
            if let g = item.storedGlobal { storedGlobal[item.name] = g.components }
            if ViewCatalog.showsSymbolImage(view) { symbolImages.insert(item.name) }
        }
        for item in assembly.items {
            sources[item.name] = item.source
            if let view = item.view {
                if view.isMisplaced { misplaced.append(view.id) }
                if view.isAmbiguous { ambiguous.append(view.id) }
            }
        }
        return ImportedLayout(
            name: name, sourceFile: document.file, rootID: root.id, rootKind: candidate.kind, platform: platform,
            device: document.device, system: system, itemSources: sources,
            itemForObject: Dictionary(assembly.items.compactMap { item in item.view.map { ($0.id, item.name) } }, uniquingKeysWith: { a, _ in a }),
            expectedFrames: expected, notes: notes,
            storedGlobalFrames: storedGlobal, yUpItems: yUpItems(), misplacedViews: misplaced, ambiguousViews: ambiguous,
            storedFrameRounding: .of(platform: platform, toolsVersion: document.toolsVersion), symbolImageItems: symbolImages)
    }

    /// macOS items under a superview that is not flipped.
    func yUpItems() -> Set<String> {
        guard platform == .macOS else { return [] }
        var names: Set<String> = []
        for item in assembly.items.dropFirst() {
            guard let parent = item.parent, let parentView = assembly.items[parent].view else { continue }
            if !ViewCatalog.isFlipped(parentView.element, platform: platform) { names.insert(item.name) }
        }
        return names
    }

    /// `label_OH0_PK_L1q`: the element name and the ID.
    static func baseName(_ view: IBView) -> String { "\(view.element)_\(view.id)" }

    // MARK: Items

    mutating func addView(_ view: IBView, parentView: IBView, parentItem: Int, managed: Bool) throws(IBImportError) {
        guard itemOfID[view.id] == nil else { throw error(view.location, "the ID \(view.id) is used twice") }
        var local: IBRect?
        var global: IBRect?
        let insets = ViewCatalog.alignmentInsets(of: view, platform: platform, toolsVersion: document.toolsVersion)
        if let f = view.frame, let parentFrame = parentView.frame ?? (parentView.id == candidate.id ? environment.rootFrame : nil) {
            let parentInsets = ViewCatalog.alignmentInsets(of: parentView, platform: platform, toolsVersion: document.toolsVersion)
            let y = ViewCatalog.isFlipped(parentView.element, platform: platform) ? f.y : parentFrame.height - f.y - f.height
            let r = IBRect(x: f.x + insets.left - parentInsets.left, y: y + insets.top - parentInsets.top,
                           width: f.width - insets.left - insets.right, height: f.height - insets.top - insets.bottom)
            local = r
            if let origin = assembly.items[parentItem].storedGlobal {
                global = IBRect(x: origin.x + r.x, y: origin.y + r.y, width: r.width, height: r.height)
            }
        }
        if !insets.isZero {
            note(.modelled, view.id, "\(view.element): alignment rectangle inset \(Self.text(insets)) (top left bottom right) from the frame")
        }
        let item = assembly.add(AssemblyItem(
            name: assembly.uniqueName(Self.baseName(view)), parent: parentItem, source: view.displayName, view: view,
            storedLocal: local, storedGlobal: global, hugging: view.hugging, resistance: view.resistance,
            hasExpectedFrame: local != nil))
        itemOfID[view.id] = item
        insetsOfItem[item] = insets
        if view.frame == nil { note(.notExpressed, view.id, "no stored frame: nothing to compare with") }
        for message in view.unmodelled { note(.notExpressed, view.id, message) }
        if managed || (view.hasFixedFrame && !view.translatesAutoresizingMask) { managedItems.insert(item) }
        addGuidesAndContent(of: view, item: item)
        if view.element == "gridView" {
            note(.notExpressed, view.id, "NSGridView's rows and columns are not modelled: its cells keep their stored frames and the grid is sized like a content-sized view")
        }
        if platform == .macOS && view.element == "scrollView" {
            note(.notExpressed, view.id, "NSScrollView places its clip view and document view itself: they are not imported")
        }
        let manages = ViewCatalog.managesSubviewFrames(view.element, platform: platform)
        for subview in view.subviews {
            try addView(subview, parentView: view, parentItem: contentItem[item] ?? item, managed: manages)
        }
    }

    /// Items whose container places them (split view panes, table view subviews).
    var managedItems: Set<Int> = []

    /// Adds the guides a view owns and, for an iOS scroll view, the item for its content area.
    mutating func addGuidesAndContent(of view: IBView, item: Int) {
        let ownerName = assembly.items[item].name
        for guide in view.guides {
            switch guide.kind {
            case .safeArea, .topLayoutGuide, .bottomLayoutGuide, .layoutMargins:
                let g = assembly.add(AssemblyItem(
                    name: assembly.uniqueName("\(guide.kind.rawValue)_\(guide.id)"), parent: item,
                    source: "\(guide.kind.rawValue) \(guide.id) of \(ownerName)", view: nil,
                    storedLocal: nil, storedGlobal: nil, hasExpectedFrame: false))
                itemOfID[guide.id] = g
                guideItems.append((g, guide))
            case .contentLayoutGuide, .frameLayoutGuide:
                continue  // resolved once the content item exists, below
            }
        }
        if platform == .iOS && view.element == "scrollView" {
            let content = assembly.add(AssemblyItem(
                name: assembly.uniqueName("\(ownerName)_content"), parent: item,
                source: "content area of \(ownerName) (what constraints from its subviews to its edges mean)",
                view: nil, storedLocal: nil, storedGlobal: assembly.items[item].storedGlobal,
                hasExpectedFrame: false))
            contentItem[item] = content
            for guide in view.guides {
                if guide.kind == .contentLayoutGuide { itemOfID[guide.id] = content }
                if guide.kind == .frameLayoutGuide { itemOfID[guide.id] = item }
            }
        }
    }

    var guideItems: [(item: Int, guide: IBLayoutGuide)] = []
    /// Hidden arranged views and their stack's axis: their position along it is not compared.
    var hiddenArrangedAxis: [Int: Attribute.Axis] = [:]

    // MARK: Item properties

    /// Intrinsic sizes, from the best source the file has: IB's placeholder, the image's
    /// size, or else the frame IB stored (which is what Xcode computed from the content).
    mutating func addIntrinsicSizes() {
        var fromFrames: [String] = []
        for index in assembly.items.indices.dropFirst() {
            guard let view = assembly.items[index].view, !translatesMask(index) else { continue }
            var axes = ViewCatalog.intrinsicAxes(of: view, platform: platform)
            if view.element == "gridView" { axes = (true, true) }
            if let placeholder = view.placeholderIntrinsic {
                assembly.items[index].intrinsic = AxisPair(
                    horizontal: placeholder.horizontal.map(NumericLiteral.init),
                    vertical: placeholder.vertical.map(NumericLiteral.init))
                note(.modelled, view.id, "intrinsic size from IB's placeholder")
                continue
            }
            guard axes.horizontal || axes.vertical else { continue }
            let stored = assembly.items[index].storedLocal
            if view.element == "imageView", let name = view.imageName, let size = document.imageSizes[name] {
                assembly.items[index].intrinsic = AxisPair(
                    horizontal: axes.horizontal ? NumericLiteral(size.width) : nil,
                    vertical: axes.vertical ? NumericLiteral(size.height) : nil)
                continue
            }
            guard let stored else {
                note(.notExpressed, view.id, "content-sized \(view.element) without a stored frame: no intrinsic size")
                continue
            }
            assembly.items[index].intrinsic = AxisPair(
                horizontal: axes.horizontal ? NumericLiteral(stored.width) : nil,
                vertical: axes.vertical ? NumericLiteral(stored.height) : nil)
            fromFrames.append("\(assembly.items[index].name) \(axes.horizontal ? Self.number(stored.width) : "-")x\(axes.vertical ? Self.number(stored.height) : "-")")
            assembly.items[index].baselines = baselines(of: view, height: stored.height)
        }
        if !fromFrames.isEmpty {
            note(.fromStoredFrames, nil, "intrinsic content sizes taken from the stored frames (the file has no other source): \(fromFrames.joined(separator: ", "))")
        }
    }

    /// First and last baselines of a text view from its font: the line (its height rounded up
    /// to pixels) centred vertically in the stored height, the baseline one ascender below
    /// the line's top, rounded to pixels (how UILabel, UIButton and UITextField place one line;
    /// the corpus's baseline constraints agree with this to the pixel).
    func baselines(of view: IBView, height: Double) -> Baselines? {
        guard let font = view.font else { return nil }
        let textViews: Set<String> = platform == .iOS
            ? ["label", "button", "textField", "textView"]
            : ["textField", "secureTextField", "button", "popUpButton", "searchField", "comboBox", "tokenField"]
        guard textViews.contains(view.element) else { return nil }
        let m = FontMetrics.metrics(of: font)
        let scale = document.device.scale
        func ceilPixel(_ v: Double) -> Double { (v * scale - 1e-9).rounded(.up) / scale }
        // UIKit rounds the baseline to the nearest pixel; AppKit's controls put it on the
        // pixel above (the corpus's Mac baseline constraints agree only with that).
        let rule: FloatingPointRoundingRule = platform == .iOS ? .toNearestOrAwayFromZero : .down
        func roundPixel(_ v: Double) -> Double { (v * scale + 1e-9).rounded(rule) / scale }
        let line = ceilPixel(m.lineHeight)
        let lines = Double(max(1, view.numberOfLines))
        // One line, or as many as fit, centred; the last baseline is on the last line.
        let shown = max(1, min(lines, (height / line).rounded(.down)))
        let top = max(0, (height - shown * line) / 2)
        let first = roundPixel(top + m.ascender)
        let last = height - roundPixel(top + (shown - 1) * line + m.ascender)
        return Baselines(first: NumericLiteral(Self.rounded(first)), last: NumericLiteral(Self.rounded(max(0, last))))
    }

    // MARK: Constraints

    /// A cell whose own constraints name views of its content view: the cell becomes an
    /// item (fixed where IB stored it, around the content view) so that they can be imported.
    mutating func addCell(reader: IBViewReader, rootItem: Int) throws(IBImportError) -> [IBConstraint] {
        guard let cell = candidate.cell, let cellID = cell["id"],
              let constraints = cell.child("constraints"), !constraints.children.isEmpty,
              let frame = cell.child("rect", key: "frame"),
              let width = frame.number("width"), let height = frame.number("height") else { return [] }
        var result: [IBConstraint] = []
        for c in constraints.children {
            guard c.name == "constraint" else {
                throw error(c.location, "unknown element <\(c.name)> in <constraints> (only <constraint> may stand there)")
            }
            result.append(try reader.constraint(c, owner: cellID))
        }
        let offset = candidate.node.child("rect", key: "frame").map { ($0.number("x") ?? 0, $0.number("y") ?? 0) } ?? (0, 0)
        let name = assembly.uniqueName("\(cell.name)_\(cellID)")
        let item = assembly.add(AssemblyItem(
            name: name, parent: rootItem, source: "\(cell.name) \(cellID) (the content view's cell, fixed where IB stored it)",
            view: nil, storedLocal: IBRect(x: -offset.0, y: -offset.1, width: width, height: height),
            storedGlobal: IBRect(x: -offset.0, y: -offset.1, width: width, height: height), hasExpectedFrame: false))
        itemOfID[cellID] = item
        assembly.add(id: "\(name)_x", (item, .left), .equal, (rootItem, .left), constant: NumericLiteral(-offset.0))
        assembly.add(id: "\(name)_y", (item, .top), .equal, (rootItem, .top), constant: NumericLiteral(-offset.1))
        assembly.add(id: "\(name)_w", (item, .width), .equal, nil, constant: NumericLiteral(width))
        assembly.add(id: "\(name)_h", (item, .height), .equal, nil, constant: NumericLiteral(height))
        note(.modelled, cellID, "the cell's own constraints name views of its content view: the cell is an item fixed at its stored frame")
        return result
    }

    /// Views that no constraint names (and that are not arranged in a stack or placed by
    /// their autoresizing mask) are never added to UIKit's layout engine: they keep the frame
    /// they were loaded with.
    mutating func fixUnconstrainedViews() {
        var named = Set<Int>()
        for c in assembly.constraints {
            named.insert(c.first.item)
            if let s = c.second { named.insert(s.item) }
        }
        for index in assembly.items.indices.dropFirst() {
            guard let view = assembly.items[index].view, !named.contains(index), !translatesMask(index),
                  assembly.items[index].storedLocal != nil else { continue }
            managedItems.insert(index)
            assembly.items[index].intrinsic = AxisPair(horizontal: nil, vertical: nil)
            note(.modelled, view.id, "no constraint names this view: it keeps its stored frame, as UIKit leaves views outside its layout engine")
        }
    }

    /// Pins guides to their owner with the insets UIKit gives them.
    mutating func addGuideConstraints() {
        for (g, guide) in guideItems {
            guard let owner = assembly.items[g].parent else { continue }
            let name = assembly.items[g].name
            switch guide.kind {
            case .safeArea, .layoutMargins:
                let insets = guide.kind == .safeArea
                    ? environment.safeAreaInsets(of: owner, in: assembly)
                    : Self.insets(assembly.items[owner].margins)
                assembly.add(id: "\(name)_left", (g, .left), .equal, (owner, .left), constant: NumericLiteral(insets.left))
                assembly.add(id: "\(name)_top", (g, .top), .equal, (owner, .top), constant: NumericLiteral(insets.top))
                assembly.add(id: "\(name)_right", (g, .right), .equal, (owner, .right), constant: NumericLiteral(-insets.right))
                assembly.add(id: "\(name)_bottom", (g, .bottom), .equal, (owner, .bottom), constant: NumericLiteral(-insets.bottom))
                if guide.kind == .safeArea && !insets.isZero {
                    note(.modelled, guide.id, "safe area insets \(Self.text(insets)) from device \(document.device.id) and the simulated bars")
                }
            case .topLayoutGuide, .bottomLayoutGuide:
                // UIKit's guide is a strip across the view, as tall as the bars it covers.
                let insets = environment.safeAreaInsets(of: owner, in: assembly)
                let (edge, length): (Attribute, Double) = guide.kind == .topLayoutGuide ? (.top, insets.top) : (.bottom, insets.bottom)
                assembly.add(id: "\(name)_left", (g, .left), .equal, (owner, .left))
                assembly.add(id: "\(name)_\(edge.rawValue)", (g, edge), .equal, (owner, edge))
                assembly.add(id: "\(name)_width", (g, .width), .equal, (owner, .width))
                assembly.add(id: "\(name)_height", (g, .height), .equal, nil, constant: NumericLiteral(length))
            case .contentLayoutGuide, .frameLayoutGuide:
                continue
            }
        }
    }

    /// A scroll view's content area starts at its origin (content offset zero).
    mutating func addScrollContentConstraints() {
        for (scroll, content) in contentItem.sorted(by: { $0.key < $1.key }) {
            let name = assembly.items[content].name
            assembly.add(id: "\(name)_left", (content, .left), .equal, (scroll, .left))
            assembly.add(id: "\(name)_top", (content, .top), .equal, (scroll, .top))
            note(.modelled, assembly.items[scroll].view?.id, "constraints between the scroll view's edges and its subviews act on its content area (\(name)); width and height on its frame")
        }
    }

    /// The file's constraints, in file order, after placeholders and size-class variations.
    mutating func addInterfaceBuilderConstraints(root: IBView, extra: [IBConstraint], allIDs: Set<String>) throws(IBImportError) {
        var installed: [IBConstraint] = extra
        var excluded: Set<String> = []
        var included: Set<String> = []
        func collect(_ view: IBView) {
            installed += view.constraints
            for v in view.variations where v.maskKey == "constraints" {
                if v.key == "default" {
                    excluded.formUnion(v.excluded)
                    included.formUnion(v.included)
                } else if environment.matches(traits: v.key) {
                    included.formUnion(v.included)
                    excluded.formUnion(v.excluded.filter { !v.included.contains($0) })
                }
            }
            for v in view.variations where v.maskKey == "subviews" && !v.excluded.isEmpty {
                notes.append(ImportNote(kind: .notExpressed, objectID: view.id, message: "size-class variation \(v.key) of subviews: every subview is imported"))
            }
            view.subviews.forEach(collect)
        }
        collect(root)
        installed.sort { $0.location < $1.location }
        var placeholders: [String] = []
        var inactive: [String] = []
        for c in installed {
            if c.isPlaceholder { placeholders.append(c.id); continue }
            if excluded.contains(c.id) && !included.contains(c.id) { inactive.append(c.id); continue }
            try addConstraint(c, allIDs: allIDs)
        }
        if !placeholders.isEmpty {
            note(.removed, nil, "placeholder constraints removed (Xcode removes them at build time): \(placeholders.joined(separator: " "))")
        }
        if !inactive.isEmpty {
            note(.removed, nil, "constraints not installed in the base size class of \(document.device.id): \(inactive.joined(separator: " "))")
        }
    }

    mutating func resolve(_ id: String, in c: IBConstraint, allIDs: Set<String>) throws(IBImportError) -> Int {
        if let item = itemOfID[id] { return item }
        if allIDs.contains(id) {
            throw error(c.location, "constraint \(c.id) refers to \(id), which is not laid out in this root")
        }
        throw error(c.location, "constraint \(c.id) refers to \(id), which is not in the file")
    }

    mutating func addConstraint(_ c: IBConstraint, allIDs: Set<String>) throws(IBImportError) {
        var first = try resolve(c.firstItem, in: c, allIDs: allIDs)
        guard let firstAttribute = Attribute(name: c.firstAttribute) else {
            throw error(c.location, "constraint \(c.id): unknown attribute \"\(c.firstAttribute)\"")
        }
        var second: (Int, Attribute)?
        if let s = c.secondItem, let a = c.secondAttribute {
            guard let attribute = Attribute(name: a) else {
                throw error(c.location, "constraint \(c.id): unknown attribute \"\(a)\"")
            }
            second = (try resolve(s, in: c, allIDs: allIDs), attribute)
        }
        // Between a scroll view's edge and one of its descendants, the edge is the content area's.
        if let s = second {
            first = mapToContent(first, firstAttribute, other: s.0)
            second = (mapToContent(s.0, s.1, other: first), s.1)
        }
        try validate(c, firstAttribute, second?.1)
        if let text = c.multiplierText {
            note(.modelled, c.id, "multiplier \(text) is \(c.multiplier) (the Double UIKit computes)")
        }
        assembly.add(id: "ib_" + c.id, (first, firstAttribute), c.relation, multiplier: c.multiplier, second,
                     constant: c.constant, priority: c.priority)
    }

    func mapToContent(_ item: Int, _ attribute: Attribute, other: Int) -> Int {
        guard let content = contentItem[item], !attribute.isSize else { return item }
        return assembly.ancestors(of: other).contains(content) ? content : item
    }

    /// UIKit's rules (the format's V1–V4): a constraint that breaks them throws at run time,
    /// so the root is not imported.
    func validate(_ c: IBConstraint, _ a: Attribute, _ b: Attribute?) throws(IBImportError) {
        guard let b else {
            if !a.isSize { throw error(c.location, "constraint \(c.id): the position attribute \(a.rawValue) is set to a constant") }
            return
        }
        if a.isSize != b.isSize { throw error(c.location, "constraint \(c.id): a size attribute is related to a position attribute") }
        if !a.isSize && a.axis != b.axis { throw error(c.location, "constraint \(c.id): attributes of different axes (\(a.rawValue), \(b.rawValue))") }
        if (a.isDirectional && b.isAbsoluteHorizontal) || (a.isAbsoluteHorizontal && b.isDirectional) {
            throw error(c.location, "constraint \(c.id): leading/trailing mixed with left/right")
        }
        if !a.isSize && c.multiplier.isZero { throw error(c.location, "constraint \(c.id): multiplier 0 on a position attribute") }
    }

    /// Whether a view's frame comes from its autoresizing mask: views IB did not mark for
    /// constraints, every view of a file without Auto Layout, but never an arranged subview
    /// (UIStackView turns the translation off).
    func translatesMask(_ index: Int) -> Bool {
        guard let view = assembly.items[index].view, let parent = assembly.items[index].parent else { return false }
        if managedItems.contains(index) { return true }
        if assembly.items[parent].view?.stack != nil { return false }
        return view.translatesAutoresizingMask || !document.usesAutoLayout
    }

    /// Autoresizing-mask constraints for views that translate their mask, and fixed frames
    /// for views their container places.
    mutating func addFrameConstraints() {
        for index in assembly.items.indices.dropFirst() {
            guard let view = assembly.items[index].view, let parent = assembly.items[index].parent,
                  let frame = assembly.items[index].storedLocal else { continue }
            let insets = insetsOfItem[index] ?? .zero
            let parentSize = assembly.items[parent].storedLocal.map { ($0.width, $0.height) } ?? (0, 0)
            if managedItems.contains(index) {
                let name = assembly.items[index].name
                assembly.add(id: "\(name)_x", (index, .left), .equal, (parent, .left), constant: NumericLiteral(frame.x))
                assembly.add(id: "\(name)_y", (index, .top), .equal, (parent, .top), constant: NumericLiteral(frame.y))
                assembly.add(id: "\(name)_w", (index, .width), .equal, nil, constant: NumericLiteral(frame.width))
                assembly.add(id: "\(name)_h", (index, .height), .equal, nil, constant: NumericLiteral(frame.height))
                note(.modelled, view.id, view.hasFixedFrame
                     ? "fixed frame (placed without constraints in IB): kept at the stored frame"
                     : "placed by its \(assembly.items[parent].view?.element ?? "container"): fixed at the stored frame")
                continue
            }
            guard translatesMask(index) else { continue }
            let mask = view.autoresizingMask ?? IBAutoresizingMask()
            let parentFlipped = assembly.items[parent].view.map { ViewCatalog.isFlipped($0.element, platform: platform) } ?? true
            // On a non-flipped AppKit superview, minY is the bottom margin.
            let topFlexible = parentFlipped ? mask.flexibleMinY : mask.flexibleMaxY
            let bottomFlexible = parentFlipped ? mask.flexibleMaxY : mask.flexibleMinY
            addAutoresizing(index, axis: .horizontal, origin: frame.x - insets.left, size: frame.width + insets.left + insets.right,
                            parentSize: parentSize.0, flexible: (mask.flexibleMinX, mask.widthSizable, mask.flexibleMaxX),
                            insets: (insets.left, insets.right))
            addAutoresizing(index, axis: .vertical, origin: frame.y - insets.top, size: frame.height + insets.top + insets.bottom,
                            parentSize: parentSize.1, flexible: (topFlexible, mask.heightSizable, bottomFlexible),
                            insets: (insets.top, insets.bottom))
        }
    }

    /// One axis of an autoresizing mask: every flexible part (margin before, size, margin
    /// after) takes a share of the superview's change of size in proportion to its stored
    /// length, which is how UIKit and AppKit resize.
    mutating func addAutoresizing(_ index: Int, axis: Attribute.Axis, origin: Double, size: Double, parentSize: Double,
                                  flexible: (Bool, Bool, Bool), insets: (Double, Double)) {
        guard let parent = assembly.items[index].parent else { return }
        let name = assembly.items[index].name
        let parts = [origin, size, parentSize - origin - size]
        let flags = [flexible.0, flexible.1, flexible.2]
        var weights = zip(parts, flags).map { $1 ? max($0, 0) : 0 }
        var total = weights.reduce(0, +)
        if total == 0 && flags.contains(true) {
            weights = flags.map { $0 ? 1 : 0 }
            total = weights.reduce(0, +)
        }
        let originShare = total > 0 ? weights[0] / total : 0
        let sizeShare = total > 0 ? weights[1] / total : 0
        let (start, sizeAttribute, end): (Attribute, Attribute, Attribute) = axis == .horizontal ? (.left, .width, .right) : (.top, .height, .bottom)
        let suffix = axis == .horizontal ? "x" : "y"
        // The item is the alignment rectangle: shift the frame's edges by the insets.
        if originShare == 0 {
            assembly.add(id: "\(name)_autoresizing_\(suffix)", (index, start), .equal, (parent, start),
                         constant: NumericLiteral(Self.rounded(origin + insets.0)))
        } else {
            assembly.add(id: "\(name)_autoresizing_\(suffix)", (index, start), .equal, multiplier: NumericLiteral(originShare), (parent, end),
                         constant: NumericLiteral(Self.rounded(origin - originShare * parentSize + insets.0)))
        }
        let sizeAttr: (Int, Attribute) = (index, sizeAttribute)
        if sizeShare == 0 {
            assembly.add(id: "\(name)_autoresizing_\(axis == .horizontal ? "w" : "h")", sizeAttr, .equal, nil,
                         constant: NumericLiteral(Self.rounded(size - insets.0 - insets.1)))
        } else {
            assembly.add(id: "\(name)_autoresizing_\(axis == .horizontal ? "w" : "h")", sizeAttr, .equal, multiplier: NumericLiteral(sizeShare),
                         (parent, sizeAttribute), constant: NumericLiteral(Self.rounded(size - sizeShare * parentSize - insets.0 - insets.1)))
        }
    }

    mutating func addStackViews() {
        for index in assembly.items.indices.dropFirst() {
            guard let view = assembly.items[index].view, let stack = view.stack else { continue }
            let arranged = view.subviews.compactMap { sub in itemOfID[sub.id].map { (item: $0, hidden: sub.isHidden) } }
            for a in arranged where a.hidden { hiddenArrangedAxis[a.item] = stack.vertical ? .vertical : .horizontal }
            var lowering = StackViewLowering(stack: index, properties: stack, arranged: arranged, platform: platform)
            lowering.lower(into: &assembly)
            for message in lowering.notes { note(.modelled, view.id, message) }
        }
    }

    // MARK: Formatting

    /// Rounds to 1e-9 to keep decimal noise (0.1 + 0.2) out of the text.
    static func rounded(_ value: Double) -> Double {
        let r = (value * 1e9).rounded() / 1e9
        return r == 0 ? 0 : r
    }

    static func number(_ value: Double) -> String { ImportedLayout.number(value) }

    static func text(_ i: IBInsets) -> String {
        "\(number(i.top)) \(number(i.left)) \(number(i.bottom)) \(number(i.right))"
    }

    static func insets(_ m: Margins) -> IBInsets {
        IBInsets(top: m.top.doubleValue, left: m.left.doubleValue, bottom: m.bottom.doubleValue, right: m.right.doubleValue)
    }
}
