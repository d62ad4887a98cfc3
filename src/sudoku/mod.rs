//! Sudoku
