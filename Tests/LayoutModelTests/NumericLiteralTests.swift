import Testing
@testable import Arithmetic
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

    /// `<` reads the doubles first: it must order every pair as the digits do, also where the
    /// doubles tie (closer than an ulp, beyond `Double`'s range, below its smallest value).
    @Test func comparesAsTheDigitsWhereTheDoublesTie() throws {
        let ascending = try [
            "-1e310", "-1e309", "-1e300", "-2", "-1.00000000000000000001", "-1", "-0.99999999999999999999",
            "-1e-400", "0", "1e-401", "1e-400", "2e-400", "0.1", "0.10000000000000000001", "0.3",
            "999.99999999999999999", "1000", "1000.00000000000000001", "1e309", "1e310",
        ].map { try #require(NumericLiteral(parsing: $0)) }
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect((a < b) == (i < j), "\(a) < \(b)")
                #expect((a < b) == NumericLiteral.exactlyLess(a, b), "\(a) < \(b)")
                #expect((a == b) == (i == j), "\(a) == \(b)")
            }
        }
        // Hashing reads the double alone: equal literals hash alike, and a set keeps the ones
        // that share a double apart.
        #expect(NumericLiteral(parsing: "1.50")!.hashValue == NumericLiteral(parsing: "15e-1")!.hashValue)
        #expect(Set(ascending).count == ascending.count)
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
