#!/usr/bin/env python3
"""z3 (z3-solver) on LayoutBench's outside-solver protocol: a second exact reference.

Everything is exact rational arithmetic (linear real arithmetic):
- the required walk: a required row is kept iff it is satisfiable together with the
  required rows kept before it (one check of the whole set, then push/pop per row when
  it is unsatisfiable);
- the conflict: an unsat core of the kept rows before the first broken one plus that row,
  shrunk by a deletion filter to an irreducible one (it contains the first broken row,
  since the rows before it are satisfiable);
- the levels: z3's Optimize with `priority lex`, one `minimize` per level (the error sum of
  its rows, `d = p - n` with p, n >= 0), highest priority first: lexicographic, like the
  format;
- ambiguity: with every level's error held at its optimum, an unknown is ambiguous iff it
  can differ from the value found (one check per unknown). This is reported when it
  finishes within the request's deadline; otherwise `ambiguous` is left out and the judge
  does not judge it.
Values and the objective are sent as exact rationals ("327/2").
"""
import time
from fractions import Fraction

from adapter_protocol import LEXICOGRAPHIC, Adapter, OutOfTime, claim_stdout, declare, levels_of, serve

claim_stdout()
import z3  # noqa: E402


def q(value):
    value = Fraction(value)
    return z3.Q(value.numerator, value.denominator)


def fraction(model_value):
    if z3.is_rational_value(model_value):
        return Fraction(model_value.numerator_as_long(), model_value.denominator_as_long())
    raise ValueError("z3 gave a non-rational value %s" % model_value)


def remaining_ms(deadline):
    if deadline is None:
        return 0  # z3: no limit
    left = int((deadline - time.monotonic()) * 1000)
    if left <= 0:
        raise OutOfTime()
    return left


def level_error(solver, rows, priority, xs):
    """The error sum of one level as a z3 term: each row's d = p - n with p, n >= 0 added to
    `solver`, and its error p + n, p or n."""
    errors = []
    for i, r in enumerate(rows):
        if r.priority != priority:
            continue
        p, n = z3.Real("p%d" % i), z3.Real("n%d" % i)
        d = z3.Sum([q(c) * xs[v] for v, c in r.terms] + [q(r.constant)])
        solver.add(p >= 0, n >= 0, d == p - n)
        errors += ([p] if r.relation != ">=" else []) + ([n] if r.relation != "<=" else [])
    return z3.Sum(errors) if errors else z3.RealVal(0)


class Z3Adapter(Adapter):
    name = "z3"
    version = z3.get_version_string()
    capabilities = declare(LEXICOGRAPHIC, conflict=True, ambiguity=True, objective=True, exact=True)

    def solve_rows(self, variables, rows, deadline):
        start = time.perf_counter_ns()
        xs = [z3.Real("x%d" % i) for i in range(variables)]

        def formula(row):
            lhs = z3.Sum([q(c) * xs[v] for v, c in row.terms] + [q(row.constant)])
            return {"==": lhs == 0, "<=": lhs <= 0, ">=": lhs >= 0}[row.relation]

        def check(solver):
            solver.set("timeout", remaining_ms(deadline))
            answer = solver.check()
            if answer == z3.unknown:
                raise OutOfTime()
            return answer == z3.sat

        required = [i for i, r in enumerate(rows) if r.required]
        kept, broken = [], []
        solver = z3.Solver()
        solver.add([formula(rows[i]) for i in required])
        if check(solver):
            kept = required
        else:
            solver = z3.Solver()
            for i in required:
                solver.push()
                solver.add(formula(rows[i]))
                if check(solver):
                    kept.append(i)
                else:
                    solver.pop()
                    broken.append(i)

        conflict = []
        if broken:
            conflict = self.irreducible_conflict(rows, formula, check, broken[0])

        levels = levels_of(rows)
        optimizer = z3.Optimize()
        optimizer.set(priority="lex")
        optimizer.add([formula(rows[i]) for i in kept])
        sums = []
        for priority in levels:
            total = level_error(optimizer, rows, priority, xs)
            sums.append(total)
            optimizer.minimize(total)
        optimizer.set("timeout", remaining_ms(deadline))
        if optimizer.check() != z3.sat:
            raise OutOfTime()
        model = optimizer.model()
        point = [fraction(model.eval(x, model_completion=True)) for x in xs]
        objective = [fraction(model.eval(s, model_completion=True)) for s in sums]

        result = {
            "status": "unsatisfiable" if broken else "optimal",
            "values": [str(v) for v in point],
            "rejected": broken,
            "conflict": conflict,
            "objective": [str(v) for v in objective],
        }
        try:
            result["ambiguous"] = self.ambiguous(rows, kept, levels, formula, check, xs, point, objective)
        except OutOfTime:
            pass  # not reported for this case
        return result, time.perf_counter_ns() - start

    def irreducible_conflict(self, rows, formula, check, first):
        """The rows kept before `first` are satisfiable, so every unsat subset of them and
        `first` contains `first`; a deletion filter over an unsat core makes it irreducible."""
        candidates = [i for i, r in enumerate(rows) if r.required and i < first] + [first]
        solver = z3.Solver()
        labels = {}
        for i in candidates:
            label = z3.Bool("c%d" % i)
            labels[label.get_id()] = i
            solver.assert_and_track(formula(rows[i]), label)
        solver.set("timeout", 0)
        if check(solver):
            return [first]  # cannot happen for a correct walk; reported as it is
        core = sorted(labels[label.get_id()] for label in solver.unsat_core())
        for member in list(core):
            if member == first:
                continue
            trial = [i for i in core if i != member]
            probe = z3.Solver()
            probe.add([formula(rows[i]) for i in trial])
            if not check(probe):
                core = trial
        return core

    def ambiguous(self, rows, kept, levels, formula, check, xs, point, objective):
        solver = z3.Solver()
        solver.add([formula(rows[i]) for i in kept])
        for priority, optimum in zip(levels, objective):
            solver.add(level_error(solver, rows, priority, xs) <= q(optimum))
        found = set()
        for v, x in enumerate(xs):
            if v in found:
                continue
            solver.push()
            solver.add(x != q(point[v]))
            if check(solver):
                found.add(v)
                # The other point found shows every unknown it moves ambiguous too.
                model = solver.model()
                for w, y in enumerate(xs):
                    if fraction(model.eval(y, model_completion=True)) != point[w]:
                        found.add(w)
            solver.pop()
        return sorted(found)


if __name__ == "__main__":
    serve(Z3Adapter())
