//! Hitori: grid and text formats, bitboard propagation, connectivity, search, verifier, generator.
//!
//! Rules of the puzzle: shade cells so that (1) no number repeats among the unshaded cells of a
//! row or column, (2) shaded cells never touch orthogonally, (3) the unshaded cells form one
//! orthogonally connected region.
//!
//! - [`grid`]: [`HitoriPuzzle`] and [`Shading`].
//! - [`parse`]: grid blocks and Simon Tatham's *Singles* game IDs.
//! - [`rules`]: the rule sets ([`Rules`]) propagation applies, shared by propagation and search.
//! - [`search`]: [`solve`] with its [`Strategy`] and counters, and [`solve_with`], which
//!   reuses a [`Scratch`] of buffers from solve to solve.
//! - [`verify`](mod@verify): an independent check of a shading, sharing no code with the solver.
//! - [`generate`](mod@generate): unique-solution puzzles from a seeded RNG.
pub mod generate;
pub mod grid;
pub mod parse;
pub mod rules;
pub mod search;
pub mod verify;

mod connectivity;
mod propagate;
mod state;

pub use generate::generate;
pub use grid::{GridError, HitoriPuzzle, Shading, MAX_SIDE};
pub use parse::{
    looks_like_singles, parse_grid_blocks, parse_singles, parse_singles_line, to_grid_block,
    to_singles_id, GridBlocks, ParseError, ParsedHitori,
};
pub use rules::{Rules, UnknownName};
pub use search::{
    solve, solve_with, Scratch, SearchConfig, SearchEnd, SearchResult, SearchStats, Strategy,
};
pub use verify::{verify, Violation};

#[cfg(test)]
mod corpus_tests {
    //! Checks against the public TU Delft corpus (`hitori/` of the shared corpora),
    //! `#[ignore]`d and run by `.ci/run` where it is present. The release timing table over the
    //! same corpus is `examples/hitori_timing_table.rs`.
    use super::*;
    use std::path::PathBuf;

    /// The corpus file (see [`crate::corpus::shared_corpus`]).
    pub(crate) fn corpus_path() -> Option<PathBuf> {
        crate::corpus::shared_corpus("hitori/tud-singles-5to25.tsv")
    }

    /// The corpus; a test that needs it is `#[ignore]`d and fails where it is absent.
    fn load() -> Option<Vec<ParsedHitori>> {
        let Some(path) = corpus_path() else {
            panic!("this test needs the shared Hitori corpus hitori/tud-singles-5to25.tsv (PUZZLEBENCH_SHARED), which is absent here");
        };
        let text = std::fs::read_to_string(&path).expect("corpus readable");
        Some(parse_singles(&text).expect("corpus parses"))
    }

    fn mrv_full(max_solutions: u32) -> SearchConfig {
        SearchConfig {
            strategy: Strategy::Mrv,
            rules: Rules::Full,
            max_solutions,
            node_limit: None,
        }
    }

    #[test]
    #[ignore = "needs the shared Hitori corpus hitori/tud-singles-5to25.tsv (PUZZLEBENCH_SHARED)"]
    fn corpus_first_ten_of_each_size_match_the_given_masks() {
        let Some(all) = load() else { return };
        assert_eq!(all.len(), 3150);
        let mut per_size = std::collections::BTreeMap::<usize, usize>::new();
        for p in &all {
            let n = per_size.entry(p.puzzle.width()).or_default();
            if *n >= 10 {
                continue;
            }
            *n += 1;
            let res = solve(&p.puzzle, &mrv_full(1), &mut || false);
            let sol = res
                .first
                .unwrap_or_else(|| panic!("line {}: no solution", p.line));
            assert_eq!(Some(&sol), p.solution.as_ref(), "line {}", p.line);
            assert_eq!(verify(&p.puzzle, &sol), Ok(()), "line {}", p.line);
        }
        assert_eq!(per_size.len(), 21);
    }
}
