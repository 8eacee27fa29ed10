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
# skips it. It does not fail on wrong findings yet: it can still find a known float bug on
# near-conflicts (Corpora/regressions/crash-float-375bc64e7f234f2b.layout) within a minute;
# drop --no-fail-on-wrong when that is fixed. A harness crash or a build error still fails.
if [ "${LAYOUTBENCH_GUIDED_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
  rm -rf .build-fuzz/ci-run
  scripts/fuzz-guided.sh --time 60 --out .build-fuzz/ci-run --no-fail-on-wrong
fi
