import Testing
@testable import LayoutModel

@Suite struct NumericLiteralTests {
    @Test(arguments: [
        ("12", "12"), ("-12", "-12"), ("0.5", "0.5"), ("1e-9", "1e-9"), ("1.50", "1.5"),
        ("000", "0"), ("-0", "0"), ("1E3", "1000"), ("2.", "2"), ("123456789012345678901234", "1.23456789012345678901234e23"),
        ("0.000001", "0.000001"), ("0.0000001", "1e-7"), ("+7", "7"), ("1.536", "1.536"),
    ])
    func canonicalText(input: String, expected: String) throws {
        let literal = try #require(NumericLiteral(parsing: input))
        #expect(literal.description == expected)
        #expect(NumericLiteral(parsing: literal.description) == literal)
    }

    @Test(arguments: ["", "-", "e5", "1e", "1e+", "1.2.3", "abc", "1x", "--1", ".", "1 2"])
    func rejectsMalformed(input: String) {
        #expect(NumericLiteral(parsing: input) == nil)
    }

    @Test func comparesExactly() throws {
        let nearly = try #require(NumericLiteral(parsing: "999.99999999999999999"))
        #expect(nearly.doubleValue == 1000)
        #expect(nearly < NumericLiteral(1000))
        #expect(NumericLiteral(-2) < NumericLiteral(-1))
        #expect(NumericLiteral(-1) < .zero)
        #expect(NumericLiteral(parsing: "0.25")! < NumericLiteral(parsing: "0.3")!)
        #expect(NumericLiteral(parsing: "1.0") == NumericLiteral(1))
        #expect(NumericLiteral(parsing: "100e-2") == NumericLiteral(1))
        #expect(NumericLiteral(parsing: "-1e300")! < NumericLiteral(parsing: "-1e299")!)
    }

    @Test func representableRange() throws {
        #expect(try #require(NumericLiteral(parsing: "1e308")).isRepresentable)
        #expect(try !#require(NumericLiteral(parsing: "1e309")).isRepresentable)
        #expect(try !#require(NumericLiteral(parsing: "1e-400")).isRepresentable)
        #expect(try #require(NumericLiteral(parsing: "0e-400")).isRepresentable)
        #expect(try !#require(NumericLiteral(parsing: "1e99999999999999999999")).isRepresentable)
    }

    @Test func doubleRoundTrip() {
        for value in [0.1, -3.25, 1e-9, 6.02e23, 0.6510416666, 163.5, -0.0] {
            #expect(NumericLiteral(value).doubleValue == value)
        }
    }
}
