#!/usr/bin/env bash
# The main job: builds LayoutBench in release mode and benchmarks every backend on the
# standard suite (`layoutbench bench --backend all`), writing Reports/<timestamp>/report.json.
# Extra arguments go to `layoutbench bench` (e.g. --quick, --baseline Reports/baseline.json).
# The run is recorded in the history, Reports/history.sqlite (docs/history.md), and compared
# with the previous run of the same suite on this machine, which the output names.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build -c release --product layoutbench
exec .build/release/layoutbench bench --backend all "$@"
