#!/usr/bin/env bash
# Runs the runner's and the fuzzer's tests under Thread Sanitizer (a separate build folder,
# .build-tsan, since sanitized objects differ). Takes several minutes; not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-dependencies.sh
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "RunnerTests|FuzzingTests" "$@"
