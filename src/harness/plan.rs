//! The job plan, built before anything runs. A job is (strategy, puzzle, seed, colony); its
//! index in the plan is its identity in every output. Jobs are numbered strategy by strategy,
//! then puzzle by puzzle in dataset order, then seed, then colony. Nothing is materialised:
//! job `i` is computed from `i`, so a plan of millions of jobs costs no memory.
//!
//! Jobs do not *run* in that order. The jobs that reports pair — one puzzle, seed and colony
//! under each strategy of its kind, a *pair group* — run back to back on one worker, and the
//! strategies take turns being first ([`Plan::schedule`]): numbered order would solve every
//! puzzle cold under the first strategy and warm under the others, and a time comparison
//! would then depend on the order of `--strategy`. A shard takes whole pair groups
//! ([`Plan::shard_contains`]).

use crate::dataset::{Dataset, PuzzleKind};
use crate::hash::StableHasher;
pub use crate::results::{PlanLayout, Shard};
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
    /// Its place among the strategies sorted by identity (name, rules, params): the schedule
    /// takes turns in that order, so `--strategy a,b` and `b,a` run the same jobs in the same
    /// order (only their job numbers differ).
    rank: usize,
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
/// ([`crate::solver::Capabilities::sizes`]).
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

/// Refuse a solver the dataset holds a puzzle of a size for that it does not take
/// ([`crate::solver::Capabilities::sizes`]), naming the first such puzzle. Sizes are known
/// per dataset for Sudoku (its order K, a K² x K² grid); a kind whose every size any solver
/// takes has nothing to check.
fn check_sizes(dataset: &Dataset, s: &dyn Solver) -> Result<(), PlanError> {
    if s.kind() != PuzzleKind::Sudoku {
        return Ok(());
    }
    let Some(sides) = s.capabilities().sizes.sides(s.kind()) else {
        return Ok(());
    };
    let Some(seen) = dataset
        .sudoku_orders()
        .iter()
        .find(|o| !sides.contains(&(o.order * o.order)))
    else {
        return Ok(());
    };
    let takes: Vec<usize> = (2..=8).filter(|k| sides.contains(&(k * k))).collect();
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
        // Each strategy's identity, which orders the blocks the same whatever the order of
        // `--strategy`.
        let ids: Vec<_> = (strategies.iter())
            .map(|s| (s.name(), s.capabilities().rules, s.params()))
            .collect();
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
            check_sizes(dataset, s.as_ref())?;
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
            let rank = ids.iter().filter(|o| **o < ids[si]).count();
            blocks.push(Block {
                strategy: si,
                rank,
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
        let b = self.block(index);
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

    /// The block holding job `index`.
    fn block(&self, index: u64) -> &Block {
        self.blocks
            .iter()
            .find(|b| index >= b.first && index < b.first + b.len)
            .unwrap_or_else(|| panic!("job index {index} outside a plan of {}", self.total))
    }

    /// The pair group of job `index` within its kind: `puzzle * seeds + seed index`. Every
    /// strategy's job on that puzzle and seed has the same group, whatever its colony.
    fn group(&self, index: u64) -> u64 {
        let b = self.block(index);
        (index - b.first) / u64::from(b.colonies)
    }

    /// Whether job `index` is in `shard`: whole pair groups go round-robin to the shards, so
    /// the jobs a report pairs are run by one shard, back to back. [`PlanLayout`] answers the
    /// same from a meta, for `merge`.
    pub fn shard_contains(&self, shard: Shard, index: u64) -> bool {
        self.group(index) % u64::from(shard.count) == u64::from(shard.index - 1)
    }

    /// Number of jobs in one shard.
    pub fn shard_len(&self, shard: Shard) -> u64 {
        let (k, n) = (u64::from(shard.index - 1), u64::from(shard.count));
        self.blocks
            .iter()
            .map(|b| {
                let colonies = u64::from(b.colonies);
                let groups = b.len / colonies;
                let mine = if k < groups {
                    (groups - k).div_ceil(n)
                } else {
                    0
                };
                mine * colonies
            })
            .sum()
    }

    /// Whether [`Plan::schedule`] is plan order: one strategy per puzzle kind.
    pub fn runs_in_order(&self) -> bool {
        let mut kinds: Vec<PuzzleKind> = self.blocks.iter().map(|b| b.kind).collect();
        kinds.dedup();
        let n = kinds.len();
        kinds.sort_unstable();
        kinds.dedup();
        n == self.blocks.len() && kinds.len() == n
    }

    /// What `merge` needs to tell a job's shard without the dataset.
    pub fn layout(&self) -> PlanLayout {
        PlanLayout {
            blocks: self.blocks.iter().map(|b| (b.first, b.colonies)).collect(),
        }
    }

    /// The jobs of `shard` in the order they run, each with the ordinal of its pair group in
    /// that order (consecutive jobs of one group share it; a worker takes whole groups).
    ///
    /// Kind by kind (in the order of their first strategy), pair group by pair group (puzzle,
    /// seed), colony by colony: every strategy
    /// of the kind that runs that colony, in identity order (name, rules, params: not the
    /// order of `--strategy`), rotated so that the `i`-th group of the shard starts with
    /// member `i mod m`. Across the shard each
    /// strategy is first equally often (counts differ by at most one) among the groups with
    /// the same members. With one strategy per kind this is plan order.
    pub fn schedule(&self, shard: Shard) -> Schedule {
        let mut kinds: Vec<(PuzzleKind, KindBlocks)> = Vec::new();
        for b in &self.blocks {
            let at = match kinds.iter().position(|(kind, _)| *kind == b.kind) {
                Some(i) => i,
                None => {
                    // Blocks of one kind cover the same puzzles and seeds.
                    let groups = b.len / u64::from(b.colonies);
                    kinds.push((
                        b.kind,
                        KindBlocks {
                            blocks: Vec::new(),
                            groups,
                            colonies: 1,
                        },
                    ));
                    kinds.len() - 1
                }
            };
            let k = &mut kinds[at].1;
            k.blocks.push((b.first, b.colonies));
            k.colonies = k.colonies.max(b.colonies);
        }
        // Members take turns in identity order, whatever the order of `--strategy`.
        let rank = |first: u64| {
            self.blocks
                .iter()
                .find(|b| b.first == first)
                .map(|b| b.rank)
        };
        for (_, k) in &mut kinds {
            k.blocks.sort_by_key(|&(first, _)| (rank(first), first));
        }
        let first = u64::from(shard.index - 1);
        Schedule {
            kinds: kinds.into_iter().map(|(_, k)| k).collect(),
            step: u64::from(shard.count),
            first,
            kind: 0,
            group: first,
            colony: 0,
            jobs: Vec::new(),
            next: 0,
            ordinal: 0,
        }
    }
}

/// The strategies of one kind: each one's first job and colonies; the pair groups they share.
#[derive(Clone, Debug)]
struct KindBlocks {
    blocks: Vec<(u64, u32)>,
    groups: u64,
    colonies: u32,
}

/// The jobs of a shard in the order they run ([`Plan::schedule`]): `(job, group ordinal)`.
/// Lazy: it holds one pair group at a time.
#[derive(Clone, Debug)]
pub struct Schedule {
    kinds: Vec<KindBlocks>,
    /// Shard count and this shard's first group.
    step: u64,
    first: u64,
    /// Where it is: the kind, the group (puzzle and seed) and the colony of `jobs`.
    kind: usize,
    group: u64,
    colony: u32,
    jobs: Vec<u64>,
    next: usize,
    ordinal: u64,
}

impl Schedule {
    /// Fill `jobs` with the next pair group; `false` when there is none.
    fn advance(&mut self) -> bool {
        loop {
            let Some(k) = self.kinds.get(self.kind) else {
                return false;
            };
            if self.colony == k.colonies {
                self.colony = 0;
                self.group += self.step;
            }
            if self.group >= k.groups {
                self.kind += 1;
                self.group = self.first;
                self.colony = 0;
                continue;
            }
            let c = self.colony;
            self.colony += 1;
            let members = k.blocks.iter().filter(|(_, col)| *col > c).count();
            if members == 0 {
                continue;
            }
            // Colonies lo..hi have these same members. The t-th group of this shard with them
            // starts with member t mod m: turns are taken within the shard, so each shard of
            // a sharded run is as fair as a whole run.
            let lo = k
                .blocks
                .iter()
                .map(|b| b.1)
                .filter(|&col| col <= c)
                .max()
                .unwrap_or(0);
            let hi = k
                .blocks
                .iter()
                .map(|b| b.1)
                .filter(|&col| col > c)
                .min()
                .unwrap_or(c + 1);
            let t = (self.group / self.step) * u64::from(hi - lo) + u64::from(c - lo);
            let turn = (t % members as u64) as usize;
            let group = self.group;
            self.jobs.clear();
            let member = k
                .blocks
                .iter()
                .filter(|(_, col)| *col > c)
                .map(|&(first, col)| first + group * u64::from(col) + u64::from(c));
            self.jobs.extend(member.clone().skip(turn));
            self.jobs.extend(member.take(turn));
            self.next = 0;
            self.ordinal += 1;
            return true;
        }
    }
}

impl Iterator for Schedule {
    type Item = (u64, u64);

    fn next(&mut self) -> Option<(u64, u64)> {
        if self.next == self.jobs.len() && !self.advance() {
            return None;
        }
        let j = self.jobs[self.next];
        self.next += 1;
        Some((j, self.ordinal))
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
            h.write_str(&s.capabilities().rules);
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
    use std::collections::BTreeMap;

    /// A Sudoku solver taking the given orders; never started.
    struct Takes(&'static [usize]);

    impl Solver for Takes {
        fn name(&self) -> &str {
            "takes"
        }
        fn kind(&self) -> PuzzleKind {
            PuzzleKind::Sudoku
        }
        fn capabilities(&self) -> crate::solver::Capabilities {
            let sides = self.0.iter().map(|k| k * k).collect();
            crate::solver::Capabilities::default().with_sizes(crate::solver::Sizes::Sides(sides))
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

    /// A plan without a dataset: one block per `(kind, colonies)`, `puzzles` puzzles of
    /// each kind, `seeds` seeds.
    fn plan_of(strategies: &[(PuzzleKind, u32)], puzzles: u64, seeds: u32) -> Plan {
        let mut blocks = Vec::new();
        let mut first = 0;
        for (strategy, &(kind, colonies)) in strategies.iter().enumerate() {
            let len = puzzles * u64::from(seeds) * u64::from(colonies);
            blocks.push(Block {
                strategy,
                rank: strategy,
                kind,
                colonies,
                first,
                len,
            });
            first += len;
        }
        Plan {
            blocks,
            seed: 7,
            seeds,
            total: first,
        }
    }

    const H: PuzzleKind = PuzzleKind::Hitori;
    const S: PuzzleKind = PuzzleKind::Sudoku;

    fn shapes() -> Vec<Plan> {
        vec![
            plan_of(&[(H, 1)], 7, 1),
            plan_of(&[(H, 1), (H, 1)], 7, 1),
            plan_of(&[(H, 1), (H, 1), (H, 1)], 10, 2),
            plan_of(&[(S, 3), (S, 1), (S, 3)], 5, 2),
            plan_of(&[(H, 1), (S, 2), (H, 1), (S, 2)], 4, 3),
            plan_of(&[(S, 1)], 1, 1),
        ]
    }

    #[test]
    fn every_shard_schedules_each_of_its_jobs_once_and_the_shards_cover_the_plan() {
        for plan in shapes() {
            let layout = plan.layout();
            for n in 1..=4u32 {
                let mut all = Vec::new();
                for k in 1..=n {
                    let shard = Shard { index: k, count: n };
                    let mut got: Vec<u64> = plan.schedule(shard).map(|(j, _)| j).collect();
                    assert_eq!(
                        got.len() as u64,
                        plan.shard_len(shard),
                        "{shard} of {plan:?}"
                    );
                    assert!(got.iter().all(|j| plan.shard_contains(shard, *j)));
                    assert!(got.iter().all(|j| layout.shard_contains(shard, *j)));
                    got.sort_unstable();
                    let want: Vec<u64> = (0..plan.len())
                        .filter(|j| plan.shard_contains(shard, *j))
                        .collect();
                    assert_eq!(got, want, "{shard} of {plan:?}");
                    all.extend(got);
                }
                all.sort_unstable();
                assert_eq!(all, (0..plan.len()).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn a_pair_group_runs_back_to_back_and_the_strategies_take_turns_being_first() {
        for plan in shapes() {
            for n in 1..=3u32 {
                let shard = Shard { index: n, count: n };
                let jobs: Vec<(Job, u64)> = plan
                    .schedule(shard)
                    .map(|(j, g)| (plan.job(j), g))
                    .collect();
                // Members of a group: one puzzle, seed and colony, one job per strategy.
                let mut firsts: BTreeMap<Vec<usize>, BTreeMap<usize, u64>> = BTreeMap::new();
                for group in jobs.chunk_by(|a, b| a.1 == b.1) {
                    let (j0, _) = group[0];
                    assert!(group
                        .iter()
                        .all(|(j, _)| (j.kind, j.puzzle, j.seed, j.colony)
                            == (j0.kind, j0.puzzle, j0.seed, j0.colony)));
                    let mut members: Vec<usize> = group.iter().map(|(j, _)| j.strategy).collect();
                    *firsts
                        .entry({
                            members.sort_unstable();
                            members.clone()
                        })
                        .or_default()
                        .entry(j0.strategy)
                        .or_default() += 1;
                    members.dedup();
                    assert_eq!(members.len(), group.len(), "a strategy twice in a group");
                }
                // Group ordinals ascend and never repeat once left.
                assert!(jobs.windows(2).all(|w| w[0].1 <= w[1].1));
                for (members, counts) in firsts {
                    let total: u64 = counts.values().sum();
                    let (lo, hi) = (
                        members
                            .iter()
                            .map(|m| counts.get(m).copied().unwrap_or(0))
                            .min(),
                        counts.values().copied().max(),
                    );
                    if total >= members.len() as u64 {
                        assert!(
                            hi.unwrap_or(0) - lo.unwrap_or(0) <= 1,
                            "{members:?}: {counts:?} in {plan:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn with_one_strategy_per_kind_the_schedule_is_plan_order() {
        for plan in [
            plan_of(&[(H, 1)], 9, 2),
            plan_of(&[(S, 3)], 4, 2),
            plan_of(&[(H, 1), (S, 2)], 3, 2),
        ] {
            for n in 1..=3u32 {
                let shard = Shard { index: 1, count: n };
                let got: Vec<u64> = plan.schedule(shard).map(|(j, _)| j).collect();
                assert!(got.windows(2).all(|w| w[0] < w[1]), "{got:?}");
            }
        }
        let two = plan_of(&[(H, 1), (H, 1)], 3, 1);
        let got: Vec<u64> = two.schedule(Shard::default()).map(|(j, _)| j).collect();
        assert_eq!(got, [0, 3, 4, 1, 2, 5]);
    }
}
