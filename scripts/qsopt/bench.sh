#!/usr/bin/env bash
# Side-by-side timing of the exact backend and QSopt_ex's esolver on the benchmark
# workloads (chains, nested trees, grids of ~10, 100 and 1,000 views).
#
# The exact backend's figures come from the env-gated benchmark test in
# Tests/ExactSimplexTests/WorkloadTests.swift, run in release: best of three whole solves
# (all priority levels, determinacy and certificates included). It also writes, per
# workload, the LP of its last priority level (every constraint, the levels above held at
# their optima), which esolver then solves: best of three wall-clock runs of the binary,
# process start-up and LP reading included. Both run in this one invocation, so the ratio
# is fair on a shared machine even when absolute times are not.
#
# Usage: scripts/qsopt/bench.sh [OUTDIR] [SIZES]   (defaults: /tmp/layoutbench-bench, 10,100,1000)
# Needs bc and esolver (apt-get install qsopt-ex bc).
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-/tmp/layoutbench-bench}"
sizes="${2:-10,100,1000}"
command -v esolver >/dev/null || { echo "esolver not found: apt-get install qsopt-ex" >&2; exit 1; }
mkdir -p "$out"
if [[ -z "${SKIP_BUILD:-}" ]]; then  # SKIP_BUILD=1 reuses an OUTDIR the benchmark test already filled
    swift build -c release --scratch-path .build-exactsimplex --build-tests >/dev/null
    LAYOUTBENCH_BENCH_DIR="$out" LAYOUTBENCH_BENCH_SIZES="$sizes" \
        swift test -c release --scratch-path .build-exactsimplex --skip-build --filter 'Workloads/benchmark' >/dev/null
fi

best_of_three() {
    local best=""
    for _ in 1 2 3; do
        local start end t
        start=$(date +%s.%N)
        rm -f "$2"
        esolver -L -O "$2" "$1" >/dev/null 2>&1
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc -l)
        if [[ -z "$best" ]] || (( $(echo "$t < $best" | bc -l) )); then best=$t; fi
    done
    echo "$best"
}

printf '%-6s %6s %11s %7s %9s %12s %8s\n' workload views exact_s pivots bits esolver_s ratio
tail -n +2 "$out/exact.csv" | while IFS=, read -r workload views constraints seconds pivots refactorizations nbits dbits dlps status; do
    size=$(ls "$out" | grep -E "^${workload}-[0-9]+\.lp$" | sed -E "s/^${workload}-([0-9]+)\.lp$/\1/" | sort -n | awk -v v="$views" '{d=$1-v; if(d<0)d=-d; if(best==""||d<bd){best=$1;bd=d}} END{print best}')
    lp="$out/$workload-$size.lp"
    esolver_s=$(best_of_three "$lp" "$out/$workload-$size.sol")
    # esolver's optimum must equal ours (the LP file's comment line holds ours).
    ours=$(sed -n 's/^\\ layoutbench: level [0-9]* optimum //p' "$lp")
    theirs=$(sed -n 's/^[[:space:]]*Value = //p' "$out/$workload-$size.sol" | head -1)
    [[ "$ours" == "$theirs" ]] || echo "MISMATCH $lp: ours $ours, esolver $theirs" >&2
    printf '%-6s %6s %11.6f %7s %9s %12.6f %8.1f\n' "$workload" "$views" "$seconds" "$pivots" "$nbits/$dbits" "$esolver_s" "$(echo "$esolver_s / $seconds" | bc -l)"
done

# Log-log growth exponents between the smallest and largest size of each workload.
echo
awk -F, 'NR>1 { if (!($1 in first)) { first[$1]=$2; ft[$1]=$4 } last[$1]=$2; lt[$1]=$4 }
    END { for (w in first) printf "%s: exponent %.2f (log(t)/log(n) from %d to %d views)\n", w, log(lt[w]/ft[w])/log(last[w]/first[w]), first[w], last[w] }' "$out/exact.csv"
