//! Independent verifier: a stateless check of the three Hitori rules on a final shading.
//!
//! Deliberately shares no code with the solver: it uses only the public accessors `value`,
//! `is_black`, `width` and `height`, plain loops and its own breadth-first search, so a bug in
//! the solver's bitboards or propagation cannot hide itself here.

use thiserror::Error;

use super::grid::{HitoriPuzzle, Shading, MAX_SIDE};

/// A broken rule, saying where. Rows and columns in fields and messages are 1-based, as a
/// person counts them; cells are written `(row,col)`.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// The shading's size differs from the puzzle's (both `width x height`).
    #[error(
        "shading is {shading_width}x{shading_height} but puzzle is {puzzle_width}x{puzzle_height}"
    )]
    SizeMismatch {
        /// Shading width.
        shading_width: usize,
        /// Shading height.
        shading_height: usize,
        /// Puzzle width.
        puzzle_width: usize,
        /// Puzzle height.
        puzzle_height: usize,
    },
    /// Two unshaded cells of one row hold the same number.
    #[error("row {row} has two unshaded {value}s (columns {col1} and {col2})")]
    RowDuplicate {
        /// 1-based row.
        row: usize,
        /// The repeated number.
        value: u32,
        /// 1-based column of the first copy.
        col1: usize,
        /// 1-based column of the second copy.
        col2: usize,
    },
    /// Two unshaded cells of one column hold the same number.
    #[error("column {col} has two unshaded {value}s (rows {row1} and {row2})")]
    ColumnDuplicate {
        /// 1-based column.
        col: usize,
        /// The repeated number.
        value: u32,
        /// 1-based row of the first copy.
        row1: usize,
        /// 1-based row of the second copy.
        row2: usize,
    },
    /// Two shaded cells share an edge.
    #[error("shaded cells touch at ({row1},{col1})-({row2},{col2})")]
    AdjacentShaded {
        /// 1-based row of the first cell.
        row1: usize,
        /// 1-based column of the first cell.
        col1: usize,
        /// 1-based row of the second cell.
        row2: usize,
        /// 1-based column of the second cell.
        col2: usize,
    },
    /// The unshaded cells do not form one orthogonally connected region.
    #[error("unshaded cells form {regions} regions")]
    Disconnected {
        /// Number of separate unshaded regions (0 when every cell is shaded).
        regions: usize,
    },
}

/// Checks `shading` against the three rules of `puzzle`: no number twice unshaded in a row or
/// column, no two shaded cells side by side, all unshaded cells connected. Reports the first
/// violation found, checking in that order (rows before columns, top-left first).
pub fn verify(puzzle: &HitoriPuzzle, shading: &Shading) -> Result<(), Violation> {
    let (w, h) = (puzzle.width(), puzzle.height());
    if shading.width() != w || shading.height() != h {
        return Err(Violation::SizeMismatch {
            shading_width: shading.width(),
            shading_height: shading.height(),
            puzzle_width: w,
            puzzle_height: h,
        });
    }
    // Rule 1: duplicates. Each line's unshaded (value, position) pairs are sorted, so equal
    // values sit side by side; the reported pair is the one a top-left scan meets first.
    let mut line = [(0u32, 0usize); MAX_SIDE];
    for r in 0..h {
        let cells = (0..w).map(|c| (!shading.is_black(r, c)).then(|| (puzzle.value(r, c), c)));
        if let Some((value, col1, col2)) = first_duplicate(&mut line, cells) {
            return Err(Violation::RowDuplicate {
                row: r + 1,
                value,
                col1: col1 + 1,
                col2: col2 + 1,
            });
        }
    }
    for c in 0..w {
        let cells = (0..h).map(|r| (!shading.is_black(r, c)).then(|| (puzzle.value(r, c), r)));
        if let Some((value, row1, row2)) = first_duplicate(&mut line, cells) {
            return Err(Violation::ColumnDuplicate {
                col: c + 1,
                value,
                row1: row1 + 1,
                row2: row2 + 1,
            });
        }
    }
    // Rule 2: each shaded cell against its right and lower neighbour.
    for r in 0..h {
        for c in 0..w {
            if !shading.is_black(r, c) {
                continue;
            }
            if c + 1 < w && shading.is_black(r, c + 1) {
                return Err(Violation::AdjacentShaded {
                    row1: r + 1,
                    col1: c + 1,
                    row2: r + 1,
                    col2: c + 2,
                });
            }
            if r + 1 < h && shading.is_black(r + 1, c) {
                return Err(Violation::AdjacentShaded {
                    row1: r + 1,
                    col1: c + 1,
                    row2: r + 2,
                    col2: c + 1,
                });
            }
        }
    }
    // Rule 3: count the unshaded regions with a BFS from each unvisited unshaded cell. The
    // marks and the queue live on the stack (a side is at most 64), so nothing is allocated.
    let mut seen = [[false; MAX_SIDE]; MAX_SIDE];
    let mut queue = [(0u8, 0u8); MAX_SIDE * MAX_SIDE];
    let mut regions = 0;
    for r0 in 0..h {
        for c0 in 0..w {
            if shading.is_black(r0, c0) || seen[r0][c0] {
                continue;
            }
            regions += 1;
            seen[r0][c0] = true;
            // Each cell is queued at most once, so `tail` stays within the array.
            let (mut head, mut tail) = (0, 1);
            queue[0] = (r0 as u8, c0 as u8);
            while head < tail {
                let (r, c) = (usize::from(queue[head].0), usize::from(queue[head].1));
                head += 1;
                let next = [
                    (r > 0).then(|| (r.wrapping_sub(1), c)),
                    (r + 1 < h).then_some((r + 1, c)),
                    (c > 0).then(|| (r, c.wrapping_sub(1))),
                    (c + 1 < w).then_some((r, c + 1)),
                ];
                for (nr, nc) in next.into_iter().flatten() {
                    if !shading.is_black(nr, nc) && !seen[nr][nc] {
                        seen[nr][nc] = true;
                        queue[tail] = (nr as u8, nc as u8);
                        tail += 1;
                    }
                }
            }
        }
    }
    if regions != 1 {
        return Err(Violation::Disconnected { regions });
    }
    Ok(())
}

/// The first two unshaded cells of a line holding the same value, as `(value, first, second)`
/// positions, where "first" means the pair with the smallest first position (then the smallest
/// second), as a pairwise scan in position order would find it. `buf` holds the line's cells.
fn first_duplicate(
    buf: &mut [(u32, usize); MAX_SIDE],
    cells: impl Iterator<Item = Option<(u32, usize)>>,
) -> Option<(u32, usize, usize)> {
    let mut n = 0;
    for cell in cells.flatten() {
        buf[n] = cell;
        n += 1;
    }
    let line = &mut buf[..n];
    line.sort_unstable();
    // For each value, its first two positions; keep the pair whose first position is smallest.
    line.windows(2)
        .filter(|p| p[0].0 == p[1].0)
        .map(|p| (p[0].0, p[0].1, p[1].1))
        .fold(None, |best: Option<(u32, usize, usize)>, d| match best {
            Some(b) if b.1 <= d.1 => Some(b),
            _ => Some(d),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> HitoriPuzzle {
        let v = [
            1, 1, 3, 1, 2, 4, 4, 2, 5, 1, 3, 5, 1, 2, 3, 2, 2, 4, 4, 5, 2, 2, 5, 1, 4,
        ];
        HitoriPuzzle::new(5, 5, v.to_vec()).unwrap()
    }

    fn mask(w: usize, h: usize, m: &str) -> Shading {
        Shading::from_mask(w, h, m).unwrap()
    }

    #[test]
    fn accepts_the_demo_solution() {
        assert_eq!(
            verify(&demo(), &mask(5, 5, "#..#..#.......#.#.#.#....")),
            Ok(())
        );
    }

    #[test]
    fn rejects_row_duplicate() {
        // Unshade (0,3): row 1 then has 1s at columns 2 and 4.
        let e = verify(&demo(), &mask(5, 5, "#.....#.......#.#.#.#....")).unwrap_err();
        assert_eq!(e.to_string(), "row 1 has two unshaded 1s (columns 2 and 4)");
    }

    #[test]
    fn rejects_column_duplicate() {
        let p = HitoriPuzzle::new(2, 3, vec![1, 2, 3, 4, 1, 5]).unwrap();
        let e = verify(&p, &mask(2, 3, "......")).unwrap_err();
        assert_eq!(e.to_string(), "column 1 has two unshaded 1s (rows 1 and 3)");
    }

    #[test]
    fn rejects_touching_shaded_cells() {
        let p = HitoriPuzzle::new(3, 2, vec![1, 1, 1, 2, 3, 4]).unwrap();
        let e = verify(&p, &mask(3, 2, "##....")).unwrap_err();
        assert_eq!(e.to_string(), "shaded cells touch at (1,1)-(1,2)");
        let p = HitoriPuzzle::new(2, 3, vec![1, 2, 1, 3, 4, 5]).unwrap();
        let e = verify(&p, &mask(2, 3, "#.#...")).unwrap_err();
        assert_eq!(e.to_string(), "shaded cells touch at (1,1)-(2,1)");
    }

    #[test]
    fn rejects_disconnected_whites() {
        // A diagonal of shaded cells cuts the 3x3 corner (0,0) off... two regions.
        let p = HitoriPuzzle::new(3, 3, (1..=9).collect()).unwrap();
        let e = verify(&p, &mask(3, 3, ".#.#.....")).unwrap_err();
        assert_eq!(e, Violation::Disconnected { regions: 2 });
        assert_eq!(e.to_string(), "unshaded cells form 2 regions");
    }

    #[test]
    fn rejects_size_mismatch() {
        let e = verify(&demo(), &mask(5, 4, &".".repeat(20))).unwrap_err();
        assert_eq!(e.to_string(), "shading is 5x4 but puzzle is 5x5");
    }

    /// The first duplicate by plain pairwise comparison, as a person would scan for it.
    fn pairwise(line: &[(u32, bool)]) -> Option<(u32, usize, usize)> {
        (0..line.len()).find_map(|i| {
            (i + 1..line.len())
                .find(|&j| !line[i].1 && !line[j].1 && line[i].0 == line[j].0)
                .map(|j| (line[i].0, i, j))
        })
    }

    #[test]
    fn the_sorted_duplicate_scan_reports_what_a_pairwise_scan_finds_first() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut buf = [(0, 0); MAX_SIDE];
        for _ in 0..20_000 {
            let n = rng.random_range(1..=MAX_SIDE);
            let max = rng.random_range(1..=n as u32 + 2);
            let line: Vec<(u32, bool)> = (0..n)
                .map(|_| (rng.random_range(1..=max), rng.random_bool(0.3)))
                .collect();
            let cells = line
                .iter()
                .enumerate()
                .map(|(i, &(v, b))| (!b).then_some((v, i)));
            assert_eq!(
                first_duplicate(&mut buf, cells),
                pairwise(&line),
                "{line:?}"
            );
        }
    }
}
