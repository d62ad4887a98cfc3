#!/usr/bin/env bash
# Harness cost benchmark (issue 13 item 1), not a test: for the three reference runs, the
# 2-thread speedup (process wall at --threads 1 / at --threads 2, min of N) and the harness CPU
# per job at --threads 1: (process user+sys CPU - sum of wall_s) / jobs.
#   benches/harness.sh [BIN] [N]     # BIN defaults to target/release/bench-run, N to 3
# Prints one line per run; the load average is printed first (the figures mean little above 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/bench-run}
n=${2:-3}
corpora=${CORPORA:-/work/shared/corpora}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  bin: $bin  N=$n  extra: ${EXTRA:-}"
# One run: prints "wall cpu sum_wall_s jobs".
one() {
  local threads=$1; shift
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$bin" --quiet --no-summary --force \
    --threads "$threads" --output "$tmp/r.csv" ${EXTRA:-} "$@" >/dev/null
  read -r wall user sys <"$tmp/time"
  awk -F, -v wall="$wall" -v cpu="$(echo "$user + $sys" | bc)" '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") c = i; next }
    { s += $c; n++ }
    END { printf "%s %s %.6f %d\n", wall, cpu, s, n }' "$tmp/r.csv"
}
bench() {
  local name=$1; shift
  local best1= best2= line cpu1= sum1= jobs=
  for _ in $(seq "$n"); do
    line=$(one 1 "$@"); set -- "$@"
    read -r w c s j <<<"$line"
    if [ -z "$best1" ] || [ "$(echo "$w < $best1" | bc)" = 1 ]; then best1=$w; fi
    if [ -z "$cpu1" ] || [ "$(echo "$c < $cpu1" | bc)" = 1 ]; then cpu1=$c; sum1=$s; fi
    jobs=$j
    line=$(one 2 "$@")
    read -r w c s j <<<"$line"
    if [ -z "$best2" ] || [ "$(echo "$w < $best2" | bc)" = 1 ]; then best2=$w; fi
  done
  awk -v n="$name" -v w1="$best1" -v w2="$best2" -v c="$cpu1" -v s="$sum1" -v j="$jobs" 'BEGIN {
    printf "%-10s jobs %7d  wall t1 %7.3f s  t2 %7.3f s  speedup %.2fx  cpu t1 %7.3f s  sum wall_s %7.3f s  harness %.2f us/job\n",
      n, j, w1, w2, w1 / w2, c, s, (c - s) / j * 1e6 }'
}
bench 17-clue --dataset "$corpora/sudoku/puzzles2_17_clue.txt" --strategy backtrack --seeds 20
bench top1465 --dataset "$corpora/sudoku/puzzles3_magictour_top1465.txt" --strategy backtrack --seeds 20
bench tud     --dataset "$corpora/hitori/tud-singles-5to25.tsv" --strategy mrv --seeds 20
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
