//! Sudoku generation cost: milliseconds a puzzle and the mean givens, per difficulty, over 20
//! seeds. Formerly the ignored unit test `generate_speed`.
//!
//! `cargo run --release --example sudoku_generate_speed`

use puzzlebench::sudoku::{generate, Difficulty};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

#[path = "common/cpu_timer.rs"]
mod cpu_timer;

fn main() {
    for d in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
        let t = cpu_timer::Timer::start();
        let mut givens = 0;
        for seed in 0..20 {
            givens += generate(d, &mut Pcg64Mcg::seed_from_u64(seed)).0.givens();
        }
        println!(
            "{d}: {:.2} ms per puzzle, {:.1} givens on average (20 seeds)",
            t.secs() * 1e3 / 20.0,
            givens as f64 / 20.0
        );
    }
}
