#!/usr/bin/env python3
"""GLPK (Debian's `glpsol --exact`) on LayoutBench's outside-solver protocol.

Lexicographic priorities one LP per level (lexicographic.py), each a CPLEX LP file with
the exact decimal coefficients, solved by `glpsol --exact` (GLPK's rational simplex).
glpsol writes its solution in decimal with 15 significant digits, so the values are not
exact: the adapter reports them as numbers (exact: false), and holds each level at its
optimum plus a relative slack of 1e-9. Reports values and rejected (broken) rows; no
conflicts, no ambiguity. `solver_ns` covers the glpsol runs (process start included).
"""
import re
import shutil
from fractions import Fraction

from adapter_protocol import claim_stdout, serve
from lp_files import LevelLPAdapter, ProgramBackend, program_version, decimal_number

claim_stdout()


class GlpsolBackend(ProgramBackend):
    program = "glpsol"

    def command(self, lp, solution, seconds):
        command = ["glpsol", "--lp", lp, "--exact", "-w", solution]
        if seconds is not None:
            command += ["--tmlim", str(max(int(seconds), 1))]
        return command

    def read(self, text, columns, names):
        status = re.search(r"^c Status:\s+(\S+)", text, re.M)
        status = status.group(1) if status else "missing"
        if status in ("INFEASIBLE", "NOFEASIBLE"):
            return "infeasible", None
        if status != "OPTIMAL":
            raise RuntimeError("glpsol status %s" % status)
        values = {}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) >= 4 and parts[0] == "j":
                index = int(parts[1]) - 1
                if index < len(columns):
                    values[columns[index]] = Fraction(parts[3])
        return "optimal", values


class GlpkAdapter(LevelLPAdapter):
    name = "glpk"
    version = program_version(["glpsol", "--version"], rb"Solver ([0-9.]+)")
    exact = False

    def __init__(self):
        super().__init__(GlpsolBackend(decimal_number))


if __name__ == "__main__":
    if shutil.which("glpsol") is None:
        raise SystemExit("glpsol not found: apt-get install glpk-utils")
    serve(GlpkAdapter())
