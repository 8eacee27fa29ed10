import BackendContract
import ExactArithmetic
import ExactSimplex
import Foundation
import LayoutModel
import Testing

/// The spec's result form, as the corpus's `.expected.json` files hold it.
private struct ExpectedResult: Decodable {
    var status: SolveStatus
    var frames: [String: [Double?]]
    var objective: [Double]
    var ambiguous: [String]
    var broken: [String]
    var conflict: [String]
}

private func seedNames() -> [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: Repository.seeds.path)) ?? []
    return files.filter { $0.hasSuffix(".layout") }.map { String($0.dropLast(".layout".count)) }
        .filter { FileManager.default.fileExists(atPath: Repository.seeds.appendingPathComponent("\($0).expected.json").path) }
        .sorted()
}

@Suite("Seed corpus")
struct SeedCorpusTests {
    @Test("the corpus is there")
    func corpusPresent() {
        #expect(!seedNames().isEmpty)
    }

    @Test("every seed solves exactly to its expected result, certified", arguments: seedNames())
    func seed(_ name: String) throws {
        let layout = try String(contentsOf: Repository.seeds.appendingPathComponent("\(name).layout"), encoding: .utf8)
        let expectedData = try Data(contentsOf: Repository.seeds.appendingPathComponent("\(name).expected.json"))
        let expected = try JSONDecoder().decode(ExpectedResult.self, from: expectedData)
        let system = try LayoutParser.parse(layout, file: "\(name).layout")
        let (solution, _) = try solveCertified(system)

        #expect(solution.status == expected.status)
        #expect(solution.objective == expected.objective)
        #expect(solution.broken.map(system.constraintName) == expected.broken)
        #expect(solution.conflict.map(system.constraintName) == expected.conflict)
        #expect(ambiguousNames(solution, system).sorted() == expected.ambiguous.sorted())
        let frames = system.frames(values: solution.values, global: false)
        for index in 1..<system.items.count {
            let item = system.items[index].name
            let want = try #require(expected.frames[item], "no expected frame for \(item)")
            for component in 0..<4 {
                guard let value = want[component] else { continue }
                #expect(abs(frames[index - 1][component] - value) <= 1e-9 * max(1, abs(value)),
                        "\(item)[\(component)] = \(frames[index - 1][component]), expected \(value)")
            }
        }
    }
}
