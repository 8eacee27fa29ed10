#!/usr/bin/env bash
# Coverage (regions, lines, functions) of the float, exact and Gaussian cores over a
# guided-fuzzer corpus
# (docs/fuzzing.md, "Coverage-guided fuzzing").
#
#   scripts/coverage-guided.sh --corpus DIR [--corpus DIR...] --out DIR
#
# Builds the harness with coverage mapping (-profile-generate -profile-coverage-mapping, its
# own scratch path .build-fuzz-cov), runs every corpus input once (libFuzzer -runs=0), and
# reports llvm-cov's region, line and function coverage of Sources/FloatSimplex,
# Sources/ExactSimplex and Sources/GaussianBackend (OUT/coverage.txt; the TOTAL line last).
# Swift emits no branch regions, so llvm-cov's branch columns stay empty; regions stand in.
# A generative campaign's cases in the same form: `layoutbench guided seeds --generative N`.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=() out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) corpora+=("$2"); shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "coverage-guided.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ ${#corpora[@]} -eq 0 ] || [ -z "$out" ]; then
  echo "usage: scripts/coverage-guided.sh --corpus DIR [--corpus DIR...] --out DIR" >&2
  exit 2
fi
source scripts/ensure-dependencies.sh
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"
llvm_profdata="$toolchain/llvm-profdata"; [ -x "$llvm_profdata" ] || llvm_profdata=llvm-profdata
llvm_cov="$toolchain/llvm-cov"; [ -x "$llvm_cov" ] || llvm_cov=llvm-cov
LAYOUTBENCH_FUZZ=1 nice -n 10 swift build --scratch-path .build-fuzz-cov --product guided-fuzzer \
  -Xswiftc -sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping -Xswiftc -use-ld=lld >&2
harness=.build-fuzz-cov/debug/guided-fuzzer
mkdir -p "$out"
rm -f "$out"/*.profraw
# -runs=0: read (and so run) every input once, then stop; wrong findings are reported in the
# log but do not stop the run (LAYOUTBENCH_GUIDED_NO_ABORT).
LLVM_PROFILE_FILE="$out/cov-%p.profraw" SWIFT_BACKTRACE=enable=no LAYOUTBENCH_GUIDED_NO_ABORT=1 \
  "$harness" -runs=0 -timeout=60 -artifact_prefix="$out/" "${corpora[@]}" > "$out/run.log" 2>&1 || \
  echo "coverage-guided: the run stopped early (see $out/run.log); coverage is of the inputs before it" >&2
"$llvm_profdata" merge -sparse "$out"/*.profraw -o "$out/coverage.profdata"
"$llvm_cov" report "$harness" -instr-profile="$out/coverage.profdata" -show-branch-summary \
  Sources/FloatSimplex Sources/ExactSimplex Sources/GaussianBackend > "$out/coverage.txt"
head -1 "$out/coverage.txt"
tail -1 "$out/coverage.txt"
