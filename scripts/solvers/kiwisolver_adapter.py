#!/usr/bin/env python3
"""kiwisolver (kiwi's C++ Cassowary core) on LayoutBench's outside-solver protocol.

Mapping:
- every row becomes a kiwi Constraint `expression OP 0` with float coefficients (the exact
  decimals rounded once), added one at a time in row order; a required row that raises
  UnsatisfiableConstraint is rejected (reported in `rejected`);
- priorities are kiwi strengths: a priority p < 1000 is the strength p itself (kiwi's
  objective is then the sum of p x error over the optional rows: a *weighted* model, so 251
  and 250 are traded against each other); 1000 is kiwi's `required`;
- steps are native: `add` adds to the live solver; `remove` calls removeConstraint;
  an optional row `a*x + c == 0` over one variable that has no edit yet is an edit variable
  (addEditVariable at its strength, suggestValue(-c/a)), so `set-constant` on it is a
  suggestValue; other `set-constant` and `set-priority` steps remove the row and add it
  again (it then counts as added last, as kiwi has no other way).

Timing (`solver_ns`) covers addConstraint/removeConstraint/suggestValue and updateVariables,
not the building of Python expression objects.
"""
import time

from adapter_protocol import Adapter, add_in_order, claim_stdout, declare, serve, weighted

claim_stdout()
import kiwisolver  # noqa: E402


def build(variables, row):
    if not row.terms:
        return None  # a row over the root alone: decided here (see `holds`)
    expression = sum((float(c) * variables[v] for v, c in row.terms), float(row.constant))
    if row.relation == "==":
        constraint = expression == 0
    elif row.relation == "<=":
        constraint = expression <= 0
    else:
        constraint = expression >= 0
    return constraint | ("required" if row.required else float(row.priority))


class KiwiAdapter(Adapter):
    name = "kiwisolver"
    version = kiwisolver.__version__
    capabilities = declare(weighted("1"), incremental=True)

    def solve_rows(self, variables, rows, deadline):
        xs = [kiwisolver.Variable("x%d" % i) for i in range(variables)]
        constraints = [build(xs, r) for r in rows]
        solver = kiwisolver.Solver()
        start = time.perf_counter_ns()
        rejected = add_in_order(rows, constraints, solver.addConstraint, kiwisolver.UnsatisfiableConstraint, deadline)
        solver.updateVariables()
        ns = time.perf_counter_ns() - start
        return {"status": "unsatisfiable" if rejected else "optimal",
                "values": [x.value() for x in xs], "rejected": rejected}, ns

    # Native steps ------------------------------------------------------------------------

    def step_reset(self, variables):
        super().step_reset(variables)
        self.xs = [kiwisolver.Variable("x%d" % i) for i in range(variables)]
        self.solver = kiwisolver.Solver()
        self.installed = {}  # row id -> ("constraint", Constraint) | ("edit", variable index)
        self.rejected = set()
        return 0

    def step_add(self, rows):
        while len(self.xs) < self.variables:
            self.xs.append(kiwisolver.Variable("x%d" % len(self.xs)))
        spent = 0
        for row in rows:
            row_id = self.next_id
            super().step_add([row])
            spent += self.install(row_id)
        return spent

    def install(self, row_id):
        row = self.live[row_id]
        edited = {v for kind, v in self.installed.values() if kind == "edit"}
        start = time.perf_counter_ns()
        if (not row.required and row.relation == "==" and len(row.terms) == 1
                and row.terms[0][0] not in edited):
            v, a = row.terms[0]
            self.solver.addEditVariable(self.xs[v], float(row.priority))
            self.solver.suggestValue(self.xs[v], float(-row.constant / a))
            self.installed[row_id] = ("edit", v)
            return time.perf_counter_ns() - start
        constraint = build(self.xs, row)
        if constraint is None:
            if row.required and not row.holds(row.constant):
                self.rejected.add(row_id)
            return 0
        start = time.perf_counter_ns()
        try:
            self.solver.addConstraint(constraint)
            self.installed[row_id] = ("constraint", constraint)
        except kiwisolver.UnsatisfiableConstraint:
            self.rejected.add(row_id)
        return time.perf_counter_ns() - start

    def uninstall(self, row_id):
        self.rejected.discard(row_id)
        entry = self.installed.pop(row_id, None)
        start = time.perf_counter_ns()
        if entry is not None:
            kind, what = entry
            if kind == "edit":
                self.solver.removeEditVariable(self.xs[what])
            else:
                self.solver.removeConstraint(what)
        return time.perf_counter_ns() - start

    def step_remove(self, row_id):
        spent = self.uninstall(row_id)
        super().step_remove(row_id)
        return spent

    def step_set_constant(self, row_id, constant):
        super().step_set_constant(row_id, constant)
        entry = self.installed.get(row_id)
        if entry is not None and entry[0] == "edit":
            v, a = self.live[row_id].terms[0]
            start = time.perf_counter_ns()
            self.solver.suggestValue(self.xs[v], float(-constant / a))
            return time.perf_counter_ns() - start
        return self.uninstall(row_id) + self.install(row_id)

    def step_set_priority(self, row_id, priority):
        super().step_set_priority(row_id, priority)
        return self.uninstall(row_id) + self.install(row_id)

    def step_values(self, deadline):
        start = time.perf_counter_ns()
        self.solver.updateVariables()
        ns = time.perf_counter_ns() - start
        rejected = sorted(self.rejected)
        return {"status": "unsatisfiable" if rejected else "optimal",
                "values": [x.value() for x in self.xs], "rejected": rejected}, ns


if __name__ == "__main__":
    serve(KiwiAdapter())
