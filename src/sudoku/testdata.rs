//! Shared fixtures for unit tests.

use super::grid::{Solution, SudokuPuzzle};

/// The article's demo puzzle.
pub(crate) const DEMO: &str =
    "000260701680070090190004500820100040004602900050003028009300074040050036703018000";

/// Its unique solution (checked by `backtrack` tests against the solver and `verify`).
pub(crate) const DEMO_SOLUTION: &str =
    "435269781682571493197834562826195347374682915951743628519326874248957136763418259";

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

/// Text of a file in the shared corpus directory `../shared/corpora/sudoku/` beside the
/// repository, or None (with a message) when absent. `../../shared` is tried second so the
/// tests also find the corpora from a git worktree one level deeper (`wt/<name>`).
pub(crate) fn corpus(file: &str) -> Option<String> {
    let dir = env!("CARGO_MANIFEST_DIR");
    let candidates = [
        format!("{dir}/../shared/corpora/sudoku/{file}"),
        format!("{dir}/../../shared/corpora/sudoku/{file}"),
    ];
    for path in &candidates {
        if let Ok(text) = std::fs::read_to_string(path) {
            return Some(text);
        }
    }
    eprintln!("skipping: corpus file {} not found", candidates[0]);
    None
}

/// A timer for the `#[ignore]` speed tests. The machine is shared, so besides wall time it reads
/// this thread's on-CPU time from `/proc/thread-self/schedstat` (Linux, nanoseconds), which time
/// spent waiting for a core does not inflate.
pub(crate) struct Timer {
    wall: std::time::Instant,
    cpu_ns: Option<u64>,
}

fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

impl Timer {
    pub(crate) fn start() -> Timer {
        Timer {
            cpu_ns: thread_cpu_ns(),
            wall: std::time::Instant::now(),
        }
    }

    /// Seconds elapsed: on-CPU time where available, else wall time.
    pub(crate) fn secs(&self) -> f64 {
        match (self.cpu_ns, thread_cpu_ns()) {
            (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}
