#!/usr/bin/env bash
# Side-by-side table of mean microseconds per puzzle: puzzlebench's backtracker, the `sudoku`
# crate and tdoku on top1465, 17-clue and forum_hardest_1106, first solution (limit 1) and
# uniqueness (limit 2). Each driver takes the fastest of $RUNS (default 3) passes; the three run
# interleaved, $ROUNDS (default 3) times, and the table keeps each figure's best round, so a
# burst of load on a shared machine hits all three alike. Wall and on-CPU time both; the load
# average is printed before and after.
#
# Usage: scripts/peers/compare.sh TDOKU_SRC [CORPUS_DIR] [PUZZLEBENCH_BIN]
#   CORPUS_DIR default ../shared/corpora/sudoku beside the repository (or two levels up).
#   PUZZLEBENCH_BIN: a built examples/sudoku_bt_time (default: built here, release).
#   PB_BASE (env): another build of that example (say main's), run in the same rounds and
#   labelled pb-base, for a before/after side by side.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
tdoku_src="$1"
corpora="${2:-}"
if [[ -z "$corpora" ]]; then
    for c in "$here/../shared/corpora/sudoku" "$here/../../shared/corpora/sudoku"; do
        [[ -d "$c" ]] && corpora="$c" && break
    done
fi
pb="${3:-}"
if [[ -z "$pb" ]]; then
    cargo build --release --quiet --manifest-path "$here/Cargo.toml" --example sudoku_bt_time
    pb="$here/target/release/examples/sudoku_bt_time"
fi
files=("$corpora/puzzles3_magictour_top1465.txt" "$corpora/puzzles2_17_clue.txt"
       "$corpora/puzzles6_forum_hardest_1106.txt")
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# Build the peers once (their scripts build and then run; a first run with no files only builds).
"$here/scripts/peers/sudoku-crate.sh" -- >/dev/null
"$here/scripts/peers/tdoku.sh" "$tdoku_src" -- >/dev/null
echo "load before: $(uptime)"
for _ in $(seq "${ROUNDS:-3}"); do
    if [[ -n "${PB_BASE:-}" ]]; then
        "$PB_BASE" "${files[@]}" | sed 's/^puzzlebench /pb-base /' >>"$out"
    fi
    "$pb" "${files[@]}" >>"$out"
    "$here/scripts/peers/sudoku-crate.sh" -- "${files[@]}" >>"$out"
    "$here/scripts/peers/tdoku.sh" "$tdoku_src" -- "${files[@]}" >>"$out"
done
echo "load after:  $(uptime)"
awk '{
    key = $1 " " $2 " " $3
    for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (!(key in wall) || v["mean_us"] < wall[key]) wall[key] = v["mean_us"]
    if (!(key in cpu) || v["cpu_us"] < cpu[key]) cpu[key] = v["cpu_us"]
    if (!(key in seen)) { order[n++] = key; seen[key] = 1 }
}
END {
    printf "%-14s %-36s %-8s %10s %10s\n", "solver", "file", "limit", "wall_us", "cpu_us"
    for (i = 0; i < n; i++) {
        split(order[i], k, " ")
        printf "%-14s %-36s %-8s %10.3f %10.3f\n", k[1], k[2], k[3], wall[order[i]], cpu[order[i]]
    }
}' "$out"
