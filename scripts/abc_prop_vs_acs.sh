#!/bin/bash
# Issue 29's measurements: abc, abc-hybrid, abc-prop, restarts and ACS (Lloyd & Amos'
# sudoku_acs, built outside this repository) on sudoku-hard, fresh qqwing expert puzzles, the full
# top1465 and forum_hardest_1106, 16x16 and 25x25 at 45% given, and the ab runs. puzzlebench's
# runs are plans/abc-prop-vs-acs.toml (one run into OUTDIR/plan.csv) and one traced command
# (s25p.csv, trace25.csv).
# Usage: ACS_BIN=/path/to/sudokusolver ACS_INSTANCES=/path/to/sudoku_acs/instances/general \
#        scripts/abc_prop_vs_acs.sh OUTDIR     (one thread each, sequential; see docs/reproduction.md)
# BIN overrides the directory of the puzzlebench binaries (default target/release).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${BIN:-$ROOT/target/release}
C=${CORPORA:-$ROOT/../shared/corpora}/sudoku
H=$ROOT/datasets/sudoku-hard
OUT=${1:?usage: abc_prop_vs_acs.sh OUTDIR}
: "${ACS_BIN:?set ACS_BIN to the sudoku_acs binary}" "${ACS_INSTANCES:?set ACS_INSTANCES to its instances/general}"
mkdir -p "$OUT/d16" "$OUT/d25" && cd "$OUT"
for i in $(seq 0 19); do
  cp "$ACS_INSTANCES/inst16x16_45_$i.txt" d16/; cp "$ACS_INSTANCES/inst25x25_45_$i.txt" d25/
done
ACS="python3 $ROOT/scripts/acs_peer.py"
log() { echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) $*"; }
run() { "$B/bench-run" --threads 1 --quiet --force "$@"; }
# Every input under the name plans/abc-prop-vs-acs.toml gives it (paths are read from OUTDIR).
ln -sfn "$H" sudoku-hard
for f in puzzles6_forum_hardest_1106.txt puzzles3_magictour_top1465.txt; do ln -sfn "$C/$f" "$f"; done
[ -f qq.txt ] || "$ROOT/scripts/qqwing_expert.sh" 1000 qq.txt
grep -v "^#" "$C/puzzles6_forum_hardest_1106.txt" | head -100 > fh100.txt   # 100 puzzles (the file holds 375)
log start
# puzzlebench's runs are one plan (one run, one CSV: plan.csv, every job once); the report
# picks each set out with --where. They used to alternate with ACS set by set; now ACS runs
# after them, so the two sides of a comparison no longer share the same minutes' load.
"$B/bench-run" --plan "$ROOT/plans/abc-prop-vs-acs.toml" --quiet --force --output plan.csv > plan.txt; log plan
# abc-prop on 25x25, seed 0, carries the convergence trace: a plan of several parts cannot, so
# it is a command of its own (the plan runs seeds 1 and 2).
run --dataset d25 --strategy abc-prop --timeout 10 --trace trace25.csv --output s25p.csv > s25p.txt; log s25p
# ACS (the Python peer driving Lloyd & Amos' binary) over the same sets: commands, not a plan.
$ACS "$H/generated.txt" 1 acs_hard.csv; log acs hard
$ACS qq.txt 1 acs_qq.csv; log acs qqwing
$ACS d16 1 acs_s16.csv; log acs s16
$ACS "$C/puzzles6_forum_hardest_1106.txt" 1 acs_fh.csv; log acs fh
$ACS "$C/puzzles3_magictour_top1465.txt" 1 acs_top.csv; log acs top
$ACS d25 10 acs_s25.csv; log acs s25
for s in 1 2 3; do $ACS fh100.txt 1 acs_ab$s.csv; done; log acs ab
for s in 1 2 3; do $ACS d25 10 acs_m25_$s.csv; done; log acs m25
"$B/bench-report" ab plan.csv --where dataset=fh100 --a strategy=abc-prop --b strategy=restarts > ab_fh100.txt
"$B/bench-report" ab s25p.csv plan.csv --where dataset=d25,seed=0 --a strategy=abc-prop --b strategy=restarts > ab_s25.txt
"$B/bench-report" ab s25p.csv plan.csv --where dataset=d25 --a strategy=abc-prop --b strategy=restarts > ab_m25.txt
log end
