//! Success rate and cycle distribution of the colony on the article's demo puzzle over 100
//! seeds, as the article reports them: the default colony, adaptive limits and cross-box
//! moves. Formerly the ignored unit test `abc_demo_statistics`.
//!
//! `cargo run --release --example abc_demo_statistics`

use anyhow::Context;
use puzzlebench::sudoku::{abc, parse_line, verify, AbcEnd, AbcParams, Limit, Neighbourhood};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

#[path = "common/cpu_timer.rs"]
mod cpu_timer;

/// The article's demo puzzle.
const DEMO: &str =
    "000260701680070090190004500820100040004602900050003028009300074040050036703018000";

/// Nearest-rank percentile of sorted values.
fn pct(sorted: &[u64], p: f64) -> u64 {
    let k = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[k - 1]
}

fn main() -> anyhow::Result<()> {
    let demo = parse_line(DEMO, 1)?
        .context("the fixture is a puzzle line")?
        .puzzle;
    let variants = [
        ("abc", AbcParams::default()),
        (
            "abc adaptive",
            AbcParams {
                limit: Limit::Adaptive,
                ..AbcParams::default()
            },
        ),
        (
            "abc cross-box",
            AbcParams {
                neighbourhood: Neighbourhood::CrossBox,
                ..AbcParams::default()
            },
        ),
    ];
    for (name, params) in variants {
        let t = cpu_timer::Timer::start();
        let mut solved = Vec::new();
        let mut all_cycles = 0;
        for seed in 0..100 {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let r = abc::solve(&demo, &params, &mut rng, &mut || false, None);
            all_cycles += r.cycles;
            if r.end == AbcEnd::Solved {
                // Every claimed solution is checked, so the statistics count only true solves.
                let solution = r.solution.context("a solved run carries its solution")?;
                verify(&demo, &solution)
                    .map_err(|v| anyhow::anyhow!("{name}, seed {seed}: not a solution: {v:?}"))?;
                solved.push(r.cycles);
            }
        }
        let secs = t.secs();
        solved.sort_unstable();
        if solved.is_empty() {
            println!("demo, {name}, 100 seeds: 0 solved");
            continue;
        }
        println!(
            "demo, {name}, 100 seeds: {} solved; cycles median {} p10 {} p90 {} max {}; {:.0} cycles/s",
            solved.len(),
            pct(&solved, 0.5),
            pct(&solved, 0.1),
            pct(&solved, 0.9),
            solved[solved.len() - 1],
            all_cycles as f64 / secs
        );
    }
    Ok(())
}
