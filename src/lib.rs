//! puzzlebench: a parallel batch benchmarking harness for constraint-puzzle solvers.
//!
//! Solvers know nothing of CSV, threads or clocks: they take a puzzle, a seeded RNG where they
//! need one, a budget and a stop check, and return an outcome with their own counters. The
//! harness owns seeding, timing, verification and output; reports turn saved rows into
//! summaries, comparisons and plots.
//!
//! Modules, from the bottom up (each uses only those above it in this list, never one below):
//!
//! - [`hash`], [`seed`], [`kind`], [`number`]: a stable hash; per-job seeding; the puzzle
//!   kinds; numbers as messages print them.
//! - [`hitori`], [`sudoku`]: the puzzles — grids, parsers, solvers, verifiers, generators.
//! - [`dataset`]: corpus loading (a file or a directory), format detection, stable ids.
//! - [`results`]: the result files — [`results::Record`], columns, counters, run meta, trace,
//!   CSV reading and atomic writing. Below both the harness and the reports.
//! - [`solver`]: the seam — the [`solver::Solver`] trait, its [`solver::Task`] and
//!   [`solver::Outcome`]. Implement it to benchmark your own solver.
//! - [`verify`]: every answer's independent check.
//! - [`builtin`]: the built-in strategies (`mrv`, `row`, `abc`, `backtrack`, …) as solvers.
//! - [`external`]: programs in any language speaking the line protocol (PROTOCOL.md).
//! - [`strategies`]: `--strategy` names to solvers, built-in or from a `--solvers` manifest.
//! - [`harness`]: planning, seeding, the parallel executor and [`harness::bench()`], which
//!   runs a [`harness::BenchConfig`] to finished files.
//! - [`corpus`]: where the public corpora are, for tests, benches and examples.
//! - [`report`]: summaries, baseline comparison, plots and shard merging from saved rows.
//!
//! `harness` and `report` never import each other; both go through `results`.
#![warn(missing_docs)]

pub mod builtin;
pub mod clock;
pub mod corpus;
pub mod dataset;
pub mod external;
pub mod harness;
pub mod hash;
pub mod hitori;
pub mod kind;
pub mod number;
pub mod planfile;
pub mod report;
pub mod results;
pub mod seed;
pub mod solver;
pub mod strategies;
pub mod sudoku;
pub mod verify;
