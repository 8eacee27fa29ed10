#!/usr/bin/env bash
# Builds LayoutBench (debug) and runs the whole test suite. Extra arguments go to `swift test`
# (e.g. --filter LayoutModelTests). With LAYOUTBENCH_SLURM_TEST=1 (as .ci/run sets), it first
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
