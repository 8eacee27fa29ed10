/// Where a ``SlotIndexedSet`` keeps each element's slot: a field of the element's own record
/// (elements are indices into an array of records).
///
/// The slot lives in the record rather than in the set so that code reading a record anyway
/// (a tableau symbol's state) reads its membership with it, and a small owner allocates no
/// per-element array for it.
protocol SlotField {
    associatedtype Record
    /// The element's place in the set's members, or -1 when it is not a member.
    static func slot(in record: Record) -> Int32
    static func setSlot(_ slot: Int32, in record: inout Record)
}

/// A set of small non-negative integers (indices into an array of records) with O(1)
/// insertion, removal and membership, and its members in a plain array for iteration.
///
/// Each member's index in ``members`` is kept in its record (``SlotField``), so removal swaps
/// the last member into the freed place. The order of members is therefore arbitrary but
/// deterministic: it depends only on the sequence of insertions and removals.
///
/// Complexity: `insert`, `remove` and `contains` O(1); iteration O(count); `replaceMembers`
/// O(old count + new count). Every method that needs a slot takes the records; the set owns
/// only its members.
struct SlotIndexedSet<Field: SlotField>: Sendable, RandomAccessCollection {
    /// The members, each at the slot its record names.
    private(set) var members: [Int] = []

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { members.count }
    subscript(position: Int) -> Int { members[position] }

    mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    /// Whether `element` is a member, by its record's slot.
    @inline(__always)
    func contains(_ element: Int, in records: [Field.Record]) -> Bool { Field.slot(in: records[element]) >= 0 }

    /// Adds `element` (not a member) at the end.
    @inline(__always)
    mutating func insert(_ element: Int, records: inout [Field.Record]) {
        Field.setSlot(Int32(truncatingIfNeeded: members.count), in: &records[element])
        members.append(element)
    }

    /// Removes `element` if it is a member, moving the last member into its slot.
    @inline(__always)
    mutating func remove(_ element: Int, records: inout [Field.Record]) {
        let slot = Field.slot(in: records[element])
        guard slot >= 0 else { return }
        let last = members.removeLast()
        if last != element {
            members[Int(slot)] = last
            Field.setSlot(slot, in: &records[last])
        }
        Field.setSlot(-1, in: &records[element])
    }

    /// Inserts or removes `element` so that its membership is `wanted`.
    @inline(__always)
    mutating func update(_ element: Int, to wanted: Bool, records: inout [Field.Record]) {
        let slot = Field.slot(in: records[element])
        if wanted && slot < 0 {
            insert(element, records: &records)
        } else if !wanted && slot >= 0 {
            remove(element, records: &records)
        }
    }

    /// Makes `saved` the members, in its order (a rollback). The slots of the current members
    /// below `recordCount` are cleared first; records from `recordCount` on are about to be
    /// dropped by the caller and are left alone.
    mutating func replaceMembers(with saved: [Int], recordCount: Int, records: inout [Field.Record]) {
        for element in members where element < recordCount { Field.setSlot(-1, in: &records[element]) }
        members.removeAll(keepingCapacity: true)
        members.append(contentsOf: saved)
        for (slot, element) in members.enumerated() { Field.setSlot(Int32(truncatingIfNeeded: slot), in: &records[element]) }
    }

    /// Every broken rule, one line each, named by `name`: each member is in range and its
    /// record names its slot, and each record that names a slot is the member there.
    func invariantViolations(_ name: String, records: [Field.Record]) -> [String] {
        var violations: [String] = []
        for (slot, element) in members.enumerated() {
            guard element >= 0 && element < records.count else { violations.append("\(name) member \(element) out of range"); continue }
            if Int(Field.slot(in: records[element])) != slot { violations.append("\(name) slot of \(element)") }
        }
        for element in records.indices {
            let slot = Int(Field.slot(in: records[element]))
            if slot >= 0 && (slot >= members.count || members[slot] != element) {
                violations.append("\(element) records \(name) slot \(slot) that holds another")
            }
        }
        return violations
    }

    /// Traps naming every broken rule of ``invariantViolations(_:records:)``.
    func _checkInvariants(records: [Field.Record]) {
        let violations = invariantViolations("set", records: records)
        precondition(violations.isEmpty, violations.joined(separator: "; "))
    }
}
