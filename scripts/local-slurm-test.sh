#!/usr/bin/env bash
# End-to-end test of sharded fuzz campaigns on a real Slurm cluster of two nodes on loopback.
#
#   scripts/local-slurm-test.sh [LAYOUTBENCH_BINARY]      # as root; default .build/debug/LayoutBenchTestbed
#
# Installs Slurm and MUNGE with apt when they are missing, then, with everything (keys,
# configuration, spool, state, logs, campaign) under one temporary folder:
#  1. starts munged on its own socket, slurmctld, and slurmd for nodes n1 and n2 (127.0.0.1,
#     ports picked free), all by PID;
#  2. submits an 8-shard campaign with scripts/slurm/submit-campaign.sh (job array + merge job
#     with --dependency=afterany) through a wrapper that kills shard 5's first attempt with
#     SIGKILL after its first completed case and deletes its report, as if its node had died;
#     meanwhile runs the same campaign unsharded on this machine;
#  3. checks that both nodes ran shards, that shard 5 failed, and that the merged report names
#     shard 5 as missing;
#  4. re-runs the missing shard with scripts/slurm/rerun-shards.sh (it resumes from the dead
#     attempt's checkpoint) and checks that the new merged report equals the unsharded run:
#     cases, finding occurrences, crashed cases, the findings list, and the repro files byte
#     for byte;
#  5. stops every daemon it started and removes the folder, on failure too (trap).
#
# The campaign uses the test-only backend test-trap, which traps on systems of 7k+3 constraints,
# next to gaussian: so the campaign has findings and crashed cases to compare, and the shards
# exercise crash isolation on the nodes. Only the test bed (LayoutBenchTestbed, built by
# `swift build --build-tests`) has test-trap: the shipped layoutbench does not.
# Set KEEP_SLURM_TEST_DIR=1 to keep the folder for inspection.
set -euo pipefail

start_seconds=$SECONDS
# The daemons live in sbin, which a CI environment's PATH may lack.
export PATH=$PATH:/usr/sbin:/sbin
say() { printf 'local-slurm-test [%3ds]: %s\n' "$((SECONDS - start_seconds))" "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

binary=${1:-${LAYOUTBENCH:-}}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
if [[ -z $binary ]]; then
  binary=$repo/.build/debug/LayoutBenchTestbed
else
  binary=$(cd "$OLDPWD" && realpath -m "$binary")
fi
[[ -x $binary ]] || fail "no test bed binary at $binary (swift build --build-tests, or pass its path)"
(( $(id -u) == 0 )) || fail "must run as root: slurmd and munged (as user munge) are started here"

# A test run inside a real Slurm job or Kubernetes pod must not pick up that scheduler's shard.
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep -E '^(SLURM_|SBATCH_|SQUEUE_|JOB_COMPLETION_INDEX$)' || true)

# --- Slurm and MUNGE -----------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null \
   || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  install=(apt-get install -y -qq --no-install-recommends slurm-wlm munge)
  if ! "${install[@]}" >/dev/null 2>&1; then
    apt-get update -qq
    "${install[@]}" >/dev/null
  fi
fi
say "$(slurmctld -V), munge $(munged --version 2>&1 | awk '{print $1; exit}' | sed 's/^munge-//')"

# --- Teardown, armed before anything starts ------------------------------------------------
work=$(mktemp -d /tmp/layoutbench-slurm.XXXXXX)
daemon_pids=()      # in start order; stopped in reverse
reference_pid=""
teardown() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  if (( status != 0 )); then
    say "diagnostics from $work:" >&2
    for log in "$work"/log/slurmctld.log "$work"/log/slurmd-n1.log "$work"/log/slurmd-n2.log \
               "$work"/campaign/logs/*.out "$work"/reference.log; do
      [[ -f $log ]] || continue
      echo "----- $log (last 15 lines)" >&2
      tail -n 15 "$log" >&2
    done
  fi
  if [[ -n $reference_pid ]] && kill -0 "$reference_pid" 2>/dev/null; then
    kill "$reference_pid"; wait "$reference_pid" 2>/dev/null
  fi
  # Jobs first, while slurmctld is up, so that no slurmstepd outlives the cluster.
  if [[ -n ${SLURM_CONF:-} ]] && squeue -h >/dev/null 2>&1; then
    scancel --user="$(id -un)" 2>/dev/null
    for _ in $(seq 50); do [[ -z $(squeue -h 2>/dev/null) ]] && break; sleep 0.1; done
  fi
  # A job leaves the queue before its slurmstepd exits; each step's socket in the spool goes
  # with it.
  for _ in $(seq 50); do [[ -z $(find "$work/spool" -type s 2>/dev/null) ]] && break; sleep 0.1; done
  local i pid
  for ((i = ${#daemon_pids[@]} - 1; i >= 0; i--)); do
    pid=${daemon_pids[i]}
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
    wait "$pid" 2>/dev/null
  done
  # Whatever outlived them (a slurmstepd finishing, a job's process) carries this run's
  # SLURM_CONF in its environment, which no other process has.
  if [[ -n ${SLURM_CONF:-} ]]; then
    local conf=$SLURM_CONF leftovers=()
    unset SLURM_CONF
    for _ in $(seq 50); do
      mapfile -t leftovers < <(grep -lzxF "SLURM_CONF=$conf" /proc/[0-9]*/environ 2>/dev/null \
                                 | sed 's|^/proc/\([0-9]*\)/environ$|\1|' | grep -vxF "$$")
      (( ${#leftovers[@]} == 0 )) && break
      sleep 0.1
    done
    if (( ${#leftovers[@]} > 0 )); then
      say "killing leftover processes ${leftovers[*]}" >&2
      kill -KILL "${leftovers[@]}" 2>/dev/null
    fi
  fi
  if [[ ${KEEP_SLURM_TEST_DIR:-0} == 1 ]]; then
    say "kept $work"
  else
    rm -rf "$work"
  fi
  exit "$status"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# munged runs as its own user and checks that the path to its socket is searchable by all.
chmod 0755 "$work"
mkdir -p "$work"/{munge,etc,state,spool/n1,spool/n2,log,bin}
chown munge:munge "$work/munge"
head -c 1024 /dev/urandom > "$work/munge/munge.key"
chown munge:munge "$work/munge/munge.key"
chmod 0400 "$work/munge/munge.key"
socket=$work/munge/munge.socket
setpriv --reuid=munge --regid=munge --init-groups -- munged --foreground --socket="$socket" \
  --key-file="$work/munge/munge.key" --pid-file="$work/munge/munged.pid" \
  --log-file="$work/munge/munged.log" --seed-file="$work/munge/munged.seed" \
  > "$work/log/munged.stderr" 2>&1 &
daemon_pids+=($!)
for _ in $(seq 100); do [[ -S $socket ]] && break; sleep 0.05; done
[[ -S $socket ]] || fail "munged did not create $socket: $(cat "$work/log/munged.stderr")"

# Three free loopback ports: slurmctld, slurmd n1, slurmd n2.
read -r ctld_port n1_port n2_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(3)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

cat > "$work/etc/slurm.conf" <<EOF
# Two nodes on one machine, for scripts/local-slurm-test.sh. No cgroups, no database.
ClusterName=layoutbench
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$work/log/jobcomp.txt
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool/%n
SlurmctldPidFile=$work/state/slurmctld.pid
SlurmdPidFile=$work/spool/%n/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd-%n.log
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$n1_port CPUs=1 State=UNKNOWN
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$n2_port CPUs=1 State=UNKNOWN
PartitionName=test Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/etc/slurm.conf

slurmctld -D > "$work/log/slurmctld.stderr" 2>&1 &
daemon_pids+=($!)
for node in n1 n2; do
  slurmd -D -N "$node" > "$work/log/slurmd-$node.stderr" 2>&1 &
  daemon_pids+=($!)
done
for _ in $(seq 300); do
  [[ $(sinfo -h -N -o '%N %T' 2>/dev/null | sort | tr '\n' ' ') == "n1 idle n2 idle " ]] && break
  sleep 0.1
done
[[ $(sinfo -h -N -o '%N %T' 2>/dev/null | sort | tr '\n' ' ') == "n1 idle n2 idle " ]] \
  || fail "the nodes did not come up: $(sinfo -N 2>&1)"
say "cluster up: slurmctld :$ctld_port, n1 :$n1_port, n2 :$n2_port (PIDs ${daemon_pids[*]})"

# --- The campaign --------------------------------------------------------------------------
cases=64
shards=8
campaign=(--seed 7 --cases "$cases" --backend "gaussian,test-trap" --families "equal-widths,random,conflict-late"
          --min-size 2 --max-size 6 --jobs 1)
# Shard 5 holds case 5, whose finding is among the kept ones (the lowest case indices of its
# signature): the merge without it keeps another case's finding instead, and the merge after
# the re-run must replace it.
faulty_shard=5

# Stands in for layoutbench in the jobs. On the faulty shard's first attempt (while the marker
# exists) it lets fuzz complete at least one case, then kills it with SIGKILL and removes any
# report.json: the state a shard is left in when its node dies mid-run (checkpoint, partial
# findings, no report).
marker=$work/fail-shard-$faulty_shard-once
touch "$marker"
cat > "$work/bin/layoutbench" <<EOF
#!/usr/bin/env bash
set -u
real=$(printf %q "$binary")
marker=$(printf %q "$marker")
if [[ \${SLURM_ARRAY_TASK_ID:-} == $faulty_shard && -e \$marker ]]; then
  rm -f "\$marker"
  out=""
  previous=""
  for arg in "\$@"; do [[ \$previous == --out ]] && out=\$arg; previous=\$arg; done
  "\$real" "\$@" &
  pid=\$!
  for _ in \$(seq 600); do
    grep -q '"completed":\[\[' "\$out/checkpoint.json" 2>/dev/null && break
    kill -0 "\$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -KILL "\$pid" 2>/dev/null
  wait "\$pid" 2>/dev/null
  rm -f "\$out/report.json"
  echo "local-slurm-test: injected fault: killed shard $faulty_shard;" \
    "its checkpoint has completed \$(grep -o '"completed":\[[^]]*\]*\]' "\$out/checkpoint.json" 2>/dev/null)" >&2
  exit 1
fi
exec "\$real" "\$@"
EOF
chmod +x "$work/bin/layoutbench"

wait_for_queue() {
  local deadline=$((SECONDS + $1))
  while [[ -n $(squeue -h 2>/dev/null) ]] || ! squeue -h >/dev/null 2>&1; do
    (( SECONDS < deadline )) || fail "jobs still queued after $1 s: $(squeue 2>&1)"
    sleep 0.5
  done
}

ids=$(scripts/slurm/submit-campaign.sh "${campaign[@]}" --shards "$shards" --time-limit 00:10:00 \
  --binary "$work/bin/layoutbench" "$work/campaign" | tail -n 1)
say "submitted $ids"
if scripts/slurm/rerun-shards.sh "$work/campaign" > "$work/log/early-rerun.log" 2>&1; then
  fail "rerun-shards.sh re-submitted shards while the campaign's jobs were still queued"
fi
grep -q "still queued or running" "$work/log/early-rerun.log" \
  || fail "rerun-shards.sh failed for another reason: $(cat "$work/log/early-rerun.log")"

"$binary" fuzz "${campaign[@]}" --shard 0/1 --out "$work/unsharded" --quiet --no-fail-on-wrong > "$work/reference.log" 2>&1 &
reference_pid=$!

wait_for_queue 240
say "array and merge jobs done"

# Which nodes ran which shard, and how each attempt ended (jobcomp/filetxt: one line per job).
python3 - "$work/log/jobcomp.txt" "$faulty_shard" "$shards" <<'PY' || fail "the job record does not show a two-node run with shard $faulty_shard failed"
import re, sys
path, faulty, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
tasks = {}
for line in open(path):
    fields = dict(re.findall(r"(\w+)=(\S*)", line))
    if fields.get("Name") == "layoutbench-fuzz":
        tasks.setdefault(fields["ArrayTaskId"], []).append((fields["JobState"], fields["NodeList"]))
nodes = sorted({node for attempts in tasks.values() for _, node in attempts})
print("  shard attempts:", " ".join(f"{k}:{'/'.join(s for s, _ in v)}@{'/'.join(n for _, n in v)}" for k, v in sorted(tasks.items(), key=lambda kv: int(kv[0]))))
ok = len(tasks) == shards and nodes == ["n1", "n2"] and tasks.get(faulty, [("", "")])[0][0] == "FAILED" \
     and all(v[0][0] == "COMPLETED" for k, v in tasks.items() if k != faulty)
sys.exit(0 if ok else 1)
PY

merged=$work/campaign/merged/report.json
[[ -f $merged ]] || fail "the merge job left no $merged"
missing=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["missingShards"])' "$merged")
[[ $missing == "[$faulty_shard]" ]] || fail "the merged report lists missing shards $missing, expected [$faulty_shard]"
say "merged report names missing shards $missing"
cp "$merged" "$work/first-merge.json"

rerun=$(scripts/slurm/rerun-shards.sh "$work/campaign" | tail -n 1)
say "re-submitted the missing shard: $rerun"
wait_for_queue 120
missing=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["missingShards"])' "$merged")
[[ $missing == "[]" ]] || fail "after the re-run the merged report still lists missing shards $missing"

wait "$reference_pid" || fail "the unsharded run failed: $(cat "$work/reference.log")"
reference_pid=""
say "unsharded run done"

# The campaign's outcome (what must not depend on sharding): cases, occurrences summed over
# shards, crashed cases, the findings list, and the findings' files.
python3 - "$work/unsharded" "$work/campaign/merged" "$work/first-merge.json" "$cases" <<'PY' || fail "the merged sharded campaign differs from the unsharded run"
import json, os, sys
def outcome(folder):
    report = json.load(open(os.path.join(folder, "report.json")))
    occurrences = {}
    for shard in report["shards"]:
        for signature, n in shard["occurrences"].items():
            occurrences[signature] = occurrences.get(signature, 0) + n
    files = {}
    findings = os.path.join(folder, "findings")
    for name in sorted(os.listdir(findings)):
        with open(os.path.join(findings, name), "rb") as f:
            files[name] = f.read()
    return {
        "cases": sum(shard["cases"] for shard in report["shards"]),
        "interrupted": any(shard["interrupted"] for shard in report["shards"]),
        "missingShards": report["missingShards"],
        "occurrences": occurrences,
        "crashedCases": sorted(c for shard in report["shards"] for c in shard["crashedCases"]),
        "findings": report["findings"],
        "files": files,
    }
unsharded, merged = outcome(sys.argv[1]), outcome(sys.argv[2])
for key in unsharded:
    if unsharded[key] != merged[key]:
        print(f"  {key} differs:\n    unsharded: {unsharded[key]}\n    merged:    {merged[key]}", file=sys.stderr)
if unsharded != merged:
    sys.exit(1)
if unsharded["cases"] != int(sys.argv[4]) or not unsharded["findings"] or not unsharded["crashedCases"]:
    print(f"  the campaign is not the one intended ({sys.argv[4]} cases, with findings and crashed cases): {unsharded['cases']} cases, "
          f"{len(unsharded['findings'])} findings, {len(unsharded['crashedCases'])} crashed", file=sys.stderr)
    sys.exit(1)
print(f"  equal: {unsharded['cases']} cases, occurrences {unsharded['occurrences']}, "
      f"{len(unsharded['crashedCases'])} crashed cases, {len(unsharded['findings'])} findings, "
      f"{len(unsharded['files'])} repro files")
first = json.load(open(sys.argv[3]))
print(f"  kept findings' case indices: {sorted(f['caseIndex'] for f in unsharded['findings'])}, "
      f"{sorted(f['caseIndex'] for f in first['findings'])} in the merge without the failed shard")
PY
say "passed: the merged $shards-shard campaign (shard $faulty_shard killed once and re-run) equals the unsharded run"
