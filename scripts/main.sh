#!/usr/bin/env bash
# The main job: builds LayoutBench in release mode and re-solves the seed corpus with every
# backend, checking each result against its hand-calculated expectation. Extra arguments go to
# `layoutbench replay` (e.g. --verbose, --backend exact).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build -c release --product layoutbench
exec .build/release/layoutbench replay Corpora "$@"
