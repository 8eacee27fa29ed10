#!/usr/bin/env bash
# The main job: builds LayoutBench in release mode and benchmarks every backend on the
# standard suite (`layoutbench bench --backend all`), writing Reports/<timestamp>/report.json.
# Extra arguments go to `layoutbench bench` (e.g. --quick, --baseline Reports/baseline.json).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build -c release --product layoutbench
exec .build/release/layoutbench bench --backend all "$@"
