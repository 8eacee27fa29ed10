#!/usr/bin/env bash
# Builds LayoutBench (debug) and runs the whole test suite. Extra arguments go to `swift test`
# (e.g. --filter LayoutModelTests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build --build-tests
swift test --skip-build "$@"
