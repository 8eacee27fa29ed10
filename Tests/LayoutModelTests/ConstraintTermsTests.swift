import Foundation
import LayoutModel
import Testing

/// The identity ``Constraint`` and ``NewConstraint`` share (``ConstraintTerms``), and
/// ``DefaultWhenAbsent``, which keeps synthesized `Codable` while reading older files.
@Suite struct ConstraintTermsTests {
    static let located = ConstraintSource(all: SourceLocation(line: 3, column: 1))

    @Test func identityIsMeaningAndIDForBothForms() throws {
        let plain = Constraint(first: AttributeReference(item: 1, attribute: .width), relation: .equal,
                               second: AttributeReference(item: 0, attribute: .width), constant: NumericLiteral(8))
        var written = plain
        written.origin = .visualFormat
        written.source = Self.located
        var intrinsic = plain
        intrinsic.origin = .intrinsic
        var named = plain
        named.id = "w"
        #expect(plain == written && plain.hashValue == written.hashValue)
        #expect(plain != intrinsic && plain != named)

        let system = try parse("root s 100 100\nview a\na.width == s.width + 8\n")
        let new = NewConstraint(system.constraints[0], in: system)
        var newWritten = new
        newWritten.origin = .visualFormat
        newWritten.source = Self.located
        var newIntrinsic = new
        newIntrinsic.origin = .intrinsic
        #expect(new == newWritten && new.hashValue == newWritten.hashValue)
        #expect(new != newIntrinsic)
        #expect(Set([new, newWritten]).count == 1)
    }

    struct Record: Codable, Equatable {
        enum Fallback: AbsentValueDefault { static let value = "old" }
        var name: String
        @DefaultWhenAbsent<Fallback> var kind: String
    }

    @Test func anAbsentOrNullKeyDecodesAsTheDefaultAndTheValueEncodesPlain() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Record.self, from: Data(#"{"name":"a"}"#.utf8)).kind == "old")
        #expect(try decoder.decode(Record.self, from: Data(#"{"name":"a","kind":null}"#.utf8)).kind == "old")
        let record = try decoder.decode(Record.self, from: Data(#"{"kind":"new","name":"a"}"#.utf8))
        #expect(record.kind == "new")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(record), as: UTF8.self) == #"{"kind":"new","name":"a"}"#)
        #expect(throws: DecodingError.self) { try decoder.decode(Record.self, from: Data(#"{"name":"a","kind":3}"#.utf8)) }
    }
}
