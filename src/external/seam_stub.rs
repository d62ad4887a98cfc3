//! A stand-in for the solver seam (`crate::solver`) that the lead is building in parallel.
//!
//! The declarations follow the agreed spec exactly; the lead deletes this file at merge and
//! points the `use super::seam_stub::{...}` lines of this module at `crate::solver`.
#![allow(dead_code)]

use std::fmt;
use std::time::{Duration, Instant};

/// The portable generator every job's RNG is.
pub type Rng = rand_pcg::Pcg64Mcg;
pub use crate::dataset::{Puzzle, PuzzleData, PuzzleKind};

/// One job as a solver sees it.
pub struct Task<'a> {
    /// The puzzle to solve.
    pub puzzle: &'a Puzzle,
    /// The plan's job number.
    pub job: u64,
    /// The job's own 64-bit seed.
    pub seed: u64,
    /// The job's RNG.
    pub rng: &'a mut Rng,
    /// Where a tracing solver appends its trace.
    pub trace: Option<&'a mut Vec<u32>>,
    stop: &'a dyn Fn() -> bool,
    deadline: Option<Instant>,
    timeout: Option<Duration>,
}

impl<'a> Task<'a> {
    /// Builds a task (the real seam's constructor is the harness's business; tests use this).
    pub fn new(
        puzzle: &'a Puzzle,
        job: u64,
        seed: u64,
        rng: &'a mut Rng,
        stop: &'a dyn Fn() -> bool,
        timeout: Option<Duration>,
    ) -> Self {
        Task {
            puzzle,
            job,
            seed,
            rng,
            trace: None,
            stop,
            deadline: timeout.map(|t| Instant::now() + t),
            timeout,
        }
    }
}

impl Task<'_> {
    /// Interrupt, or the deadline passed.
    pub fn should_stop(&self) -> bool {
        self.interrupted() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    /// Ctrl-C / SIGTERM only.
    pub fn interrupted(&self) -> bool {
        (self.stop)()
    }
    /// End of this job's `--timeout` budget.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }
    /// The budget itself.
    pub fn timeout(&self) -> Option<Duration> {
        self.timeout
    }
}

/// A solver the harness can run.
pub trait Solver: Send + Sync {
    /// Strategy name.
    fn name(&self) -> &str;
    /// Puzzle family it solves.
    fn kind(&self) -> PuzzleKind;
    /// Rule set column.
    fn rules(&self) -> &str {
        ""
    }
    /// Canonical sorted `k=v;k=v`.
    fn params(&self) -> String {
        String::new()
    }
    /// Whether seeds matter.
    fn randomised(&self) -> bool {
        false
    }
    /// True: rows get cpu_s, max_rss_kib, stats columns.
    fn measures(&self) -> bool {
        false
    }
    /// Whether a run option can be honoured.
    fn supports(&self, _option: RunOption) -> bool {
        false
    }
    /// Called once on each worker thread before its first job; the worker lives on that thread.
    fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError>;
}

/// Options a solver may or may not honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunOption {
    /// `--node-limit`.
    NodeLimit,
    /// `--count-solutions`.
    CountSolutions,
    /// `--trace`.
    Trace,
    /// ABC parameters.
    AbcParams,
    /// `--repeat`.
    Repeat,
}

/// A solver's per-thread state.
pub trait Worker {
    /// Err(e) becomes an `error` row with e's message.
    fn solve(&mut self, task: &mut Task<'_>) -> Result<Outcome, SolverError>;
}

/// A solver failure; Display = the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverError(pub String);

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SolverError {}

/// What one solve produced.
#[derive(Debug)]
pub struct Outcome {
    /// How it ended.
    pub end: End,
    /// The solver's counters.
    pub counters: Counters,
    /// None for external solvers.
    pub count_cut_short: Option<End>,
    /// Resource measurements.
    pub measured: Measured,
    /// Replaces the harness's default message for the row.
    pub message: Option<String>,
}

/// How a solve ended.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// The harness verifies it; a rejected answer is a `wrong` row.
    Found(Answer),
    /// `unsolved` (proved none).
    NoSolution,
    /// `unsolved` (gave up).
    GaveUp,
    /// `timeout`.
    NodeLimit,
    /// Stop check / deadline fired: `timeout`, or no row at all if interrupted.
    Stopped,
}

/// A claimed solution.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// A Hitori shading.
    Hitori(crate::hitori::grid::Shading),
    /// A Sudoku grid.
    Sudoku(crate::sudoku::grid::Solution),
}

/// Resource measurements of one solve.
#[derive(Debug, Default, PartialEq)]
pub struct Measured {
    /// CPU seconds.
    pub cpu_s: Option<f64>,
    /// Peak resident memory in KiB.
    pub max_rss_kib: Option<u64>,
    /// Free-form `k=v;k=v` statistics.
    pub stats: Option<String>,
}

/// Counters a solver may report.
#[derive(Debug, Default, PartialEq)]
pub struct Counters {
    pub nodes: Option<u64>,
    pub max_depth: Option<u64>,
    pub backtracks: Option<u64>,
    pub propagated: Option<f64>,
    pub guesses: Option<u64>,
    pub cycles: Option<u64>,
    pub evaluations: Option<u64>,
    pub scouts: Option<u64>,
    pub best_conflicts: Option<u64>,
    pub empties_after_presolve: Option<u64>,
    pub solutions: Option<u64>,
}

impl Counters {
    /// Set the counter named `name` from its text; Ok(false) if no counter has that name;
    /// Err(msg) if the name is a counter but the value does not parse.
    pub fn set_by_name(&mut self, name: &str, value: &str) -> Result<bool, String> {
        fn int(name: &str, v: &str) -> Result<Option<u64>, String> {
            v.parse::<u64>()
                .map(Some)
                .map_err(|_| format!("counter `{name}` wants a whole number, found `{v}`"))
        }
        let slot = match name {
            "nodes" => &mut self.nodes,
            "max_depth" => &mut self.max_depth,
            "backtracks" => &mut self.backtracks,
            "guesses" => &mut self.guesses,
            "cycles" => &mut self.cycles,
            "evaluations" => &mut self.evaluations,
            "scouts" => &mut self.scouts,
            "best_conflicts" => &mut self.best_conflicts,
            "empties_after_presolve" => &mut self.empties_after_presolve,
            "solutions" => &mut self.solutions,
            "propagated" => {
                let v: f64 = value
                    .parse()
                    .map_err(|_| format!("counter `propagated` wants a number, found `{value}`"))?;
                self.propagated = Some(v);
                return Ok(true);
            }
            _ => return Ok(false),
        };
        *slot = int(name, value)?;
        Ok(true)
    }
}
