import BackendContract
import CertificateChecker
import ExactSimplex
import Foundation
import LayoutModel
import Testing

/// The certificate's JSON form, version 2: each level's `ν` listed sparsely, so that thousands
/// of levels give a certificate linear in size; version 1 (dense) is still read.
@Suite("Certificate format")
struct CertificateFormatTests {
    /// One view, `count` priority levels, weakest first in the file.
    static func levels(_ count: Int) throws -> ConstraintSystem {
        var text = "root s 0 0 1000 1000\nview a\n"
        for i in 0..<count { text += "a.width == \(i) @\(1 + Double(i) * 998 / Double(count))\n" }
        return try parse(text)
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func data(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// `object` with each level's `nonzeroLevelMultipliers` made dense `levelMultipliers`
    /// (version 1).
    static func denseForm(_ object: [String: Any]) throws -> [String: Any] {
        var object = object
        object["format"] = "layoutbench-exact-certificate/1"
        var levels = try #require(object["levels"] as? [[String: Any]])
        for index in levels.indices {
            let k = try #require(levels[index]["level"] as? Int)
            var dense = [String](repeating: "0", count: k - 1)
            for entry in try #require(levels[index]["nonzeroLevelMultipliers"] as? [[String: Any]]) {
                dense[try #require(entry["level"] as? Int) - 1] = try #require(entry["value"] as? String)
            }
            levels[index]["nonzeroLevelMultipliers"] = nil
            levels[index]["levelMultipliers"] = dense
        }
        object["levels"] = levels
        return object
    }

    @Test("1,000 levels give a certificate linear in size, and it checks")
    func linearSize() throws {
        let system = try Self.levels(1000)
        let (result, certificate) = try ExactSimplexBackend().solveCertified(system, budget: .unlimited)
        let data = try JSONEncoder().encode(certificate)
        // Version 1 listed 999 · 1,000 / 2 level multipliers here (6.8 MB).
        #expect(data.count < 1000 * 200, "\(data.count) bytes")
        #expect(CertificateVerifier.verify(certificate: data, system: system, solution: result.solution) == .verified)
        let weighed = certificate.levels.map(\.nonzeroLevelMultipliers.count)
        #expect(weighed.max() ?? 0 <= 1 && weighed.reduce(0, +) > 0)
    }

    @Test("version 1 (dense level multipliers) is still read, by the checker and the writer's type")
    func denseFormIsRead() throws {
        let system = try Self.levels(8)
        let (solution, certificate) = try solveCertified(system)
        let sparse = try Self.object(try JSONEncoder().encode(certificate))
        let dense = try Self.data(try Self.denseForm(sparse))
        #expect(CertificateVerifier.verify(certificate: dense, system: system, solution: solution) == .verified)
        let decoded = try JSONDecoder().decode(SolutionCertificate.self, from: dense)
        #expect(decoded.levels.map(\.levelMultipliers) == certificate.levels.map(\.levelMultipliers))
        #expect(decoded.levels.map { $0.nonzeroLevelMultipliers.map { $0.level } } == certificate.levels.map { $0.nonzeroLevelMultipliers.map { $0.level } })
        // A dense list in a version-2 document is refused.
        var mixed = try Self.denseForm(sparse)
        mixed["format"] = "layoutbench-exact-certificate/2"
        let verdict = CertificateVerifier.verify(certificate: try Self.data(mixed), system: system, solution: solution)
        #expect(!verdict.isVerified)
    }

    @Test("a tampered sparse certificate is rejected, naming the level and the entry")
    func tampered() throws {
        let system = try Self.levels(8)
        let (solution, certificate) = try solveCertified(system)
        let original = try Self.object(try JSONEncoder().encode(certificate))
        let levels = try #require(original["levels"] as? [[String: Any]])
        let index = try #require(levels.firstIndex { ($0["nonzeroLevelMultipliers"] as? [Any])?.isEmpty == false })
        let k = try #require(levels[index]["level"] as? Int)
        func reasons(_ change: (inout [String: Any]) -> Void) throws -> [String] {
            var entry = try #require((levels[index]["nonzeroLevelMultipliers"] as? [[String: Any]])?.first)
            change(&entry)
            var tampered = original
            var changed = levels
            changed[index]["nonzeroLevelMultipliers"] = [entry]
            tampered["levels"] = changed
            let verdict = CertificateVerifier.verify(certificate: try Self.data(tampered), system: system, solution: solution)
            guard case .rejected(let reasons) = verdict else { return [] }
            return reasons
        }
        // On the level itself (not a higher one): refused where it stands.
        let own = try reasons { $0["level"] = k }
        #expect(own.contains { $0.hasPrefix("level \(k): nonzeroLevelMultipliers[0]: level \(k) ") }, "\(own)")
        // Negative.
        let negative = try reasons { $0["value"] = "-1" }
        #expect(negative.contains { $0.hasPrefix("level \(k): nonzeroLevelMultipliers[0]:") && $0.contains("negative") }, "\(negative)")
        // Another value (smaller: the weight no longer covers the multiplier on that level's row).
        let lowered = try reasons { $0["value"] = "1/2" }
        #expect(!lowered.isEmpty && lowered.allSatisfy { $0.hasPrefix("level \(k): ") }, "\(lowered)")
        // Not a string: a decoding error, with its place in the document.
        let number = try reasons { $0["value"] = 1 }
        #expect(number.contains { $0.contains("levels[\(index)].nonzeroLevelMultipliers[0].value") }, "\(number)")
        // Nothing changed: it checks.
        #expect(try reasons { _ in }.isEmpty)
    }
}
