#!/usr/bin/env python3
# The peer is Lloyd & Amos' sudoku_acs (no licence): build it outside this repository and point
# ACS_BIN at its binary. Lines of 81 cells (0 or . blank) or a directory of its instance files.
# Run the ACS peer (built outside the repository) once per puzzle; CSV: id,solved,time_s
import sys, subprocess, os, glob
ACS = os.environ.get("ACS_BIN", "../peers/acs/sudokusolver")
src, timeout, out = sys.argv[1], sys.argv[2], sys.argv[3]
rows = []
def run(args, pid):
    p = subprocess.run([ACS] + args + ["--timeout", timeout], capture_output=True, text=True)
    toks = p.stdout.split()
    ok = len(toks) >= 2 and toks[0] == "0"
    t = float(toks[-1]) if toks else float("nan")
    rows.append((pid, int(ok), t))
if os.path.isdir(src):
    for f in sorted(glob.glob(src + "/*.txt")):
        run(["--file", f], os.path.basename(f))
else:
    n = 0
    for line in open(src):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        n += 1
        g = s.split()[0][:81].replace("0", ".")
        run(["--puzzle", g], n)
with open(out, "w") as f:
    f.write("id,solved,time_s\n")
    for r in rows:
        f.write("%s,%d,%.6f\n" % r)
