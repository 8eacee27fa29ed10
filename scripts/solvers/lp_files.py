"""Exact LP solvers run as programs on CPLEX LP files (qsopt-ex's esolver, GLPK's glpsol),
for lexicographic.py. Each LP is written to a temporary folder, the solver runs with the
request's remaining time as its limit (and is killed past it), and its solution file is read.
"""
import os
import re
import subprocess
import tempfile
import time
from fractions import Fraction

from adapter_protocol import LEXICOGRAPHIC, Adapter, OutOfTime, child_preexec, decimal_text, declare
from lexicographic import lp_text, solve_lexicographic


class ProgramBackend:
    """Writes `lp_text`, runs `command(lp, solution, seconds)`, parses with `read`."""

    def __init__(self, number):
        self.number = number
        self.folder = tempfile.mkdtemp(prefix="layoutbench-lp-")
        self.last_lp = None

    def solve(self, program, deadline):
        text, columns = lp_text(program, self.number)
        lp = os.path.join(self.folder, "level.lp")
        solution = os.path.join(self.folder, "level.sol")
        with open(lp, "w") as handle:
            handle.write(text)
        self.last_lp = text
        if os.path.exists(solution):
            os.remove(solution)
        seconds = None
        if deadline is not None:
            seconds = deadline - time.monotonic()
            if seconds <= 0:
                raise OutOfTime()
        try:
            completed = subprocess.run(self.command(lp, solution, seconds), stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=seconds,
                                       preexec_fn=child_preexec)
        except subprocess.TimeoutExpired:
            raise OutOfTime()
        try:
            with open(solution) as handle:
                answer = handle.read()
        except OSError:
            raise RuntimeError("%s wrote no solution (exit %d): %s" % (
                self.program, completed.returncode, completed.stdout.decode(errors="replace")[-300:]))
        status, values = self.read(answer, columns, {program.column_name(c): c for c in columns})
        if status != "optimal":
            return status, None, None
        point = [Fraction(0)] * program.columns
        for column, value in values.items():
            point[column] = value
        objective = sum((c * point[j] for j, c in program.objective.items()), Fraction(0))
        return "optimal", point, objective


def program_version(command, pattern):
    """The version a solver binary prints (the first group of `pattern`), or "missing"."""
    try:
        out = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "missing"
    found = re.search(pattern, out.stdout)
    return found.group(1).decode() if found else "unknown"


def exact_number(value):
    return str(Fraction(value))  # esolver reads p/q


def decimal_number(value):
    text = decimal_text(value)
    return text if "/" not in text else repr(float(Fraction(value)))


class LevelLPAdapter(Adapter):
    """An adapter that solves each case one LP per level (lexicographic.py) on `backend`;
    `exact` when the solver's values are exact rationals."""

    exact = False

    def __init__(self, backend):
        super().__init__()
        self.backend = backend
        self.capabilities = declare(LEXICOGRAPHIC, objective=self.exact, exact=self.exact)

    def solve_rows(self, variables, rows, deadline):
        return solve_lexicographic(variables, rows, self.backend, deadline, exact=self.exact)
