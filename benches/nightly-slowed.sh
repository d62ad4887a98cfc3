#!/usr/bin/env bash
# Does the nightly gate catch a slowed solver? (issue 36)
#
#   benches/nightly-slowed.sh [FACTOR]      # FACTOR defaults to 3
#
# Builds this commit twice in a scratch git worktree: as it is, and with `backtrack` made
# FACTOR times slower (sudoku::backtrack::solve searches FACTOR times and keeps the last
# answer: same counters, same answers, FACTOR times the time). Runs `NIGHTLY_TIMES=fail
# scripts/nightly.sh` with each build against the committed results/baseline/, on a quiet host
# and under one busy core (a `yes` process), and prints each night's exit code (0 pass, 1
# regression, 3 times not comparable) with the host's CPU busy share during it.
# Expected: the slowed build exits 1 in both; the build as it is exits 0 (quiet).
set -euo pipefail
cd "$(dirname "$0")/.."
factor=${1:-3}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; git worktree remove --force "$tmp/wt" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add --quiet --detach "$tmp/wt" HEAD
mark() {
  local c
  read -r -a c </proc/stat # cpu user nice system idle iowait irq softirq steal ...
  m_busy=$((c[1] + c[2] + c[3] + c[6] + c[7] + c[8]))
  m_all=$((m_busy + c[4] + c[5]))
}
busy_share() {
  local b=$m_busy a=$m_all
  mark
  python3 -c "print(f'host {($m_busy - $b) / max(1, $m_all - $a) * 100:.0f}% busy')"
}
night() { # LABEL BUSY
  local label=$1 n=$2 code
  for _ in $(seq "$n"); do yes >/dev/null & done
  mark
  set +e
  (cd "$tmp/wt" && NIGHTLY_TIMES=fail NIGHTLY_OUT="$tmp/nights-$label" scripts/nightly.sh) \
    >"$tmp/$label-$n.log" 2>&1
  code=$?
  set -e
  local share
  share=$(busy_share)
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  echo "$label build, $n busy core(s), $share: nightly exit $code"
  grep -E '^\| *(sudoku-hard|sudoku)[^|]*\| *backtrack' "$tmp/$label-$n.log" | head -3 || true
  sleep 2
}
echo "host $(hostname), $(nproc) CPUs, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), slowdown x$factor"
(cd "$tmp/wt" && cargo build --release --quiet --bins)
night as-is 0
python3 - "$tmp/wt/src/sudoku/backtrack.rs" "$factor" <<'EOF'
import sys
path, factor = sys.argv[1], int(sys.argv[2])
src = open(path).read()
old = "    run(search, puzzle, false, max_solutions, node_limit, stop)\n}"
assert src.count(old) == 1, "backtrack::solve changed shape; update benches/nightly-slowed.sh"
new = ("    for _ in 1..%d {\n"
       "        std::hint::black_box(run(search, puzzle, false, max_solutions, node_limit, stop));\n"
       "    }\n" % factor) + old
open(path, "w").write(src.replace(old, new))
EOF
(cd "$tmp/wt" && cargo build --release --quiet --bins)
night slowed 0
night slowed 1
