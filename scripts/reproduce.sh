#!/usr/bin/env bash
# Re-measure every numeric claim of the two source articles (docs/articles.md) and write
# docs/reproduction-results.md: claim (in English), the article's figure, the measured figure with the
# command that measured it, and a verdict.
#
#   scripts/reproduce.sh                                   # builds, then runs (~10 min on 2 CPUs)
#   BIN=/path/to/target/release scripts/reproduce.sh       # use already-built binaries
#   PUZZLEBENCH_SHARED=/path/to/shared scripts/reproduce.sh
#   scripts/reproduce.sh --report-only                     # redo the comparisons and the table
#                                                          # from the rows already in results/reproduce
#
# Every comparison between two configurations goes through `bench-report ab` (Wilson intervals,
# McNemar, paired-bootstrap ratios, Wilcoxon, A12, ERT) and every descriptive figure (counts,
# means, sums, type-7 quantiles of row subsets, best-of-K portfolios, convergence) through
# `bench-report summary --counters [--where] [--best-of] [--trace] --format json`, so each
# statistic has one implementation (Rust); reproduce_table.py only selects figures from their
# JSON and applies the verdict rules.
#
# Every bench-run below has a fixed --seed, so every deterministic counter (nodes, cycles,
# status, best conflicts) is identical on every machine and every rerun; only wall_s varies.
# Runs whose times are reported use --threads 1. Intermediate CSVs, summaries and the
# command list go to results/reproduce/ (git-ignored); docs/reproduction-results.md is rewritten.
# Public corpora are used when ../shared (or ../../shared, or $PUZZLEBENCH_SHARED) is present;
# otherwise their rows say "skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
report_only=0
if [ "${1:-}" = "--report-only" ]; then report_only=1; fi
# Puzzles per number of givens in the claims 8-9 sweep (26..44 givens, 20 seeds each, pure abc):
# 19 x 100 x 20 = 38 000 runs of at most 2000 cycles (about 4 ms each when unsolved), about
# 3 min on one core, well inside the 20-minute budget. GIVENS_COUNT=... to change it.
givens_count=${GIVENS_COUNT:-100}

if [ -z "${BIN:-}" ]; then
  cargo build --release --bins --quiet
  BIN=target/release
fi
run_bin="$BIN/bench-run"
report_bin="$BIN/bench-report"
gen_bin="$BIN/bench-gen"
for b in "$run_bin" "$report_bin" "$gen_bin"; do
  [ -x "$b" ] || { echo "reproduce: no $(basename "$b") in $BIN" >&2; exit 2; }
done

OUT=results/reproduce
if [ $report_only = 1 ]; then
  [ -f "$OUT/commands.tsv" ] || { echo "reproduce: --report-only needs a previous run in $OUT" >&2; exit 2; }
  # Keep the measurement commands, drop the previous comparisons (rewritten below).
  grep -v $'\tbench-report ' "$OUT/commands.tsv" >"$OUT/commands.tsv.new" || true
  mv "$OUT/commands.tsv.new" "$OUT/commands.tsv"
  load=$(cat "$OUT/load.txt" 2>/dev/null || echo "$load")
else
  rm -rf "$OUT"
  mkdir -p "$OUT"
  echo "$load" >"$OUT/load.txt"
fi

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
[ $report_only = 1 ] || : >"$cmds"
n=$(wc -l <"$cmds")
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

# record KEY RC SECS COMMAND: one line of the numbered command list.
record() {
  n=$((n + 1))
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$cmds"
  echo "  [$n] $1: exit $2, ${3}s"
}

measure() {
echo "reproduce: Hitori"
bench h5-basic  --dataset datasets/hitori5  --strategy mrv,row --rules basic --threads 1 --record-solutions
bench h5-full   --dataset datasets/hitori5  --strategy mrv,row --rules full  --threads 1
bench h10-basic --dataset datasets/hitori10 --strategy mrv,row --rules basic --threads 1
bench h10-full  --dataset datasets/hitori10 --strategy mrv,row --rules full  --threads 1
bench h20-basic --dataset datasets/hitori20 --strategy mrv,row --rules basic --threads 1
bench h20-full  --dataset datasets/hitori20 --strategy mrv,row --rules full  --threads 1
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

echo "reproduce: claims 8-9, pure abc against the number of givens"
# Unique puzzles with exactly N givens (bench-gen --givens), one file and one run per N so each
# N is its own dataset (gN) in the summary.
mkdir -p "$OUT/givens"
t0=$(date +%s.%N)
rc=0
for g in $(seq 26 44); do
  "$gen_bin" sudoku --givens "$g" --count "$givens_count" --seed 1 --out "$OUT/givens/g$g.txt" --force >/dev/null || rc=$?
  "$run_bin" --dataset "$OUT/givens/g$g.txt" --strategy abc --seed 0 --seeds 20 --threads 1 \
    --output "$OUT/givens/g$g.csv" --quiet --force --no-summary >/dev/null 2>>"$OUT/givens.err" || rc=$?
done
record givens "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" \
  "for N in 26..44: bench-gen sudoku --givens N --count $givens_count --seed 1 --out $OUT/givens/gN.txt; bench-run --dataset $OUT/givens/gN.txt --strategy abc --seed 0 --seeds 20 --threads 1 --output $OUT/givens/gN.csv --quiet --force --no-summary"

echo "reproduce: parallelism (best of K colonies; 1 vs 2 threads)"
# 16 independent colonies per (puzzle, seed): the best of K = 1, 2, 4, 8, 16 of them is what K
# colonies on K cores would deliver; the report takes disjoint blocks of K colonies.
bench demo-k16 --dataset datasets/sudoku-demo --strategy abc        --seed 0 --seeds 100 --colonies 16 --threads 1
bench sh-k16   --dataset datasets/sudoku-hard --strategy abc-hybrid --seed 0 --seeds 4   --colonies 16 --threads 1
# Whole batches at 1 and 2 threads, best of 3 wall times each (other jobs share the machine:
# the load average is written beside each time).
scale() {
  local key=$1 threads=$2; shift 2
  local best="" t0 t rc=0
  for rep in 1 2 3; do
    t0=$(date +%s.%N)
    "$run_bin" "$@" --threads "$threads" --output "$OUT/$key.csv" --quiet --force --no-summary >/dev/null 2>&1 || rc=$?
    t=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.3f", b-a}')
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN{print (b < a ? b : a)}')
  done
  printf '%s\t%s\t%s\t%s\n' "$key" "$threads" "$best" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$OUT/scaling.tsv"
  record "$key" "$rc" "$best" "bench-run $* --threads $threads --output $OUT/$key.csv --quiet --force --no-summary (best of 3)"
}
: >"$OUT/scaling.tsv"
scale scale-abc-t1 1 --dataset datasets/sudoku-hard --strategy abc-hybrid --seed 0 --seeds 2
scale scale-abc-t2 2 --dataset datasets/sudoku-hard --strategy abc-hybrid --seed 0 --seeds 2
if [ $have_corpora = 1 ]; then
  scale scale-bt-t1 1 --dataset "$f1106" --strategy backtrack --seeds 20
  scale scale-bt-t2 2 --dataset "$f1106" --strategy backtrack --seeds 20
fi
}
[ $report_only = 1 ] || measure

echo "reproduce: A/B comparisons (bench-report ab) and summaries"
# ab KEY FILES... -- SELECTORS...: text to $OUT/KEY.ab.txt, JSON to $OUT/KEY.ab.json.
ab() {
  local key=$1; shift
  local t0 rc=0
  t0=$(date +%s.%N)
  "$report_bin" ab "$@" >"$OUT/$key.ab.txt" 2>"$OUT/$key.ab.err" || rc=$?
  "$report_bin" ab "$@" --format json >"$OUT/$key.ab.json" 2>>"$OUT/$key.ab.err" || rc=$?
  record "$key" "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" "bench-report ab $* --format json"
}
for h in h5 h10 h20; do
  for r in basic full; do
    ab "ab-$h-$r" "$OUT/$h-$r.csv" --a strategy=mrv --b strategy=row
  done
done
if [ $have_corpora = 1 ]; then
  ab ab-tud-basic "$OUT/tud-basic.csv" --a strategy=mrv --b strategy=row
  ab ab-tud-full  "$OUT/tud-full.csv"  --a strategy=mrv --b strategy=row
  ab ab-top20-hybrid "$OUT/top20-abc.csv" --a strategy=abc --b strategy=abc-hybrid
fi
ab ab-demo-hybrid "$OUT/demo-abc.csv" "$OUT/demo-hybrid.csv" --a strategy=abc --b strategy=abc-hybrid
ab ab-se-hybrid "$OUT/se-abc.csv" --a strategy=abc --b strategy=abc-hybrid
ab ab-sm-hybrid "$OUT/sm-abc.csv" --a strategy=abc --b strategy=abc-hybrid
ab ab-sh-hybrid "$OUT/sh-abc.csv" --a strategy=abc --b strategy=abc-hybrid
ab ab-demo-limit "$OUT/demo-abc.csv" "$OUT/demo-adaptive.csv" --a limit=50 --b limit=adaptive
ab ab-sm-limit-abc "$OUT/sm-abc.csv" "$OUT/sm-adaptive.csv" --a strategy=abc,limit=50 --b strategy=abc,limit=adaptive
ab ab-sm-limit-hybrid "$OUT/sm-abc.csv" "$OUT/sm-adaptive.csv" --a strategy=abc-hybrid,limit=50 --b strategy=abc-hybrid,limit=adaptive
ab ab-demo-cross "$OUT/demo-abc.csv" "$OUT/demo-cross.csv" --a neighbourhood=box --b neighbourhood=cross-box
t0=$(date +%s.%N)
rc=0
"$report_bin" summary "$OUT"/givens/g*.csv --format json >"$OUT/givens.summary.json" || rc=$?
record givens-summary "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" \
  "bench-report summary $OUT/givens/g*.csv --format json"

echo "reproduce: descriptive figures (bench-report summary --counters)"
# summ KEY ARGS...: bench-report summary ARGS --counters --format json into $OUT/KEY.summary.json.
# Every count, mean, sum and quantile the table quotes comes from these files (row subsets
# through --where, best-of-K portfolios through --best-of, convergence through --trace).
summ() {
  local key=$1; shift
  local t0 rc=0 shown="" a
  t0=$(date +%s.%N)
  "$report_bin" summary "$@" --counters --format json >"$OUT/$key.summary.json" 2>"$OUT/$key.summary.err" || rc=$?
  # Quote the arguments a shell would expand (*, <, >) so the listed command can be pasted.
  for a in "$@"; do
    if [[ $a =~ [^A-Za-z0-9_./=,:+-] ]]; then shown+=" '$a'"; else shown+=" $a"; fi
  done
  record "$key" "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" \
    "bench-report summary${shown} --counters --format json"
}
summ s-h5-gen "$OUT/h5-basic.csv" "$OUT/h5-full.csv" --where 'puzzle_id=generated:*'
summ s-hitori "$OUT"/h10-{basic,full}.csv "$OUT"/h20-{basic,full}.csv
if [ $have_corpora = 1 ]; then
  for s in 5 10 15 20 25; do
    summ "s-tud-$s" "$OUT/tud-basic.csv" "$OUT/tud-full.csv" --where "size=${s}x$s"
  done
fi
abc_files=("$OUT"/{sm-abc,sh-abc,se-abc,demo-abc,demo-hybrid,demo-cross}.csv)
[ $have_corpora = 1 ] && abc_files+=("$OUT/top20-abc.csv")
summ s-abc "${abc_files[@]}"
summ s-abc-solved "${abc_files[@]}" --where status=solved
summ s-abc-unsolved "${abc_files[@]}" --where status=unsolved
summ s-abc-long "${abc_files[@]}" --where 'status=solved,cycles>=1500'
summ s-abc-few "${abc_files[@]}" --where 'empties_after_presolve<=8'
bt_files=("$OUT"/{sm-bt,sh-bt}.csv)
[ $have_corpora = 1 ] && bt_files+=("$OUT"/{top-bt,f1106-bt}.csv)
summ s-bt "${bt_files[@]}"
summ s-cost "$OUT"/{sm-abc,sm-s50,sm-s200,sm-s400}.csv --where seed=0
summ s-k16 "$OUT/demo-k16.csv" "$OUT/sh-k16.csv" --best-of 1,2,4,8,16
summ s-trace "$OUT/sm-trace.csv" "$OUT/demo-abc.csv" --trace "$OUT/sm-trace.trace.csv" --trace "$OUT/demo-abc.trace.csv"

echo "reproduce: writing docs/reproduction-results.md"
export REPRO_DATE REPRO_REV REPRO_NPROC REPRO_CPU REPRO_BIN REPRO_SHARED REPRO_SECS REPRO_LOAD
REPRO_LOAD=$load
REPRO_DATE=$(date -u +"%Y-%m-%d %H:%M UTC")
REPRO_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then REPRO_REV="$REPRO_REV (+ uncommitted changes)"; fi
if [ $report_only = 1 ]; then
  REPRO_REV="$(cat "$OUT/rev.txt" 2>/dev/null || echo unknown) (rows); $REPRO_REV (comparisons and table, --report-only)"
else
  echo "$REPRO_REV" >"$OUT/rev.txt"
fi
REPRO_NPROC=$(nproc)
REPRO_CPU=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
REPRO_CPU=${REPRO_CPU:-$(uname -m)}
REPRO_BIN=$BIN
REPRO_SHARED=$([ $have_corpora = 1 ] && echo "$shared" || echo "")
REPRO_SECS=$(( $(date +%s) - start ))
if [ $report_only = 1 ]; then REPRO_SECS=$(cat "$OUT/secs.txt" 2>/dev/null || echo "?"); else echo "$REPRO_SECS" >"$OUT/secs.txt"; fi
python3 scripts/reproduce_table.py "$OUT" docs/reproduction-results.md
echo "reproduce: done in $(( $(date +%s) - start )) s; see docs/reproduction-results.md"
