//! Sudoku: grid and line parsing, an independent verifier, the Artificial Bee Colony
//! metaheuristic (with its hybrid, adaptive-limit and cross-box variants), a singles presolver,
//! a fast backtracking baseline, and a generator with difficulty grading.

pub mod abc;
pub mod backtrack;
mod bitboard;
mod cands;
mod contradiction;
mod encoding;
// The full-recount reference the colony's delta scoring is tested against.
#[cfg(test)]
mod fitness;
pub mod generate;
pub mod grid;
mod logic;
pub mod order;
pub mod parse;
pub mod presolve;
pub mod prop;
pub mod verify;

#[cfg(test)]
mod testdata;

pub use abc::{AbcEnd, AbcParams, AbcResult, Limit, Neighbourhood};
pub use backtrack::{BacktrackEnd, BacktrackResult};
pub use generate::{generate, grade, Difficulty};
pub use grid::{GridError, Pos, Solution, SudokuPuzzle, UnitKind};
pub use parse::{looks_like_sudoku, parse_line, parse_lines, ParseError, ParsedSudoku};
pub use presolve::{singles, Contradiction};
pub use verify::{verify, Violation};
