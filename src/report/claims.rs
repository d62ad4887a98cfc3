//! "Proved no solution" claims judged against the other rows of a report's inputs.
//!
//! A claim on a puzzle whose file gives the solution is judged when the row is written (a
//! `wrong` row). Where the file gives none, the only evidence is another row: a verified solve
//! of the same puzzle by any configuration (or another seed of the same one) refutes the
//! claim. MiniZinc's mzn-bench checks statuses across configurations the same way. `summary`
//! (and the HTML page through it) lists such contradictions; `compare` counts one in the new
//! run as a regression.
//!
//! Memory: one entry per puzzle some row solved (a hash and a configuration number) and one
//! per claim; nothing per row.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::hash::StableHasher;
use crate::results::record::Claim;
use crate::results::{Record, Status};

/// One refuted claim: `claimed_by` said the puzzle has no solution, `solved_by` solved it
/// and the verifier accepted the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Contradiction {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle id.
    pub puzzle: String,
    /// The configuration that claimed no solution (its report label).
    pub claimed_by: String,
    /// Seed of the first claiming row.
    pub claimed_seed: u64,
    /// A configuration that solved the puzzle and was verified (the first such row read).
    pub solved_by: String,
}

impl Contradiction {
    /// One sentence for people.
    pub fn describe(&self) -> String {
        format!(
            "CONTRADICTION on {} puzzle {}: {} claimed no solution (seed {}), but {} solved it \
             and the verifier accepted the answer",
            self.dataset, self.puzzle, self.claimed_by, self.claimed_seed, self.solved_by
        )
    }
}

/// Gathers solves and "no solution" claims, a row at a time. Configurations are numbers the
/// caller gives (its group index) and names at the end.
#[derive(Clone, Debug, Default)]
pub struct ClaimCheck {
    /// Puzzle (dataset and id) hash -> the first configuration that solved it.
    solved: HashMap<u64, u32>,
    /// Claims in reading order, one per (puzzle, configuration).
    claims: Vec<ClaimRow>,
    claimed: HashSet<(u64, u32)>,
}

#[derive(Clone, Debug)]
struct ClaimRow {
    puzzle: u64,
    config: u32,
    dataset: String,
    puzzle_id: String,
    seed: u64,
}

fn puzzle_hash(r: &Record) -> u64 {
    let mut h = StableHasher::default();
    h.write_str(&r.dataset);
    h.write_str(&r.puzzle_id);
    h.finish()
}

impl ClaimCheck {
    /// Note a verified solve of `r`'s puzzle by `config` (other rows are ignored).
    pub fn solve(&mut self, config: u32, r: &Record) {
        if r.status == Some(Status::Solved) && r.verified {
            self.solved.entry(puzzle_hash(r)).or_insert(config);
        }
    }

    /// Note a "no solution" claim of `r` by `config`. A claim already judged `wrong` (against
    /// a solution the dataset gives) is not listed again.
    pub fn claim(&mut self, config: u32, r: &Record) {
        if r.claim != Some(Claim::NoSolution) || r.status == Some(Status::Wrong) {
            return;
        }
        let puzzle = puzzle_hash(r);
        if self.claimed.insert((puzzle, config)) {
            self.claims.push(ClaimRow {
                puzzle,
                config,
                dataset: r.dataset.clone(),
                puzzle_id: r.puzzle_id.clone(),
                seed: r.seed,
            });
        }
    }

    /// Both: a row that may solve or claim.
    pub fn add(&mut self, config: u32, r: &Record) {
        self.solve(config, r);
        self.claim(config, r);
    }

    /// The claims some solve refutes, in (dataset, puzzle, claimant) order; `label` names a
    /// configuration number.
    pub fn finish(self, label: impl Fn(u32) -> String) -> Vec<Contradiction> {
        let mut out: Vec<Contradiction> = self
            .claims
            .into_iter()
            .filter_map(|c| {
                let by = *self.solved.get(&c.puzzle)?;
                Some(Contradiction {
                    claimed_by: label(c.config),
                    solved_by: label(by),
                    dataset: c.dataset,
                    puzzle: c.puzzle_id,
                    claimed_seed: c.seed,
                })
            })
            .collect();
        out.sort_by(|a, b| {
            (&a.dataset, &a.puzzle, &a.claimed_by).cmp(&(&b.dataset, &b.puzzle, &b.claimed_by))
        });
        out
    }
}

/// At most this many contradictions are listed in text, markdown and HTML (JSON has all).
pub const LISTED: usize = 20;

#[cfg(test)]
mod tests {
    use super::*;

    fn row(puzzle: &str, status: Status, claim: Option<Claim>) -> Record {
        let mut r = Record::sample("d", "backtrack", puzzle, status, 1e-6);
        r.verified = status == Status::Solved;
        r.claim = claim;
        r
    }

    #[test]
    fn a_claim_refuted_by_another_configuration_is_named_with_both() {
        let mut c = ClaimCheck::default();
        // The claim comes first in reading order; the solve after it still refutes it.
        c.add(0, &row("p1", Status::Unsolved, Some(Claim::NoSolution)));
        c.add(0, &row("p2", Status::Unsolved, Some(Claim::NoSolution)));
        c.add(1, &row("p1", Status::Solved, None));
        c.add(1, &row("p2", Status::Timeout, None));
        let found = c.finish(|i| ["exact", "other"][i as usize].to_string());
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].puzzle, "p1");
        assert_eq!(
            (found[0].claimed_by.as_str(), found[0].solved_by.as_str()),
            ("exact", "other")
        );
        assert!(found[0].describe().contains("exact claimed no solution"));
    }

    #[test]
    fn unverified_solves_wrong_claims_and_other_datasets_refute_nothing() {
        let mut c = ClaimCheck::default();
        c.add(0, &row("p1", Status::Unsolved, Some(Claim::NoSolution)));
        let mut unverified = row("p1", Status::Solved, None);
        unverified.verified = false;
        c.add(1, &unverified);
        let mut elsewhere = row("p1", Status::Solved, None);
        elsewhere.dataset = "another".into();
        c.add(1, &elsewhere);
        // Already judged wrong against the dataset's solution: not listed twice.
        c.add(2, &row("p3", Status::Wrong, Some(Claim::NoSolution)));
        c.add(1, &row("p3", Status::Solved, None));
        assert!(c.finish(|i| i.to_string()).is_empty());
    }

    #[test]
    fn one_entry_per_puzzle_and_configuration() {
        let mut c = ClaimCheck::default();
        for seed in 0..3 {
            let mut r = row("p1", Status::Unsolved, Some(Claim::NoSolution));
            r.seed = seed;
            c.add(0, &r);
        }
        c.add(0, &row("p1", Status::Solved, None));
        let found = c.finish(|i| i.to_string());
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].claimed_seed, found[0].solved_by.as_str()),
            (0, "0")
        );
    }
}
