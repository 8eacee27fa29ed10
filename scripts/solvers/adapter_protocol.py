"""The adapter side of LayoutBench's outside-solver protocol, version 1 (docs/outside-solvers.md).

An adapter is a child process that speaks JSON lines: it writes a `hello` line, then answers
each request line on standard input with exactly one line on standard output, until `quit`
or the end of its input. This module does the plumbing every Python adapter shares:

- standard output is kept for the protocol alone: file descriptor 1 is moved away and
  pointed at standard error, so that a solver library printing to stdout (HiGHS, GLPK)
  cannot corrupt the stream;
- the adapter dies with LayoutBench: PR_SET_PDEATHSIG (through ctypes) sends it SIGKILL when
  its parent goes, and reading EOF on stdin ends it too;
- numbers arrive as exact decimal ("-12.375") or rational ("3/2") strings and are read as
  `fractions.Fraction`;
- update steps (reset, add, remove, set-constant, set-priority, values) keep a row table;
  an adapter without incremental support answers `values` by solving the current rows from
  scratch, one with it (kiwisolver) overrides the step methods.

An adapter subclasses `Adapter`, sets `name`, `version` and `capabilities`, implements
`solve_rows(variables, rows, deadline)` and calls `serve(MyAdapter())`.
"""
import ctypes
import json
import os
import signal
import sys
import time
from fractions import Fraction

PROTOCOL_VERSION = 1


def die_with_parent():
    """SIGKILL this process when its parent dies (Linux), and exit now if it already has."""
    expected = os.environ.get("LAYOUTBENCH_PARENT_PID")
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    # The parent may have died between the spawn and the prctl.
    if expected is not None and str(os.getppid()) != expected:
        os._exit(0)


def child_preexec():
    """For solver binaries an adapter starts (esolver, glpsol): they die with the adapter."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class Unsupported(Exception):
    """The case is outside what this adapter can express (answered as `unsupported`)."""


class OutOfTime(Exception):
    """The solver ran out of the request's deadline (answered as status `budget`)."""


def check_deadline(deadline):
    """Raises OutOfTime once the request's deadline (a time.monotonic() value) has passed."""
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime()


def add_in_order(rows, constraints, add, unsatisfiable, deadline):
    """Adds each constraint in file order, as an incremental Cassowary solver is fed.

    `add(constraint)` raises `unsatisfiable` for a rejected required one; a constraint of no
    unknowns (None: only root constants) is rejected when it is a false required one, as the
    format asks, since such solvers cannot hold it. Returns the rejected row indices.
    """
    rejected = []
    for index, constraint in enumerate(constraints):
        if index % 64 == 63:
            check_deadline(deadline)
        if constraint is None:
            row = rows[index]
            if row.required and not row.holds(row.constant):
                rejected.append(index)
            continue
        try:
            add(constraint)
        except unsatisfiable:
            rejected.append(index)
    return rejected


class Row:
    """A lowered row: sum(coefficient * x[variable]) + constant REL 0, at a priority."""

    __slots__ = ("terms", "constant", "relation", "priority")

    def __init__(self, terms, constant, relation, priority):
        self.terms = terms  # [(variable, Fraction)]
        self.constant = constant  # Fraction
        self.relation = relation  # "==", "<=", ">="
        self.priority = priority  # Fraction; 1000 is required

    @property
    def required(self):
        return self.priority == 1000

    @staticmethod
    def from_json(obj, variables):
        terms = []
        for pair in obj["terms"]:
            variable, coefficient = int(pair[0]), Fraction(pair[1])
            if not 0 <= variable < variables:
                raise ValueError("variable %d out of range" % variable)
            terms.append((variable, coefficient))
        relation = obj["relation"]
        if relation not in ("==", "<=", ">="):
            raise ValueError("unknown relation %r" % relation)
        return Row(terms, Fraction(obj["constant"]), relation, Fraction(obj["priority"]))

    def value(self, point):
        return sum((c * point[v] for v, c in self.terms), self.constant)

    def holds(self, value):
        """Whether the row holds where its left side is `value` (for rows over the root
        alone, whose value is their constant)."""
        return value == 0 if self.relation == "==" else (value <= 0 if self.relation == "<=" else value >= 0)

    def text(self, names=None):
        """The row as `0.9222*x7 + 1.6563*x8 + 5.3979 == 0` (exact decimals where they end)."""
        names = names or (lambda v: "x%d" % v)
        parts = []
        for v, c in self.terms:
            parts.append("%s*%s" % (decimal_text(c), names(v)))
        if self.constant != 0 or not parts:
            parts.append(decimal_text(self.constant))
        body = " + ".join(parts).replace("+ -", "- ")
        return "%s %s 0" % (body, self.relation)


def decimal_text(value):
    """A Fraction as an exact decimal when it has one (denominator 2^a 5^b), else p/q."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    d, k = value.denominator, 0
    while d % 10 == 0:
        d //= 10
        k += 1
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return "%d/%d" % (value.numerator, value.denominator)
    digits = k + max(twos, fives)
    scaled = value * 10 ** digits
    sign = "-" if scaled < 0 else ""
    text = str(abs(scaled.numerator)).rjust(digits + 1, "0")
    return "%s%s.%s" % (sign, text[:-digits], text[-digits:])


LEXICOGRAPHIC = {"model": "lexicographic"}


def weighted(scale="1"):
    """A weighted priority model: weight(p) = scale x p, exactly."""
    return {"model": "weighted", "weight": {"form": "linear", "scale": scale}}


def declare(priorities, incremental=False, conflict=False, ambiguity=False, objective=False, exact=False):
    """The hello's capabilities of a rows-taking adapter with whole systems and steps."""
    return {
        "whole": True, "steps": True, "incremental": incremental, "input": ["rows"], "priorities": priorities,
        "reports": {"values": True, "rejected": True, "conflict": conflict, "ambiguity": ambiguity,
                    "objective": objective, "exact": exact},
    }


def levels_of(rows):
    """The distinct optional priorities, highest first."""
    return sorted({r.priority for r in rows if not r.required}, reverse=True)


def row_error_bounds(relation):
    """Which error parts count for a relation: (positive part d+, negative part d-)."""
    return relation != ">=", relation != "<="


class Adapter:
    """Base class: the step bookkeeping and the request dispatch."""

    name = "adapter"
    version = "0"
    capabilities = {}

    def __init__(self):
        self.variables = 0
        self.live = {}  # row id -> Row, for update steps
        self.next_id = 0

    # Whole systems -------------------------------------------------------------------

    def solve_rows(self, variables, rows, deadline):
        """Returns a result dict (status, values, rejected, ...) without `id` and `solver_ns`,
        and the nanoseconds the solver itself spent."""
        raise NotImplementedError

    # Update steps (default: keep a table, solve the current rows from scratch) --------

    def step_reset(self, variables):
        self.variables = variables
        self.live = {}
        self.next_id = 0
        return 0

    def step_add(self, rows):
        for row in rows:
            self.live[self.next_id] = row
            self.next_id += 1
        return 0

    def step_remove(self, row_id):
        del self.live[row_id]
        return 0

    def step_set_constant(self, row_id, constant):
        self.live[row_id].constant = constant
        return 0

    def step_set_priority(self, row_id, priority):
        self.live[row_id].priority = priority
        return 0

    def step_values(self, deadline):
        ids = sorted(self.live)
        result, ns = self.solve_rows(self.variables, [self.live[i] for i in ids], deadline)
        for key in ("rejected", "conflict"):
            if key in result:
                result[key] = [ids[i] for i in result[key]]
        return result, ns

    # Dispatch --------------------------------------------------------------------------

    def handle(self, request):
        kind = request.get("type")
        deadline = None
        if request.get("deadline_ms") is not None:
            deadline = time.monotonic() + float(request["deadline_ms"]) / 1000.0
        if kind == "solve":
            if request.get("form", "rows") != "rows":
                raise Unsupported("this adapter takes rows, not %s" % request.get("form"))
            variables = int(request["variables"])
            rows = [Row.from_json(r, variables) for r in request["rows"]]
            result, ns = self.solve_rows(variables, rows, deadline)
            result.update(type="result", solver_ns=int(ns))
            return result
        if kind == "values":
            result, ns = self.step_values(deadline)
            result.update(type="result", solver_ns=int(ns))
            return result
        if kind == "reset":
            ns = self.step_reset(int(request["variables"]))
        elif kind == "add":
            if "variables" in request:
                self.variables = max(self.variables, int(request["variables"]))
            ns = self.step_add([Row.from_json(r, self.variables) for r in request["rows"]])
        elif kind == "remove":
            ns = self.step_remove(self.known(request["row"]))
        elif kind == "set-constant":
            ns = self.step_set_constant(self.known(request["row"]), Fraction(request["constant"]))
        elif kind == "set-priority":
            row_id = self.known(request["row"])
            priority = Fraction(request["priority"])
            if (priority == 1000) != self.live[row_id].required:
                raise ValueError("set-priority may not move a row to or from required")
            ns = self.step_set_priority(row_id, priority)
        else:
            raise ValueError("unknown request type %r" % kind)
        return {"type": "ok", "solver_ns": int(ns)}

    def known(self, row_id):
        row_id = int(row_id)
        if row_id not in self.live:
            raise ValueError("no live row %d" % row_id)
        return row_id


_protocol = None


def claim_stdout():
    """Keeps standard output for the protocol: call before importing a solver library that
    may print (HiGHS prints a banner on import). Also arms the parent-death signal."""
    global _protocol
    if _protocol is None:
        die_with_parent()
        _protocol = os.fdopen(os.dup(1), "w", buffering=1)
        os.dup2(2, 1)  # anything else written to fd 1 lands on stderr
        sys.stdout = sys.stderr
    return _protocol


def serve(adapter):
    """Runs the protocol on stdin/stdout until `quit` or EOF."""
    protocol = claim_stdout()

    def send(obj):
        protocol.write(json.dumps(obj, separators=(",", ":")) + "\n")
        protocol.flush()

    send({
        "type": "hello", "protocol": PROTOCOL_VERSION, "name": adapter.name,
        "version": adapter.version, "capabilities": adapter.capabilities,
    })
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request_id = None
        try:
            request = json.loads(line)
            request_id = request.get("id")
            if request.get("type") == "quit":
                break
            reply = adapter.handle(request)
        except Unsupported as error:
            reply = {"type": "unsupported", "reason": str(error)}
        except OutOfTime:
            reply = {"type": "result", "status": "budget", "values": [], "rejected": [], "solver_ns": 0}
        except Exception as error:  # the adapter's or the library's bug: reported, not fatal
            reply = {"type": "error", "message": "%s: %s" % (type(error).__name__, error)}
        reply["id"] = request_id
        send(reply)
