#!/usr/bin/env bash
# The nightly job: benchmark, fuzz, and remember both in the history (docs/history.md).
#
#   scripts/nightly.sh [OUT_DIR]
#
# Builds LayoutBench in release mode; runs the standard bench suite (compared with the
# previous comparable night, which the output names) and a fuzz campaign of
# NIGHTLY_CASES cases (default 2000) with the night's date as its seed; records both in
# $LAYOUTBENCH_HISTORY (default Reports/history.sqlite); writes the trend page next to it
# and checks the file. Keep the history between CI runs as a cache or an artefact.
#
# Exit status: 1 when the campaign holds wrong findings that are new or back (the known,
# open ones do not fail the night); otherwise that of the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build -c release --product layoutbench
layoutbench=.build/release/layoutbench
night=$(date -u +%Y-%m-%d)
out=${1:-Reports/nightly-$night}
history=${LAYOUTBENCH_HISTORY:-Reports/history.sqlite}
mkdir -p "$out"

"$layoutbench" bench --backend all --quiet --out "$out/bench" --history "$history"
status=0
"$layoutbench" fuzz --cases "${NIGHTLY_CASES:-2000}" --seed "$(date -u +%Y%m%d)" --quiet --out "$out/fuzz" \
  --history "$history" --fail-on new,back || status=$?
"$layoutbench" history html --history "$history" -o "${history%.sqlite}.html"
"$layoutbench" history verify --history "$history"
exit "$status"
