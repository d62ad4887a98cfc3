#!/usr/bin/env bash
# One large run split over a Slurm job array, then merged into one CSV.
#
# Submit from anywhere (after `cargo build --release`), N tasks or a range A-B:
#   scripts/slurm-array.sh 16                  # --array=1-16
#   scripts/slurm-array.sh 0-15%4 -p long      # 0-based, 4 at a time; extra sbatch options follow
#   PLAN=plans/nightly.toml scripts/slurm-array.sh 8   # a plan file, sliced 8 ways
#   target/release/bench-report merge results/cluster/shard-*.csv --output results/cluster/all.csv
#
# Submitting through this script (rather than `sbatch` directly) matters: slurmd opens each
# task's log file before the task starts, so the log directory must exist at submission, or
# every task fails without a trace; the script creates it, checks the binary is built, and
# prints the array's job ID on stdout. Direct `sbatch --array=1-16 scripts/slurm-array.sh`
# from the repository root also works (logs then go to ./slurm-%A_%a.out).
#
# Each task runs `bench-run --shard auto`: the slice comes from SLURM_ARRAY_TASK_ID, _MIN and
# _COUNT (arrays may start at 0 or 1; a stepped or gapped array is refused with exit 2), and
# the task's log says which slice it took. Rows are those of an unsharded run (timings aside),
# so the merge equals one big run; `merge` refuses duplicate jobs and lists missing ones (a
# failed task). Rerun a failed task with `scontrol requeue JOBID_TASKID`: it keeps the array's
# variables and so its slice. (Not `sbatch --array=K`: a one-task array is slice 1/1, the whole
# plan.) Without Slurm, `bench-run ... --shard K/N` with the K/N its log names does the same.
#
# Settings (environment, passed to the tasks by sbatch):
#   OUTDIR          results/cluster   shard CSVs shard-<task id>.csv and logs slurm-<job>_<task>.log
#   CPUS_PER_TASK   1                 CPUs per task = bench-run --threads (rows do not depend on it)
#   PLAN            (none)            a plan file (docs/running.md "Plan files"): every task runs
#                                     its slice of the plan, which then defines the run; DATASET,
#                                     STRATEGY, SEEDS and COLONIES are not used
#   DATASET         datasets/sudoku-hard
#   STRATEGY        abc,abc-hybrid
#   SEEDS           100
#   COLONIES        4                 (must be 1 for deterministic strategies only)
#   BENCH_ARGS      (none)            more bench-run options, split on spaces
#
# A task requeued (by hand, after a node failure or a preemption) continues its shard with
# --resume; a task whose shard is already complete exits 0 without rerunning it. For that
# reason a new submission refuses an OUTDIR that already holds shards.
#SBATCH --job-name=puzzlebench
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --open-mode=append
#SBATCH --requeue
set -euo pipefail

OUTDIR=${OUTDIR:-results/cluster}

submit() {
    local range=${1:?usage: scripts/slurm-array.sh N|A-B[%T] [sbatch options...]}
    shift
    if [[ $range =~ ^[1-9][0-9]*$ ]]; then
        range="1-$range"
    elif ! [[ $range =~ ^[0-9]+-[0-9]+(%[0-9]+)?$ ]]; then
        # bench-run --shard auto would refuse a stepped or listed array in every task; say it now.
        echo "slurm-array.sh: $range: give N or a contiguous range A-B (optionally %T), not a step or a list" >&2
        exit 2
    fi
    local root
    root=$(cd "$(dirname "$0")/.." && pwd)
    cd "$root"
    if [[ ! -x target/release/bench-run ]]; then
        echo "slurm-array.sh: $root/target/release/bench-run is missing: run cargo build --release first" >&2
        exit 2
    fi
    if [[ -n ${PLAN:-} && ! -r $PLAN ]]; then
        echo "slurm-array.sh: PLAN=$PLAN cannot be read" >&2
        exit 2
    fi
    if compgen -G "$OUTDIR/shard-*.csv*" >/dev/null || compgen -G "$OUTDIR/shard-*.parts" >/dev/null; then
        echo "slurm-array.sh: $OUTDIR already holds shards of an earlier run; set OUTDIR to a new directory or remove them" >&2
        exit 2
    fi
    mkdir -p "$OUTDIR"
    local cpus=${CPUS_PER_TASK:-1}
    local id
    id=$(PUZZLEBENCH_DIR=$root PLAN=${PLAN:+$(realpath "$PLAN")} sbatch --parsable --array="$range" --cpus-per-task="$cpus" \
        --output="$OUTDIR/slurm-%A_%a.log" "$@" "$root/scripts/slurm-array.sh")
    id=${id%%;*} # --parsable prints "id;cluster" on multi-cluster setups
    echo "slurm-array.sh: submitted array job $id (--array=$range, $cpus CPU(s) per task); logs and shards in $OUTDIR/" >&2
    echo "slurm-array.sh: when it is done: target/release/bench-report merge $OUTDIR/shard-*.csv --output $OUTDIR/all.csv" >&2
    echo "$id"
}

task() {
    cd "${PUZZLEBENCH_DIR:-${SLURM_SUBMIT_DIR:-.}}"
    mkdir -p "$OUTDIR"
    local out="$OUTDIR/shard-$SLURM_ARRAY_TASK_ID.csv"
    local resume=()
    # A plan over several datasets keeps an interrupted run's parts in shard-K.parts/.
    if [[ -e "$out.partial" || -d "${out%.csv}.parts" ]]; then
        resume=(--resume)
    elif [[ -e "$out" ]]; then
        echo "slurm-array.sh: $out is already complete; nothing to do" >&2
        exit 0
    fi
    local extra=()
    read -r -a extra <<<"${BENCH_ARGS:-}"
    if [[ -n ${PLAN:-} ]]; then
        exec target/release/bench-run --quiet --no-summary --plan "$PLAN" \
            --threads "${SLURM_CPUS_PER_TASK:-1}" \
            --shard auto --output "$out" "${resume[@]}" "${extra[@]}"
    fi
    exec target/release/bench-run --quiet --no-summary \
        --dataset "${DATASET:-datasets/sudoku-hard}" --strategy "${STRATEGY:-abc,abc-hybrid}" \
        --seeds "${SEEDS:-100}" --colonies "${COLONIES:-4}" \
        --threads "${SLURM_CPUS_PER_TASK:-1}" \
        --shard auto --output "$out" "${resume[@]}" "${extra[@]}"
}

if [[ -n ${SLURM_ARRAY_TASK_ID:-} ]]; then
    task
elif [[ -n ${SLURM_JOB_ID:-} ]]; then
    echo "slurm-array.sh: this Slurm job is not an array: submit with sbatch --array=1-N, or run scripts/slurm-array.sh N" >&2
    exit 2
else
    submit "$@"
fi
