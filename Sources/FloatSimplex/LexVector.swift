/// Amounts per priority level, compared lexicographically: level 1 outranks level 2 outright.
///
/// This is the paper's symbolic weight. Kiwi and its ports pack strengths into one `Double`
/// (a·10⁶ + b·10³ + c), so enough weak errors outweigh a strong one; here a reduced cost is a
/// sparse vector over levels and is never collapsed to a number. Entries are sorted by level
/// and none is zero; most vectors have one or two entries.
struct LexVector: Sendable, Hashable {
    struct Entry: Sendable, Hashable {
        var level: Int32
        var value: Double

        init(level: Int32, value: Double) {
            self.level = level
            self.value = value
        }
    }

    var entries: [Entry]

    init() { entries = [] }

    init(level: Int32, value: Double) { entries = [Entry(level: level, value: value)] }

    var isZero: Bool { entries.isEmpty }

    /// The sign of the first entry whose magnitude exceeds `tolerance` (0 when none does).
    func sign(tolerance: Double) -> Int {
        for entry in entries {
            if entry.value > tolerance { return 1 }
            if entry.value < -tolerance { return -1 }
        }
        return 0
    }

    /// The first level whose entry exceeds `tolerance` in magnitude, with its value.
    func leading(tolerance: Double) -> Entry? {
        for entry in entries where abs(entry.value) > tolerance { return entry }
        return nil
    }

    /// `self += factor · other`; entries that fall to `drop` or below in magnitude are removed,
    /// so cancellation leaves no residue for later comparisons to trip on.
    mutating func add(_ other: LexVector, times factor: Double, drop: Double) {
        if other.entries.isEmpty || factor == 0 { return }
        if entries.count == 1, other.entries.count == 1, entries[0].level == other.entries[0].level {
            let sum = entries[0].value + factor * other.entries[0].value
            if abs(sum) <= drop { entries.removeAll(keepingCapacity: true) } else { entries[0].value = sum }
            return
        }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + other.entries.count)
        var i = 0
        var j = 0
        while i < entries.count || j < other.entries.count {
            let entry: Entry
            if j == other.entries.count || (i < entries.count && entries[i].level < other.entries[j].level) {
                entry = entries[i]
                i += 1
            } else if i == entries.count || other.entries[j].level < entries[i].level {
                entry = Entry(level: other.entries[j].level, value: factor * other.entries[j].value)
                j += 1
            } else {
                entry = Entry(level: entries[i].level, value: entries[i].value + factor * other.entries[j].value)
                i += 1
                j += 1
            }
            if abs(entry.value) > drop { merged.append(entry) }
        }
        entries = merged
    }

    /// The lexicographic sign of `a·ka − b·kb`, entries within `tolerance` counting as zero.
    static func compare(_ a: LexVector, scaledBy ka: Double, _ b: LexVector, scaledBy kb: Double, tolerance: Double) -> Int {
        var i = 0
        var j = 0
        while i < a.entries.count || j < b.entries.count {
            let difference: Double
            if j == b.entries.count || (i < a.entries.count && a.entries[i].level < b.entries[j].level) {
                difference = a.entries[i].value * ka
                i += 1
            } else if i == a.entries.count || b.entries[j].level < a.entries[i].level {
                difference = -b.entries[j].value * kb
                j += 1
            } else {
                difference = a.entries[i].value * ka - b.entries[j].value * kb
                i += 1
                j += 1
            }
            if difference > tolerance { return 1 }
            if difference < -tolerance { return -1 }
        }
        return 0
    }
}
