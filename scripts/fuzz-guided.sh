#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md, "Coverage-guided fuzzing").
#
#   scripts/fuzz-guided.sh --time SECONDS --out DIR [--jobs N] [--mutator mixed|structural|bytes]
#                          [--corpus DIR] [--planted-fault NAME] [--asan] [--no-fail-on-wrong]
#
# Builds the harness when needed (LAYOUTBENCH_FUZZ=1 adds it to the package; its own scratch
# path .build-fuzz, every module compiled with -sanitize=fuzzer, plus address with --asan),
# writes the seed corpus (`layoutbench guided seeds`: the generator's families and Corpora/)
# on the first run, fuzzes for SECONDS (fork mode, N jobs), then turns every crash
# artefact into an ordinary finding: DIR/findings/*.layout reduced, DIR/report.json in the
# fuzz report schema (`layoutbench guided findings`). The corpus (DIR/corpus by default)
# grows across runs: keep it in a CI cache or on shared storage to resume.
# Exit status: 0 no wrong finding, 1 wrong findings (0 with --no-fail-on-wrong), 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

time_limit="" out="" jobs=1 mutator=mixed corpus="" fault="" sanitizers=fuzzer fail_on_wrong=1
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_limit="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --mutator) mutator="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --planted-fault) fault="$2"; shift 2 ;;
    --asan) sanitizers=fuzzer,address; shift ;;
    --no-fail-on-wrong) fail_on_wrong=0; shift ;;
    *) echo "fuzz-guided.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if ! [[ "$time_limit" =~ ^[0-9]+$ ]] || [ -z "$out" ] || ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz-guided.sh --time SECONDS --out DIR [--jobs N] [--mutator mixed|structural|bytes] [--corpus DIR] [--planted-fault NAME] [--asan] [--no-fail-on-wrong]" >&2
  exit 2
fi
case "$mutator" in mixed|structural|bytes) ;; *) echo "fuzz-guided.sh: --mutator mixed|structural|bytes" >&2; exit 2 ;; esac

source scripts/ensure-dependencies.sh
# The ordinary debug build: seeds and conversion (and, in debug, the planted faults).
nice -n 5 swift build --product layoutbench >&2
layoutbench=.build/debug/layoutbench
scratch=.build-fuzz
[ "$sanitizers" = fuzzer ] || scratch=.build-fuzz-asan
LAYOUTBENCH_FUZZ=1 nice -n 10 swift build --scratch-path "$scratch" --product guided-fuzzer \
  -Xswiftc -sanitize="$sanitizers" -Xswiftc -use-ld=lld >&2
harness="$scratch/debug/guided-fuzzer"

mkdir -p "$out/artefacts"
corpus="${corpus:-$out/corpus}"
mkdir -p "$corpus"
seeds="$out/seeds"
if [ ! -d "$seeds" ]; then
  "$layoutbench" guided seeds --out "$seeds.tmp" Corpora/seeds Corpora/regressions >&2
  mv "$seeds.tmp" "$seeds"
fi

args=(-max_total_time="$time_limit" -max_len=4096 -timeout=60 -rss_limit_mb=4096
      -artifact_prefix="$out/artefacts/" -print_final_stats=1)
# Fork mode even for one job: a wrong finding ends only the child that found it, and the run
# goes on for its whole time with every artefact kept.
args+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
start=$(date +%s)
status=0
# The Swift runtime's backtracer would take the abort before libFuzzer saves the input.
SWIFT_BACKTRACE=enable=no LAYOUTBENCH_GUIDED_MUTATOR="$mutator" LAYOUTBENCH_PLANTED_FAULT="$fault" \
  "$harness" "${args[@]}" "$corpus" "$seeds" 2> "$out/libfuzzer.log" || status=$?
echo "fuzz-guided: libFuzzer exited $status after $(( $(date +%s) - start )) s ($out/libfuzzer.log)" >&2
grep -E "^stat::|^#[0-9]+ +DONE" "$out/libfuzzer.log" >&2 || true

artefacts=()
for f in "$out"/artefacts/crash-* "$out"/artefacts/timeout-* "$out"/artefacts/oom-*; do
  [ -e "$f" ] && artefacts+=("$f")
done
convert=("$layoutbench" guided findings --out "$out")
[ -z "$fault" ] || convert+=(--planted-fault "$fault")
found=0
"${convert[@]}" "${artefacts[@]}" || found=$?
if [ "$found" -ne 0 ] && [ "$found" -ne 1 ]; then exit "$found"; fi
if [ "$found" -eq 1 ] && [ "$fail_on_wrong" -eq 1 ]; then exit 1; fi
exit 0
