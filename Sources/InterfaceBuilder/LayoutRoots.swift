import LayoutModel

/// A view whose frame is set from outside Auto Layout (by a view controller, a table, a
/// window, or the code that loads a xib), and everything laid out inside it: one `.layout`.
public struct LayoutRootCandidate: Sendable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A view controller's `view` in a storyboard scene (or a xib's controller).
        case sceneView
        /// A table or collection view cell's content view.
        case cellContentView
        /// A view at the top level of a xib.
        case topLevelView
        /// A window's content view (macOS).
        case windowContentView
        /// A table view's header or footer view.
        case tableHeaderFooter
        /// A collection view's supplementary view, a table cell view (macOS), a bar button's custom view.
        case reusableView
    }

    public var kind: Kind
    /// The view element.
    public var node: XMLElementNode
    /// The view controller that owns a scene's view (for its layout guides and simulated bars).
    public var controller: XMLElementNode?
    /// The scene's or window's title, for names.
    public var title: String?

    /// The element that holds the root view (a cell for its content view), which names a
    /// root IB wrote without an ID.
    public var ownerID: String?
    /// The cell of a cell's content view (its own constraints may name the content's views).
    public var cell: XMLElementNode?
    /// The table or collection view a cell belongs to.
    public var table: XMLElementNode?

    public var id: String { node["id"] ?? ownerID.map { "\($0).\(node["key"] ?? "view")" } ?? "?" }
}

enum LayoutRootFinder {
    /// Every layout root of a document, in file order.
    static func roots(in document: IBDocument) -> [LayoutRootCandidate] {
        var found: [LayoutRootCandidate] = []
        var ancestors: [XMLElementNode] = []
        visit(document.root, ancestors: &ancestors, platform: document.platform, into: &found)
        return found
    }

    private static func visit(_ node: XMLElementNode, ancestors: inout [XMLElementNode], platform: IBPlatform,
                              into found: inout [LayoutRootCandidate]) {
        let parent = ancestors.last
        let isView = ViewCatalog.isView(node.name, platform: platform)
        switch node.name {
        case "tableViewCell", "collectionViewCell":
            if let content = node.child(key: "contentView") {
                found.append(LayoutRootCandidate(
                    kind: .cellContentView, node: content, controller: nil, title: node["reuseIdentifier"], ownerID: node["id"],
                    cell: node, table: ancestors.last { $0.name == "tableView" || $0.name == "collectionView" }))
            }
        case "collectionReusableView", "tableCellView":
            found.append(LayoutRootCandidate(kind: .reusableView, node: node, controller: nil, title: node["identifier"] ?? node["reuseIdentifier"]))
        case "window":
            if let content = node.child(key: "contentView") {
                found.append(LayoutRootCandidate(kind: .windowContentView, node: content, controller: nil, title: node["title"], ownerID: node["id"]))
            }
        default:
            if node.name.hasSuffix("Controller"), let view = node.child(key: "view"), ViewCatalog.isView(view.name, platform: platform) {
                found.append(LayoutRootCandidate(kind: .sceneView, node: view, controller: node, title: node["title"] ?? node["customClass"], ownerID: node["id"]))
            } else if isView, let key = node["key"], key == "tableHeaderView" || key == "tableFooterView", parent?.name == "tableView" {
                found.append(LayoutRootCandidate(kind: .tableHeaderFooter, node: node, controller: nil, title: key))
            } else if isView, node["key"] == "customView", parent?.name == "barButtonItem" {
                found.append(LayoutRootCandidate(kind: .reusableView, node: node, controller: nil, title: "bar button item"))
            } else if isView, parent?.name == "objects", node["key"] == nil {
                found.append(LayoutRootCandidate(kind: .topLevelView, node: node, controller: nil, title: node["customClass"] ?? node["userLabel"]))
            }
        }
        ancestors.append(node)
        for child in node.children {
            visit(child, ancestors: &ancestors, platform: platform, into: &found)
        }
        ancestors.removeLast()
    }
}
