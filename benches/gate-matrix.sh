#!/usr/bin/env bash
# The time gate's matrix (issue 36): does `bench-report compare --times fail` catch a real 3x
# slowdown whatever the host's load, and stay quiet on no change?
#
#   benches/gate-matrix.sh [BINDIR]     # BINDIR defaults to target/release
#
# An external solver (examples/external/echo_solver.rs, built with rustc -O) does a fixed
# amount of CPU work a job ($WORK rounds of integer arithmetic, the same under any load):
# about 2 ms in the baseline, three times that in the "slow" run. Load is made with `yes`
# processes, one per busy core. Each line prints the case, the host CPU busy share during the run and the exit code
# of compare; the expected code is in brackets.
#   1. 2 ms baseline (quiet) against 6 ms new, taken quiet, under one busy core, under two  [1]
#   2. 2 ms against 2 ms, the new run under one busy core, 5 tries                          [0]
#   3. a ~2 ms Hitori run (datasets/hitori20, mrv, 7 seeds: 140 jobs) against its own rerun,
#      quiet, 20 tries                                                                   [0,
#      and the report never calls the host noisy]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release}")
jobs=${JOBS:-200}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
rustc -O --edition 2021 -o "$tmp/echo" examples/external/echo_solver.rs
solved=435269781682571493197834562826195347374682915951743628519326874248957136763418259
mkdir -p "$tmp/one"
grep -v '^#' datasets/sudoku-demo/demo.txt | head -1 >"$tmp/one/one.txt"
manifest() { # NAME WORK
  printf '[solver.spin]\nkind = "sudoku"\ncommand = ["%s"]\nmode = "batch"\nenv = { ANSWER = "%s", WORK = "%s" }\n' \
    "$tmp/echo" "$solved" "$2" >"$tmp/$1.toml"
}
run() { # MANIFEST OUT
  "$bin/bench-run" --quiet --force --threads 1 --solvers "$tmp/$1.toml" --strategy spin \
    --dataset "$tmp/one" --seeds "$jobs" --output "$2" >/dev/null
}
median_cpu_ms() { # CSV
  python3 - "$1" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"{statistics.median(float(r['cpu_s']) for r in rows) * 1e3:.3f}")
EOF
}
sum_wall_ms() { # CSV
  python3 -c "import csv, sys; print(f\"{sum(float(r['wall_s']) for r in csv.DictReader(open(sys.argv[1]))) * 1e3:.2f}\")" "$1"
}
busy() { # N: start N spinning processes
  for _ in $(seq "$1"); do yes >/dev/null & done
}
calm() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; sleep 2; }
# Host CPU busy share (all CPUs, from /proc/stat) between `mark` and `load`: the load during
# the run itself (its own core included: one single-threaded run alone reads about 50% on two
# CPUs), where the one-minute load average would lag behind the `yes` processes.
mark() {
  local c
  read -r -a c </proc/stat # cpu user nice system idle iowait irq softirq steal ...
  m_busy=$((c[1] + c[2] + c[3] + c[6] + c[7] + c[8]))
  m_all=$((m_busy + c[4] + c[5]))
}
load() {
  local b=$m_busy a=$m_all
  mark
  python3 -c "print(f'host {($m_busy - $b) / max(1, $m_all - $a) * 100:.0f}% busy')"
}
gate() { # BASE NEW -> exit code of compare, and whether it called the host noisy
  set +e
  "$bin/bench-report" compare "$1" "$2" --times fail >"$tmp/cmp.txt" 2>&1
  local code=$?
  set -e
  local noisy=no
  grep -qi noisy "$tmp/cmp.txt" && noisy=yes
  echo "exit $code, noisy-host note: $noisy"
}

# Calibrate WORK to about 2 ms of CPU a job on this host.
manifest cal 10000000
mkdir -p "$tmp/cal"
run cal "$tmp/cal/x.csv"
cal=$(median_cpu_ms "$tmp/cal/x.csv")
work=$(python3 -c "print(int(10000000 * 2.0 / $cal))")
manifest w1 "$work"
manifest w3 $((3 * work))
echo "host $(hostname), $(nproc) CPUs, $(date -u +%FT%TZ); 10M rounds took $cal ms a job, so WORK=$work for ~2 ms"

mkdir -p "$tmp/base" "$tmp/new"
mark
run w1 "$tmp/base/spin.csv"
echo "baseline: median cpu $(median_cpu_ms "$tmp/base/spin.csv") ms/job, $(load)"
for n in 0 1 2; do
  busy "$n"
  sleep 1
  mark
  run w3 "$tmp/new/spin.csv"
  l=$(load)
  calm
  echo "1. 3x slower, $n busy core(s), $l, new median cpu $(median_cpu_ms "$tmp/new/spin.csv") ms: $(gate "$tmp/base" "$tmp/new") [1]"
done
for i in 1 2 3 4 5; do
  busy 1
  sleep 1
  mark
  run w1 "$tmp/new/spin.csv"
  l=$(load)
  calm
  echo "2. same work, 1 busy core, try $i, $l: $(gate "$tmp/base" "$tmp/new") [0]"
done
mkdir -p "$tmp/h1" "$tmp/h2"
for i in $(seq 20); do
  mark
  "$bin/bench-run" --quiet --force --threads 1 --dataset datasets/hitori20 --strategy mrv \
    --seeds 7 --output "$tmp/h1/hitori20.csv" >/dev/null
  "$bin/bench-run" --quiet --force --threads 1 --dataset datasets/hitori20 --strategy mrv \
    --seeds 7 --output "$tmp/h2/hitori20.csv" >/dev/null
  echo "3. hitori20 mrv x 7 seeds ($(sum_wall_ms "$tmp/h2/hitori20.csv") ms) against its rerun, quiet, try $i, $(load): $(gate "$tmp/h1" "$tmp/h2") [0]"
done
