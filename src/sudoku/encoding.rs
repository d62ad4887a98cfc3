//! The ABC encoding: per 3x3 box, a permutation of the box's missing digits placed into its free
//! cells (in a fixed order), so every box holds 1..9 once by construction. A [`Source`] keeps the
//! decoded grid together with per-row, per-column (and, for the cross-box variant, per-box)
//! digit counts, so a swap of two cells is scored by its delta on the few lines it touches and
//! applied in place: no decoding, no rescan of 81 cells, no allocation per move.

use rand::Rng;

use super::grid::{SudokuPuzzle, BOX, COL, ROW, UNITS};

/// Where the free cells are, fixed for one puzzle.
pub(crate) struct Layout {
    /// The givens, 0 on free cells.
    givens: [u8; 81],
    /// Free cells of each box, row-major within the box; `box_len` of them are used.
    box_free: [[u8; 9]; 9],
    box_len: [u8; 9],
    /// Ordered pairs of distinct free cells of each box (`m * (m - 1)` of them), so a box move
    /// costs two draws instead of three.
    box_pairs: [[[u8; 2]; 72]; 9],
    /// Digits missing from each box (as many as it has free cells), ascending.
    pool: [[u8; 9]; 9],
    /// Boxes with at least two free cells: the only ones where a box swap changes anything.
    movable_boxes: [u8; 9],
    n_movable: usize,
    /// Free cells of each line: rows 0..9 then columns 9..18.
    line_free: [[u8; 9]; 18],
    line_len: [u8; 18],
    /// Lines whose free cells lie in at least two boxes: the only ones a cross-box swap can use.
    cross_lines: [u8; 18],
    n_cross: usize,
    /// Ordered pairs of free cells of each line lying in different boxes (at most 9 * 6).
    line_pairs: [[[u8; 2]; 54]; 18],
    line_pair_len: [u8; 18],
}

impl Layout {
    /// The layout of a puzzle (its givens stay fixed).
    pub(crate) fn new(puzzle: &SudokuPuzzle) -> Layout {
        let givens = *puzzle.cells();
        let mut l = Layout {
            givens,
            box_free: [[0; 9]; 9],
            box_len: [0; 9],
            box_pairs: [[[0; 2]; 72]; 9],
            pool: [[0; 9]; 9],
            movable_boxes: [0; 9],
            n_movable: 0,
            line_free: [[0; 9]; 18],
            line_len: [0; 18],
            cross_lines: [0; 18],
            n_cross: 0,
            line_pairs: [[[0; 2]; 54]; 18],
            line_pair_len: [0; 18],
        };
        for b in 0..9 {
            let mut present = [false; 10];
            for &c in &UNITS[18 + b] {
                let v = givens[c as usize];
                if v == 0 {
                    l.box_free[b][l.box_len[b] as usize] = c;
                    l.box_len[b] += 1;
                } else {
                    present[v as usize] = true;
                }
            }
            let mut n = 0;
            for d in 1..=9u8 {
                if !present[d as usize] {
                    l.pool[b][n] = d;
                    n += 1;
                }
            }
            // Holds because a SudokuPuzzle never repeats a given within a box.
            debug_assert_eq!(n, l.box_len[b] as usize);
            let m = l.box_len[b] as usize;
            let mut k = 0;
            for i in 0..m {
                for j in 0..m {
                    if i != j {
                        l.box_pairs[b][k] = [l.box_free[b][i], l.box_free[b][j]];
                        k += 1;
                    }
                }
            }
            if m >= 2 {
                l.movable_boxes[l.n_movable] = b as u8;
                l.n_movable += 1;
            }
        }
        for (line, members) in UNITS[..18].iter().enumerate() {
            for &c in members {
                if givens[c as usize] == 0 {
                    l.line_free[line][l.line_len[line] as usize] = c;
                    l.line_len[line] += 1;
                }
            }
            let free = &l.line_free[line][..l.line_len[line] as usize];
            let mut k = 0;
            for &a in free {
                for &b in free {
                    if BOX[a as usize] != BOX[b as usize] {
                        l.line_pairs[line][k] = [a, b];
                        k += 1;
                    }
                }
            }
            l.line_pair_len[line] = k as u8;
            if k > 0 {
                l.cross_lines[l.n_cross] = line as u8;
                l.n_cross += 1;
            }
        }
        l
    }

    /// Whether the neighbourhood has any move at all (else the encoding is a single point).
    pub(crate) fn can_move(&self, cross: bool) -> bool {
        if cross {
            self.n_cross > 0
        } else {
            self.n_movable > 0
        }
    }

    /// Box move: a box among those with >= 2 free cells, then two distinct free cells of it
    /// (an ordered pair, uniform). Requires `can_move(false)`.
    #[inline(always)]
    pub(crate) fn pick_box_move<R: Rng + ?Sized>(&self, rng: &mut R) -> (usize, usize) {
        let r = rng.next_u64();
        let b = self.movable_boxes[below(r as u32, self.n_movable as u32, rng) as usize] as usize;
        let m = u32::from(self.box_len[b]);
        let [a, c] = self.box_pairs[b][below((r >> 32) as u32, m * (m - 1), rng) as usize];
        (a as usize, c as usize)
    }

    /// Cross-box move: a row or column whose free cells span >= 2 boxes, then an ordered pair of
    /// its free cells lying in different boxes, uniform. Requires `can_move(true)`.
    #[inline(always)]
    pub(crate) fn pick_cross_move<R: Rng + ?Sized>(&self, rng: &mut R) -> (usize, usize) {
        let r = rng.next_u64();
        let line = self.cross_lines[below(r as u32, self.n_cross as u32, rng) as usize] as usize;
        let n = u32::from(self.line_pair_len[line]);
        let [a, b] = self.line_pairs[line][below((r >> 32) as u32, n, rng) as usize];
        (a as usize, b as usize)
    }
}

/// A number in `0..range` from 32 random bits `bits`, by Canon's method as `rand` 0.9 does for
/// `u32` ranges (multiply, and in the rare biased case fold in 32 more bits from `rng`). Moves
/// take both halves of one `u64` draw this way: one generator step per move instead of two.
#[inline(always)]
fn below<R: Rng + ?Sized>(bits: u32, range: u32, rng: &mut R) -> u32 {
    let m = u64::from(bits) * u64::from(range);
    let (hi, lo) = ((m >> 32) as u32, m as u32);
    if lo > range.wrapping_neg() {
        let new_hi = ((u64::from(rng.next_u32()) * u64::from(range)) >> 32) as u32;
        if lo.checked_add(new_hi).is_none() {
            return hi + 1;
        }
    }
    hi
}

/// How many times each digit (index 1..=9) occurs in one row, column or box.
type Counts = [u8; 10];

/// The same facts as bits, for the delta: bit `d` set when digit `d` occurs in the line, bit
/// `16 + d` set when it occurs at least twice. One load answers both questions a swap asks.
type Mask = u32;

/// Bit `16 + d` of a [`Mask`].
const DUP: u32 = 16;

/// Mask of a line from its counts.
fn mask_of(counts: &Counts) -> Mask {
    let mut m = 0;
    for (d, &n) in counts.iter().enumerate().skip(1) {
        m |= u32::from(n >= 1) << d | u32::from(n >= 2) << (DUP + d as u32);
    }
    m
}

/// Updates the bits of digit `d` in `mask` after its count changed.
#[inline(always)]
fn refresh(mask: &mut Mask, counts: &Counts, d: usize) {
    let clear = !(1u32 << d | 1u32 << (DUP + d as u32));
    *mask = *mask & clear
        | u32::from(counts[d] >= 1) << d
        | u32::from(counts[d] >= 2) << (DUP + d as u32);
}

/// Change of a line's duplicates when one `out` leaves it and one `inn` (≠ `out`) enters:
/// +1 if `inn` was already there, -1 if `out` was there more than once.
#[inline(always)]
fn line_delta(mask: Mask, out: u8, inn: u8) -> i32 {
    ((mask >> inn) & 1) as i32 - ((mask >> (DUP + u32::from(out))) & 1) as i32
}

/// Moves one `x` out of and one `y` into a line, keeping counts and mask in step.
#[inline(always)]
fn exchange(counts: &mut Counts, mask: &mut Mask, x: usize, y: usize) {
    counts[x] -= 1;
    counts[y] += 1;
    refresh(mask, counts, x);
    refresh(mask, counts, y);
}

/// One food source: a full grid consistent with the encoding, its digit counts and fitness.
#[derive(Clone)]
pub(crate) struct Source {
    pub(crate) vals: [u8; 81],
    rows: [Counts; 9],
    cols: [Counts; 9],
    boxes: [Counts; 9],
    row_mask: [Mask; 9],
    col_mask: [Mask; 9],
    box_mask: [Mask; 9],
    /// Row + column duplicates, plus box duplicates in the cross-box variant.
    pub(crate) conflicts: u32,
    /// Consecutive neighbours that did not improve this source.
    pub(crate) trial: u32,
}

impl Source {
    /// An all-zero placeholder, to be randomised before use.
    pub(crate) fn empty() -> Source {
        Source {
            vals: [0; 81],
            rows: [[0; 10]; 9],
            cols: [[0; 10]; 9],
            boxes: [[0; 10]; 9],
            row_mask: [0; 9],
            col_mask: [0; 9],
            box_mask: [0; 9],
            conflicts: 0,
            trial: 0,
        }
    }

    /// A fresh random source: each box's pool shuffled (Fisher–Yates, last index first) into its
    /// free cells; counts and fitness rebuilt, trial reset.
    pub(crate) fn randomize<R: Rng + ?Sized>(&mut self, layout: &Layout, rng: &mut R) {
        self.vals = layout.givens;
        for b in 0..9 {
            let m = layout.box_len[b] as usize;
            let mut perm = layout.pool[b];
            for k in (1..m).rev() {
                let j = rng.random_range(0..=k as u32) as usize;
                perm.swap(k, j);
            }
            for (&cell, &digit) in layout.box_free[b][..m].iter().zip(&perm) {
                self.vals[cell as usize] = digit;
            }
        }
        self.recount();
        self.trial = 0;
    }

    /// Rebuilds counts, masks and fitness from `vals`, which must hold every box whole (as a
    /// fresh encoding does): box counts are then all 1 and add no conflict.
    fn recount(&mut self) {
        self.rows = [[0; 10]; 9];
        self.cols = [[0; 10]; 9];
        self.boxes = [[0, 1, 1, 1, 1, 1, 1, 1, 1, 1]; 9];
        for c in 0..81 {
            let v = self.vals[c] as usize;
            self.rows[ROW[c] as usize][v] += 1;
            self.cols[COL[c] as usize][v] += 1;
        }
        let mut conflicts = 0;
        for k in 0..9 {
            for d in 1..10 {
                conflicts += u32::from(self.rows[k][d].saturating_sub(1))
                    + u32::from(self.cols[k][d].saturating_sub(1));
            }
            self.row_mask[k] = mask_of(&self.rows[k]);
            self.col_mask[k] = mask_of(&self.cols[k]);
            self.box_mask[k] = mask_of(&self.boxes[k]);
        }
        self.conflicts = conflicts;
    }

    /// Change of fitness if cells `a` and `b` swapped values. With `CROSS` box duplicates count
    /// too (the cross-box variant); without it `a` and `b` must share a box (so hold different
    /// digits). Branch-free on purpose: whether the two cells share a row or column is a coin
    /// toss the branch predictor loses, so both terms are computed and masked instead.
    #[inline(always)]
    pub(crate) fn delta<const CROSS: bool>(&self, a: usize, b: usize) -> i32 {
        let (x, y) = (self.vals[a], self.vals[b]);
        if CROSS && x == y {
            return 0;
        }
        let (ra, rb) = (ROW[a] as usize, ROW[b] as usize);
        let (ca, cb) = (COL[a] as usize, COL[b] as usize);
        let rows = line_delta(self.row_mask[ra], x, y) + line_delta(self.row_mask[rb], y, x);
        let cols = line_delta(self.col_mask[ca], x, y) + line_delta(self.col_mask[cb], y, x);
        let mut d = rows * i32::from(ra != rb) + cols * i32::from(ca != cb);
        if CROSS {
            // Cross moves always join two boxes.
            let (ba, bb) = (BOX[a] as usize, BOX[b] as usize);
            d += line_delta(self.box_mask[ba], x, y) + line_delta(self.box_mask[bb], y, x);
        }
        d
    }

    /// Swaps cells `a` and `b`, updating counts, masks and fitness by `delta` (the value
    /// `delta` returned for this swap).
    #[inline(always)]
    pub(crate) fn apply<const CROSS: bool>(&mut self, a: usize, b: usize, delta: i32) {
        let (x, y) = (self.vals[a] as usize, self.vals[b] as usize);
        self.vals.swap(a, b);
        let (ra, rb) = (ROW[a] as usize, ROW[b] as usize);
        exchange(&mut self.rows[ra], &mut self.row_mask[ra], x, y);
        exchange(&mut self.rows[rb], &mut self.row_mask[rb], y, x);
        let (ca, cb) = (COL[a] as usize, COL[b] as usize);
        exchange(&mut self.cols[ca], &mut self.col_mask[ca], x, y);
        exchange(&mut self.cols[cb], &mut self.col_mask[cb], y, x);
        if CROSS {
            let (ba, bb) = (BOX[a] as usize, BOX[b] as usize);
            exchange(&mut self.boxes[ba], &mut self.box_mask[ba], x, y);
            exchange(&mut self.boxes[bb], &mut self.box_mask[bb], y, x);
        }
        self.conflicts = self.conflicts.wrapping_add_signed(delta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::fitness;
    use crate::sudoku::testdata::{demo_puzzle, puzzle};
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    const HARD: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

    fn boxes_whole(vals: &[u8; 81]) -> bool {
        UNITS[18..].iter().all(|u| {
            let mut seen = 0u16;
            for &c in u {
                seen |= 1 << vals[c as usize];
            }
            seen == 0x3FE
        })
    }

    #[test]
    fn random_source_respects_boxes_and_givens() {
        let p = demo_puzzle();
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut s = Source::empty();
        s.randomize(&l, &mut rng);
        assert!(boxes_whole(&s.vals));
        for (i, &g) in p.cells().iter().enumerate() {
            assert!(g == 0 || s.vals[i] == g);
        }
        assert_eq!(s.conflicts, fitness::conflicts(&s.vals, false));
        assert_eq!(s.trial, 0);
    }

    #[test]
    fn moves_are_never_wasted() {
        // Box 1 fully given and box 2 with a single free cell: no move may land there, and
        // cross moves must always join two boxes.
        let sol = crate::sudoku::testdata::demo_solution();
        let mut cells = *demo_puzzle().cells();
        for &c in &UNITS[18] {
            cells[c as usize] = sol[c as usize];
        }
        for &c in &UNITS[19][1..] {
            cells[c as usize] = sol[c as usize];
        }
        cells[UNITS[19][0] as usize] = 0;
        let p = SudokuPuzzle::new(cells).unwrap();
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for _ in 0..2000 {
            let (a, b) = l.pick_box_move(&mut rng);
            assert_ne!(a, b);
            assert_eq!(BOX[a], BOX[b]);
            assert!(BOX[a] >= 2);
            assert_eq!(p.cells()[a], 0);
            assert_eq!(p.cells()[b], 0);
            let (a, b) = l.pick_cross_move(&mut rng);
            assert_ne!(BOX[a], BOX[b]);
            assert!(ROW[a] == ROW[b] || COL[a] == COL[b]);
            assert_eq!(p.cells()[a], 0);
            assert_eq!(p.cells()[b], 0);
        }
    }

    fn check_moves(line: &str, seed: u64, moves: usize, cross: bool) -> Result<(), TestCaseError> {
        let p = puzzle(line);
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut s = Source::empty();
        s.randomize(&l, &mut rng);
        for _ in 0..moves {
            let (a, b) = if cross {
                l.pick_cross_move(&mut rng)
            } else {
                l.pick_box_move(&mut rng)
            };
            let before = s.conflicts;
            let d = if cross {
                s.delta::<true>(a, b)
            } else {
                s.delta::<false>(a, b)
            };
            let mut swapped = s.vals;
            swapped.swap(a, b);
            prop_assert_eq!(
                i64::from(before) + i64::from(d),
                i64::from(fitness::conflicts(&swapped, cross))
            );
            // Apply about half of the moves, as the colony would keep only some.
            if d <= 0 || rng.random_bool(0.5) {
                if cross {
                    s.apply::<true>(a, b, d);
                } else {
                    s.apply::<false>(a, b, d);
                }
                prop_assert_eq!(s.conflicts, fitness::conflicts(&s.vals, cross));
            }
        }
        for (i, &g) in p.cells().iter().enumerate() {
            prop_assert!(g == 0 || s.vals[i] == g, "given at cell {} changed", i);
        }
        if !cross {
            prop_assert!(boxes_whole(&s.vals));
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn box_delta_equals_recount_and_boxes_stay_whole(seed in any::<u64>(), moves in 1usize..400) {
            check_moves(HARD, seed, moves, false)?;
            check_moves(crate::sudoku::testdata::DEMO, seed, moves, false)?;
        }

        #[test]
        fn cross_delta_equals_recount(seed in any::<u64>(), moves in 1usize..400) {
            check_moves(HARD, seed, moves, true)?;
            check_moves(crate::sudoku::testdata::DEMO, seed, moves, true)?;
        }
    }
}

#[cfg(test)]
mod micro {
    use super::*;
    use crate::sudoku::testdata::{puzzle, Timer};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    #[ignore]
    fn micro_costs() {
        let p = puzzle(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        );
        let l = Layout::new(&p);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let n = 20_000_000u64;
        let t = Timer::start();
        let mut acc = 0u64;
        for _ in 0..n {
            acc = acc.wrapping_add(u64::from(rng.random_range(0..9u32)));
        }
        eprintln!("random_range: {:.2} ns ({acc})", t.secs() * 1e9 / n as f64);
        let t = Timer::start();
        for _ in 0..n {
            let (a, b) = l.pick_box_move(&mut rng);
            acc = acc.wrapping_add((a ^ b) as u64);
        }
        eprintln!("pick_box_move: {:.2} ns ({acc})", t.secs() * 1e9 / n as f64);
        let mut s = Source::empty();
        s.randomize(&l, &mut rng);
        let t = Timer::start();
        let mut dsum = 0i64;
        for _ in 0..n {
            let (a, b) = l.pick_box_move(&mut rng);
            dsum += i64::from(s.delta::<false>(a, b));
        }
        eprintln!("pick+delta: {:.2} ns ({dsum})", t.secs() * 1e9 / n as f64);
        let t = Timer::start();
        for _ in 0..n {
            acc = acc.wrapping_add((rng.random::<f64>() * 1000.0) as u64);
        }
        eprintln!("f64: {:.2} ns ({acc})", t.secs() * 1e9 / n as f64);
    }
}
