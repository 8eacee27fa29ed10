import Foundation
import LayoutModel
import Testing
@testable import Generator

/// FNV-1a over the text's UTF-8 bytes: a stable fingerprint (Swift's Hasher is seeded per
/// process).
func fingerprint(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}

func family(_ name: String) throws -> Family {
    try #require(Families.named(name), "no family named \(name)")
}

@Suite("Generation")
struct GenerationTests {
    @Test("family names are unique, lower-case and hyphenated, and every kind is present")
    func catalogue() {
        let names = Families.all.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(name)")
            #expect(name != "all")
        }
        for kind in FamilyKind.allCases {
            #expect(!Families.ofKind(kind).isEmpty)
        }
        for f in Families.all {
            #expect(!f.rationale.isEmpty && !f.rationale.contains("\n"))
        }
    }

    @Test("every family validates and reads back equal at small sizes", arguments: Families.all.map(\.name))
    func validatesAndRoundTrips(name: String) throws {
        let f = try family(name)
        for size in [1, 2, 3, 5, 10, 41] {
            for seed: UInt64 in [1, 2, 0xDEAD_BEEF] {
                let c = generate(family: f, size: size, seed: seed)
                let issues = c.system.validate(rules: .runtime)
                #expect(issues.isEmpty, "\(name) size \(size) seed \(seed): \(issues.map(\.message))")
                let parsed = try LayoutParser.parse(c.text, file: c.fileName)
                #expect(parsed == c.system, "\(name) size \(size) seed \(seed) does not read back equal")
                #expect(c.system.viewCount >= 1)
            }
        }
    }

    @Test("the same seed gives the same bytes; the header regenerates the case", arguments: Families.all.map(\.name))
    func deterministic(name: String) throws {
        let f = try family(name)
        let a = generate(family: f, size: 25, seed: 77)
        let b = generate(family: f, size: 25, seed: 77)
        #expect(a.text == b.text)
        #expect(a.system == b.system)
        let first = try #require(a.text.split(separator: "\n").first)
        #expect(first == "# layoutbench generate --family \(name) --size 25 --seed 77 (generator v\(generatorVersion))")
        #expect(a.text.split(separator: "\n").dropFirst().first == "# \(f.kind.rawValue): \(f.rationale)")
        let campaign = generate(family: f, size: 25, campaign: 5, index: 3)
        let again = generate(family: f, size: 25, seed: SeededGenerator.caseSeed(campaign: 5, index: 3))
        #expect(campaign.text == again.text)
    }

    @Test("different seeds give different systems", arguments: Families.all.map(\.name))
    func seedsMatter(name: String) throws {
        let f = try family(name)
        let systems = (1...6).map { generate(family: f, size: 12, seed: UInt64($0)).system.canonicalText }
        #expect(Set(systems).count >= 2, "\(name) ignores its seed")
    }

    @Test("random families give a different system for nearly every seed")
    func randomSeedsDiffer() throws {
        for name in ["random", "cassowary-benchmark"] {
            let f = try family(name)
            let texts = (1...20).map { generate(family: f, size: 8, seed: UInt64($0)).system.canonicalText }
            #expect(Set(texts).count == 20)
        }
    }

    @Test("size counts views, approximately", arguments: Families.all.map(\.name))
    func sizeIsViewCount(name: String) throws {
        let f = try family(name)
        let c = generate(family: f, size: 1000, seed: 4)
        #expect(abs(c.system.viewCount - 1000) <= 25, "\(name): \(c.system.viewCount) views for size 1000")
        #expect(c.system.validate().isEmpty)
    }

    @Test("docs/generator.md describes every family")
    func documented() throws {
        // Tests/GeneratorTests/GenerationTests.swift → the package root.
        var root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")
        if root.isEmpty { root = "." }
        let docs = try String(contentsOfFile: root + "/docs/generator.md", encoding: .utf8)
        for f in Families.all where !f.name.hasSuffix("-rtl") {
            #expect(docs.contains("| `\(f.name)` |"), "docs/generator.md has no row for \(f.name)")
        }
    }

    @Test("sizes below 1 are treated as 1")
    func tinySize() throws {
        let c = generate(family: try family("random"), size: 0, seed: 1)
        #expect(c.size == 1)
        #expect(c.system.viewCount == 1)
    }

    @Test("output is pinned: any change must bump generatorVersion", arguments: Families.all.map(\.name))
    func golden(name: String) throws {
        let text = generate(family: try family(name), size: 9, seed: 2024).text
        let expected = goldenFingerprints[name]
        #expect(expected == fingerprint(text),
                "\(name) output changed (fingerprint \(String(fingerprint(text), radix: 16))): bump generatorVersion and update goldenFingerprints")
    }
}
