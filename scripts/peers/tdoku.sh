#!/usr/bin/env bash
# Times tdoku (github t-dillon/tdoku, BSD-2) on Sudoku corpora, side by side with puzzlebench's
# backtracker (examples/sudoku_bt_time.rs) and the `sudoku` crate (scripts/peers/sudoku-crate.sh).
# Builds tdoku's SIMD solver with -O3 -march=native and a small driver of ours with the same loop
# shape as the other two, outside the repository.
#
# Usage: scripts/peers/tdoku.sh TDOKU_SRC [BUILD_DIR] -- FILE...
#   TDOKU_SRC: a tdoku source tree (with src/solver_dpll_triad_simd.cc).
#   BUILD_DIR: default ${PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers}/tdoku-build.
# Prints, per file and per limit (1 = first solution, 2 = uniqueness), the mean microseconds
# per puzzle of the fastest of $RUNS (default 3) passes over the whole file, in wall time and in
# on-CPU time.
set -euo pipefail
src="$1"; shift
build="${PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers}/tdoku-build"
if [[ $# -gt 0 && "$1" != "--" ]]; then build="$1"; shift; fi
[[ "${1:-}" == "--" ]] && shift
mkdir -p "$build"
cat > "$build/tdoku_time.cc" <<'CC'
// Puzzles read before timing, then RUNS passes over the file per limit, the fastest reported.
// Limit 2 only counts solutions (tdoku returns no solution grid for limits above 1).
#include <chrono>
#include <cstdint>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>
#include "tdoku.h"

// This thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID), which time spent waiting
// for a core on a loaded machine does not inflate; 0 where it cannot be read. Not
// /proc/thread-self/schedstat: it read 2.69-2.72 us where this clock read 4.10-4.16 us for the
// same pass (issue 36).
static uint64_t cpu_ns() {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

int main(int argc, char **argv) {
    const char *runs_env = std::getenv("RUNS");
    int runs = runs_env ? std::atoi(runs_env) : 3;
    for (int a = 1; a < argc; a++) {
        std::ifstream in(argv[a]);
        std::vector<std::string> puzzles;
        for (std::string line; std::getline(in, line);) {
            if (line.size() >= 81 && line[0] != '#') {
                std::string p = line.substr(0, 81);
                for (char &c : p) if (c == '0') c = '.';
                puzzles.push_back(p);
            }
        }
        std::string name(argv[a]);
        name = name.substr(name.find_last_of('/') + 1);
        for (size_t limit : {1, 2}) {
            double best = 1e30, best_cpu = 1e30;
            size_t found = 0, total_guesses = 0;
            for (int r = 0; r < runs; r++) {
                found = 0;
                total_guesses = 0;
                char solution[82] = {0};
                size_t guesses = 0;
                auto t = std::chrono::steady_clock::now();
                uint64_t c = cpu_ns();
                for (auto &p : puzzles) {
                    found += TdokuSolverDpllTriadSimd(p.c_str(), limit, 0, solution, &guesses);
                    total_guesses += guesses;
                }
                std::chrono::duration<double> d = std::chrono::steady_clock::now() - t;
                if (d.count() < best) best = d.count();
                double dc = (cpu_ns() - c) * 1e-9;
                if (dc < best_cpu) best_cpu = dc;
            }
            std::printf("tdoku %s limit=%zu puzzles=%zu solutions=%zu mean_us=%.3f cpu_us=%.3f guesses=%.2f\n",
                        name.c_str(), limit, puzzles.size(), found, best * 1e6 / puzzles.size(),
                        best_cpu * 1e6 / puzzles.size(), double(total_guesses) / puzzles.size());
        }
    }
}
CC
if [[ ! -x "$build/tdoku_time" || "$build/tdoku_time.cc" -nt "$build/tdoku_time" ]]; then
    g++ -O3 -march=native -std=c++17 -DNDEBUG -I"$src/include" -I"$src/src" \
        "$build/tdoku_time.cc" "$src/src/solver_dpll_triad_simd.cc" "$src/src/util.cc" -o "$build/tdoku_time"
fi
"$build/tdoku_time" "$@"
