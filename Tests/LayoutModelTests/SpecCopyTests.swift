import Foundation
import Testing

/// docs/layout-format.md must begin with the shared contract, verbatim.
@Test func projectSpecCopyIsInStep() throws {
    let shared = repositoryRoot + "/../shared/design/layout-format.md"
    guard FileManager.default.fileExists(atPath: shared) else { return }  // not beside this checkout
    let contract = try String(contentsOfFile: shared, encoding: .utf8)
    let copy = try String(contentsOfFile: repositoryRoot + "/docs/layout-format.md", encoding: .utf8)
    #expect(copy.hasPrefix(contract), "docs/layout-format.md is out of step with shared/design/layout-format.md")
}
