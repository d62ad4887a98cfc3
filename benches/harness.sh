#!/usr/bin/env bash
# Harness cost benchmark (issue 13 item 1), not a test: for the three reference runs, the
# 2-thread speedup (process wall at --threads 1 / at --threads 2, min of N) and the harness CPU
# per job at --threads 1: (process user+sys CPU - sum of wall_s) / jobs, and how much the sum of
# wall_s grows at --threads 2 (solves slowed or preempted by the other worker or the harness).
#   benches/harness.sh [BIN] [N]     # BIN defaults to target/release/bench-run, N to 3
# Beside the speedup it prints the machine's own ceiling in the same minutes: the throughput of
# two independent --threads 1 processes of the same run side by side over one alone (min of N).
# A virtual machine's second vCPU rarely gives a full 2x; the harness can only be judged
# against what two processes that share nothing get.
# Wall and CPU come from python's clock and wait4's rusage (microseconds), not /usr/bin/time's
# 10 ms steps, so the 0.1 s top1465 run is measurable.
# Prints one line per run; the load average is printed first (the figures mean little above 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/bench-run}
n=${2:-3}
corpora=${CORPORA:-${PUZZLEBENCH_SHARED:-../shared}/corpora}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  bin: $bin  N=$n  extra: ${EXTRA:-}"
# One timing: `timed COPIES THREADS ARGS...` runs COPIES processes at once (each its own output)
# and prints "wall cpu sum_wall_s jobs" (wall: until the last ends; cpu, sum and jobs: copy 0's).
timed() {
  python3 - "$tmp" "$bin" "$@" ${EXTRA:-} <<'PY'
import csv, os, subprocess, sys, time
tmp, binary, copies, threads, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
# The previous round's files go first, outside the timing: replacing a 100 MB file makes the
# final rename wait for the old one's blocks to be freed (40 ms here), which is the
# filesystem's cost, not the harness's.
for k in range(copies):
    for suffix in ("", ".meta.json"):
        try:
            os.remove(f"{tmp}/r{k}.csv{suffix}")
        except FileNotFoundError:
            pass
procs = []
t0 = time.perf_counter()
for k in range(copies):
    cmd = [binary, "--quiet", "--no-summary", "--force", "--threads", threads,
           "--output", f"{tmp}/r{k}.csv", *args]
    procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))
cpu0 = None
for k, p in enumerate(procs):
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"harness.sh: {binary} exited {p.returncode}")
    if k == 0:
        cpu0 = ru.ru_utime + ru.ru_stime
wall = time.perf_counter() - t0
with open(f"{tmp}/r0.csv", newline="") as f:
    rows = list(csv.DictReader(f))
print(f"{wall:.6f} {cpu0:.6f} {sum(float(r['wall_s']) for r in rows):.6f} {len(rows)}")
PY
}
bench() {
  local name=$1; shift
  local best1= best2= bestp= cpu1= sum1= sum2= jobs= w c s j
  for _ in $(seq "$n"); do
    read -r w c s j <<<"$(timed 1 1 "$@")"
    if [ -z "$best1" ] || [ "$(echo "$w < $best1" | bc)" = 1 ]; then best1=$w; fi
    if [ -z "$cpu1" ] || [ "$(echo "$c < $cpu1" | bc)" = 1 ]; then cpu1=$c; sum1=$s; fi
    jobs=$j
    read -r w c s j <<<"$(timed 1 2 "$@")"
    if [ -z "$best2" ] || [ "$(echo "$w < $best2" | bc)" = 1 ]; then best2=$w; sum2=$s; fi
    read -r w c s j <<<"$(timed 2 1 "$@")"
    if [ -z "$bestp" ] || [ "$(echo "$w < $bestp" | bc)" = 1 ]; then bestp=$w; fi
  done
  awk -v n="$name" -v w1="$best1" -v w2="$best2" -v wp="$bestp" -v c="$cpu1" -v s="$sum1" -v s2="$sum2" -v j="$jobs" 'BEGIN {
    printf "%-8s jobs %7d  wall t1 %6.3f s  t2 %6.3f s  speedup %.2fx (two processes %.2fx)  cpu t1 %6.3f s  sum wall_s %6.3f s (t2 %+.1f%%)  harness %.2f us/job\n",
      n, j, w1, w2, w1 / w2, 2 * w1 / wp, c, s, (s2 / s - 1) * 100, (c - s) / j * 1e6 }'
}
bench 17-clue --dataset "$corpora/sudoku/puzzles2_17_clue.txt" --strategy backtrack --seeds 20
bench top1465 --dataset "$corpora/sudoku/puzzles3_magictour_top1465.txt" --strategy backtrack --seeds 20
bench tud     --dataset "$corpora/hitori/tud-singles-5to25.tsv" --strategy mrv --seeds 20
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
