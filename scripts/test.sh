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
  scripts/local-slurm-test.sh .build/debug/LayoutBenchTestbed
fi
swift test --skip-build "$@"
# The coverage-guided fuzzer for 60 s from its seed corpus (docs/fuzzing.md, "Coverage-guided
# fuzzing"; about 2 minutes of instrumented build the first time). LAYOUTBENCH_GUIDED_FUZZ=0
# skips it. A harness crash, a build error or a new wrong finding fails the run (the reduced
# repros in .build-fuzz/ci-run/findings); findings Corpora/ records as expected failures are
# known, reported in .build-fuzz/ci-run/known, and do not fail it. The minute starts from the
# seed corpus alone (its own growing corpus in ci-run/corpus): libFuzzer counts reading its
# corpus in the minute, and the shared cache .build-fuzz/guided-corpus grows with every run
# (440 inputs took 99 s to read, and three CI minutes fuzzed 26 inputs each).
if [ "${LAYOUTBENCH_GUIDED_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
  rm -rf .build-fuzz/ci-run
  scripts/fuzz-guided.sh --time 60 --out .build-fuzz/ci-run --corpus .build-fuzz/ci-run/corpus
fi
