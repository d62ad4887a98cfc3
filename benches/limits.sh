#!/usr/bin/env bash
# The limit cases of issue 37, as a benchmark (not a test: the tests in tests/it/cli_limits.rs
# assert the behaviour; this prints the figures). Three runs, one thread, on 4 bundled
# sudoku-hard puzzles (solutions known):
#   memory  a Python solver allocating 1 MiB every 10 ms (~100 MB/s), and one allocating
#           64 MiB at once every step (~GB/s), --memory-limit 256M, beside a calm solver:
#           status, ended_by and peak RSS past the limit per row
#   cpu     a solver whose forked child spins, --cpu-limit 0.5: status, ended_by, cpu_s, wall_s
#   claim   a solver answering `unsolved` (a no-solution claim) on every puzzle: wrong rows,
#           exit 1
# and what is left running afterwards. Prints the load average before and after.
#   benches/limits.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-target/release/bench-run}
[ -x "$bin" ] || { echo "limits.sh: build first (cargo build --release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
head -4 datasets/sudoku-hard/*.txt 2>/dev/null | grep -E '^[0-9.]{81}' | head -4 > "$tmp/four.txt" || true
if [ "$(wc -l < "$tmp/four.txt")" -lt 4 ]; then
  # The bundled hard list's first puzzles, whatever its file is called.
  find datasets/sudoku-hard -type f -name '*.txt' | sort | head -1 | xargs head -8 | grep -E '^[0-9.]{81}' | head -4 > "$tmp/four.txt"
fi
cat > "$tmp/slow.py" <<'PY'
import sys, time
hog = []
for line in sys.stdin:
    while True:
        hog.append(b'\x01' * (1 << 20))
        time.sleep(0.01)
PY
cat > "$tmp/fast.py" <<'PY'
import sys
hog = []
for line in sys.stdin:
    while True:
        hog.append(b'\x01' * (64 << 20))
PY
cat > "$tmp/child.sh" <<'SH'
tab=$(printf '\t')
while IFS="$tab" read -r job seed puzzle; do
    sh -c 'while :; do :; done' &
    wait
done
SH
fault=$PWD/tests/solvers/fault.sh
cat > "$tmp/m.toml" <<TOML
[solver.calm]
kind = "sudoku"
command = ["$fault"]
mode = "batch"
env = { FAULT = "unknown" }
[solver.slowhog]
kind = "sudoku"
command = ["python3", "$tmp/slow.py"]
mode = "batch"
[solver.fasthog]
kind = "sudoku"
command = ["python3", "$tmp/fast.py"]
mode = "batch"
[solver.burn]
kind = "sudoku"
command = ["sh", "$tmp/child.sh"]
mode = "batch"
[solver.nosol]
kind = "sudoku"
command = ["$fault"]
mode = "batch"
env = { FAULT = "unsolved" }
TOML
cols() { python3 - "$1" "$2" <<'PY'
import csv, sys
cols = sys.argv[2].split(',')
for r in csv.DictReader(open(sys.argv[1])):
    print('  ' + '  '.join(f"{c}={r.get(c, '')}" for c in cols))
PY
}
echo "== memory: --memory-limit 256M (262144 KiB), --timeout 120 as a guard"
"$bin" -q --no-summary --threads 1 --solvers "$tmp/m.toml" --strategy slowhog,fasthog,calm \
  --dataset "$tmp/four.txt" --memory-limit 256M --timeout 120 --output "$tmp/mem.csv" >/dev/null
cols "$tmp/mem.csv" strategy,puzzle_id,status,ended_by,max_rss_kib,wall_s
python3 - "$tmp/mem.csv" <<'PY'
import csv, sys
for s in ("slowhog", "fasthog"):
    over = [int(r["max_rss_kib"]) - 262144 for r in csv.DictReader(open(sys.argv[1])) if r["strategy"] == s]
    print(f"  {s}: peak past the limit {min(over)/1024:.2f} to {max(over)/1024:.2f} MiB over {len(over)} jobs")
PY
echo "== cpu: --cpu-limit 0.5, a forked child spinning"
"$bin" -q --no-summary --threads 1 --solvers "$tmp/m.toml" --strategy burn,calm \
  --dataset "$tmp/four.txt" --cpu-limit 0.5 --timeout 120 --output "$tmp/cpu.csv" >/dev/null
cols "$tmp/cpu.csv" strategy,puzzle_id,status,ended_by,cpu_s,wall_s
echo "== claim: a solver answering unsolved on puzzles whose solutions are known"
set +e
"$bin" -q --no-summary --threads 1 --solvers "$tmp/m.toml" --strategy nosol \
  --dataset datasets/sudoku-hard --output "$tmp/claim.csv" >/dev/null 2>"$tmp/claim.err"
echo "  exit $?"
set -e
python3 - "$tmp/claim.csv" <<'PY'
import csv, sys, collections
c = collections.Counter((r["status"], r["claim"]) for r in csv.DictReader(open(sys.argv[1])))
print("  rows by (status, claim):", dict(c))
PY
left=$(pgrep -f "$tmp/" || true)
echo "left running: ${left:-nothing}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
