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

    /// The sign of the first entry whose magnitude exceeds its level's tolerance (0 when
    /// none does).
    func sign(_ scales: CostScales) -> Int {
        for index in 0..<count {
            let entry = self[index]
            let tolerance = scales.tolerance(entry.level)
            if entry.value > tolerance { return 1 }
            if entry.value < -tolerance { return -1 }
        }
        return 0
    }

    /// The first level whose entry exceeds its level's tolerance in magnitude, with its value.
    func leading(_ scales: CostScales) -> Entry? {
        for index in 0..<count where abs(self[index].value) > scales.tolerance(self[index].level) { return self[index] }
        return nil
    }

    /// `self += factor · other`; entries that fall to their level's drop threshold or below
    /// in magnitude are removed, so cancellation leaves no residue for later comparisons to
    /// trip on.
    mutating func add(_ other: LexVector, times factor: Double, scales: CostScales) {
        if other.count == 0 || factor == 0 { return }
        if count == 0 && other.count == 1 {
            let value = factor * other.first.value
            if abs(value) > scales.drop(other.first.level) {
                first = Entry(level: other.first.level, value: value)
                count = 1
            }
            return
        }
        if count == 1, other.count == 1, first.level == other.first.level {
            let sum = first.value + factor * other.first.value
            if abs(sum) <= scales.drop(first.level) { count = 0 } else { first.value = sum }
            return
        }
        var merged = LexVector()
        var i = 0
        var j = 0
        while i < count || j < other.count {
            let entry: Entry
            if j == other.count || (i < count && self[i].level < other[j].level) {
                entry = self[i]
                i += 1
            } else if i == count || other[j].level < self[i].level {
                entry = Entry(level: other[j].level, value: factor * other[j].value)
                j += 1
            } else {
                entry = Entry(level: self[i].level, value: self[i].value + factor * other[j].value)
                i += 1
                j += 1
            }
            if abs(entry.value) > scales.drop(entry.level) { merged.append(entry) }
        }
        self = merged
    }

    /// The lexicographic sign of `a·ka − b·kb`, entries within their level's tolerance
    /// counting as zero.
    static func compare(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double, scales: CostScales) -> Int {
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let difference: Double
            let level: Int32
            if j == b.count || (i < a.count && a[i].level < b[j].level) {
                level = a[i].level
                difference = a[i].value * ka
                i += 1
            } else if i == a.count || b[j].level < a[i].level {
                level = b[j].level
                difference = -b[j].value * kb
                j += 1
            } else {
                level = a[i].level
                difference = a[i].value * ka - b[j].value * kb
                i += 1
                j += 1
            }
            let tolerance = scales.tolerance(level)
            if difference > tolerance { return 1 }
            if difference < -tolerance { return -1 }
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
