#!/usr/bin/env bash
# Re-runs shards of a Slurm fuzz campaign that did not complete, then merges again.
#
#   scripts/slurm/rerun-shards.sh CAMPAIGN_DIR            # every shard without a complete report
#   scripts/slurm/rerun-shards.sh CAMPAIGN_DIR 3,17       # just these shards
#   scripts/slurm/rerun-shards.sh --dry-run CAMPAIGN_DIR  # only print which shards that would be
#
# A shard is incomplete when CAMPAIGN_DIR/shards/K/report.json is missing (the task failed,
# its node died, it never ran) or says the shard was interrupted (time limit, Ctrl-C). They
# are submitted as one job array whose indices are the shard numbers, with the campaign's
# time limit and sbatch arguments (campaign.env), plus a new merge job after it. Each task
# resumes from its shard's checkpoint; since a campaign's cases depend only on (seed, case
# index), the merged result is the same as if the shards had never failed.
#
# Refuses while jobs of the campaign are still queued or running (two runs of one shard would
# write the same folder). Prints `array=ID merge=ID` on the last line of standard output, or
# `complete` when no shard needs a re-run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dry_run=false
if [[ ${1:-} == --dry-run ]]; then dry_run=true; shift; fi
if (( $# < 1 || $# > 2 )) || [[ $1 == -* ]]; then
  echo "usage: rerun-shards.sh [--dry-run] CAMPAIGN_DIR [K,K,...]" >&2
  exit 2
fi
campaign=$1
campaign=$(realpath "$campaign")
if [[ ! -f $campaign/campaign.env ]]; then
  echo "rerun-shards: $campaign/campaign.env is missing (not a campaign of submit-campaign.sh)" >&2
  exit 2
fi
# shellcheck source=/dev/null
source "$campaign/campaign.env"

if (( $# >= 2 )); then
  list=$2
  [[ $list =~ ^[0-9]+(,[0-9]+)*$ ]] || { echo "rerun-shards: shards are given as K,K,... (got '$list')" >&2; exit 2; }
  for k in ${list//,/ }; do
    (( k < SHARDS )) || { echo "rerun-shards: shard $k is not one of 0..$((SHARDS - 1))" >&2; exit 2; }
  done
else
  list=$(python3 - "$campaign" "$SHARDS" <<'PY'
import json, os, sys
campaign, shards = sys.argv[1], int(sys.argv[2])
incomplete = []
for k in range(shards):
    try:
        with open(os.path.join(campaign, "shards", str(k), "report.json")) as f:
            report = json.load(f)
        if any(s.get("interrupted") for s in report.get("shards", [])):
            incomplete.append(k)
    except (OSError, ValueError):
        incomplete.append(k)
print(",".join(map(str, incomplete)))
PY
  )
fi

if [[ -z $list ]]; then
  echo "rerun-shards: every shard of $campaign has a complete report" >&2
  echo complete
  exit 0
fi
echo "rerun-shards: shards to run again: $list" >&2
if $dry_run; then echo "$list"; exit 0; fi

# Two runs of one shard at once would write the same folder: wait for the campaign's jobs
# (marked by submit-campaign.sh's comment) to leave the queue first.
queued=$(squeue -h -u "$(id -un)" -o '%i|%k' | awk -F'|' -v mark="layoutbench-campaign:$campaign" '$2 == mark {print $1}' | tr '\n' ' ')
if [[ -n $queued ]]; then
  echo "rerun-shards: jobs of this campaign are still queued or running: $queued; wait for them (or scancel them) first" >&2
  exit 1
fi

array_job=$(sbatch --parsable --array="$list" --time="$TIME_LIMIT" --cpus-per-task="$JOBS" \
  --comment="layoutbench-campaign:$campaign" --output="$campaign/logs/shard-%a.out" "${SBATCH_EXTRA[@]}" \
  "$here/fuzz-shard.sbatch" "$campaign")
array_job=${array_job%%;*}
merge_job=$(sbatch --parsable --dependency="afterany:$array_job" \
  --comment="layoutbench-campaign:$campaign" --output="$campaign/logs/merge-%j.out" "${SBATCH_EXTRA[@]}" \
  "$here/merge.sbatch" "$campaign")
merge_job=${merge_job%%;*}
echo "rerun-shards: array job $array_job, merge job $merge_job" >&2
echo "array=$array_job merge=$merge_job"
