/// How many of a changing collection of numbers fall in each binade (`2ᵉ ≤ |x| < 2ᵉ⁺¹`),
/// with the largest binade present: the scale of the constraints a solver holds, kept as
/// they are added, changed and removed, without a scan.
///
/// Zeros and non-finite numbers are not counted. Insertion is O(1); removal is O(1) except
/// when it empties the top binade, which walks down to the next one present (at most the
/// 2,098 binades of `Double`, and in practice a few). The counts are allocated on the first
/// insertion (8 KiB).
struct BinadeCensus: Sendable {
    /// Binades −1074 … 1023, stored at `exponent + offset`.
    private static let offset = 1074
    private static let binadeCount = 2098
    private var counts: [Int32] = []
    /// The highest binade with a nonzero count, or −1.
    private var top = -1

    @inline(__always)
    private static func binade(_ x: Double) -> Int? {
        guard x != 0, x.isFinite else { return nil }
        return Int(x.exponent) + offset
    }

    mutating func insert(_ x: Double) {
        guard let b = Self.binade(x) else { return }
        if counts.isEmpty { counts = Array(repeating: 0, count: Self.binadeCount) }
        counts[b] += 1
        if b > top { top = b }
    }

    /// Takes out one number that ``insert(_:)`` counted.
    mutating func remove(_ x: Double) {
        guard let b = Self.binade(x), !counts.isEmpty else { return }
        // A debug build traps (the solver's invariant check compares the census with its
        // records); a release build keeps going with a census that can only say too little.
        assert(counts[b] > 0, "BinadeCensus: \(x) removed but never inserted")
        guard counts[b] > 0 else { return }
        counts[b] -= 1
        if b == top { while top >= 0 && counts[top] == 0 { top -= 1 } }
    }

    /// `old` taken out and `new` put in.
    mutating func replace(_ old: Double, with new: Double) {
        insert(new)
        remove(old)
    }

    /// A lower bound within a factor of 2 of the largest magnitude counted (2ᵉ of its
    /// binade), or 0 when there is none.
    var largest: Double {
        top < 0 ? 0 : Double(sign: .plus, exponent: top - Self.offset, significand: 1)
    }

    /// How many numbers are counted (for tests and invariant checks).
    var count: Int { counts.reduce(0) { $0 + Int($1) } }
}
