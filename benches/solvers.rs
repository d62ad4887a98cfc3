//! Criterion benchmarks of the hot solvers: Hitori 25x25 with `mrv` + `full`, Sudoku
//! `backtrack` over top1465, and ABC cycles. They use the public corpora where
//! `../shared/corpora` (or `$PUZZLEBENCH_SHARED`) is present and puzzles generated from a fixed
//! seed where it is not, so `cargo bench` runs anywhere.
//!
//! Run: `cargo bench --bench solvers` (or `-- backtrack` for one group).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use puzzlebench::corpus::shared_corpus_text;
use puzzlebench::hitori::grid::HitoriPuzzle;
use puzzlebench::hitori::rules::Rules;
use puzzlebench::hitori::search::{self, SearchConfig, Strategy};
use puzzlebench::solver::Rng;
use puzzlebench::sudoku::abc::{self, AbcParams};
use puzzlebench::sudoku::generate::{self, Difficulty};
use puzzlebench::sudoku::grid::SudokuPuzzle;
use puzzlebench::sudoku::{backtrack, parse::parse_lines};
use rand::SeedableRng;

fn hitori_25x25() -> Vec<HitoriPuzzle> {
    if let Some(text) = shared_corpus_text("hitori/tud-singles-5to25.tsv") {
        if let Ok(all) = puzzlebench::hitori::parse::parse_singles(&text) {
            return all
                .into_iter()
                .map(|p| p.puzzle)
                .filter(|p| p.width() == 25)
                .collect();
        }
    }
    let mut rng = Rng::seed_from_u64(25);
    (0..20)
        .map(|_| puzzlebench::hitori::generate::generate(25, 25, &mut rng).0)
        .collect()
}

fn sudoku_hard() -> Vec<SudokuPuzzle> {
    if let Some(text) = shared_corpus_text("sudoku/puzzles3_magictour_top1465.txt") {
        if let Ok(all) = parse_lines(&text) {
            return all.into_iter().map(|p| p.puzzle).collect();
        }
    }
    let mut rng = Rng::seed_from_u64(1465);
    (0..100)
        .map(|_| generate::generate(Difficulty::Hard, &mut rng).0)
        .collect()
}

fn hitori(c: &mut Criterion) {
    let puzzles = hitori_25x25();
    let cfg = SearchConfig {
        strategy: Strategy::Mrv,
        rules: Rules::Full,
        max_solutions: 1,
        node_limit: None,
    };
    let mut g = c.benchmark_group("hitori");
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.bench_function("mrv_full_25x25", |b| {
        b.iter(|| {
            for p in &puzzles {
                std::hint::black_box(search::solve(p, &cfg, &mut || false));
            }
        })
    });
    g.finish();
}

fn sudoku(c: &mut Criterion) {
    let puzzles = sudoku_hard();
    let mut g = c.benchmark_group("sudoku");
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.bench_function("backtrack_top1465", |b| {
        b.iter(|| {
            for p in &puzzles {
                std::hint::black_box(backtrack::solve(p, 1, None, &mut || false));
            }
        })
    });
    g.finish();
}

fn abc_cycles(c: &mut Criterion) {
    let mut rng = Rng::seed_from_u64(7);
    let (puzzle, _) = generate::generate(Difficulty::Medium, &mut rng);
    const CYCLES: u64 = 100;
    // A cycle budget the colony cannot solve within, so every iteration runs all 100 cycles
    // (the medium set stays unsolved by pure ABC for thousands of cycles).
    let params = AbcParams {
        max_cycles: CYCLES,
        ..AbcParams::default()
    };
    let mut g = c.benchmark_group("abc");
    g.throughput(Throughput::Elements(CYCLES));
    g.bench_function("colony100_100_cycles", |b| {
        b.iter_batched(
            || Rng::seed_from_u64(42),
            |mut rng| abc::solve(&puzzle, &params, &mut rng, &mut || false, None),
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// What timing a solve costs: the `Instant` pair around every `Worker::solve` (`wall_s`) and the
/// thread-CPU-clock pair beside it (`cpu_s`). docs/running.md quotes these.
fn clock(c: &mut Criterion) {
    let mut g = c.benchmark_group("clock");
    g.bench_function("instant_pair", |b| {
        b.iter(|| {
            let t = std::time::Instant::now();
            std::hint::black_box(t.elapsed())
        })
    });
    g.bench_function("thread_cpu_pair", |b| {
        b.iter(|| {
            let t = puzzlebench::clock::thread_cpu_s();
            std::hint::black_box((t, puzzlebench::clock::thread_cpu_s()))
        })
    });
    g.finish();
}

criterion_group!(benches, hitori, sudoku, abc_cycles, clock);
criterion_main!(benches);
