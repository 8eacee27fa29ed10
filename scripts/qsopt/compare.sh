#!/usr/bin/env bash
# Compares the exact backend with QSopt_ex's exact LP solver (esolver), level by level.
#
# For every .layout given (default: Corpora/seeds), `layoutbench export-lp` writes the LP
# of each priority level: level 0 the feasibility of the required set, level K ≥ 1 the
# minimum of level K's error sum with the kept required set and the levels above held at
# our optima. The file's comment line carries our answer (`level K optimum 327/2`, or
# `level 0 feasible|infeasible`); esolver solves the LP exactly and prints rationals, and
# the two must agree. Arguments may also be .lp files exported earlier (e.g. by the
# LAYOUTBENCH_EXPORT_DIR test in Tests/ExactSimplexTests/WorkloadTests.swift, which adds
# generated systems), or directories of either.
#
# Usage: scripts/qsopt/compare.sh [FILE|DIR ...]
# Env:   LAYOUTBENCH  the layoutbench binary (default: .build-exactsimplex/release/layoutbench)
# Exit:  0 when every LP agrees, 1 on any disagreement or failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
command -v esolver >/dev/null || { echo "esolver not found: apt-get install qsopt-ex" >&2; exit 1; }
layoutbench="${LAYOUTBENCH:-.build-exactsimplex/release/layoutbench}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
agree=0; disagree=0

# Runs esolver on one LP and compares with the answer in its comment line.
check_lp() {
    local lp="$1" label="$2"
    local ours status theirs
    ours=$(sed -n 's/^\\ layoutbench: level [0-9]* //p' "$lp" | head -1)
    rm -f "$work/out.sol"
    esolver -L -O "$work/out.sol" "$lp" >/dev/null 2>&1
    status=$(sed -n 's/^status =\{0,1\} *\([A-Z_]*\)$/\1/p' "$work/out.sol" | head -1)
    case "$ours" in
        feasible) [[ "$status" == OPTIMAL ]] && theirs=feasible || theirs="$status" ;;
        infeasible) [[ "$status" == INFEASIBLE ]] && theirs=infeasible || theirs="$status" ;;
        optimum*) theirs="optimum $(sed -n 's/^[[:space:]]*Value = //p' "$work/out.sol" | head -1)" ;;
        *) theirs="?" ;;
    esac
    if [[ "$ours" == "$theirs" ]]; then
        agree=$((agree + 1))
    else
        disagree=$((disagree + 1))
        echo "DISAGREE $label: exact says '$ours', esolver '$theirs'"
    fi
}

check_layout() {
    local file="$1" level=0
    while true; do
        "$layoutbench" export-lp "$file" --level "$level" -o "$work/level.lp" 2>"$work/err"
        case $? in
            0) check_lp "$work/level.lp" "$file level $level" ;;
            2) [[ $level -gt 0 ]] && grep -q "does not exist" "$work/err" && return
               echo "FAILED $file level $level: $(cat "$work/err")"; disagree=$((disagree + 1)); return ;;
            *) echo "FAILED $file level $level: $(cat "$work/err")"; disagree=$((disagree + 1)); return ;;
        esac
        level=$((level + 1))
    done
}

[[ $# -eq 0 ]] && set -- Corpora/seeds
for arg in "$@"; do
    if [[ -d "$arg" ]]; then
        for f in "$arg"/*.layout; do [[ -e "$f" ]] && check_layout "$f"; done
        for f in "$arg"/*.lp; do [[ -e "$f" ]] && check_lp "$f" "$f"; done
    elif [[ "$arg" == *.lp ]]; then
        check_lp "$arg" "$arg"
    else
        check_layout "$arg"
    fi
done
echo "esolver comparison: $agree passed, $disagree failed"
[[ $disagree -eq 0 ]]
