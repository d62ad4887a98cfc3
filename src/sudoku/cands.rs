//! Bitmask candidate board shared by the singles presolver and the logic grader (and the
//! reference the backtracking solver's own board is tested against): naked and hidden singles
//! to a fixpoint.
//!
//! Digit `d` (1..=9) is bit `d - 1` of a `u16`. The board is small (~350 bytes) and `Copy`, so
//! the search branches by copying it rather than keeping an undo log.

use super::contradiction::Contradiction;
use super::grid::{SudokuPuzzle, PEERS, UNITS};

/// All nine digit bits.
pub(crate) const ALL: u16 = 0x1FF;

/// The three units (row, column, box in [`UNITS`] numbering) of each cell.
pub(crate) const CELL_UNITS: [[u8; 3]; 81] = {
    let mut t = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = [
            (c / 9) as u8,
            (9 + c % 9) as u8,
            (18 + (c / 27) * 3 + (c % 9) / 3) as u8,
        ];
        c += 1;
    }
    t
};

/// Cells that became naked singles and still have to be placed. At most 81 pushes happen per
/// board because a cell's candidate set only shrinks, so it turns single at most once.
pub(crate) struct Pending {
    cells: [u8; 81],
    len: usize,
}

impl Pending {
    pub(crate) fn new() -> Self {
        Pending {
            cells: [0; 81],
            len: 0,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    fn push(&mut self, cell: u8) {
        // A cell can be pushed once per board, but a board copied for a branch inherits no
        // pending entries (the stack is cleared on every exit), so `len < 81` always holds.
        if self.len < 81 {
            self.cells[self.len] = cell;
            self.len += 1;
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<usize> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cells[self.len] as usize)
        }
    }
}

/// Candidates and placements.
#[derive(Clone, Copy)]
pub(crate) struct Board {
    /// Candidate digits of each unsolved cell; 0 once a cell is solved.
    pub(crate) cand: [u16; 81],
    /// Placed digit of each cell, 0 while unsolved.
    pub(crate) vals: [u8; 81],
    /// Digits already placed in each unit.
    placed: [u16; 27],
    /// Number of unsolved cells.
    pub(crate) left: u8,
}

impl Board {
    /// The board of a puzzle with its givens placed (no propagation beyond elimination yet;
    /// naked singles found so far wait in `pending`).
    pub(crate) fn new(
        puzzle: &SudokuPuzzle,
        pending: &mut Pending,
    ) -> Result<Board, Contradiction> {
        let mut b = Board {
            cand: [ALL; 81],
            vals: [0; 81],
            placed: [0; 27],
            left: 81,
        };
        pending.clear();
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let bit = 1u16 << (v - 1);
                if b.cand[cell] & bit == 0 {
                    return Err(Contradiction);
                }
                b.place(cell, bit, pending)?;
            }
        }
        Ok(b)
    }

    /// Puts the digit `bit` in `cell` and removes it from the 20 peers, queueing peers that
    /// become naked singles. The caller guarantees `bit` is a candidate of `cell`.
    #[inline]
    pub(crate) fn place(
        &mut self,
        cell: usize,
        bit: u16,
        pending: &mut Pending,
    ) -> Result<(), Contradiction> {
        self.vals[cell] = bit.trailing_zeros() as u8 + 1;
        self.cand[cell] = 0;
        self.left -= 1;
        for &u in &CELL_UNITS[cell] {
            self.placed[u as usize] |= bit;
        }
        // Store unconditionally and test only the rare outcome (a peer left with one candidate
        // or none): whether a peer had the digit is a coin toss for the branch predictor, and
        // this loop is the solver's hottest.
        for &p in &PEERS[cell] {
            let c = self.cand[p as usize];
            let n = c & !bit;
            self.cand[p as usize] = n;
            if n & n.wrapping_sub(1) == 0 && c != n {
                if n == 0 {
                    return Err(Contradiction);
                }
                pending.push(p);
            }
        }
        Ok(())
    }

    /// Removes the digits of `mask` from an unsolved `cell` (solved cells have no candidates and
    /// are left alone), queueing it if it becomes a naked single. True when something changed.
    pub(crate) fn eliminate(
        &mut self,
        cell: usize,
        mask: u16,
        pending: &mut Pending,
    ) -> Result<bool, Contradiction> {
        let c = self.cand[cell];
        if c & mask == 0 {
            return Ok(false);
        }
        let n = c & !mask;
        if n == 0 {
            return Err(Contradiction);
        }
        self.cand[cell] = n;
        if n & (n - 1) == 0 {
            pending.push(cell as u8);
        }
        Ok(true)
    }

    /// Naked and hidden singles (rows, columns, boxes) to a fixpoint. On `Err` the board is
    /// garbage and `pending` is cleared; on `Ok` `pending` is empty.
    pub(crate) fn propagate(&mut self, pending: &mut Pending) -> Result<(), Contradiction> {
        let r = self.propagate_inner(pending);
        if r.is_err() {
            pending.clear();
        }
        r
    }

    fn propagate_inner(&mut self, pending: &mut Pending) -> Result<(), Contradiction> {
        loop {
            while let Some(cell) = pending.pop() {
                let c = self.cand[cell];
                if c != 0 {
                    self.place(cell, c, pending)?;
                }
            }
            if self.left == 0 {
                return Ok(());
            }
            let mut progress = false;
            for (u, members) in UNITS.iter().enumerate() {
                if self.placed[u] == ALL {
                    continue;
                }
                // `once`: digits with at least one place; `twice`: with at least two.
                let (mut once, mut twice) = (0u16, 0u16);
                for &m in members {
                    let c = self.cand[m as usize];
                    twice |= once & c;
                    once |= c;
                }
                if once | self.placed[u] != ALL {
                    return Err(Contradiction);
                }
                let mut exactly = once & !twice;
                while exactly != 0 {
                    let bit = exactly & exactly.wrapping_neg();
                    exactly ^= bit;
                    // If an earlier hidden single of this unit took the cell, the digit has no
                    // place left: two digits needed the same cell.
                    let cell = members
                        .iter()
                        .map(|&m| m as usize)
                        .find(|&m| self.cand[m] & bit != 0)
                        .ok_or(Contradiction)?;
                    self.place(cell, bit, pending)?;
                    progress = true;
                }
            }
            if !progress {
                return Ok(());
            }
        }
    }

    /// The reference for the backtracking solver's branching rule: an unsolved cell with the
    /// fewest candidates; among those, with `most_peers`, one with the most unsolved peers; then
    /// the first in row-major order. None when every cell is solved. (Without `most_peers` it
    /// is the rule of the solver's previous version, which ran on this board.)
    #[cfg(test)]
    pub(crate) fn branch_cell(&self, most_peers: bool) -> Option<usize> {
        let unsolved_peers = |c: usize| {
            PEERS[c]
                .iter()
                .filter(|&&p| self.cand[p as usize] != 0)
                .count()
        };
        let mut best: Option<(u32, usize, usize)> = None;
        for (cell, &c) in self.cand.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let n = c.count_ones();
            let peers = if most_peers { unsolved_peers(cell) } else { 0 };
            if best.is_none_or(|(bn, bp, _)| n < bn || (n == bn && peers > bp)) {
                best = Some((n, peers, cell));
            }
        }
        best.map(|(_, _, cell)| cell)
    }

    /// The peers of an unsolved cell that have candidate `bit` too: what placing it there takes.
    #[cfg(test)]
    pub(crate) fn takes(&self, cell: usize, bit: u16) -> u32 {
        PEERS[cell]
            .iter()
            .filter(|&&p| self.cand[usize::from(p)] & bit != 0)
            .count() as u32
    }
}
