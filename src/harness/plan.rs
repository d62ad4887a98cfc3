//! The job plan, built before anything runs. A job is (strategy, puzzle, seed, colony); its
//! index in the plan is its identity in every output. Jobs are numbered strategy by strategy,
//! then puzzle by puzzle in dataset order, then seed, then colony. Nothing is materialised:
//! job `i` is computed from `i`, so a plan of millions of jobs costs no memory.

use crate::dataset::{Dataset, PuzzleKind};
use crate::hash::StableHasher;
pub use crate::results::Shard;
use crate::solver::Solver;

/// One unit of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Index in the whole (unsharded) plan.
    pub index: u64,
    /// Index into the run's strategy list.
    pub strategy: usize,
    /// Kind of puzzle the strategy takes.
    pub kind: PuzzleKind,
    /// Which puzzle: its position among the dataset's puzzles of that kind (0-based), so the
    /// plan needs no list of puzzles and the dataset can be streamed.
    pub puzzle: u64,
    /// Seed value (base seed + seed index).
    pub seed: u64,
    /// Colony index.
    pub colony: u32,
}

#[derive(Clone, Debug)]
struct Block {
    strategy: usize,
    kind: PuzzleKind,
    colonies: u32,
    first: u64,
    len: u64,
}

/// The whole plan of a run.
#[derive(Clone, Debug)]
pub struct Plan {
    blocks: Vec<Block>,
    seed: u64,
    seeds: u32,
    total: u64,
}

/// Why a plan cannot be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlanError {
    /// A strategy has no puzzle of its kind in the dataset.
    #[error("strategy {strategy} solves {kind} puzzles, but dataset {dataset} holds none (it holds {holds})")]
    NoPuzzles {
        /// Strategy name.
        strategy: String,
        /// Kind it solves.
        kind: String,
        /// Dataset name.
        dataset: String,
        /// What the dataset does hold.
        holds: String,
    },
    /// A Sudoku strategy does not take an order the dataset holds (refused before anything
    /// runs).
    #[error("{0}")]
    Order(Box<OrderRefusal>),
    /// `--seeds` or `--colonies` is zero.
    #[error("{flag} must be at least 1, found 0")]
    Zero {
        /// The flag.
        flag: &'static str,
    },
    /// The last seed value would not fit in 64 bits.
    #[error("--seed {seed} --seeds {seeds}: the last seed value would be {seed} + {last}, past the largest 64-bit value; use a smaller --seed")]
    SeedOverflow {
        /// Base seed.
        seed: u64,
        /// Seeds per puzzle.
        seeds: u32,
        /// Largest seed index.
        last: u32,
    },
    /// More jobs than a run may hold.
    #[error("the plan has {jobs} jobs, more than the {max} one run may hold; split it with fewer --seeds/--colonies or several datasets")]
    TooBig {
        /// Jobs the options ask for (saturating).
        jobs: u128,
        /// The limit.
        max: u64,
    },
}

/// A Sudoku strategy and an order of the dataset it does not take
/// ([`Solver::sudoku_orders`]).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("strategy {strategy} takes Sudoku {takes} only, not order {order} ({side}x{side}): dataset {dataset} holds {puzzles} puzzle(s) of order {order}, the first at {path}:{line} ({id}); nothing was run. Leave them out, or choose a strategy that takes order {order} (abc-prop and restarts take orders 2-6; an external solver declares its orders in its manifest's `orders` key)", side = order * order, path = path.display())]
pub struct OrderRefusal {
    /// Strategy name.
    pub strategy: String,
    /// The orders it takes, as text (`order 3 (9x9)`, `orders 3 (9x9), 4 (16x16)`).
    pub takes: String,
    /// The order refused.
    pub order: usize,
    /// Dataset name.
    pub dataset: String,
    /// Puzzles of that order in the dataset.
    pub puzzles: u64,
    /// File of the first of them.
    pub path: std::path::PathBuf,
    /// Its line.
    pub line: usize,
    /// Its id.
    pub id: String,
}

/// The most jobs one plan may hold (2^32): job numbers, resume bookkeeping and merge checks are
/// sized for it, and a run that big already takes days.
pub const MAX_JOBS: u64 = 1 << 32;

/// Refuse a Sudoku solver the dataset holds an order for that it does not declare
/// ([`Solver::sudoku_orders`]), naming the first such puzzle.
fn check_orders(dataset: &Dataset, s: &dyn Solver) -> Result<(), PlanError> {
    let takes = s.sudoku_orders();
    let Some(seen) = dataset
        .sudoku_orders()
        .iter()
        .find(|o| !takes.contains(&o.order))
    else {
        return Ok(());
    };
    let list: Vec<String> = takes
        .iter()
        .map(|k| format!("{k} ({0}x{0})", k * k))
        .collect();
    Err(PlanError::Order(Box::new(OrderRefusal {
        strategy: s.name().to_string(),
        takes: format!(
            "{} {}",
            if takes.len() == 1 { "order" } else { "orders" },
            list.join(", ")
        ),
        order: seen.order,
        dataset: dataset.name.clone(),
        puzzles: seen.puzzles,
        path: seen.path.clone(),
        line: seen.line,
        id: seen.id.clone(),
    })))
}

impl Plan {
    /// Plan every strategy over the puzzles of its kind. Colonies apply to randomised
    /// strategies only; deterministic ones run colony 0 alone.
    pub fn new(
        dataset: &Dataset,
        strategies: &[Box<dyn Solver>],
        seed: u64,
        seeds: u32,
        colonies: u32,
    ) -> Result<Plan, PlanError> {
        if seeds == 0 {
            return Err(PlanError::Zero { flag: "--seeds" });
        }
        if colonies == 0 {
            return Err(PlanError::Zero { flag: "--colonies" });
        }
        if seed.checked_add(u64::from(seeds - 1)).is_none() {
            return Err(PlanError::SeedOverflow {
                seed,
                seeds,
                last: seeds - 1,
            });
        }
        let mut blocks = Vec::new();
        let mut first = 0u64;
        for (si, s) in strategies.iter().enumerate() {
            let puzzles = dataset.count(s.kind());
            if puzzles == 0 {
                let holds: Vec<String> = dataset
                    .kinds()
                    .iter()
                    .map(|k| format!("{} {k}", dataset.count(*k)))
                    .collect();
                return Err(PlanError::NoPuzzles {
                    strategy: s.name().to_string(),
                    kind: s.kind().to_string(),
                    dataset: dataset.name.clone(),
                    holds: holds.join(", "),
                });
            }
            if s.kind() == PuzzleKind::Sudoku {
                check_orders(dataset, s.as_ref())?;
            }
            let colonies = if s.randomised() { colonies } else { 1 };
            let len = u128::from(puzzles) * u128::from(seeds) * u128::from(colonies);
            let jobs = u128::from(first) + len;
            if jobs > u128::from(MAX_JOBS) {
                return Err(PlanError::TooBig {
                    jobs,
                    max: MAX_JOBS,
                });
            }
            let len = len as u64;
            blocks.push(Block {
                strategy: si,
                kind: s.kind(),
                colonies,
                first,
                len,
            });
            first += len;
        }
        Ok(Plan {
            blocks,
            seed,
            seeds,
            total: first,
        })
    }

    /// Number of jobs in the whole plan.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether the plan is empty.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Job `index` (must be `< len()`).
    pub fn job(&self, index: u64) -> Job {
        let b = self
            .blocks
            .iter()
            .find(|b| index >= b.first && index < b.first + b.len)
            .unwrap_or_else(|| panic!("job index {index} outside a plan of {}", self.total));
        let mut k = index - b.first;
        let colony = (k % u64::from(b.colonies)) as u32;
        k /= u64::from(b.colonies);
        let seed_index = k % u64::from(self.seeds);
        k /= u64::from(self.seeds);
        Job {
            index,
            strategy: b.strategy,
            kind: b.kind,
            puzzle: k,
            seed: self.seed.wrapping_add(seed_index),
            colony,
        }
    }

    /// The job indices of one shard, ascending.
    pub fn shard_jobs(&self, shard: Shard) -> impl Iterator<Item = u64> + Send + 'static {
        (u64::from(shard.index - 1)..self.total).step_by(shard.count as usize)
    }

    /// Number of jobs in one shard.
    pub fn shard_len(&self, shard: Shard) -> u64 {
        let first = u64::from(shard.index - 1);
        if first >= self.total {
            0
        } else {
            (self.total - first).div_ceil(u64::from(shard.count))
        }
    }
}

/// A fingerprint of everything that determines a run's rows: dataset content and ids,
/// strategies with their parameters, seeds and colonies. Two runs with the same fingerprint
/// produce the same rows (timings aside).
pub fn fingerprint(
    dataset: &Dataset,
    strategies: &[Box<dyn Solver>],
    seed: u64,
    seeds: u32,
    colonies: u32,
) -> String {
    format!("{:016x}", {
        let mut h = StableHasher::default();
        h.write_str("plan-v2");
        h.write_str(&dataset.name);
        h.write_u64(dataset.len());
        h.write_str(&dataset.content_hash());
        for s in strategies {
            h.write_str(s.name());
            h.write_str(s.rules());
            h.write_str(s.params().as_str());
        }
        h.write_u64(seed);
        h.write_u64(u64::from(seeds));
        h.write_u64(u64::from(colonies));
        h.finish()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{SolverError, Worker};

    /// A Sudoku solver taking the given orders; never started.
    struct Takes(&'static [usize]);

    impl Solver for Takes {
        fn name(&self) -> &str {
            "takes"
        }
        fn kind(&self) -> PuzzleKind {
            PuzzleKind::Sudoku
        }
        fn sudoku_orders(&self) -> &[usize] {
            self.0
        }
        fn start(&self) -> Result<Box<dyn Worker + '_>, SolverError> {
            Err("not started in a plan test".into())
        }
    }

    #[test]
    fn a_sudoku_order_the_solver_does_not_take_refuses_the_plan_naming_the_first_puzzle() {
        let dir = tempfile::tempdir().expect("tempdir");
        let nine = format!("1{}\n", ".".repeat(80));
        std::fs::write(dir.path().join("a.txt"), nine).expect("write");
        let four = format!("# two 4x4\nsudoku4:{0}\nsudoku4:{0}\n", ["0"; 16].join(","));
        std::fs::write(dir.path().join("b.txt"), four).expect("write");
        let data = Dataset::open(dir.path()).expect("dataset");
        let plan = |orders: &'static [usize]| {
            let solvers: Vec<Box<dyn Solver>> = vec![Box::new(Takes(orders))];
            Plan::new(&data, &solvers, 0, 1, 1)
        };
        assert_eq!(plan(&[2, 3]).map(|p| p.len()), Ok(3));
        let Err(PlanError::Order(r)) = plan(&[3, 4]) else {
            panic!("order 2 accepted by a solver of orders 3 and 4");
        };
        assert_eq!(
            (r.order, r.puzzles, r.line, r.id.as_str()),
            (2, 2, 2, "b:1")
        );
        assert!(r.path.ends_with("b.txt"));
        let text = r.to_string();
        assert!(
            text.contains(
                "strategy takes takes Sudoku orders 3 (9x9), 4 (16x16) only, not order 2 (4x4)"
            ),
            "{text}"
        );
        let Err(PlanError::Order(r)) = plan(&[2]) else {
            panic!("order 3 accepted by a solver of order 2");
        };
        assert_eq!((r.order, r.line, r.id.as_str()), (3, 1, "a:1"));
        assert!(r.to_string().contains("takes Sudoku order 2 (4x4) only"));
    }

    #[test]
    fn shard_jobs_are_the_round_robin_slice_and_shard_len_counts_them() {
        for total in [0u64, 1, 2, 7, 100] {
            let plan = Plan {
                blocks: Vec::new(),
                seed: 0,
                seeds: 1,
                total,
            };
            for n in 1..=5u32 {
                for k in 1..=n {
                    let shard = Shard { index: k, count: n };
                    let want: Vec<u64> = (0..total).filter(|j| shard.contains(*j)).collect();
                    let got: Vec<u64> = plan.shard_jobs(shard).collect();
                    assert_eq!(got, want, "total {total}, shard {shard}");
                    assert_eq!(plan.shard_len(shard), want.len() as u64);
                }
            }
        }
    }
}
