import Foundation
import LayoutModel
import Testing
@testable import FloatSimplex

/// The hand-computed seed corpus: every `.layout` with its `.expected.json`.
@Suite struct SeedCorpusTests {
    static let seeds: [String] = {
        let directory = repositoryRoot.appendingPathComponent("Corpora/seeds")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".layout") }.map { String($0.dropLast(".layout".count)) }.sorted()
    }()

    @Test func corpusIsPresent() {
        #expect(Self.seeds.count >= 20)
    }

    @Test(arguments: seeds)
    func matchesHandComputedAnswer(_ name: String) throws {
        let directory = repositoryRoot.appendingPathComponent("Corpora/seeds")
        let text = try String(contentsOf: directory.appendingPathComponent("\(name).layout"), encoding: .utf8)
        let expectedData = try Data(contentsOf: directory.appendingPathComponent("\(name).expected.json"))
        let expected = try JSONDecoder().decode(ResultDocument.self, from: expectedData)
        let system = try LayoutParser.parse(text, file: name)
        let result = try CassowaryBackend().solve(system, budget: .unlimited)
        let actual = ResultDocument(system: system, solution: result.solution, global: false)

        #expect(actual.status == expected.status)
        #expect(actual.broken == expected.broken)
        #expect(actual.conflict == expected.conflict)
        #expect(actual.ambiguous.sorted() == expected.ambiguous.sorted())
        #expect(actual.objective.count == expected.objective.count)
        for (a, e) in zip(actual.objective, expected.objective) {
            #expect(isClose(a, e), "objective \(actual.objective) expected \(expected.objective)")
        }
        for (item, frame) in expected.frames {
            let got = try #require(actual.frames[item])
            for (component, value) in frame.enumerated() {
                guard let value, let have = got[component] else { continue }
                #expect(isClose(have, value), "\(item)[\(component)] = \(have), expected \(value)")
            }
        }
    }
}
