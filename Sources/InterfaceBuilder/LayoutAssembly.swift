import LayoutModel

/// An item of the system being assembled from a layout root.
struct AssemblyItem {
    var name: String
    var parent: Int?
    /// The IB object the item stands for, as the header lists it.
    var source: String
    /// The view, nil for synthesized items (guides, spacers, scroll content).
    var view: IBView?
    /// The frame IB stored: the alignment rectangle relative to the parent item's origin,
    /// y growing downwards. Nil where IB stored none.
    var storedLocal: IBRect?
    /// The same in the root's coordinates.
    var storedGlobal: IBRect?
    var intrinsic = AxisPair<NumericLiteral?>(horizontal: nil, vertical: nil)
    var hugging = AxisPair(horizontal: Priority.low, vertical: Priority.low)
    var resistance = AxisPair(horizontal: Priority.high, vertical: Priority.high)
    var baselines: Baselines?
    var margins = Margins.standard
    /// Whether the frame IB stored is the expected answer for this item.
    var hasExpectedFrame: Bool
}

/// Items and constraints with names, turned into a ``ConstraintSystem`` at the end.
struct LayoutAssembly {
    var items: [AssemblyItem] = []
    var constraints: [Constraint] = []
    private var usedNames: Set<String> = []
    private var usedConstraintIDs: Set<String> = []

    /// `base` with every character the format's names do not allow turned into `_`, and
    /// `prefix` in front when it would not start with a letter or `_`.
    static func identifier(_ base: String, prefix: String) -> String {
        let cleaned = String(base.unicodeScalars.map { scalar -> Character in
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "_"
            return ok ? Character(scalar) : "_"
        })
        return cleaned.first.map { $0.isNumber } ?? true ? prefix + cleaned : cleaned
    }

    /// A name valid in the format (`[A-Za-z_][A-Za-z0-9_]*`), unique in the system.
    mutating func uniqueName(_ base: String) -> String {
        let cleaned = Self.identifier(base, prefix: "v_")
        var name = cleaned
        var n = 2
        while usedNames.contains(name) {
            name = "\(cleaned)_\(n)"
            n += 1
        }
        usedNames.insert(name)
        return name
    }

    mutating func add(_ item: AssemblyItem) -> Int {
        items.append(item)
        return items.count - 1
    }

    /// Appends a constraint with an ID made unique (IDs never look like a default `c<N>`).
    mutating func add(id base: String, _ first: (Int, Attribute), _ relation: Relation,
                      multiplier: NumericLiteral = .one, _ second: (Int, Attribute)?,
                      constant: NumericLiteral = .zero, priority: Priority = .required) {
        let id = uniqueConstraintID(base)
        constraints.append(Constraint(
            id: id, first: AttributeReference(item: first.0, attribute: first.1), relation: relation,
            multiplier: multiplier, second: second.map { AttributeReference(item: $0.0, attribute: $0.1) },
            constant: constant, priority: priority))
    }

    mutating func uniqueConstraintID(_ base: String) -> String {
        var cleaned = Self.identifier(base, prefix: "k_")
        // `c` followed by digits only is a default name; keep clear of it.
        if cleaned.first == "c", cleaned.dropFirst().allSatisfy(\.isNumber) { cleaned = "k_" + cleaned }
        var id = cleaned
        var n = 2
        while usedConstraintIDs.contains(id) || usedNames.contains(id) {
            id = "\(cleaned)_\(n)"
            n += 1
        }
        usedConstraintIDs.insert(id)
        return id
    }

    /// The system: the root with its stored size, the views in item order (with their
    /// intrinsic constraints), then the constraints in the order they were added.
    func system(name: String) -> ConstraintSystem {
        let root = items[0]
        let size = root.storedLocal ?? IBRect(x: 0, y: 0, width: 0, height: 0)
        var system = ConstraintSystem(
            name: name, rootName: root.name,
            frame: [.zero, .zero, NumericLiteral(size.width), NumericLiteral(size.height)],
            margins: root.margins)
        for item in items.dropFirst() {
            system.addView(Item(
                name: item.name, parent: item.parent, intrinsic: item.intrinsic, hugging: item.hugging,
                resistance: item.resistance, baselines: item.baselines, margins: item.margins))
        }
        system.constraints += constraints
        return system
    }

    /// The parent chain of an item, nearest first (the item itself excluded).
    func ancestors(of index: Int) -> [Int] {
        var chain: [Int] = []
        var cursor = items[index].parent
        while let c = cursor {
            chain.append(c)
            cursor = items[c].parent
        }
        return chain
    }

    func _checkInvariants() {
        #if DEBUG
        precondition(items.first?.parent == nil, "item 0 is the root")
        for (i, item) in items.enumerated().dropFirst() {
            precondition(item.parent.map { $0 < i } == true, "\(item.name): parents are declared first")
        }
        for c in constraints {
            precondition(c.first.item < items.count && (c.second?.item ?? 0) < items.count, "constraints name existing items")
        }
        #endif
    }
}
