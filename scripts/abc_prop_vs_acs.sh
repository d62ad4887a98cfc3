#!/bin/bash
# Issue 29's measurements: abc, abc-hybrid, abc-prop, restarts and ACS (Lloyd & Amos'
# sudoku_acs, built outside this repository) on sudoku-hard, fresh qqwing expert puzzles, the full
# top1465 and forum_hardest_1106, 16x16 and 25x25 at 45% given, and the ab runs.
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
ALL=abc-prop,restarts,abc,abc-hybrid
log start
run --dataset "$H" --strategy $ALL --timeout 1 --output hard.csv > hard.txt; $ACS "$H/generated.txt" 1 acs_hard.csv; log hard
[ -f qq.txt ] || "$ROOT/scripts/qqwing_expert.sh" 1000 qq.txt
run --dataset qq.txt --strategy $ALL --timeout 1 --output qq.csv > qq.txt.summary; $ACS qq.txt 1 acs_qq.csv; log qqwing
run --dataset d16 --strategy abc-prop,restarts --timeout 1 --output s16.csv > s16.txt; $ACS d16 1 acs_s16.csv; log s16
run --dataset "$C/puzzles6_forum_hardest_1106.txt" --strategy $ALL --timeout 1 --output fh.csv > fh.txt; $ACS "$C/puzzles6_forum_hardest_1106.txt" 1 acs_fh.csv; log fh
run --dataset "$C/puzzles3_magictour_top1465.txt" --strategy $ALL --timeout 1 --output top.csv > top.txt; $ACS "$C/puzzles3_magictour_top1465.txt" 1 acs_top.csv; log top
run --dataset d25 --strategy abc-prop --timeout 10 --trace trace25.csv --output s25p.csv > s25p.txt; log s25p
$ACS d25 10 acs_s25.csv; log s25acs
run --dataset d25 --strategy restarts --timeout 10 --output s25r.csv > s25r.txt; log s25r
grep -v "^#" "$C/puzzles6_forum_hardest_1106.txt" | head -100 > fh100.txt   # 100 puzzles (the file holds 375)
run --dataset fh100.txt --strategy abc-prop,restarts --seeds 3 --timeout 1 --output ab.csv > ab.txt
for s in 1 2 3; do $ACS fh100.txt 1 acs_ab$s.csv; done; log ab
"$B/bench-report" ab ab.csv --a strategy=abc-prop --b strategy=restarts > ab_fh100.txt
"$B/bench-report" ab s25p.csv s25r.csv --a strategy=abc-prop --b strategy=restarts > ab_s25.txt
run --dataset d25 --strategy abc-prop --seeds 3 --timeout 10 --output m25p.csv > m25p.txt; log m25p
for s in 1 2 3; do $ACS d25 10 acs_m25_$s.csv; done; log m25acs
run --dataset d25 --strategy restarts --seeds 3 --timeout 10 --output m25r.csv > m25r.txt; log m25r
"$B/bench-report" ab m25p.csv m25r.csv --a strategy=abc-prop --b strategy=restarts > ab_m25.txt
log end
