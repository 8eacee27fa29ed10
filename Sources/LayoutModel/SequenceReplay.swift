/// Applies update steps (spec §7) to a system, one at a time, checking each and reporting
/// what changed in terms of positions (``SystemChange``).
///
/// The replay is the one place where steps get their meaning: the parser validates a file's
/// steps by applying them, ``UpdateSequence`` materialises passes with it, and incremental
/// backends follow its changes. ``current`` is always a valid system that names every
/// constraint by its stable name: default names `c<N>` count every constraint ever added,
/// so once a removal has moved a constraint away from position N, the replay gives it the
/// explicit ID `c<N>` (a constraint with an explicit ID has no default name, so this cannot
/// collide). A pass's result therefore reports the names the file uses.
///
/// A step that fails leaves the replay unchanged. Steps change ``current`` in place: a copy of
/// it kept across ``apply(_:)`` makes each step copy the whole system.
public struct SequenceReplay: Sendable {
    /// The system as it stands after the steps applied so far.
    public private(set) var current: ConstraintSystem
    /// The file name errors carry.
    public let file: String
    public let rules: ValidationRules

    /// `numbers[i]` is the 1-based number of `current.constraints[i]` among every constraint
    /// ever added (ascending, since constraints are only appended and removed).
    private var numbers: [Int]
    /// Every constraint at this index or after it has an explicit ID (given by the replay once
    /// a removal before it moved it off its number, or by the file).
    private var namedFrom: Int
    private var addedConstraints: Int
    /// Every explicit ID ever given, to its constraint's number (removed ones stay: names are
    /// never reused).
    private var numberOfID: [String: Int]
    /// The explicit ID of a constraint number, and where it was written.
    private var idOfNumber: [Int: (id: String, location: SourceLocation?)]

    /// `itemSerials[i]` is the serial of `current.items[i]` (the root's is 0; ascending).
    private var itemSerials: [Int]
    private var addedItems: Int
    /// Every item name ever declared, to its serial.
    private var serialOfName: [String: Int]
    /// The numbers of each view's hugging and resistance constraints, by serial.
    private var intrinsicNumbers: [Int: AxisPair<IntrinsicPair?>]
    /// Steps applied (debug builds check the invariants by it).
    private var appliedSteps = 0

    /// The numbers of one axis's content-hugging and compression-resistance constraints.
    struct IntrinsicPair: Sendable, Hashable, Codable {
        var hug: Int
        var resist: Int
    }

    /// A replay starting from `initial`, which is validated first (structure and rules), and
    /// whose intrinsic constraints must match its items as ``ConstraintSystem/addView(_:source:)``
    /// makes them (so `set ITEM intrinsic` knows which constraints to change).
    ///
    /// - Parameter idLocations: where the initial system's IDs were written, for errors.
    public init(
        initial: ConstraintSystem, file: String = "<sequence>", rules: ValidationRules = .runtime,
        idLocations: [String: SourceLocation] = [:]
    ) throws(LayoutError) {
        if let issue = initial.validate(rules: rules).first {
            throw LayoutError(
                file: file, location: issue.location ?? .unknown, kind: issue.kind,
                message: issue.path.components.isEmpty ? issue.message : "\(issue.path): \(issue.message)")
        }
        try self.init(validated: initial, file: file, rules: rules, idLocations: idLocations)
    }

    /// A replay from a system the caller has validated (the parser has, line by line).
    init(validated initial: ConstraintSystem, file: String, rules: ValidationRules, idLocations: [String: SourceLocation])
        throws(LayoutError)
    {
        current = initial
        self.file = file
        self.rules = rules
        numbers = initial.constraints.indices.map { $0 + 1 }
        namedFrom = initial.constraints.count
        addedConstraints = initial.constraints.count
        numberOfID = [:]
        idOfNumber = [:]
        for (index, constraint) in initial.constraints.enumerated() {
            guard let id = constraint.id else { continue }
            numberOfID[id] = index + 1
            idOfNumber[index + 1] = (id, idLocations[id])
        }
        itemSerials = Array(initial.items.indices)
        addedItems = initial.items.count
        serialOfName = [:]
        for (index, item) in initial.items.enumerated() { serialOfName[item.name] = index }
        intrinsicNumbers = [:]
        try indexIntrinsicConstraints()
        #if DEBUG
        _checkInvariants()
        #endif
    }

    // MARK: Names

    /// What a constraint name stands for now.
    enum ConstraintLookup {
        case live(Int)
        case removed
        case unknown(hint: String)
    }

    func lookUpConstraint(_ name: String) -> ConstraintLookup {
        var number = numberOfID.isEmpty ? nil : numberOfID[name]
        var hint = ""
        if number == nil, let n = Self.defaultNumber(name), n <= addedConstraints {
            if let named = idOfNumber[n] {
                hint = "; constraint \(n) has the ID '\(named.id)' and no default name"
            } else {
                number = n
            }
        }
        guard let number else { return .unknown(hint: hint) }
        return index(ofNumber: number).map { .live($0) } ?? .removed
    }

    /// The number N of a default name `c<N>` (``ConstraintSystem/defaultNameIndex(_:)`` + 1),
    /// read from the bytes; nil for any other name and for numbers of 19 digits or more (no
    /// replay adds that many constraints). A step names its constraint on every pass: the
    /// generic integer parse and the round trip through a string were most of a drag step.
    static func defaultNumber(_ name: String) -> Int? {
        var name = name
        return name.withUTF8 { bytes -> Int? in
            guard bytes.count >= 2, bytes.count <= 19, bytes[0] == UInt8(ascii: "c"), bytes[1] != UInt8(ascii: "0") else { return nil }
            var number = 0
            for byte in bytes[1...] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                number = number &* 10 &+ Int(byte &- UInt8(ascii: "0"))
            }
            return number
        }
    }

    /// The index of the constraint named `name` (ID or default name), or an error at `location`.
    public func constraintIndex(named name: String, at location: SourceLocation?) throws(LayoutError) -> Int {
        switch lookUpConstraint(name) {
        case .live(let index): return index
        case .removed:
            throw error("constraint '\(name)' was removed; names are never reused", .removedName, at: location)
        case .unknown(let hint):
            throw error("no constraint named '\(name)'\(hint)", .undeclaredName, at: location)
        }
    }

    /// The index of the item named `name`, or an error at `location`.
    public func itemIndex(named name: some StringProtocol, at location: SourceLocation?) throws(LayoutError) -> ItemIndex {
        guard let serial = serialOfName[String(name)] else {
            throw error("undeclared item '\(name)'", .undeclaredName, at: location)
        }
        guard let index = Self.position(of: serial, in: itemSerials) else {
            throw error("item '\(name)' was removed; names are never reused", .removedName, at: location)
        }
        return index
    }

    /// Checks that `name` may name a new view: unused, and never used before.
    public func checkNewItemName(_ name: some StringProtocol, at location: SourceLocation?) throws(LayoutError) {
        guard ConstraintSystem.isValidName(String(name)) else {
            throw error("'\(name)' is not a name ([A-Za-z_][A-Za-z0-9_]*)", .syntax, at: location)
        }
        guard let serial = serialOfName[String(name)] else { return }
        if Self.position(of: serial, in: itemSerials) != nil {
            throw error("'\(name)' is already declared", .duplicateName, at: location)
        }
        throw error("'\(name)' names a removed item; names are never reused", .removedName, at: location)
    }

    /// The stable name of `current.constraints[index]`.
    public func constraintName(_ index: Int) -> String { current.constraintName(index) }

    private func index(ofNumber number: Int) -> Int? { Self.position(of: number, in: numbers) }

    /// Binary search in an ascending array.
    private static func position(of value: Int, in sorted: [Int]) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == value ? low : nil
    }

    private func error(_ message: String, _ kind: LayoutError.Kind, at location: SourceLocation?) -> LayoutError {
        LayoutError(file: file, location: location ?? .unknown, kind: kind, message: message)
    }

    // MARK: Applying steps

    /// Applies one step and reports what changed. On error, nothing changes.
    @discardableResult
    public mutating func apply(_ step: UpdateStep) throws(LayoutError) -> [SystemChange] {
        var changes: [SystemChange] = []
        try apply(step, appendingTo: &changes)
        return changes
    }

    /// Applies one step and appends what changed to `changes` (a buffer an incremental
    /// backend keeps across steps: no array is made per step). On error, nothing changes,
    /// `changes` included.
    public mutating func apply(_ step: UpdateStep, appendingTo changes: inout [SystemChange]) throws(LayoutError) {
        let count = changes.count
        do throws(LayoutError) {
            switch step.action {
            case .setConstant(let name, let value): try setConstant(name, value, step.source, &changes)
            case .setIntrinsic(let name, let size): try setIntrinsic(name, size, step.source, &changes)
            case .setPriority(let name, let priority): try setPriority(name, priority, step.source, &changes)
            case .setRootSize(let width, let height): try setRootSize(width, height, step.source, &changes)
            case .removeConstraint(let name): try removeConstraint(name, step.source, &changes)
            case .removeView(let name): try removeView(name, step.source, &changes)
            case .addView(let view): try addView(view, step.source, &changes)
            case .addConstraint(let constraint): try addConstraint(constraint, step.source, &changes)
            }
        } catch {
            changes.removeSubrange(count...)
            throw error
        }
        #if DEBUG
        // Every step on systems of a usual size; on large ones (the check walks the whole
        // system) every 64th, so that debug test runs of long sequences stay linear.
        appliedSteps += 1
        if current.constraints.count + current.items.count <= 4_096 || appliedSteps % 64 == 0 { _checkInvariants() }
        #endif
    }

    /// Every explicit ID that takes another constraint's default name `c<N>` (constraint N
    /// having none of its own) is an error, reported at the ID. The parser asks once the whole
    /// file has been read, since a later line may add constraint N.
    public func checkDefaultNameCollisions() throws(LayoutError) {
        for number in idOfNumber.keys.sorted() {
            guard let (id, location) = idOfNumber[number],
                  let n = ConstraintSystem.defaultNameIndex(id).map({ $0 + 1 }),
                  n != number, n <= addedConstraints, idOfNumber[n] == nil else { continue }
            throw error("constraint ID '\(id)' collides with the default name of constraint \(n)", .duplicateName, at: location)
        }
    }

    private func checkRepresentable(_ values: [(NumericLiteral, SourceLocation?)]) throws(LayoutError) {
        for (value, location) in values where !value.isRepresentable {
            throw error("number \(value) is out of Double's range", .numberOutOfRange, at: location)
        }
    }

    /// Which intrinsic constraint this is: the view, the axis, and hug (`<=`) or resist.
    private func intrinsicRole(of constraint: Constraint) -> (item: ItemIndex, axis: Attribute.Axis, isHug: Bool)? {
        guard constraint.origin == .intrinsic else { return nil }
        return (constraint.first.item, constraint.first.attribute.axis, constraint.relation == .lessThanOrEqual)
    }

    private func intrinsicDescription(_ constraint: Constraint) -> String {
        guard let role = intrinsicRole(of: constraint) else { return "" }
        return "view '\(current.items[role.item].name)''s \(role.isHug ? "content hugging" : "compression resistance")"
    }

    private mutating func setConstant(_ name: String, _ value: NumericLiteral, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let index = try constraintIndex(named: name, at: source?.target)
        // Field by field, no copy of the constraint and no array for the check: a drag
        // step is this and nothing else.
        if current.constraints[index].origin == .intrinsic {
            let constraint = current.constraints[index]
            throw error(
                "'\(name)' is \(intrinsicDescription(constraint)); its constant follows the intrinsic size (set \(current.items[constraint.first.item].name) intrinsic W H)",
                .invalidUpdate, at: source?.target)
        }
        if !value.isRepresentable { try checkRepresentable([(value, source?.value(0))]) }
        let old = current.constraints[index].constant
        current.constraints[index].constant = value
        changes.append(.constantChanged(index: index, from: old, to: value))
    }

    private mutating func setPriority(_ name: String, _ priority: Priority, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let index = try constraintIndex(named: name, at: source?.target)
        let constraint = current.constraints[index]
        try checkRepresentable([(priority.value, source?.value(0))])
        guard priority.isInRange else {
            throw error("V5: priority \(priority) is not in (0, 1000]", .v5OutOfRange, at: source?.value(0))
        }
        if constraint.priority.isRequired {
            throw error(
                "'\(name)' is required; a priority may not move from 1000 (remove the constraint and add it again)",
                .invalidUpdate, at: source?.target)
        }
        if priority.isRequired {
            throw error(
                "a priority may not move to 1000 (required); remove '\(name)' and add it again",
                .invalidUpdate, at: source?.value(0))
        }
        current.constraints[index].priority = priority
        if let role = intrinsicRole(of: constraint) {
            // setContentHuggingPriority / setContentCompressionResistancePriority.
            if role.isHug {
                current.items[role.item].hugging[role.axis] = priority
            } else {
                current.items[role.item].resistance[role.axis] = priority
            }
        }
        changes.append(.priorityChanged(index: index, from: constraint.priority, to: priority))
    }

    private mutating func setRootSize(_ width: NumericLiteral, _ height: NumericLiteral, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        try checkRepresentable([(width, source?.value(0)), (height, source?.value(1))])
        let frame = current.root.frame ?? [.zero, .zero, .zero, .zero]
        current.setRootFrame([frame[0], frame[1], width, height])
        changes.append(.rootResized(
            from: AxisPair(horizontal: frame[2], vertical: frame[3]), to: AxisPair(horizontal: width, vertical: height)))
    }

    private mutating func removeConstraint(_ name: String, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let index = try constraintIndex(named: name, at: source?.target)
        let constraint = current.constraints[index]
        if constraint.origin == .intrinsic {
            let view = current.items[constraint.first.item].name
            throw error(
                "'\(name)' is \(intrinsicDescription(constraint)); it goes with the intrinsic size (set \(view) intrinsic with '-', or remove view \(view))",
                .invalidUpdate, at: source?.target)
        }
        removeConstraints(at: [index])
        changes.append(.constraintsRemoved([index]))
    }

    private mutating func removeView(_ name: String, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let view = try itemIndex(named: name, at: source?.target)
        if view == 0 { throw error("the root cannot be removed", .invalidUpdate, at: source?.target) }
        // Parents come before their children, so one pass marks the subtree.
        var removed = [Bool](repeating: false, count: current.items.count)
        removed[view] = true
        for index in (view + 1)..<current.items.count {
            if let parent = current.items[index].parent, removed[parent] { removed[index] = true }
        }
        let items = removed.indices.filter { removed[$0] }
        let constraints = current.constraints.indices.filter { i in
            removed[current.constraints[i].first.item] || current.constraints[i].second.map { removed[$0.item] } == true
        }
        for item in items { intrinsicNumbers[itemSerials[item]] = nil }
        if !constraints.isEmpty {
            removeConstraints(at: constraints)
            changes.append(.constraintsRemoved(constraints))
        }
        removeItems(at: items)
        changes.append(.itemsRemoved(items))
    }

    private mutating func addView(_ view: NewView, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let at = source?.target ?? source?.start
        try checkNewItemName(view.name, at: at)
        let parent = try view.parent.map { (p) throws(LayoutError) in try itemIndex(named: p, at: source?.value(0) ?? at) } ?? 0
        let item = view.item(parent: parent)
        var literals = [item.margins.top, item.margins.left, item.margins.bottom, item.margins.right]
        literals += [item.intrinsic.horizontal, item.intrinsic.vertical].compactMap { $0 }
        if let b = item.baselines { literals += [b.first, b.last] }
        try checkRepresentable(literals.map { ($0, at) })
        for p in [item.hugging.horizontal, item.hugging.vertical, item.resistance.horizontal, item.resistance.vertical] {
            try checkRepresentable([(p.value, at)])
            if !p.isInRange { throw error("V5: priority \(p) is not in (0, 1000]", .v5OutOfRange, at: at) }
        }
        let index = current.items.count
        current.items.append(item)
        addedItems += 1
        itemSerials.append(addedItems - 1)
        serialOfName[item.name] = addedItems - 1
        changes.append(.itemAdded(index))
        let generated = ConstraintSystem.intrinsicConstraints(of: item, at: index, source: at)
        if !generated.isEmpty {
            let range = appendConstraints(generated)
            recordIntrinsic(of: index, axes: [.horizontal, .vertical].filter { item.intrinsic[$0] != nil }, firstNumber: numbers(of: range).lowerBound)
            changes.append(.constraintsAppended(range))
        }
    }

    private mutating func addConstraint(_ new: NewConstraint, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let at = source?.start
        if new.origin == .intrinsic {
            throw error("an intrinsic constraint comes only with its view's intrinsic size", .invalidUpdate, at: at)
        }
        let first = try itemIndex(named: new.first.item, at: new.source?.first ?? at)
        let second = try new.second.map { (ref) throws(LayoutError) in
            AttributeReference(item: try itemIndex(named: ref.item, at: new.source?.second ?? at), attribute: ref.attribute)
        }
        if let id = new.id {
            let idAt = new.idLocation ?? at
            guard ConstraintSystem.isValidName(id) else {
                throw error("constraint ID '\(id)' is not a name ([A-Za-z_][A-Za-z0-9_]*)", .syntax, at: idAt)
            }
            if let number = numberOfID[id] {
                if index(ofNumber: number) != nil {
                    throw error("constraint ID '\(id)' is already used", .duplicateName, at: idAt)
                }
                throw error("constraint ID '\(id)' names a removed constraint; names are never reused", .removedName, at: idAt)
            }
            if let n = ConstraintSystem.defaultNameIndex(id).map({ $0 + 1 }), n <= addedConstraints,
               idOfNumber[n] == nil, index(ofNumber: n) == nil {
                throw error("constraint ID '\(id)' is the name of removed constraint \(n); names are never reused", .removedName, at: idAt)
            }
        }
        try checkRepresentable([
            (new.multiplier, new.source?.multiplier ?? at), (new.constant, new.source?.constant ?? at),
            (new.priority.value, new.source?.priority ?? at),
        ])
        let constraint = Constraint(
            id: new.id, first: AttributeReference(item: first, attribute: new.first.attribute), relation: new.relation,
            multiplier: new.multiplier, second: second, constant: new.constant, priority: new.priority,
            origin: new.origin, source: new.source)
        if let v = constraint.ruleViolation(items: current.items, rules: rules) {
            throw error(v.message, v.kind, at: v.location ?? at)
        }
        let range = appendConstraints([constraint], idLocation: new.idLocation)
        changes.append(.constraintsAppended(range))
    }

    private mutating func setIntrinsic(_ name: String, _ size: AxisPair<NumericLiteral?>, _ source: StepSource?, _ changes: inout [SystemChange]) throws(LayoutError) {
        let view = try itemIndex(named: name, at: source?.target)
        if view == 0 {
            throw error("the root has a fixed frame and no intrinsic size (set root W H)", .invalidUpdate, at: source?.target)
        }
        try checkRepresentable([(size.horizontal, source?.value(0)), (size.vertical, source?.value(1))].compactMap { v, l in v.map { ($0, l) } })
        let serial = itemSerials[view]
        var pairs = intrinsicNumbers[serial] ?? AxisPair(horizontal: nil, vertical: nil)
        var removedNumbers: [Int] = []
        var addedAxes: [Attribute.Axis] = []
        for axis in [Attribute.Axis.horizontal, .vertical] {
            switch (pairs[axis], size[axis]) {
            case (let pair?, let metric?):
                for number in [pair.hug, pair.resist] {
                    guard let index = index(ofNumber: number) else { continue }
                    let old = current.constraints[index].constant
                    current.constraints[index].constant = metric
                    changes.append(.constantChanged(index: index, from: old, to: metric))
                }
            case (let pair?, nil):
                removedNumbers += [pair.hug, pair.resist]
                pairs[axis] = nil
            case (nil, _?):
                addedAxes.append(axis)
            case (nil, nil):
                break
            }
        }
        current.items[view].intrinsic = size
        intrinsicNumbers[serial] = pairs
        if !removedNumbers.isEmpty {
            let indices = removedNumbers.compactMap { index(ofNumber: $0) }.sorted()
            removeConstraints(at: indices)
            changes.append(.constraintsRemoved(indices))
        }
        if !addedAxes.isEmpty {
            // Only the new axes: the others keep their constraints where they are.
            var partial = current.items[view]
            for axis in [Attribute.Axis.horizontal, .vertical] where !addedAxes.contains(axis) { partial.intrinsic[axis] = nil }
            let range = appendConstraints(ConstraintSystem.intrinsicConstraints(of: partial, at: view, source: source?.start))
            recordIntrinsic(of: view, axes: addedAxes, firstNumber: numbers(of: range).lowerBound)
            changes.append(.constraintsAppended(range))
        }
        if pairs.horizontal == nil && pairs.vertical == nil && addedAxes.isEmpty { intrinsicNumbers[serial] = nil }
    }

    // MARK: Storage

    /// The numbers of the constraints at `range`.
    private func numbers(of range: Range<Int>) -> Range<Int> {
        range.isEmpty ? addedConstraints..<addedConstraints : numbers[range.lowerBound]..<(numbers[range.upperBound - 1] + 1)
    }

    /// Appends constraints with the next numbers; those whose position no longer gives their
    /// number get it as an explicit ID.
    private mutating func appendConstraints(_ constraints: [Constraint], idLocation: SourceLocation? = nil) -> Range<Int> {
        let start = current.constraints.count
        for var constraint in constraints {
            addedConstraints += 1
            let number = addedConstraints
            if let id = constraint.id {
                numberOfID[id] = number
                idOfNumber[number] = (id, idLocation)
            } else if number != current.constraints.count + 1 {
                constraint.id = "c\(number)"
            }
            numbers.append(number)
            current.constraints.append(constraint)
            if constraint.id == nil { namedFrom = current.constraints.count }
        }
        return start..<current.constraints.count
    }

    /// Records the numbers of a view's new hugging and resistance constraints, appended in
    /// the order width-hug, width-resist, height-hug, height-resist from `firstNumber`.
    private mutating func recordIntrinsic(of view: ItemIndex, axes: [Attribute.Axis], firstNumber: Int) {
        let serial = itemSerials[view]
        var pairs = intrinsicNumbers[serial] ?? AxisPair(horizontal: nil, vertical: nil)
        var number = firstNumber
        for axis in axes {
            pairs[axis] = IntrinsicPair(hug: number, resist: number + 1)
            number += 2
        }
        intrinsicNumbers[serial] = pairs
    }

    /// Removes constraints (ascending indices); the constraints after the first removed one
    /// that had their default name get it as an explicit ID.
    ///
    /// The arrays close up over the removed elements (a move of the ones after them, nothing
    /// copied or retained); names are given once per constraint over the replay's life, since
    /// every constraint past ``namedFrom`` has one already.
    private mutating func removeConstraints(at indices: [Int]) {
        guard let firstRemoved = indices.first else { return }
        if firstRemoved < namedFrom {
            for i in firstRemoved..<namedFrom where current.constraints[i].id == nil {
                current.constraints[i].id = "c\(numbers[i])"
            }
            namedFrom = firstRemoved
        }
        let removed = Self.runs(of: indices)
        if !current.rowScales.isEmpty {
            var scales: [Int: NumericLiteral] = [:]
            for (i, k) in current.rowScales where !removed.contains(where: { $0.contains(i) }) {
                scales[i - indices.prefix { $0 < i }.count] = k
            }
            current.rowScales = scales
        }
        Self.remove(removed, from: &current.constraints)
        Self.remove(removed, from: &numbers)
    }

    /// The runs of consecutive offsets in ascending `offsets`. (Not a `RangeSet`: building one
    /// goes through the runtime's generic metadata, most of a rows-insert-delete step.)
    private static func runs(of offsets: [Int]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        for offset in offsets {
            if let last = runs.last, last.upperBound == offset {
                runs[runs.count - 1] = last.lowerBound..<offset + 1
            } else {
                runs.append(offset..<offset + 1)
            }
        }
        return runs
    }

    /// Removes the elements at ascending, disjoint `runs`: a few one at a time from the back
    /// (each a move of what follows it, nothing copied or retained), many in one pass.
    private static func remove<Element>(_ runs: [Range<Int>], from array: inout [Element]) {
        guard let first = runs.first else { return }
        if runs.count <= 16 {
            for range in runs.reversed() { array.removeSubrange(range) }
            return
        }
        var write = first.lowerBound
        var next = 0
        var read = first.lowerBound
        while read < array.count {
            if next < runs.count && runs[next].lowerBound == read {
                read = runs[next].upperBound
                next += 1
                continue
            }
            array.swapAt(write, read)
            write += 1
            read += 1
        }
        array.removeSubrange(write...)
    }

    /// Removes items (ascending indices, never the root) that no constraint names any more,
    /// renumbering parents and constraint references.
    private mutating func removeItems(at indices: [ItemIndex]) {
        guard let firstRemoved = indices.first else { return }
        var newIndex = Array(current.items.indices)
        var next = 0
        for i in firstRemoved..<current.items.count {
            if next < indices.count && indices[next] == i {
                newIndex[i] = -1
                next += 1
            } else {
                newIndex[i] = i - next
            }
        }
        let removed = Self.runs(of: indices)
        Self.remove(removed, from: &current.items)
        Self.remove(removed, from: &itemSerials)
        for i in firstRemoved..<current.items.count {
            if let parent = current.items[i].parent { current.items[i].parent = newIndex[parent] }
        }
        for i in current.constraints.indices {
            if current.constraints[i].first.item > firstRemoved {
                current.constraints[i].first.item = newIndex[current.constraints[i].first.item]
            }
            if let second = current.constraints[i].second, second.item > firstRemoved {
                current.constraints[i].second?.item = newIndex[second.item]
            }
        }
    }

    /// Finds each view's hugging and resistance constraints, checking that they are exactly
    /// the ones its intrinsic size implies.
    private mutating func indexIntrinsicConstraints() throws(LayoutError) {
        struct Slot: Hashable {
            var view: ItemIndex
            var axis: Attribute.Axis
            var isHug: Bool
        }
        var found: [Slot: Int] = [:]
        // A view's intrinsic rows come together: its expected rows are built once for them
        // (once per row was most of reading a 1,000-view sequence's first system).
        var expectedView = -1
        var expectedRows: [Constraint] = []
        for (index, constraint) in current.constraints.enumerated() where constraint.origin == .intrinsic {
            let view = constraint.first.item
            let axis = constraint.first.attribute.axis
            let item = current.items[view]
            let slot = Slot(view: view, axis: axis, isHug: constraint.relation == .lessThanOrEqual)
            if view != expectedView {
                expectedView = view
                expectedRows = ConstraintSystem.intrinsicConstraints(of: item, at: view)
            }
            let expected = expectedRows.first { $0.first.attribute.axis == axis && ($0.relation == .lessThanOrEqual) == slot.isHug }
            guard view != 0, constraint.second == nil, constraint.first.attribute.isSize, constraint.relation != .equal,
                  let expected, expected.constant == constraint.constant, expected.priority == constraint.priority,
                  found[slot] == nil
            else {
                throw error(
                    "constraint \(current.constraintName(index)) is marked intrinsic but is not one of view '\(item.name)''s hugging and resistance constraints for its intrinsic size",
                    .malformedSystem, at: constraint.source?.first)
            }
            found[slot] = index + 1
        }
        for (view, item) in current.items.enumerated().dropFirst() {
            var pairs = AxisPair<IntrinsicPair?>(horizontal: nil, vertical: nil)
            for axis in [Attribute.Axis.horizontal, .vertical] where item.intrinsic[axis] != nil {
                guard let hug = found[Slot(view: view, axis: axis, isHug: true)],
                      let resist = found[Slot(view: view, axis: axis, isHug: false)] else {
                    throw error(
                        "\(FieldPath.item(view)): view '\(item.name)' has an intrinsic \(axis == .horizontal ? "width" : "height") but not its hugging and resistance constraints",
                        .malformedSystem, at: nil)
                }
                pairs[axis] = IntrinsicPair(hug: hug, resist: resist)
            }
            if pairs.horizontal != nil || pairs.vertical != nil { intrinsicNumbers[view] = pairs }
        }
    }

    /// Checks the bookkeeping against the system (debug builds run it after every step, or
    /// every 64th on systems of more than 4,096 constraints and items).
    public func _checkInvariants() {
        let constraints = current.constraints
        precondition(numbers.count == constraints.count, "one number per constraint")
        precondition(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "numbers ascend")
        precondition(numbers.last.map { $0 <= addedConstraints } ?? true, "numbers are of added constraints")
        for (i, c) in constraints.enumerated() {
            precondition(c.id != nil || numbers[i] == i + 1, "a constraint without ID sits at its number")
            precondition(c.id != nil || i < namedFrom, "every constraint from namedFrom on has an ID")
            precondition(current.items.indices.contains(c.first.item), "constraints name live items")
            precondition(c.second.map { current.items.indices.contains($0.item) } ?? true, "constraints name live items")
        }
        precondition(itemSerials.count == current.items.count && itemSerials.first == 0, "one serial per item, root first")
        precondition(zip(itemSerials, itemSerials.dropFirst()).allSatisfy { $0 < $1 }, "serials ascend")
        precondition(current.items[0].parent == nil, "the root has no parent")
        for (i, item) in current.items.enumerated().dropFirst() {
            precondition(item.parent.map { $0 >= 0 && $0 < i } == true, "parents come first")
            precondition(serialOfName[item.name] == itemSerials[i], "names find their items")
        }
        var intrinsicCount = 0
        for (serial, pairs) in intrinsicNumbers {
            guard let view = Self.position(of: serial, in: itemSerials) else { preconditionFailure("intrinsic numbers of a removed view") }
            for axis in [Attribute.Axis.horizontal, .vertical] {
                precondition((pairs[axis] != nil) == (current.items[view].intrinsic[axis] != nil), "intrinsic axes match the item")
                guard let pair = pairs[axis] else { continue }
                for number in [pair.hug, pair.resist] {
                    guard let index = index(ofNumber: number) else { preconditionFailure("intrinsic constraint removed") }
                    precondition(constraints[index].origin == .intrinsic && constraints[index].first.item == view, "intrinsic constraint of its view")
                    precondition(constraints[index].constant == current.items[view].intrinsic[axis], "intrinsic constant is the metric")
                }
                intrinsicCount += 2
            }
        }
        precondition(intrinsicCount == constraints.lazy.filter { $0.origin == .intrinsic }.count, "every intrinsic constraint is indexed")
    }
}

extension SourceLocation {
    /// The position of something that was not read from a file (line 0, printed without a
    /// position).
    public static let unknown = SourceLocation(line: 0, column: 0)
}
