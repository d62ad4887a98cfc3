#!/usr/bin/env bash
# Side-by-side Hitori table per grid size: puzzlebench's `mrv` and `row` (default `full` rules,
# one thread, `--repeat R`) and Simon Tatham's
# Singles solver (deduction only, min of R calls, built by scripts/peers/singles.sh), on the
# same corpus in one run of this script, so both see the same machine state.
#
# Usage: scripts/peers/hitori-sizes.sh SINGLESBENCH [CORPUS_TSV [BENCH_RUN [R]]]
#   SINGLESBENCH  the binary scripts/peers/singles.sh builds (DIR/singlesbench)
#   CORPUS_TSV    default ../shared/corpora/hitori/tud-singles-5to25.tsv
#   BENCH_RUN     default target/release/bench-run
#   R             repeats per puzzle for both (default 3)
#   SOLUTIONS (env) puzzlebench searches for up to this many solutions (default 1, the first;
#                 2 proves uniqueness, as `--count-solutions 2`)
# Prints, per size: puzzles, then for each solver the solved count and median / max µs.
# The two times are not the same quantity in one respect: Singles stops at its deductions (it
# proves nothing about uniqueness and gives up where they stall), while puzzlebench's rows
# with SOLUTIONS=2 include the search that proves the solution unique.
set -euo pipefail
cd "$(dirname "$0")/../.."
singles=${1:?usage: hitori-sizes.sh SINGLESBENCH [CORPUS_TSV [BENCH_RUN [R]]]}
corpus=${2:-../shared/corpora/hitori/tud-singles-5to25.tsv}
bin=${3:-target/release/bench-run}
reps=${4:-3}
solutions=${SOLUTIONS:-1}
[ -x "$singles" ] || { echo "hitori-sizes.sh: $singles is not an executable (build it with scripts/peers/singles.sh)" >&2; exit 2; }
[ -r "$corpus" ] || { echo "hitori-sizes.sh: cannot read corpus $corpus" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "puzzlebench: $bin, --repeat $reps --count-solutions $solutions; singles: $singles, min of $reps"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" --dataset "$corpus" --strategy mrv,row --threads 1 --repeat "$reps" \
  --count-solutions "$solutions" --quiet \
  --no-summary --force --output "$tmp/pb.csv" >/dev/null
"$singles" "$reps" <"$corpus" >"$tmp/singles.tsv"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp/pb.csv" "$tmp/singles.tsv" <<'PY'
import csv, statistics, sys
from collections import defaultdict

def size_key(s):
    w, h = s.split("x")
    return (int(w), int(h))

times = defaultdict(lambda: defaultdict(list))  # size -> solver -> [µs]
solved = defaultdict(lambda: defaultdict(int))
count = defaultdict(int)
for r in csv.DictReader(open(sys.argv[1])):
    size, who = r["size"], r["strategy"]
    times[size][who].append(float(r["wall_s"]) * 1e6)
    ok = r["status"] == "solved" and r["verified"] == "true"
    solved[size][who] += ok
    if who == "mrv":
        count[size] += 1
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("\t")
    if len(f) < 3:
        raise SystemExit(f"hitori-sizes.sh: singlesbench printed {line!r}")
    size = f[0]
    times[size]["singles"].append(float(f[1]))
    solved[size]["singles"] += f[2] == "1"
who = ["mrv", "row", "singles"]
print("size    puzzles  " + "  ".join(f"{w + ' solved, median / max µs':>34}" for w in who))
for size in sorted(count, key=size_key):
    cells = []
    for w in who:
        t = sorted(times[size][w])
        cells.append(f"{solved[size][w]:>5}, {statistics.median(t):8.1f} / {t[-1]:8.1f}" if t else "-")
    print(f"{size:<8}{count[size]:>7}  " + "  ".join(f"{c:>34}" for c in cells))
total = sum(count.values())
print(f"{'all':<8}{total:>7}  " + "  ".join(
    f"{sum(solved[s][w] for s in count):>5} solved{'':>21}" for w in who))
PY
