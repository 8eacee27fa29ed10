import BackendContract
import CertificateChecker
import ExactArithmetic
import ExactSimplex
import Foundation
import LayoutModel
import Testing
import Generator

/// A fixed-seed SplitMix64: the tests' only source of randomness.
extension SplitMix64 {
    init(seed: UInt64) { self.init(state: seed) }
}

/// Where the repository's files are, found from this file's path.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let seeds = root.appendingPathComponent("Corpora/seeds")
}

/// Parses `.layout` text, failing the test on invalid input.
func parse(_ text: String) throws -> ConstraintSystem {
    try LayoutParser.parse(text, file: "test.layout")
}

/// Solves exactly and checks the certificate with the independent checker; every exact
/// solve in these tests goes through here.
@discardableResult
func solveCertified(
    _ system: ConstraintSystem, budget: Budget = .unlimited, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws -> (Solution, SolutionCertificate) {
    let (result, certificate) = try ExactSimplexBackend().solveCertified(system, budget: budget)
    let data = try JSONEncoder().encode(certificate)
    let verdict = CertificateVerifier.verify(certificate: data, system: system, solution: result.solution)
    #expect(verdict == .verified, "certificate rejected: \(verdict)", sourceLocation: sourceLocation)
    return (result.solution, certificate)
}

/// The exact value of an unknown of a solution, by item name and component.
func exactValue(_ solution: Solution, _ system: ConstraintSystem, _ item: String, _ component: FrameComponent) -> Rational? {
    guard let index = system.itemIndex(named: item), let values = solution.exactValues else { return nil }
    return Rational(values[Unknown(item: index, component: component).variable])
}

/// Names of the ambiguous unknowns, `ITEM.x` etc.
func ambiguousNames(_ solution: Solution, _ system: ConstraintSystem) -> [String] {
    solution.ambiguous.map(system.unknownName)
}
