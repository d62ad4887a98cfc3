//! A Hitori solve in a reused [`Scratch`] allocates nothing but its answer: the second and
//! later solves of a puzzle through `solve_with`, and through a built-in solver's worker,
//! allocate exactly once when they find a solution (its `Shading`) and never otherwise. A
//! per-solve `Vec` reintroduced anywhere in the search, propagation or connectivity code makes
//! these counts grow and the tests fail.
//!
//! The counting allocator is this test binary's own global allocator. It counts per thread, so
//! the tests of this binary can run in parallel without seeing each other's allocations.
//!
//! Run: `cargo test --release --test it hitori_scratch_alloc`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use puzzlebench::builtin::{parse_strategies, SolverOptions};
use puzzlebench::dataset::{Puzzle, PuzzleData};
use puzzlebench::hitori::{
    generate, solve, solve_with, HitoriPuzzle, Rules, Scratch, SearchConfig, SearchResult, Strategy,
};
use puzzlebench::solver::{rand::SeedableRng, Rng, Solver, Task};

/// The system allocator, counting the allocations (and reallocations) of each thread.
struct Counting;

thread_local! {
    // A const-initialised `Cell` of a `Copy` type: reading it never allocates, so the
    // allocator can use it.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count_one() {
    // `try_with`: a thread being torn down may still free or allocate after its locals died.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's own arguments, so `System`'s
// guarantees are the caller's; the counting touches only a thread-local counter.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged (see the impl).
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations this thread makes while running `f`, and what `f` returned.
fn allocations_in<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// Generated puzzles from 4x4 to 25x25 (some not square), plus one with no solution.
fn puzzles() -> Vec<HitoriPuzzle> {
    let mut rng = Rng::seed_from_u64(13);
    let mut v: Vec<HitoriPuzzle> = [(4, 4), (5, 7), (9, 6), (12, 12), (17, 17), (25, 25)]
        .into_iter()
        .map(|(w, h)| generate(w, h, &mut rng).0)
        .collect();
    // All 1s: at most one white per row, which 6x6 cannot do with non-touching blacks.
    v.push(HitoriPuzzle::new(6, 6, vec![1; 36]).expect("a valid grid"));
    v
}

fn configs() -> Vec<SearchConfig> {
    let mut v = Vec::new();
    for strategy in Strategy::ALL {
        for rules in Rules::ALL {
            for max_solutions in [1, 2] {
                v.push(SearchConfig {
                    strategy,
                    rules,
                    max_solutions,
                    node_limit: Some(20_000),
                });
            }
        }
    }
    v
}

/// The allocations a solve may make: the first solution's shading, and nothing else.
fn allowed(r: &SearchResult) -> u64 {
    u64::from(r.first.is_some())
}

#[test]
fn repeated_solves_in_a_scratch_allocate_only_the_answer() {
    let puzzles = puzzles();
    for cfg in configs() {
        let mut scratch = Scratch::new();
        for p in &puzzles {
            let first = solve_with(&mut scratch, p, &cfg, &mut || false);
            let (n, again) = allocations_in(|| solve_with(&mut scratch, p, &cfg, &mut || false));
            assert_eq!(again, first, "{cfg:?} {}x{}", p.width(), p.height());
            assert_eq!(
                n,
                allowed(&again),
                "second solve of a {}x{} with {cfg:?} allocated {n} times (found a solution: {})",
                p.width(),
                p.height(),
                again.first.is_some()
            );
        }
        // The buffers now fit the largest puzzle: every smaller one, in any order, solves
        // without growing them.
        for p in puzzles.iter().rev() {
            let (n, r) = allocations_in(|| solve_with(&mut scratch, p, &cfg, &mut || false));
            assert_eq!(n, allowed(&r), "{cfg:?} {}x{}", p.width(), p.height());
        }
    }
}

#[test]
fn a_fresh_solve_allocates_its_buffers() {
    // The counter sees the buffers `solve` makes for itself, so the zero counts above are
    // not a counter that sees nothing.
    let p = &puzzles()[3];
    let cfg = SearchConfig::default();
    let (n, r) = allocations_in(|| solve(p, &cfg, &mut || false));
    assert!(r.first.is_some());
    assert!(n > 5, "a fresh solve allocated only {n} times");
}

#[test]
fn a_reused_scratch_gives_the_results_of_fresh_solves() {
    // Whatever a scratch solved before (larger, smaller, another rule set or strategy), a
    // solve in it returns what a fresh solve returns, counters included.
    let puzzles = puzzles();
    let configs = configs();
    let mut scratch = Scratch::new();
    for (i, p) in puzzles.iter().enumerate().chain(puzzles.iter().enumerate()) {
        for j in 0..configs.len() {
            // Start each puzzle's round at another config, so each solve follows varied
            // predecessors.
            let cfg = &configs[(i * 5 + j) % configs.len()];
            let mine = solve_with(&mut scratch, p, cfg, &mut || false);
            assert_eq!(mine, solve(p, cfg, &mut || false), "{cfg:?} {i}");
        }
    }
}

#[test]
fn a_builtin_worker_allocates_only_the_answer_after_its_first_job() {
    let specs = parse_strategies("mrv,row,mrv-dyn", &SolverOptions::default()).expect("known");
    let puzzles = puzzles();
    for spec in &specs {
        let mut worker = spec.start().expect("a built-in worker starts");
        for (i, grid) in puzzles.iter().enumerate() {
            let puzzle = Puzzle {
                id: format!("p{i}"),
                file: 0,
                line: i + 1,
                data: PuzzleData::Hitori {
                    puzzle: grid.clone(),
                    solution: None,
                },
            };
            let mut solve_once = || {
                let mut rng = Rng::seed_from_u64(1);
                let mut task = Task {
                    puzzle: &puzzle,
                    job: i as u64,
                    seed: 1,
                    rng: &mut rng,
                    stop: puzzlebench::solver::Stop::never(),
                    trace: None,
                };
                worker.solve(&mut task).expect("solves")
            };
            let first = solve_once();
            let (n, again) = allocations_in(&mut solve_once);
            assert_eq!(again, first);
            let found = matches!(again.end, puzzlebench::solver::End::Found(_));
            assert_eq!(
                n,
                u64::from(found),
                "{}: job {i} allocated {n} times",
                spec.name()
            );
        }
    }
}
