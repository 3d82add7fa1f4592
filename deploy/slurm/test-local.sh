#!/usr/bin/env bash
# Runs the Slurm recipe for real on a one-node cluster of this machine
# (docs/scale.md, "What the suite runs"). As root, on Debian:
#
#   bash deploy/slurm/test-local.sh
#
# It installs slurm-wlm and munge where missing, writes a cluster config in a
# temporary folder (slurmctld and slurmd on localhost, free ports, state and
# spool in that folder), starts munged, slurmctld and slurmd, and the fake
# provider (test/fake-provider/serve.ts). Then, with the OSVLAB_* settings of
# deploy/settings.sh:
#   1. one process runs the whole config (the reference);
#   2. shard.sbatch runs as an array of 3 and merge.sbatch waits on it with
#      --dependency=afterok; the osvlab process of task 1 (shard 2/3) is
#      killed mid-run, so that merge never starts (DependencyNeverSatisfied);
#   3. index 1 is resubmitted alone and resumes its directory, and a new merge
#      waits on it; its report must equal the reference's;
#   4. the local recipe (deploy/local/shards.sh) runs the same settings, and its
#      merged report must equal the reference's too.
# The key is in a file of mode 600 (OSVLAB_KEY_FILE), and must appear in no
# command line, no log and nothing Slurm stored. Every daemon it started is
# stopped by its pid, also when a check fails; the folder is then removed
# (kept on failure, or with KEEP=1). Exit 0 when every check passed.
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BOUND=${OSVLAB_SLURM_TEST_BOUND:-170}   # seconds for the whole test, install excluded
START=$(date +%s)
checks=0

say() { printf '[slurm-test %3ds] %s\n' "$(($(date +%s) - START))" "$*"; }
fail() { say "FAILED: $*"; exit 1; }
ok() { checks=$((checks + 1)); say "ok: $*"; }
# Any command that ends the script through set -e says which one, and where.
trap 'say "FAILED: line $LINENO: \"$BASH_COMMAND\" exited $?"' ERR

if [ "$(id -u)" -ne 0 ]; then echo "deploy/slurm/test-local.sh needs root (it installs packages and runs slurmd)" >&2; exit 4; fi

# --- packages (Debian's), installed only where missing -----------------------
missing=()
command -v munged >/dev/null || missing+=(munge)
for c in slurmctld slurmd sbatch; do command -v "$c" >/dev/null || { missing+=(slurm-wlm); break; }; done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # The package lists are read once per machine: update only when they do not know the packages.
  if ! apt-cache policy slurm-wlm munge 2>/dev/null | grep -q 'Candidate: [0-9]'; then apt-get update -qq; fi
  # The packages' scripts must not start daemons of their own (this test starts
  # its own and stops them by pid): policy-rc.d answering 101 forbids it.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  START=$(date +%s)
fi

# --- the cluster's folder, and stopping what was started ---------------------
# (the trap below replaces the install's; what the install added goes now)
if trap -p EXIT | grep -q policy-rc.d; then rm -f /usr/sbin/policy-rc.d; trap - EXIT; fi
T=$(mktemp -d /tmp/osvlab-slurm.XXXXXX)
chmod 755 "$T"
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/logs" "$T/out"
chmod 700 "$T/munge"
daemons=()   # "name pid", in start order
export SLURM_CONF="$T/slurm.conf"

stop_all() {
  local rc=$?
  set +e
  trap - ERR
  # Jobs first (their processes are slurmstepd's, not ours), while slurmctld still runs.
  if [ "${#daemons[@]}" -gt 2 ]; then
    scancel --quiet --full --signal=KILL --state=RUNNING $(squeue -h -o %A 2>/dev/null) 2>/dev/null
    scancel --quiet $(squeue -h -o %A 2>/dev/null) 2>/dev/null
    for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  # Any osvlab process still writing into this folder (a job step that outlived its job).
  for p in $(pgrep -f -- "osvlab.mjs .*$T/" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
  local i name pid
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    read -r name pid <<<"${daemons[$i]}"
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null; say "killed $name ($pid)"; else say "stopped $name ($pid)"; fi
  done
  if [ "$rc" -eq 0 ] && [ -z "${KEEP:-}" ]; then rm -rf "$T"; else say "kept $T"; fi
  exit "$rc"
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# Starts NAME COMMAND... in the background (in the foreground mode of the daemon), remembering its pid.
start_daemon() {
  local name=$1; shift
  "$@" >"$T/logs/$name.out" 2>&1 &
  daemons+=("$name $!")
  say "started $name ($!)"
}

# Waits until COMMAND succeeds, polling every 0.2 s; fails naming WHAT at the bound, or
# at once when a daemon has died (with the end of its output).
wait_for() {
  local what=$1 d name pid; shift
  until "$@"; do
    if [ "$(($(date +%s) - START))" -gt "$BOUND" ]; then fail "timed out (${BOUND}s bound) waiting for $what"; fi
    for d in "${daemons[@]}"; do
      read -r name pid <<<"$d"
      kill -0 "$pid" 2>/dev/null || fail "$name ($pid) died while waiting for $what: $(tail -5 "$T/logs/$name.out" "$T/logs/$name.log" 2>/dev/null)"
    done
    sleep 0.2
  done
}

# Two free TCP ports on 127.0.0.1 (held at once, so they differ).
free_ports() {
  node -e 'const n=require("net");const a=n.createServer().listen(0,"127.0.0.1",()=>{const b=n.createServer().listen(0,"127.0.0.1",()=>{console.log(a.address().port,b.address().port);a.close();b.close()})})'
}

# --- munge and slurm ----------------------------------------------------------
# munged as root with its socket, key, pid and log in the folder; slurm finds
# the socket through AuthInfo, so nothing under /run or /etc is used.
head -c 1024 /dev/urandom >"$T/munge/munge.key"
chmod 400 "$T/munge/munge.key"
start_daemon munged munged --foreground --force --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/logs/munged.log" --seed-file="$T/munge/munged.seed"
wait_for "munged's socket" test -S "$T/munge/munge.socket"

host=$(hostname -s 2>/dev/null || hostname)
read -r ctld_port slurmd_port < <(free_ports)
cat >"$SLURM_CONF" <<EOF
ClusterName=osvlabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/logs/slurmctld.log
SlurmdLogFile=$T/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
KillWait=5
MinJobAge=600
NodeName=osvlabnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=3 State=UNKNOWN
PartitionName=test Nodes=osvlabnode Default=YES MaxTime=INFINITE State=UP
EOF
start_daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
start_daemon slurmd slurmd -D -N osvlabnode -f "$SLURM_CONF"

# --- the fake provider and the run's settings ---------------------------------
KEY="sk-slurm-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
printf '%s' "$KEY" >"$T/key"
chmod 600 "$T/key"
(cd "$ROOT" && FAKE_PROVIDER_KEY=$KEY exec node --import tsx test/fake-provider/serve.ts --delay-ms 1000 --prose-first sys_set_runnable-v0 --hold-file "$T/hold") >"$T/logs/fake.log" 2>&1 &
daemons+=("fake-provider $!")
wait_for "the fake provider" grep -q '^listening ' "$T/logs/fake.log"
url=$(awk '/^listening /{print $2; exit}' "$T/logs/fake.log")
say "fake provider at $url"

export OSVLAB_ROOT=$ROOT OSVLAB_PROVIDER=openai-compatible OSVLAB_MODEL=fake OSVLAB_BASE_URL=$url/v1 \
  OSVLAB_TASKS=sys_dup-v0,sys_set_runnable-v0,sys_reclaim_port-v1 OSVLAB_N=2 OSVLAB_SHOTS=0 OSVLAB_REPAIR=1 \
  OSVLAB_OUT=$T/out OSVLAB_SHARD_TOTAL=3 OSVLAB_KEY_FILE=$T/key
unset OSVLAB_API_KEY OPENAI_API_KEY
osvlab() { node "$ROOT/bin/osvlab.mjs" "$@"; }
requests() { grep -c "^request .* $1 " "$T/logs/fake.log" || true; }

# --- 1. the reference: one process, the same config --------------------------
# (it runs while the cluster comes up; the key reaches it through its environment only)
OSVLAB_API_KEY=$KEY node "$ROOT/bin/osvlab.mjs" run --provider openai-compatible --model fake --base-url "$url/v1" \
  --tasks "$OSVLAB_TASKS" --n 2 --shots 0 --repair 1 --concurrency 1 --grade-concurrency 1 \
  --out "$T/single" >"$T/logs/single.log" 2>&1 || fail "the one-process run failed: $(tail -3 "$T/logs/single.log")"
ref_requests=$(requests sys_set_runnable-v0)
ok "one-process run done ($(grep -c '^request ' "$T/logs/fake.log") requests, $ref_requests for sys_set_runnable-v0)"
# Shard 2/3 runs sys_set_runnable-v0 alone, one request at a time: its samples' rounds
# in order. The fake never answers the first request of its second sample, so the
# shard is certainly still running (with its first sample stored) when it is killed,
# however fast the rest of the cluster is.
hold_at=$((ref_requests + ref_requests / 2 + 1))
echo "sys_set_runnable-v0 $hold_at" >"$T/hold"

node_idle() { sinfo -h -N -o %T 2>/dev/null | grep -qx idle; }
wait_for "slurmd to register with slurmctld" node_idle
ok "cluster up: $(sinfo -h -o '%P %D node %T %c CPUs')"

# --- 2. the array of 3 and the merge after it, one task killed mid-run --------
cd "$T/logs"   # the jobs' output files (osvlab-shard-%A_%a.log) land here
jid=$(sbatch --parsable --array=0-2 --cpus-per-task=1 "$ROOT/deploy/slurm/shard.sbatch" --concurrency 1)
mid=$(sbatch --parsable --dependency=afterok:"$jid" "$ROOT/deploy/slurm/merge.sbatch")
say "submitted array job $jid (3 tasks) and merge job $mid (afterok:$jid)"

held_request() { grep -q ' sys_set_runnable-v0 round [0-9]* held$' "$T/logs/fake.log"; }
wait_for "shard 2/3's request number $hold_at for sys_set_runnable-v0 (held by the fake)" held_request
attempts_stored() { [ -s "$T/out/shard-2/attempts.jsonl" ] && grep -q '}$' "$T/out/shard-2/attempts.jsonl"; }
attempts_stored || fail "shard 2/3 is waiting on its held request with no attempt stored"
# While the shards run: no command line on the machine holds the key.
for f in /proc/[0-9]*/cmdline; do
  if tr '\0' ' ' <"$f" 2>/dev/null | grep -qFf "$T/key"; then fail "the key is in the command line of ${f%/cmdline}"; fi
done
ok "the key is in no process's command line while the shards run"
# The shard's osvlab process dies (as in a crash or an out-of-memory kill): Slurm records the task as FAILED.
victim=$(pgrep -f -- "osvlab.mjs run .*--out $T/out/shard-2( |$)" | head -1 || true)
[ -n "$victim" ] || fail "no osvlab process for shard 2/3 although its request is held: $(tail -3 "$T/logs"/osvlab-shard-*_1.log 2>/dev/null)"
kill -KILL "$victim"
say "killed the osvlab process of task ${jid}_1 (shard 2/3, pid $victim) with SIGKILL while its request $hold_at was held"

job_state() { scontrol show job -o "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1; }
finished() { case "$(job_state "$1")" in COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY) return 0;; esac; return 1; }
for i in 0 1 2; do wait_for "array task ${jid}_$i" finished "${jid}_$i"; done
states="$(job_state "${jid}_0") $(job_state "${jid}_1") $(job_state "${jid}_2")"
[ "$states" = "COMPLETED FAILED COMPLETED" ] || fail "array task states are '$states', expected 'COMPLETED FAILED COMPLETED'"
ok "array tasks 0 and 2 completed, task 1 failed ($states)"
grep -Eq '"status": *"running"' "$T/out/shard-2/run.json" || fail "shard 2/3 was not stopped mid-run: $(cat "$T/out/shard-2/run.json")"
before=$(grep -c '}$' "$T/out/shard-2/attempts.jsonl")
ok "shard 2/3 stopped mid-run with $before attempt(s) stored"

never_satisfied() { scontrol show job -o "$mid" | grep -q 'Reason=DependencyNeverSatisfied'; }
wait_for "merge job $mid to see its dependency fail" never_satisfied
[ "$(job_state "$mid")" = PENDING ] || fail "merge job $mid is $(job_state "$mid"), expected PENDING"
[ ! -e "$T/out/merged" ] || fail "a merge ran although a shard failed"
ok "merge job $mid did not start (PENDING, DependencyNeverSatisfied)"
scancel "$mid"

# --- 3. index 1 alone resumes, then the merge ------------------------------
jid2=$(sbatch --parsable --array=1 --cpus-per-task=1 "$ROOT/deploy/slurm/shard.sbatch" --concurrency 1)
mid2=$(sbatch --parsable --dependency=afterok:"$jid2" "$ROOT/deploy/slurm/merge.sbatch")
say "resubmitted index 1 as job $jid2, merge job $mid2 (afterok:$jid2)"
wait_for "merge job $mid2" finished "$mid2"
[ "$(job_state "${jid2}_1")" = COMPLETED ] || fail "resubmitted task is $(job_state "${jid2}_1")"
[ "$(job_state "$mid2")" = COMPLETED ] || fail "merge job $mid2 is $(job_state "$mid2"): $(tail -5 "osvlab-merge-$mid2.log")"
grep -q 'resuming run' "osvlab-shard-${jid2}_1.log" || fail "the resubmitted shard did not resume: $(tail -5 "osvlab-shard-${jid2}_1.log")"
shard_requests=$(($(requests sys_set_runnable-v0) - ref_requests))
# At most one request was in flight when the task was killed (--concurrency 1); every answer stored before is kept.
[ "$shard_requests" -ge "$ref_requests" ] && [ "$shard_requests" -le $((ref_requests + 1)) ] ||
  fail "shard 2/3 sent $shard_requests requests in its two attempts; one process sent $ref_requests"
ok "index 1 resumed alone ($before attempt(s) kept; $shard_requests requests for its task over both attempts, one process sent $ref_requests)"
grep -q 'merged 3 shards' "osvlab-merge-$mid2.log" || fail "merge log: $(head -5 "osvlab-merge-$mid2.log")"
ok "merge job $mid2 completed: $(grep 'merged 3 shards' "osvlab-merge-$mid2.log")"

# --- the merged report is the one-process report -----------------------------
no_latency() { sed 's/ latency: .*$/ latency: (timing)/'; }
osvlab report "$T/single" | no_latency >"$T/single.report"
osvlab report "$T/out/merged" | no_latency >"$T/merged.report"
diff "$T/single.report" "$T/merged.report" >"$T/report.diff" || fail "the reports differ: $(head -20 "$T/report.diff")"
normalized() { osvlab report "$1" --json | node "$ROOT/test/deploy/report-json.mjs"; }
[ "$(normalized "$T/single")" = "$(normalized "$T/out/merged")" ] || fail "the JSON reports differ"
ok "the merged report equals the one-process report (text and JSON, timings aside): $(grep -m1 'pass@1' "$T/merged.report")"

# --- the local recipe, on the same settings ------------------------------------
OSVLAB_OUT=$T/local "$ROOT/deploy/local/shards.sh" --concurrency 1 --grade-concurrency 1 >"$T/logs/local.log" 2>&1 ||
  fail "deploy/local/shards.sh failed: $(tail -5 "$T/logs/local.log")"
osvlab report "$T/local/merged" | no_latency >"$T/local.report"
diff "$T/single.report" "$T/local.report" >"$T/report.diff" || fail "the local recipe's report differs: $(head -20 "$T/report.diff")"
ok "deploy/local/shards.sh with the same settings (3 shards at once, then merged) gives the same report"

# --- the key is in no log and nothing Slurm kept -------------------------------
if grep -rlFf "$T/key" "$T" --exclude=key >"$T/leaks"; then fail "the key is in: $(tr '\n' ' ' <"$T/leaks")"; fi
if scontrol show job -d 2>/dev/null | grep -qFf "$T/key"; then fail "the key is in scontrol show job"; fi
ok "the key is in no log, job record or state file ($(find "$T" -type f | wc -l) files searched)"

say "all $checks checks passed"
