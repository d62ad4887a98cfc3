//! A human-style solver for grading: singles, then locked candidates (pointing and claiming) and
//! naked and hidden subsets (pairs and triples), never guessing. A puzzle it cannot finish
//! "needs guessing with this technique set"; X-wings, chains and the like are deliberately
//! absent, so "hard" means hard for this set, not for a human expert.

use super::cands::{Board, Pending};
use super::grid::{SudokuPuzzle, BOX, COL, ROW, UNITS};

/// How far pure logic got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Logic {
    /// Filled; `advanced` when some technique beyond singles was needed.
    Solved { advanced: bool },
    /// No technique applies and blanks remain.
    Stuck,
    /// The puzzle has no solution.
    Contradiction,
}

/// Runs the technique set to a fixpoint, singles first and the others only when singles stall.
pub(crate) fn solve(puzzle: &SudokuPuzzle) -> Logic {
    let mut pending = Pending::new();
    let Ok(mut board) = Board::new(puzzle, &mut pending) else {
        return Logic::Contradiction;
    };
    let mut advanced = false;
    loop {
        if board.propagate(&mut pending).is_err() {
            return Logic::Contradiction;
        }
        if board.left == 0 {
            return Logic::Solved { advanced };
        }
        let step = locked_candidates(&mut board, &mut pending)
            .and_then(|done| {
                if done {
                    Ok(true)
                } else {
                    naked_subsets(&mut board, &mut pending)
                }
            })
            .and_then(|done| {
                if done {
                    Ok(true)
                } else {
                    hidden_subsets(&mut board, &mut pending)
                }
            });
        match step {
            Err(_) => return Logic::Contradiction,
            Ok(false) => return Logic::Stuck,
            Ok(true) => advanced = true,
        }
    }
}

type Step = Result<bool, super::contradiction::Contradiction>;

/// Unit-index positions (bit k = k-th cell of the unit) of digit `bit` in unit `u`.
fn positions(board: &Board, u: usize, bit: u16) -> u16 {
    let mut m = 0;
    for (k, &c) in UNITS[u].iter().enumerate() {
        if board.cand[c as usize] & bit != 0 {
            m |= 1 << k;
        }
    }
    m
}

/// Pointing (a box's candidates for a digit all in one row or column: the rest of that line
/// loses the digit) and claiming (a line's candidates all in one box: the rest of the box loses
/// it). True when a candidate was removed.
fn locked_candidates(board: &mut Board, pending: &mut Pending) -> Step {
    let mut changed = false;
    for (u, members) in UNITS.iter().enumerate() {
        for d in 0..9 {
            let bit = 1u16 << d;
            let pos = positions(board, u, bit);
            if pos.count_ones() < 2 {
                continue;
            }
            let cells: Vec<usize> = members
                .iter()
                .enumerate()
                .filter(|(k, _)| pos & (1 << k) != 0)
                .map(|(_, &c)| c as usize)
                .collect();
            let same = |f: &[u8; 81]| cells.iter().all(|&c| f[c] == f[cells[0]]);
            // Other units that contain all of these cells.
            let mut targets = [usize::MAX; 2];
            if u >= 18 {
                if same(&ROW) {
                    targets[0] = ROW[cells[0]] as usize;
                }
                if same(&COL) {
                    targets[1] = 9 + COL[cells[0]] as usize;
                }
            } else if same(&BOX) {
                targets[0] = 18 + BOX[cells[0]] as usize;
            }
            for t in targets.into_iter().filter(|&t| t != usize::MAX) {
                for &c in &UNITS[t] {
                    let c = c as usize;
                    if !cells.contains(&c) {
                        changed |= board.eliminate(c, bit, pending)?;
                    }
                }
            }
            if changed {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Naked and hidden singles and locked candidates to a fixpoint on the cell-major board: the
/// reference the backtracking solver's bitboard propagation is tested against. On `Err` the
/// board is garbage and `pending` is cleared.
#[cfg(test)]
pub(crate) fn singles_and_locked(board: &mut Board, pending: &mut Pending) -> Step {
    loop {
        board.propagate(pending)?;
        match locked_candidates(board, pending) {
            Ok(true) => {}
            Ok(false) => return Ok(true),
            Err(e) => {
                pending.clear();
                return Err(e);
            }
        }
    }
}

/// Naked pairs and triples: k unsolved cells of a unit whose candidates together are k digits;
/// the unit's other cells lose those digits.
fn naked_subsets(board: &mut Board, pending: &mut Pending) -> Step {
    for members in &UNITS {
        let cells: Vec<usize> = members
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| board.cand[c] != 0)
            .collect();
        for k in 2..=3usize {
            if cells.len() <= k {
                continue;
            }
            for combo in combinations(cells.len(), k) {
                let union = combo.iter().fold(0u16, |m, &i| m | board.cand[cells[i]]);
                if union.count_ones() as usize != k {
                    continue;
                }
                let mut changed = false;
                for (i, &c) in cells.iter().enumerate() {
                    if !combo.contains(&i) {
                        changed |= board.eliminate(c, union, pending)?;
                    }
                }
                if changed {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// Hidden pairs and triples: k digits of a unit that fit only in the same k cells; those cells
/// lose every other digit.
fn hidden_subsets(board: &mut Board, pending: &mut Pending) -> Step {
    for (u, members) in UNITS.iter().enumerate() {
        let digits: Vec<(u16, u16)> = (0..9)
            .map(|d| (1u16 << d, positions(board, u, 1u16 << d)))
            .filter(|&(_, pos)| pos != 0)
            .collect();
        for k in 2..=3usize {
            if digits.len() <= k {
                continue;
            }
            for combo in combinations(digits.len(), k) {
                let places = combo.iter().fold(0u16, |m, &i| m | digits[i].1);
                if places.count_ones() as usize != k {
                    continue;
                }
                let keep = combo.iter().fold(0u16, |m, &i| m | digits[i].0);
                let mut changed = false;
                for (j, &c) in members.iter().enumerate() {
                    if places & (1 << j) != 0 {
                        changed |= board.eliminate(c as usize, !keep & 0x1FF, pending)?;
                    }
                }
                if changed {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// All k-subsets of 0..n in lexicographic order (k is 2 or 3 here; n <= 9).
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut combo: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(combo.clone());
        let mut i = k;
        while i > 0 && combo[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        combo[i - 1] += 1;
        for j in i..k {
            combo[j] = combo[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::testdata::{demo_puzzle, puzzle, TOP1465_FIRST};

    #[test]
    fn combinations_are_complete() {
        assert_eq!(combinations(4, 2).len(), 6);
        assert_eq!(combinations(9, 3).len(), 84);
        assert_eq!(combinations(3, 3), vec![vec![0, 1, 2]]);
        assert!(combinations(2, 3).is_empty());
    }

    #[test]
    fn singles_puzzle_needs_nothing_advanced() {
        assert_eq!(solve(&demo_puzzle()), Logic::Solved { advanced: false });
    }

    #[test]
    fn hardest_puzzles_are_stuck() {
        // top1465 #1 and a forum-hardest puzzle need more than this technique set.
        for line in [
            TOP1465_FIRST,
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
        ] {
            assert_eq!(solve(&puzzle(line)), Logic::Stuck);
        }
    }
}
