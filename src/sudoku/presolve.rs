//! Naked and hidden singles to a fixpoint: the article's pre-solver, used by the `abc-hybrid`
//! strategy to shrink a puzzle before the colony runs.

use super::cands::{Board, Pending};
use super::grid::SudokuPuzzle;

// Re-exported: `presolve::Contradiction` is the type's public path.
pub use super::contradiction::Contradiction;

/// Naked and hidden singles (rows, cols, boxes) to a fixpoint. Err(Contradiction) when a cell has
/// no candidate or a unit can't place a digit. Returns the filled grid and the number of blanks
/// left. Singles are sound, so every filled cell holds the value of every solution.
pub fn singles(puzzle: &SudokuPuzzle) -> Result<(SudokuPuzzle, u32), Contradiction> {
    let mut pending = Pending::new();
    let mut board = Board::new(puzzle, &mut pending)?;
    board.propagate(&mut pending)?;
    // Placements never put a digit where a peer holds it, so the grid is a valid puzzle.
    let filled = SudokuPuzzle::new(board.vals).map_err(|_| Contradiction)?;
    Ok((filled, u32::from(board.left)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::backtrack;
    use crate::sudoku::testdata::{corpus, demo_puzzle, demo_solution, puzzle, TOP1465_FIRST};

    #[test]
    fn demo_is_solved_by_singles_alone() {
        // The demo is an easy puzzle: singles fill it completely.
        let (filled, left) = singles(&demo_puzzle()).unwrap();
        assert_eq!(left, 0);
        assert_eq!(filled.cells(), &demo_solution());
    }

    #[test]
    fn hard_puzzle_keeps_blanks_and_only_correct_values() {
        // top1465 #1: singles make no or little progress.
        let p = puzzle(TOP1465_FIRST);
        let (filled, left) = singles(&p).unwrap();
        assert!(left > 0);
        assert_eq!(filled.givens() as u32 + left, 81);
        let sol = backtrack::solve(&p, 1, None, &mut || false).first.unwrap();
        for (i, &v) in filled.cells().iter().enumerate() {
            assert!(v == 0 || v == sol[i]);
        }
    }

    #[test]
    fn contradiction_is_reported() {
        // No conflicting givens, but r1c9 has no candidate: row 1 holds 1-8 and column 9 a 9.
        let mut line = String::from("12345678.");
        line.push_str(&".".repeat(8));
        line.push('9');
        line.push_str(&".".repeat(81 - 18));
        assert_eq!(singles(&puzzle(&line)), Err(Contradiction));
    }

    #[test]
    fn never_changes_a_solved_cell_to_a_wrong_value_on_a_corpus_slice() {
        let Some(text) = corpus("puzzles3_magictour_top1465.txt") else {
            return;
        };
        let mut checked = 0;
        for p in crate::sudoku::parse::parse_lines(&text)
            .unwrap()
            .iter()
            .take(150)
        {
            let sol = backtrack::solve(&p.puzzle, 1, None, &mut || false)
                .first
                .unwrap();
            let (filled, left) = singles(&p.puzzle).unwrap();
            let mut blanks = 0;
            for (i, &v) in filled.cells().iter().enumerate() {
                if v == 0 {
                    blanks += 1;
                } else {
                    assert_eq!(v, sol[i], "puzzle at line {} cell {i}", p.line);
                }
            }
            assert_eq!(blanks, left);
            checked += 1;
        }
        assert_eq!(checked, 150);
    }
}
