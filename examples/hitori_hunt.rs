//! A hunt for puzzles that are hard for the solver: hill climbing on the search's node count.
//!
//! A tool, run by hand (formerly the ignored unit test `hitori::hunt::hunt_hard_puzzles`); it is
//! how the tail cases of issue 13 (`datasets/hitori-tail`) were found.
//! Start from a generated unique puzzle and change one number at a time, keeping the known
//! solution valid (a white cell only takes a number no other white of its row or column holds;
//! a black cell any number), and keep a change when the puzzle stays unique and the search
//! needs at least as many nodes as before.

use rand::Rng;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use anyhow::Context;
use puzzlebench::hitori::{
    generate, solve, to_singles_id, HitoriPuzzle, Rules, SearchConfig, SearchEnd, Shading, Strategy,
};

/// Node budget of one check; a mutation whose uniqueness cannot be settled within it is refused.
const CHECK_LIMIT: u64 = 2_000_000;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

/// The rules the hardness is measured with: `HUNT_RULES=basic` climbs on the article's rules,
/// which still have a gradient where `full` (with probing) solves nearly every puzzle in one
/// node and so leaves the climber on a plateau; the found puzzles are then timed under `full`.
fn hunt_rules() -> Rules {
    match env_or("HUNT_RULES", "full").as_str() {
        "basic" => Rules::Basic,
        _ => Rules::Full,
    }
}

/// The hardness measure: `mrv` nodes to the first solution (under [`hunt_rules`]), then (to
/// climb the long plateaus where the root propagation solves everything) the cells it leaves
/// unknown.
fn hardness(p: &HitoriPuzzle) -> Option<u64> {
    let cfg = SearchConfig {
        strategy: Strategy::Mrv,
        rules: hunt_rules(),
        max_solutions: 1,
        node_limit: Some(CHECK_LIMIT),
    };
    let res = solve(p, &cfg, &mut || false);
    let cells = (p.width() * p.height()) as u64;
    let open = cells - u64::from(res.stats.propagated);
    (res.end == SearchEnd::Complete).then_some(res.stats.nodes * (cells + 1) + open)
}

/// True when `p` has exactly one solution, proved within the budget.
fn unique(p: &HitoriPuzzle) -> bool {
    let cfg = SearchConfig {
        strategy: Strategy::Mrv,
        rules: Rules::Full,
        max_solutions: 2,
        node_limit: Some(CHECK_LIMIT),
    };
    let res = solve(p, &cfg, &mut || false);
    res.end == SearchEnd::Complete && res.solutions == 1
}

/// One mutation of `cells` that keeps `sol` a valid shading, or `None` when the drawn white
/// cell has no free number.
fn mutate(cells: &mut [u32], n: usize, sol: &Shading, rng: &mut Pcg64Mcg) -> Option<()> {
    let i = rng.random_range(0..n * n);
    let (r, c) = (i / n, i % n);
    let v = if sol.is_black(r, c) {
        // Mostly the number of a white cell of its row or column, so that it stays forced.
        let k = rng.random_range(0..n);
        match rng.random_range(0..3) {
            0 if !sol.is_black(r, k) => cells[r * n + k],
            1 if !sol.is_black(k, c) => cells[k * n + c],
            _ => rng.random_range(1..=n as u32),
        }
    } else {
        let used = |x: u32| {
            (0..n).any(|k| k != c && !sol.is_black(r, k) && cells[r * n + k] == x)
                || (0..n).any(|k| k != r && !sol.is_black(k, c) && cells[k * n + c] == x)
        };
        let free: Vec<u32> = (1..=n as u32).filter(|&x| !used(x)).collect();
        if free.is_empty() {
            return None;
        }
        free[rng.random_range(0..free.len())]
    };
    cells[i] = v;
    Some(())
}

/// `HUNT_SIZES=17,20 HUNT_SEEDS=20 [HUNT_RULES=basic] HUNT_ITERS=400 HUNT_OUT=/tmp/hard.tsv
/// cargo run --release --example hitori_hunt`: one climbed puzzle per (size, seed), written as
/// Singles IDs with solution masks, hardest last per size.
fn main() -> anyhow::Result<()> {
    let sizes: Vec<usize> = env_or("HUNT_SIZES", "17")
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let seeds: u64 = env_or("HUNT_SEEDS", "10").parse().unwrap_or(10);
    let iters: usize = env_or("HUNT_ITERS", "300").parse().unwrap_or(300);
    let base: u64 = env_or("HUNT_BASE", "0").parse().unwrap_or(0);
    let out = env_or("HUNT_OUT", "/tmp/hitori-hunt.tsv");
    let mut text = format!(
        "# hill-climbed on mrv+{:?} nodes: sizes {sizes:?}, seeds {base}..{}, {iters} steps\n",
        hunt_rules(),
        base + seeds
    );
    for &n in &sizes {
        let mut found = Vec::new();
        for seed in base..base + seeds {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ ((n as u64) << 32));
            let (p, sol) = generate(n, n, &mut rng);
            let mut cells = p.cells().to_vec();
            let Some(mut best) = hardness(&p) else {
                continue;
            };
            for _ in 0..iters {
                let mut trial = cells.clone();
                if mutate(&mut trial, n, &sol, &mut rng).is_none() {
                    continue;
                }
                let Ok(q) = HitoriPuzzle::new(n, n, trial.clone()) else {
                    continue;
                };
                let Some(h) = hardness(&q) else { continue };
                if h >= best && unique(&q) {
                    best = h;
                    cells = trial;
                }
            }
            let q = HitoriPuzzle::new(n, n, cells).context("mutations keep numbers >= 1")?;
            eprintln!(
                "{n}x{n} seed {seed}: {} nodes, {} open",
                best / (n * n + 1) as u64,
                best % (n * n + 1) as u64
            );
            found.push((best, q));
        }
        found.sort_by_key(|(h, _)| *h);
        for (h, q) in &found {
            let res = solve(&q.clone(), &SearchConfig::default(), &mut || false);
            let mask = res.first.map(|s| s.to_mask()).unwrap_or_default();
            let id = to_singles_id(q).context("sides fit the Singles format")?;
            text.push_str(&format!("{id}\t{mask}\n"));
            eprintln!("{n}x{n}: {} nodes", h / (n * n + 1) as u64);
        }
    }
    std::fs::write(&out, text).with_context(|| format!("writing {out}"))?;
    Ok(())
}
