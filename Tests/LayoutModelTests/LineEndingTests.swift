import Testing
@testable import LayoutModel

/// One line model everywhere (issue 18, item 1): LF, CRLF and CR end lines, a BOM is skipped,
/// columns do not count the CR.
@Suite struct LineEndingTests {
    /// The text with every LF replaced by `ending`.
    static func withEndings(_ text: String, _ ending: String) -> String {
        String(text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }.joined(separator: ending))
    }

    static let endings = ["\n", "\r\n", "\r"]

    /// The reproducer: a comment ending in CRLF swallowed the next line.
    @Test func commentEndingInCRLFEndsTheLine() throws {
        let s = try parse("root s 375 667\nview a\na.width == 100 # c\r\na.height == 50\n")
        #expect(s.constraints.count == 2)
        #expect(s.constraints.map(s.constraintLine) == ["a.width == 100", "a.height == 50"])
    }

    @Test func stringEndingInCRLFEndsTheLine() throws {
        let s = try parse("layout \"x\"\r\nroot s 375 667\r\nview a\r\na.width == 100\r\n")
        #expect(s.name == "x")
        #expect(s.constraints.count == 1)
    }

    /// A fully CRLF file with an error reports the right line and a column inside it.
    @Test func errorsInCRLFFilesArePositionedInsideTheLine() throws {
        let text = "root s 375 667\r\nview a\r\na.width == 100 # fine\r\na.height == 50 extra\r\n"
        let error = try #require(parseError(text))
        #expect(error.location == SourceLocation(line: 4, column: 16), "\(error)")
        let lines = SourceLines.split(text)
        #expect(error.location.column <= lines[3].unicodeScalars.count)
        let atEnd = try #require(parseError("root s 375 667\r\nview a\r\na.width ==\r\n"))
        #expect(atEnd.location == SourceLocation(line: 3, column: 11), "\(atEnd)")
    }

    /// After a CRLF inside a comment or a `layout` string, later errors name the right line.
    @Test func laterErrorsNameTheRightLine() throws {
        for ending in Self.endings {
            let text = Self.withEndings("layout \"n\" # a comment\nroot s 1 1\nview a\n# another\na.width == b.width\n", ending)
            let error = try #require(parseError(text))
            #expect(error.location == SourceLocation(line: 5, column: 12), "\(ending.debugDescription): \(error)")
        }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let s = try parse("\u{FEFF}root s 375 667\nview a\n")
        #expect(s.root.name == "s")
        let error = try #require(parseError("\u{FEFF}root s 375\n"))
        #expect(error.location == SourceLocation(line: 1, column: 11), "\(error)")
        // A BOM anywhere else is an unexpected character, like any other.
        #expect(parseError("root s 375 667\n\u{FEFF}view a\n")?.location == SourceLocation(line: 2, column: 1))
    }

    @Test func splitterCountsLinesLikeEditors() {
        #expect(SourceLines.split("a\nb\r\nc\rd").map(String.init) == ["a", "b", "c", "d"])
        #expect(SourceLines.split("a\n").map(String.init) == ["a", ""])
        #expect(SourceLines.split("\r\n\r\n").count == 3)
        #expect(SourceLines.split("\n\r").count == 3)  // LF then CR: two line ends
        #expect(SourceLines.split("").map(String.init) == [""])
    }

    /// Every seed file and its CRLF and CR twins parse to the same system, and a broken line
    /// gives the same position in all three.
    @Test func twinsParseAlike() throws {
        for (name, text) in try seedFiles() {
            let system = try LayoutParser.parse(text, file: name)
            for ending in Self.endings.dropFirst() {
                let twin = try LayoutParser.parse(Self.withEndings(text, ending), file: name)
                #expect(twin == system, "\(name) with \(ending.debugDescription)")
            }
            // A bad line near the end (after the comments and strings the file has).
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            lines.insert("   %", at: max(lines.count - 2, 0))
            let brokenText = lines.joined(separator: "\n")
            let error = try #require(parseError(brokenText), "\(name)")
            for ending in Self.endings.dropFirst() {
                let twinError = try #require(parseError(Self.withEndings(brokenText, ending)))
                #expect(twinError.location == error.location, "\(name) with \(ending.debugDescription)")
                #expect(twinError.message == error.message)
            }
        }
    }
}
