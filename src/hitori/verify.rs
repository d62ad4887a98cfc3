//! Independent verifier: a stateless check of the three Hitori rules on a final shading.
//!
//! Deliberately shares no code with the solver (`state`, `propagate`, `connectivity`, `search`,
//! `rules`): it reads the grid through the public accessors only and has its own few lines of
//! bit tricks, so a bug in the solver's bitboards or propagation cannot hide itself here.
//!
//! It runs on every answer of every run, so it is built to cost little next to a solve of a
//! few microseconds: one row-major pass finds repeated numbers with one-word "seen" sets per
//! row and per column and collects the shaded cells as one `u64` per row; touching shaded
//! cells are then `row & row >> 1` and `row & next_row`, and connectivity is a flood fill of
//! whole rows by shifts. [`plain`] checks the same rules cell by cell; it is the oracle the
//! fast check is tested against, and its fallback for numbers above 64.

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
    check_size(puzzle, shading)?;
    let values = puzzle.cells();
    // Value `v` is bit `v - 1` of a `u64` below. Every value is at least 1, so the OR of the
    // `v - 1` stays below 64 exactly when no value is above 64 (and the fold has no branch).
    if values.iter().fold(0, |acc, &v| acc | v.wrapping_sub(1)) >= 64 {
        return plain::verify(puzzle, shading);
    }
    let (w, h) = (puzzle.width(), puzzle.height());
    let shaded = duplicates(w, values, shading.cells())?;
    let shaded = &shaded[..h];
    adjacent(shaded)?;
    // w >= 2, so the shift is at most 62.
    let full = u64::MAX >> (MAX_SIDE - w);
    let mut white = [0u64; MAX_SIDE];
    for (wr, b) in white.iter_mut().zip(shaded) {
        *wr = !b & full;
    }
    match regions(&white[..h]) {
        1 => Ok(()),
        regions => Err(Violation::Disconnected { regions }),
    }
}

/// The sizes of the puzzle and the shading must agree.
fn check_size(puzzle: &HitoriPuzzle, shading: &Shading) -> Result<(), Violation> {
    if shading.width() != puzzle.width() || shading.height() != puzzle.height() {
        return Err(Violation::SizeMismatch {
            shading_width: shading.width(),
            shading_height: shading.height(),
            puzzle_width: puzzle.width(),
            puzzle_height: puzzle.height(),
        });
    }
    Ok(())
}

/// Rule 1 in one row-major pass over `values` (all at most 64) and the shading flags
/// `black`, `w` to a row, visiting the unshaded cells only. Each row and each column keeps
/// the set of values met unshaded so far (bit `v - 1`); a value met again is a repeat. The
/// first row with a repeat is reported as soon as the row ends, a column's repeat only once
/// every row is known to have none. Returns the shaded cells, one `u64` per row (bit `c` =
/// column `c`), for rules 2 and 3.
fn duplicates(w: usize, values: &[u32], black: &[bool]) -> Result<[u64; MAX_SIDE], Violation> {
    let full = u64::MAX >> (MAX_SIDE - w);
    let mut shaded = [0u64; MAX_SIDE];
    let mut col_seen = [0u64; MAX_SIDE];
    // Values met again in some column: which column is looked up only if there is one.
    let mut col_repeat = 0u64;
    let lines = values.chunks_exact(w).zip(black.chunks_exact(w));
    for (r, (vals, blacks)) in lines.enumerate() {
        shaded[r] = row_bits(blacks);
        let (mut seen, mut repeat) = (0u64, 0u64);
        let mut white = !shaded[r] & full;
        while white != 0 {
            let c = white.trailing_zeros() as usize;
            white &= white - 1;
            let bit = 1u64 << (vals[c] - 1);
            repeat |= seen & bit;
            seen |= bit;
            col_repeat |= col_seen[c] & bit;
            col_seen[c] |= bit;
        }
        if repeat == 0 {
            continue;
        }
        let row = |c: usize| (!blacks[c]).then_some(vals[c]);
        if let Some((value, col1, col2)) = first_pair(w, row) {
            return Err(Violation::RowDuplicate {
                row: r + 1,
                value,
                col1: col1 + 1,
                col2: col2 + 1,
            });
        }
    }
    if col_repeat != 0 {
        let h = values.len() / w;
        for c in 0..w {
            let col = |r: usize| (!black[r * w + c]).then_some(values[r * w + c]);
            if let Some((value, row1, row2)) = first_pair(h, col) {
                return Err(Violation::ColumnDuplicate {
                    col: c + 1,
                    value,
                    row1: row1 + 1,
                    row2: row2 + 1,
                });
            }
        }
    }
    Ok(shaded)
}

/// One row's flags as bits (bit `c` = column `c`), eight cells at a time: a `bool` is a byte
/// 0 or 1, and eight of them read as a little-endian `u64` times `0x0102_0408_1020_4080` put
/// byte `i`'s bit at bit `56 + i` (the partial products never share a bit, so nothing
/// carries into the top byte). Cheaper than a shift and an OR per cell.
fn row_bits(flags: &[bool]) -> u64 {
    let chunks = flags.chunks_exact(8);
    let rest = chunks.remainder();
    let mut bits = 0u64;
    for (k, chunk) in chunks.enumerate() {
        if let Ok(eight) = <&[bool; 8]>::try_from(chunk) {
            let bytes = u64::from_le_bytes(eight.map(u8::from));
            bits |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
    }
    if !rest.is_empty() {
        let tail = rest
            .iter()
            .enumerate()
            .fold(0u64, |t, (i, &f)| t | u64::from(f) << i);
        bits |= tail << (flags.len() - rest.len());
    }
    bits
}

/// In a line of `n` cells (`cell(i)` is the value of an unshaded cell, at most 64, `None`
/// for a shaded one), the pair a top-left scan meets first: the first unshaded cell with a
/// later copy, and its nearest copy, as `(value, i, j)`; `None` without a repeat. Scanning
/// from the end keeps each value's nearest later position at hand, and the last repeat met
/// is the one with the smallest `i`.
fn first_pair(n: usize, cell: impl Fn(usize) -> Option<u32>) -> Option<(u32, usize, usize)> {
    let mut next = [0usize; 64];
    let mut seen = 0u64;
    let mut found = None;
    for i in (0..n).rev() {
        if let Some(v) = cell(i) {
            let k = (v - 1) as usize;
            if seen >> k & 1 == 1 {
                found = Some((v, i, next[k]));
            }
            next[k] = i;
            seen |= 1 << k;
        }
    }
    found
}

/// Rule 2 on the shaded rows: `row & row >> 1` has bit `c` where `c` and `c + 1` are both
/// shaded, `row & next_row` where `c` is shaded in both rows. The first shaded cell in reading
/// order with a shaded right or lower neighbour is reported (right before lower).
fn adjacent(shaded: &[u64]) -> Result<(), Violation> {
    for (r, &row) in shaded.iter().enumerate() {
        let right = row & (row >> 1);
        let down = shaded.get(r + 1).map_or(0, |&next| row & next);
        let either = right | down;
        if either != 0 {
            let c = either.trailing_zeros() as usize;
            let (r2, c2) = if right >> c & 1 == 1 {
                (r, c + 1)
            } else {
                (r + 1, c)
            };
            return Err(Violation::AdjacentShaded {
                row1: r + 1,
                col1: c + 1,
                row2: r2 + 1,
                col2: c2 + 1,
            });
        }
    }
    Ok(())
}

/// Rule 3: the number of orthogonally connected regions of the set bits of `white` (one `u64`
/// per row): a flood fill from the first cell no fill has reached yet, until none is left.
/// A valid shading costs one fill.
fn regions(white: &[u64]) -> usize {
    let mut left = [0u64; MAX_SIDE];
    let left = &mut left[..white.len()];
    left.copy_from_slice(white);
    let mut count = 0;
    while let Some(r0) = left.iter().position(|&x| x != 0) {
        // The lowest set bit: the region's first cell in reading order.
        let reach = flood(white, r0, left[r0] & left[r0].wrapping_neg());
        for (l, x) in left.iter_mut().zip(&reach) {
            *l &= !x;
        }
        count += 1;
    }
    count
}

/// The cells of `white` (one `u64` per row) connected to `seed`, a set bit of row `r0`.
/// A worklist of rows (bit `r` of `pending`; a side is at most 64): a pending row takes what
/// its neighbours above and below have reached and spreads it along its runs of white cells,
/// then marks a neighbour pending only if that neighbour can gain a cell from it. A row that
/// is not pending has nothing to gain, so an empty worklist is the whole region, and every
/// visit but the first adds cells. The lowest pending row goes first, so a fill that has to
/// turn back up does so at once instead of after a sweep over the whole grid.
fn flood(white: &[u64], r0: usize, seed: u64) -> [u64; MAX_SIDE] {
    let h = white.len();
    let mut reach = [0u64; MAX_SIDE];
    reach[r0] = seed;
    let mut pending = 1u64 << r0;
    while pending != 0 {
        let r = pending.trailing_zeros() as usize;
        pending &= pending - 1;
        let above = if r > 0 { reach[r - 1] } else { 0 };
        let below = if r + 1 < h { reach[r + 1] } else { 0 };
        let mut x = reach[r] | ((above | below) & white[r]);
        // Runs of white cells are short in Hitori (shaded cells are dense), so this takes a
        // step or two; a 64-wide run would take 64.
        loop {
            let spread = (x | x << 1 | x >> 1) & white[r];
            if spread == x {
                break;
            }
            x = spread;
        }
        reach[r] = x;
        if r > 0 && x & white[r - 1] & !reach[r - 1] != 0 {
            pending |= 1 << (r - 1);
        }
        if r + 1 < h && x & white[r + 1] & !reach[r + 1] != 0 {
            pending |= 1 << (r + 1);
        }
    }
    reach
}

/// The three rules checked the plain way, cell by cell, as a person would: the oracle the
/// bitboard check above is tested against, and its fallback for puzzles with numbers above
/// 64 (rare; they do not fit its one-word value sets). Same answers, same order of checks.
pub mod plain {
    use super::{check_size, HitoriPuzzle, Shading, Violation, MAX_SIDE};

    /// [`verify`](super::verify), checked cell by cell.
    pub fn verify(puzzle: &HitoriPuzzle, shading: &Shading) -> Result<(), Violation> {
        check_size(puzzle, shading)?;
        let (w, h) = (puzzle.width(), puzzle.height());
        let white = |r: usize, c: usize| !shading.is_black(r, c);
        // Rule 1: the first unshaded cell of a line with an unshaded copy later in the line.
        for r in 0..h {
            let cell = |c: usize| white(r, c).then(|| puzzle.value(r, c));
            if let Some((value, col1, col2)) = pairwise(w, cell) {
                return Err(Violation::RowDuplicate {
                    row: r + 1,
                    value,
                    col1: col1 + 1,
                    col2: col2 + 1,
                });
            }
        }
        for c in 0..w {
            let cell = |r: usize| white(r, c).then(|| puzzle.value(r, c));
            if let Some((value, row1, row2)) = pairwise(h, cell) {
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
                if white(r, c) {
                    continue;
                }
                if c + 1 < w && !white(r, c + 1) {
                    return Err(Violation::AdjacentShaded {
                        row1: r + 1,
                        col1: c + 1,
                        row2: r + 1,
                        col2: c + 2,
                    });
                }
                if r + 1 < h && !white(r + 1, c) {
                    return Err(Violation::AdjacentShaded {
                        row1: r + 1,
                        col1: c + 1,
                        row2: r + 2,
                        col2: c + 1,
                    });
                }
            }
        }
        match regions(w, h, white) {
            1 => Ok(()),
            regions => Err(Violation::Disconnected { regions }),
        }
    }

    /// The first pair `(value, i, j)` of a line of `n` cells, by plain pairwise comparison:
    /// the smallest `i` with a later equal unshaded cell, and the first such `j`.
    fn pairwise(n: usize, cell: impl Fn(usize) -> Option<u32>) -> Option<(u32, usize, usize)> {
        (0..n).find_map(|i| {
            let v = cell(i)?;
            (i + 1..n).find(|&j| cell(j) == Some(v)).map(|j| (v, i, j))
        })
    }

    /// Rule 3: count the unshaded regions with a breadth-first search from each unvisited
    /// unshaded cell. The marks and the queue live on the stack (a side is at most 64).
    fn regions(w: usize, h: usize, white: impl Fn(usize, usize) -> bool) -> usize {
        let mut seen = [[false; MAX_SIDE]; MAX_SIDE];
        let mut queue = [(0u8, 0u8); MAX_SIDE * MAX_SIDE];
        let mut regions = 0;
        for r0 in 0..h {
            for c0 in 0..w {
                if !white(r0, c0) || seen[r0][c0] {
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
                        (r > 0).then(|| (r - 1, c)),
                        (r + 1 < h).then_some((r + 1, c)),
                        (c > 0).then(|| (r, c - 1)),
                        (c + 1 < w).then_some((r, c + 1)),
                    ];
                    for (nr, nc) in next.into_iter().flatten() {
                        if white(nr, nc) && !seen[nr][nc] {
                            seen[nr][nc] = true;
                            queue[tail] = (nr as u8, nc as u8);
                            tail += 1;
                        }
                    }
                }
            }
        }
        regions
    }
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

    #[test]
    fn the_first_pair_of_a_line_is_the_earliest_cell_with_a_later_copy() {
        // 1 2 2 1: the 1s at positions 0 and 3 come first, not the 2s at 1 and 2; a shaded
        // cell (None) is skipped, and the nearest copy is the one reported.
        let line = [Some(1), Some(2), Some(2), None, Some(1), Some(1)];
        assert_eq!(first_pair(line.len(), |i| line[i]), Some((1, 0, 4)));
        let line = [None, Some(64), Some(3), Some(64)];
        assert_eq!(first_pair(line.len(), |i| line[i]), Some((64, 1, 3)));
        let line = [Some(1), None, Some(2), Some(3)];
        assert_eq!(first_pair(line.len(), |i| line[i]), None);
    }

    #[test]
    fn row_bits_packs_flags_eight_at_a_time() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        for n in 1..=64 {
            let flags: Vec<bool> = (0..n).map(|_| rng.random_bool(0.5)).collect();
            let plain = flags
                .iter()
                .enumerate()
                .fold(0u64, |b, (i, &f)| b | u64::from(f) << i);
            assert_eq!(row_bits(&flags), plain, "{flags:?}");
        }
        assert_eq!(row_bits(&[true; 64]), u64::MAX);
    }

    #[test]
    fn numbers_above_64_are_checked_the_plain_way() {
        // 65 does not fit a one-word value set; the repeat of 65 is still found and named.
        let p = HitoriPuzzle::new(3, 2, vec![65, 1, 65, 2, 3, 4]).unwrap();
        let e = verify(&p, &mask(3, 2, "......")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "row 1 has two unshaded 65s (columns 1 and 3)"
        );
        assert_eq!(verify(&p, &mask(3, 2, "#.....")), Ok(()));
        // 64 is the largest value of the fast check: bit 63.
        let p = HitoriPuzzle::new(2, 2, vec![64, 1, 64, 2]).unwrap();
        let e = verify(&p, &mask(2, 2, "....")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "column 1 has two unshaded 64s (rows 1 and 2)"
        );
    }

    #[test]
    fn a_winding_region_is_one_region_and_a_cut_one_two() {
        // A snake 64 wide: full white rows joined by one white cell at alternating ends, so
        // the fill has to turn at every other row (not a valid shading: the flood fill alone).
        let full = u64::MAX;
        let mut white = [0u64; 63];
        for (r, row) in white.iter_mut().enumerate() {
            *row = match r % 4 {
                1 => 1 << 63,
                3 => 1,
                _ => full,
            };
        }
        assert_eq!(regions(&white), 1);
        white[61] = 0;
        assert_eq!(regions(&white), 2);
        // Single cells on a diagonal touch nothing: one region each.
        let diagonal: Vec<u64> = (0..64).map(|r| 1 << r).collect();
        assert_eq!(regions(&diagonal), 64);
        assert_eq!(regions(&[0, 0]), 0);
    }

    /// A random puzzle and shading of `w x h` from `seed`, valid or broken in any way: numbers
    /// from a cyclic Latin square (no repeat in any line, whatever the shading) with some
    /// copies planted, or plain random numbers (many repeats), now and then some above 64;
    /// shaded cells mostly kept apart, at a random density (dense ones cut regions off).
    fn random_case(w: usize, h: usize, seed: u64) -> (HitoriPuzzle, Shading) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let n = w.max(h);
        let mut values: Vec<u32> = if rng.random_bool(0.6) {
            (0..w * h)
                .map(|i| ((i / w + i % w) % n) as u32 + 1)
                .collect()
        } else {
            let max = rng.random_range(1..=n as u32 + 2);
            (0..w * h).map(|_| rng.random_range(1..=max)).collect()
        };
        for _ in 0..rng.random_range(0..3) {
            let (a, b) = (rng.random_range(0..w * h), rng.random_range(0..w * h));
            values[a] = values[b];
        }
        if rng.random_bool(0.05) {
            let i = rng.random_range(0..w * h);
            values[i] = rng.random_range(65..=200);
        }
        let density = rng.random_range(0.0..0.5);
        let apart = rng.random_bool(0.8);
        let mut black = vec![false; w * h];
        for i in 0..w * h {
            let (r, c) = (i / w, i % w);
            let touches = (c > 0 && black[i - 1]) || (r > 0 && black[i - w]);
            black[i] = rng.random_bool(density) && !(apart && touches);
        }
        let p = HitoriPuzzle::new(w, h, values).unwrap();
        (p, Shading::new(w, h, black).unwrap())
    }

    /// Every outcome shows up among the random cases (so the comparison below means
    /// something), and the bitboard check agrees with the plain one on each, down to the
    /// rule, the place and the region count.
    #[test]
    fn the_bitboard_check_agrees_with_the_plain_one_on_random_shadings() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(13);
        let mut seen = [0usize; 6];
        for seed in 0..6000 {
            let (w, h) = if seed % 3 == 0 {
                (rng.random_range(2..=64), rng.random_range(2..=64))
            } else {
                (rng.random_range(2..=12), rng.random_range(2..=12))
            };
            let (p, s) = random_case(w, h, seed);
            let got = verify(&p, &s);
            assert_eq!(
                got,
                plain::verify(&p, &s),
                "{w}x{h} {:?} {}",
                p.cells(),
                s.to_mask()
            );
            seen[match got {
                Ok(()) => 0,
                Err(Violation::RowDuplicate { .. }) => 1,
                Err(Violation::ColumnDuplicate { .. }) => 2,
                Err(Violation::AdjacentShaded { .. }) => 3,
                Err(Violation::Disconnected { .. }) => 4,
                Err(Violation::SizeMismatch { .. }) => 5,
            }] += 1;
        }
        assert!(seen[..5].iter().all(|&n| n >= 100), "{seen:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The same comparison with proptest's shrinking of the sides, square and not, up to
        /// 64 wide.
        #[test]
        fn bitboard_and_plain_checks_agree(w in 2usize..=64, h in 2usize..=64, seed: u64) {
            let (p, s) = random_case(w, h, seed);
            proptest::prop_assert_eq!(verify(&p, &s), plain::verify(&p, &s));
        }
    }
}
