#!/usr/bin/env bash
# Two threads against two processes (issue 30 item 3), not a test. For each binary given and
# each of two runs (Sudoku `backtrack` over top1465 x 100 seeds; Hitori `mrv` over the tud
# 15x15, 20x20 and 25x25 puzzles x 40 seeds), N interleaved rounds of:
#   t1  one process, --threads 1
#   t2  one process, --threads 2
#   p2  two --threads 1 processes side by side, each the WHOLE run (own output)
# and prints the minimum wall of each, with the speedups t1/t2 and 2*t1/p2 (the throughput of
# two processes over one) and their ratio. Rounds interleave the binaries, so before and
# after are measured in the same minutes. The load average is printed before and after.
#   benches/two-threads.sh N BIN...      e.g. benches/two-threads.sh 5 /tmp/old/target/release/bench-run target/release/bench-run
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:?usage: two-threads.sh N BIN...}
shift
corpora=${CORPORA:-${PUZZLEBENCH_SHARED:-../shared}/corpora}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tud"
# HITORI_SIZES (a grep -E alternation of sizes), HITORI_SEEDS and SUDOKU_SEEDS reshape the runs.
grep -E "^(${HITORI_SIZES:-15x15|20x20|25x25})/" "$corpora/hitori/tud-singles-5to25.tsv" >"$tmp/tud/tud-15-25.tsv"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  N=$n"
# `timed BIN COPIES THREADS ARGS...`: COPIES processes at once; prints the wall until the last
# ends (python's clock; the previous outputs are removed first, outside the timing).
timed() {
  python3 - "$tmp" "$@" <<'PY'
import os, subprocess, sys, time
tmp, binary, copies, threads, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
for k in range(copies):
    for suffix in ("", ".meta.json"):
        try:
            os.remove(f"{tmp}/r{k}.csv{suffix}")
        except FileNotFoundError:
            pass
t0 = time.perf_counter()
procs = [subprocess.Popen([binary, "--quiet", "--no-summary", "--force", "--threads", threads,
                           "--output", f"{tmp}/r{k}.csv", *args], stdout=subprocess.DEVNULL)
         for k in range(copies)]
for p in procs:
    if p.wait() != 0:
        sys.exit(f"two-threads.sh: {binary} exited {p.returncode}")
print(f"{time.perf_counter() - t0:.6f}")
PY
}
declare -A best
keep() { # keep KEY VALUE: the minimum
  if [ -z "${best[$1]:-}" ] || [ "$(echo "$2 < ${best[$1]}" | bc)" = 1 ]; then best[$1]=$2; fi
}
sudoku=(--dataset "$corpora/sudoku/puzzles3_magictour_top1465.txt" --strategy backtrack --seeds "${SUDOKU_SEEDS:-100}")
hitori=(--dataset "$tmp/tud/tud-15-25.tsv" --strategy mrv --seeds "${HITORI_SEEDS:-40}")
for _ in $(seq "$n"); do
  for run in sudoku hitori; do
    declare -n args=$run
    for bin in "$@"; do
      keep "$run $bin t1" "$(timed "$bin" 1 1 "${args[@]}")"
      keep "$run $bin t2" "$(timed "$bin" 1 2 "${args[@]}")"
      keep "$run $bin p2" "$(timed "$bin" 2 1 "${args[@]}")"
    done
    unset -n args
  done
done
for run in sudoku hitori; do
  for bin in "$@"; do
    awk -v r="$run" -v b="$bin" -v t1="${best[$run $bin t1]}" -v t2="${best[$run $bin t2]}" -v p2="${best[$run $bin p2]}" 'BEGIN {
      printf "%-6s %-45s t1 %.3f s  t2 %.3f s  p2 %.3f s  2 threads %.2fx  2 processes %.2fx  ratio %.2f\n",
        r, b, t1, t2, p2, t1 / t2, 2 * t1 / p2, (t1 / t2) / (2 * t1 / p2) }'
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
