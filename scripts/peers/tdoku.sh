#!/usr/bin/env bash
# Puzzlebench's backtracker against tdoku (github t-dillon/tdoku, BSD-2) timed by tdoku's own
# benchmark driver, `run_benchmark`, in two builds made from tdoku's own build files, outside the
# repository:
#   tdoku-gcc  gcc, -O3 -march=native: `BUILD.sh run_benchmark -DOPT=O3` (tdoku's CMakeLists
#              adds -march=native), what BENCH.sh does for a spec `gcc_O3_native`;
#   tdoku-pgo  clang, -O3 -march=native with profile-guided optimisation, what BENCH.sh does for
#              `clang_O3_native_pgo`: BUILD.sh with -fprofile-generate, a `run_benchmark -t15
#              -w15` profile run on the 17-clue file, `llvm-profdata merge`, BUILD.sh with
#              -fprofile-use. Two differences from BENCH.sh, both forced by the snapshot: only
#              tdoku is built and profiled (BENCH.sh builds every solver with -DALL=on, whose
#              git submodules a snapshot lacks; the other solvers' profile does not touch
#              tdoku's code), and the 17-clue file comes from the shared corpora (tdoku's
#              data.zip is over the snapshot's 4 MiB limit; the corpora are copies of its data/).
# Puzzlebench runs as shipped: `cargo build --release --example sudoku_bt_time` (no target-cpu,
# no PGO).
#
# Usage: TDOKU_GIT=GIT_DIR scripts/peers/tdoku.sh [FILE...]
#    or: TDOKU_SRC=TREE    scripts/peers/tdoku.sh [FILE...]
#   TDOKU_GIT: the git directory of a tdoku snapshot (the search tool's `fetch github:t-dillon/tdoku`);
#              its HEAD tree is extracted under the build directory.
#   TDOKU_SRC: a tdoku source tree instead (copied, so builds do not write into it).
#   FILE...:   default top1465, 17-clue and forum_hardest_1106 from corpora/sudoku of the shared
#              folder: $PUZZLEBENCH_SHARED, else ../shared or ../../shared beside the repository.
# Environment: ROUNDS (default 5) interleaved rounds; TDOKU_T / TDOKU_W (default 5 / 2) seconds
#   of run_benchmark's test and warm-up; PB_SECONDS (default TDOKU_T) on-CPU seconds puzzlebench
#   spends per file and limit (its pass count, RUNS, is calibrated from one pass);
#   PEERS_DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers): where builds go.
#
# Each round runs the three sides one after another, the order rotated from round to round; each
# side solves every file first solution then uniqueness, the puzzles of the file in its order:
#   tdoku: `run_benchmark -s tdoku -r0 -n N -e1 -c1 -w W -t T [-f] FILE`, -r0 for no permutation
#     and N = the file's puzzle count, so the test set is the file as it is; -f is first solution,
#     without it uniqueness (limit 2). Its figure is its own: the total time of its full passes
#     over the set after a warm-up, divided by the puzzles solved. It reads that time with
#     std::chrono::steady_clock; here a preloaded shim of ours (built beside the builds)
#     answers steady_clock::now() with CLOCK_THREAD_CPUTIME_ID, so the warm-up, the test length
#     and the figure are all this thread's on-CPU time (run_benchmark is one thread). The shim
#     reports its calls on stderr at exit, and the script stops if it did not take effect.
#   puzzlebench: `sudoku_bt_time` with RUNS passes; its `cpu_mean_us`, CLOCK_THREAD_CPUTIME_ID
#     over all passes but the first (the warm-up), the same estimator.
# Never /proc/*/schedstat. Prints the median over rounds of each figure (on-CPU µs a puzzle),
# the ratio of the medians tdoku-pgo / puzzlebench (>= 1: puzzlebench leads) and their geometric
# mean, and the load average at start and end. The raw lines are kept under PEERS_DIR.
#
# Old form, for scripts/peers/compare.sh: scripts/peers/tdoku.sh TDOKU_SRC [BUILD_DIR] -- FILE...
# builds as above (BUILD_DIR is ignored) and prints, per build, file and limit, one line
# `tdoku-gcc|tdoku-pgo FILE limit=L puzzles=N mean_us=WALL cpu_us=CPU` from two run_benchmark
# runs (the shim in wall mode, then on-CPU); no puzzlebench, no rounds.
set -euo pipefail
here="$(cd "$(dirname "$0")/../.." && pwd)"
peers="${PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers}"
rounds="${ROUNDS:-5}"
t_test="${TDOKU_T:-5}"
t_warm="${TDOKU_W:-2}"
pb_seconds="${PB_SECONDS:-$t_test}"
export LC_ALL=C # run_benchmark sets LC_NUMERIC from the environment; keep '.' decimals

old_form=0
old_files=0
if [[ $# -ge 2 && -d "$1" && ( "$2" == "--" || "${3:-}" == "--" ) ]]; then
    old_form=1
    TDOKU_SRC="$1"; shift
    [[ "$1" != "--" ]] && shift
    shift
    old_files=$#
fi

# --- the source tree -------------------------------------------------------------------------
if [[ -n "${TDOKU_GIT:-}" ]]; then
    rev="$(git --git-dir="$TDOKU_GIT" rev-parse HEAD)"
elif [[ -n "${TDOKU_SRC:-}" ]]; then
    rev="src-$(cd "$TDOKU_SRC" && pwd | sha1sum | cut -c1-12)"
else
    echo "tdoku.sh: set TDOKU_GIT (a tdoku snapshot's git dir) or TDOKU_SRC (a tdoku tree)" >&2
    exit 2
fi
base="$peers/tdoku/$rev"
mkdir -p "$base"

# A fresh tree per build: tdoku's CMake writes src/build_info.h into the tree and BUILD.sh builds
# in its build/.
tree() { # DIR
    [[ -f "$1/BUILD.sh" ]] && return 0
    mkdir -p "$1"
    if [[ -n "${TDOKU_GIT:-}" ]]; then
        # data.zip is not in the snapshot (its blob is over the size limit): leave it out (git
        # still names the missing blob on stderr, and exits 0).
        git --git-dir="$TDOKU_GIT" archive HEAD -- . ':(exclude)data.zip' \
            2> >(grep -v "for 'data.zip'" >&2) | tar -x -C "$1"
    else
        (cd "$TDOKU_SRC" && tar -c --exclude=./build --exclude=./.git .) | tar -x -C "$1"
    fi
}

shared=""
for s in "${PUZZLEBENCH_SHARED:-}" "$here/../shared" "$here/../../shared"; do
    [[ -n "$s" && -d "$s/corpora/sudoku" ]] && shared="$s" && break
done
if [[ $# -eq 0 ]]; then
    [[ -n "$shared" ]] || { echo "tdoku.sh: no FILE given and no shared corpora found" >&2; exit 2; }
    c="$shared/corpora/sudoku"
    set -- "$c/puzzles3_magictour_top1465.txt" "$c/puzzles2_17_clue.txt" \
           "$c/puzzles6_forum_hardest_1106.txt"
fi
profile_file="${TDOKU_PROFILE_FILE:-${shared:+$shared/corpora/sudoku/puzzles2_17_clue.txt}}"

stamp_ok() { # DIR KEY: the build in DIR was made for KEY
    [[ -x "$1/build/run_benchmark" && "$(cat "$1/.puzzlebench-stamp" 2>/dev/null)" == "$2" ]]
}

# (a) gcc -O3 -march=native
gcc_dir="$base/gcc"
gcc_key="$(gcc --version | head -1)"
if ! stamp_ok "$gcc_dir" "$gcc_key"; then
    tree "$gcc_dir"
    (cd "$gcc_dir" && CC=gcc CXX=g++ ./BUILD.sh run_benchmark -DOPT=O3) >"$base/gcc-build.log" 2>&1 \
        || { tail -20 "$base/gcc-build.log" >&2; exit 1; }
    echo "$gcc_key" >"$gcc_dir/.puzzlebench-stamp"
fi

# (b) clang -O3 -march=native with PGO, BENCH.sh's steps for a `_pgo` spec
pgo_dir="$base/clang-pgo"
pgo_key="$(clang --version | head -1)"
if ! stamp_ok "$pgo_dir" "$pgo_key"; then
    [[ -f "$profile_file" ]] || { echo "tdoku.sh: no 17-clue file for the profile run (TDOKU_PROFILE_FILE)" >&2; exit 2; }
    command -v llvm-profdata >/dev/null || { echo "tdoku.sh: llvm-profdata missing (apt-get install llvm)" >&2; exit 2; }
    tree "$pgo_dir"
    (
        cd "$pgo_dir"
        export CC=clang CXX=clang++
        rm -rf build/pgodata*
        ./BUILD.sh run_benchmark -DOPT=O3 -DARGS="-fprofile-generate=build/pgodata.gen"
        build/run_benchmark -t15 -w15 -stdoku "$profile_file"
        llvm-profdata merge build/pgodata.gen -output build/pgodata.use
        ./BUILD.sh run_benchmark -DOPT=O3 -DARGS="-fprofile-use=pgodata.use"
    ) >"$base/clang-pgo-build.log" 2>&1 || { tail -20 "$base/clang-pgo-build.log" >&2; exit 1; }
    echo "$pgo_key" >"$pgo_dir/.puzzlebench-stamp"
fi

# The clock shim: steady_clock::now() (libstdc++'s, which run_benchmark calls through the PLT)
# answering this thread's CPU time, or CLOCK_MONOTONIC with TDOKU_CLOCK=wall.
shim="$base/cpuclock.so"
if [[ ! -f "$shim" ]]; then
    cat >"$base/cpuclock.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static unsigned long calls;
static clockid_t clock_id = CLOCK_THREAD_CPUTIME_ID;
__attribute__((constructor)) static void init(void) {
    const char *c = getenv("TDOKU_CLOCK");
    if (c && strcmp(c, "wall") == 0) clock_id = CLOCK_MONOTONIC;
}
/* std::chrono::_V2::steady_clock::now(): a time_point of int64 nanoseconds, returned in rax. */
long long _ZNSt6chrono3_V212steady_clock3nowEv(void) {
    struct timespec ts;
    calls++;
    clock_gettime(clock_id, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "clock shim: %lu steady_clock::now() calls answered by %s\n", calls,
            clock_id == CLOCK_MONOTONIC ? "CLOCK_MONOTONIC" : "CLOCK_THREAD_CPUTIME_ID");
}
C
    gcc -O2 -shared -fPIC "$base/cpuclock.c" -o "$shim"
fi

count_puzzles() { grep -c '^[^#].\{80\}' "$1"; }

# run_benchmark once; prints its usec/puzzle. Its csv line ends with the solver's id, puzzles/sec,
# usec/puzzle, %no_guess and guesses/puzzle (compiler, flags and file before them).
tdoku_run() { # DIR FILE LIMIT CLOCK
    local n flag="" err out
    n="$(count_puzzles "$2")"
    [[ "$3" == 1 ]] && flag="-f"
    err="$(mktemp)"
    out="$(TDOKU_CLOCK="$4" LD_PRELOAD="$shim" "$1/build/run_benchmark" -stdoku -r0 -n"$n" -e1 \
        -c1 -w"$t_warm" -t"$t_test" $flag "$2" 2>"$err")"
    if ! grep -q "calls answered" "$err" || grep -q "^clock shim: 0 " "$err"; then
        echo "tdoku.sh: the clock shim did not take effect for $1/build/run_benchmark" >&2
        cat "$err" >&2; rm -f "$err"; exit 1
    fi
    rm -f "$err"
    echo "$out" | awk -F, 'NF >= 9 && $(NF-4) == "tdoku" { print $(NF-2) }'
}

if [[ "$old_form" == 1 ]]; then
    [[ "$old_files" == 0 ]] && exit 0 # a build-only call
    for f in "$@"; do
        for build in gcc pgo; do
            dir="$gcc_dir"; [[ "$build" == pgo ]] && dir="$pgo_dir"
            for limit in 1 2; do
                wall="$(tdoku_run "$dir" "$f" "$limit" wall)"
                cpu="$(tdoku_run "$dir" "$f" "$limit" cpu)"
                echo "tdoku-$build $(basename "$f") limit=$limit puzzles=$(count_puzzles "$f") mean_us=$wall cpu_us=$cpu"
            done
        done
    done
    exit 0
fi

# --- puzzlebench, as shipped ----------------------------------------------------------------
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$here/target}"
cargo build --release --quiet --manifest-path "$here/Cargo.toml" --example sudoku_bt_time
pb="$CARGO_TARGET_DIR/release/examples/sudoku_bt_time"
# RUNS per file: one pass timed at each limit, then enough passes for PB_SECONDS at the slower.
declare -A pb_runs
for f in "$@"; do
    per_pass="$(RUNS=1 "$pb" "$f" | awk '{
        for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        x = v["puzzles"] * v["cpu_us"]; if (x > m) m = x } END { print m }')"
    pb_runs[$f]="$(awk -v s="$pb_seconds" -v p="$per_pass" 'BEGIN { r = int(s * 1e6 / p) + 2; print (r < 3 ? 3 : r) }')"
done

raw="$base/rounds-$(date -u +%Y%m%dT%H%M%SZ).txt"
: >"$raw"
echo "tdoku $rev; builds: gcc: $gcc_key; clang-pgo: $pgo_key"
echo "puzzlebench $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?') $(rustc --version)"
echo "files: $*"
echo "run_benchmark -w$t_warm -t$t_test; puzzlebench RUNS: $(for f in "$@"; do printf '%s=%s ' "$(basename "$f")" "${pb_runs[$f]}"; done)"
echo "load at start: $(uptime)"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"

side_pb() { # FILE... (in round $round)
    local f
    for f in "$@"; do
        RUNS="${pb_runs[$f]}" "$pb" "$f" | awk -v r="$round" '{
            for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            split($3, l, "="); print r, "puzzlebench", $2, l[2], v["cpu_mean_us"] }'
    done
}
side_tdoku() { # NAME DIR FILE... (in round $round)
    local name="$1" dir="$2" f limit us; shift 2
    for f in "$@"; do
        for limit in 1 2; do
            us="$(tdoku_run "$dir" "$f" "$limit" cpu)"
            [[ -n "$us" ]] || { echo "tdoku.sh: no figure from $name on $f limit $limit" >&2; exit 1; }
            echo "$round $name $(basename "$f") $limit $us"
        done
    done
}
sides=(pb gcc pgo)
for round in $(seq "$rounds"); do
    for k in 0 1 2; do
        case "${sides[$(( (k + round - 1) % 3 ))]}" in
            pb) side_pb "$@" >>"$raw" ;;
            gcc) side_tdoku tdoku-gcc "$gcc_dir" "$@" >>"$raw" ;;
            pgo) side_tdoku tdoku-pgo "$pgo_dir" "$@" >>"$raw" ;;
        esac
    done
    echo "round $round done $(date -u +%H:%M:%S), $(uptime | sed 's/.*load/load/')"
done
echo "load at end: $(uptime)"
echo "raw per-round lines (round side file limit cpu_us): $raw"
echo
awk '
function median(key,   n, i, j, t, a) {
    n = cnt[key]
    for (i = 1; i <= n; i++) a[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
    cell = $3 " " ($4 == 1 ? "first" : "unique")
    key = $2 SUBSEP cell
    val[key, ++cnt[key]] = $5
    if (!(cell in seen)) { seen[cell] = 1; order[nc++] = cell }
}
END {
    if (nc == 0) exit
    printf "median of rounds, on-CPU us a puzzle\n"
    printf "%-44s %12s %10s %10s %9s %9s\n", "cell", "puzzlebench", "tdoku-gcc", "tdoku-pgo", "pgo/pb", "gcc/pb"
    lg = 0
    for (i = 0; i < nc; i++) {
        c = order[i]
        pb = median("puzzlebench" SUBSEP c); g = median("tdoku-gcc" SUBSEP c); p = median("tdoku-pgo" SUBSEP c)
        printf "%-44s %12.3f %10.3f %10.3f %9.3f %9.3f\n", c, pb, g, p, p / pb, g / pb
        lg += log(p / pb); lgg += log(g / pb)
    }
    printf "%-44s %12s %10s %10s %9.3f %9.3f\n", "geometric mean of the ratios", "", "", "", exp(lg / nc), exp(lgg / nc)
}' "$raw"
