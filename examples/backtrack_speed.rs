//! Backtracking speed on the shared Sudoku corpora: first solution, best of 3 passes in on-CPU
//! time, over top1465, forum_hardest_1106 and the first 5,000 of forum_hardest_1905_11+;
//! prints microseconds, nodes and guesses a puzzle. Stops at the first file that is absent
//! (the corpora are found as in `puzzlebench::corpus::shared_corpus`). Formerly the ignored
//! unit test `backtrack_speed`; `sudoku_bt_time` times any files side by side with the peers.
//!
//! `cargo run --release --example backtrack_speed`

use anyhow::Context;
use puzzlebench::corpus::shared_corpus_text;
use puzzlebench::sudoku::{backtrack, parse_lines};

#[path = "common/cpu_timer.rs"]
mod cpu_timer;

fn main() -> anyhow::Result<()> {
    for (file, limit) in [
        ("puzzles3_magictour_top1465.txt", usize::MAX),
        ("puzzles6_forum_hardest_1106.txt", usize::MAX),
        ("puzzles5_forum_hardest_1905_11+.txt", 5_000),
    ] {
        // `shared_corpus_text` says why a file is missing.
        let Some(text) = shared_corpus_text(&format!("sudoku/{file}")) else {
            return Ok(());
        };
        let mut all = parse_lines(&text).with_context(|| format!("parsing {file}"))?;
        all.truncate(limit);
        let mut best = f64::MAX;
        let (mut nodes, mut guesses) = (0, 0);
        for _ in 0..3 {
            let t = cpu_timer::Timer::start();
            nodes = 0;
            guesses = 0;
            for p in &all {
                let r = backtrack::solve(&p.puzzle, 1, None, &mut || false);
                // Every corpus puzzle has a solution: a miss is a solver bug, not a figure.
                anyhow::ensure!(r.first.is_some(), "{file} line {}: no solution", p.line);
                nodes += r.nodes;
                guesses += r.guesses;
            }
            best = best.min(t.secs());
        }
        let n = all.len() as f64;
        println!(
            "{file}: {} puzzles, {:.1} us/puzzle on-CPU (best of 3), {:.1} nodes, {:.1} guesses per puzzle",
            all.len(),
            best * 1e6 / n,
            nodes as f64 / n,
            guesses as f64 / n
        );
    }
    Ok(())
}
