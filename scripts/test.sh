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
# The coverage-guided fuzzer, reproducibly: libFuzzer seed 1, 1,500 inputs judged in one
# process (about 90 s; docs/fuzzing.md, "Coverage-guided fuzzing"; about 2 minutes of
# instrumented build the first time). The same commit judges the same inputs here and in CI,
# so a CI failure is one `scripts/test.sh` reproduces, and one that passes here passes there
# (a minute of fork mode judged whatever the machine's speed reached, and CI found what no
# local minute had). LAYOUTBENCH_GUIDED_FUZZ=0 skips it. A harness crash, a build error or a
# new wrong finding fails the run (the reduced repros printed, and in
# .build-fuzz/ci-run/findings); findings Corpora/ records as expected failures are known,
# reported in .build-fuzz/ci-run/known, and do not fail it (the run goes on with the next
# seed). It starts from the seed corpus alone (its own growing corpus in ci-run/corpus):
# the shared cache .build-fuzz/guided-corpus would make what it judges depend on earlier runs.
# Discovery is the nightly's job: `scripts/fuzz-guided.sh --time 600 --jobs 2` draws a seed.
if [ "${LAYOUTBENCH_GUIDED_FUZZ:-1}" != 0 ] && [ $# -eq 0 ]; then
  rm -rf .build-fuzz/ci-run
  scripts/fuzz-guided.sh --seed 1 --runs 1500 --time 300 --out .build-fuzz/ci-run --corpus .build-fuzz/ci-run/corpus
fi
