//! Merge shard files (`bench-run --shard K/N`) back into one run.
//!
//! Refuses what would make the merged file lie: two rows for one job index or one job key,
//! files from different plans, and rows in a file whose meta says they belong to another
//! shard. Jobs missing from the plan are reported, not refused: the caller decides (the CLI
//! exits non-zero unless `--allow-missing`).

use crate::results::{Columns, Record};
use crate::results::{RunMeta, RunStatus, Shard};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Why inputs cannot be merged. Every variant names the files involved.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Jobs of the plan are in no input (and the caller did not allow it).
    #[error("{missing} of {total} jobs missing: {listed} (pass --allow-missing to write the merged file anyway)")]
    Incomplete {
        /// Jobs missing.
        missing: usize,
        /// Jobs in the plan.
        total: u64,
        /// The first of them, described.
        listed: String,
    },
    /// No input says how many jobs the plan has.
    #[error("cannot check for missing jobs: no input has a .meta.json with jobs_total (pass --allow-missing to merge anyway)")]
    UnknownPlanSize,
    /// Nothing to merge.
    #[error("no input files")]
    NoInputs,
    /// Two rows claim the same job index.
    #[error("duplicate job {job} (puzzle {puzzle_id}): in {first} and in {second}")]
    DuplicateJob {
        /// Job index.
        job: u64,
        /// Puzzle of the second row.
        puzzle_id: String,
        /// File of the first row.
        first: PathBuf,
        /// File of the second row.
        second: PathBuf,
    },
    /// Two rows with different job indices share a job key.
    #[error(
        "duplicate job key (puzzle {puzzle_id}, strategy {strategy}, seed {seed}, colony {colony}): \
         job {first_job} in {first} and job {second_job} in {second}"
    )]
    DuplicateKey {
        /// Puzzle.
        puzzle_id: String,
        /// Strategy.
        strategy: String,
        /// Seed.
        seed: u64,
        /// Colony.
        colony: u32,
        /// Job index of the first row.
        first_job: u64,
        /// File of the first row.
        first: PathBuf,
        /// Job index of the second row.
        second_job: u64,
        /// File of the second row.
        second: PathBuf,
    },
    /// The metas disagree on the plan.
    #[error("different plans: {first} has plan_hash {first_hash}, {second} has {second_hash}")]
    DifferentPlans {
        /// One file.
        first: PathBuf,
        /// Its plan hash (or job total).
        first_hash: String,
        /// The other file.
        second: PathBuf,
        /// Its plan hash (or job total).
        second_hash: String,
    },
    /// A row outside its file's shard.
    #[error("{path}: job {job} (puzzle {puzzle_id}) does not belong to shard {index}/{count}")]
    WrongShard {
        /// File.
        path: PathBuf,
        /// Job index.
        job: u64,
        /// Puzzle.
        puzzle_id: String,
        /// Shard number from the meta.
        index: u32,
        /// Shard count from the meta.
        count: u32,
    },
    /// A job index beyond the plan.
    #[error("{path}: job {job} (puzzle {puzzle_id}) is beyond the plan's {jobs_total} jobs")]
    OutOfPlan {
        /// File.
        path: PathBuf,
        /// Job index.
        job: u64,
        /// Puzzle.
        puzzle_id: String,
        /// Jobs in the plan.
        jobs_total: u64,
    },
}

/// The merged run.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Every row, sorted by job index.
    pub rows: Vec<Record>,
    /// Optional columns to write: those with a value in any row. Callers that know the input
    /// headers may widen this (the CLI does).
    pub columns: Columns,
    /// Jobs in the plan, when any meta said so.
    pub jobs_total: Option<u64>,
    /// Job indices of the plan with no row (empty when `jobs_total` is unknown).
    pub missing: Vec<u64>,
    /// Meta for the merged file: the first input's, with shard 1/1, counts and times
    /// combined, status `complete` only when nothing is missing, and `merged_from` listing
    /// the inputs.
    pub meta: RunMeta,
}

/// `--shard K/N` or `--shard=K/N` removed: the merged command line describes the whole run.
fn strip_shard(cmd: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip = false;
    for a in cmd {
        if skip {
            skip = false;
        } else if a == "--shard" {
            skip = true;
        } else if !a.starts_with("--shard=") {
            out.push(a.clone());
        }
    }
    out
}

/// Plans must agree: by hash where both files have one, and by job total.
fn check_plans_agree(metas: &[(&PathBuf, &RunMeta)]) -> Result<(), MergeError> {
    for (i, (pa, a)) in metas.iter().enumerate() {
        for (pb, b) in &metas[i + 1..] {
            if let (Some(ha), Some(hb)) = (&a.plan_hash, &b.plan_hash) {
                if ha != hb {
                    return Err(MergeError::DifferentPlans {
                        first: (*pa).clone(),
                        first_hash: ha.clone(),
                        second: (*pb).clone(),
                        second_hash: hb.clone(),
                    });
                }
            }
            if let (Some(ta), Some(tb)) = (a.jobs_total, b.jobs_total) {
                if ta != tb {
                    return Err(MergeError::DifferentPlans {
                        first: (*pa).clone(),
                        first_hash: format!("jobs_total {ta}"),
                        second: (*pb).clone(),
                        second_hash: format!("jobs_total {tb}"),
                    });
                }
            }
        }
    }
    Ok(())
}

/// A row belongs to the shard its file claims and to the plan's job range.
fn check_in_plan(
    path: &Path,
    r: &Record,
    shard: Option<Shard>,
    jobs_total: Option<u64>,
) -> Result<(), MergeError> {
    if let Some(s) = shard {
        if !s.contains(r.job) {
            return Err(MergeError::WrongShard {
                path: path.to_path_buf(),
                job: r.job,
                puzzle_id: r.puzzle_id.clone(),
                index: s.index,
                count: s.count,
            });
        }
    }
    if let Some(t) = jobs_total {
        if r.job >= t {
            return Err(MergeError::OutOfPlan {
                path: path.to_path_buf(),
                job: r.job,
                puzzle_id: r.puzzle_id.clone(),
                jobs_total: t,
            });
        }
    }
    Ok(())
}

/// Merge shard files. See the module doc for what is refused.
pub fn merge(inputs: Vec<(PathBuf, Vec<Record>, Option<RunMeta>)>) -> Result<Merged, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    let metas: Vec<(&PathBuf, &RunMeta)> = inputs
        .iter()
        .filter_map(|(p, _, m)| m.as_ref().map(|m| (p, m)))
        .collect();
    check_plans_agree(&metas)?;
    let jobs_total = metas.iter().find_map(|(_, m)| m.jobs_total);

    let mut by_job: BTreeMap<u64, (Record, usize)> = BTreeMap::new();
    let mut by_key: HashMap<_, (u64, usize)> = HashMap::new();
    for (fi, (path, rows, meta)) in inputs.iter().enumerate() {
        let shard = meta.as_ref().and_then(|m| m.shard).filter(|s| s.count > 1);
        for r in rows {
            check_in_plan(path, r, shard, jobs_total)?;
            if let Some((_, first)) = by_job.get(&r.job) {
                return Err(MergeError::DuplicateJob {
                    job: r.job,
                    puzzle_id: r.puzzle_id.clone(),
                    first: inputs[*first].0.clone(),
                    second: path.clone(),
                });
            }
            if let Some((first_job, first)) = by_key.get(&r.key()) {
                return Err(MergeError::DuplicateKey {
                    puzzle_id: r.puzzle_id.clone(),
                    strategy: r.strategy.clone(),
                    seed: r.seed,
                    colony: r.colony,
                    first_job: *first_job,
                    first: inputs[*first].0.clone(),
                    second_job: r.job,
                    second: path.clone(),
                });
            }
            by_key.insert(r.key(), (r.job, fi));
            by_job.insert(r.job, (r.clone(), fi));
        }
    }
    let missing: Vec<u64> = match jobs_total {
        Some(t) => (0..t).filter(|j| !by_job.contains_key(j)).collect(),
        None => Vec::new(),
    };
    let rows: Vec<Record> = by_job.into_values().map(|(r, _)| r).collect();
    let columns = Columns {
        measured: rows
            .iter()
            .any(|r| r.cpu_s.is_some() || r.max_rss_kib.is_some() || r.stats.is_some()),
        solutions: rows.iter().any(|r| r.counters.solutions.is_some()),
        solution: rows.iter().any(|r| r.solution.is_some()),
        repeats: rows.iter().any(|r| r.repeats.is_some()),
    };

    let mut meta = metas.first().map(|(_, m)| (*m).clone()).unwrap_or_default();
    meta.command_line = strip_shard(&meta.command_line);
    meta.shard = Some(Shard { index: 1, count: 1 });
    meta.jobs_total = jobs_total;
    meta.jobs_in_shard = Some(rows.len() as u64);
    // RFC 3339 times in one zone order as strings; the earliest start and latest end span
    // the whole run.
    meta.started = metas.iter().filter_map(|(_, m)| m.started.clone()).min();
    let all_finished = !metas.is_empty() && metas.iter().all(|(_, m)| m.finished.is_some());
    let complete = jobs_total.is_some() && missing.is_empty();
    meta.finished = if all_finished && complete {
        metas.iter().filter_map(|(_, m)| m.finished.clone()).max()
    } else {
        None
    };
    meta.status = Some(if complete {
        RunStatus::Complete
    } else {
        RunStatus::Interrupted
    });
    let sources: Vec<Value> = inputs
        .iter()
        .map(|(p, rows, m)| {
            json!({
                "file": p.display().to_string(),
                "rows": rows.len(),
                "shard": m.as_ref().and_then(|m| m.shard),
                "status": m.as_ref().and_then(|m| m.status),
                "machine": m.as_ref().map(|m| m.machine.clone()),
            })
        })
        .collect();
    meta.extra
        .insert("merged_from".to_string(), Value::Array(sources));
    meta.extra
        .insert("missing_jobs".to_string(), json!(missing.len()));
    Ok(Merged {
        rows,
        columns,
        jobs_total,
        missing,
        meta,
    })
}

/// `0-4, 7, 9-10`: missing job indices as ranges, at most `cap` ranges.
pub fn describe_jobs(jobs: &[u64], cap: usize) -> String {
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for &j in jobs {
        match ranges.last_mut() {
            Some((_, hi)) if *hi + 1 == j => *hi = j,
            _ => ranges.push((j, j)),
        }
    }
    let mut parts: Vec<String> = ranges
        .iter()
        .take(cap)
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    if ranges.len() > cap {
        parts.push(format!("… and {} more ranges", ranges.len() - cap));
    }
    parts.join(", ")
}

/// The completeness policy of `merge`: refuse a merge with jobs missing (or of unknown plan
/// size) unless `allow_missing`; when allowed, the warning to print.
pub fn check_complete(merged: &Merged, allow_missing: bool) -> Result<Option<String>, MergeError> {
    match merged.jobs_total {
        None if !allow_missing => Err(MergeError::UnknownPlanSize),
        Some(total) if !merged.missing.is_empty() => {
            let listed = describe_jobs(&merged.missing, 20);
            if !allow_missing {
                return Err(MergeError::Incomplete {
                    missing: merged.missing.len(),
                    total,
                    listed,
                });
            }
            Ok(Some(format!(
                "{} of {total} jobs missing: {listed}; merged meta says status interrupted",
                merged.missing.len()
            )))
        }
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Status;

    fn rows(n: u64) -> Vec<Record> {
        (0..n)
            .map(|j| {
                let mut r = Record::sample(
                    "d",
                    if j % 2 == 0 { "mrv" } else { "row" },
                    &format!("p:{}", j / 2 + 1),
                    Status::Solved,
                    0.0,
                );
                r.job = j;
                r.counters.nodes = Some(j);
                r
            })
            .collect()
    }

    fn shard_meta(k: u32, n: u32, total: u64) -> RunMeta {
        RunMeta {
            shard: Some(Shard { index: k, count: n }),
            jobs_total: Some(total),
            plan_hash: Some("h1".into()),
            command_line: vec!["bench-run".into(), "--shard".into(), format!("{k}/{n}")],
            started: Some(format!("2024-01-01T00:00:0{k}Z")),
            finished: Some(format!("2024-01-01T01:00:0{k}Z")),
            status: Some(RunStatus::Complete),
            ..RunMeta::default()
        }
    }

    fn shards(all: &[Record], n: u32) -> Vec<(PathBuf, Vec<Record>, Option<RunMeta>)> {
        (1..=n)
            .map(|k| {
                let part: Vec<Record> = all
                    .iter()
                    .filter(|r| r.job % u64::from(n) == u64::from(k - 1))
                    .cloned()
                    .collect();
                // Shard files are sorted by job but arrive in any order; reverse to prove it.
                let part = part.into_iter().rev().collect();
                (
                    PathBuf::from(format!("s{k}.csv")),
                    part,
                    Some(shard_meta(k, n, all.len() as u64)),
                )
            })
            .collect()
    }

    #[test]
    fn three_shards_merge_to_the_unsharded_rows() {
        let all = rows(30);
        let mut inputs = shards(&all, 3);
        inputs.reverse();
        let m = merge(inputs).expect("merges");
        assert_eq!(m.rows, all);
        assert!(m.missing.is_empty());
        assert_eq!(m.meta.status, Some(RunStatus::Complete));
        assert_eq!(m.meta.shard, Some(Shard { index: 1, count: 1 }));
        assert_eq!(m.meta.command_line, vec!["bench-run".to_string()]);
        assert_eq!(m.meta.started.as_deref(), Some("2024-01-01T00:00:01Z"));
        assert_eq!(m.meta.finished.as_deref(), Some("2024-01-01T01:00:03Z"));
        assert_eq!(m.meta.jobs_in_shard, Some(30));
    }

    #[test]
    fn missing_shard_is_reported() {
        let all = rows(30);
        let mut inputs = shards(&all, 3);
        inputs.remove(1);
        let m = merge(inputs).expect("merges");
        assert_eq!(
            m.missing,
            (0..30).filter(|j| j % 3 == 1).collect::<Vec<_>>()
        );
        assert_eq!(m.meta.status, Some(RunStatus::Interrupted));
        assert_eq!(m.meta.finished, None);
        assert_eq!(describe_jobs(&[0, 1, 2, 5, 7, 8], 10), "0-2, 5, 7-8");
        assert_eq!(describe_jobs(&[1, 3, 5], 2), "1, 3, … and 1 more ranges");
    }

    #[test]
    fn duplicates_and_other_plans_are_refused() {
        let all = rows(30);
        let mut inputs = shards(&all, 3);
        inputs.push(inputs[0].clone());
        inputs[3].0 = PathBuf::from("copy.csv");
        let e = merge(inputs).expect_err("duplicate").to_string();
        assert_eq!(
            e,
            "duplicate job 27 (puzzle p:14): in s1.csv and in copy.csv"
        );

        // The same key under another (unused, in-shard) job index.
        let mut inputs = shards(&all, 3);
        for (_, _, m) in &mut inputs {
            if let Some(m) = m {
                m.jobs_total = Some(36);
            }
        }
        let mut extra = inputs[0].1[0].clone();
        extra.job = 33;
        inputs[0].1.push(extra);
        let e = merge(inputs).expect_err("dup key").to_string();
        assert_eq!(
            e,
            "duplicate job key (puzzle p:14, strategy row, seed 0, colony 0): \
             job 27 in s1.csv and job 33 in s1.csv"
        );

        let mut inputs = shards(&all, 3);
        if let Some(m) = inputs[1].2.as_mut() {
            m.plan_hash = Some("h2".into());
        }
        let e = merge(inputs).expect_err("plans").to_string();
        assert_eq!(e, "different plans: s1.csv has plan_hash h1, s2.csv has h2");
    }

    #[test]
    fn rows_outside_their_shard_are_refused() {
        let all = rows(30);
        let mut inputs = shards(&all, 3);
        inputs[0].1[0].job = 1;
        let e = merge(inputs).expect_err("wrong shard").to_string();
        assert!(
            e.contains("s1.csv: job 1 (puzzle p:14) does not belong to shard 1/3"),
            "{e}"
        );
    }
}
