//! The job plan, built before anything runs. A job is (strategy, puzzle, seed, colony); its
//! index in the plan is its identity in every output. Jobs are numbered strategy by strategy,
//! then puzzle by puzzle in dataset order, then seed, then colony. Nothing is materialised:
//! job `i` is computed from `i`, so a plan of millions of jobs costs no memory.

use super::seed::StableHasher;
use super::Solver;
use crate::dataset::{Dataset, PuzzleKind};
use std::fmt;
use std::str::FromStr;

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
    /// `--seeds` or `--colonies` is zero.
    #[error("{flag} must be at least 1, found 0")]
    Zero {
        /// The flag.
        flag: &'static str,
    },
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
            let colonies = if s.is_randomised() { colonies } else { 1 };
            let len = puzzles * u64::from(seeds) * u64::from(colonies);
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
            h.write_str(&s.params());
        }
        h.write_u64(seed);
        h.write_u64(u64::from(seeds));
        h.write_u64(u64::from(colonies));
        h.finish()
    })
}

/// `--shard K/N`: the K-th (1-based) of N slices; job `j` belongs to it iff `j % N == K - 1`.
/// Round-robin keeps the slices balanced even when job cost grows along the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// 1-based slice number.
    pub index: u32,
    /// Number of slices.
    pub count: u32,
}

impl Default for Shard {
    fn default() -> Self {
        Shard { index: 1, count: 1 }
    }
}

impl Shard {
    /// Whether job `j` is in this shard.
    pub fn contains(self, j: u64) -> bool {
        j % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("--shard {s:?}: expected K/N with 1 <= K <= N, e.g. 3/16");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        for bad in ["0/4", "5/4", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn shards_partition_jobs() {
        let n = 3;
        let mut seen = vec![0u32; 100];
        for k in 1..=n {
            for j in 0..100u64 {
                if (Shard { index: k, count: n }).contains(j) {
                    seen[j as usize] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
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
