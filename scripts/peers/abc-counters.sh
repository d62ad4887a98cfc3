#!/usr/bin/env bash
# Records every deterministic column of a matrix of ABC runs, so a speed change to the colony can
# be checked to leave counters, statuses and answers exactly as they were.
#
# Usage: scripts/peers/abc-counters.sh BENCH_RUN OUTDIR
#   e.g. scripts/peers/abc-counters.sh /tmp/bench-run-before /tmp/abc-before
#        scripts/peers/abc-counters.sh target/release/bench-run /tmp/abc-after
#        diff -r /tmp/abc-before /tmp/abc-after && echo identical
#
# Each run writes its CSV with the recorded solution; the copy kept in OUTDIR drops `wall_s`
# (the only column allowed to differ) so a plain `diff -r` compares everything else.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:?usage: abc-counters.sh BENCH_RUN OUTDIR}
out=${2:?usage: abc-counters.sh BENCH_RUN OUTDIR}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() {
  local name=$1; shift
  "$bin" --quiet --threads 1 --force --no-summary --record-solutions \
    --output "$tmp/$name.csv" "$@" >/dev/null
  # Drop wall_s by its header position, wherever the harness puts it.
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_s") w = i }
    { out = ""; for (i = 1; i <= NF; i++) if (i != w) out = out (out == "" && i == 1 ? "" : OFS) $i; print out }' \
    "$tmp/$name.csv" >"$out/$name.csv"
  echo "  $name: $(($(wc -l <"$out/$name.csv") - 1)) rows"
}

for ds in sudoku-medium sudoku-demo; do
  run "$ds-box"       --dataset "datasets/$ds" --strategy abc,abc-hybrid --seeds 4 --seed 7
  run "$ds-adaptive"  --dataset "datasets/$ds" --strategy abc,abc-hybrid --seeds 4 --seed 11 --limit adaptive
  run "$ds-cross"     --dataset "datasets/$ds" --strategy abc,abc-hybrid --seeds 2 --seed 3 --neighbourhood cross-box --max-cycles 300
  run "$ds-small"     --dataset "datasets/$ds" --strategy abc,abc-hybrid --seeds 3 --seed 5 --colony-size 6 --limit 9 --colonies 2
done
run sudoku-hard-box --dataset datasets/sudoku-hard --strategy abc,abc-hybrid --seeds 2 --seed 1 --max-cycles 500
