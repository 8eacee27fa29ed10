#!/usr/bin/env bash
# Runs the ExactArithmetic tests under valgrind and fails on any definite leak, e.g. a
# GMP mpq_t that was never cleared. Not part of CI: it is slow (about 45 s under valgrind
# on top of the build) and meant for after changes to Sources/ExactArithmetic or CGMP.
#
# Usage:
#   scripts/check-leaks.sh                            # builds into .build-leaks
#   SCRATCH_PATH=.build-exact scripts/check-leaks.sh  # reuse another build folder
#
# Exit status: 0 when clean; 3 when valgrind reports a definite leak or a memory error;
# anything else when the build or a test failed. It builds only the package's test bundle
# (product LayoutBenchPackageTests), so every test target must compile, but the CLI need not.
#
# Two workarounds make valgrind 3.19 usable with the Swift test runner:
# - The runner's async main parks the main thread in libdispatch, which calls
#   sigsuspend() on a `static const` mask. Valgrind's rt_sigsuspend wrapper writes to that
#   mask, which is in read-only memory, and valgrind dies with SIGSEGV. A preloaded
#   sigsuspend() passes a writable copy instead.
# - The Swift runtime's metadata initialisation trips one uninitialised-value false
#   positive; a suppression for it keeps the error count about our code.
set -euo pipefail

cd "$(dirname "$0")/.."
scratch="${SCRATCH_PATH:-.build-leaks}"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "check-leaks: installing valgrind" >&2
    apt-get update -qq
    apt-get install -y -qq valgrind >/dev/null
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/sigsuspend.c" <<'EOF'
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, (size_t)(_NSIG / 8));
}
EOF
"${CC:-cc}" -shared -fPIC -O2 -o "$work/sigsuspend.so" "$work/sigsuspend.c"

cat >"$work/swift-runtime.supp" <<'EOF'
{
   swift-runtime-struct-metadata-init
   Memcheck:Cond
   fun:swift_initStructMetadata
}
EOF

swift build --scratch-path "$scratch" --product LayoutBenchPackageTests
bundle="$(swift build --scratch-path "$scratch" --show-bin-path)/LayoutBenchPackageTests.xctest"

status=0
LD_PRELOAD="$work/sigsuspend.so" valgrind \
    --leak-check=full \
    --show-leak-kinds=definite \
    --errors-for-leak-kinds=definite \
    --error-exitcode=3 \
    --suppressions="$work/swift-runtime.supp" \
    "$bundle" --testing-library swift-testing --filter ExactArithmeticTests || status=$?

case "$status" in
    0) echo "check-leaks: no definite leaks" >&2 ;;
    3) echo "check-leaks: valgrind found a definite leak or memory error (see above)" >&2 ;;
    *) echo "check-leaks: the tests failed (exit $status)" >&2 ;;
esac
exit "$status"
