#!/usr/bin/env python3
"""cassowary (the pure-Python Cassowary port on PyPI) on LayoutBench's outside-solver protocol.

Mapping, as for kiwisolver: every row becomes a cassowary Constraint `expression OP 0`
with float coefficients, added in row order; a required row that raises RequiredFailure is
rejected. Priorities are strengths: priority p < 1000 is strength p with weight 1 (the
port's objective is the sum of strength x weight x error: a weighted model); 1000 is the
port's REQUIRED. Update steps are answered by rebuilding the solver from the current rows
(the port's remove_constraint is not used: no incremental claim). `solver_ns` covers
add_constraint and the value read-out.
"""
import time

from adapter_protocol import Adapter, add_in_order, claim_stdout, declare, serve, weighted

claim_stdout()
import cassowary  # noqa: E402
from cassowary.expression import Constraint, Expression  # noqa: E402

RELATION = {"==": Constraint.EQ, "<=": Constraint.LEQ, ">=": Constraint.GEQ}


class CassowaryAdapter(Adapter):
    name = "cassowary"
    version = cassowary.__version__
    capabilities = declare(weighted("1"))

    def solve_rows(self, variables, rows, deadline):
        xs = [cassowary.Variable("x%d" % i) for i in range(variables)]
        constraints = []
        for r in rows:
            if not r.terms:
                constraints.append(None)
                continue
            expression = Expression(constant=float(r.constant))
            for v, c in r.terms:
                expression = expression + float(c) * xs[v]
            strength = cassowary.REQUIRED if r.required else float(r.priority)
            constraints.append(Constraint(expression, RELATION[r.relation], 0.0, strength=strength, weight=1.0))
        solver = cassowary.SimplexSolver()
        start = time.perf_counter_ns()
        rejected = add_in_order(rows, constraints, solver.add_constraint, cassowary.RequiredFailure, deadline)
        values = [float(x.value) for x in xs]
        ns = time.perf_counter_ns() - start
        return {"status": "unsatisfiable" if rejected else "optimal", "values": values, "rejected": rejected}, ns


if __name__ == "__main__":
    serve(CassowaryAdapter())
