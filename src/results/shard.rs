//! `--shard K/N`: which slice of a plan a result file holds.

use std::fmt;
use std::str::FromStr;

/// The K-th (1-based) of N slices; job `j` belongs to it iff `j % N == K - 1`. Round-robin
/// keeps the slices balanced even when job cost grows along the plan.
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

/// A `--shard` value that is not `K/N` with `1 <= K <= N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected K/N with 1 <= K <= N, e.g. 3/16")]
pub struct BadShard(pub String);

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || BadShard(s.to_string());
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
}
