import BackendContract
import ExactSimplex
import Foundation
import Fuzzing
import GaussianBackend
import Generator
import Reporting
import Testing
@testable import LayoutModel
@testable import Runner

/// The hostile-input test across the input kinds that `LayoutModelTests`' mutation tests
/// (100,000 `.layout` files, update sequences, JSON) do not reach, plus line-ending twins:
/// 109,300 fixed-seed inputs, each ends as a result or as an error that says where —
/// never a trap or a hang (issue 18). Inputs are small and judged in-process; only small
/// systems are solved.
@Suite(.serialized) struct HostileInputTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/RunnerTests/<file>
        return parts.joined(separator: "/")
    }()

    static let nasty = [
        "1e999999", "-1e999999", "1e-99999", "0x1F", "1..2", "-", "nan", "inf", "-inf", "NaN", "Infinity",
        "99999999999999999999999999999999999", "1e", "--5", ".5", "1e+", "-0", "0", "1e308", "4.9e-324",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "", " ", "@", "*", "(", ")", "[", "]", "{", "}", ",", ":", "\"", "\\", "#", "==", "<=", "null", "true",
        "[]", "{}", "\u{FEFF}", "\r", "\r\n", "\u{0}", "é", "١٢", "1/0", "0/0", "3/2", "-1/2", "2/1/1",
    ]

    /// Words and separators (JSON's too), so mutations stay local.
    static func pieces(_ text: String) -> [String] {
        TextPieces.split(text, separators: [" ", "\n", "\t", ",", ":"])
    }

    static func below(_ n: Int, _ random: inout SplitMix64) -> Int { Int(random.next() % UInt64(max(n, 1))) }

    /// One to three local mutations: a byte flipped, a piece dropped, doubled, swapped, or
    /// replaced by a nasty literal.
    static func mutate(_ original: [String], _ random: inout SplitMix64) -> String {
        var pieces = original
        for _ in 0..<(1 + below(3, &random)) where !pieces.isEmpty {
            let i = below(pieces.count, &random)
            switch below(5, &random) {
            case 0:
                var bytes = Array(pieces[i].utf8)
                if !bytes.isEmpty { bytes[below(bytes.count, &random)] = UInt8(truncatingIfNeeded: random.next()) }
                pieces[i] = String(decoding: bytes, as: UTF8.self)
            case 1: pieces.remove(at: i)
            case 2: pieces.insert(pieces[i], at: i)
            case 3: pieces.swapAt(i, below(pieces.count, &random))
            default: pieces[i] = nasty[below(nasty.count, &random)]
            }
        }
        return pieces.joined()
    }

    /// The text with every line ending (LF, CRLF, lone CR) replaced by `ending` and a leading
    /// byte-order mark dropped: the twin that must read as the same file.
    static func twin(_ text: String, ending: String) -> String {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var out = String.UnicodeScalarView()
        var previousCR = false
        for scalar in scalars {
            if scalar == "\r" {
                out.append(contentsOf: ending.unicodeScalars)
                previousCR = true
                continue
            }
            if scalar == "\n" {
                if !previousCR { out.append(contentsOf: ending.unicodeScalars) }
                previousCR = false
                continue
            }
            previousCR = false
            out.append(scalar)
        }
        return String(out)
    }

    /// An error must point inside the text (line and column of its line model), or name no
    /// position at all for a JSON problem that has no single value.
    static func isPositioned(_ error: LayoutError, in text: String) -> Bool {
        if error.location == .unknown { return error.kind == .malformedSystem }
        let lines = SourceLines.split(text)
        let line = error.location.line
        guard line >= 1 && line <= max(lines.count, 1) else { return false }
        let length = line <= lines.count ? lines[line - 1].unicodeScalars.count : 0
        return error.location.column >= 1 && error.location.column <= length + 1
    }

    /// The outcome of reading text, comparable between twins.
    enum Reading: Equatable {
        case system(ConstraintSystem)
        case sequence(UpdateSequence)
        case error(LayoutError.Kind, LayoutModel.SourceLocation, String)
    }

    static func read(_ text: String, as kind: Int) -> Reading {
        do throws(LayoutError) {
            switch kind {
            case 0: return .system(try LayoutParser.parse(text, file: "h.layout"))
            case 1: return .sequence(try LayoutParser.parseSequence(text, file: "h.layout"))
            default: return .sequence(try UpdateSequence(json: text, file: "h.layout"))
            }
        } catch {
            #expect(isPositioned(error, in: text), "\(error)\n\(text.debugDescription)")
            return .error(error.kind, error.location, error.message)
        }
    }

    static let seedLines: [[String]] = {
        let directory = root + "/Corpora/seeds"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".layout") }.sorted()
        return names.compactMap { name in
            (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8))?
                .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        }
    }()

    /// A small `.layout` text from a seed: its declarations and a few of its constraints,
    /// mutated, with mixed line endings and sometimes a byte-order mark.
    static func smallLayout(_ random: inout SplitMix64) -> String {
        let lines = seedLines[below(seedLines.count, &random)]
        let declarations = lines.prefix { $0.hasPrefix("root") || $0.hasPrefix("view") || $0.hasPrefix("layout") }.prefix(4)
        var chosen = Array(declarations)
        let rest = lines.dropFirst(declarations.count)
        for _ in 0..<(1 + below(4, &random)) where !rest.isEmpty { chosen.append(rest[rest.startIndex + below(rest.count, &random)]) }
        return withMixedEndings(pieces: pieces(chosen.joined(separator: "\n") + "\n"), &random)
    }

    /// Mutates `pieces` now and then and ends its lines at random with LF, CRLF or CR.
    static func withMixedEndings(pieces source: [String], _ random: inout SplitMix64) -> String {
        let text = below(4, &random) == 0 ? source.joined() : mutate(source, &random)
        let endings = ["\n", "\r\n", "\r"]
        var out = below(8, &random) == 0 ? "\u{FEFF}" : ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" { out += endings[below(3, &random)] } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    // MARK: Text inputs and their twins

    /// 16,000 `.layout` files, 4,000 update sequences and 4,000 JSON systems, each read as
    /// written and as its LF twin (every fourth also as its CRLF twin): the same system or
    /// the same positioned error. Every 40th small system is solved under a budget.
    @Test func textInputsAndTheirLineEndingTwins() throws {
        try #require(!Self.seedLines.isEmpty)
        var random = SplitMix64(state: 20_261_124)
        var accepted = 0
        var solved = 0
        let header = "root card 0 0 320 200\nview title in card intrinsic 120 20\nview badge in card\n"
            + "title.left == card.left + 8\nc2: badge.width == 30\n"
        let sequence = Self.pieces(header + "layout\nset c2 constant 40\nset title intrinsic 80 -\nremove view badge\nlayout\n")
        let jsonSources = try Self.seedLines.prefix(8).map {
            Self.pieces(try LayoutParser.parse($0.joined(separator: "\n") + "\n").jsonText())
        }
        for iteration in 0..<24_000 {
            let kind = iteration < 16_000 ? 0 : iteration < 20_000 ? 1 : 2
            let text: String
            switch kind {
            case 0: text = Self.smallLayout(&random)
            case 1: text = Self.withMixedEndings(pieces: sequence, &random)
            default: text = Self.withMixedEndings(pieces: jsonSources[iteration % jsonSources.count], &random)
            }
            let reading = Self.read(text, as: kind)
            let lf = Self.read(Self.twin(text, ending: "\n"), as: kind)
            #expect(reading == lf, "\(text.debugDescription)")
            if iteration % 4 == 0 {
                #expect(Self.read(Self.twin(text, ending: "\r\n"), as: kind) == reading, "\(text.debugDescription)")
            }
            if case .system(let system) = reading {
                accepted += 1
                if accepted % 40 == 0 && system.viewCount <= 3 {
                    solved += 1
                    for backend in [ExactSimplexBackend(), GaussianEliminationBackend()] as [any LayoutBackend]
                    where backend.supports(system).isSupported {
                        // A result or a typed error; either way the solve returns.
                        _ = try? backend.solve(system, budget: Budget(iterations: 10_000, wallTime: .seconds(2)))
                    }
                }
            }
        }
        #expect(accepted > 2_000)
        #expect(solved > 20)
    }

    // MARK: Checkpoints

    /// 30,000 mutated checkpoints: each is taken for this campaign's run, or refused with an
    /// error that names the file.
    @Test func mutatedCheckpointsAreReadOrRefusedByName() throws {
        let url = URL(fileURLWithPath: "/nonexistent/hostile/checkpoint.json")
        let options = FuzzRunOptions(spec: spec, cases: 3_000, jobs: 1, isolation: nil, outDirectory: url.deletingLastPathComponent())
        var completed = CompletedPositions()
        for position in [0, 1, 2, 3, 5, 8] as [UInt64] { completed.insert(position) }
        let valid = Checkpoint(spec: spec, shard: .whole, cases: 3_000, completed: completed, seconds: 12.5, finished: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let source = Self.pieces(String(decoding: try encoder.encode(valid), as: UTF8.self))
        #expect(try Checkpoint.read(Data(source.joined().utf8), at: url, options: options).completed == completed)
        var random = SplitMix64(state: 20_261_125)
        var taken = 0
        for _ in 0..<30_000 {
            let text = Self.mutate(source, &random)
            do {
                let checkpoint = try Checkpoint.read(Data(text.utf8), at: url, options: options)
                taken += 1
                #expect(checkpoint.inconsistency(shardTotal: 3_000) == nil)
                #expect(checkpoint.completed.count <= 3_000)
            } catch {
                #expect(error.description.hasPrefix(url.path), "\(error)")
            }
        }
        #expect(taken > 100)
    }

    // MARK: Expected files

    /// 25,000 mutated expected results: each is refused as JSON, refused as checking
    /// nothing, or compared with an answer.
    @Test func mutatedExpectedFilesEndInAVerdict() throws {
        let system = try LayoutParser.parse("root s 0 0 100 100\nview a\nview b\na.width == 10\nb.left == a.right + 5 @750\n")
        let solution = try ExactSimplexBackend().solve(system, budget: .unlimited).solution
        let expected = ExpectedResult(
            status: .optimal, frames: ["a": [nil, nil, 10, nil], "b": [nil, nil, nil, nil]], objective: [0],
            ambiguous: ["a.x", "a.y", "a.h", "b.x", "b.y", "b.w", "b.h"], broken: [], conflict: [])
        #expect(expected.incompleteness(for: system) == nil)
        #expect(expected.mismatches(in: solution, of: system).isEmpty)
        let source = Self.pieces(String(decoding: try JSONEncoder().encode(expected), as: UTF8.self))
        var random = SplitMix64(state: 20_261_126)
        var compared = 0
        for _ in 0..<25_000 {
            let text = Self.mutate(source, &random)
            guard let read = try? JSONDecoder().decode(ExpectedResult.self, from: Data(text.utf8)) else { continue }
            if read.incompleteness(for: system) == nil {
                compared += 1
                _ = read.mismatches(in: solution, of: system)
            }
        }
        #expect(compared > 100)
    }

    // MARK: Command-line numbers

    /// 30,000 command-line numbers (time limits, `--shard K/N`): accepted within range or
    /// refused, never trapping in a conversion.
    @Test func commandLineNumbersAreInRangeOrRefused() {
        var random = SplitMix64(state: 20_261_127)
        var accepted = 0
        for iteration in 0..<30_000 {
            let text: String
            switch iteration % 4 {
            case 0: text = Self.nasty[Self.below(Self.nasty.count, &random)]
            case 1: text = String(Double(bitPattern: random.next()))
            case 2: text = String(Int64(bitPattern: random.next()) >> Self.below(64, &random))
            default:
                text = Self.nasty[Self.below(Self.nasty.count, &random)] + "/" + String(Int64(bitPattern: random.next()) >> Self.below(64, &random))
            }
            if let seconds = CommandLineNumbers.seconds(text) {
                accepted += 1
                #expect(seconds.isFinite && seconds > 0 && seconds <= CommandLineNumbers.maximumSeconds)
                #expect(CommandLineNumbers.duration(seconds: seconds) > .zero)
            }
            for shardText in [text, "\(text)/\(iteration % 7)", "\(iteration % 5)/\(text)"] {
                if let shard = Shard(parsing: shardText) {
                    accepted += 1
                    #expect(shard.index >= 0 && shard.index < shard.count, "\(shardText)")
                }
            }
        }
        #expect(accepted > 1_000)
    }

    // MARK: Shard folders

    /// 300 spoiled copies of a shard's folder (its report mutated, a finding file
    /// truncated or gone): each merges or is refused with an error naming a path.
    @Test func spoiledShardFoldersMergeOrAreRefusedByName() throws {
        let folder = temporaryDirectory("hostile-shard")
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.copyItem(at: IntegrityTests.shards[0], to: folder)
        let reportURL = folder.appendingPathComponent("report.json")
        let original = try Data(contentsOf: reportURL)
        let source = Self.pieces(String(decoding: original, as: UTF8.self))
        let findings = folder.appendingPathComponent("findings")
        let files = try FileManager.default.contentsOfDirectory(atPath: findings.path).sorted()
        try #require(!files.isEmpty)
        let output = temporaryDirectory("hostile-merged")
        var random = SplitMix64(state: 20_261_128)
        var merged = 0
        for iteration in 0..<300 {
            let spoilsReport = iteration % 4 != 3
            try Data((spoilsReport ? Self.mutate(source, &random) : source.joined()).utf8).write(to: reportURL)
            let file = findings.appendingPathComponent(files[Self.below(files.count, &random)])
            let kept = try Data(contentsOf: file)
            if !spoilsReport || Self.below(4, &random) == 0 {
                if Self.below(2, &random) == 0 { try FileManager.default.removeItem(at: file) } else { try kept.prefix(kept.count / 2).write(to: file) }
            }
            do {
                _ = try ReportMerge.merge(inputs: [folder, IntegrityTests.shards[1]], into: output)
                merged += 1
            } catch let error as ReportMerge.MergeError {
                #expect(error.description.hasPrefix("/"), "\(error)")
            } catch {
                Issue.record("not a refusal naming a file: \(error)")
            }
            try kept.write(to: file)
        }
        try original.write(to: reportURL)
        #expect(try ReportMerge.merge(inputs: [folder, IntegrityTests.shards[1]], into: output).missingShards.isEmpty)
        #expect(merged > 0)
    }
}
