import ExactArithmetic
import Foundation
import MathematicalProgramming
import Testing

func read(_ text: String) throws -> ExactLinearProgram {
    try MPSReader(file: "test.mps").parse(Data(text.utf8))
}

func q(_ text: String) -> Rational { Rational(text)! }

/// The error a malformed file gives.
func readError(_ text: String) -> MPSError? {
    do {
        _ = try read(text)
        return nil
    } catch let error as MPSError {
        return error
    } catch {
        return nil
    }
}

@Suite("MPS reader")
struct MPSReaderTests {
    static let everySection = """
        * a comment
        NAME          TOY
        OBJSENSE
            MAX
        ROWS
         N  COST
         N  FREE
         E  EQ
         L  LE
         G  GE
         E  EQNEG
        COLUMNS
            MARKER                 'MARKER'                 'INTORG'
            X         COST         1.5          EQ           1
            X         LE           2            FREE         7
            MARKER                 'MARKER'                 'INTEND'
            Y         COST         -2e-1        GE           .5
            Y         EQNEG        3.           LE           -1.25E+2
            Z         EQ           1
            W         GE           1
            V         LE           1
            U         LE           1
            T         GE           1
            S         GE           1
            R         GE           1
        RHS
            RHS       COST         10           EQ           4
            RHS       LE           8            GE           1
            RHS       EQNEG        6
            OTHER     EQ           99
        RANGES
            RNG       EQ           2            LE           3
            RNG       GE           -4           EQNEG        -5
        BOUNDS
         UP BND       X            4
         LO BND       Y            -1
         FX BND       Z            3
         FR BND       W
         MI BND       V
         UP BND       V            -2
         PL BND       U
         BV BND       T
         UP BND       S            -3
         LI BND       R            2
         UI BND       R            9
        ENDATA
        """

    @Test func readsEverySectionAndBoundType() throws {
        let lp = try read(Self.everySection)
        #expect(lp.name == "TOY")
        #expect(lp.sense == .maximize)
        #expect(lp.objectiveName == "COST")
        #expect(lp.rowNames == ["EQ", "LE", "GE", "EQNEG"])
        #expect(lp.columnNames == ["X", "Y", "Z", "W", "V", "U", "T", "S", "R"])
        // Objective coefficients, exactly; the objective RHS is the negated constant.
        #expect(lp.objective[0] == q("3/2"))
        #expect(lp.objective[1] == q("-1/5"))
        #expect(lp.objectiveConstant == q("-10"))
        // Entries on the free row are dropped; decimals and exponents are exact.
        #expect(lp.columns[0] == [.init(row: 0, value: 1), .init(row: 1, value: 2)])
        #expect(lp.columns[1] == [.init(row: 2, value: q("1/2")), .init(row: 3, value: 3), .init(row: 1, value: -125)])
        // RHS (only the first set) and RANGES: E with R > 0 widens up, E with R < 0 widens down,
        // L widens down by |R|, G widens up by |R|.
        #expect(lp.rowLower[0] == 4 && lp.rowUpper[0] == 6)
        #expect(lp.rowLower[1] == 5 && lp.rowUpper[1] == 8)
        #expect(lp.rowLower[2] == 1 && lp.rowUpper[2] == 5)
        #expect(lp.rowLower[3] == 1 && lp.rowUpper[3] == 6)
        // Bounds.
        #expect(lp.columnLower[0] == 0 && lp.columnUpper[0] == 4)  // UP
        #expect(lp.columnLower[1] == -1 && lp.columnUpper[1] == nil)  // LO
        #expect(lp.columnLower[2] == 3 && lp.columnUpper[2] == 3)  // FX
        #expect(lp.columnLower[3] == nil && lp.columnUpper[3] == nil)  // FR
        #expect(lp.columnLower[4] == nil && lp.columnUpper[4] == -2)  // MI then UP
        #expect(lp.columnLower[5] == 0 && lp.columnUpper[5] == nil)  // PL
        #expect(lp.columnLower[6] == 0 && lp.columnUpper[6] == 1)  // BV
        #expect(lp.columnLower[7] == nil && lp.columnUpper[7] == -3)  // UP < 0 on a default lower bound
        #expect(lp.columnLower[8] == 2 && lp.columnUpper[8] == 9)  // LI, UI
        #expect(lp.integerColumns == [0, 6, 8])
    }

    @Test func negativeUpperBoundKeepsAnExplicitLowerBound() throws {
        let lp = try read("""
            NAME
            ROWS
             N  C
            COLUMNS
                X  C  1
            BOUNDS
             LO B X -5
             UP B X -2
            ENDATA
            """)
        #expect(lp.columnLower[0] == -5 && lp.columnUpper[0] == -2)
    }

    @Test func setNamesAreOptionalInFreeMPS() throws {
        let lp = try read("""
            NAME
            ROWS
             N  C
             L  R
            COLUMNS
                X  C  1  R  1
            RHS
                R  7
            RANGES
                R  2
            BOUNDS
             UP X 3
             FR X
            ENDATA
            """)
        #expect(lp.rowLower[0] == 5 && lp.rowUpper[0] == 7)
        #expect(lp.columnLower[0] == nil && lp.columnUpper[0] == nil)
    }

    @Test func fixedMPSNamesMayHoldSpaces() throws {
        let lp = try read("""
            NAME          FIXED
            ROWS
             N  COST
             E  ROW 1
            COLUMNS
                COL 1     COST         1.0          ROW 1        2.0
            RHS
                RHS       ROW 1        4.0
            ENDATA
            """)
        #expect(lp.rowNames == ["ROW 1"])
        #expect(lp.columnNames == ["COL 1"])
        #expect(lp.rowLower[0] == 4)
    }

    @Test func numbersAreReadExactly() {
        #expect(MPSReader.exactNumber("0.1") == q("1/10"))
        #expect(MPSReader.exactNumber("-1.5e-3") == q("-3/2000"))
        #expect(MPSReader.exactNumber("+2E2") == 200)
        #expect(MPSReader.exactNumber("123456789012345678901234567890") == q("123456789012345678901234567890"))
        for bad in ["", "-", ".", "e5", "1e", "1.2.3", "1e+", "0x10", "1e9999999", "nan", "inf"] {
            #expect(MPSReader.exactNumber(Substring(bad)) == nil, "\(bad)")
        }
    }

    static let header = "NAME T\nROWS\n N C\n L R\nCOLUMNS\n"

    @Test(arguments: [
        ("NAME T\nROWS\n Q R\nENDATA\n", 3, 2, "row type"),
        ("NAME T\nROWS\n N C\n L R\n L R\nENDATA\n", 5, 4, "declared twice"),
        (header + "    X  C  abc\nENDATA\n", 6, 11, "not a number"),
        (header + "    X  NOPE  1\nENDATA\n", 6, 8, "unknown row"),
        (header + "    X  C  1  R\nENDATA\n", 6, 15, "COLUMNS line"),
        (header + "    X  C  1\n    Y  C  1\n    X  R  1\nENDATA\n", 8, 5, "not contiguous"),
        (header + "    X  R  1  R  2\nENDATA\n", 6, 14, "twice"),
        (header + "    X  C  1\nRHS\n    RHS  NOPE  1\nENDATA\n", 8, 10, "unknown row"),
        (header + "    X  C  1\nRANGES\n    RNG  C  1\nENDATA\n", 8, 10, "free row"),
        (header + "    X  C  1\nRANGES\n    RNG  R  1\n    RNG  R  2\nENDATA\n", 9, 10, "two ranges"),
        (header + "    X  C  1\nBOUNDS\n XX B X 1\nENDATA\n", 8, 2, "bound type"),
        (header + "    X  C  1\nBOUNDS\n UP B Y 1\nENDATA\n", 8, 7, "unknown column"),
        (header + "    X  C  1\nBOUNDS\n UP B X Y Z\nENDATA\n", 8, 11, "UP bound"),
        (header + "    X  C  1\nBOUNDS\n UP B X\nENDATA\n", 8, 5, "unknown column"),
        (header + "    X  C  1\nBOUNDS\n UP B X 1e\nENDATA\n", 8, 9, "not a number"),
        (header + "    X  C  1\n", 7, 1, "without ENDATA"),
        ("NAME T\nBANANAS\nENDATA\n", 2, 1, "unknown section"),
        ("NAME T\n  X C 1\nENDATA\n", 2, 3, "outside a section"),
        ("NAME T\nCOLUMNS\nENDATA\n", 2, 1, "before ROWS"),
        ("NAME T\nOBJSENSE\n    SIDEWAYS\nENDATA\n", 3, 5, "MIN or MAX"),
        (header + "    X  C  1\n    MARKER  'MARKER'  'HALFWAY'\nENDATA\n", 7, 23, "MARKER"),
    ] as [(String, Int, Int, String)])
    func malformedInputGivesAPositionedError(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(readError(text))
        #expect(error.file == "test.mps")
        #expect(error.line == line, "\(error)")
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("test.mps:\(line):\(column): "))
    }

    @Test func invalidUTF8IsAnErrorNotACrash() {
        var data = Data("NAME T\nROWS\n N C\n".utf8)
        data.append(contentsOf: [0x20, 0xFF, 0xFE, 0x0A])
        #expect(throws: MPSError.self) { try MPSReader(file: "x").parse(data) }
    }

    @Test func gzippedFilesAreDecompressed() throws {
        let directory = NSTemporaryDirectory() + "mps-gzip-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plain = directory + "/toy.mps"
        try Data(Self.everySection.utf8).write(to: URL(fileURLWithPath: plain))
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        gzip.arguments = ["-k", plain]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(try MPSReader.read(path: plain + ".gz") == (try MPSReader.read(path: plain)))
        // A file that claims to be gzip but is not is an error, not a crash.
        let broken = directory + "/broken.mps.gz"
        try Data([0x1F, 0x8B, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: broken))
        #expect(throws: CompressedInput.ReadError.self) { try MPSReader.read(path: broken) }
        #expect(throws: CompressedInput.ReadError.self) { try MPSReader.read(path: directory + "/missing.mps") }
    }
}
