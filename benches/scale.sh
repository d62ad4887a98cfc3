#!/usr/bin/env bash
# Reports and runs at scale: the time and peak memory (`/usr/bin/time -v`) that
# docs/reports.md ("Reports at cluster scale", the HTML page of a sweep) and docs/promises.md
# ("Bounded memory") quote. Not a test: it prints one line per measurement.
#
#   benches/scale.sh [BINDIR]      # BINDIR defaults to target/release; needs python3
#
# Inputs are made from the bundled datasets: datasets/hitori5 (41 puzzles) run as
# mrv,row x SEEDS seeds (default 12,200: 1,000,400 rows), the same plan again (the "new" side
# of compare), in 4 shards (for merge); 16,000 and 1,600 one-row configurations (rows of that run
# with distinct params); datasets/sudoku-hard (51 lines) repeated to 1,000,000 lines for
# `backtrack` at 2 threads, with and without the end-of-run summary, and resumed after a SIGINT.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release}")
seeds=${SEEDS:-12200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "host $(hostname), $(nproc) CPUs, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
# measure LABEL CMD...: runs CMD under /usr/bin/time -v, prints wall, peak RSS and the load.
measure() {
  local label=$1
  shift
  if ! /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"; then
    echo "$label: FAILED"
    cat "$tmp/err.txt" "$tmp/time.txt" >&2
    return 1
  fi
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$tmp/time.txt")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
  printf '%s: %s wall, %.1f MB peak RSS, load %s\n' "$label" "$wall" "$(echo "$rss / 1024" | bc -l)" \
    "$(cut -d' ' -f1 /proc/loadavg)"
}
rows() { echo $(($(wc -l <"$1") - 1)); }
hitori=(--quiet --no-summary --force --threads 2 --dataset datasets/hitori5 --strategy mrv,row --seeds "$seeds")

mkdir -p "$tmp/a" "$tmp/b" "$tmp/shards"
measure "bench-run hitori5 mrv,row x $seeds seeds, 2 threads" \
  "$bin/bench-run" "${hitori[@]}" --output "$tmp/a/run.csv"
echo "  $(rows "$tmp/a/run.csv") rows, $(du -m "$tmp/a/run.csv" | cut -f1) MB"
"$bin/bench-run" "${hitori[@]}" --output "$tmp/b/run.csv" >/dev/null
for k in 1 2 3 4; do
  "$bin/bench-run" "${hitori[@]}" --shard "$k/4" --output "$tmp/shards/s$k.csv" >/dev/null
done
measure "summary of $(rows "$tmp/a/run.csv") rows (two strategies)" \
  "$bin/bench-report" summary "$tmp/a/run.csv"
measure "compare of two $(rows "$tmp/a/run.csv")-row runs" \
  "$bin/bench-report" compare "$tmp/a" "$tmp/b" --times warn
measure "merge of 4 shards of $(rows "$tmp/shards/s1.csv") rows" \
  "$bin/bench-report" merge "$tmp"/shards/s?.csv --output "$tmp/merged.csv"
measure "merge of one $(rows "$tmp/a/run.csv")-row file" \
  "$bin/bench-report" merge "$tmp/a/run.csv" --output "$tmp/merged1.csv"
measure "plot of $(rows "$tmp/a/run.csv") rows" \
  "$bin/bench-report" plot "$tmp/a/run.csv" --out "$tmp/plots"

# A sweep of many one-row configurations: the run's first rows, each given its own params.
for n in 1600 16000; do
  python3 - "$tmp/a/run.csv" "$tmp/configs-$n.csv" "$n" <<'EOF'
import csv, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, newline="") as f, open(dst, "w", newline="") as g:
    r = csv.DictReader(f)
    w = csv.DictWriter(g, fieldnames=r.fieldnames, lineterminator="\n")
    w.writeheader()
    for i, row in zip(range(n), r):
        row["params"] = f"max_solutions=1;sweep={i}"
        row["job"] = str(i)
        w.writerow(row)
EOF
  measure "summary of $n one-row configurations" "$bin/bench-report" summary "$tmp/configs-$n.csv"
  measure "html of $n one-row configurations" \
    "$bin/bench-report" html "$tmp/configs-$n.csv" --out "$tmp/html-$n"
  echo "  page $(du -k "$tmp/html-$n/index.html" | cut -f1) KB"
done

# The wall-clock budget on a grid whose solution count never ends: a 64x64 cyclic Latin square
# with a planted non-adjacent duplicate every few cells (tests/it/cli_interrupt.rs makes the
# same grid), three strategies, three runs: every row should be `timeout` just after 0.3 s.
mkdir -p "$tmp/big"
python3 - "$tmp/big/big.txt" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    for r in range(64):
        f.write(" ".join(str((r + c + (2 if r % 3 == 0 and c % 4 == 0 and c + 2 < 64 else 0)) % 64 + 1)
                         for c in range(64)) + "\n")
EOF
for k in 1 2 3; do
  "$bin/bench-run" --quiet --force --threads 1 --dataset "$tmp/big" --strategy row,mrv,mrv-dyn \
    --rules basic --timeout 0.3 --count-solutions 4000000000 --output "$tmp/big-$k.csv" >/dev/null
done
python3 - "$tmp"/big-?.csv <<'EOF'
import csv, sys
rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f))]
walls = [float(r["wall_s"]) for r in rows]
print(f"64x64 --timeout 0.3, {len(rows)} rows of 3 runs: statuses {sorted(set(r['status'] for r in rows))}, "
      f"wall_s {min(walls):.3f}-{max(walls):.3f} s, load {open('/proc/loadavg').read().split()[0]}")
EOF

# One million Sudoku lines.
mkdir -p "$tmp/sudoku"
python3 - datasets/sudoku-hard/generated.txt "$tmp/sudoku/million.txt" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
with open(sys.argv[2], "w") as f:
    for i in range(1_000_000):
        f.write(lines[i % len(lines)])
EOF
sudoku=(--quiet --force --threads 2 --dataset "$tmp/sudoku" --strategy backtrack)
measure "bench-run 1,000,000 Sudoku lines, backtrack, 2 threads, --no-summary" \
  "$bin/bench-run" "${sudoku[@]}" --no-summary --output "$tmp/s-full.csv"
measure "the same with the end-of-run summary" \
  "$bin/bench-run" "${sudoku[@]}" --output "$tmp/s-sum.csv"
"$bin/bench-run" "${sudoku[@]}" --no-summary --output "$tmp/s-int.csv" >/dev/null 2>"$tmp/int.txt" &
pid=$!
# A third of the way through (the full run above took about 2.6 s here); INTERRUPT_AFTER overrides.
after=${INTERRUPT_AFTER:-0.9}
sleep "$after"
if ! kill -INT "$pid" 2>/dev/null; then
  echo "  the run ended before the SIGINT at $after s: set INTERRUPT_AFTER lower" >&2
  exit 1
fi
wait "$pid" || true
echo "  interrupted after $after s: $(tail -1 "$tmp/int.txt")"
measure "resume after that SIGINT" \
  "$bin/bench-run" --quiet --threads 2 --dataset "$tmp/sudoku" --strategy backtrack --no-summary \
  --output "$tmp/s-int.csv" --resume
# Times aside (wall_s, cpu_s and the columns after them), the resumed CSV equals the full run's.
strip() { python3 -c '
import csv, sys
r = csv.reader(open(sys.argv[1], newline=""))
head = next(r)
keep = [i for i, c in enumerate(head) if c not in ("wall_s", "cpu_s", "repeats", "max_rss_kib")]
for row in r:
    print(",".join(row[i] for i in keep))' "$1"; }
if cmp -s <(strip "$tmp/s-full.csv") <(strip "$tmp/s-int.csv"); then
  echo "  resumed CSV equals the uninterrupted run's, times aside"
else
  echo "  resumed CSV DIFFERS from the uninterrupted run's"
fi
