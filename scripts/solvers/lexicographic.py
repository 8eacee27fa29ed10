"""Lexicographic priorities with an LP solver that knows nothing of them: the spec's §5
one linear program at a time, for the highspy, qsopt-ex and glpk adapters.

1. The required walk: a required row is kept iff it is feasible together with the required
   rows kept before it. One LP checks the whole required set; when it is infeasible, each
   broken row is found by a binary search over prefixes (as the exact backend does).
2. The levels, highest first: level k minimises its error sum subject to the kept required
   rows, the error definitions `d = p - n` (p, n >= 0) of the optional rows of levels 1..k,
   and `E_i <= E_i*` for the levels above. An exact LP solver gets E_i* exactly; a
   floating-point one gets E_i* plus a small slack, since its optimum is rounded.

An LP is a `Program`: columns 0..V-1 are the layout's unknowns (free), later ones errors
(nonnegative); rows are (terms, sense, rhs) with Fraction coefficients. A back end
implements `solve(program, deadline)` and returns (status, values, objective) with status
"optimal" or "infeasible" (values and objective as Fractions for an exact solver, floats
otherwise), raising `OutOfTime` past the deadline.
"""
import time
from fractions import Fraction

from adapter_protocol import check_deadline, levels_of


class Program:
    def __init__(self, variables):
        self.variables = variables
        self.columns = variables  # unknowns first; errors appended
        self.rows = []  # (name, [(column, Fraction)], sense "=", "<=", ">=", rhs Fraction)
        self.objective = {}  # column -> Fraction

    def add_error_column(self):
        self.columns += 1
        return self.columns - 1

    def used_unknowns(self):
        used = set()
        for _, terms, _, _ in self.rows:
            used.update(c for c, _ in terms if c < self.variables)
        return used

    def column_name(self, column):
        # Not "e…": LP readers take e1 for an exponent.
        return "x%d" % column if column < self.variables else "y%d" % (column - self.variables)


def solve_lexicographic(variables, rows, backend, deadline, exact):
    """Returns (result dict, solver nanoseconds); the result has status, values, rejected,
    objective (and exact values when `exact`)."""
    spent = [0]

    def run(program):
        check_deadline(deadline)
        start = time.perf_counter_ns()
        answer = backend.solve(program, deadline)
        spent[0] += time.perf_counter_ns() - start
        return answer

    def required_program(indices):
        program = Program(variables)
        for i in indices:
            r = rows[i]
            program.rows.append(("r%d" % i, list(r.terms), sense(r.relation), -r.constant))
        return program

    def feasible(indices):
        return run(required_program(indices))[0] == "optimal"

    required = [i for i, r in enumerate(rows) if r.required]
    kept, broken = [], []
    pending = required
    while pending:
        if feasible(kept + pending):
            kept += pending
            break
        lo, hi = 0, len(pending)  # kept + pending[:lo] feasible, kept + pending[:hi] not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if feasible(kept + pending[:mid]):
                lo = mid
            else:
                hi = mid
        kept += pending[:hi - 1]
        broken.append(pending[hi - 1])
        pending = pending[hi:]

    levels = levels_of(rows)
    program = required_program(kept)
    errors = {}  # row index -> (p column, n column)
    optima = []
    values = None
    for k, priority in enumerate(levels):
        level_rows = [i for i, r in enumerate(rows) if r.priority == priority]
        for i in level_rows:
            p, n = program.add_error_column(), program.add_error_column()
            errors[i] = (p, n)
            r = rows[i]
            program.rows.append(("r%d" % i, list(r.terms) + [(p, Fraction(-1)), (n, Fraction(1))], "=", -r.constant))
        if k > 0:
            bound = optima[-1]
            if not exact:
                bound = Fraction(bound) + Fraction(1, 10**9) * max(1, abs(Fraction(bound)))
            program.rows.append(("level%d" % k, error_terms(rows, errors, levels[k - 1]), "<=", Fraction(bound)))
        program.objective = dict(error_terms(rows, errors, priority))
        status, values, objective = run(program)
        if status != "optimal":
            raise RuntimeError("level %d of the kept system is %s" % (k + 1, status))
        optima.append(objective)
    if values is None:
        program.objective = {}
        status, values, _ = run(program)
        if status != "optimal":
            raise RuntimeError("the kept required set became %s" % status)
    point = [values[v] if v < len(values) else 0 for v in range(variables)]
    result = {
        "status": "unsatisfiable" if broken else "optimal",
        "values": [str(Fraction(v)) if exact else float(v) for v in point],
        "rejected": broken,
    }
    if exact:
        exact_point = [Fraction(v) for v in point]
        result["objective"] = [str(level_error(rows, exact_point, p)) for p in levels]
    return result, spent[0]


def sense(relation):
    return {"==": "=", "<=": "<=", ">=": ">="}[relation]


def error_terms(rows, errors, priority):
    terms = []
    for i, r in enumerate(rows):
        if r.priority == priority and i in errors:
            p, n = errors[i]
            if r.relation != ">=":
                terms.append((p, Fraction(1)))
            if r.relation != "<=":
                terms.append((n, Fraction(1)))
    return terms


def level_error(rows, point, priority):
    total = Fraction(0)
    for r in rows:
        if r.priority != priority:
            continue
        d = r.value(point)
        if r.relation == "==":
            total += abs(d)
        elif r.relation == "<=":
            total += max(d, 0)
        else:
            total += max(-d, 0)
    return total


def lp_text(program, number):
    """CPLEX LP text; every column is listed in the objective (with 0 where it has no cost)
    so that solvers number the columns in order. `number` writes a Fraction."""
    used = sorted(program.used_unknowns())
    errors = list(range(program.variables, program.columns))
    columns = used + errors
    lines = ["Minimize"]
    objective = [(c, program.objective.get(c, Fraction(0))) for c in columns] or [(None, Fraction(0))]
    lines += wrap(" obj:", [(program.column_name(c) if c is not None else "dummy", v) for c, v in objective], number,
                  keep_zero=True)
    lines.append("Subject To")
    for name, terms, relation, rhs in program.rows:
        body = wrap(" %s:" % name, [(program.column_name(c), v) for c, v in terms], number) if terms \
            else [" %s: 0 dummy" % name]
        body[-1] += " %s %s" % (relation, number(rhs))
        lines += body
    lines.append("Bounds")
    for c in used:
        lines.append(" %s free" % program.column_name(c))
    if not columns or any(not terms for _, terms, _, _ in program.rows):
        lines.append(" dummy = 0")
    lines.append("End")
    return "\n".join(lines) + "\n", columns


def wrap(label, terms, number, keep_zero=False):
    lines, current = [], label
    for name, value in terms:
        if value == 0 and not keep_zero:
            continue
        sign = "-" if value < 0 else "+"
        text = "%s %s %s" % (sign, number(abs(value)), name)
        if len(current) + len(text) > 200:
            lines.append(current)
            current = "  "
        current += " " + text
    lines.append(current)
    return lines
