#!/usr/bin/env bash
# Instructions a Hitori solve (callgrind, host-independent) and their split by phase, for the
# puzzles of one size of a corpus (issue 30): `mrv` + `full`, one reused Scratch, every answer
# verified (examples/hitori_profile.rs; its parsing and verifying are left out of the split).
#   benches/hitori-phases.sh [SIZE [MAX_SOLUTIONS [CORPUS [PROFILE_BIN]]]]
# SIZE 25 by default (0 = every size), MAX_SOLUTIONS 1 (2 proves uniqueness), CORPUS the tud
# file, PROFILE_BIN target/release/examples/hitori_profile (build it with
# `cargo build --release --example hitori_profile`).
# Phases, per solve: `cut passes` is settle (every call, probing's included) without its
# propagation queue; `probing` is probe inclusive (its settles are counted in both); `setup`
# is what solve_with runs itself, inlined code included (same-number tables, static rules,
# picker set-up), plus the answer's shading and the picker's picks.
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-25}
sols=${2:-1}
corpus=${3:-${PUZZLEBENCH_SHARED:-../shared}/corpora/hitori/tud-singles-5to25.tsv}
bin=${4:-target/release/examples/hitori_profile}
[ -x "$bin" ] || { echo "hitori-phases.sh: $bin missing (cargo build --release --example hitori_profile)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
solved=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" "$corpus" "$size" "$sols" 2>/dev/null)
echo "$solved"
n=$(echo "$solved" | awk '{print $2}')
{
  (cd "$tmp" && callgrind_annotate --threshold=100 --inclusive=yes cg 2>/dev/null) | sed 's/^/I /'
  (cd "$tmp" && callgrind_annotate --threshold=100 --inclusive=no cg 2>/dev/null) | sed 's/^/E /'
} | python3 -c '
import re, sys
n = int(sys.argv[1])
inc, exc = {}, 0
for line in sys.stdin:
    m = re.match(r"([IE])\s+([\d,]+) \([^)]*\)\s+\S*?\.rs:(\S+)( \[)?", line)
    if not m:
        continue
    v = int(m.group(2).replace(",", ""))
    if m.group(1) == "I" and m.group(4):
        inc.setdefault(m.group(3), v)
    elif m.group(1) == "E" and m.group(3) == "puzzlebench::hitori::search::solve_with":
        exc += v
def get(suffix):
    return sum(v for k, v in inc.items() if k.endswith(suffix))
total = get("hitori::search::solve_with")
settle = get("Propagator::settle")
queue = get("Propagator::run_queue")
probe = get("Propagator::probe")
setup = exc + get("State::shading") + get("Picker::pick") + get("Picker::reset")
rows = [("solve (total)", total), ("cut passes", settle - queue), ("propagation queue", queue),
        ("probing (inclusive)", probe), ("setup and answer", setup)]
for name, v in rows:
    print(f"{name:<22}{v / n / 1000:8.1f}k a solve  {100 * v / total:5.1f} %")
' "$n"
