#!/usr/bin/env bash
# Rebuilds Simon Tatham's Singles solver (the Hitori peer) with a timing main, OUTSIDE the
# repository, for side-by-side figures:
#
#   scripts/peers/singles.sh [DIR]                      # default DIR: ~/.cache/puzzlebench-peers/singles
#   SINGLES_GIT=/path/to/puzzles/.git scripts/peers/singles.sh   # from a local clone, offline
#   DIR/singlesbench 3 < puzzles.txt > times.tsv        # min of 3 runs per puzzle
#
# Input lines: a Singles game ID, optionally after a name field and before a mask (tab-separated;
# `#` lines skipped). Output per puzzle: `WxH <tab> min_microseconds <tab> result`, where result
# is 1 solved, 0 not solved (the solver is deduction only), -1 impossible. Only the call of
# `solve_specific(state, DIFF_ANY, 0)` is timed, as in the solver's own soak test.
set -euo pipefail
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers/singles}
repo=https://github.com/ghewgill/puzzles
commit=01c3e382d9c7013f0bb4eb9f1ff2d19bb05d4241
mkdir -p "$dir"
cd "$dir"
if [ ! -d src ]; then
    mkdir src
    if [ -n "${SINGLES_GIT:-}" ]; then
        git --git-dir "$SINGLES_GIT" archive "$commit" | tar -x -C src
    else
        git clone -q "$repo" src.git && git -C src.git archive "$commit" | tar -x -C src
    fi
fi
files="singles.c dsf.c latin.c maxflow.c tree234.c nullfe.c random.c misc.c malloc.c"
cat > bench.c <<'C'
#define main singles_original_main
#include "src/singles.c"
#undef main
#include <time.h>
static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
int main(int argc, char **argv) {
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    static char line[100000];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char *colon = strchr(line, ':');
        if (line[0] == '#' || !colon) continue;
        char *id = line, *tab = strchr(line, '\t');
        if (tab && tab < colon) id = tab + 1;   /* a leading name field */
        if ((tab = strchr(id, '\t'))) *tab = 0; /* a trailing mask */
        char *desc = strchr(id, ':');
        *desc++ = 0;
        game_params *p = default_params();
        decode_params(p, id);
        if (validate_params(p, 1) || validate_desc(p, desc)) {
            printf("%s\tbad\n", id);
            free_params(p);
            continue;
        }
        game_state *s = new_game(NULL, p, desc);
        double best = 1e18;
        int ret = 0;
        for (int k = 0; k < reps; k++) {
            memset(s->flags, 0, s->n * sizeof(unsigned int));
            s->completed = s->impossible = 0;
            double t0 = now_us();
            ret = solve_specific(s, DIFF_ANY, 0);
            double t = now_us() - t0;
            if (t < best) best = t;
        }
        printf("%s\t%.2f\t%d\n", id, best, ret);
        free_game(s);
        free_params(p);
    }
    return 0;
}
C
srcs=""
for f in $files; do [ "$f" = singles.c ] || srcs="$srcs src/$f"; done
# shellcheck disable=SC2086
gcc -O2 -DSTANDALONE_SOLVER -Isrc -o singlesbench bench.c $srcs -lm
echo "built $dir/singlesbench (ghewgill/puzzles $commit)"
