#!/usr/bin/env python3
"""A reference Hitori solver for puzzlebench's external-solver protocol (see PROTOCOL.md).

Standard library only. Reads request lines `<job>\t<seed>\t<W>x<H>:<v,v,...>` until end of
input and answers each with `<job>\t<status>\t<mask>\t<stats>` (`#` shaded, `.` unshaded,
row-major), so it works in both `batch` and `per-puzzle` mode. A plain depth-first search
(shade first, then leave white) with the three rules checked as it goes: small puzzles only.
"""
import sys
from collections import deque

UNKNOWN, WHITE, BLACK = 0, 1, 2


def solve(w, h, vals):
    """Returns (mask string or None, nodes visited)."""
    n = w * h
    state = [UNKNOWN] * n
    # Lines (rows, then columns) as lists of cell indices.
    lines_of = [[] for _ in range(n)]
    for r in range(h):
        line = [r * w + c for c in range(w)]
        for i in line:
            lines_of[i].append(line)
    for c in range(w):
        line = [r * w + c for r in range(h)]
        for i in line:
            lines_of[i].append(line)
    # A cell whose number is unique in its row and column is never shaded.
    for i in range(n):
        if all(vals[j] != vals[i] for line in lines_of[i] for j in line if j != i):
            state[i] = WHITE

    def neighbours(i):
        r, c = divmod(i, w)
        if r > 0:
            yield i - w
        if r < h - 1:
            yield i + w
        if c > 0:
            yield i - 1
        if c < w - 1:
            yield i + 1

    def may_whiten(i):
        return all(
            not (state[j] == WHITE and vals[j] == vals[i])
            for line in lines_of[i]
            for j in line
            if j != i
        )

    def connected():
        # Every non-black cell reachable from the first one, through non-black cells.
        start = next(i for i in range(n) if state[i] != BLACK)
        seen = {start}
        todo = deque([start])
        while todo:
            for j in neighbours(todo.popleft()):
                if state[j] != BLACK and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return len(seen) == n - state.count(BLACK)

    def may_shade(i):
        if any(state[j] == BLACK for j in neighbours(i)):
            return False
        state[i] = BLACK
        ok = connected()
        state[i] = UNKNOWN
        return ok

    order = [i for i in range(n) if state[i] == UNKNOWN]
    nodes = 0

    def search(k):
        nonlocal nodes
        nodes += 1
        if k == len(order):
            return True
        i = order[k]
        if may_shade(i):
            state[i] = BLACK
            if search(k + 1):
                return True
        if may_whiten(i):
            state[i] = WHITE
            if search(k + 1):
                return True
        state[i] = UNKNOWN
        return False

    if not search(0):
        return None, nodes
    return "".join("#" if s == BLACK else "." for s in state), nodes


def answer(line):
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 3:
        return None
    job, _seed, puzzle = fields
    size, _, cells = puzzle.partition(":")
    w, _, h = size.partition("x")
    w, h = int(w), int(h)
    vals = [int(v) for v in cells.split(",")]
    if len(vals) != w * h:
        return None
    mask, nodes = solve(w, h, vals)
    if mask is None:
        return f"{job}\tunsolved\t\tnodes={nodes}"
    return f"{job}\tsolved\t{mask}\tnodes={nodes}"


def main():
    for line in sys.stdin:
        try:
            out = answer(line)
        except ValueError:
            out = None
        if out is None:
            print(f"hitori_solver.py: bad request line: {line!r}", file=sys.stderr)
            return 2
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
