#!/usr/bin/env bash
# The fixed nightly suite, shared by nightly.sh and update-baseline.sh so the baseline and the
# nightly run can never drift apart. Usage: scripts/suite.sh OUTDIR
# Every run is deterministic (fixed seeds); only wall_s varies between machines.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/suite.sh OUTDIR}
threads=${THREADS:-2}
# Solves per job for the microsecond-short deterministic runs (Hitori): wall_s is the median of
# R solves, steadier than one reading of a few microseconds. Counters are those of one solve,
# so the baseline stays valid whatever R is (`repeats` is a timing column, never compared).
repeat=${REPEAT:-5}
bin=target/release/bench-run
mkdir -p "$out"
run() {
  local name=$1; shift
  "$bin" --quiet --threads "$threads" --force --output "$out/$name.csv" "$@" >/dev/null
  echo "  $name: $(($(wc -l <"$out/$name.csv") - 1)) rows"
}
run hitori5        --dataset datasets/hitori5  --strategy mrv,row --rules full --repeat "$repeat"
run hitori5-basic  --dataset datasets/hitori5  --strategy mrv,row --rules basic --repeat "$repeat"
run hitori10       --dataset datasets/hitori10 --strategy mrv,row --rules full --repeat "$repeat"
run hitori20       --dataset datasets/hitori20 --strategy mrv     --rules full --count-solutions 2 --repeat "$repeat"
run sudoku-abc     --dataset datasets/sudoku-medium --strategy abc,abc-hybrid --seeds 3 --seed 1
run sudoku-hard    --dataset datasets/sudoku-hard   --strategy backtrack,abc-hybrid --seeds 2 --seed 1
run sudoku-demo    --dataset datasets/sudoku-demo   --strategy abc --seeds 20 --colonies 2
