#!/usr/bin/env bash
# Re-measure every numeric claim of the two source articles (../shared/seeds/) and write
# REPRODUCTION.md: claim (in English), the article's figure, the measured figure with the
# command that measured it, and a verdict.
#
#   scripts/reproduce.sh                                   # builds, then runs (~1-2 min on 2 CPUs)
#   BIN=/path/to/target/release scripts/reproduce.sh       # use already-built binaries
#   PUZZLEBENCH_SHARED=/path/to/shared scripts/reproduce.sh
#
# Every bench-run below has a fixed --seed, so every deterministic counter (nodes, cycles,
# status, best conflicts) is identical on every machine and every rerun; only wall_s varies.
# Runs whose times are reported use --threads 1. Intermediate CSVs, summaries and the
# command list go to results/reproduce/ (git-ignored); REPRODUCTION.md goes to the repo root.
# Public corpora are used when ../shared (or ../../shared, or $PUZZLEBENCH_SHARED) is present;
# otherwise their rows say "skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)

if [ -z "${BIN:-}" ]; then
  cargo build --release --bins --quiet
  BIN=target/release
fi
run_bin="$BIN/bench-run"
[ -x "$run_bin" ] || { echo "reproduce: no bench-run in $BIN" >&2; exit 2; }

OUT=results/reproduce
rm -rf "$OUT"
mkdir -p "$OUT"

# Public corpora: the same search order as the corpus tests.
shared=""
for cand in "${PUZZLEBENCH_SHARED:-}" ../shared ../../shared; do
  if [ -n "$cand" ] && [ -d "$cand/corpora" ]; then shared=$cand; break; fi
done
tud="$shared/corpora/hitori/tud-singles-5to25.tsv"
top="$shared/corpora/sudoku/puzzles3_magictour_top1465.txt"
f1106="$shared/corpora/sudoku/puzzles6_forum_hardest_1106.txt"
have_corpora=0
if [ -n "$shared" ] && [ -f "$tud" ] && [ -f "$top" ] && [ -f "$f1106" ]; then have_corpora=1; fi

# Numbered command list: key, exit code, seconds, command as a user would type it.
cmds="$OUT/commands.tsv"
: >"$cmds"
n=0
# bench KEY ARGS... : one bench-run into $OUT/KEY.csv, its summary into $OUT/KEY.txt.
bench() {
  local key=$1; shift
  n=$((n + 1))
  local t0 rc=0
  t0=$(date +%s.%N)
  "$run_bin" "$@" --output "$OUT/$key.csv" --quiet --force >"$OUT/$key.txt" 2>"$OUT/$key.err" || rc=$?
  local secs
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')
  printf '%s\t%s\t%s\t%s\n' "$key" "$rc" "$secs" \
    "bench-run $* --output $OUT/$key.csv --quiet --force" >>"$cmds"
  echo "  [$n] $key: exit $rc, ${secs}s"
}

echo "reproduce: Hitori"
bench h5-basic  --dataset datasets/hitori5  --strategy mrv,row --rules basic --threads 1 --record-solutions
bench h5-full   --dataset datasets/hitori5  --strategy mrv,row --rules full  --threads 1
bench h10-basic --dataset datasets/hitori10 --strategy mrv,row --rules basic --threads 1
bench h10-full  --dataset datasets/hitori10 --strategy mrv,row --rules full  --threads 1
if [ $have_corpora = 1 ]; then
  # The whole corpus (all sizes 5..25, 3150 puzzles, about a second); the report filters by size.
  bench tud-basic --dataset "$tud" --strategy mrv,row --rules basic --threads 1 --timeout 10
  bench tud-full  --dataset "$tud" --strategy mrv,row --rules full  --threads 1 --timeout 10
fi

echo "reproduce: Sudoku ABC"
# 20 seeds x 50 puzzles x 2 strategies: ~16 s each on one thread (pure ABC runs its 2000 cycles).
bench sm-abc   --dataset datasets/sudoku-medium --strategy abc,abc-hybrid --seed 0 --seeds 20 --threads 1
bench sh-abc   --dataset datasets/sudoku-hard   --strategy abc,abc-hybrid --seed 0 --seeds 20 --threads 1
bench se-abc   --dataset datasets/sudoku-easy   --strategy abc,abc-hybrid --seed 0 --seeds 5  --threads 1
# Convergence traces: the first 5 seeds of sm-abc again (same jobs, same rows), with --trace.
bench sm-trace --dataset datasets/sudoku-medium --strategy abc --seed 0 --seeds 5 --threads 2 \
  --trace "$OUT/sm-trace.trace.csv"
bench demo-abc --dataset datasets/sudoku-demo --strategy abc --seed 0 --seeds 100 --threads 1 \
  --trace "$OUT/demo-abc.trace.csv"
bench demo-hybrid   --dataset datasets/sudoku-demo   --strategy abc-hybrid --seed 0 --seeds 100 --threads 1
bench sm-adaptive   --dataset datasets/sudoku-medium --strategy abc,abc-hybrid --seed 0 --seeds 20 --threads 1 --limit adaptive
bench demo-adaptive --dataset datasets/sudoku-demo   --strategy abc --seed 0 --seeds 100 --threads 1 --limit adaptive
bench demo-cross    --dataset datasets/sudoku-demo   --strategy abc --seed 0 --seeds 100 --threads 1 --neighbourhood cross-box
# Cost per cycle against the colony size S (pure ABC on sudoku-medium always runs 2000 cycles).
bench sm-s50  --dataset datasets/sudoku-medium --strategy abc --seed 0 --seeds 1 --threads 1 --colony-size 50
bench sm-s200 --dataset datasets/sudoku-medium --strategy abc --seed 0 --seeds 1 --threads 1 --colony-size 200
bench sm-s400 --dataset datasets/sudoku-medium --strategy abc --seed 0 --seeds 1 --threads 1 --colony-size 400

echo "reproduce: Sudoku backtracking"
bench sm-bt --dataset datasets/sudoku-medium --strategy backtrack --threads 1
bench sh-bt --dataset datasets/sudoku-hard   --strategy backtrack --threads 1
if [ $have_corpora = 1 ]; then
  # A second opinion on real hard puzzles: the first 20 of top1465 (ids top1465-first20:N keep
  # the corpus's numbering), and the whole lists for backtracking.
  awk '!/^#/ && NF { print; if (++k == 20) exit }' "$top" >"$OUT/top1465-first20.txt"
  bench top20-abc --dataset "$OUT/top1465-first20.txt" --strategy abc,abc-hybrid --seed 0 --seeds 5 --threads 1
  bench top-bt    --dataset "$top"   --strategy backtrack --threads 1
  bench f1106-bt  --dataset "$f1106" --strategy backtrack --threads 1
fi

echo "reproduce: writing REPRODUCTION.md"
export REPRO_DATE REPRO_REV REPRO_NPROC REPRO_CPU REPRO_BIN REPRO_SHARED REPRO_SECS REPRO_LOAD
REPRO_LOAD=$load
REPRO_DATE=$(date -u +"%Y-%m-%d %H:%M UTC")
REPRO_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then REPRO_REV="$REPRO_REV (+ uncommitted changes)"; fi
REPRO_NPROC=$(nproc)
REPRO_CPU=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
REPRO_CPU=${REPRO_CPU:-$(uname -m)}
REPRO_BIN=$BIN
REPRO_SHARED=$([ $have_corpora = 1 ] && echo "$shared" || echo "")
REPRO_SECS=$(( $(date +%s) - start ))
python3 scripts/reproduce_table.py "$OUT" REPRODUCTION.md
echo "reproduce: done in $(( $(date +%s) - start )) s; see REPRODUCTION.md"
