#!/usr/bin/env bash
# How much `--repeat` steadies a microsecond solve's `wall_s` (docs/running.md quotes it).
#
#   benches/repeat-cv.sh [BIN] [RUNS]    # BIN defaults to target/release/bench-run, RUNS to 5
#
# top1465 (the shared corpora: $PUZZLEBENCH_SHARED, or ../shared beside the repository) with
# `backtrack` at one thread, RUNS runs with R = 1 and RUNS with `--repeat 9`, interleaved.
# Prints, for each R: the per-job coefficient of variation of wall_s across the runs at the
# median job and at the 90th percentile, how far the run's total (sum of wall_s) varies
# (max / min - 1), and the mean wall_s a job; and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/bench-run}
runs=${2:-5}
corpus=${CORPUS:-${PUZZLEBENCH_SHARED:-../shared}/corpora/sudoku/puzzles3_magictour_top1465.txt}
[ -f "$corpus" ] || { echo "repeat-cv: $corpus not found (set CORPUS or PUZZLEBENCH_SHARED)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/data"
cp "$corpus" "$tmp/data/top1465.txt"
echo "host $(hostname), $(nproc) CPUs, $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  for r in 1 9; do
    "$bin" --quiet --no-summary --force --threads 1 --dataset "$tmp/data" --strategy backtrack \
      --repeat "$r" --output "$tmp/r$r-$i.csv" >/dev/null
  done
done
python3 - "$tmp" "$runs" <<'EOF'
import csv, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
for r in (1, 9):
    per_run = [[float(x["wall_s"]) for x in csv.DictReader(open(f"{tmp}/r{r}-{i}.csv"))]
               for i in range(1, runs + 1)]
    cvs = sorted(statistics.stdev(js) / statistics.mean(js) for js in zip(*per_run))
    totals = [sum(w) for w in per_run]
    mean_us = statistics.mean(totals) / len(per_run[0]) * 1e6
    print(f"R = {r}: per-job CV {cvs[len(cvs) // 2] * 100:.1f} % at the median, "
          f"{cvs[int(len(cvs) * 0.9)] * 100:.1f} % at the 90th percentile; run total varies "
          f"{(max(totals) / min(totals) - 1) * 100:.1f} %; mean {mean_us:.2f} us a job")
EOF
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
