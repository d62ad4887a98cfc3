#!/usr/bin/env bash
# Deliberately refresh the committed baseline (results/baseline/) from the current code.
# Review `git diff results/baseline` before committing: every changed counter is a change in
# solver behaviour that the nightly would otherwise report.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
rm -rf results/baseline
scripts/suite.sh results/baseline
echo "baseline refreshed; review with: git diff --stat results/baseline"
