import BackendContract
import ExactArithmetic
import LayoutModel

/// The file formats ``LevelProgramExport`` writes.
public enum LPFileFormat: String, Sendable, Hashable, CaseIterable {
    /// CPLEX LP format.
    case lp
    /// Free MPS.
    case mps
}

/// Writes the linear program of one priority level of a system, with exact rational
/// coefficients (`327/2`), for an outside exact solver such as QSopt_ex's `esolver`.
///
/// - Level 0 is a pure feasibility LP over every required constraint.
/// - Level `k ≥ 1` minimises level k's error sum subject to the required constraints the
///   exact backend keeps, the error definitions of the optional constraints of levels
///   `1…k` (`d_r = p_r − n_r`, `p, n ≥ 0`, error `p + n`, `p` or `n`), and
///   `E_i ≤ E_i*` for `i < k`, with `E_i*` the optimal values exactly as computed here.
///
/// The file starts with comment lines that state this backend's answer: `level K
/// optimum VALUE` or `level 0 feasible|infeasible`, which `scripts/qsopt/compare.sh`
/// compares with the outside solver's.
public enum LevelProgramExport {
    /// The LP of `level` (0 … number of optional levels) in `format`.
    public static func export(
        _ system: ConstraintSystem, level: Int, format: LPFileFormat, budget: Budget = .unlimited
    ) throws(BackendError) -> String {
        let lowered = system.lowered(as: Rational.self)
        guard (0...lowered.levels.count).contains(level) else {
            throw .unsupported(
                backend: "exact", reason: "level \(level) does not exist (the system has \(lowered.levels.count) optional levels)")
        }
        let report = try ExactSimplexBackend().solveWithReport(system, budget: budget)
        let solution = report.result.solution
        guard solution.status != .budgetExceeded else {
            throw .internalFailure(backend: "exact", message: "the budget ran out before the levels above \(level) were solved")
        }
        var program = ExportedProgram(system: system)
        var comments = ["layoutbench export-lp: \(system.name ?? "layout"), level \(level)"]
        if level == 0 {
            comments.append("layoutbench: level 0 \(solution.status == .optimal ? "feasible" : "infeasible")")
            for (index, row) in lowered.rows.enumerated() where row.isRequired {
                program.addRow(index, row, errors: false)
            }
        } else {
            let broken = Set(solution.broken)
            let optima = solution.exactObjective ?? []
            guard optima.count == lowered.levels.count else {
                throw .internalFailure(backend: "exact", message: "no exact objective")
            }
            comments.append("layoutbench: level \(level) optimum \(optima[level - 1])")
            comments.append("priority \(lowered.levels[level - 1]); levels above fixed at their optima")
            for (index, row) in lowered.rows.enumerated() where row.level <= level && !broken.contains(index) {
                program.addRow(index, row, errors: !row.isRequired)
            }
            for above in 1..<level {
                program.addLevelBound(above, lowered: lowered, optimum: optima[above - 1])
            }
            program.objective = program.errorTerms(level: level, lowered: lowered)
        }
        if program.rows.isEmpty {
            // LP readers want at least one row.
            program.rows.append(.init(name: "empty", terms: [("zero", .one)], relation: .equal, rhs: .zero))
            program.usesZero = true
        }
        switch format {
        case .lp: return program.lpText(comments: comments)
        case .mps: return program.mpsText(comments: comments)
        }
    }
}

/// An LP under construction, with named columns and rows.
private struct ExportedProgram {
    struct Row {
        var name: String
        var terms: [(column: String, value: Rational)]
        var relation: Relation
        var rhs: Rational
    }

    let system: ConstraintSystem
    var rows: [Row] = []
    var objective: [(column: String, value: Rational)] = []
    /// Nonnegative columns (errors); every other column is free, but `zero`, which is fixed at 0.
    var nonnegative: [String] = []
    var usesZero = false

    init(system: ConstraintSystem) {
        self.system = system
    }

    func unknownName(_ variable: Int) -> String {
        let unknown = Unknown(variable: variable)
        return "v_\(system.items[unknown.item].name)_\(unknown.component.name)"
    }

    /// The unknowns that occur in a row (LP readers reject bounds on unknown columns).
    var freeColumns: [String] {
        let used = Set(rows.flatMap { $0.terms.map(\.column) })
        return (0..<system.variableCount).map(unknownName).filter(used.contains)
    }

    /// The objective, or `0 × (some column)` for a feasibility LP (the format needs a term).
    var objectiveTerms: [(column: String, value: Rational)] {
        objective.isEmpty ? [(freeColumns.first ?? "zero", .zero)] : objective
    }

    var needsZero: Bool { usesZero || freeColumns.isEmpty }

    /// `Σ a·u (− p + n) REL −c`; a row without unknowns reads `zero REL −c`.
    mutating func addRow(_ index: Int, _ row: LinearRow<Rational>, errors: Bool) {
        var terms = row.terms.map { (unknownName($0.variable), $0.coefficient) }
        var relation = row.relation
        if errors {
            let p = "p_r\(index + 1)", n = "n_r\(index + 1)"
            nonnegative += [p, n]
            terms += [(p, -Rational.one), (n, .one)]
            relation = .equal
        }
        if terms.isEmpty {
            usesZero = true
            terms = [("zero", .one)]
        }
        rows.append(Row(name: "r\(index + 1)", terms: terms, relation: relation, rhs: -row.constant))
    }

    func errorTerms(level: Int, lowered: LinearSystem<Rational>) -> [(column: String, value: Rational)] {
        var terms: [(column: String, value: Rational)] = []
        for (index, row) in lowered.rows.enumerated() where row.level == level {
            if row.relation != .greaterThanOrEqual { terms.append(("p_r\(index + 1)", .one)) }
            if row.relation != .lessThanOrEqual { terms.append(("n_r\(index + 1)", .one)) }
        }
        return terms
    }

    mutating func addLevelBound(_ level: Int, lowered: LinearSystem<Rational>, optimum: String) {
        rows.append(Row(
            name: "level\(level)", terms: errorTerms(level: level, lowered: lowered),
            relation: .lessThanOrEqual, rhs: Rational(optimum) ?? .zero))
    }

    /// How each format writes a row's relation: CPLEX LP's operator and MPS's row type.
    private static func spelling(_ relation: Relation) -> (lp: String, mps: String) {
        switch relation {
        case .equal: ("=", "E")
        case .lessThanOrEqual: ("<=", "L")
        case .greaterThanOrEqual: (">=", "G")
        }
    }

    // MARK: CPLEX LP

    func lpText(comments: [String]) -> String {
        var lines = comments.map { "\\ \($0)" }
        lines.append("Minimize")
        lines += wrapped("obj:", objectiveTerms)
        lines.append("Subject To")
        for row in rows {
            var body = wrapped("\(row.name):", row.terms)
            body[body.count - 1] += " \(Self.spelling(row.relation).lp) \(row.rhs)"
            lines += body
        }
        lines.append("Bounds")
        for column in freeColumns { lines.append(" \(column) free") }
        if needsZero { lines.append(" zero = 0") }
        lines.append("End")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `name: t1 + t2 …`, a few terms a line (LP readers limit line length).
    private func wrapped(_ label: String, _ terms: [(column: String, value: Rational)]) -> [String] {
        var lines: [String] = []
        var current = " \(label)"
        for (i, term) in terms.enumerated() {
            let magnitude = term.value.magnitude
            let sign = term.value.sign < 0 ? "-" : "+"
            let coefficient = magnitude == .one ? "" : "\(magnitude) "
            let text = i == 0 && term.value.sign >= 0 ? "\(coefficient)\(term.column)" : "\(sign) \(coefficient)\(term.column)"
            if current.count + text.count > 200 {
                lines.append(current)
                current = "   "
            }
            current += " " + text
        }
        lines.append(current)
        return lines
    }

    // MARK: MPS

    func mpsText(comments: [String]) -> String {
        var lines = comments.map { "* \($0)" }
        lines.append("NAME layout")
        lines.append("ROWS")
        lines.append(" N obj")
        for row in rows { lines.append(" \(Self.spelling(row.relation).mps) \(row.name)") }
        // MPS lists entries column by column.
        var entries: [String: [(row: String, value: Rational)]] = [:]
        var order: [String] = freeColumns + nonnegative + (needsZero ? ["zero"] : [])
        for term in objectiveTerms { entries[term.column, default: []].append(("obj", term.value)) }
        for row in rows {
            for term in row.terms { entries[term.column, default: []].append((row.name, term.value)) }
        }
        order = order.filter { entries[$0] != nil } + order.filter { entries[$0] == nil }
        lines.append("COLUMNS")
        for column in order {
            let list = entries[column] ?? [("obj", .zero)]
            for entry in list { lines.append(" \(column) \(entry.row) \(entry.value)") }
        }
        lines.append("RHS")
        for row in rows where !row.rhs.isZero { lines.append(" rhs \(row.name) \(row.rhs)") }
        lines.append("BOUNDS")
        for column in freeColumns { lines.append(" FR bnd \(column)") }
        if needsZero { lines.append(" FX bnd zero 0") }
        lines.append("ENDATA")
        return lines.joined(separator: "\n") + "\n"
    }
}
