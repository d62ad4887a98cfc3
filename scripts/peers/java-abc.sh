#!/usr/bin/env bash
# Rebuilds the ABC article's Java (extracted at run time from the seed article, never committed
# here) and times it JIT-warm, in cycles per second, for a side-by-side with puzzlebench's `abc`.
#
# Usage: scripts/peers/java-abc.sh [PUZZLES [SEEDS [ROUNDS]]]
# Prints, per round, cycles/s by wall clock and by the main thread's CPU time (JIT and GC
# threads excluded), the latter comparable on a loaded machine with puzzlebench's on-CPU rates.
#   PUZZLES  first N puzzles of datasets/sudoku-medium (default 5)
#   SEEDS    seeds 0..SEEDS-1 per puzzle (default 4)
#   ROUNDS   timed rounds in one JVM; round 1 is the JIT warm-up and is reported apart (default 6)
# Environment: SEED_FILE (default ../shared/seeds/sudoku-abc-article.txt),
#              WORK (build directory, default ${XDG_CACHE_HOME:-~/.cache}/puzzlebench-peers/java-abc; kept out of the repository).
#
# The article's `solve` returns only the grid, so a subclass of its encoder (the driver's own
# code) counts `decode` and `randomCode` calls: every evaluation decodes once, every random
# source (initial or scout) is one `randomCode`, and a solved run decodes its answer once more.
# Cycles of a run = (decodes - randomCodes - solved) / (2 * sources), exact for the article's
# loop, which always finishes a cycle before checking for a solution.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
seed_file=${SEED_FILE:-$root/../shared/seeds/sudoku-abc-article.txt}
work=${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/puzzlebench-peers/java-abc}
puzzles=${1:-5}
seeds=${2:-4}
rounds=${3:-6}
mkdir -p "$work/src" "$work/classes"

# One Java class per file: from `public class NAME {` to the first closing brace in column 0.
extract() {
  local name=$1
  {
    echo 'import java.util.*;'
    awk -v start="public class $name {" '$0 == start { on = 1 } on { print } on && /^}/ { exit }' "$seed_file"
  } >"$work/src/$name.java"
  grep -q "^public class $name {" "$work/src/$name.java" || {
    echo "java-abc.sh: class $name not found in $seed_file" >&2
    exit 1
  }
}
extract SudokuEncoder
extract Fitness
extract ABCSudoku

cat >"$work/src/AbcBench.java" <<'EOF'
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.*;
import java.util.*;

/** Times the article's ABCSudoku in one JVM, round after round, so later rounds run JIT-warm. */
public class AbcBench {
    /** Counts the encoder calls the article's loop makes, to recover its cycle count. */
    static final class CountingEncoder extends SudokuEncoder {
        long decodes, randoms;
        CountingEncoder(int[][] p) { super(p); }
        @Override public int[][] decode(int[][] code) { decodes++; return super.decode(code); }
        @Override public int[][] randomCode(Random rnd) { randoms++; return super.randomCode(rnd); }
    }

    public static void main(String[] args) throws Exception {
        List<int[][]> grids = new ArrayList<>();
        int want = Integer.parseInt(args[1]), seeds = Integer.parseInt(args[2]),
            rounds = Integer.parseInt(args[3]);
        for (String line : Files.readAllLines(Paths.get(args[0]))) {
            if (line.startsWith("#") || line.length() < 81 || grids.size() == want) continue;
            int[][] g = new int[9][9];
            for (int i = 0; i < 81; i++) {
                char ch = line.charAt(i);
                g[i / 9][i % 9] = (ch >= '1' && ch <= '9') ? ch - '0' : 0;
            }
            grids.add(g);
        }
        final int colony = 100, limit = 50, maxCycles = 2000, sources = colony / 2;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= rounds; round++) {
            long cycles = 0, solved = 0, t0 = System.nanoTime();
            long c0 = threads.getCurrentThreadCpuTime();
            for (int[][] g : grids)
                for (int s = 0; s < seeds; s++) {
                    CountingEncoder enc = new CountingEncoder(g);
                    int[][] r = new ABCSudoku(enc, colony, limit, s).solve(maxCycles);
                    int done = r != null ? 1 : 0;
                    solved += done;
                    cycles += (enc.decodes - enc.randoms - done) / (2 * sources);
                }
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = (threads.getCurrentThreadCpuTime() - c0) / 1e9;
            System.out.printf("round %d: %d runs, %d solved, %d cycles: wall %.3f s = %.0f cycles/s; on-CPU %.3f s = %.0f cycles/s%n",
                round, grids.size() * seeds, solved, cycles, secs, cycles / secs, cpu, cycles / cpu);
        }
    }
}
EOF

javac -d "$work/classes" "$work"/src/*.java
echo "java: $(java -version 2>&1 | head -1); load: $(uptime | sed 's/.*load average: //')"
java -cp "$work/classes" AbcBench "$root/datasets/sudoku-medium/generated.txt" "$puzzles" "$seeds" "$rounds"
