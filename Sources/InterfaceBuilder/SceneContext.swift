/// Which view controllers of a storyboard sit in a navigation controller or a tab bar
/// controller, found from the segues: IB infers the simulated bars of a scene from them
/// when the file does not set them.
struct SceneContext: Sendable {
    /// Controllers shown inside a navigation controller (its root, and whatever is shown
    /// from a controller already inside one).
    var inNavigation: Set<String> = []
    /// Controllers shown as a tab of a tab bar controller, and what they show in turn.
    var inTabBar: Set<String> = []
    /// Controllers embedded in a container view (their size is the container's).
    var embedded: Set<String> = []

    init() {}

    init(document root: XMLElementNode) {
        // Scene by scene: the controller, its segues (from anything in the scene).
        var edges: [(from: String, to: String, kind: String, relationship: String?)] = []
        var kinds: [String: String] = [:]
        func controllers(in node: XMLElementNode, into list: inout [XMLElementNode]) {
            if node.name.hasSuffix("Controller") && node["id"] != nil { list.append(node) }
            node.children.forEach { controllers(in: $0, into: &list) }
        }
        func segues(in node: XMLElementNode, into list: inout [XMLElementNode]) {
            if node.name == "segue" { list.append(node) }
            node.children.forEach { segues(in: $0, into: &list) }
        }
        var scenes: [XMLElementNode] = []
        func findScenes(_ node: XMLElementNode) {
            if node.name == "scene" { scenes.append(node); return }
            node.children.forEach(findScenes)
        }
        findScenes(root)
        for scene in scenes {
            var list: [XMLElementNode] = []
            controllers(in: scene, into: &list)
            guard let controller = list.first, let id = controller["id"] else { continue }
            kinds[id] = controller.name
            // Bars the file sets explicitly pass on to what the controller shows, as IB infers.
            if controller.child(key: "simulatedTopBarMetrics")?.name == "simulatedNavigationBarMetrics" { inNavigation.insert(id) }
            if controller.child(key: "simulatedBottomBarMetrics")?.name == "simulatedTabBarMetrics" { inTabBar.insert(id) }
            var found: [XMLElementNode] = []
            segues(in: scene, into: &found)
            for s in found {
                guard let destination = s["destination"], let kind = s["kind"] else { continue }
                edges.append((id, destination, kind, s["relationship"]))
            }
        }
        // Seeds, then propagation along "show"/"push" segues and tab relationships.
        for e in edges where e.kind == "relationship" {
            if e.relationship == "rootViewController" && kinds[e.from] == "navigationController" { inNavigation.insert(e.to) }
            if e.relationship == "viewControllers" && kinds[e.from] == "tabBarController" { inTabBar.insert(e.to) }
        }
        for e in edges where e.kind == "embed" { embedded.insert(e.to) }
        var changed = true
        while changed {
            changed = false
            for e in edges {
                let shows = e.kind == "show" || e.kind == "push"
                if shows, inNavigation.contains(e.from), !inNavigation.contains(e.to) {
                    inNavigation.insert(e.to)
                    changed = true
                }
                // A navigation controller in a tab passes the tab bar to what it shows.
                let passes = shows || (e.kind == "relationship" && e.relationship == "rootViewController")
                if passes, inTabBar.contains(e.from), !inTabBar.contains(e.to) {
                    inTabBar.insert(e.to)
                    changed = true
                }
            }
        }
    }
}
