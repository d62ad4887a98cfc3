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
# The measurements are plan files, each one run and one CSV: plans/reproduce.toml (the bundled
# datasets), plans/reproduce-corpora.toml (the public corpora) and plans/reproduce-givens.toml
# (the givens sweep, on puzzles bench-gen makes first); the few runs a plan cannot hold are
# commands, with the reason beside them. Every run has a fixed seed, so every deterministic
# counter (nodes, cycles, status, best conflicts) is identical on every machine and every
# rerun; only wall_s varies. Runs whose times are reported use one thread. Intermediate CSVs,
# summaries and the command list (commands.tsv: each run, report and its exit code) go to
# results/reproduce/ (git-ignored); docs/reproduction-results.md is rewritten.
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
# Every measurement that can be one is a plan file (plans/reproduce*.toml): one run, one CSV,
# every job once; the report below picks each figure's rows out of it with --where and the
# ab selectors. What stays a command says why.
echo "reproduce: the bundled datasets (plans/reproduce.toml: Hitori, Sudoku ABC, backtracking, 16 colonies)"
bench reproduce --plan plans/reproduce.toml
if [ $have_corpora = 1 ]; then
  echo "reproduce: the public corpora (plans/reproduce-corpora.toml)"
  # The plan's paths are fixed and the corpora live wherever PUZZLEBENCH_SHARED says: link them
  # in under their own names (the dataset names), and write the first 20 puzzles of top1465.
  mkdir -p "$OUT/corpora"
  for f in "$tud" "$top" "$f1106"; do ln -sfn "$(realpath "$f")" "$OUT/corpora/$(basename "$f")"; done
  awk '!/^#/ && NF { print; if (++k == 20) exit }' "$top" >"$OUT/corpora/top1465-first20.txt"
  bench corpora --plan plans/reproduce-corpora.toml
fi

echo "reproduce: convergence traces"
# Commands, not plan parts: a plan of several parts cannot carry a --trace, and `bench-report
# summary --trace` takes every traced job (its --where filters rows, not traces), so each trace
# is a run of exactly the jobs it describes. Both repeat jobs of plans/reproduce.toml (same
# seeds, so the same rows); the table reads only their traces.
# The first 5 seeds of sudoku-medium's abc (two threads: only the trace is read, no time).
bench sm-trace --dataset datasets/sudoku-medium --strategy abc --seed 0 --seeds 5 --threads 2 \
  --trace "$OUT/sm-trace.trace.csv"
# The demo's abc over 100 seeds: colony 0 of the plan's 16-colony run.
bench demo-trace --dataset datasets/sudoku-demo --strategy abc --seed 0 --seeds 100 --threads 1 \
  --trace "$OUT/demo-trace.trace.csv"

echo "reproduce: claims 8-9, pure abc against the number of givens"
# The inputs first (bench-gen, a command: a plan runs solvers, it makes no puzzles): unique
# puzzles with exactly N givens, one file per N, the N that plans/reproduce-givens.toml lists.
mkdir -p "$OUT/givens"
t0=$(date +%s.%N)
rc=0
for g in $(seq 26 44); do
  "$gen_bin" sudoku --givens "$g" --count "$givens_count" --seed 1 --out "$OUT/givens/g$g.txt" --force >/dev/null || rc=$?
done
record givens-gen "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" \
  "for N in 26..44: bench-gen sudoku --givens N --count $givens_count --seed 1 --out $OUT/givens/gN.txt --force"
bench givens --plan plans/reproduce-givens.toml --no-summary

echo "reproduce: parallelism (1 vs 2 threads)"
# The best of K = 1, 2, 4, 8, 16 colonies is plans/reproduce.toml's 16-colony runs (demo abc,
# sudoku-hard abc-hybrid). The whole-batch times stay commands: each is the wall time of a whole
# bench-run process at a thread count (a plan has one --threads), best of 3 runs of the same
# jobs (a plan refuses to run a job twice). Other jobs share the machine: the load average is
# written beside each time.
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
# Every figure's rows are picked out of the plans' CSVs: --where narrows to a dataset (and to
# colony 0 where a 16-colony run holds the single-colony runs), --a/--b choose the two
# configurations.
M="$OUT/reproduce.csv"
C="$OUT/corpora.csv"
for h in 5 10 20; do
  for r in basic full; do
    ab "ab-h$h-$r" "$M" --where "dataset=hitori$h" --a "strategy=mrv,rules=$r" --b "strategy=row,rules=$r"
  done
done
if [ $have_corpora = 1 ]; then
  ab ab-tud-basic "$C" --where dataset=tud-singles-5to25 --a strategy=mrv,rules=basic --b strategy=row,rules=basic
  ab ab-tud-full  "$C" --where dataset=tud-singles-5to25 --a strategy=mrv,rules=full --b strategy=row,rules=full
  ab ab-top20-hybrid "$C" --where dataset=top1465-first20 --a strategy=abc --b strategy=abc-hybrid
fi
# The article's configuration: colony size 100, limit 50 (the plan also holds other sizes and
# the adaptive limit).
ab ab-demo-hybrid "$M" --where dataset=sudoku-demo,colony=0 --a strategy=abc,limit=50,neighbourhood=box --b strategy=abc-hybrid
ab ab-se-hybrid "$M" --where dataset=sudoku-easy --a strategy=abc --b strategy=abc-hybrid
ab ab-sm-hybrid "$M" --where dataset=sudoku-medium --a strategy=abc,colony_size=100,limit=50 --b strategy=abc-hybrid,limit=50
ab ab-sh-hybrid "$M" --where dataset=sudoku-hard,colony=0 --a strategy=abc --b strategy=abc-hybrid
ab ab-demo-limit "$M" --where dataset=sudoku-demo,colony=0 --a strategy=abc,limit=50,neighbourhood=box --b strategy=abc,limit=adaptive
ab ab-sm-limit-abc "$M" --where dataset=sudoku-medium --a strategy=abc,colony_size=100,limit=50 --b strategy=abc,limit=adaptive
ab ab-sm-limit-hybrid "$M" --where dataset=sudoku-medium --a strategy=abc-hybrid,limit=50 --b strategy=abc-hybrid,limit=adaptive
ab ab-demo-cross "$M" --where dataset=sudoku-demo,colony=0 --a strategy=abc,limit=50,neighbourhood=box --b strategy=abc,neighbourhood=cross-box
t0=$(date +%s.%N)
rc=0
"$report_bin" summary "$OUT/givens.csv" --format json >"$OUT/givens.summary.json" || rc=$?
record givens-summary "$rc" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}')" \
  "bench-report summary $OUT/givens.csv --format json"

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
summ s-h5-gen "$M" --where 'dataset=hitori5,puzzle_id=generated:*'
summ s-hitori "$M" --where kind=hitori
if [ $have_corpora = 1 ]; then
  for s in 5 10 15 20 25; do
    summ "s-tud-$s" "$C" --where "dataset=tud-singles-5to25,size=${s}x$s"
  done
fi
runs=("$M")
[ $have_corpora = 1 ] && runs+=("$C")
# The ABC runs of the article's configuration (box or cross-box moves), one colony each; rows
# without a limit parameter (Hitori, backtrack) do not match.
abc=colony=0,colony_size=100,limit=50
summ s-abc "${runs[@]}" --where "$abc"
summ s-abc-solved "${runs[@]}" --where "$abc,status=solved"
summ s-abc-unsolved "${runs[@]}" --where "$abc,status=unsolved"
summ s-abc-long "${runs[@]}" --where "$abc,status=solved,cycles>=1500"
summ s-abc-few "${runs[@]}" --where "$abc,empties_after_presolve<=8"
summ s-bt "${runs[@]}" --where strategy=backtrack
summ s-cost "$M" --where dataset=sudoku-medium,strategy=abc,limit=50,seed=0
# The 16-colony runs; sudoku-hard's abc-hybrid has 16 colonies on seeds 0..3 only.
summ s-k16-demo "$M" --where dataset=sudoku-demo,strategy=abc,limit=50,neighbourhood=box --best-of 1,2,4,8,16
summ s-k16-hard "$M" --where 'dataset=sudoku-hard,strategy=abc-hybrid,seed<4' --best-of 1,2,4,8,16
summ s-trace "$OUT/sm-trace.csv" "$OUT/demo-trace.csv" --trace "$OUT/sm-trace.trace.csv" --trace "$OUT/demo-trace.trace.csv"

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
