#!/usr/bin/env bash
# Hitori per-size wall times as issue 30 states them: for each binary, ROUNDS runs of
# `bench-run --strategy mrv --threads 1` over the corpus, interleaved binary by binary (so all
# see the same machine state), each puzzle's FASTEST wall_s over the rounds, then per size the
# median and maximum over puzzles; Tatham's Singles (min of ROUNDS calls, deduction only) in
# the same minutes when SINGLES is set.
#   benches/hitori-tud.sh ROUNDS BIN [BIN...]
#   SINGLES=DIR/singlesbench (scripts/peers/singles.sh)  CORPUS=... (default: the tud corpus)
#   SOLUTIONS=2 proves uniqueness (as --count-solutions 2; default 1)
set -euo pipefail
rounds=${1:?usage: hitori-tud.sh ROUNDS BIN [BIN...]}
shift
[ $# -ge 1 ] || { echo "hitori-tud.sh: give at least one bench-run binary" >&2; exit 2; }
corpus=${CORPUS:-${PUZZLEBENCH_SHARED:-../shared}/corpora/hitori/tud-singles-5to25.tsv}
solutions=${SOLUTIONS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  corpus: $corpus  rounds: $rounds  solutions: $solutions"
for k in $(seq "$rounds"); do
  i=0
  for bin in "$@"; do
    "$bin" --dataset "$corpus" --strategy mrv --threads 1 --count-solutions "$solutions" \
      --quiet --no-summary --force --output "$tmp/b$i.r$k.csv" >/dev/null
    i=$((i + 1))
  done
  if [ -n "${SINGLES:-}" ]; then "$SINGLES" 1 <"$corpus" >"$tmp/singles.r$k.tsv"; fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$rounds" "$#" "$@" <<'PY'
import csv, glob, statistics, sys
from collections import defaultdict
tmp, rounds, nbin, bins = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
def key(s):
    w, h = s.split("x")
    return (int(w), int(h))
tables = []
for i in range(nbin):
    best, size, nodes, bad = {}, {}, defaultdict(set), 0
    for k in range(1, rounds + 1):
        for r in csv.DictReader(open(f"{tmp}/b{i}.r{k}.csv")):
            p = r["puzzle_id"]
            t = float(r["wall_s"]) * 1e6
            best[p] = min(best.get(p, t), t)
            size[p] = r["size"]
            nodes[p].add(r["nodes"])
            bad += not (r["status"] == "solved" and r["verified"] == "true")
    per = defaultdict(list)
    for p, t in best.items():
        per[size[p]].append(t)
    tables.append((bins[i], per, sum(len(v) > 1 for v in nodes.values()), bad))
singles = defaultdict(dict)
for f in sorted(glob.glob(f"{tmp}/singles.r*.tsv")):
    for n, line in enumerate(open(f)):
        s, t, ok = line.rstrip("\n").split("\t")[:3]
        singles[s][n] = min(singles[s].get(n, float(t)), float(t))
sizes = sorted(tables[0][1], key=key)
head = "size    n    " + "  ".join(f"{b[-28:]:>28}" for b, *_ in tables)
if singles:
    head += f"  {'singles':>20}"
print(head + "   (median / max µs of each puzzle's fastest run)")
for s in sizes:
    line = f"{s:<8}{len(tables[0][1][s]):<5}" + "  ".join(
        f"{statistics.median(per[s]):>13.1f} / {max(per[s]):>10.1f}" for _, per, *_ in tables)
    if singles:
        v = list(singles[s].values())
        line += f"  {statistics.median(v):>9.1f} / {max(v):>8.1f}"
    print(line)
for b, per, varying, bad in tables:
    print(f"{b}: {bad} rows not solved+verified, {varying} puzzles whose nodes varied")
PY
