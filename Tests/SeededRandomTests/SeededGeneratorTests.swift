import Testing
@testable import SeededRandom

@Suite("SeededGenerator")
struct SeededGeneratorTests {
    @Test("SplitMix64 reproduces the reference sequence from seed 0")
    func splitMixReference() {
        var g = SplitMix64(state: 0)
        #expect(g.next() == 0xE220_A839_7B1D_CDAF)
        #expect(g.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(g.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("xoshiro256** reproduces the reference sequence from state (1, 2, 3, 4)")
    func xoshiroReference() {
        var g = SeededGenerator(state: (1, 2, 3, 4))
        let expected: [UInt64] = [
            11520, 0, 1_509_978_240, 1_215_971_899_390_074_240,
            1_216_172_134_540_287_360, 607_988_272_756_665_600,
        ]
        #expect((0..<6).map { _ in g.next() } == expected)
    }

    @Test("seeding expands the seed through SplitMix64")
    func seeding() {
        var g = SeededGenerator(seed: 42)
        // Computed independently (a Python transcription of both reference algorithms).
        let expected: [UInt64] = [
            1_546_998_764_402_558_742, 6_990_951_692_964_543_102,
            12_544_586_762_248_559_009, 17_057_574_109_182_124_193,
        ]
        #expect((0..<4).map { _ in g.next() } == expected)
    }

    @Test("the all-zero state is replaced, never a fixed point")
    func zeroState() {
        var g = SeededGenerator(state: (0, 0, 0, 0))
        #expect(g.next() != 0 || g.next() != 0)
    }

    @Test("case seeds are distinct across indices and campaigns")
    func caseSeeds() {
        var seen = Set<UInt64>()
        for campaign: UInt64 in [0, 1, 2, .max] {
            for index: UInt64 in 0..<2000 {
                seen.insert(SeededGenerator.caseSeed(campaign: campaign, index: index))
            }
        }
        #expect(seen.count == 4 * 2000)
        #expect(SeededGenerator.caseSeed(campaign: 7, index: 3) == SeededGenerator.caseSeed(campaign: 7, index: 3))
    }

    @Test("bounded draws stay in range, hit every value and are roughly uniform")
    func bounded() {
        var g = SeededGenerator(seed: 9)
        var counts = Array(repeating: 0, count: 7)
        for _ in 0..<70_000 {
            let v = g.bounded(7)
            #expect(v < 7)
            counts[Int(v)] += 1
        }
        // Each bucket expects 10,000; a 5-sigma band is about ±460.
        #expect(counts.allSatisfy { abs($0 - 10_000) < 600 })
        #expect(g.bounded(1) == 0)
        // A bound just above 2^63 exercises the rejection threshold.
        let big: UInt64 = (1 << 63) + 12345
        for _ in 0..<1000 { #expect(g.bounded(big) < big) }
    }

    @Test("int(in:) reaches both ends and handles the full Int range")
    func intInRange() {
        var g = SeededGenerator(seed: 3)
        var seen = Set<Int>()
        for _ in 0..<2000 { seen.insert(g.int(in: -2...2)) }
        #expect(seen == [-2, -1, 0, 1, 2])
        _ = g.int(in: Int.min...Int.max)
        #expect(g.int(in: 5...5) == 5)
    }

    @Test("unitInterval is in [0, 1)")
    func unitInterval() {
        var g = SeededGenerator(seed: 5)
        for _ in 0..<10_000 {
            let u = g.unitInterval()
            #expect(u >= 0 && u < 1)
        }
    }

    @Test("shuffle permutes, deterministically")
    func shuffle() {
        var a = Array(0..<50)
        var b = a
        var g1 = SeededGenerator(seed: 11)
        var g2 = SeededGenerator(seed: 11)
        g1.shuffle(&a)
        g2.shuffle(&b)
        #expect(a == b)
        #expect(a.sorted() == Array(0..<50))
        #expect(a != Array(0..<50))
        var empty: [Int] = []
        g1.shuffle(&empty)
        #expect(empty.isEmpty)
    }
}
