#!/usr/bin/env bash
# End-to-end test of scripts/slurm-array.sh on a real Slurm: a one-node cluster on this machine.
#
#   sudo scripts/slurm-local-test.sh    # about a minute once packages and release build are there
#
# 1. installs Debian's slurm-wlm and munge where missing (apt-get; needs root);
# 2. brings up a private cluster: its own munged (own key and socket), slurmctld and slurmd as
#    root, on loopback ports 16817/16818, with ProctrackType=proctrack/linuxproc and
#    TaskPlugin=task/none (no cgroups needed, so it runs in a container), one node with this
#    machine's CPUs; nothing of the system's own Slurm or munge configuration is touched;
# 3. submits scripts/slurm-array.sh as a 4-task array (--array=1-4) into a log directory that
#    does not exist yet, waits for it, and merges the shards with `bench-report merge`;
# 4. checks the merge equals an unsharded run of the same plan, timing columns aside;
# 5. checks that a 0-based array (--array=0-3) takes slices 1/4..4/4 and that a stepped
#    (--array=1-7:2) or gapped (--array=1-3,7) array is refused by every task, naming the
#    variables;
# 6. requeues a running task (`scontrol requeue`) and checks that it resumes its own shard;
# 7. tears the cluster down (also on failure or Ctrl-C) and exits 0, or 1 naming what failed.
#
# Not part of .ci/run (installing and starting daemons is slow); the nightly workflow may run it.
# Settings: SLURM_TEST_DIR (default: a new directory under /tmp) holds configs, logs and results.
set -euo pipefail

say() { printf 'slurm-local-test: %s\n' "$*" >&2; }
fail() {
    say "FAIL: $*"
    exit 1
}

[[ $(id -u) -eq 0 ]] || fail "run as root (installs packages, runs slurmd as root)"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# --- 1. packages ---------------------------------------------------------------------------
missing=()
for cmd in slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-wlm munged:munge; do
    command -v "${cmd%%:*}" >/dev/null || missing+=("${cmd##*:}")
done
if ((${#missing[@]})); then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
say "$(slurmctld -V), $(munged -V 2>&1 | head -1)"

# Before the cluster is up: a build can take minutes on a loaded machine.
cargo build --release --quiet --bins

# --- 2. the cluster ------------------------------------------------------------------------
DIR=${SLURM_TEST_DIR:-$(mktemp -d /tmp/puzzlebench-slurm.XXXXXX)}
mkdir -p "$DIR"/{ctld,spool,munge}
chmod 700 "$DIR" "$DIR/munge"
NODE=$(hostname -s)
CPUS=$(nproc)
export SLURM_CONF=$DIR/slurm.conf

teardown() {
    local code=$?
    set +e
    [[ -s $DIR/slurmctld.pid ]] && timeout 20 scancel --quiet --user=root 2>/dev/null # jobs of this private cluster only (SLURM_CONF)
    sleep 1
    # Only the daemons this script started, by their pid files.
    for pidfile in "$DIR/slurmd.pid" "$DIR/slurmctld.pid" "$DIR/munge/munged.pid"; do
        [[ -s $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null
    done
    sleep 1
    say "cluster torn down (configs, logs and results kept in $DIR)"
    exit "$code"
}
trap teardown EXIT
trap 'exit 130' INT TERM

dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$DIR/munge/munge.key"
# --force: munged refuses root and paths under a world-writable /tmp without it; this key and
# socket serve this test alone.
munged --force --key-file="$DIR/munge/munge.key" --socket="$DIR/munge/munge.sock" \
    --pid-file="$DIR/munge/munged.pid" --log-file="$DIR/munge/munged.log" \
    --seed-file="$DIR/munge/munged.seed"

cat >"$SLURM_CONF" <<EOF
ClusterName=puzzlebench-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$DIR/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld
slurmd -N "$NODE"

for _ in $(seq 60); do
    state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null || true)
    [[ $state == idle ]] && break
    sleep 1
done
[[ ${state:-} == idle ]] || fail "node $NODE is ${state:-unreachable} after 60 s; see $DIR/slurmctld.log and $DIR/slurmd.log"
say "one-node cluster up: $NODE, $CPUS CPUs, partition test"

# --- 3. the array --------------------------------------------------------------------------
export DATASET=datasets/sudoku-easy STRATEGY=abc,backtrack SEEDS=2 COLONIES=1 BENCH_ARGS="--max-cycles 500"

# Wait for array job $1 to leave the queue; fail after $2 seconds, showing why it waits.
wait_for() {
    local id=$1 limit=$2 start=$SECONDS last=""
    while :; do
        local now
        now=$(squeue -h -j "$id" -o '%i %T %r' 2>/dev/null | sort | tr '\n' ' ')
        [[ -z $now ]] && return 0
        [[ $now != "$last" ]] && say "  $now"
        last=$now
        if ((SECONDS - start > limit)); then
            scontrol show job "$id" >&2 || true
            fail "array $id still queued after $limit s"
        fi
        sleep 1
    done
}

OUT=$DIR/cluster
[[ ! -e $OUT ]] || fail "$OUT exists already"
job=$(OUTDIR=$OUT scripts/slurm-array.sh 4)
wait_for "$job" 600
for k in 1 2 3 4; do
    [[ -s $OUT/shard-$k.csv ]] || {
        cat "$OUT"/slurm-"${job}"_*.log >&2 || true
        fail "task $k left no $OUT/shard-$k.csv"
    }
    say "  task $k: $(grep -h 'running slice' "$OUT/slurm-${job}_$k.log")"
done
target/release/bench-report merge "$OUT"/shard-{1,2,3,4}.csv --output "$OUT/merged.csv"

# --- 4. equal to an unsharded run ----------------------------------------------------------
read -r -a extra <<<"$BENCH_ARGS"
target/release/bench-run --quiet --no-summary --dataset "$DATASET" --strategy "$STRATEGY" \
    --seeds "$SEEDS" --colonies "$COLONIES" "${extra[@]}" --output "$OUT/unsharded.csv" >/dev/null
# Every column but the timings, by name (a real CSV parse: messages hold quoted commas).
untimed() {
    python3 -c '
import csv, sys
rows = csv.reader(open(sys.argv[1], newline=""))
head = next(rows)
keep = [i for i, c in enumerate(head) if c not in ("wall_s", "cpu_s", "max_rss_kib")]
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow([head[i] for i in keep])
for r in rows:
    out.writerow([r[i] for i in keep])
' "$1"
}
rows=$(($(wc -l <"$OUT/unsharded.csv") - 1))
if ! diff <(untimed "$OUT/unsharded.csv") <(untimed "$OUT/merged.csv") >"$OUT/diff.txt"; then
    head -20 "$OUT/diff.txt" >&2
    fail "the merged shards differ from the unsharded run (diff in $OUT/diff.txt)"
fi
say "merged 4 shards = unsharded run, $rows rows, timing columns aside"

# --- 5. arrays from 0, and stepped arrays --------------------------------------------------
OUT0=$DIR/cluster0
job0=$(OUTDIR=$OUT0 scripts/slurm-array.sh 0-3)
wait_for "$job0" 600
for k in 0 1 2 3; do
    grep -q "running slice $((k + 1))/4 (from SLURM_ARRAY_TASK_ID=$k, " "$OUT0/slurm-${job0}_$k.log" ||
        fail "task $k of --array=0-3 did not take slice $((k + 1))/4: $(cat "$OUT0/slurm-${job0}_$k.log")"
done
target/release/bench-report merge "$OUT0"/shard-{0,1,2,3}.csv --output "$OUT0/merged.csv" 2>/dev/null
diff -q <(untimed "$OUT/unsharded.csv") <(untimed "$OUT0/merged.csv") >/dev/null ||
    fail "--array=0-3 merged differs from the unsharded run"
say "--array=0-3: tasks 0..3 took slices 1/4..4/4; merged = unsharded run"

# Arrays whose task IDs are not consecutive: every task must refuse, and write no shard.
refused() {
    local name=$1 spec=$2
    shift 2
    local dir=$DIR/$name id
    mkdir -p "$dir"
    id=$(OUTDIR=$dir PUZZLEBENCH_DIR=$ROOT sbatch --parsable --array="$spec" \
        --output="$dir/slurm-%A_%a.log" scripts/slurm-array.sh)
    id=${id%%;*}
    wait_for "$id" 600
    for k in "$@"; do
        grep -q "stepped or gapped Slurm array is refused" "$dir/slurm-${id}_$k.log" ||
            fail "task $k of --array=$spec was not refused: $(cat "$dir/slurm-${id}_$k.log")"
        [[ ! -e $dir/shard-$k.csv ]] || fail "task $k of --array=$spec wrote $dir/shard-$k.csv"
    done
    say "--array=$spec refused by every task: $(head -1 "$dir/slurm-${id}_$2.log")"
}
refused stepped 1-7:2 1 3 5 7
refused gapped 1-3,7 1 2 3 7

# --- 6. a requeued task continues its shard -------------------------------------------------
# `scontrol requeue` kills a running task (SIGTERM: bench-run keeps its finished rows) and runs
# it again with the array's variables; slurm-array.sh then adds --resume.
OUTR=$DIR/requeue
heavy=(DATASET=datasets/sudoku-medium STRATEGY=abc SEEDS=60 COLONIES=1 BENCH_ARGS=)
jobr=$(env "${heavy[@]}" OUTDIR="$OUTR" scripts/slurm-array.sh 2)
start=$SECONDS
until [[ -s $OUTR/shard-1.csv.partial ]] && (($(wc -l <"$OUTR/shard-1.csv.partial") > 50)); do
    [[ ! -e $OUTR/shard-1.csv ]] || fail "task 1 finished before it could be requeued; make the requeue run heavier"
    ((SECONDS - start < 300)) || fail "task 1 wrote no rows in 300 s"
    sleep 0.2
done
scontrol requeue "${jobr}_1"
# Slurm holds a requeued job back for a while (reason BeginTime); this test need not wait.
for _ in $(seq 30); do
    if [[ $(squeue -h -j "${jobr}_1" -o %r 2>/dev/null) == BeginTime ]]; then
        scontrol update JobId="${jobr}_1" StartTime=now 2>/dev/null && break
    fi
    sleep 1
done
say "requeued task ${jobr}_1 with $(($(wc -l <"$OUTR/shard-1.csv.partial") - 1)) rows in its journal"
wait_for "$jobr" 900
log=$OUTR/slurm-${jobr}_1.log
[[ $(grep -c 'running slice 1/2' "$log") -eq 2 ]] || fail "task 1 did not run twice: $(cat "$log")"
grep -q 'bench-run: interrupted after' "$log" || fail "task 1's first run was not interrupted: $(cat "$log")"
target/release/bench-report merge "$OUTR"/shard-{1,2}.csv --output "$OUTR/merged.csv"
env "${heavy[@]}" bash -c 'target/release/bench-run --quiet --no-summary --dataset "$DATASET" \
    --strategy "$STRATEGY" --seeds "$SEEDS" --colonies "$COLONIES" --output "$0"' "$OUTR/unsharded.csv" >/dev/null
diff -q <(untimed "$OUTR/unsharded.csv") <(untimed "$OUTR/merged.csv") >/dev/null ||
    fail "the requeued run's merge differs from the unsharded run"
say "requeued task resumed its shard: $(grep 'bench-run: interrupted after' "$log"); merged = unsharded run"

say "PASS"
