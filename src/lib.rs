//! puzzlebench: a parallel batch benchmarking harness for constraint-puzzle solvers.
//!
//! Solvers (`hitori`, `sudoku`) know nothing of CSV, threads or clocks: they take a puzzle, a
//! seeded RNG where they need one, a budget and a stop check, and return an outcome with their
//! own counters. The `harness` owns seeding, timing, verification and output; `report` turns
//! saved rows into summaries, comparisons and plots.
pub mod cli;
pub mod dataset;
pub mod external;
pub mod harness;
pub mod hitori;
pub mod report;
pub mod solvers;
pub mod sudoku;
