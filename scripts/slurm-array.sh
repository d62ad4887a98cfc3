#!/usr/bin/env bash
# Example: one large run split over a Slurm job array, then merged into one CSV.
#
#   sbatch --array=1-16 scripts/slurm-array.sh          # 16 shards, one per array task
#   target/release/bench-report merge results/cluster/shard-*.csv --output results/cluster/all.csv
#
# Every shard runs the same command with its own --shard K/N; rows are identical to an
# unsharded run (timings aside), so the merge equals one big run. `merge` refuses duplicate
# jobs and lists any missing ones (a failed array task), which you then rerun alone.
#SBATCH --job-name=puzzlebench
#SBATCH --cpus-per-task=4
#SBATCH --time=02:00:00
#SBATCH --output=results/cluster/slurm-%A_%a.log
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"
K=${SLURM_ARRAY_TASK_ID:?run me as an array job: sbatch --array=1-N}
N=${SLURM_ARRAY_TASK_COUNT:?}
DATASET=${DATASET:-datasets/sudoku-hard}
mkdir -p results/cluster
target/release/bench-run --quiet \
  --dataset "$DATASET" --strategy "${STRATEGY:-abc,abc-hybrid}" \
  --seeds "${SEEDS:-100}" --colonies "${COLONIES:-4}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --shard "$K/$N" --output "results/cluster/shard-$K.csv"
