#!/usr/bin/env python3
"""HiGHS (highspy) on LayoutBench's outside-solver protocol: a production LP solver in Double.

Lexicographic priorities one LP per level (lexicographic.py): the required walk by
feasibility LPs, then per level the minimum error sum with the levels above held at their
optima plus a relative slack of 1e-9 (HiGHS's optima are rounded). Coefficients are the
exact decimals rounded once to Double. Reports values and rejected (broken) rows; no
conflicts, no ambiguity. `solver_ns` covers HiGHS's model passing and runs.
"""
import time

from adapter_protocol import OutOfTime, claim_stdout, serve
from lp_files import LevelLPAdapter

claim_stdout()
import highspy  # noqa: E402
import numpy  # noqa: E402


class HighsBackend:
    def solve(self, program, deadline):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise OutOfTime()
            h.setOptionValue("time_limit", left)
        inf = highspy.kHighsInf
        n = program.columns
        lower = numpy.array([-inf if c < program.variables else 0.0 for c in range(n)], dtype=numpy.double)
        upper = numpy.full(n, inf, dtype=numpy.double)
        costs = numpy.array([float(program.objective.get(c, 0)) for c in range(n)], dtype=numpy.double)
        h.addCols(n, costs, lower, upper, 0, numpy.array([], dtype=numpy.int32),
                  numpy.array([], dtype=numpy.int32), numpy.array([], dtype=numpy.double))
        row_lower, row_upper, starts, indices, values = [], [], [], [], []
        for _, terms, sense, rhs in program.rows:
            starts.append(len(indices))
            for c, v in terms:
                indices.append(c)
                values.append(float(v))
            r = float(rhs)
            row_lower.append(r if sense in ("=", ">=") else -inf)
            row_upper.append(r if sense in ("=", "<=") else inf)
        if program.rows:
            h.addRows(len(program.rows), numpy.array(row_lower, dtype=numpy.double),
                      numpy.array(row_upper, dtype=numpy.double), len(indices),
                      numpy.array(starts, dtype=numpy.int32), numpy.array(indices, dtype=numpy.int32),
                      numpy.array(values, dtype=numpy.double))
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            solution = h.getSolution()
            return "optimal", list(solution.col_value), h.getInfo().objective_function_value
        if status in (highspy.HighsModelStatus.kInfeasible,):
            return "infeasible", None, None
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise OutOfTime()
        raise RuntimeError("HiGHS ended with %s" % h.modelStatusToString(status))


class HighsAdapter(LevelLPAdapter):
    name = "highspy"
    version = "%d.%d.%d" % (highspy.Highs().versionMajor(), highspy.Highs().versionMinor(), highspy.Highs().versionPatch())

    def __init__(self):
        super().__init__(HighsBackend())


if __name__ == "__main__":
    serve(HighsAdapter())
