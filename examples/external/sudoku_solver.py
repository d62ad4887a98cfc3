#!/usr/bin/env python3
"""A reference Sudoku solver for puzzlebench's external-solver protocol (see PROTOCOL.md).

Standard library only. It reads request lines `<job>\t<seed>\t<81 cells>` until end of
input and answers each with `<job>\t<status>\t<answer>\t<stats>`, so the same program
works in both modes: `batch` (many requests, one process) and `per-puzzle` (one request,
then stdin closes). Depth-first search on bitmask candidates, fewest candidates first.
"""
import sys

ALL = 0x3FE  # bits 1..9

ROW = [i // 9 for i in range(81)]
COL = [i % 9 for i in range(81)]
BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]


def solve(cells):
    """Returns (solution list or None, nodes visited)."""
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, v in enumerate(cells):
        if v:
            bit = 1 << v
            if (rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]]) & bit:
                return None, 0  # a repeated given: no solution
            rows[ROW[i]] |= bit
            cols[COL[i]] |= bit
            boxes[BOX[i]] |= bit
    empties = [i for i in range(81) if not cells[i]]
    nodes = 0

    def search():
        nonlocal nodes
        nodes += 1
        best, best_free, best_count = -1, 0, 10
        for i in empties:
            if cells[i]:
                continue
            free = ALL & ~(rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]])
            count = bin(free).count("1")
            if count < best_count:
                best, best_free, best_count = i, free, count
                if count <= 1:
                    break
        if best < 0:
            return True
        r, c, b = ROW[best], COL[best], BOX[best]
        free = best_free
        while free:
            bit = free & -free
            free ^= bit
            cells[best] = bit.bit_length() - 1
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            if search():
                return True
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        cells[best] = 0
        return False

    return (cells if search() else None), nodes


def answer(line):
    fields = line.rstrip("\n").split("\t")
    if len(fields) != 3 or len(fields[2]) != 81:
        return None
    job, _seed, puzzle = fields
    cells = [0 if ch == "." else int(ch) for ch in puzzle]
    solution, nodes = solve(cells)
    if solution is None:
        return f"{job}\tunsolved\t\tnodes={nodes}"
    return f"{job}\tsolved\t{''.join(map(str, solution))}\tnodes={nodes}"


def main():
    for line in sys.stdin:
        out = answer(line)
        if out is None:
            print(f"sudoku_solver.py: bad request line: {line!r}", file=sys.stderr)
            return 2
        # One line per request, flushed at once: the harness is waiting for it.
        sys.stdout.write(out + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
