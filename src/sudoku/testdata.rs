//! Shared fixtures for unit tests.

use super::grid::{Solution, SudokuPuzzle};

/// The article's demo puzzle.
pub(crate) const DEMO: &str =
    "000260701680070090190004500820100040004602900050003028009300074040050036703018000";

/// Its unique solution (checked by `backtrack` tests against the solver and `verify`).
pub(crate) const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

/// top1465 #1, a hard puzzle that singles barely start on: the tests' stalled or long run.
pub(crate) const TOP1465_FIRST: &str =
    "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

/// Cells from a line of 81 digits / dots, for fixtures only.
pub(crate) fn cells(line: &str) -> [u8; 81] {
    let mut cells = [0u8; 81];
    assert_eq!(line.len(), 81, "fixture must have 81 cells");
    for (slot, b) in cells.iter_mut().zip(line.bytes()) {
        *slot = if b == b'.' { 0 } else { b - b'0' };
    }
    cells
}

/// A fixture puzzle.
pub(crate) fn puzzle(line: &str) -> SudokuPuzzle {
    SudokuPuzzle::new(cells(line)).expect("fixture puzzle is valid")
}

/// The demo puzzle.
pub(crate) fn demo_puzzle() -> SudokuPuzzle {
    puzzle(DEMO)
}

/// The demo solution.
pub(crate) fn demo_solution() -> Solution {
    cells(DEMO_SOLUTION)
}

/// Text of a file in the shared corpus directory `sudoku/`, or None (with a message) when
/// absent (see [`crate::corpus::shared_corpus`]).
pub(crate) fn corpus(file: &str) -> Option<String> {
    crate::corpus::shared_corpus_text(&format!("sudoku/{file}"))
}

/// A random grid for property tests: the demo solution with its digits relabelled, its bands and
/// stacks shuffled and the rows (columns) inside each band (stack) shuffled, all of which keep it
/// a valid solution.
pub(crate) fn random_solution<R: rand::Rng>(rng: &mut R) -> Solution {
    use rand::seq::SliceRandom;
    fn order<R: rand::Rng>(rng: &mut R) -> [usize; 9] {
        let mut bands = [0, 1, 2];
        bands.shuffle(rng);
        let mut out = [0; 9];
        for (i, &b) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            inner.shuffle(rng);
            for (j, &k) in inner.iter().enumerate() {
                out[3 * i + j] = 3 * b + k;
            }
        }
        out
    }
    let (rows, cols) = (order(rng), order(rng));
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    digits.shuffle(rng);
    let base = demo_solution();
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            out[r * 9 + c] = digits[usize::from(base[rows[r] * 9 + cols[c]] - 1)];
        }
    }
    out
}

/// A random puzzle for property tests: `keep` cells of a random solution given, then up to
/// `noise` blank cells given a random digit (dropped where it repeats a given), so some puzzles
/// have one solution, some several and some none.
pub(crate) fn random_puzzle<R: rand::Rng>(rng: &mut R, keep: usize, noise: usize) -> SudokuPuzzle {
    use rand::seq::SliceRandom;
    let sol = random_solution(rng);
    let mut order: Vec<usize> = (0..81).collect();
    order.shuffle(rng);
    let mut cells = [0u8; 81];
    for &c in &order[..keep] {
        cells[c] = sol[c];
    }
    let mut p = SudokuPuzzle::new(cells).expect("a subset of a solution is a valid puzzle");
    for &c in order[keep..].iter().take(noise) {
        cells[c] = rng.random_range(1..=9);
        match SudokuPuzzle::new(cells) {
            Ok(q) => p = q,
            Err(_) => cells[c] = 0,
        }
    }
    p
}
