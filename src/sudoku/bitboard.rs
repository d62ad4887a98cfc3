//! Digit-major bitboard for the backtracking solver: for each digit, the set of cells that can
//! still hold it, as the bits of a `u128`. Naked and hidden singles to a fixpoint, like
//! [`super::cands::Board`] (which reaches the same fixpoint and stays the board of the presolver,
//! the logic grader and the tests' reference), but cheaper where the solver spends its time:
//!
//! - Placing a digit is nine mask operations (the digit leaves the 20 peers in one `AND NOT`,
//!   every other digit leaves the cell) instead of a walk over the peers.
//! - Naked singles are the cells in exactly one digit set: a once/twice accumulation over nine
//!   words instead of a per-peer test at every elimination.
//! - Hidden singles of a digit can only appear when its set shrinks, so each digit carries a
//!   dirty bit and only dirty digits are rescanned, instead of all 27 units after every change.
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
}

impl Bitboard {
    /// The board of a puzzle with its givens placed, not yet propagated. Err when a given has
    /// no place or a blank cell has no candidate left.
    pub(crate) fn new(puzzle: &SudokuPuzzle) -> Result<Bitboard, Contradiction> {
        let mut b = Bitboard {
            pos: [CELLS; 9],
            unsolved: CELLS,
            dirty: ALL_DIGITS,
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
            let box_once = (once | once >> 1 | once >> 2) & BOX_FIRST;
            let box_twice = (twice
                | twice >> 1
                | twice >> 2
                | (once & (once >> 1 | once >> 2))
                | ((once >> 1) & (once >> 2)))
                & BOX_FIRST;
            if box_once != BOX_FIRST {
                return Err(Contradiction);
            }
            single |= w & spread(7 * (box_once & !box_twice));
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

    /// Naked and hidden singles to a fixpoint. On `Err` the board is garbage.
    pub(crate) fn propagate(&mut self) -> Result<(), Contradiction> {
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
                return Ok(());
            }
            let d = self.dirty.trailing_zeros() as usize;
            self.dirty &= self.dirty - 1;
            let cells = self.hidden_singles(d)?;
            if cells != 0 {
                self.place_all(d, cells)?;
                placed = true;
            }
        }
    }

    /// The unsolved cell with the fewest candidates (first in row-major order on ties), or None
    /// when every cell is placed.
    pub(crate) fn fewest_candidates(&self) -> Option<usize> {
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
            if m != 0 {
                return Some(cell_of(m.trailing_zeros()));
            }
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
    use crate::sudoku::testdata::{corpus, demo_puzzle, demo_solution, puzzle, random_puzzle};
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Candidates per cell as [`Board`] keeps them: 0 for a placed cell.
    fn cands(b: &Bitboard) -> [u16; 81] {
        std::array::from_fn(|c| b.candidates(c))
    }

    fn propagated(p: &SudokuPuzzle) -> Option<Bitboard> {
        let mut b = Bitboard::new(p).ok()?;
        b.propagate().ok()?;
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
        assert_eq!(b.fewest_candidates(), None);
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
        b.propagate().unwrap();
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
        assert_eq!(b.propagate(), Err(Contradiction));
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

    /// Propagates both boards and checks they agree, then does the same for every child of the
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
    ) {
        seen.nodes += 1;
        let ok = old.propagate(pending).is_ok();
        assert_eq!(ok, new.propagate().is_ok(), "{line} at node {}", seen.nodes);
        if !ok {
            seen.contradictions += 1;
            return;
        }
        assert_eq!(old.vals, new.values(), "{line} at node {}", seen.nodes);
        assert_eq!(old.cand, cands(&new), "{line} at node {}", seen.nodes);
        let cell = old.fewest_candidates();
        assert_eq!(
            cell,
            new.fewest_candidates(),
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
            lockstep(o, n, pending, seen, budget, line);
        }
    }

    #[test]
    fn fixpoints_match_the_cell_major_board_along_search_trees() {
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
                    lockstep(old, new, &mut pending, &mut seen, budget, &line);
                }
                (Err(_), Err(_)) => pending.clear(),
                _ => panic!("{line}: only one board reports a contradiction"),
            }
        }
        // The sample covers all three outcomes.
        let counts = (seen.solved, seen.stuck, seen.contradictions);
        assert!(
            counts.0 > 1000 && counts.1 > 10000 && counts.2 > 500,
            "{counts:?}"
        );
    }

    #[test]
    fn fixpoints_match_the_cell_major_board_on_the_corpus() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        let all = crate::sudoku::parse::parse_lines(&text).unwrap();
        let mut seen = Seen::default();
        for p in all.iter().step_by(7) {
            let mut pending = Pending::new();
            let old = Board::new(&p.puzzle, &mut pending).unwrap();
            let new = Bitboard::new(&p.puzzle).unwrap();
            let budget = seen.nodes + 500;
            lockstep(
                old,
                new,
                &mut pending,
                &mut seen,
                budget,
                &p.puzzle.to_line(),
            );
        }
        assert!(seen.solved > 100);
    }
}
