#!/bin/bash
# Fresh qqwing "expert" Sudoku puzzles as a puzzlebench dataset: one line per puzzle, the 81-cell
# puzzle (`.` blank) then its solution, after a `#` header naming the command. qqwing has no seed,
# so every call draws a different set; the file is not committed (issue 29's target is measured
# on fresh puzzles).
# Usage: scripts/qqwing_expert.sh COUNT OUT.txt      (needs qqwing: apt-get install qqwing)
set -euo pipefail
COUNT=${1:?usage: qqwing_expert.sh COUNT OUT.txt}
OUT=${2:?usage: qqwing_expert.sh COUNT OUT.txt}
QQ=${QQWING:-qqwing}
{
  echo "# $($QQ --version 2>&1 | head -1): $QQ --generate $COUNT --difficulty expert --csv --solution ($(date -u +%FT%TZ))"
  $QQ --generate "$COUNT" --difficulty expert --csv --solution | tail -n +2 | tr ',' ' ' | sed 's/ *$//'
} > "$OUT"
echo "$OUT: $(grep -vc '^#' "$OUT") puzzles" >&2
