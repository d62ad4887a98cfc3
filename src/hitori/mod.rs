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

#[cfg(test)]
mod hunt;

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
    //! `#[ignore]`d and run by `.ci/run` where it is present, plus an `#[ignore]`d timing table for release builds.
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

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

    fn median(v: &mut [Duration]) -> Duration {
        v.sort_unstable();
        v[v.len() / 2]
    }

    /// Release timing table: `cargo test --release --lib hitori -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing table; run in release with --ignored --nocapture"]
    fn timing_table() {
        if let Some(all) = load() {
            // mrv + full runs first and again last: the machine is shared, and the repeat shows
            // how much of a difference between rows is noise. Each puzzle's time is the best
            // of 3 runs, which filters out preemption by other processes (the work is
            // deterministic, so the fastest run is the cleanest measurement).
            let runs = [
                (Strategy::Mrv, Rules::Full, 25),
                (Strategy::MrvDynamic, Rules::Full, 25),
                (Strategy::Row, Rules::Full, 25),
                (Strategy::Mrv, Rules::Basic, 10),
                (Strategy::Row, Rules::Basic, 10),
                (Strategy::Mrv, Rules::Full, 25),
            ];
            let limit = 1_000_000;
            for (strategy, rules, max_size) in runs {
                let cfg = SearchConfig {
                    strategy,
                    rules,
                    max_solutions: 1,
                    node_limit: Some(limit),
                };
                eprintln!("\ncorpus, {strategy} + {rules}, first solution, node limit {limit}");
                eprintln!("size  n    median_ms  max_ms  mean_nodes  median_nodes  max_nodes  propagated%  at_limit");
                let mut sizes: Vec<usize> = all.iter().map(|p| p.puzzle.width()).collect();
                sizes.sort_unstable();
                sizes.dedup();
                for size in sizes.into_iter().filter(|&s| s <= max_size) {
                    let mut times = Vec::new();
                    let mut nodes = Vec::new();
                    let mut prop = 0.0;
                    let mut at_limit = 0;
                    for p in all.iter().filter(|p| p.puzzle.width() == size) {
                        let mut best = Duration::MAX;
                        let mut res = None;
                        for _ in 0..3 {
                            let t = Instant::now();
                            let r = solve(&p.puzzle, &cfg, &mut || false);
                            best = best.min(t.elapsed());
                            res = Some(r);
                        }
                        let res = res.expect("ran at least once");
                        times.push(best);
                        if res.end == SearchEnd::NodeLimit {
                            at_limit += 1;
                        } else {
                            assert_eq!(res.first.as_ref(), p.solution.as_ref(), "line {}", p.line);
                        }
                        nodes.push(res.stats.nodes);
                        prop += res.stats.propagated as f64 / (size * size) as f64;
                    }
                    let n = times.len();
                    let max = *times.iter().max().unwrap_or(&Duration::ZERO);
                    let med = median(&mut times);
                    nodes.sort_unstable();
                    let mean_nodes = nodes.iter().sum::<u64>() as f64 / n as f64;
                    eprintln!(
                        "{size:>4}  {n:<4} {:>9.3}  {:>6.3}  {mean_nodes:>10.1}  {:>12}  {:>9}  {:>10.1}  {at_limit:>8}",
                        med.as_secs_f64() * 1e3,
                        max.as_secs_f64() * 1e3,
                        nodes[n / 2],
                        nodes[n - 1],
                        100.0 * prop / n as f64,
                    );
                }
            }
        }
        eprintln!(
            "\n40 generated 5x5 puzzles (seeds 0..40, Pcg64Mcg), basic rules, first solution"
        );
        let puzzles: Vec<HitoriPuzzle> = (0..40)
            .map(|s| generate(5, 5, &mut Pcg64Mcg::seed_from_u64(s)).0)
            .collect();
        for strategy in Strategy::ALL {
            let cfg = SearchConfig {
                strategy,
                rules: Rules::Basic,
                max_solutions: 1,
                node_limit: None,
            };
            let nodes: Vec<u64> = puzzles
                .iter()
                .map(|p| solve(p, &cfg, &mut || false).stats.nodes)
                .collect();
            let mean = nodes.iter().sum::<u64>() as f64 / nodes.len() as f64;
            let max = nodes.iter().max().copied().unwrap_or(0);
            eprintln!("{:<8} mean nodes {mean:>6.2}  max {max}", strategy.name());
        }
    }
}
