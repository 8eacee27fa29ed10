#!/usr/bin/env bash
# Builds LayoutBench (debug) and runs the whole test suite. Extra arguments go to `swift test`
# (e.g. --filter LayoutModelTests; the guided fuzzer runs only without them). With LAYOUTBENCH_SLURM_TEST=1 (as .ci/run sets), it first
# runs a sharded campaign on a real two-node Slurm cluster on loopback
# (scripts/local-slurm-test.sh; needs root for apt and the daemons).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build --build-tests
if [ "${LAYOUTBENCH_SLURM_TEST:-0}" = 1 ]; then
  scripts/local-slurm-test.sh .build/debug/layoutbench
fi
swift test --skip-build "$@"
# The coverage-guided fuzzer for 60 s from its seed corpus (docs/fuzzing.md, "Coverage-guided
# fuzzing"; about 2 minutes of instrumented build the first time). LAYOUTBENCH_GUIDED_FUZZ=0
# skips it. A wrong finding fails the run (its reduced repro is in .build-fuzz/ci-run/findings),
# as do a harness crash and a build error.
if [ "${LAYOUTBENCH_GUIDED_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
  rm -rf .build-fuzz/ci-run
  scripts/fuzz-guided.sh --time 60 --out .build-fuzz/ci-run
fi
