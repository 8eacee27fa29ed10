import BackendContract
import ExactArithmetic
import Foundation
import LayoutModel
@testable import OutsideSolvers
import Testing

@Suite struct ProtocolTests {
    @Test func decimalsAreExactAndReadBack() throws {
        let cases: [(String, String)] = [
            ("3/2", "1.5"), ("-1/8", "-0.125"), ("12", "12"), ("-1/400", "-0.0025"), ("1/3", "1/3"), ("0", "0"),
            ("92201/12115", "92201/12115"), ("53979/10000", "5.3979"),
        ]
        for (fraction, text) in cases {
            let value = try #require(Rational(fraction))
            #expect(ExactText.decimal(value) == text)
            #expect(ExactText.parse(text) == value)
        }
        // Every decimal the lowering can make (products of decimals and halves) reads back.
        var state: UInt64 = 0x5eed
        for _ in 0..<500 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let numerator = Int(truncatingIfNeeded: state >> 20) % 1_000_000_007
            let denominator = [1, 2, 4, 5, 8, 10, 16, 25, 1000, 1024, 3125][Int(state % 11)]
            let value = Rational(numerator: numerator, denominator: denominator)
            let text = ExactText.decimal(value)
            #expect(!text.contains("/"))
            #expect(ExactText.parse(text) == value)
        }
    }

    @Test func theShippedManifestLoads() throws {
        let manifest = try AdapterManifest.load(Repository.manifest)
        #expect(manifest.adapters.map(\.name) == ["kiwisolver", "cassowary", "z3", "highspy", "qsopt-ex", "glpk", "gtk"])
        for adapter in manifest.adapters {
            let command = manifest.resolve(adapter.command)
            #expect(!command.joined().contains("$here"))
            #expect(adapter.reproducer != nil)
        }
    }

    @Test func badManifestsSayWhereAndWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lb-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("manifest.json")
        let cases: [(String, String)] = [
            ("{\n  \"version\": 1,\n  \"adapters\": [ oops ]\n}", ":3:"),
            ("{\"version\": 2, \"adapters\": []}", "manifest version 2"),
            ("{\"version\": 1, \"adapters\": [{\"name\": \"a\", \"summary\": \"\", \"command\": [], \"install\": \"\"}]}", "empty command"),
            ("{\"version\": 1, \"adapters\": [{\"name\": \"a\", \"summary\": \"\", \"install\": \"\"}]}", "missing 'command'"),
            ("{\"version\": 1, \"adapters\": [{\"name\": \"a b\", \"summary\": \"\", \"command\": [\"x\"], \"install\": \"\"}]}", "must be letters"),
        ]
        for (text, expected) in cases {
            try Data(text.utf8).write(to: file)
            do {
                _ = try AdapterManifest.load(file)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix(file.path + ":"), "\(error)")
                #expect(error.description.contains(expected), "\(error)")
            }
        }
    }

    @Test func declaredCapabilitiesAreChecked() throws {
        func capabilities(_ json: String) throws -> Result<BackendCapabilities, AdapterFailure> {
            try JSONDecoder().decode(DeclaredCapabilities.self, from: Data(json.utf8)).resolved()
        }
        let weighted = try capabilities(#"{"priorities": {"model": "weighted", "weight": {"form": "linear", "scale": "1"}}, "reports": {"rejected": true}}"#)
        #expect(try weighted.get().priorities == .weighted(.linear(scale: .one)))
        #expect(try weighted.get().reports.broken)
        #expect(try !weighted.get().reports.ambiguity)
        let noScale = try capabilities(#"{"priorities": {"model": "weighted"}, "reports": {}}"#)
        #expect(throws: AdapterFailure.self) { try noScale.get() }
        let unknown = try capabilities(#"{"priorities": {"model": "fuzzy"}, "reports": {}}"#)
        #expect(throws: AdapterFailure.self) { try unknown.get() }
    }
}
