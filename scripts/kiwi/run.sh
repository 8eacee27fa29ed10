#!/usr/bin/env bash
# Runs workload JSON files through kiwisolver (kiwi's C++ core), installing it from PyPI if
# it is missing. Prints one JSON line per workload.
#   scripts/kiwi/run.sh [--time-limit SECONDS] WORKLOAD.json...
# `layoutbench bench-incremental --kiwi` writes the workloads and calls this script.
set -euo pipefail
python=${PYTHON:-python3}
if ! "$python" -c 'import kiwisolver' 2>/dev/null; then
    echo "installing kiwisolver from PyPI" >&2
    "$python" -m pip install --quiet kiwisolver >&2
fi
exec "$python" "$(dirname "$0")/driver.py" "$@"
