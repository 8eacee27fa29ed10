#!/usr/bin/env python3
"""QSopt_ex (Debian's `esolver`) on LayoutBench's outside-solver protocol: an exact LP solver.

Lexicographic priorities one LP per level (lexicographic.py), each written as a CPLEX LP
file with exact rational coefficients and solved by `esolver -L`, which prints exact
rational values. The levels above are held at their exact optima. Reports exact values,
the rejected (broken) rows and the objective; no conflicts, no ambiguity. `solver_ns`
covers the esolver runs (process start and file reading included: there is no other way in).
"""
import re
import shutil
from fractions import Fraction

from adapter_protocol import claim_stdout, serve
from lp_files import LevelLPAdapter, ProgramBackend, program_version, exact_number

claim_stdout()


class EsolverBackend(ProgramBackend):
    program = "esolver"

    def command(self, lp, solution, seconds):
        command = ["esolver", "-L", "-O", solution]
        if seconds is not None:
            command += ["-R", "%.3f" % max(seconds, 0.001)]
        return command + [lp]

    def read(self, text, columns, names):
        status = re.search(r"^status\s*=?\s*([A-Z_]+)", text, re.M)
        status = status.group(1) if status else "missing"
        if status == "INFEASIBLE":
            return "infeasible", None
        if status != "OPTIMAL":
            raise RuntimeError("esolver status %s" % status)
        values = {}
        section = None
        for line in text.splitlines():
            stripped = line.strip()
            if stripped.endswith(":") and "=" not in stripped:
                section = stripped[:-1]
                continue
            if section == "VARS" and "=" in stripped:
                name, value = (part.strip() for part in stripped.split("=", 1))
                if name in names:
                    values[names[name]] = Fraction(value)
        return "optimal", values


class QsoptAdapter(LevelLPAdapter):
    name = "qsopt-ex"
    version = program_version(["esolver", "-v"], rb"QSopt_ex ([0-9.]+)")
    exact = True

    def __init__(self):
        super().__init__(EsolverBackend(exact_number))


if __name__ == "__main__":
    if shutil.which("esolver") is None:
        raise SystemExit("esolver not found: apt-get install qsopt-ex")
    serve(QsoptAdapter())
