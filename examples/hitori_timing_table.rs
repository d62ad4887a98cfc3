//! Release timing table of the Hitori search over the shared TU Delft corpus
//! (`hitori/tud-singles-5to25.tsv`): per strategy and rule set, per size, median and max time
//! (best of 3 a puzzle), node counts, the share of cells propagation decided, and how many
//! puzzles hit the node limit; then the node counts of every strategy on 40 generated 5x5
//! puzzles. Formerly the ignored unit test `hitori::corpus_tests::timing_table`.
//!
//! `cargo run --release --example hitori_timing_table`

use std::time::{Duration, Instant};

use anyhow::Context;
use puzzlebench::corpus::shared_corpus;
use puzzlebench::hitori::{
    generate, parse_singles, solve, HitoriPuzzle, Rules, SearchConfig, SearchEnd, Strategy,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn median(v: &mut [Duration]) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let path = shared_corpus("hitori/tud-singles-5to25.tsv").context(
        "this needs the shared Hitori corpus hitori/tud-singles-5to25.tsv (PUZZLEBENCH_SHARED), which is absent here",
    )?;
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let all = parse_singles(&text).with_context(|| format!("parsing {}", path.display()))?;
    // mrv + full runs first and again last: the machine is shared, and the repeat shows how
    // much of a difference between rows is noise. Each puzzle's time is the best of 3 runs,
    // which filters out preemption by other processes (the work is deterministic, so the
    // fastest run is the cleanest measurement).
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
        println!("\ncorpus, {strategy} + {rules}, first solution, node limit {limit}");
        println!("size  n    median_ms  max_ms  mean_nodes  median_nodes  max_nodes  propagated%  at_limit");
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
                let res = res.context("ran at least once")?;
                times.push(best);
                if res.end == SearchEnd::NodeLimit {
                    at_limit += 1;
                } else {
                    // The corpus gives each solution: a different one is a solver bug.
                    anyhow::ensure!(
                        res.first.as_ref() == p.solution.as_ref(),
                        "line {}: not the given solution",
                        p.line
                    );
                }
                nodes.push(res.stats.nodes);
                prop += res.stats.propagated as f64 / (size * size) as f64;
            }
            let n = times.len();
            let max = *times.iter().max().unwrap_or(&Duration::ZERO);
            let med = median(&mut times);
            nodes.sort_unstable();
            let mean_nodes = nodes.iter().sum::<u64>() as f64 / n as f64;
            println!(
                "{size:>4}  {n:<4} {:>9.3}  {:>6.3}  {mean_nodes:>10.1}  {:>12}  {:>9}  {:>10.1}  {at_limit:>8}",
                med.as_secs_f64() * 1e3,
                max.as_secs_f64() * 1e3,
                nodes[n / 2],
                nodes[n - 1],
                100.0 * prop / n as f64,
            );
        }
    }
    println!("\n40 generated 5x5 puzzles (seeds 0..40, Pcg64Mcg), basic rules, first solution");
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
        println!("{:<8} mean nodes {mean:>6.2}  max {max}", strategy.name());
    }
    Ok(())
}
