//! Hitori: grid and text formats, bitboard propagation, connectivity, search, verifier, generator.
//!
//! Rules of the puzzle: shade cells so that (1) no number repeats among the unshaded cells of a
//! row or column, (2) shaded cells never touch orthogonally, (3) the unshaded cells form one
//! orthogonally connected region.
//!
//! - [`grid`]: [`HitoriPuzzle`] and [`Shading`].
//! - [`parse`]: grid blocks and Simon Tatham's *Singles* game IDs.
//! - [`search`]: [`solve`] with its [`Strategy`], [`Rules`] and counters.
//! - [`verify`]: an independent check of a shading, sharing no code with the solver.
//! - [`generate`](mod@generate): unique-solution puzzles from a seeded RNG.
pub mod generate;
pub mod grid;
pub mod parse;
pub mod search;
pub mod verify;

mod connectivity;
mod propagate;

pub use generate::generate;
pub use grid::{GridError, HitoriPuzzle, Shading, MAX_SIDE};
pub use parse::{
    looks_like_singles, parse_grid_blocks, parse_singles, parse_singles_line, to_grid_block,
    to_singles_id, ParseError, ParsedHitori,
};
pub use search::{
    solve, Rules, SearchConfig, SearchEnd, SearchResult, SearchStats, Strategy, UnknownName,
};
pub use verify::{verify, Violation};
