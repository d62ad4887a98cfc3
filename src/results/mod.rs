//! The result files: what one row is, how files are read and written, the run's meta sidecar
//! and the ABC trace. Both [`crate::harness`] (which writes) and [`crate::report`] (which reads)
//! go through this module; it imports neither, nor any solver.
//!
//! - [`counters`]: the counter table (one line per counter drives columns, reading and compare).
//! - [`record`]: [`Record`], [`Status`], [`Columns`], [`Params`] and the join key [`JobKey`].
//! - [`meta`]: the `*.meta.json` sidecar, [`RunMeta`] and [`RunStatus`].
//! - [`shard`]: `--shard K/N`.
//! - [`trace`]: the ABC trace rows, written and read.
//! - [`read`]: reading results and metas with `file:line` errors.
//! - [`sort`]: the one external sort and k-way merge (sorted reads, `merge`'s checks).
//! - [`mod@write`]: CSV lines and atomic, no-clobber file writes.

pub mod counters;
pub mod meta;
pub mod read;
pub mod record;
pub mod shard;
pub mod sort;
pub mod trace;
pub mod write;

pub use counters::{Counters, COUNTERS};
pub use meta::{RunMeta, RunStatus};
pub use read::ReadError;
pub use record::{Claim, Columns, EndedBy, JobKey, JobKeyRef, Params, Record, Status};
pub use shard::{PlanLayout, Shard};
pub use trace::TraceRun;
pub use write::WriteError;
