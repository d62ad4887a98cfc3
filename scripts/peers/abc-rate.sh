#!/usr/bin/env bash
# ABC speed through the harness, the figure issue 13 item 5 sets a target for: cycles per second
# with colony 100 on one thread, over datasets/sudoku-medium x SEEDS seeds.
#
# Usage: scripts/peers/abc-rate.sh [ROUNDS [SEEDS [BENCH_RUN...]]]
#   e.g. scripts/peers/abc-rate.sh 5 20 /tmp/bench-run-before target/release/bench-run
# Binaries are run in turn, round after round (so load drifts hit them alike); per binary it
# prints the best round's rate by the jobs' own `wall_s` sum (solver time only) and by process
# CPU time (harness included), with the load average beside them.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
seeds=${2:-20}
shift $(($# < 2 ? $# : 2))
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/bench-run)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do
    cpu=$( { /usr/bin/time -f '%U %S' "${bins[$i]}" --dataset datasets/sudoku-medium --strategy abc \
      --seeds "$seeds" --colony-size 100 --threads 1 --no-summary --quiet --force \
      --output "$tmp/$i.csv" >/dev/null; } 2>&1 | tail -1)
    python3 - "$tmp/$i.csv" $cpu >>"$tmp/$i.rates" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
c = sum(int(r["cycles"]) for r in rows)
w = sum(float(r["wall_s"]) for r in rows)
cpu = float(sys.argv[2]) + float(sys.argv[3])
print(f"{c / w:.0f} {c / cpu:.0f} {len(rows)} {c}")
PY
  done
done
for i in "${!bins[@]}"; do
  sort -n -r "$tmp/$i.rates" | head -1 | {
    read -r wall cpu runs cycles
    echo "${bins[$i]}: $runs runs, $cycles cycles; best of $rounds: $wall cycles/s by wall_s sum, $cpu cycles/s by process CPU"
  }
done
echo "load average: $(uptime | sed 's/.*load average: //')"
