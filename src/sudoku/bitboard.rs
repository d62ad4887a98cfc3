//! Digit-major bitboard for the backtracking solver: for each digit, the set of cells that can
//! still hold it, as the bits of a `u128`. Naked and hidden singles to a fixpoint, like
//! [`super::cands::Board`] (which reaches the same fixpoint and stays the board of the presolver,
//! the logic grader and the tests' reference), plus locked candidates, and cheaper where the
//! solver spends its time:
//!
//! - Placing digits is a few mask operations: the digit leaves the peers of all the cells placed
//!   at once in one `AND NOT`, and every other digit leaves the cells.
//! - Naked singles are the cells in exactly one digit set: a once/twice accumulation over nine
//!   words instead of a per-peer test at every elimination.
//! - A digit's hidden singles and locked candidates depend on its own set alone, so each digit
//!   carries dirty bits and only digits whose set changed are rescanned, instead of all 27 units
//!   after every change.
//!
//! Layout: the three bands (rows 1-3, 4-6, 7-9) sit in 32-bit lanes. Cell `c` is bit
//! `32 * (c / 27) + c % 27`, so inside a lane a cell is bit `9 * row + col` (row 0..3 within the
//! band) and each row is a 9-bit field. Lane bits 27..32 are always zero.

use super::grid::{Solution, SudokuPuzzle, PEERS as PEER_LIST};
use super::presolve::Contradiction;

/// The nine digit bits of a digit mask (digit `d` is bit `d - 1`).
const ALL_DIGITS: u16 = 0x1FF;
/// One lane's 27 cells.
const LANE: u128 = (1 << 27) - 1;
/// Every cell of the grid.
const CELLS: u128 = LANE | LANE << 32 | LANE << 64;
/// The first column of each box in a 9-bit column mask.
const BOX_FIRST: u32 = 0b001_001_001;

/// The bit of a cell.
const fn bit(cell: usize) -> u128 {
    1 << (32 * (cell / 27) + cell % 27)
}

/// The cell of a bit position (the inverse of [`bit`]).
fn cell_of(pos: u32) -> usize {
    (pos / 32 * 27 + pos % 32) as usize
}

/// The 20 peers of each cell as a set.
const PEERS: [u128; 81] = {
    let mut t = [0u128; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            t[c] |= bit(PEER_LIST[c][k] as usize);
            k += 1;
        }
        c += 1;
    }
    t
};

/// [`PEERS`] by bit position (see [`bit`]) rather than by cell: the positions of a set's bits
/// index it without converting them to cells. Lane bits 27..32 are never set, their entries 0.
const PEERS_AT: [u128; 96] = {
    let mut t = [0u128; 96];
    let mut c = 0;
    while c < 81 {
        t[32 * (c / 27) + c % 27] = PEERS[c];
        c += 1;
    }
    t
};

/// The boxes (bits 0, 3, 6: each box's first column) where a 9-bit row or column mask has a bit.
fn fold_boxes(m: u32) -> u32 {
    (m | m >> 1 | m >> 2) & BOX_FIRST
}

/// The boxes where a 9-bit row or column mask has at least two bits.
fn fold_boxes_twice(m: u32) -> u32 {
    ((m & (m >> 1 | m >> 2)) | ((m >> 1) & (m >> 2))) & BOX_FIRST
}

/// Box bits (0, 3, 6) widened to the boxes' three columns.
fn spread_box(b: u32) -> u32 {
    7 * b
}

/// A 9-bit column mask copied into the three rows of a lane.
fn spread(cols: u32) -> u32 {
    cols * (1 | 1 << 9 | 1 << 18)
}

/// Candidates and placements, digit-major. `Copy` (160 bytes): the search branches by copying.
#[derive(Clone, Copy)]
pub(crate) struct Bitboard {
    /// `pos[d]`: the cells that can hold digit `d + 1`. A placed cell stays only in its own
    /// digit's set and a placed digit leaves all its peers, so a unit where `d + 1` is placed
    /// holds exactly that one cell of `pos[d]`.
    pos: [u128; 9],
    /// Cells not placed yet.
    unsolved: u128,
    /// Digits (bit `d` for `pos[d]`) whose set changed since its last hidden-single scan. The
    /// scan reads nothing but the digit's own set and which of its cells are placed (a cell of
    /// the set is placed only with that digit), so a clean digit cannot have a new hidden single
    /// or a new unit without a place.
    dirty: u16,
    /// Digits whose set changed since their last locked-candidates scan (which, like the
    /// hidden-single scan, reads only the digit's own set). A digit moves here from `dirty` when
    /// its hidden singles are scanned.
    stale: u16,
}

impl Bitboard {
    /// The board of a puzzle with its givens placed, not yet propagated. Err when a given has
    /// no place or a blank cell has no candidate left.
    pub(crate) fn new(puzzle: &SudokuPuzzle) -> Result<Bitboard, Contradiction> {
        let mut b = Bitboard {
            pos: [CELLS; 9],
            unsolved: CELLS,
            dirty: ALL_DIGITS,
            stale: 0,
        };
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                b.place(usize::from(v - 1), cell)?;
            }
        }
        b.naked_singles()?;
        Ok(b)
    }

    /// Puts digit `d + 1` in `cell`. Err when the cell is placed already or cannot hold it.
    pub(crate) fn place(&mut self, d: usize, cell: usize) -> Result<(), Contradiction> {
        self.place_all(d, bit(cell))
    }

    /// Puts digit `d + 1` in every cell of `cells` at once. Err when one of them is placed
    /// already or cannot hold it, or two of them see each other (they would both need it).
    #[inline]
    fn place_all(&mut self, d: usize, cells: u128) -> Result<(), Contradiction> {
        for (e, set) in self.pos.iter_mut().enumerate() {
            if e != d {
                let next = *set & !cells;
                self.dirty |= u16::from(next != *set) << e;
                *set = next;
            }
        }
        self.place_sole(d, cells)
    }

    /// [`Self::place_all`] for cells where `d + 1` is the only candidate (naked singles): no
    /// other digit's set holds them, so only this digit's set changes.
    #[inline]
    fn place_sole(&mut self, d: usize, cells: u128) -> Result<(), Contradiction> {
        let set = self.pos[d];
        if cells & !(set & self.unsolved) != 0 {
            return Err(Contradiction);
        }
        let mut peers = 0;
        let mut rest = cells;
        while rest != 0 {
            peers |= PEERS_AT[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        if peers & cells != 0 {
            return Err(Contradiction);
        }
        self.unsolved &= !cells;
        let next = set & !peers;
        self.dirty |= u16::from(next != set) << d;
        self.pos[d] = next;
        Ok(())
    }

    /// Unsolved cells with exactly one candidate. Err when an unsolved cell has none.
    fn naked_singles(&self) -> Result<u128, Contradiction> {
        let (mut once, mut twice) = (0u128, 0u128);
        for &set in &self.pos {
            let s = set & self.unsolved;
            twice |= once & s;
            once |= s;
        }
        if self.unsolved & !once != 0 {
            return Err(Contradiction);
        }
        Ok(once & !twice)
    }

    /// Unsolved cells that are the only place for digit `d + 1` in a row, column or box. Err
    /// when some unit has no place for it.
    fn hidden_singles(&self, d: usize) -> Result<u128, Contradiction> {
        let set = self.pos[d];
        let mut found = 0u128;
        let mut lanes = [0u32; 3];
        // Per column of the grid: the digit has a place in at least one / two rows.
        let (mut col_once, mut col_twice) = (0u32, 0u32);
        for (k, lane) in lanes.iter_mut().enumerate() {
            let w = (set >> (32 * k)) as u32;
            *lane = w;
            let rows = [w & 0x1FF, (w >> 9) & 0x1FF, w >> 18];
            let mut single = 0u32;
            for (r, &y) in rows.iter().enumerate() {
                if y == 0 {
                    return Err(Contradiction);
                }
                if y & (y - 1) == 0 {
                    single |= y << (9 * r);
                }
            }
            // Per column of the band: a place in at least one / two of its three rows.
            let once = rows[0] | rows[1] | rows[2];
            let twice = (rows[0] & rows[1]) | (rows[2] & (rows[0] | rows[1]));
            // Per box: its three columns folded onto its first column.
            let box_once = fold_boxes(once);
            let box_twice = fold_boxes(twice) | fold_boxes_twice(once);
            if box_once != BOX_FIRST {
                return Err(Contradiction);
            }
            single |= w & spread(spread_box(box_once & !box_twice));
            found |= u128::from(single) << (32 * k);
            col_twice |= twice | (col_once & once);
            col_once |= once;
        }
        if col_once != 0x1FF {
            return Err(Contradiction);
        }
        let col_single = spread(col_once & !col_twice);
        for (k, &w) in lanes.iter().enumerate() {
            found |= u128::from(w & col_single) << (32 * k);
        }
        // Units where the digit is placed hold just that cell: not a new single.
        Ok(found & self.unsolved)
    }

    /// Locked candidates for digit `d + 1`: pointing (a box's places all in one row or column
    /// take the digit from the rest of that line) and claiming (a line's places all in one box
    /// take it from the rest of the box), every elimination the current set allows at once. True
    /// when a candidate was removed. Reads only the digit's own set.
    fn locked_candidates(&mut self, d: usize) -> bool {
        let set = self.pos[d];
        let lanes = [set as u32, (set >> 32) as u32, (set >> 64) as u32];
        // Per band, the columns where the digit has a place.
        let cols = lanes.map(|w| (w | w >> 9 | w >> 18) & 0x1FF);
        let mut remove = [0u32; 3];
        for k in 0..3 {
            let w = lanes[k];
            // Rows. Per row of the band, the boxes where it has places (bits 0, 3, 6).
            let boxes = [0, 9, 18].map(|s| fold_boxes((w >> s) & 0x1FF));
            let once = boxes[0] | boxes[1] | boxes[2];
            let twice = (boxes[0] & boxes[1]) | (boxes[2] & (boxes[0] | boxes[1]));
            // Boxes of the band whose places are all in one row.
            let pointing = once & !twice;
            for (r, &b) in boxes.iter().enumerate() {
                let row = 0x1FF << (9 * r);
                // Pointing: the row outside the boxes confined to it loses the digit. (Two boxes
                // confined to one row is a contradiction this pass also finds: the band's third
                // box is then claimed by both other rows and emptied.) A select, not a branch:
                // the outcome is unpredictable.
                let p = pointing & b;
                remove[k] |= if p != 0 {
                    row & !(spread_box(p) << (9 * r))
                } else {
                    0
                };
                // Claiming: a row with places in one box only takes the digit from the box's
                // other rows.
                let claim = if b & b.wrapping_sub(1) == 0 { b } else { 0 };
                remove[k] |= spread(spread_box(claim)) & !row;
            }
            // Columns. Pointing: a box of the band with places in one column only takes the
            // digit from that column in the other bands.
            let c = cols[k];
            let pointing = c & spread_box(fold_boxes(c) & !fold_boxes_twice(c));
            for (j, r) in remove.iter_mut().enumerate() {
                if j != k {
                    *r |= spread(pointing);
                }
            }
            // Claiming: columns with places in this band only take the digit from the other
            // columns of their box. (Two such columns in one box is a contradiction this pass
            // also finds: the stack's other two boxes then both point at its third column.)
            let only = c & !(cols[(k + 1) % 3] | cols[(k + 2) % 3]);
            remove[k] |= spread(spread_box(fold_boxes(only)) & !only);
        }
        let gone =
            (u128::from(remove[0]) | u128::from(remove[1]) << 32 | u128::from(remove[2]) << 64)
                & self.unsolved;
        let next = set & !gone;
        if next == set {
            return false;
        }
        self.pos[d] = next;
        self.dirty |= 1 << d;
        true
    }

    /// Naked and hidden singles, and with `locked` locked candidates, to a fixpoint. On `Err` the
    /// board is garbage.
    pub(crate) fn propagate(&mut self, locked: bool) -> Result<(), Contradiction> {
        // Whether something was placed since the last naked-singles pass.
        let mut placed = true;
        loop {
            if self.unsolved == 0 {
                return Ok(());
            }
            if placed {
                placed = false;
                let singles = self.naked_singles()?;
                if singles != 0 {
                    for d in 0..9 {
                        // A single that lost its last candidate to an earlier placement of this
                        // pass is in no set any more; the next pass reports it.
                        let cells = singles & self.pos[d];
                        if cells != 0 {
                            self.place_sole(d, cells)?;
                        }
                    }
                    placed = true;
                    continue;
                }
            }
            if self.dirty == 0 {
                if !locked {
                    return Ok(());
                }
                let mut any = false;
                while self.stale != 0 {
                    let d = self.stale.trailing_zeros() as usize;
                    self.stale &= self.stale - 1;
                    any |= self.locked_candidates(d);
                }
                if !any {
                    return Ok(());
                }
                placed = true;
                continue;
            }
            let d = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            self.stale |= 1 << d;
            let cells = self.hidden_singles(d)?;
            if cells != 0 {
                self.place_all(d, cells)?;
                placed = true;
            }
        }
    }

    /// The cell to branch on: an unsolved cell with the fewest candidates; among those, with
    /// `most_peers`, one with the most unsolved peers (the most constrained, whose guesses prune
    /// the most: on top1465 this halves the nodes); then the first in row-major order. None when
    /// every cell is placed.
    pub(crate) fn branch_cell(&self, most_peers: bool) -> Option<usize> {
        if self.unsolved == 0 {
            return None;
        }
        // Bit-sliced count of candidates per cell: bit j of every count in `count[j]`.
        let mut count = [0u128; 4];
        for &set in &self.pos {
            let mut carry = set & self.unsolved;
            for c in count.iter_mut() {
                let sum = *c ^ carry;
                carry &= *c;
                *c = sum;
            }
        }
        // Every unsolved cell has a count in 0..=9, so some `n` matches.
        for n in 0..=9 {
            let mut m = self.unsolved;
            for (j, &c) in count.iter().enumerate() {
                m &= if n >> j & 1 == 1 { c } else { !c };
            }
            if m == 0 {
                continue;
            }
            let mut best = (0, m.trailing_zeros());
            if most_peers {
                while m != 0 {
                    let p = m.trailing_zeros();
                    m &= m - 1;
                    let score = (PEERS_AT[p as usize] & self.unsolved).count_ones();
                    if score > best.0 {
                        best = (score, p);
                    }
                }
            }
            return Some(cell_of(best.1));
        }
        None
    }

    /// The candidate digits of a cell (bit `d` for digit `d + 1`).
    pub(crate) fn candidates(&self, cell: usize) -> u16 {
        let b = bit(cell) & self.unsolved;
        let mut m = 0;
        for (d, &set) in self.pos.iter().enumerate() {
            m |= u16::from(set & b != 0) << d;
        }
        m
    }

    /// The grid: placed digits, 0 for unsolved cells.
    pub(crate) fn values(&self) -> Solution {
        let mut vals = [0u8; 81];
        for (d, &set) in self.pos.iter().enumerate() {
            let mut m = set & !self.unsolved;
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                vals[cell_of(p)] = d as u8 + 1;
            }
        }
        vals
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::cands::{Board, Pending};
    use crate::sudoku::logic::singles_and_locked;
    use crate::sudoku::testdata::{corpus, demo_puzzle, demo_solution, puzzle, random_puzzle};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Candidates per cell as [`Board`] keeps them: 0 for a placed cell.
    fn cands(b: &Bitboard) -> [u16; 81] {
        std::array::from_fn(|c| b.candidates(c))
    }

    fn propagated(p: &SudokuPuzzle) -> Option<Bitboard> {
        let mut b = Bitboard::new(p).ok()?;
        b.propagate(true).ok()?;
        Some(b)
    }

    #[test]
    fn layout_tables() {
        for (c, &peers) in PEERS.iter().enumerate() {
            assert_eq!(cell_of(bit(c).trailing_zeros()), c);
            assert_eq!(peers.count_ones(), 20);
            assert_eq!(peers & bit(c), 0);
            assert_eq!(peers & !CELLS, 0);
            assert_eq!(PEERS_AT[bit(c).trailing_zeros() as usize], peers);
        }
        assert_eq!(CELLS.count_ones(), 81);
    }

    #[test]
    fn singles_solve_the_demo() {
        let b = propagated(&demo_puzzle()).unwrap();
        assert_eq!(b.values(), demo_solution());
        assert_eq!(b.branch_cell(true), None);
    }

    #[test]
    fn hidden_singles_in_a_row_a_column_and_a_box() {
        // Digit 1 in r2c4 and r3c7 leaves row 1 one place for it among c1-c3, and the 2 and 3 in
        // r1c2, r1c3 pin it to r1c1: a hidden single in row 1 (and in box 1).
        let mut line = String::from(".23......");
        line.push_str("...1.....");
        line.push_str("......1..");
        line.push_str(&".".repeat(54));
        let b = Bitboard::new(&puzzle(&line)).unwrap();
        assert_eq!(b.hidden_singles(0), Ok(bit(0)));
        // Column: 5s in r1..r8 outside column 9 leave r9c9 the only 5 of column 9.
        let mut cells = [0u8; 81];
        for (r, c) in [
            (0, 0),
            (1, 3),
            (2, 6),
            (3, 1),
            (4, 4),
            (5, 7),
            (6, 2),
            (7, 5),
        ] {
            cells[r * 9 + c] = 5;
        }
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(b.hidden_singles(4), Ok(bit(80)));
        // Box: 7s in rows 1 and 2 and in columns 1 and 2 leave r3c3 the only 7 of box 1.
        let mut cells = [0u8; 81];
        for (r, c) in [(0, 4), (1, 7), (4, 0), (7, 1)] {
            cells[r * 9 + c] = 7;
        }
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(b.hidden_singles(6), Ok(bit(20)));
        // The fixpoint places it.
        let mut b = b;
        b.propagate(true).unwrap();
        assert_eq!(b.values()[20], 7);
    }

    #[test]
    fn a_unit_without_a_place_is_a_contradiction() {
        // Row 1 holds 1-8 and column 9 a 9 lower down: r1c9 has no candidate, which `new` reports.
        let mut line = String::from("12345678.");
        line.push_str(&".".repeat(27));
        line.push_str("........9");
        line.push_str(&".".repeat(36));
        assert!(Bitboard::new(&puzzle(&line)).is_err());
        // 1s in rows 1-2 and columns 1-2 outside box 1, and a 5 in r3c3: box 1 has no place for 1
        // although every cell keeps candidates.
        let mut cells = [0u8; 81];
        for (r, c) in [(0, 3), (1, 6), (3, 0), (6, 1)] {
            cells[r * 9 + c] = 1;
        }
        cells[20] = 5;
        let b = Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap();
        assert_eq!(b.hidden_singles(0), Err(Contradiction));
        let mut b = b;
        assert_eq!(b.propagate(true), Err(Contradiction));
    }

    /// A board from (row, column, digit) givens, 0-based rows and columns; transposed on request
    /// so one position checks both the row and the column code.
    fn board(givens: &[(usize, usize, u8)], transpose: bool) -> Bitboard {
        let mut cells = [0u8; 81];
        for &(r, c, v) in givens {
            let (r, c) = if transpose { (c, r) } else { (r, c) };
            cells[r * 9 + c] = v;
        }
        Bitboard::new(&SudokuPuzzle::new(cells).unwrap()).unwrap()
    }

    /// The cells (row, column; transposed on request) that locked candidates take digit 1 from.
    fn locked_removals(b: &mut Bitboard, transpose: bool) -> Vec<(usize, usize)> {
        let before = b.pos[0];
        assert!(b.locked_candidates(0));
        let gone = before & !b.pos[0];
        let mut cells: Vec<_> = (0..81)
            .filter(|&c| gone & bit(c) != 0)
            .map(|c| {
                if transpose {
                    (c % 9, c / 9)
                } else {
                    (c / 9, c % 9)
                }
            })
            .collect();
        cells.sort_unstable();
        cells
    }

    #[test]
    fn locked_candidates_pointing_and_claiming() {
        for transpose in [false, true] {
            // Pointing: box 1's second and third rows are full, so its 1 is in row 1 and the
            // rest of row 1 loses it.
            let givens: Vec<_> = (0..3)
                .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
                .collect();
            let mut b = board(&givens, transpose);
            assert_eq!(
                locked_removals(&mut b, transpose),
                (3..9).map(|c| (0, c)).collect::<Vec<_>>()
            );
            // Nothing more to remove for 1.
            assert!(!b.locked_candidates(0));
            // Claiming: row 1 outside box 1 is full, so its 1 is in box 1 and the box's other
            // rows lose it.
            let givens: Vec<_> = (3..9).map(|c| (0, c, c as u8 - 1)).collect();
            let mut b = board(&givens, transpose);
            assert_eq!(
                locked_removals(&mut b, transpose),
                [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
            );
        }
        // Propagation applies them: after the pointing position's fixpoint, row 1 keeps places
        // for 1 in box 1 only.
        let givens: Vec<_> = (0..3)
            .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
            .collect();
        let mut b = board(&givens, false);
        b.propagate(true).unwrap();
        assert_eq!(
            b.pos[0] & (0..9).fold(0, |m, c| m | bit(c)),
            bit(0) | bit(1) | bit(2)
        );
    }

    #[test]
    fn two_boxes_pointing_at_one_row_is_a_contradiction() {
        // Boxes 1 and 2 both have their 1 confined to row 1: row 1 would need two 1s (and box 3
        // is claimed by both rows 2 and 3).
        let mut givens: Vec<_> = (0..3)
            .flat_map(|c| [(1, c, 2 + c as u8), (2, c, 5 + c as u8)])
            .collect();
        givens.extend((3..6).flat_map(|c| [(1, c, 5 + c as u8 - 3), (2, c, 2 + c as u8 - 3)]));
        let mut b = board(&givens, false);
        assert!(b.locked_candidates(0));
        assert_eq!(b.hidden_singles(0), Err(Contradiction));
        let mut b = board(&givens, false);
        assert_eq!(b.propagate(true), Err(Contradiction));
    }

    #[test]
    fn two_lines_claiming_one_box_is_a_contradiction() {
        // Columns 1 and 2 are full below band 1, so both have their 1 in box 1: it would need
        // two (and boxes 4 and 7 both need column 3). Transposed: rows 1 and 2, full right of
        // stack 1.
        let mut givens: Vec<_> = (3..6)
            .flat_map(|r| [(r, 0, r as u8 - 1), (r, 1, r as u8 + 2)])
            .collect();
        givens.extend((6..9).flat_map(|r| [(r, 0, r as u8 - 1), (r, 1, r as u8 - 4)]));
        for transpose in [false, true] {
            let mut b = board(&givens, transpose);
            assert!(b.locked_candidates(0));
            assert_eq!(b.hidden_singles(0), Err(Contradiction));
        }
    }

    /// Outcomes seen by [`lockstep`]: fixpoints solved, fixpoints that need a guess, and
    /// contradictions.
    #[derive(Default)]
    struct Seen {
        solved: u32,
        stuck: u32,
        contradictions: u32,
        nodes: u32,
    }

    /// Propagates both boards (the reference: [`Board`]'s singles, with `locked` also the logic
    /// grader's locked candidates, to a fixpoint) and checks they agree, and agree on the cell to
    /// branch on (with `locked`, the current rule; else the previous one), then does the same for every child of the
    /// branching cell, depth first, until `seen.nodes` reaches `budget`. Search states reach
    /// contradictions the givens of a puzzle rarely do (a digit with no place left in a unit
    /// although every cell keeps a candidate).
    fn lockstep(
        mut old: Board,
        mut new: Bitboard,
        pending: &mut Pending,
        seen: &mut Seen,
        budget: u32,
        line: &str,
        locked: bool,
    ) {
        seen.nodes += 1;
        let ok = if locked {
            singles_and_locked(&mut old, pending).is_ok()
        } else {
            old.propagate(pending).is_ok()
        };
        assert_eq!(
            ok,
            new.propagate(locked).is_ok(),
            "{line} at node {}",
            seen.nodes
        );
        if !ok {
            seen.contradictions += 1;
            return;
        }
        assert_eq!(old.vals, new.values(), "{line} at node {}", seen.nodes);
        assert_eq!(old.cand, cands(&new), "{line} at node {}", seen.nodes);
        let cell = old.branch_cell(locked);
        assert_eq!(
            cell,
            new.branch_cell(locked),
            "{line} at node {}",
            seen.nodes
        );
        let Some(cell) = cell else {
            seen.solved += 1;
            return;
        };
        seen.stuck += 1;
        let mut rest = old.cand[cell];
        while rest != 0 && seen.nodes < budget {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            let (mut o, mut n) = (old, new);
            // After a fixpoint no peer is down to one candidate, so neither placement fails.
            o.place(cell, bit, pending).unwrap();
            n.place(bit.trailing_zeros() as usize, cell).unwrap();
            lockstep(o, n, pending, seen, budget, line, locked);
        }
    }

    #[test]
    fn fixpoints_match_the_reference_along_search_trees() {
        for locked in [false, true] {
            let mut rng = Pcg64Mcg::seed_from_u64(7);
            let mut seen = Seen::default();
            for i in 0..1500 {
                let keep = rng.random_range(17..36);
                let noise = if i % 2 == 0 {
                    0
                } else {
                    rng.random_range(1..6)
                };
                let p = random_puzzle(&mut rng, keep, noise);
                let line = p.to_line();
                let mut pending = Pending::new();
                match (Board::new(&p, &mut pending), Bitboard::new(&p)) {
                    (Ok(old), Ok(new)) => {
                        let budget = seen.nodes + 60;
                        lockstep(old, new, &mut pending, &mut seen, budget, &line, locked);
                    }
                    (Err(_), Err(_)) => pending.clear(),
                    _ => panic!("{line}: only one board reports a contradiction"),
                }
            }
            // The sample covers all three outcomes.
            let counts = (seen.solved, seen.stuck, seen.contradictions);
            assert!(
                counts.0 > 1000 && counts.1 > 5000 && counts.2 > 500,
                "locked {locked}: {counts:?}"
            );
        }
    }

    #[test]
    fn fixpoints_match_the_reference_on_the_corpus() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        let all = crate::sudoku::parse::parse_lines(&text).unwrap();
        for locked in [false, true] {
            let mut seen = Seen::default();
            for p in all.iter().step_by(7) {
                let mut pending = Pending::new();
                let old = Board::new(&p.puzzle, &mut pending).unwrap();
                let new = Bitboard::new(&p.puzzle).unwrap();
                let budget = seen.nodes + 500;
                let line = p.puzzle.to_line();
                lockstep(old, new, &mut pending, &mut seen, budget, &line, locked);
            }
            assert!(seen.solved > 100, "locked {locked}: {}", seen.solved);
        }
    }
}
