/// Amounts per priority level, compared lexicographically: level 1 outranks level 2 outright.
///
/// This is the paper's symbolic weight. Kiwi and its ports pack strengths into one `Double`
/// (a·10⁶ + b·10³ + c), so enough weak errors outweigh a strong one; here a reduced cost is a
/// sparse vector over levels and is never collapsed to a number. Entries are sorted by level
/// and none is zero.
///
/// Almost every reduced cost has one or two entries, and every symbol carries one, so the
/// first two entries are stored inline and only a third one allocates: a solver of a dozen
/// constraints (one table cell) would otherwise spend more on allocating vectors than on
/// pivoting.
struct LexVector: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var level: Int32
        var value: Double

        init(level: Int32, value: Double) {
            self.level = level
            self.value = value
        }
    }

    /// The number of entries (32 bits: with the inline levels packed beside it, a vector is
    /// 40 bytes, and every symbol and journal entry carries one).
    private var storedCount: Int32 = 0
    private var firstLevel: Int32 = 0
    private var secondLevel: Int32 = 0
    private var firstValue = 0.0
    private var secondValue = 0.0
    /// Entries after the second.
    private var tail: [Entry] = []

    /// The number of entries.
    var count: Int {
        @inline(__always) get { Int(storedCount) }
        @inline(__always) set { storedCount = Int32(truncatingIfNeeded: newValue) }
    }

    private var first: Entry {
        @inline(__always) get { Entry(level: firstLevel, value: firstValue) }
        @inline(__always) set { firstLevel = newValue.level; firstValue = newValue.value }
    }

    private var second: Entry {
        @inline(__always) get { Entry(level: secondLevel, value: secondValue) }
        @inline(__always) set { secondLevel = newValue.level; secondValue = newValue.value }
    }

    init() {}

    /// A vector of at most two entries, as plain values: what the journal of an addition
    /// keeps, so that its entries own no storage (almost every reduced cost fits).
    struct Inline: Sendable {
        fileprivate var count: Int32
        fileprivate var firstLevel: Int32
        fileprivate var secondLevel: Int32
        fileprivate var firstValue: Double
        fileprivate var secondValue: Double
    }

    /// The vector as ``Inline``, or nil when it has more than two entries.
    var inline: Inline? {
        storedCount <= 2
            ? Inline(count: storedCount, firstLevel: firstLevel, secondLevel: secondLevel, firstValue: firstValue, secondValue: secondValue)
            : nil
    }

    init(_ inline: Inline) {
        storedCount = inline.count
        firstLevel = inline.firstLevel
        secondLevel = inline.secondLevel
        firstValue = inline.firstValue
        secondValue = inline.secondValue
    }

    init(level: Int32, value: Double) {
        count = 1
        first = Entry(level: level, value: value)
    }

    var isZero: Bool { count == 0 }

    @inline(__always)
    subscript(index: Int) -> Entry {
        get {
            switch index {
            case 0: return first
            case 1: return second
            default: return tail[index - 2]
            }
        }
        set {
            switch index {
            case 0: first = newValue
            case 1: second = newValue
            default: tail[index - 2] = newValue
            }
        }
    }

    /// The entries in level order.
    var entries: [Entry] { (0..<count).map { self[$0] } }

    @inline(__always)
    private mutating func append(_ entry: Entry) {
        switch count {
        case 0: first = entry
        case 1: second = entry
        default: tail.append(entry)
        }
        count += 1
    }

    /// The sign of the first entry (0 when there is none). Entries that are cancellation
    /// residue were dropped where they were computed (``add(_:times:)``): what is left is a
    /// number, however small — the 5e-10 per unit by which a strong error grows when a
    /// weaker one shrinks through a multiplier of 1e9 is a cost, not noise.
    var sign: Int {
        // No entry is zero, so the first decides; the loop stays for a vector built otherwise.
        if storedCount > 0 && firstValue != 0 { return firstValue > 0 ? 1 : -1 }
        for index in 0..<count {
            let entry = self[index]
            if entry.value > 0 { return 1 }
            if entry.value < 0 { return -1 }
        }
        return 0
    }

    /// `self += factor · other`; an entry that is cancellation residue of its two summands
    /// (``Tolerance/isCancelled(_:of:)``) is removed, so cancellation leaves no residue for
    /// later comparisons to trip on.
    ///
    /// A one-entry `other` (an error's own cost: by far the most common) is added in place:
    /// a binary search for its level, then an update, an insertion or a removal. Merging it
    /// into a copy made every such addition as long as `self`, and a reduced cost spans as
    /// many levels as the errors whose rows reach it (one per level on a view with 3,000
    /// priority levels).
    mutating func add(_ other: LexVector, times factor: Double) {
        if other.count == 0 || factor == 0 { return }
        if other.count == 1 {
            addEntry(level: other.firstLevel, value: factor * other.firstValue)
            return
        }
        var merged = LexVector()
        if count + other.count > 2 { merged.tail.reserveCapacity(count + other.count - 2) }
        var i = 0
        var j = 0
        while i < count || j < other.count {
            let entry: Entry
            var magnitude: Double
            if j == other.count || (i < count && self[i].level < other[j].level) {
                entry = self[i]
                magnitude = 0
                i += 1
            } else if i == count || other[j].level < self[i].level {
                entry = Entry(level: other[j].level, value: factor * other[j].value)
                magnitude = 0
                j += 1
            } else {
                let added = factor * other[j].value
                entry = Entry(level: self[i].level, value: self[i].value + added)
                magnitude = Swift.max(abs(self[i].value), abs(added))
                i += 1
                j += 1
            }
            if entry.value != 0 && !Tolerance.isCancelled(entry.value, of: magnitude) { merged.append(entry) }
        }
        self = merged
    }

    /// `self += added` at `level` (the same rule as ``add(_:times:)``: a sum that is
    /// cancellation residue of its two summands is removed), in place.
    private mutating func addEntry(level: Int32, value added: Double) {
        // The two commonest cases first: an empty vector, and one entry at the same level.
        if count == 0 {
            if added != 0 { first = Entry(level: level, value: added); count = 1 }
            return
        }
        if count == 1 && firstLevel == level {
            let sum = firstValue + added
            if Tolerance.isCancelled(sum, of: Swift.max(abs(firstValue), abs(added))) { remove(at: 0) } else { firstValue = sum }
            return
        }
        let low = position(of: level)
        if low < count && self[low].level == level {
            let old = self[low].value
            let sum = old + added
            if sum == 0 || Tolerance.isCancelled(sum, of: Swift.max(abs(old), abs(added))) {
                remove(at: low)
            } else {
                self[low].value = sum
            }
        } else if added != 0 {
            insert(Entry(level: level, value: added), at: low)
        }
    }

    /// The place of the first entry at `level` or above (entries are sorted by level; a
    /// level past the last, the common case when rows arrive strongest first, is found at once).
    private func position(of level: Int32) -> Int {
        var low = 0
        var high = count
        if high > 0 && self[high - 1].level < level { return high }
        while low < high {
            let middle = (low + high) / 2
            if self[middle].level < level { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The entry at `level` (0 when there is none).
    func value(atLevel level: Int32) -> Double {
        let index = position(of: level)
        return index < count && self[index].level == level ? self[index].value : 0
    }

    /// Sets the entry at `level` to exactly `value`, removing it for 0 (what a rollback of
    /// one ``add(_:times:)`` of a one-entry vector needs: the journal keeps that entry, not
    /// a copy of a vector as long as the levels).
    mutating func setValue(_ value: Double, atLevel level: Int32) {
        let index = position(of: level)
        if index < count && self[index].level == level {
            if value == 0 { remove(at: index) } else { self[index].value = value }
        } else if value != 0 {
            insert(Entry(level: level, value: value), at: index)
        }
    }

    /// The level of the only entry of a one-entry vector (nil otherwise).
    var singleLevel: Int32? { storedCount == 1 ? firstLevel : nil }

    private mutating func insert(_ entry: Entry, at index: Int) {
        if index >= 2 {
            tail.insert(entry, at: index - 2)
        } else {
            if count >= 2 { tail.insert(second, at: 0) }
            if index == 0 {
                if count >= 1 { second = first }
                first = entry
            } else {
                second = entry
            }
        }
        count += 1
    }

    private mutating func remove(at index: Int) {
        if index >= 2 {
            tail.remove(at: index - 2)
        } else {
            if index == 0 { first = second }
            if count > 2 { second = tail.removeFirst() }
        }
        count -= 1
        // Unused inline places hold zeros, as in a vector built afresh.
        if count < 2 { second = Entry(level: 0, value: 0) }
        if count < 1 { first = Entry(level: 0, value: 0) }
    }

    /// ``compare(_:scaledBy:_:scaledBy:)``, answering a tie at once for two equal vectors at
    /// one scale (each level's difference is exactly 0 then).
    ///
    /// For the primal simplex's choice of an entering symbol, which compares every candidate
    /// with the best so far, per pivot: on a row of identical views (`long-row`) the
    /// candidates' costs are all the same, and the full walk of each tie was a fifth of the
    /// solve. The dual ratio test compares costs at different scales and calls the walk.
    @inline(__always)
    static func compareWithEqualityShortcut(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double) -> Int {
        if ka == kb && a.storedCount <= 2 && a.storedCount == b.storedCount && a.firstLevel == b.firstLevel
            && a.secondLevel == b.secondLevel && a.firstValue == b.firstValue && a.secondValue == b.secondValue
            && (a.firstValue * ka).isFinite && (a.secondValue * ka).isFinite {
            return 0
        }
        return compare(a, scaledBy: ka, b, scaledBy: kb)
    }

    /// The lexicographic sign of `a·ka − b·kb`, a level's difference counting as zero when it
    /// is cancellation residue of the two entries (a tie).
    static func compare(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double) -> Int {
        order(a, scaledBy: ka, b, scaledBy: kb, exact: false)
    }

    /// The lexicographic sign of `a·ka − b·kb`, every non-zero difference counting: a total
    /// order (with a tie only between equal products), as a heap needs. ``compare(_:scaledBy:_:scaledBy:)``
    /// ties near-equal vectors, which is not transitive.
    static func exactOrder(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double) -> Int {
        order(a, scaledBy: ka, b, scaledBy: kb, exact: true)
    }

    @inline(__always)
    private static func order(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double, exact: Bool) -> Int {
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let difference: Double
            let magnitude: Double
            if j == b.count || (i < a.count && a[i].level < b[j].level) {
                difference = a[i].value * ka
                magnitude = 0
                i += 1
            } else if i == a.count || b[j].level < a[i].level {
                difference = -b[j].value * kb
                magnitude = 0
                j += 1
            } else {
                difference = a[i].value * ka - b[j].value * kb
                magnitude = Swift.max(abs(a[i].value * ka), abs(b[j].value * kb))
                i += 1
                j += 1
            }
            if exact ? difference != 0 : !Tolerance.isCancelled(difference, of: magnitude) { return difference > 0 ? 1 : -1 }
        }
        return 0
    }

    #if LAYOUTBENCH_FAULTS
    /// The vector without its weakest level's entry (for a planted fault).
    var withoutLastEntry: LexVector {
        var out = LexVector()
        for index in 0..<max(count - 1, 0) { out.append(self[index]) }
        return out
    }
    #endif

    static func == (lhs: LexVector, rhs: LexVector) -> Bool { lhs.entries == rhs.entries }

    func hash(into hasher: inout Hasher) { hasher.combine(entries) }
}
