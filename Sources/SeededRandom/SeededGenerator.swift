/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a 64-bit counter stepped by the golden-ratio gamma and passed through a
/// bijective finaliser.
///
/// LayoutBench uses it only to expand one 64-bit seed into the 256-bit state of
/// ``SeededGenerator`` and to derive per-case seeds; its statistical quality is enough for
/// that, and it never yields an all-zero xoshiro state from four consecutive outputs.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The golden-ratio increment, 2^64 / φ rounded to odd.
    public static let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The counter; the next output is `mix(state + gamma)`.
    public var state: UInt64

    public init(state: UInt64) { self.state = state }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= Self.gamma
        return Self.mix(state)
    }

    /// The finaliser (a variant of MurmurHash3's fmix64 with Stafford's "Mix13" constants):
    /// a bijection on `UInt64` that spreads every input bit over every output bit.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The project's pseudorandom generator: xoshiro256** 1.0 (Blackman and Vigna, "Scrambled
/// linear pseudorandom number generators", ACM TOMS 2021), seeded through ``SplitMix64``.
///
/// Every random choice the generator makes goes through this type's own draws
/// (``bounded(_:)``, ``int(in:)``, ``unitInterval()``, ``shuffle(_:)``), never through the
/// standard library's `random(in:using:)` or `shuffled(using:)`: their algorithms are not
/// specified and may change between Swift releases, and output must be byte-identical on
/// every machine and toolchain. Nothing here reads the clock, the process or
/// `SystemRandomNumberGenerator`.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// The state is the first four outputs of SplitMix64 started at `seed` (Vigna's
    /// recommended seeding).
    public init(seed: UInt64) {
        var expander = SplitMix64(state: seed)
        s0 = expander.next()
        s1 = expander.next()
        s2 = expander.next()
        s3 = expander.next()
    }

    private init(words: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = words
    }

    /// A generator with this exact 256-bit state, for reproducing published reference
    /// sequences. The all-zero state is a fixed point of xoshiro, so it is replaced by the
    /// state of `init(seed: 0)`.
    public init(state: (UInt64, UInt64, UInt64, UInt64)) {
        if state == (0, 0, 0, 0) {
            self.init(seed: 0)
        } else {
            self.init(words: state)
        }
    }

    /// The current 256-bit state.
    public var state: (UInt64, UInt64, UInt64, UInt64) { (s0, s1, s2, s3) }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    @inlinable
    func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 &- k)) }

    /// The seed of case `index` in a campaign: `mix(mix(campaign) + index × γ)`, with `mix`
    /// the SplitMix64 finaliser and γ its odd gamma. For a fixed campaign every step is a
    /// bijection, so distinct indices never share a seed, and a case's seed depends only on
    /// `(campaign, index)`, not on which worker generates it or when.
    @inlinable
    public static func caseSeed(campaign: UInt64, index: UInt64) -> UInt64 {
        SplitMix64.mix(SplitMix64.mix(campaign) &+ index &* SplitMix64.gamma)
    }

    /// A uniform integer in `0..<bound` by Lemire's multiply-and-reject method ("Fast random
    /// integer generation in an interval", ACM TOMACS 2019): exact, with no modulo bias.
    /// `bound` must be positive.
    @inlinable
    public mutating func bounded(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0, "the bound of a random draw is positive")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniform integer in `range`.
    @inlinable
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound))
        if span == .max { return Int(Int64(bitPattern: next())) }
        return range.lowerBound &+ Int(bounded(span &+ 1))
    }

    /// A uniform integer in `0..<count`; `count` must be positive.
    @inlinable
    public mutating func index(below count: Int) -> Int {
        Int(bounded(UInt64(count)))
    }

    /// A uniform `Double` in [0, 1): the top 53 bits of one draw, scaled by 2^-53.
    @inlinable
    public mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with probability `probability` (0 or less: never; 1 or more: always).
    @inlinable
    public mutating func chance(_ probability: Double) -> Bool {
        unitInterval() < probability
    }

    /// A uniformly chosen element; `elements` must not be empty.
    @inlinable
    public mutating func element<T>(of elements: [T]) -> T {
        elements[index(below: elements.count)]
    }

    /// Shuffles in place by Fisher–Yates (Durstenfeld's variant), drawing from the last
    /// position down, so that the permutation depends only on this generator's outputs.
    @inlinable
    public mutating func shuffle<T>(_ elements: inout [T]) {
        var i = elements.count - 1
        while i > 0 {
            let j = index(below: i + 1)
            elements.swapAt(i, j)
            i -= 1
        }
    }

    public static func == (a: SeededGenerator, b: SeededGenerator) -> Bool { a.state == b.state }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(s0)
        hasher.combine(s1)
        hasher.combine(s2)
        hasher.combine(s3)
    }
}
