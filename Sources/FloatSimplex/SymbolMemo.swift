/// Numbers remembered per symbol for one walk of a cone (``Tableau/coneMagnitude(_:)``): an
/// open-addressing table keyed by symbol index, with a multiplicative hash and linear probing.
///
/// A walk asks for every symbol twice or more (once to see whether it is done, once to read
/// it), and a cone on a `random` layout of 1,000 views holds about a thousand symbols. With
/// `[Int: Double]` the seeded SipHash of each lookup was the walk's main cost (221,684
/// hashes, 20 M of 73 M instructions); a symbol index needs no protection from collisions
/// chosen by an adversary, and a Fibonacci hash spreads consecutive indices well.
///
/// Complexity: lookup and insertion O(1) expected; the table doubles at 50% load.
struct SymbolMemo {
    /// The symbol at each place, or -1 for an empty one.
    private var keys: [Int]
    private var values: [Double]
    private var count = 0
    /// `keys.count − 1` (a power of two, minus one).
    private var mask: Int
    /// `64 − log₂(keys.count)`: the hash keeps the product's top bits.
    private var shift: Int

    /// An empty memo with room for `expected` symbols before it grows.
    init(expected: Int = 8) {
        var capacity = 16
        while capacity < 2 * expected { capacity *= 2 }
        keys = Array(repeating: -1, count: capacity)
        values = Array(repeating: 0, count: capacity)
        mask = capacity - 1
        shift = 64 - capacity.trailingZeroBitCount
    }

    @inline(__always)
    private func home(of symbol: Int) -> Int {
        // Parenthesised: a shift binds tighter than a multiplication in Swift.
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: symbol) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The number remembered for `symbol`, or nil.
    subscript(symbol: Int) -> Double? {
        var place = home(of: symbol)
        while true {
            let key = keys[place]
            if key == symbol { return values[place] }
            if key < 0 { return nil }
            place = (place + 1) & mask
        }
    }

    /// Remembers `value` for `symbol` (replacing what was remembered).
    mutating func remember(_ value: Double, for symbol: Int) {
        precondition(symbol >= 0, "a symbol index is never negative")
        if 2 * (count + 1) > keys.count { grow() }
        var place = home(of: symbol)
        while true {
            let key = keys[place]
            if key == symbol {
                values[place] = value
                return
            }
            if key < 0 {
                keys[place] = symbol
                values[place] = value
                count += 1
                return
            }
            place = (place + 1) & mask
        }
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        self = SymbolMemo(expected: keys.count)
        for place in oldKeys.indices where oldKeys[place] >= 0 { remember(oldValues[place], for: oldKeys[place]) }
    }
}
