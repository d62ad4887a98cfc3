#!/usr/bin/env bash
# Per-job cost split of the harness (issue 13 item 1) from callgrind instruction counts, which
# repeat exactly under load: solve, verify, format, and the rest (feed, executor, delivery,
# progress), in instructions (Ir) per job, for a --threads 1 run of a corpus slice.
#   benches/harness-profile.sh [BIN]    # BIN defaults to target/release/bench-run
# Slices: 17-clue first 1,000 × 20 seeds, top1465 first 300 × 20, every 10th tud puzzle × 20.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/bench-run}
corpora=${CORPORA:-${PUZZLEBENCH_SHARED:-../shared}/corpora}
tmp=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
head -1000 "$corpora/sudoku/puzzles2_17_clue.txt" >"$tmp/c17.txt"
head -300 "$corpora/sudoku/puzzles3_magictour_top1465.txt" >"$tmp/top.txt"
awk 'NR % 10 == 1' "$corpora/hitori/tud-singles-5to25.tsv" >"$tmp/tud.tsv"
profile() {
  local name=$1 data=$2 strategy=$3
  valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.cg" "$bin" --quiet --no-summary \
    --force --threads 1 -o "$tmp/$name.csv" --dataset "$data" --strategy "$strategy" \
    --seeds 20 >/dev/null 2>"$tmp/$name.log"
  local jobs=$(($(wc -l <"$tmp/$name.csv") - 1))
  # Annotated from outside the worktree: run there, callgrind_annotate shortens the source
  # paths it can open and splits functions' inclusive costs between the two spellings.
  (cd "$tmp" && callgrind_annotate --inclusive=yes --threshold=100 "$name.cg" 2>/dev/null) |
    python3 -c '
import re, sys
name, jobs, cg = sys.argv[1], int(sys.argv[2]), sys.argv[3]
incl, total = {}, 0
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line.rstrip("\n"))
    if not m:
        continue
    ir, rest = int(m.group(1).replace(",", "")), m.group(2)
    if rest.startswith("PROGRAM TOTALS"):
        total = ir
    elif rest.endswith("]") and ":" in rest:  # real symbols, not inlined copies
        fn = rest.split(":", 1)[1].rsplit(" [", 1)[0]
        incl[fn] = max(incl.get(fn, 0), ir)
get = lambda *names: sum(v for k, v in incl.items() if any(k.endswith(n) for n in names))
# The built-in solvers run as closures behind the `Worker` trait (before, `SolverSpec::run`).
solve = get("puzzlebench::solver::Worker>::solve", "puzzlebench::builtin::SolverSpec::run")
verify = get("puzzlebench::verify::check_answer")
# Before the batched executor rows were formatted with the csv crate inside the sink calls.
fmt = get("results::write::csv_line", "results::record::Record::fields", "results::record::Record::write_csv",
          "results::record::Record::write_csv_tail", "results::record::Record::write_csv_head")
opened = get("puzzlebench::dataset::Dataset::open")
rest = total - solve - verify - fmt - opened
print(f"{name}: {jobs} jobs, {total / jobs:,.0f} Ir/job; harness (all but solve and dataset open) {(total - solve - opened) / jobs:,.0f} Ir/job")
# The delivery (journal, reorder, ordered file, progress): the workers run it between jobs,
# in `Shared::hand_over` (before fd7f901 a writer thread ran it, in `execute`).
writer = get("puzzlebench::harness::run::Shared::hand_over", "puzzlebench::harness::run::execute")
print(f"  delivery: {writer / jobs:,.0f} Ir/job, {100 * writer / total:.1f} % of all instructions")
# Batches delivered: calls of Sink::finished, from the call lines of the profile.
names, calls, callee = {}, {}, None
for line in open(cg):
    m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(2):
            names[m.group(1)] = m.group(2).strip()
        callee = m.group(1) if line.startswith("cfn=") else None
    elif line.startswith("calls=") and callee is not None:
        calls[callee] = calls.get(callee, 0) + int(line.split()[0][6:])
        callee = None
batches = sum(n for i, n in calls.items() if names.get(i, "").endswith("Sink>::finished"))
# Chunks are sized by wall time (about 1 ms of jobs each), and callgrind runs the program
# some 50 times slower, more on a loaded machine: its batches are far smaller than in a real
# run, so the per-batch part of "feed, executor, delivery" is larger here and varies with load.
if batches:
    print(f"  batches: {batches:,}, {jobs / batches:.1f} jobs per batch")
# Two parts of the rest: the feed streaming the puzzles (each parsed once for all its seeds;
# the rest of the feed is inlined into the worker loop) and the delivery (above); the
# remainder is the worker loop around a job, the hand-out of jobs and the batches.
feed = get("dataset::Puzzles as core::iter::traits::iterator::Iterator>::next")
parts = [("solve", solve), ("verify", verify), ("format rows", fmt), ("feed, executor, delivery, progress", rest),
         ("  of which puzzles streamed", feed), ("  of which delivery", writer), ("dataset open (once per run)", opened)]
for k, v in parts:
    print(f"  {k:34s} {v / jobs:9,.0f} Ir/job {100 * v / total:5.1f} %")
' "$name" "$jobs" "$tmp/$name.cg"
}
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)  bin: $bin"
profile 17-clue "$tmp/c17.txt" backtrack
profile top1465 "$tmp/top.txt" backtrack
profile tud "$tmp/tud.tsv" mrv
