//! The ABC trace file (`bench-run --trace FILE`): one row per (job, cycle), the best conflict
//! count of the job's colony after that cycle. Cycle 0 is the state after initialisation.

use serde::{Deserialize, Serialize};

/// One row of a trace CSV. Field order is column order ([`TRACE_COLUMNS`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceRow {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle id.
    pub puzzle_id: String,
    /// Strategy name.
    pub strategy: String,
    /// Canonical parameter string.
    pub params: String,
    /// Seed of the run.
    pub seed: u64,
    /// Colony index.
    pub colony: u32,
    /// Cycle number, 0 = after initialisation.
    pub cycle: u64,
    /// Best conflict count among the colony's sources after that cycle.
    pub best_conflicts: u64,
}

/// Columns of a trace file, in order.
pub const TRACE_COLUMNS: [&str; 8] = [
    "dataset",
    "puzzle_id",
    "strategy",
    "params",
    "seed",
    "colony",
    "cycle",
    "best_conflicts",
];
