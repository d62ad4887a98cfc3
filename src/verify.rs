//! Checking a claimed answer: the puzzle's independent verifier (which shares no code with any
//! solver), then the dataset's known solution where the file gives one. The harness calls this
//! for every answer of every solver, built-in or external; a rejected answer is a `wrong` row.

use crate::dataset::PuzzleData;
use crate::hitori;
use crate::solver::Answer;
use crate::sudoku;

/// Check an answer with the puzzle's independent verifier, then against the dataset's known
/// solution where the file gives one. `Err` says what is wrong; it makes the row `wrong`.
pub fn check_answer(data: &PuzzleData, answer: &Answer) -> Result<(), String> {
    match (data, answer) {
        (PuzzleData::Hitori { puzzle, solution }, Answer::Hitori(shading)) => {
            hitori::verify::verify(puzzle, shading).map_err(|v| format!("verifier: {v}"))?;
            match solution {
                Some(known) if known != shading => Err(format!(
                    "valid by the rules but differs from the dataset's solution {} (the puzzle is not unique, or the file's solution is wrong)",
                    known.to_mask()
                )),
                _ => Ok(()),
            }
        }
        (PuzzleData::Sudoku { puzzle, solution }, Answer::Sudoku(grid)) => {
            sudoku::verify::verify(puzzle, grid).map_err(|v| format!("verifier: {v}"))?;
            match solution {
                Some(known) if **known != *grid => Err(
                    "valid by the rules but differs from the dataset's solution (the puzzle is not unique, or the file's solution is wrong)"
                        .to_string(),
                ),
                _ => Ok(()),
            }
        }
        (PuzzleData::SudokuK { puzzle, solution }, Answer::SudokuK(grid)) => {
            sudoku::verify::verify_order(puzzle.side(), puzzle.cells(), grid)
                .map_err(|v| format!("verifier: {v}"))?;
            match solution {
                Some(known) if **known != **grid => Err(
                    "valid by the rules but differs from the dataset's solution (the puzzle is not unique, or the file's solution is wrong)"
                        .to_string(),
                ),
                _ => Ok(()),
            }
        }
        _ => Err("answer is for another kind of puzzle".to_string()),
    }
}
