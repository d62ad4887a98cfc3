#!/usr/bin/env bash
# Does the order of --strategy change a time verdict? (issue 36), not a test. For hitori10 and
# hitori20, 1 and 2 threads, runs `--strategy row,mrv` and `mrv,row` and prints ab's time
# verdict (mrv as A, row as B) with the load average. Both need one node on every puzzle, so a
# clear difference, or two orders that disagree, is the harness's doing.
#   benches/strategy-order.sh BINDIR LABEL     e.g. benches/strategy-order.sh target/release new
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:?usage: strategy-order.sh BINDIR LABEL}
L=${2:-run}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ds in hitori10 hitori20; do for t in 1 2; do for o in row,mrv mrv,row; do
  f=$tmp/$L-$ds-$t-$o.csv
  "$B/bench-run" --dataset "datasets/$ds" --strategy "$o" --threads "$t" --output "$f" --force --quiet >/dev/null
  v=$("$B/bench-report" ab "$f" --a strategy=mrv --b strategy=row | grep -m1 "Verdict")
  echo "$L $ds threads=$t order=$o load=$(cut -d' ' -f1 /proc/loadavg) :: $v"
done; done; done
