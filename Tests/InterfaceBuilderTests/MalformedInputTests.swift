import Foundation
import Generator
import InterfaceBuilder
import LayoutModel
import Testing

/// Malformed XML, files that are not IB documents, unknown elements and missing references
/// give positioned errors (`file:line:column: message`) and never crash.
@Suite struct MalformedInputTests {
    func fileError(_ text: String) -> IBImportError? {
        do {
            _ = try importText(text, file: "Bad.xib")
            return nil
        } catch {
            return error
        }
    }

    @Test func malformedXMLIsPositioned() throws {
        let text = "<?xml version=\"1.0\"?>\n<document targetRuntime=\"iOS.CocoaTouch\">\n  <objects>\n    <view id=\"a\">\n  </objects>\n</document>\n"
        let error = try #require(fileError(text))
        #expect(error.file == "Bad.xib")
        #expect(error.location.line == 5)
        #expect(error.description.hasPrefix("Bad.xib:5:"))
        #expect(error.message.hasPrefix("malformed XML"))
    }

    @Test(arguments: [
        ("", "no document element"),
        ("<?xml version=\"1.0\"?>\n", "no document element"),
        ("<a b=\"1\" b=\"2\"/>", "an attribute is given twice"),
        ("<document targetRuntime=\"iOS.CocoaTouch\"><objects>", "the document ends early"),
        ("<document><a></b></document>", "an end tag does not match its start tag"),
        ("<document>&undefined;</document>", "a bad entity reference"),
        ("\u{FF}\u{FE}<doc", "malformed XML"),
    ])
    func malformedXML(text: String, message: String) throws {
        let error = try #require(fileError(text))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line >= 1 && error.location.column >= 1)
    }

    /// FoundationXML traps on attribute text that is not UTF-8; the importer refuses it first,
    /// at the bad byte.
    @Test func bytesThatAreNotUTF8() throws {
        var data = Data("<document targetRuntime=\"iOS.CocoaTouch\">\n<objects><view id=\"a".utf8)
        data.append(0xE9)
        data.append(contentsOf: Data("b\"/></objects></document>".utf8))
        do {
            _ = try InterfaceBuilderImporter.importData(data, file: "Latin1.xib")
            Issue.record("bytes that are not UTF-8 were accepted")
        } catch {
            #expect(error.description == "Latin1.xib:2:21: malformed XML: the file is not UTF-8 text")
        }
    }

    /// Numbers the importer reads around a root (a cell's, a table's) may be anything.
    @Test func nonsenseNumbersAroundARootDoNotCrash() throws {
        let text = iOSXib("""
            <tableViewCell contentMode="scaleToFill" id="cell">
                <rect key="frame" x="nan" y="0" width="inf" height="1e400"/>
                <tableViewCellContentView key="contentView" opaque="NO" contentMode="center" tableViewCell="cell" id="content">
                    \(frame(0, 0, 320, 44))
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="v">\(frame(0, 0, 10, 10))</view>
                    </subviews>
                </tableViewCellContentView>
                <constraints>
                    <constraint firstItem="v" firstAttribute="top" secondItem="cell" secondAttribute="top" id="k"/>
                </constraints>
            </tableViewCell>
            """)
        let result = try importText(text)
        #expect(result.layouts.count + result.skipped.count == 1)
    }

    @Test func notAnInterfaceBuilderDocument() throws {
        let other = try #require(fileError("<?xml version=\"1.0\"?>\n  <plist version=\"1.0\"/>\n"))
        #expect(other.description == "Bad.xib:2:3: not an Interface Builder document: the document element is <plist>, not <document>")
        let runtime = try #require(fileError("<document targetRuntime=\"watchKit\"/>"))
        #expect(runtime.message.contains("unsupported targetRuntime"))
        let missing = try #require(fileError("<document/>"))
        #expect(missing.message == "the document has no targetRuntime")
    }

    @Test func deepNestingIsRefused() throws {
        let depth = 250
        let text = "<document targetRuntime=\"iOS.CocoaTouch\">" + String(repeating: "<a>", count: depth)
            + String(repeating: "</a>", count: depth) + "</document>"
        let error = try #require(fileError(text))
        #expect(error.message.contains("nested deeper") || error.message.contains("malformed XML"))
    }

    /// One root per case, each broken in one way: the root is skipped with the position of
    /// the offending element; the file still imports.
    @Test(arguments: [
        (#"<subviews><gizmo id="g"/></subviews>"#, "unknown view element <gizmo> in <subviews>", 5),
        (#"<constraints><widget id="w"/></constraints>"#, "unknown element <widget> in <constraints>", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="top" secondItem="nowhere" secondAttribute="top" id="k"/></constraints>"#,
         "constraint k refers to nowhere, which is not in the file", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="top" secondItem="other" secondAttribute="top" id="k"/></constraints>"#,
         "constraint k refers to other, which is not laid out in this root", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="middle" secondItem="root" secondAttribute="top" id="k"/></constraints>"#,
         "constraint k: unknown attribute \"middle\"", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="2:0" id="k"/></constraints>"#,
         "multiplier \"2:0\" is not a number or a ratio", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="top" secondItem="root" id="k"/></constraints>"#,
         "secondItem without secondAttribute", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1" height="1"/></view></subviews><constraints><constraint firstItem="v" firstAttribute="left" secondItem="root" secondAttribute="leading" id="k"/></constraints>"#,
         "constraint k: leading/trailing mixed with left/right", 5),
        (#"<subviews><view id="v"><rect key="frame" x="0" y="0" width="1e300" height="1"/></view></subviews>"#,
         "is out of range", 5),
    ])
    func brokenRootIsSkippedWithAPosition(body: String, message: String, line: Int) throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <view id="root"><rect key="frame" x="0" y="0" width="100" height="100"/>
                        \(body)
                    </view>
                    <view id="second"><rect key="frame" x="0" y="0" width="100" height="100"/>
                        <subviews><view id="other"><rect key="frame" x="0" y="0" width="10" height="10"/></view></subviews>
                    </view>
                </objects>
            </document>
            """
        let result = try importText(text, file: "Broken.xib")
        let skipped = try #require(result.skipped.first { $0.rootID == "root" })
        #expect(skipped.reason.message.contains(message), "\(skipped.reason)")
        #expect(skipped.reason.location.line == line)
        #expect(skipped.reason.description.hasPrefix("Broken.xib:\(line):"))
        // The other root still imports.
        #expect(result.layouts.map(\.rootID) == ["second"])
    }

    /// A root that lays nothing out is skipped, with the reason.
    @Test func emptyRootIsSkipped() throws {
        let result = try importText(iOSXib(#"<view id="lonely">\#(frame(0, 0, 10, 10))</view>"#))
        #expect(result.layouts.isEmpty)
        #expect(result.skipped.first?.reason.message == "nothing to lay out: the root view has no subviews")
    }

    /// Random jumbles of IB fragments (seeded, so every run sees the same ones) never crash
    /// the importer.
    @Test func garbageNeverCrashes() {
        var generator = SeededGenerator(seed: 20)
        let fragments = ["<document targetRuntime=\"iOS.CocoaTouch\">", "<objects>", "<view id=\"a\">", "<subviews>",
                         "<constraint firstAttribute=\"top\" id=\"c\"/>", "<rect key=\"frame\" x=\"1\" y=\"2\" width=\"3\" height=\"4\"/>",
                         "</view>", "</subviews>", "</objects>", "</document>", "<stackView id=\"s\">", "</stackView>", "&amp;", "\"", "<"]
        for _ in 0..<200 {
            let text = (0..<Int.random(in: 1...30, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }.joined()
            _ = try? importText(text)
        }
    }
}
