import BackendContract
import ExactArithmetic
import ExactSimplex
import LayoutModel

/// Writes a finding as a standalone program in the solver's own language and API, for its
/// maintainers: no LayoutBench, no adapter, only the library (or binary) and the reduced
/// constraints, added in order.
///
/// A Python reproducer (kiwisolver, cassowary, z3, highspy) builds the rows, solves the way
/// the adapter does, then checks the answer by the solver's own declared semantics against
/// the exact expectation written into it: the rejected rows, every accepted required row,
/// the optimum of the solver's own objective (weighted, or per level). It prints each
/// problem as `BUG: …` and exits 1 when the bug shows, 0 when it does not. An LP-file
/// reproducer (esolver, glpsol) is one LP per level (``LevelProgramExport``: the exact
/// answer in its comment lines) and a shell script that runs the solver on each and
/// compares.
struct Reproducer {
    let style: String
    let solver: String
    let version: String
    let capabilities: BackendCapabilities

    func files(for system: ConstraintSystem, expectation: ReproducerExpectation) -> [ReproducerFile] {
        switch style {
        case "kiwisolver", "cassowary", "z3", "highspy":
            return [ReproducerFile(suffix: "repro.py", contents: python(system, expectation), executable: true)]
        case "esolver", "glpsol":
            return lpFiles(system, expectation)
        case "gtk":
            return gtkFiles(system, expectation)
        default:
            return []
        }
    }

    // MARK: Python

    func python(_ system: ConstraintSystem, _ expectation: ReproducerExpectation) -> String {
        let lowered = system.lowered(as: Rational.self)
        var lines: [String] = []
        lines.append("#!/usr/bin/env python3")
        lines.append("# Reproducer for \(solver) \(version), written by LayoutBench.")
        lines.append("# Finding: " + expectation.finding.replacingOccurrences(of: "\n", with: " "))
        lines.append("# Needs only \(style == "z3" ? "z3-solver" : style) (\(style) \(version) showed the bug).")
        lines.append("# Prints BUG lines and exits 1 while the bug is there; prints OK and exits 0 once it is fixed.")
        lines.append("# The rows are `sum(coefficient * x[v]) + constant OP 0` at a priority (1000 = required),")
        lines.append("# in the order the solver is given them; x[v] is the unknown named in VARIABLES.")
        lines.append("import sys")
        lines.append("from fractions import Fraction")
        lines.append("")
        let names = (0..<lowered.variableCount).map { system.unknownName(Unknown(variable: $0)) }
        lines.append("VARIABLES = [" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]")
        lines.append("ROWS = [")
        for row in lowered.rows {
            let priority = row.level == 0 ? "1000" : lowered.levels[row.level - 1].value.description
            let terms = row.terms.map { "(\($0.variable), \"\(ExactText.decimal($0.coefficient))\")" }.joined(separator: ", ")
            let readable = Self.readable(row, names: names)
            let source = system.constraintLine(system.constraints[row.constraintIndex])
            lines.append("    # \(system.constraintName(row.constraintIndex)): \(source)")
            lines.append("    #   \(readable) @\(priority)")
            lines.append("    ([\(terms)], \"\(ExactText.decimal(row.constant))\", \"\(AdapterRequest.relationText(row.relation))\", \"\(priority)\"),")
        }
        lines.append("]")
        lines.append("EXPECTED_REJECTED = \(expectation.broken)  # rows the exact answer breaks (row = position in ROWS)")
        let weighted = capabilities.isWeighted
        if weighted {
            lines.append("WEIGHTED = True  # the solver minimises sum(priority * error); its exact optimum:")
        } else {
            lines.append("WEIGHTED = False  # lexicographic: the exact error sum of each level, highest priority first:")
        }
        lines.append("EXPECTED_OBJECTIVE = [" + expectation.objective.map { "Fraction(\"\($0)\")" }.joined(separator: ", ") + "]")
        lines.append("BOUND = \(expectation.bound)  # how far a Double answer may stray")
        lines.append("")
        lines.append(Self.solveCode[style] ?? "")
        if Self.addsRowsInOrder.contains(style) { lines.append(Self.addInOrderCode) }
        lines.append(Self.checkCode)
        return lines.joined(separator: "\n") + "\n"
    }

    static func readable(_ row: LinearRow<Rational>, names: [String]) -> String {
        var parts = row.terms.map { "\(ExactText.decimal($0.coefficient))*x\($0.variable)" }
        if !row.constant.isZero || parts.isEmpty { parts.append(ExactText.decimal(row.constant)) }
        return parts.joined(separator: " + ").replacingOccurrences(of: "+ -", with: "- ")
            + " \(AdapterRequest.relationText(row.relation)) 0"
    }

    /// `solve()` returns (values as floats or Fractions, rejected row positions).
    static let solveCode: [String: String] = [
        "kiwisolver": """
            import kiwisolver


            def solve():
                x = [kiwisolver.Variable(name) for name in VARIABLES]
                solver = kiwisolver.Solver()

                def add(terms, constant, op, priority):
                    expression = sum((float(Fraction(c)) * x[v] for v, c in terms), float(Fraction(constant)))
                    constraint = {"==": expression == 0, "<=": expression <= 0, ">=": expression >= 0}[op]
                    strength = "required" if Fraction(priority) == 1000 else float(Fraction(priority))
                    solver.addConstraint(constraint | strength)

                rejected = add_in_order(add, kiwisolver.UnsatisfiableConstraint)
                solver.updateVariables()
                return [v.value() for v in x], rejected

            """,
        "cassowary": """
            import cassowary
            from cassowary.expression import Constraint, Expression


            def solve():
                x = [cassowary.Variable(name) for name in VARIABLES]
                solver = cassowary.SimplexSolver()

                def add(terms, constant, op, priority):
                    expression = Expression(constant=float(Fraction(constant)))
                    for v, c in terms:
                        expression = expression + float(Fraction(c)) * x[v]
                    relation = {"==": Constraint.EQ, "<=": Constraint.LEQ, ">=": Constraint.GEQ}[op]
                    strength = cassowary.REQUIRED if Fraction(priority) == 1000 else float(Fraction(priority))
                    solver.add_constraint(Constraint(expression, relation, 0.0, strength=strength, weight=1.0))

                rejected = add_in_order(add, cassowary.RequiredFailure)
                return [float(v.value) for v in x], rejected

            """,
        "z3": """
            import z3


            def solve():
                x = [z3.Real(name) for name in VARIABLES]

                def q(text):
                    f = Fraction(text)
                    return z3.Q(f.numerator, f.denominator)

                def expression(terms, constant):
                    return z3.Sum([q(c) * x[v] for v, c in terms] + [q(constant)])

                def holds(terms, constant, op):
                    e = expression(terms, constant)
                    return {"==": e == 0, "<=": e <= 0, ">=": e >= 0}[op]

                solver = z3.Solver()
                kept, rejected = [], []
                for index, (terms, constant, op, priority) in enumerate(ROWS):
                    if Fraction(priority) != 1000:
                        continue
                    solver.push()
                    solver.add(holds(terms, constant, op))
                    if solver.check() == z3.sat:
                        kept.append(index)
                    else:
                        solver.pop()
                        rejected.append(index)
                optimizer = z3.Optimize()
                optimizer.set(priority="lex")
                optimizer.add([holds(*ROWS[i][:3]) for i in kept])
                for level in sorted({Fraction(r[3]) for r in ROWS if Fraction(r[3]) != 1000}, reverse=True):
                    errors = []
                    for index, (terms, constant, op, priority) in enumerate(ROWS):
                        if Fraction(priority) != level:
                            continue
                        p, n = z3.Real("p%d" % index), z3.Real("n%d" % index)
                        optimizer.add(p >= 0, n >= 0, expression(terms, constant) == p - n)
                        errors += ([p] if op != ">=" else []) + ([n] if op != "<=" else [])
                    optimizer.minimize(z3.Sum(errors) if errors else z3.RealVal(0))
                print("z3 says", optimizer.check())
                model = optimizer.model()
                values = []
                for v in x:
                    r = model.eval(v, model_completion=True)
                    values.append(Fraction(r.numerator_as_long(), r.denominator_as_long()))
                return values, rejected

            """,
        "highspy": """
            import highspy


            def lp(rows, objective_level, bounds):
                \"\"\"Min of the error sum at `objective_level` over `rows`, with `bounds` = [(level, max)].\"\"\"
                h = highspy.Highs()
                h.setOptionValue("output_flag", False)
                x = [h.addVariable(lb=-highspy.kHighsInf) for _ in VARIABLES]
                errors = {}
                for index in rows:
                    terms, constant, op, priority = ROWS[index]
                    expression = sum((float(Fraction(c)) * x[v] for v, c in terms), float(Fraction(constant)))
                    if Fraction(priority) == 1000:
                        h.addConstr({"==": expression == 0, "<=": expression <= 0, ">=": expression >= 0}[op])
                    else:
                        p, n = h.addVariable(lb=0), h.addVariable(lb=0)
                        h.addConstr(expression - p + n == 0)
                        errors.setdefault(Fraction(priority), []).extend(
                            ([p] if op != ">=" else []) + ([n] if op != "<=" else []))
                for level, bound in bounds:
                    h.addConstr(sum(errors[level], 0.0) <= bound)
                if objective_level is not None:
                    h.minimize(sum(errors[objective_level], 0.0))
                else:
                    h.run()
                status = h.getModelStatus()
                if status != highspy.HighsModelStatus.kOptimal:
                    return None, None
                values = list(h.getSolution().col_value)
                return values[:len(VARIABLES)], h.getInfo().objective_function_value


            def solve():
                kept, rejected = [], []
                for index, row in enumerate(ROWS):
                    if Fraction(row[3]) != 1000:
                        continue
                    if lp(kept + [index], None, [])[0] is None:
                        rejected.append(index)
                    else:
                        kept.append(index)
                everything = kept + [i for i, r in enumerate(ROWS) if Fraction(r[3]) != 1000]
                values, bounds = lp(kept, None, [])[0], []
                for level in sorted({Fraction(r[3]) for r in ROWS if Fraction(r[3]) != 1000}, reverse=True):
                    values, optimum = lp(everything, level, bounds)
                    bounds.append((level, optimum + 1e-9 * max(1.0, abs(optimum))))
                return values, rejected

            """,
    ]

    /// The styles whose solver takes the rows one at a time and refuses a required row it
    /// cannot satisfy by raising (kiwisolver's and cassowary's `solve()` use ``addInOrderCode``).
    static let addsRowsInOrder: Set<String> = ["kiwisolver", "cassowary"]

    /// `add_in_order(add, unsatisfiable)`: gives the solver the rows in order through `add`,
    /// as the adapter does, printing each outcome; returns the positions of the rows refused.
    /// The same for every incremental solver: only `add` and the exception are its own.
    static let addInOrderCode = """
        def add_in_order(add, unsatisfiable):
            rejected = []
            for index, (terms, constant, op, priority) in enumerate(ROWS):
                try:
                    add(terms, constant, op, priority)
                    print("added    row %d" % index)
                except unsatisfiable:
                    print("rejected row %d (%s)" % (index, unsatisfiable.__name__))
                    rejected.append(index)
            return rejected

        """

    static let checkCode = """
        def error(value, op):
            return abs(value) if op == "==" else (max(value, 0) if op == "<=" else max(-value, 0))


        def main():
            values, rejected = solve()
            point = [Fraction(v) for v in values]
            print("values:", ", ".join("%s = %s" % (n, float(v)) for n, v in zip(VARIABLES, point)))
            bugs = []
            if sorted(rejected) != EXPECTED_REJECTED:
                bugs.append("rejected rows %s; the exact answer rejects %s" % (sorted(rejected), EXPECTED_REJECTED))
            for index, (terms, constant, op, priority) in enumerate(ROWS):
                if Fraction(priority) != 1000 or index in rejected:
                    continue
                value = sum((Fraction(c) * point[v] for v, c in terms), Fraction(constant))
                if error(value, op) > BOUND:
                    text = " + ".join(["%s*%s" % (c, VARIABLES[v]) for v, c in terms] + [constant])
                    bugs.append("accepted required row %d is violated by %g: %s %s 0, but it is %s" % (
                        index, float(error(value, op)), text.replace("+ -", "- "), op, float(value)))
            levels = sorted({Fraction(r[3]) for r in ROWS if Fraction(r[3]) != 1000}, reverse=True)
            sums = []
            for level in levels:
                total = Fraction(0)
                for terms, constant, op, priority in ROWS:
                    if Fraction(priority) == level:
                        total += error(sum((Fraction(c) * point[v] for v, c in terms), Fraction(constant)), op)
                sums.append(total)
            if not bugs and EXPECTED_OBJECTIVE:
                if WEIGHTED:
                    mine = sum((p * e for p, e in zip(levels, sums)), Fraction(0))
                    slack = BOUND * max(1, sum(levels)) * max(1, len(ROWS))
                    if mine > EXPECTED_OBJECTIVE[0] + Fraction(slack):
                        bugs.append("weighted objective %g exceeds the exact optimum %g of the solver's own objective" % (
                            float(mine), float(EXPECTED_OBJECTIVE[0])))
                else:
                    for level, mine, best in zip(levels, sums, EXPECTED_OBJECTIVE):
                        if mine > best + Fraction(BOUND * max(1, len(ROWS))):
                            bugs.append("error %g at priority %s; the exact optimum is %g" % (float(mine), level, float(best)))
                            break
            for bug in bugs:
                print("BUG:", bug)
            if not bugs:
                print("OK: the answer holds by the solver's own semantics")
            return 1 if bugs else 0


        if __name__ == "__main__":
            sys.exit(main())
        """

    // MARK: LP files

    func lpFiles(_ system: ConstraintSystem, _ expectation: ReproducerExpectation) -> [ReproducerFile] {
        let levels = system.optionalLevels.count
        var files: [ReproducerFile] = []
        var names: [String] = []
        for level in 0...levels {
            guard var text = try? LevelProgramExport.export(system, level: level, format: .lp, budget: Budget(wallTime: .seconds(30)))
            else { continue }
            if style == "glpsol" { text = Self.decimalCoefficients(text) }
            files.append(ReproducerFile(suffix: "level\(level).lp", contents: text, executable: false))
            names.append("level\(level).lp")
        }
        var script = [
            "#!/usr/bin/env bash",
            "# Reproducer for \(solver) \(version), written by LayoutBench.",
            "# Finding: " + expectation.finding.replacingOccurrences(of: "\n", with: " "),
            "# Each LP beside this script is one priority level of the reduced system (level 0: are the",
            "# required constraints feasible; level K: the minimum error at level K with the levels above",
            "# held at their exact optima); its comment lines give the exact answer. Exits 1 when",
            "# \(style) disagrees with any of them.",
            "set -u",
            "here=$(cd \"$(dirname \"$0\")\" && pwd)",
            "base=$(basename \"$0\" .repro.sh)",
            "status=0",
            "for level in " + names.map { $0.replacingOccurrences(of: ".lp", with: "") }.joined(separator: " ") + "; do",
            "  lp=\"$here/$base.$level.lp\"",
            "  expected=$(sed -n 's/^\\\\ layoutbench: level [0-9]* //p' \"$lp\" | head -1)",
        ]
        if style == "esolver" {
            script += [
                "  rm -f /tmp/$base.$level.sol",
                "  esolver -L -O /tmp/$base.$level.sol \"$lp\" >/dev/null 2>&1",
                "  state=$(sed -n 's/^status =\\{0,1\\} *\\([A-Z_]*\\)$/\\1/p' /tmp/$base.$level.sol | head -1)",
                "  value=$(sed -n 's/^[[:space:]]*Value = //p' /tmp/$base.$level.sol | head -1)",
                "  case \"$expected\" in",
                "    feasible) [ \"$state\" = OPTIMAL ] && got=feasible || got=$state ;;",
                "    infeasible) [ \"$state\" = INFEASIBLE ] && got=infeasible || got=$state ;;",
                "    *) got=\"optimum $value\" ;;",
                "  esac",
            ]
        } else {
            script += [
                "  glpsol --lp \"$lp\" --exact -w /tmp/$base.$level.sol >/dev/null 2>&1",
                "  state=$(sed -n 's/^c Status: *\\([A-Z]*\\).*/\\1/p' /tmp/$base.$level.sol | head -1)",
                "  value=$(sed -n 's/^c Objective: *obj = \\([^ ]*\\).*/\\1/p' /tmp/$base.$level.sol | head -1)",
                "  case \"$expected\" in",
                "    feasible) [ \"$state\" = OPTIMAL ] && got=feasible || got=$state ;;",
                "    infeasible) [ \"$state\" = INFEASIBLE ] && got=infeasible || got=$state ;;",
                "    optimum*) want=${expected#optimum }",
                "      if python3 -c \"import sys; from fractions import Fraction as F; sys.exit(abs(F('$value') - F('$want')) > \(expectation.bound))\" 2>/dev/null; then got=$expected; else got=\"optimum $value\"; fi ;;",
                "  esac",
            ]
        }
        script += [
            "  if [ \"$got\" = \"$expected\" ]; then echo \"$level: $got (agrees)\"; else echo \"BUG: $level: \(style) says '$got', the exact answer is '$expected'\"; status=1; fi",
            "done",
            "exit $status",
        ]
        files.append(ReproducerFile(suffix: "repro.sh", contents: script.joined(separator: "\n") + "\n", executable: true))
        return files
    }

    /// GLPK's LP reader takes decimals, not `p/q`: every fraction becomes its exact decimal
    /// when it has one, else 17 significant digits.
    static func decimalCoefficients(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard !line.hasPrefix("\\") else { return String(line) }
            return line.split(separator: " ", omittingEmptySubsequences: false).map { token -> String in
                guard token.contains("/"), let r = Rational(String(token)) else { return String(token) }
                let decimal = ExactText.decimal(r)
                return decimal.contains("/") ? String(format: "%.17g", r.doubleValue) : decimal
            }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
