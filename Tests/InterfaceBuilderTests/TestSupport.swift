import BackendContract
import ExactSimplex
import Foundation
import InterfaceBuilder
import LayoutModel
import Testing

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/InterfaceBuilderTests/<file>
    return parts.joined(separator: "/")
}()

/// The shared corpus of Interface Builder files, read where it lies (never copied).
let xibCorpus = repositoryRoot + "/../shared/corpora/xib"

/// An iOS xib whose objects are `objects` (views written by the test).
func iOSXib(_ objects: String, device: String = "retina4_7", tools: String = "16097",
            resources: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" useSafeAreas="YES" colorMatched="YES">
        <device id="\(device)" orientation="portrait" appearance="light"/>
        <objects>
            <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
    \(objects)
        </objects>
        <resources>\(resources)</resources>
    </document>
    """
}

/// An iOS storyboard with these scenes.
func iOSStoryboard(_ scenes: String, device: String = "retina4_7", tools: String = "16097") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" useAutolayout="YES" useTraitCollections="YES" colorMatched="YES">
        <device id="\(device)" orientation="portrait" appearance="light"/>
        <scenes>
    \(scenes)
        </scenes>
    </document>
    """
}

/// A macOS xib.
func macXib(_ objects: String, tools: String = "14087.3") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="MacOSX.Cocoa" propertyAccessControl="none" useAutolayout="YES">
        <objects>
    \(objects)
        </objects>
    </document>
    """
}

/// A frame element.
func frame(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> String {
    #"<rect key="frame" x="\#(x)" y="\#(y)" width="\#(w)" height="\#(h)"/>"#
}

/// Imports text as a file.
func importText(_ text: String, file: String = "Test.xib") throws(IBImportError) -> IBFileImport {
    try InterfaceBuilderImporter.importData(Data(text.utf8), file: file)
}

/// The one layout a test file is expected to give.
func onlyLayout(_ text: String, file: String = "Test.xib", sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> ImportedLayout {
    let result = try importText(text, file: file)
    #expect(result.skipped.isEmpty, "skipped: \(result.skipped.map(\.reason.description))", sourceLocation: sourceLocation)
    return try #require(result.layouts.first, sourceLocation: sourceLocation)
}

/// Solves with the exact reference backend.
func solve(_ system: ConstraintSystem) throws -> Solution {
    try ExactSimplexBackend().solve(system, budget: Budget(wallTime: .seconds(60))).solution
}

/// Solves the layout and checks that the rounded frames equal the stored ones.
@discardableResult
func expectAgreement(_ layout: ImportedLayout, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Solution {
    let solution = try solve(layout.system)
    let agreement = FrameAgreement(layout: layout, solution: solution)
    #expect(agreement.agrees, "\(agreement.mismatches)\n\(layout.layoutText)", sourceLocation: sourceLocation)
    #expect(agreement.compared > 0, sourceLocation: sourceLocation)
    return solution
}

/// The frame of an IB object in a solution, relative to its parent, before rounding.
func solvedFrame(_ id: String, in layout: ImportedLayout, _ solution: Solution) -> [Double]? {
    guard let name = layout.itemForObject[id], let index = layout.system.itemIndex(named: name) else { return nil }
    let frames: [[Double]] = layout.system.frames(values: solution.values, global: false)
    return frames[index - 1]
}

/// Text of every constraint line of the layout.
func constraintLines(_ layout: ImportedLayout) -> [String] {
    layout.system.constraints.map { layout.system.constraintLine($0) }
}
