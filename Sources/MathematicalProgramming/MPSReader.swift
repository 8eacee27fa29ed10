import ExactArithmetic
import Foundation
import LayoutModel

/// A malformed MPS file: what is wrong and where (`file:line:column: message`).
public struct MPSError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// Reads free-format MPS (which also reads fixed MPS whose names have no spaces) into an
/// ``ExactLinearProgram``, every number exactly.
///
/// Sections: NAME, OBJSENSE (MIN/MAX on the same or the next line), ROWS, COLUMNS (with
/// MARKER lines), RHS (an RHS on the objective row is the negated objective constant),
/// RANGES (R on an E row widens it upwards when R > 0 and downwards when R < 0; on L and G
/// rows |R| widens it away from the RHS), BOUNDS (UP, LO, FX, FR, MI, PL, BV, LI, UI; UP
/// with a negative value on a column whose lower bound is still the default 0 makes the
/// lower bound −∞, the standard convention), ENDATA. Further N rows are free rows and are
/// dropped with their entries. The set names in RHS, RANGES and BOUNDS are optional; only
/// the first set of each section is used.
public struct MPSReader {
    /// The name used in error positions.
    public let file: String

    public init(file: String) {
        self.file = file
    }

    /// Reads the file at `path`, decompressing it first when it is gzipped (by name or by
    /// its magic bytes).
    public static func read(path: String) throws -> ExactLinearProgram {
        let data = try CompressedInput.contents(of: path)
        return try MPSReader(file: path).parse(data)
    }

    private enum Section { case none, name, objsense, rows, columns, rhs, ranges, bounds, end }
    private enum RowKind { case objective, free, equal, less, greater }

    private struct Token {
        var text: Substring
        var column: Int
    }

    /// Parses MPS text: as free MPS, and when that fails, as fixed MPS (fields in columns
    /// 2–3, 5–12, 15–22, 25–36, 40–47, 50–61, so names may hold spaces, as in Netlib's
    /// forplan). When both fail, the free reading's error is reported.
    public func parse(_ data: Data) throws -> ExactLinearProgram {
        do {
            return try parse(data, fixed: false)
        } catch let freeError as MPSError {
            guard let program = try? parse(data, fixed: true) else { throw freeError }
            return program
        }
    }

    private func parse(_ data: Data, fixed: Bool) throws -> ExactLinearProgram {
        var lp = ExactLinearProgram()
        var section = Section.none
        var rowIndex: [Substring: Int] = [:]
        var rowKinds: [RowKind] = []
        var freeRows: Set<Substring> = []
        var columnIndex: [Substring: Int] = [:]
        var columnRows: [[Int: Int]] = []  // row → position in lp.columns[j]
        var inIntegerBlock = false
        var rhsSet: Substring?, rangeSet: Substring?, boundSet: Substring?
        var lowerWasSet: [Bool] = []
        var rangeSeen: Set<Int> = []
        var sawEnd = false
        var sawRows = false
        var objectiveRow: Substring?
        var rangeRows: [(row: Int, range: Rational)] = []
        func addRow(_ name: Substring, _ kind: RowKind) {
            rowIndex[name] = lp.rowCount
            rowKinds.append(kind)
            lp.rowNames.append(String(name))
            lp.rowLower.append(kind == .less ? nil : .zero)
            lp.rowUpper.append(kind == .greater ? nil : .zero)
        }

        var lineNumber = 0
        var start = data.startIndex
        let bytes = data
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex && bytes[end] != 0x0A { end += 1 }
            lineNumber += 1
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let lineBytes = bytes[start..<lineEnd]
            start = end < bytes.endIndex ? end + 1 : end
            guard let line = String(bytes: lineBytes, encoding: .utf8) else {
                throw MPSError(file: file, line: lineNumber, column: 1, message: "the line is not UTF-8 text")
            }
            if sawEnd { continue }
            if line.first == "*" { continue }
            let isHeader = !(line.first == " " || line.first == "\t")
            let tokens = fixed && !isHeader ? Self.fixedTokens(of: line) : Self.tokens(of: line)
            if tokens.isEmpty { continue }
            func fail(_ token: Int, _ message: String) -> MPSError {
                let column = token < tokens.count ? tokens[token].column : line.count + 1
                return MPSError(file: file, line: lineNumber, column: column, message: message)
            }

            if isHeader {
                let keyword = tokens[0].text.uppercased()
                switch keyword {
                case "NAME":
                    section = .name
                    lp.name = tokens.dropFirst().map { String($0.text) }.joined(separator: " ")
                case "OBJSENSE":
                    section = .objsense
                    if tokens.count > 1 { try applySense(tokens[1].text, to: &lp, error: fail(1, "OBJSENSE must be MIN or MAX")) }
                case "ROWS": section = .rows; sawRows = true
                case "COLUMNS":
                    guard sawRows else { throw fail(0, "COLUMNS before ROWS") }
                    section = .columns
                case "RHS": section = .rhs
                case "RANGES": section = .ranges
                case "BOUNDS": section = .bounds
                case "ENDATA": section = .end; sawEnd = true
                case "MIN", "MAX", "MINIMIZE", "MAXIMIZE":
                    guard section == .objsense else { throw fail(0, "unknown section '\(tokens[0].text)'") }
                    try applySense(tokens[0].text, to: &lp, error: fail(0, "OBJSENSE must be MIN or MAX"))
                default:
                    throw fail(0, "unknown section '\(tokens[0].text)'")
                }
                continue
            }

            switch section {
            case .none, .name:
                throw fail(0, "data line outside a section")
            case .end:
                break
            case .objsense:
                try applySense(tokens[0].text, to: &lp, error: fail(0, "OBJSENSE must be MIN or MAX"))
            case .rows:
                guard tokens.count == 2 else { throw fail(min(2, tokens.count), "a ROWS line is a type (N, E, L, G) and a name") }
                let name = tokens[1].text
                if rowIndex[name] != nil || freeRows.contains(name) || name == objectiveRow {
                    throw fail(1, "row '\(name)' is declared twice")
                }
                switch tokens[0].text.uppercased() {
                case "N":
                    if objectiveRow == nil {
                        objectiveRow = name
                        lp.objectiveName = String(name)
                    } else {
                        freeRows.insert(name)
                    }
                case "E": addRow(name, .equal)
                case "L": addRow(name, .less)
                case "G": addRow(name, .greater)
                default: throw fail(0, "row type must be N, E, L or G, not '\(tokens[0].text)'")
                }
            case .columns:
                if tokens.count >= 3 && tokens[1].text.uppercased() == "'MARKER'" {
                    switch tokens[2].text.uppercased() {
                    case "'INTORG'": inIntegerBlock = true
                    case "'INTEND'": inIntegerBlock = false
                    default: throw fail(2, "a MARKER is 'INTORG' or 'INTEND'")
                    }
                    continue
                }
                guard tokens.count == 3 || tokens.count == 5 else {
                    throw fail(min(tokens.count, 5), "a COLUMNS line is a column name and one or two (row, value) pairs")
                }
                let name = tokens[0].text
                let j: Int
                if let existing = columnIndex[name] {
                    j = existing
                    guard j == lp.columnCount - 1 else { throw fail(0, "the entries of column '\(name)' are not contiguous") }
                } else {
                    j = lp.columnCount
                    columnIndex[name] = j
                    lp.columnNames.append(String(name))
                    lp.columns.append([])
                    columnRows.append([:])
                    lp.objective.append(.zero)
                    lp.columnLower.append(.zero)
                    lp.columnUpper.append(nil)
                    lowerWasSet.append(false)
                    if inIntegerBlock { lp.integerColumns.insert(j) }
                }
                for pair in stride(from: 1, to: tokens.count, by: 2) {
                    let rowName = tokens[pair].text
                    let value = try number(tokens[pair + 1], fail(pair + 1, "'\(tokens[pair + 1].text)' is not a number"))
                    if rowName == objectiveRow {
                        lp.objective[j] += value
                    } else if freeRows.contains(rowName) {
                        continue
                    } else if let i = rowIndex[rowName] {
                        if columnRows[j][i] != nil { throw fail(pair, "column '\(name)' has row '\(rowName)' twice") }
                        if value.isZero { continue }
                        columnRows[j][i] = lp.columns[j].count
                        lp.columns[j].append(.init(row: i, value: value))
                    } else {
                        throw fail(pair, "unknown row '\(rowName)'")
                    }
                }
            case .rhs, .ranges:
                let hasSet = tokens.count % 2 == 1
                guard tokens.count >= 2 && tokens.count <= 5 else {
                    throw fail(min(tokens.count, 5), "an \(section == .rhs ? "RHS" : "RANGES") line is an optional set name and one or two (row, value) pairs")
                }
                if hasSet {
                    let set = tokens[0].text
                    if section == .rhs {
                        if rhsSet == nil { rhsSet = set } else if rhsSet != set { continue }
                    } else {
                        if rangeSet == nil { rangeSet = set } else if rangeSet != set { continue }
                    }
                }
                for pair in stride(from: hasSet ? 1 : 0, to: tokens.count, by: 2) {
                    let rowName = tokens[pair].text
                    let value = try number(tokens[pair + 1], fail(pair + 1, "'\(tokens[pair + 1].text)' is not a number"))
                    if section == .rhs {
                        if rowName == objectiveRow {
                            lp.objectiveConstant = -value
                        } else if freeRows.contains(rowName) {
                            continue
                        } else if let i = rowIndex[rowName] {
                            switch rowKinds[i] {
                            case .equal: lp.rowLower[i] = value; lp.rowUpper[i] = value
                            case .less: lp.rowUpper[i] = value
                            case .greater: lp.rowLower[i] = value
                            case .objective, .free: break
                            }
                        } else {
                            throw fail(pair, "unknown row '\(rowName)'")
                        }
                    } else {
                        guard let i = rowIndex[rowName] else {
                            if rowName == objectiveRow || freeRows.contains(rowName) {
                                throw fail(pair, "a range on the free row '\(rowName)'")
                            }
                            throw fail(pair, "unknown row '\(rowName)'")
                        }
                        guard rangeSeen.insert(i).inserted else { throw fail(pair, "row '\(rowName)' has two ranges") }
                        rangeRows.append((i, value))
                    }
                }
            case .bounds:
                let kind = tokens[0].text.uppercased()
                let takesValue = ["UP", "LO", "FX", "LI", "UI"].contains(kind)
                guard takesValue || ["FR", "MI", "PL", "BV"].contains(kind) else {
                    throw fail(0, "bound type must be UP, LO, FX, FR, MI, PL, BV, LI or UI, not '\(tokens[0].text)'")
                }
                // With a value: TYPE [SET] COLUMN VALUE; without: TYPE [SET] COLUMN (BV may add a value).
                let count = tokens.count
                let hasSet: Bool
                if takesValue {
                    guard count == 3 || count == 4 else { throw fail(min(count, 4), "a \(kind) bound is a type, an optional set name, a column and a value") }
                    hasSet = count == 4
                } else {
                    guard count >= 2 && count <= 4 else { throw fail(min(count, 4), "a \(kind) bound is a type, an optional set name and a column") }
                    hasSet = count >= 3 && (kind != "BV" || count == 4 || columnIndex[tokens[1].text] == nil)
                }
                if hasSet {
                    if boundSet == nil { boundSet = tokens[1].text } else if boundSet != tokens[1].text { continue }
                }
                let c = hasSet ? 2 : 1
                guard let j = columnIndex[tokens[c].text] else { throw fail(c, "unknown column '\(tokens[c].text)'") }
                var value: Rational = .zero
                if takesValue {
                    value = try number(tokens[c + 1], fail(c + 1, "'\(tokens[c + 1].text)' is not a number"))
                }
                switch kind {
                case "UP", "UI":
                    lp.columnUpper[j] = value
                    if value.sign < 0 && !lowerWasSet[j] && lp.columnLower[j] == .zero { lp.columnLower[j] = nil }
                    if kind == "UI" { lp.integerColumns.insert(j) }
                case "LO", "LI":
                    lp.columnLower[j] = value
                    lowerWasSet[j] = true
                    if kind == "LI" { lp.integerColumns.insert(j) }
                case "FX":
                    lp.columnLower[j] = value
                    lp.columnUpper[j] = value
                    lowerWasSet[j] = true
                case "FR":
                    lp.columnLower[j] = nil
                    lp.columnUpper[j] = nil
                    lowerWasSet[j] = true
                case "MI":
                    lp.columnLower[j] = nil
                    lowerWasSet[j] = true
                case "PL":
                    lp.columnUpper[j] = nil
                default:  // BV
                    lp.columnLower[j] = .zero
                    lp.columnUpper[j] = .one
                    lowerWasSet[j] = true
                    lp.integerColumns.insert(j)
                }
            }
        }
        guard sawEnd else {
            throw MPSError(file: file, line: lineNumber + 1, column: 1, message: "the file ends without ENDATA")
        }
        for (i, r) in rangeRows {
            let magnitude = r.magnitude
            switch rowKinds[i] {
            case .equal:
                let rhs = lp.rowLower[i] ?? .zero
                if r.sign >= 0 { lp.rowUpper[i] = rhs + magnitude } else { lp.rowLower[i] = rhs - magnitude }
            case .less: lp.rowLower[i] = (lp.rowUpper[i] ?? .zero) - magnitude
            case .greater: lp.rowUpper[i] = (lp.rowLower[i] ?? .zero) + magnitude
            case .objective, .free: break
            }
        }
        lp._checkInvariants()
        return lp

    }

    private func applySense(_ text: Substring, to lp: inout ExactLinearProgram, error: @autoclosure () -> MPSError) throws {
        switch text.uppercased() {
        case "MIN", "MINIMIZE", "MINIMISE": lp.sense = .minimize
        case "MAX", "MAXIMIZE", "MAXIMISE": lp.sense = .maximize
        default: throw error()
        }
    }

    private func number(_ token: Token, _ error: @autoclosure () -> MPSError) throws -> Rational {
        guard let value = Self.exactNumber(token.text) else { throw error() }
        return value
    }

    /// The exact value of a decimal number, `[+-]digits[.digits][(e|E)[+-]digits]` (at
    /// least one digit in the mantissa), read as the `.layout` format reads its literals;
    /// nil for anything else, and for powers of ten beyond ±10000 (no LP needs them, and
    /// `1e9999999` would take megabytes).
    public static func exactNumber(_ text: Substring) -> Rational? {
        guard let literal = NumericLiteral(parsing: text), literal.exponent.magnitude <= 10_000 else { return nil }
        return Rational(literal: literal)
    }

    /// The nonempty fixed-MPS fields of a data line, trimmed.
    private static func fixedTokens(of line: String) -> [Token] {
        let characters = Array(line)
        var result: [Token] = []
        for (start, end) in [(2, 3), (5, 12), (15, 22), (25, 36), (40, 47), (50, 61)] where start <= characters.count {
            let field = String(characters[(start - 1)..<min(end, characters.count)]).trimmingCharacters(in: .whitespaces)
            if !field.isEmpty { result.append(Token(text: Substring(field), column: start)) }
        }
        if characters.count > 61, !String(characters[61...]).trimmingCharacters(in: .whitespaces).isEmpty {
            return tokens(of: line)  // not fixed MPS: let the free reading's checks report it
        }
        return result
    }

    private static func tokens(of line: String) -> [Token] {
        var result: [Token] = []
        var column = 0
        var current: Substring.Index?
        var startColumn = 0
        var index = line.startIndex
        while index < line.endIndex {
            column += 1
            let character = line[index]
            if character == " " || character == "\t" {
                if let s = current {
                    result.append(Token(text: line[s..<index], column: startColumn))
                    current = nil
                }
            } else if current == nil {
                current = index
                startColumn = column
            }
            index = line.index(after: index)
        }
        if let s = current { result.append(Token(text: line[s..<line.endIndex], column: startColumn)) }
        return result
    }
}
