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
    mutating func add(_ other: LexVector, times factor: Double) {
        if other.count == 0 || factor == 0 { return }
        if count == 0 && other.count == 1 {
            let value = factor * other.first.value
            if value != 0 {
                first = Entry(level: other.first.level, value: value)
                count = 1
            }
            return
        }
        if count == 1, other.count == 1, first.level == other.first.level {
            let added = factor * other.first.value
            let sum = first.value + added
            if Tolerance.isCancelled(sum, of: Swift.max(abs(first.value), abs(added))) { count = 0 } else { first.value = sum }
            return
        }
        var merged = LexVector()
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

    /// The lexicographic sign of `a·ka − b·kb`, a level's difference counting as zero when it
    /// is cancellation residue of the two entries (a tie).
    static func compare(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double) -> Int {
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
            if !Tolerance.isCancelled(difference, of: magnitude) { return difference > 0 ? 1 : -1 }
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
