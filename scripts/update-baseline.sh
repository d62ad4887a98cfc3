#!/usr/bin/env bash
# Deliberately refresh the committed baseline (results/baseline/) from the current code.
# Review `git diff results/baseline` before committing: every changed counter is a change in
# solver behaviour that the nightly would otherwise report.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bins
# The suite's one file (nightly.csv and its meta) is rewritten in place (--force); nothing else
# in the directory is deleted, so a file the suite no longer writes shows up in `git status`
# for you to remove.
scripts/suite.sh results/baseline
echo "baseline refreshed; review with: git status results/baseline; git diff --stat results/baseline"
