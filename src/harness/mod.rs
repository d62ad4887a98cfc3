//! The harness: job planning, seeding, parallel execution, verification, records, output
//! files and run metadata. It sees puzzles only as opaque [`crate::dataset::PuzzleData`] handed
//! to a [`Solver`], and answers only through [`crate::solvers::check_answer`], the independent
//! verifiers' seam; it never looks inside a grid.

pub mod bench;
pub mod meta;
pub mod output;
pub mod plan;
pub mod record;
pub mod run;
pub mod seed;

use crate::dataset::{PuzzleData, PuzzleKind};
use crate::solvers::Outcome;
use rand_pcg::Pcg64Mcg;

/// What the harness needs of a solver. [`crate::solvers::SolverSpec`] is the real
/// implementation; tests plug in their own (for example one that panics) to exercise the
/// harness without a release CLI strategy for it.
pub trait Solver: Send + Sync {
    /// Strategy name (`strategy` column).
    fn name(&self) -> &str;
    /// Kind of puzzle it takes.
    fn kind(&self) -> PuzzleKind;
    /// Rule set (`rules` column), empty where it does not apply.
    fn rules(&self) -> &str;
    /// Canonical parameters (`params` column).
    fn params(&self) -> String;
    /// Whether seeds and colonies change its results (colonies are planned only for these).
    fn is_randomised(&self) -> bool;
    /// Solve one puzzle; `Err` for a puzzle it cannot take. `stop` must be polled.
    fn solve(
        &self,
        data: &PuzzleData,
        rng: &mut Pcg64Mcg,
        stop: &mut dyn FnMut() -> bool,
        trace: Option<&mut Vec<u32>>,
    ) -> Result<Outcome, String>;
}
