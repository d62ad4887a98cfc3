//! Mean time per puzzle of `sudoku::backtrack::solve` over Sudoku corpus files, first solution
//! (limit 1) and uniqueness (limit 2), the fastest of `RUNS` (default 3) passes, in wall time and in on-CPU time. The same loop
//! shape as the peer driver that `scripts/peers/sudoku-crate.sh` builds: puzzles parsed before
//! timing, one solve call per puzzle. `cpu_mean_us` is the on-CPU mean over all passes but the
//! first (the first is the warm-up; with `RUNS=1` it is that pass), the estimator of tdoku's
//! `run_benchmark` (total time of its passes after a warm-up), which `scripts/peers/tdoku.sh`
//! sets beside it.
//!
//! `cargo run --release --example sudoku_bt_time -- FILE...` (`LIMITS=2` for uniqueness only)

use std::time::Instant;

use anyhow::Context;
use puzzlebench::sudoku::{backtrack, parse_lines};

/// This thread's CPU time in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`), which time spent waiting
/// for a core on a loaded machine does not inflate; 0 where it cannot be read. Not
/// `/proc/thread-self/schedstat`, which read 2.69-2.72 µs where this clock read 4.10-4.16 µs
/// for the same pass (issue 36).
fn cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid out-pointer.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn main() -> anyhow::Result<()> {
    let runs: usize = match std::env::var("RUNS") {
        Ok(s) => s.parse().context("RUNS must be a count")?,
        Err(_) => 3,
    };
    // `LIMITS=2` (a comma-separated list) runs only those limits, so that a profile of one
    // limit (callgrind) does not count the other's instructions.
    let limits: Vec<u32> = match std::env::var("LIMITS") {
        Ok(s) => s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse()
                    .context("LIMITS must be counts, comma-separated")
            })
            .collect::<anyhow::Result<_>>()?,
        Err(_) => vec![1, 2],
    };
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
        let puzzles = parse_lines(&text).with_context(|| format!("parsing {path}"))?;
        let name = path.rsplit('/').next().unwrap_or(&path);
        for &limit in &limits {
            let (mut best, mut best_cpu) = (f64::MAX, f64::MAX);
            // On-CPU nanoseconds of the passes after the first, and their count.
            let (mut warm_cpu_ns, mut warm_passes) = (0u64, 0u64);
            let (mut found, mut nodes, mut guesses) = (0u64, 0u64, 0u64);
            for pass in 0..runs.max(1) {
                (found, nodes, guesses) = (0, 0, 0);
                let (t, c) = (Instant::now(), cpu_ns());
                for p in &puzzles {
                    let r =
                        backtrack::solve(std::hint::black_box(&p.puzzle), limit, None, &mut || {
                            false
                        });
                    found += u64::from(r.solutions);
                    nodes += r.nodes;
                    guesses += r.guesses;
                }
                best = best.min(t.elapsed().as_secs_f64());
                let pass_cpu_ns = cpu_ns() - c;
                best_cpu = best_cpu.min(pass_cpu_ns as f64 * 1e-9);
                if pass > 0 || runs <= 1 {
                    warm_cpu_ns += pass_cpu_ns;
                    warm_passes += 1;
                }
            }
            let n = puzzles.len() as f64;
            println!(
                "puzzlebench {name} limit={limit} puzzles={} solutions={found} mean_us={:.3} cpu_us={:.3} cpu_mean_us={:.3} nodes={:.2} guesses={:.2}",
                puzzles.len(),
                best * 1e6 / n,
                best_cpu * 1e6 / n,
                warm_cpu_ns as f64 * 1e-3 / (n * warm_passes as f64),
                nodes as f64 / n,
                guesses as f64 / n
            );
        }
    }
    Ok(())
}
