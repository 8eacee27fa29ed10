#!/usr/bin/env python3
"""Runs LayoutBench incremental workloads (JSON from `layoutbench bench-incremental`)
through kiwisolver, kiwi's C++ core, and prints one JSON result line per workload.

Timing covers only solver calls: every Constraint object is built before the clock starts,
so Python expression building is not charged to kiwi. Adding is timed as layoutbench times
its own side: repeated until 0.2 s have been spent and 10 runs made (at most 100 runs, none begun after 2 s), fastest run kept. Levels map to kiwi strengths: where
the workload lists "strengths" (copied from a kiwi benchmark) those are used; otherwise the
L optional levels are spread geometrically over kiwi's range, level 1 -> 1e9 (just below
required) down to level L -> 1 (one level alone -> medium, 1e3). kiwi still adds them up:
that is the difference the benchmark shows.
"""
import json
import sys
import time

import kiwisolver


def strengths_for(workload):
    levels = workload["levels"]
    if "strengths" in workload:
        return workload["strengths"]
    if levels <= 1:
        return [kiwisolver.strength.medium] * max(levels, 1)
    return [10.0 ** (9.0 * (levels - k) / (levels - 1)) for k in range(1, levels + 1)]


def run(path, time_limit):
    with open(path) as handle:
        workload = json.load(handle)
    strengths = strengths_for(workload)
    variables = [kiwisolver.Variable("v%d" % i) for i in range(workload["variables"])]
    constraints = []
    for c in workload["constraints"]:
        # Started from an Expression, so that a row without terms (a constant alone) is still
        # a kiwi expression rather than a Python number.
        start = kiwisolver.Expression((), c["constant"])
        expression = sum((coefficient * variables[index] for index, coefficient in c["terms"]), start)
        if c["op"] == "==":
            constraint = expression == 0
        elif c["op"] == "<=":
            constraint = expression <= 0
        else:
            constraint = expression >= 0
        level = c["level"]
        constraints.append(constraint | ("required" if level == 0 else strengths[level - 1]))

    # With "group", every that many constraints go to a fresh solver (independent cells).
    # Like layoutbench's own side, adding is repeated until 0.2 s have been spent and 10 runs
    # made (at most 100 runs, none begun after 2 s) and the fastest run counts; the last run's
    # solvers go on to the edits.
    group = workload.get("group") or 0
    result = {"name": workload["name"], "constraints": len(constraints), "rejected": 0, "timeout": False}
    best = None
    spent = 0.0
    runs = 0
    while True:
        solvers = []
        solver = kiwisolver.Solver()
        result["rejected"] = 0
        start = time.perf_counter()
        added = 0
        for constraint in constraints:
            if group and added % group == 0:
                solver = kiwisolver.Solver()
                solvers.append(solver)
            try:
                solver.addConstraint(constraint)
            except kiwisolver.UnsatisfiableConstraint:
                result["rejected"] += 1
            added += 1
            if added % 64 == 0 and time.perf_counter() - start > time_limit:
                result["timeout"] = True
                break
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
        spent += seconds
        runs += 1
        if result["timeout"] or runs >= 100 or spent >= 2.0 or (spent >= 0.2 and runs >= 10):
            break
    result["add_seconds"] = best
    result["add_runs"] = runs
    result["added"] = added

    if not result["timeout"]:
        start = time.perf_counter()
        for index, level in workload["edits"]:
            solver.addEditVariable(variables[index], strengths[level - 1])
            # kiwi starts an edit at 0; suggest the current value so both solvers start alike.
            solver.updateVariables()
            solver.suggestValue(variables[index], variables[index].value())
        solver.updateVariables()
        result["edit_seconds"] = time.perf_counter() - start
        start = time.perf_counter()
        steps = 0
        for step in workload["suggestions"]:
            for index, value in step:
                solver.suggestValue(variables[index], value)
            solver.updateVariables()
            steps += len(step)
            if time.perf_counter() - start > time_limit:
                result["timeout"] = True
                break
        result["suggest_seconds"] = time.perf_counter() - start
        result["suggestions"] = steps
    for each in solvers or [solver]:
        each.updateVariables()
    result["values"] = [v.value() for v in variables]
    return result


def run_sequence(workload, time_limit):
    """An update sequence as row-level steps (`layoutbench bench-incremental --sequences`):
    each pass's steps, then updateVariables, timed per pass. A row whose constant the
    sequence changes is built as `expression + e REL 0` with an edit variable e (kiwi's only
    way to change a constant in place: suggestValue); every other change is remove and add.
    The edit's strength is just below required, so a required row stays (nearly) required."""
    labels = sorted({step["level"] for steps in workload["passes"] for step in steps if step["op"] == "add" and step["level"] > 0})
    strengths = strengths_for({"levels": len(labels)})
    strength_of = {label: strengths[k] for k, label in enumerate(labels)}
    edit_strength = kiwisolver.strength.create(999, 999, 999)
    editable = {step["key"] for steps in workload["passes"] for step in steps if step["op"] == "set"}
    variables = {}

    def variable(index):
        if index not in variables:
            variables[index] = kiwisolver.Variable("v%d" % index)
        return variables[index]

    # Expressions are built before the clock starts, pass by pass.
    built = []
    for steps in workload["passes"]:
        prepared = []
        for step in steps:
            if step["op"] == "add":
                key = step["key"]
                edit = kiwisolver.Variable("e%d" % key) if key in editable else None
                expression = sum((coefficient * variable(index) for index, coefficient in step["terms"]),
                                 edit if edit is not None else step["constant"])
                relation = step["rel"]
                constraint = expression == 0 if relation == "==" else expression <= 0 if relation == "<=" else expression >= 0
                level = step["level"]
                constraint = constraint | ("required" if level == 0 else strength_of[level])
                prepared.append(("add", key, constraint, edit, step["constant"]))
            elif step["op"] == "remove":
                prepared.append(("remove", step["key"], None, None, None))
            else:
                prepared.append(("set", step["key"], None, None, step["constant"]))
        built.append(prepared)

    solver = kiwisolver.Solver()
    held = {}
    rejected = 0
    seconds = []
    started = time.perf_counter()
    for prepared in built:
        start = time.perf_counter()
        for op, key, constraint, edit, constant in prepared:
            if op == "add":
                try:
                    if edit is not None:
                        solver.addEditVariable(edit, edit_strength)
                        solver.suggestValue(edit, constant)
                    solver.addConstraint(constraint)
                    held[key] = (constraint, edit)
                except kiwisolver.UnsatisfiableConstraint:
                    rejected += 1
                    if edit is not None:
                        solver.removeEditVariable(edit)
            elif op == "remove":
                if key in held:
                    constraint, edit = held.pop(key)
                    solver.removeConstraint(constraint)
                    if edit is not None:
                        solver.removeEditVariable(edit)
            elif key in held and held[key][1] is not None:
                solver.suggestValue(held[key][1], constant)
        solver.updateVariables()
        seconds.append(time.perf_counter() - start)
        if time.perf_counter() - started > time_limit:
            break
    return {"name": workload["name"], "pass_seconds": seconds, "rejected": rejected,
            "timeout": len(seconds) < len(built)}


def main(arguments):
    time_limit = 120.0
    paths = []
    while arguments:
        argument = arguments.pop(0)
        if argument == "--time-limit":
            time_limit = float(arguments.pop(0))
        else:
            paths.append(argument)
    for path in paths:
        with open(path) as handle:
            is_sequence = json.load(handle).get("mode") == "sequence"
        if is_sequence:
            with open(path) as handle:
                print(json.dumps(run_sequence(json.load(handle), time_limit)), flush=True)
        else:
            print(json.dumps(run(path, time_limit)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
