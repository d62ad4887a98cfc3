//! The harness: job planning, seeding, parallel execution, verification and the run's files.
//! It sees puzzles only as opaque [`crate::dataset::Puzzle`]s handed to a
//! [`crate::solver::Solver`], checks answers only through [`crate::verify`], and writes through
//! [`crate::results`]; it never looks inside a grid and never imports the reports.
//!
//! - [`bench()`]: one run, from a [`BenchConfig`] to finished files.
//! - [`datasets`]: one run over several datasets, each a part run by [`bench()`].
//! - [`plan`]: the job plan (strategy × puzzle × seed × colony) and shards.
//! - seeding: each job's RNG comes from [`crate::seed`], which sits below the solvers.

pub mod bench;
pub mod datasets;
mod output;
pub mod pin;
pub mod plan;
mod progress;
mod run;

pub use bench::{bench, BenchConfig, BenchError, BenchOutcome};
