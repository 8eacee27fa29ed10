#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md, "Coverage-guided fuzzing").
#
#   scripts/fuzz-guided.sh --time SECONDS --out DIR [--jobs N] [--mutator mixed|structural|bytes]
#                          [--corpus DIR] [--keep DIR] [--planted-fault NAME] [--asan] [--no-fail-on-wrong]
#                          [--seed N] [--runs N]
#
# --seed N is libFuzzer's seed (default: one it draws and prints as "INFO: Seed:" in the log;
# the script echoes it). --runs N makes the run reproducible: one process (no fork mode), N
# inputs judged (reading the corpus included) in the order the seed gives, --time only a
# safety cap. The same build, seed, corpus and N judge the same inputs on every machine
# (CI's minute, `scripts/test.sh`). A wrong finding ends the process; when Corpora/ knows it,
# the run goes on with the next seed (at most 4 attempts), else the run fails.
#
# Builds the harness when needed (LAYOUTBENCH_FUZZ=1 adds it to the package; its own scratch
# path .build-fuzz, every module compiled with -sanitize=fuzzer, plus address with --asan),
# writes the seed corpus (`layoutbench guided seeds`: the generator's families and Corpora/)
# on the first run, fuzzes for SECONDS (fork mode, N jobs), then turns every crash
# artefact into an ordinary finding: DIR/findings/*.layout reduced, DIR/report.json in the
# fuzz report schema (`layoutbench guided findings`).
# What carries over between runs: Corpora/guided (committed: minimised inputs that reach
# code the seeds do not, read as seeds on every run; a clean clone has them) and the corpus
# libFuzzer grows (--corpus DIR; default $LAYOUTBENCH_GUIDED_CORPUS, else
# .build-fuzz/guided-corpus, a cache directory reused when present: cache it in CI, put it on
# shared storage on Slurm). --keep DIR (e.g. Corpora/guided) merges the run's new coverage into
# DIR afterwards (libFuzzer -set_cover_merge=1 on edges against the seeds, inputs up to 1 KiB)
# for committing.
# Known failures: a wrong finding that Corpora/ records as an expected failure (`# expect-fail: B`,
# `# expect-ill-conditioned: B`) does not stop the harness when the input is the entry
# (LAYOUTBENCH_GUIDED_KNOWN), and the conversion reports the artefacts whose reduced finding is
# an entry apart, in DIR/known/ (`guided findings --known Corpora`): they do not fail the run.
# Exit status: 0 no new wrong finding, 1 new wrong findings (0 with --no-fail-on-wrong), 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

time_limit="" out="" jobs=1 mutator=mixed corpus="" keep="" fault="" sanitizers=fuzzer fail_on_wrong=1 seed="" runs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time_limit="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --mutator) mutator="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    --planted-fault) fault="$2"; shift 2 ;;
    --asan) sanitizers=fuzzer,address; shift ;;
    --no-fail-on-wrong) fail_on_wrong=0; shift ;;
    --seed) seed="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "fuzz-guided.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if ! [[ "$time_limit" =~ ^[0-9]+$ ]] || [ -z "$out" ] || ! [[ "$jobs" =~ ^[1-9][0-9]*$ ]] \
   || ! [[ "$seed" =~ ^([1-9][0-9]{0,8})?$ ]] || ! [[ "$runs" =~ ^([1-9][0-9]*)?$ ]]; then
  echo "usage: scripts/fuzz-guided.sh --time SECONDS --out DIR [--jobs N] [--mutator mixed|structural|bytes] [--corpus DIR] [--keep DIR] [--planted-fault NAME] [--asan] [--no-fail-on-wrong] [--seed N (1-999999999)] [--runs N]" >&2
  exit 2
fi
if [ -n "$runs" ] && [ "$jobs" != 1 ]; then
  echo "fuzz-guided.sh: --runs is one reproducible process; it does not take --jobs" >&2
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
corpus="${corpus:-${LAYOUTBENCH_GUIDED_CORPUS:-.build-fuzz/guided-corpus}}"
mkdir -p "$corpus"
echo "fuzz-guided: corpus $corpus ($(find "$corpus" -type f | wc -l) inputs from earlier runs)" >&2
seeds="$out/seeds"
if [ ! -d "$seeds" ]; then
  "$layoutbench" guided seeds --out "$seeds.tmp" Corpora/seeds Corpora/regressions >&2
  mv "$seeds.tmp" "$seeds"
fi
# The committed minimised corpus: read as seeds (libFuzzer adds new inputs to $corpus only).
kept=Corpora/guided
mkdir -p "$kept"

args=(-max_total_time="$time_limit" -max_len=4096 -timeout=60 -rss_limit_mb=4096
      -artifact_prefix="$out/artefacts/" -print_final_stats=1)
convert=("$layoutbench" guided findings --known Corpora)
[ -z "$fault" ] || convert+=(--planted-fault "$fault")
# libFuzzer on the corpus with the extra arguments given; its log appended to libfuzzer.log.
fuzz() {
  local status=0 start
  start=$(date +%s)
  # The Swift runtime's backtracer would take the abort before libFuzzer saves the input.
  SWIFT_BACKTRACE=enable=no LAYOUTBENCH_GUIDED_MUTATOR="$mutator" LAYOUTBENCH_PLANTED_FAULT="$fault" LAYOUTBENCH_GUIDED_KNOWN="$PWD/Corpora" \
    "$harness" "${args[@]}" "$@" "$corpus" "$seeds" "$kept" 2> "$out/libfuzzer.part.log" || status=$?
  cat "$out/libfuzzer.part.log" >> "$out/libfuzzer.log"
  echo "fuzz-guided: libFuzzer exited $status after $(( $(date +%s) - start )) s ($out/libfuzzer.log)" >&2
  grep -E "^INFO: Seed:|^stat::|^#[0-9]+ +DONE" "$out/libfuzzer.part.log" >&2 || true
  rm -f "$out/libfuzzer.part.log"
  return "$status"
}
: > "$out/libfuzzer.log"
if [ -n "$runs" ]; then
  # One process: fork mode gives each job a slice of time, so what it judges depends on the
  # machine's speed. Swift seeds its hashing per process, and a Set's order reaches the edges
  # libFuzzer counts: fixed here.
  export SWIFT_DETERMINISTIC_HASHING=1
  # The first wrong finding ends the process. One that Corpora/ already records (a variant of
  # an open bug, known once reduced) lets the run go on from the corpus grown so far with the
  # next seed, up to 4 attempts of N runs (reading the corpus counts in N).
  next_seed=${seed:-1}
  for attempt in 1 2 3 4; do
    status=0
    fuzz -seed="$next_seed" -runs="$runs" || status=$?
    [ "$status" -eq 0 ] && break
    if ! compgen -G "$out/artefacts/*" > /dev/null; then
      echo "fuzz-guided: libFuzzer failed ($status) without an artefact; see $out/libfuzzer.log" >&2
      exit "$status"
    fi
    checked=0
    "${convert[@]}" --out "$out/attempt-$attempt" "$out"/artefacts/* > "$out/attempt-$attempt.log" 2>&1 || checked=$?
    [ "$checked" -eq 0 ] || break
    echo "fuzz-guided: attempt $attempt stopped at a known failure (seed $next_seed); going on with seed $((next_seed + 1))" >&2
    next_seed=$((next_seed + 1))
  done
else
  [ -z "$seed" ] || args+=(-seed="$seed")
  # Fork mode even for one job: a wrong finding ends only the child that found it, and the run
  # goes on for its whole time with every artefact kept.
  fuzz -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 || true
fi

if [ -n "$keep" ]; then
  # The seeds go in first so that only what reaches beyond them is kept; then they go again.
  mkdir -p "$keep" "$out/keep-merge"
  cp "$seeds"/* "$out/keep-merge/"
  cp "$keep"/* "$out/keep-merge/" 2>/dev/null || true
  before=$(find "$out/keep-merge" -type f | wc -l)
  small=$(mktemp -d)
  find "$corpus" -type f -size -1025c -exec cp {} "$small/" \;
  # A set cover of new edges (not hit counts): tens of inputs rather than hundreds.
  SWIFT_BACKTRACE=enable=no LAYOUTBENCH_GUIDED_NO_ABORT=1 "$harness" -set_cover_merge=1 -use_counters=0 -timeout=60 -rss_limit_mb=4096 \
    "$out/keep-merge" "$small" > "$out/keep-merge.log" 2>&1 || true
  rm -rf "$small"
  find "$out/keep-merge" -name 'seed-*' -delete
  cp -n "$out/keep-merge"/* "$keep/" 2>/dev/null || true
  echo "fuzz-guided: $(( $(find "$out/keep-merge" -type f | wc -l) )) inputs reach beyond the seeds; $keep holds $(find "$keep" -type f | wc -l) (was $(( before - $(find "$seeds" -type f | wc -l) )))" >&2
fi

artefacts=()
for f in "$out"/artefacts/crash-* "$out"/artefacts/timeout-* "$out"/artefacts/oom-*; do
  [ -e "$f" ] && artefacts+=("$f")
done
found=0
"${convert[@]}" --out "$out" "${artefacts[@]}" || found=$?
if [ "$found" -ne 0 ] && [ "$found" -ne 1 ]; then exit "$found"; fi
if [ "$found" -eq 1 ]; then
  # The reduced repros in the log itself: a CI run's files do not outlive it.
  for f in "$out"/findings/*.layout; do
    echo "--- $f" >&2
    cat "$f" >&2
  done
fi
if [ "$found" -eq 1 ] && [ "$fail_on_wrong" -eq 1 ]; then exit 1; fi
exit 0
