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
# One summary line on stdout, in bench-report summary's terms. ACS checks its clock only every
# 100 iterations, so on 25x25 it may report a solution found after the limit (wall time, its own
# timer): "within" counts only solutions inside the limit, "flag" every success it reports.
# Wilson 95% score interval; mean and median over the solved within the limit; ERT = total time
# (a failure or a late solution charged the limit) / solved within the limit.
def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return (0.0, 100.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return (100 * max(0.0, c - h), 100 * min(1.0, c + h))
limit = float(timeout)
ok = sorted(t for _, s, t in rows if s and t <= limit)
flag = sum(1 for _, s, _ in rows if s)
k, n = len(ok), len(rows)
lo, hi = wilson(k, n)
mean = sum(ok) / k if k else float("nan")
med = (ok[(k - 1) // 2] + ok[k // 2]) / 2 if k else float("nan")
spent = sum(t if s and t <= limit else limit for _, s, t in rows)
ert = spent / k if k else float("inf")
print("%s: ACS solved within %g s %d/%d (%.1f%% [%.1f, %.1f]) mean %.3g s median %.3g s ERT %.3g s; by its own flag %d/%d"
      % (out, limit, k, n, 100.0 * k / max(n, 1), lo, hi, mean, med, ert, flag, n))
