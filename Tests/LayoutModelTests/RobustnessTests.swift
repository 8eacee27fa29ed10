import Foundation
import Generator
import Testing
@testable import LayoutModel

/// The project's SplitMix64 drives the mutations.
typealias TestRandom = SplitMix64

extension SplitMix64 {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}

/// The seed corpus as (name, text).
func seedFiles() throws -> [(String, String)] {
    let directory = repositoryRoot + "/Corpora/seeds"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".layout") }.sorted()
    return try names.map { ($0, try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) }
}

@Suite struct CorpusParsingTests {
    @Test func everySeedParsesAndRoundTrips() throws {
        let seeds = try seedFiles()
        #expect(seeds.count >= 20)
        for (name, text) in seeds {
            let system = try LayoutParser.parse(text, file: name)
            #expect(system.validate().isEmpty, "\(name)")
            let printed = system.canonicalText
            let reparsed = try LayoutParser.parse(printed, file: name + ".printed")
            #expect(reparsed == system, "\(name)")
            #expect(reparsed.canonicalText == printed, "\(name)")
        }
    }
}

@Suite struct MutationTests {
    static let nastyLiterals = [
        "1e999999", "-1e999999", "1e-99999", "0x1F", "1..2", "-", "nan", "inf", "-inf",
        "99999999999999999999999999999999999", "1e", "--5", ".5", "1e+", "1e99999999999999999999",
        "0.000000000000000000000000000000000000000000000000000000000000000000001", "1,5", "١٢", "",
        "@", "*", "(", ")", "[", "]", "|", ":", "\"", "\\", "#", "==", "<=", ">=", "0", "-0", "1e308", "4.9e-324",
    ]

    /// Splits text into tokens and the separators between them, so mutations stay local.
    static func pieces(_ text: String) -> [String] { TextPieces.split(text) }

    static func mutate(_ original: [String], _ random: inout TestRandom) -> String {
        var pieces = original
        let rounds = 1 + random.below(3)
        for _ in 0..<rounds where !pieces.isEmpty {
            let i = random.below(pieces.count)
            switch random.below(6) {
            case 0:  // flip a byte
                var bytes = Array(pieces[i].utf8)
                if !bytes.isEmpty {
                    bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next())
                }
                pieces[i] = String(decoding: bytes, as: UTF8.self)
            case 1: pieces.remove(at: i)
            case 2: pieces.insert(pieces[i], at: i)
            case 3:
                let j = random.below(pieces.count)
                pieces.swapAt(i, j)
            case 4: pieces[i] = nastyLiterals[random.below(nastyLiterals.count)]
            default:
                // Replace the digits inside the token by a nasty literal.
                let piece = pieces[i]
                if let start = piece.firstIndex(where: \.isNumber) {
                    let end = piece[start...].firstIndex { !$0.isNumber && $0 != "." } ?? piece.endIndex
                    pieces[i] = String(piece[..<start]) + nastyLiterals[random.below(nastyLiterals.count)] + piece[end...]
                }
            }
        }
        return pieces.joined()
    }

    /// 100,000 mutations of the seed files: each ends as a valid system that round-trips, or
    /// as an error positioned inside the input.
    @Test func mutatedSeedsNeverCrash() throws {
        let seeds = try seedFiles().map { Self.pieces($0.1) }
        try #require(!seeds.isEmpty)
        var random = TestRandom(state: 20_261_121)
        var accepted = 0
        var rejected = 0
        for iteration in 0..<100_000 {
            let text = Self.mutate(seeds[iteration % seeds.count], &random)
            do {
                let system = try LayoutParser.parse(text, file: "m.layout", rules: iteration % 2 == 0 ? .runtime : .guide)
                accepted += 1
                let issues = system.validate(rules: iteration % 2 == 0 ? .runtime : .guide)
                #expect(issues.isEmpty, "\(issues) in\n\(text)")
                if iteration % 10 == 0 {
                    let reparsed = try LayoutParser.parse(system.canonicalText, file: "p.layout")
                    #expect(reparsed == system, "round trip failed for\n\(text)")
                    _ = system.lowered(as: Double.self)
                }
            } catch {
                rejected += 1
                let lines = SourceLines.split(text)  // the parser's own line model (CR and CRLF end lines too)
                let line = error.location.line
                #expect(error.file == "m.layout")
                #expect(line >= 1 && line <= max(lines.count, 1), "\(error)")
                if line >= 1 && line <= lines.count {
                    let length = lines[line - 1].unicodeScalars.count
                    #expect(error.location.column >= 1 && error.location.column <= length + 1, "\(error)\n\(text)")
                }
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        #expect(accepted > 1_000)
        #expect(rejected > 10_000)
    }
}

/// The hostile-input test for the other input kinds: update sequences (with CRLF, CR and BOM
/// mixed in) and JSON systems and sequences.
@Suite struct SequenceAndJSONMutationTests {
    static let sequences = [
        SequenceTests.header + "set c3 constant 40\nset title intrinsic 180 -\nset c7 priority 500\nset root 667 375\nremove c5\nremove view badge\nview extra in card intrinsic 10 20\nextra.top == card.top + 4\nH:|-[extra]-|\nlayout\nset extra intrinsic - 30\nremove c3\nlayout\n",
        SequenceTests.header + "layout\nlayout\nset named constant -3\nx1: card.height <= 400 @high\nremove x1\n",
    ]

    /// Where an error must point: a line of the input (or, for a JSON problem that has no
    /// single value, nowhere), a column within that line or just past its end.
    static func checkPosition(_ error: LayoutError, in text: String, allowUnknown: Bool = false) {
        if allowUnknown && error.location == .unknown { return }
        let lines = SourceLines.split(text)
        let line = error.location.line
        #expect(line >= 1 && line <= lines.count, "\(error)")
        if line >= 1 && line <= lines.count {
            #expect(error.location.column >= 1 && error.location.column <= lines[line - 1].unicodeScalars.count + 1, "\(error)\n\(text)")
        }
    }

    static let lineEndings = ["\r\n", "\r", "\u{FEFF}", "\n"]

    @Test func mutatedSequencesNeverCrash() throws {
        let sources = Self.sequences.map(MutationTests.pieces)
        var random = TestRandom(state: 20_261_122)
        var accepted = 0
        for iteration in 0..<20_000 {
            var text = MutationTests.mutate(sources[iteration % sources.count], &random)
            if random.below(4) == 0 {
                // A line ending of another kind somewhere.
                let scalars = Array(text.unicodeScalars)
                let at = random.below(scalars.count + 1)
                text = String(String.UnicodeScalarView(scalars[..<at])) + Self.lineEndings[random.below(4)]
                    + String(String.UnicodeScalarView(scalars[at...]))
            }
            do {
                let sequence = try LayoutParser.parseSequence(text, file: "m.layout")
                accepted += 1
                if iteration % 10 == 0 {
                    let reread = try LayoutParser.parseSequence(sequence.canonicalText, file: "p.layout")
                    #expect(reread == sequence, "round trip failed for\n\(text)")
                    #expect(sequence.system(atPass: sequence.passCount - 1).validate().isEmpty)
                }
            } catch {
                Self.checkPosition(error, in: text)
            }
        }
        #expect(accepted > 500)
    }

    @Test func mutatedJSONNeverCrashes() throws {
        var texts = try seedFiles().prefix(6).map { try LayoutParser.parse($0.1).jsonText() }
        texts += try Self.sequences.map { try LayoutParser.parseSequence($0).jsonText() }
        let sources = texts.map(MutationTests.pieces)
        var random = TestRandom(state: 20_261_123)
        var accepted = 0
        for iteration in 0..<2_000 {
            let text = MutationTests.mutate(sources[iteration % sources.count], &random)
            do {
                let sequence = try UpdateSequence(json: text, file: "m.json")
                accepted += 1
                #expect(try UpdateSequence(json: sequence.jsonText()) == sequence)
            } catch let error as LayoutError {
                Self.checkPosition(error, in: text, allowUnknown: error.kind == .malformedSystem)
            } catch {
                Issue.record("not a positioned error: \(error)")
            }
        }
        #expect(accepted > 100)
    }
}
