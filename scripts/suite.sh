#!/usr/bin/env bash
# The fixed nightly suite, shared by nightly.sh and update-baseline.sh so the baseline and the
# nightly run can never drift apart. Usage: scripts/suite.sh OUTDIR
# The suite is one plan file, plans/nightly.toml: six datasets with their own rules, seeds,
# colonies, repeats and solution counting, one run, one CSV (OUTDIR/nightly.csv) and its meta.
# Every job is deterministic (fixed seeds); only the timings vary between machines.
# THREADS=N overrides the plan's threads (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/suite.sh OUTDIR}
threads=${THREADS:-2}
mkdir -p "$out"
target/release/bench-run --plan plans/nightly.toml --threads "$threads" --force \
  --output "$out/nightly.csv" >/dev/null
echo "  nightly: $(($(wc -l <"$out/nightly.csv") - 1)) rows"
