#!/usr/bin/env bash
# Submits a LayoutBench fuzz campaign to Slurm: a job array of N shards and a merge job that
# runs after all of them, whether they succeeded or not.
#
#   scripts/slurm/submit-campaign.sh --cases 1000000 --shards 64 /shared/fuzz/2025-06-01 \
#       [-- EXTRA SBATCH ARGUMENTS, e.g. --partition=cpu --account=layout]
#
# Options (defaults in brackets):
#   --cases C          the campaign's case count (required)
#   --shards N         shards, one array task each [8]
#   --seed S           campaign seed [1]
#   --backend LIST     backends under test [all]
#   --families LIST    generator families [fuzz's default]
#   --min-size A       smallest system, in views [1]
#   --max-size B       largest system, in views [10]
#   --jobs J           worker threads per shard; also --cpus-per-task [1]
#   --time-limit T     Slurm time limit per shard [02:00:00]
#   --max-running M    at most M shards at once (--array=0-N-1%M) [no limit]
#   --fuzz-arg ARG     one more argument for every `fuzz` (repeatable), e.g. --fuzz-arg=--no-isolate
#   --binary PATH      the layoutbench binary, on a path every node sees
#                      [$LAYOUTBENCH, else .build/release/layoutbench of this checkout]
#
# CAMPAIGN_DIR must be on a filesystem every node mounts; it is created and must not hold a
# campaign yet. Written there: campaign.env (the campaign, read by every job), logs/,
# shards/K/ (each shard's fuzz output), merged/ (the report). The environment of this
# command is passed to the jobs (sbatch's default --export=ALL).
#
# Prints the two job ids as `array=ID merge=ID` on the last line of standard output.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The header above, as help: on stdout with status 0 for --help, on stderr with 2 for misuse.
usage() {
  local status=${1:-2}
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&$(( status == 0 ? 1 : 2 ))
  exit "$status"
}

cases="" shards=8 seed=1 backends=all families="" min_size=1 max_size=10 jobs=1
time_limit=02:00:00 max_running="" binary=${LAYOUTBENCH:-$here/../../.build/release/layoutbench}
fuzz_extra=() sbatch_extra=() campaign=""
while (( $# > 0 )); do
  case $1 in
    --cases) cases=${2:?}; shift 2 ;;
    --shards) shards=${2:?}; shift 2 ;;
    --seed) seed=${2:?}; shift 2 ;;
    --backend) backends=${2:?}; shift 2 ;;
    --families) families=${2:?}; shift 2 ;;
    --min-size) min_size=${2:?}; shift 2 ;;
    --max-size) max_size=${2:?}; shift 2 ;;
    --jobs) jobs=${2:?}; shift 2 ;;
    --time-limit) time_limit=${2:?}; shift 2 ;;
    --max-running) max_running=${2:?}; shift 2 ;;
    --fuzz-arg) fuzz_extra+=("${2:?}"); shift 2 ;;
    --fuzz-arg=*) fuzz_extra+=("${1#--fuzz-arg=}"); shift ;;
    --binary) binary=${2:?}; shift 2 ;;
    --) shift; sbatch_extra=("$@"); break ;;
    -h|--help) usage 0 ;;
    -*) echo "submit-campaign: unknown option $1" >&2; usage ;;
    *) [[ -z $campaign ]] || usage; campaign=$1; shift ;;
  esac
done
[[ -n $campaign && -n $cases ]] || usage
for number in "$cases" "$shards" "$min_size" "$max_size" "$jobs" ${max_running:+"$max_running"}; do
  [[ $number =~ ^[0-9]+$ ]] || { echo "submit-campaign: '$number' is not a number" >&2; exit 2; }
done
(( shards >= 1 )) || { echo "submit-campaign: --shards must be at least 1" >&2; exit 2; }
[[ -x $binary ]] || { echo "submit-campaign: no executable layoutbench at $binary (build it, or give --binary / LAYOUTBENCH)" >&2; exit 2; }
binary=$(realpath "$binary")

mkdir -p "$campaign"
campaign=$(realpath "$campaign")
if [[ -e $campaign/campaign.env ]]; then
  echo "submit-campaign: $campaign already holds a campaign; re-run its shards with rerun-shards.sh" >&2
  exit 2
fi
mkdir -p "$campaign/logs" "$campaign/shards"

# Every job sources this file (and rerun-shards.sh, for the sbatch arguments); declare -p
# quotes any value safely for bash.
LAYOUTBENCH=$binary SEED=$seed CASES=$cases SHARDS=$shards BACKENDS=$backends FAMILIES=$families
MIN_SIZE=$min_size MAX_SIZE=$max_size JOBS=$jobs TIME_LIMIT=$time_limit
FUZZ_EXTRA=("${fuzz_extra[@]}")
SBATCH_EXTRA=("${sbatch_extra[@]}")
{
  echo "# LayoutBench fuzz campaign, written by submit-campaign.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  declare -p LAYOUTBENCH SEED CASES SHARDS BACKENDS FAMILIES MIN_SIZE MAX_SIZE JOBS TIME_LIMIT FUZZ_EXTRA SBATCH_EXTRA
} > "$campaign/campaign.env.partial"
mv "$campaign/campaign.env.partial" "$campaign/campaign.env"

array="0-$((shards - 1))${max_running:+%$max_running}"
# The comment marks the campaign's jobs, so that rerun-shards.sh can tell whether any is
# still queued or running.
if ! array_job=$(sbatch --parsable --array="$array" --time="$time_limit" --cpus-per-task="$jobs" \
       --comment="layoutbench-campaign:$campaign" --output="$campaign/logs/shard-%a.out" "${sbatch_extra[@]}" \
       "$here/fuzz-shard.sbatch" "$campaign"); then
  # Nothing was submitted: leave the folder free for another attempt.
  rm -f "$campaign/campaign.env"
  echo "submit-campaign: sbatch refused the array; nothing was submitted" >&2
  exit 1
fi
array_job=${array_job%%;*}
if ! merge_job=$(sbatch --parsable --dependency="afterany:$array_job" \
       --comment="layoutbench-campaign:$campaign" --output="$campaign/logs/merge-%j.out" "${sbatch_extra[@]}" \
       "$here/merge.sbatch" "$campaign"); then
  echo "submit-campaign: array job $array_job is submitted, but sbatch refused the merge job; submit it with" >&2
  echo "  sbatch --dependency=afterany:$array_job $here/merge.sbatch $campaign" >&2
  exit 1
fi
merge_job=${merge_job%%;*}

echo "campaign $campaign: $shards shards of $cases cases (seed $seed), array job $array_job, merge job $merge_job" >&2
echo "report when done: $campaign/merged/report.json" >&2
echo "array=$array_job merge=$merge_job"
