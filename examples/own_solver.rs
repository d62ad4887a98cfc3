//! Benchmark your own solver next to a built-in one: a naive Sudoku backtracker written here,
//! outside the library, implements the `Solver` seam and runs beside `backtrack` on the bundled
//! hard set. Every answer of both is checked by puzzlebench's independent verifier; the rows
//! go to one CSV and the summary compares the two on the same puzzles.
//!
//! Run: `cargo run --release --example own_solver`

use puzzlebench::builtin::{parse_strategies, SolverOptions};
use puzzlebench::harness::{bench, BenchConfig};
use puzzlebench::report::input::{InputOptions, RunSet};
use puzzlebench::report::summary::{summarize_set, Detail, Format};
use puzzlebench::solver::{
    Answer, Counters, End, Outcome, PuzzleData, PuzzleKind, Solver, SolverError, Task, Worker,
};
use std::sync::atomic::AtomicBool;

/// Plain recursive backtracking in row-major order: the kind of solver a newcomer writes first.
struct Naive;

/// Fill `grid` (0 = blank) from cell `at` on; counts nodes; gives up when `stop` says so.
fn fill(grid: &mut [u8; 81], at: usize, nodes: &mut u64, stop: &dyn Fn() -> bool) -> Option<bool> {
    *nodes += 1;
    if nodes.is_multiple_of(4096) && stop() {
        return None;
    }
    let Some(cell) = (at..81).find(|&i| grid[i] == 0) else {
        return Some(true);
    };
    let (r, c) = (cell / 9, cell % 9);
    for d in 1..=9u8 {
        let clash = (0..9).any(|k| {
            grid[r * 9 + k] == d
                || grid[k * 9 + c] == d
                || grid[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
        });
        if !clash {
            grid[cell] = d;
            match fill(grid, cell + 1, nodes, stop)? {
                true => return Some(true),
                false => grid[cell] = 0,
            }
        }
    }
    Some(false)
}

impl Solver for Naive {
    fn name(&self) -> &str {
        "naive"
    }
    fn kind(&self) -> PuzzleKind {
        PuzzleKind::Sudoku
    }
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
        Ok(Box::new(|task: &mut Task<'_>| {
            let PuzzleData::Sudoku { puzzle, .. } = &task.puzzle.data else {
                return Err(SolverError("naive solves Sudoku only".into()));
            };
            let mut grid = *puzzle.cells();
            let mut nodes = 0;
            let stop = task.stop;
            let end = match fill(&mut grid, 0, &mut nodes, &|| stop.check()) {
                Some(true) => End::Found(Answer::Sudoku(grid)),
                Some(false) => End::NoSolution,
                None => End::Stopped,
            };
            Ok(Outcome::new(end).with_counters(Counters {
                nodes: Some(nodes),
                ..Counters::default()
            }))
        }))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut solvers: Vec<Box<dyn Solver>> = vec![Box::new(Naive)];
    for s in parse_strategies("backtrack", &SolverOptions::default())? {
        solvers.push(Box::new(s));
    }
    let dataset = concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/sudoku-hard");
    let out = std::env::temp_dir().join(format!("own_solver_{}.csv", std::process::id()));
    let mut cfg = BenchConfig::new(dataset, solvers);
    cfg.output = Some(out.clone());
    let outcome = bench(cfg, &AtomicBool::new(false))?;
    // The rows read back through the reports' input layer, as `bench-report summary` would.
    let set = RunSet::open(std::slice::from_ref(&outcome.path), InputOptions::default())?;
    let (summary, _) = summarize_set(&set, Detail::default(), Vec::new())?;
    print!("{}", summary.render(Format::Text));
    println!("rows: {}", outcome.path.display());
    Ok(())
}
