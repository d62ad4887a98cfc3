//! Merge shard files (`bench-run --shard K/N`) back into one run.
//!
//! Shard files are sorted by job, so the merge is a k-way merge that holds one row per input
//! and writes each row as it goes (`merge_stream`); memory does not grow with the number of
//! rows. An input out of job order is refused with its `file:line`.
//!
//! Refuses what would make the merged file lie: two rows for one job index or one job key,
//! files from different plans, and rows in a file whose meta says they belong to another
//! shard. Plans are compared by the metas' plan hash; when an input has no meta, the rows' own
//! columns must fit one plan (`PlanShape`). Jobs missing from the plan are reported, not
//! refused: the caller decides (the CLI exits non-zero unless `--allow-missing`).

use crate::results::read::ResultsReader;
use crate::results::sort::{ExternalSort, KWay, Source, Spill};
use crate::results::{Columns, ReadError, Record};
use crate::results::{RunMeta, RunStatus, Shard, WriteError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Why inputs cannot be merged. Every variant names the files involved.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// Jobs of the plan are in no input (and the caller did not allow it).
    #[error("{missing} of {total} jobs missing: {listed} (pass --allow-missing to write the merged file anyway)")]
    Incomplete {
        /// Jobs missing.
        missing: u64,
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
    /// An input or a temporary file could not be read or written.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The merged rows could not be written.
    #[error("{0}")]
    Write(String),
    /// An output was refused or could not be written.
    #[error(transparent)]
    Output(#[from] WriteError),
    /// A shard file whose rows are not in ascending job order.
    #[error("{path}:{line}: job {job} follows job {previous}; shard files are sorted by job (as bench-run writes them), so this file was edited or is not a bench-run result")]
    OutOfOrder {
        /// File.
        path: PathBuf,
        /// 1-based line of the row out of order.
        line: u64,
        /// Its job.
        job: u64,
        /// The job of the row before it.
        previous: u64,
    },
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
    /// Without metas to compare, the rows themselves show two plans.
    #[error(
        "different plans (checked from the rows: not every input has a .meta.json): {why}: \
         {first} has {first_row}, {second} has {second_row}"
    )]
    MixedRows {
        /// What a single plan would not produce.
        why: String,
        /// One file.
        first: PathBuf,
        /// A row of it, described.
        first_row: String,
        /// The other file (may be the same).
        second: PathBuf,
        /// A row of it, described.
        second_row: String,
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

/// One input of a merge: a shard file read as it is merged, or rows already in memory.
pub(crate) struct MergeInput {
    /// The file (named in every message).
    pub path: PathBuf,
    /// Its meta sidecar, when it has one.
    pub meta: Option<RunMeta>,
    /// `None`: read `path` as the merge goes (it must be sorted by job). `Some`: these rows,
    /// in any order.
    pub rows: Option<Vec<Record>>,
}

/// Missing jobs, kept as a count and the first ranges: a merge with a whole shard absent
/// misses every N-th job, and listing millions of them helps nobody.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Gaps {
    /// Jobs missing.
    pub count: u64,
    /// The first [`Gaps::KEPT`] ranges, inclusive, ascending.
    pub ranges: Vec<(u64, u64)>,
    /// Ranges in all.
    pub range_count: u64,
}

impl Gaps {
    /// Ranges kept for the message.
    pub const KEPT: usize = 20;

    /// Record the jobs `lo..=hi` as missing (called in ascending order, with a present job
    /// between any two calls).
    fn add(&mut self, lo: u64, hi: u64) {
        self.count += hi - lo + 1;
        self.range_count += 1;
        if self.ranges.len() < Self::KEPT {
            self.ranges.push((lo, hi));
        }
    }

    /// `0-4, 7, 9-10`, at most `cap` ranges, then "… and N more ranges".
    pub fn describe(&self, cap: usize) -> String {
        let mut parts: Vec<String> = self
            .ranges
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
        let shown = parts.len() as u64;
        if self.range_count > shown {
            parts.push(format!("… and {} more ranges", self.range_count - shown));
        }
        parts.join(", ")
    }
}

/// What a streamed merge found (the rows went to the sink).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MergeOutcome {
    /// Optional columns of the merged file: every column any input's header has (for inputs
    /// in memory, any column with a value).
    pub columns: Columns,
    /// Rows merged.
    pub rows: u64,
    /// Jobs in the plan, when any meta said so.
    pub jobs_total: Option<u64>,
    /// Jobs of the plan with no row (empty when `jobs_total` is unknown).
    pub missing: Gaps,
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
    let facts = |m: &RunMeta| {
        [
            m.plan_hash.clone(),
            m.jobs_total.map(|t| format!("jobs_total {t}")),
        ]
    };
    for (i, (pa, a)) in metas.iter().enumerate() {
        for (pb, b) in &metas[i + 1..] {
            for (fa, fb) in facts(a).into_iter().zip(facts(b)) {
                if let (Some(first_hash), Some(second_hash)) = (fa, fb) {
                    if first_hash != second_hash {
                        return Err(MergeError::DifferentPlans {
                            first: (*pa).clone(),
                            first_hash,
                            second: (*pb).clone(),
                            second_hash,
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

/// A row belongs to the shard its file claims and to the plan's job range. A run whose meta
/// records its plan's layout took whole pair groups per shard; older runs took every N-th job.
fn check_in_plan(
    path: &Path,
    r: &Record,
    shard: Option<(Shard, Option<&crate::results::PlanLayout>)>,
    jobs_total: Option<u64>,
) -> Result<(), MergeError> {
    if let Some((s, layout)) = shard {
        let inside = match layout {
            Some(l) => l.shard_contains(s, r.job),
            None => s.contains(r.job),
        };
        if !inside {
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

/// A row in a message: `job 4 (mrv, rules basic, seed 7, puzzle p:3)`.
fn describe_row(r: &Record) -> String {
    describe(&r.strategy, &r.rules, r.params.as_str(), &RowRef::of(r, 0))
}

fn describe(strategy: &str, rules: &str, params: &str, at: &RowRef) -> String {
    let mut s = format!("job {} ({strategy}", at.job);
    if !rules.is_empty() {
        s.push_str(", rules ");
        s.push_str(rules);
    }
    if !params.is_empty() {
        s.push_str(", params ");
        s.push_str(params);
    }
    s.push_str(&format!(", seed {}", at.seed));
    if at.colony > 0 {
        s.push_str(&format!(", colony {}", at.colony));
    }
    s.push_str(&format!(", puzzle {})", at.puzzle));
    s
}

/// Where a row of a block came from, enough to name it in a message.
#[derive(Clone)]
struct RowRef {
    src: usize,
    job: u64,
    seed: u64,
    colony: u32,
    puzzle: String,
}

impl RowRef {
    fn of(r: &Record, src: usize) -> RowRef {
        RowRef {
            src,
            job: r.job,
            seed: r.seed,
            colony: r.colony,
            puzzle: r.puzzle_id.clone(),
        }
    }
}

/// One strategy configuration's block of jobs, as far as it has been read.
struct Block {
    kind: crate::kind::PuzzleKind,
    strategy: String,
    rules: String,
    params: crate::results::Params,
    first: RowRef,
    last: RowRef,
    seeds: (u64, u64),
    /// Whether any row has a colony above 0 (an ABC block run with several colonies).
    colonies: bool,
    /// For blocks with several colonies: the number of colonies per run, once two rows of one
    /// puzzle with different seeds have shown it (jobs per seed step), and the highest colony.
    per_run: Option<u64>,
    max_colony: u32,
    /// For single-colony rows: the first `job - seed`, and the gcd of every later one's
    /// distance from it. In one plan with S seed values, `job - seed` is the same modulo S
    /// for every row of a block.
    d0: Option<i128>,
    gcd: u128,
}

impl Block {
    fn describe(&self, at: &RowRef) -> (usize, String) {
        (
            at.src,
            describe(&self.strategy, &self.rules, self.params.as_str(), at),
        )
    }

    /// The numbering of a block with several colonies, between the block's last row and the
    /// next one `r` (the next in job order): a puzzle's run of one seed numbers its colonies
    /// with consecutive jobs, and its next seed starts `colonies` jobs later, the same number
    /// of jobs per seed step throughout the block.
    fn check_colonies(&mut self, r: &Record) -> Result<(), &'static str> {
        if self.per_run.is_some_and(|n| u64::from(r.colony) >= n) {
            return Err(
                "this row's colony number is beyond the colonies per run that the \
                        block's numbering shows: rows of runs with different --colonies are mixed",
            );
        }
        let last = &self.last;
        if last.puzzle != r.puzzle_id {
            return Ok(());
        }
        // `job - colony` is the job of the run's colony 0: equal within one (puzzle, seed).
        let base = |job: u64, colony: u32| i128::from(job) - i128::from(colony);
        let step = base(r.job, r.colony) - base(last.job, last.colony);
        if r.seed == last.seed {
            return if step == 0 {
                Ok(())
            } else {
                Err(
                    "one plan numbers the colonies of a puzzle's run with one seed as \
                     consecutive jobs, but these rows of one run are numbered apart",
                )
            };
        }
        let seeds = i128::from(r.seed) - i128::from(last.seed);
        let per_run = if seeds > 0 && step > 0 && step % seeds == 0 {
            u64::try_from(step / seeds).ok()
        } else {
            None
        };
        match (per_run, self.per_run) {
            (Some(n), None) if n > u64::from(self.max_colony) => {
                self.per_run = Some(n);
                Ok(())
            }
            (Some(n), Some(m)) if n == m && n > u64::from(self.max_colony) => Ok(()),
            _ => Err(
                "in one plan, each seed value of a puzzle takes the same number of jobs (one \
                 per colony), but these rows number seeds and colonies differently: rows of \
                 runs with different --seed, --seeds or --colonies are mixed",
            ),
        }
    }

    fn is(&self, r: &Record) -> bool {
        self.kind == r.kind
            && self.strategy == r.strategy
            && self.rules == r.rules
            && self.params == r.params
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The plan check from rows alone, for merges where a meta is missing. What one plan produces,
/// in job order (see `harness::plan`): one dataset; each strategy configuration (kind,
/// strategy, rules, params) as one block of consecutive jobs; within a block, jobs numbered
/// puzzle by puzzle, then seed, then colony, with every block over the same seed values.
/// So for single-colony rows, two rows of a block belong to the same puzzle exactly when
/// `job - seed` is equal, and `job - seed` is one residue modulo the number of seed values.
/// Memory is one entry per configuration. In blocks run with several colonies, a puzzle's
/// seed runs are `colonies` consecutive jobs each, so `job - colony` is equal within a run and
/// grows by `colonies` per seed step; that is checked between neighbouring rows.
#[derive(Default)]
pub(crate) struct PlanShape {
    dataset: Option<(usize, String, String)>,
    blocks: Vec<Block>,
}

impl PlanShape {
    fn mixed(
        why: impl Into<String>,
        paths: &[PathBuf],
        a: (usize, String),
        b: (usize, String),
    ) -> MergeError {
        MergeError::MixedRows {
            why: why.into(),
            first: paths[a.0].clone(),
            first_row: a.1,
            second: paths[b.0].clone(),
            second_row: b.1,
        }
    }

    /// Check the next row in job order, from input `src`.
    pub fn add(&mut self, r: &Record, src: usize, paths: &[PathBuf]) -> Result<(), MergeError> {
        match &self.dataset {
            None => self.dataset = Some((src, describe_row(r), r.dataset.clone())),
            Some((s, d, name)) if *name != r.dataset => {
                return Err(Self::mixed(
                    format!(
                        "one plan runs one dataset, these are {name} and {}",
                        r.dataset
                    ),
                    paths,
                    (*s, d.clone()),
                    (src, describe_row(r)),
                ))
            }
            Some(_) => {}
        }
        let here = RowRef::of(r, src);
        let current = self.blocks.len().checked_sub(1);
        match self.blocks.iter().position(|b| b.is(r)) {
            Some(i) if Some(i) == current => {}
            Some(i) => {
                let (b, cur) = (&self.blocks[i], &self.blocks[self.blocks.len() - 1]);
                return Err(Self::mixed(
                    "one plan runs each strategy configuration as one block of consecutive \
                     jobs, but here two configurations alternate",
                    paths,
                    b.describe(&b.last),
                    cur.describe(&cur.last),
                ));
            }
            None => {
                self.blocks.push(Block {
                    kind: r.kind,
                    strategy: r.strategy.clone(),
                    rules: r.rules.clone(),
                    params: r.params.clone(),
                    first: here.clone(),
                    last: here.clone(),
                    seeds: (r.seed, r.seed),
                    colonies: false,
                    per_run: None,
                    max_colony: 0,
                    d0: None,
                    gcd: 0,
                });
            }
        }
        let last = self.blocks.len() - 1;
        let b = &mut self.blocks[last];
        b.seeds = (b.seeds.0.min(r.seed), b.seeds.1.max(r.seed));
        b.colonies |= r.colony > 0;
        b.max_colony = b.max_colony.max(r.colony);
        if b.colonies {
            if let Err(why) = b.check_colonies(r) {
                return Err(Self::mixed(
                    why,
                    paths,
                    b.describe(&b.last),
                    b.describe(&here),
                ));
            }
        } else {
            let d = i128::from(r.job) - i128::from(r.seed);
            match b.d0 {
                None => b.d0 = Some(d),
                Some(d0) => {
                    b.gcd = gcd(b.gcd, (d - d0).unsigned_abs());
                    let same_window = i128::from(b.last.job) - i128::from(b.last.seed) == d;
                    if same_window != (b.last.puzzle == r.puzzle_id) {
                        let why = if same_window {
                            "in one plan, seed values follow the job numbers within a puzzle's \
                             runs, but these rows number two puzzles as one"
                        } else {
                            "one plan gives each puzzle one run of consecutive jobs over its \
                             seed values, but these rows of one puzzle are numbered as two"
                        };
                        return Err(Self::mixed(
                            why,
                            paths,
                            b.describe(&b.last),
                            b.describe(&here),
                        ));
                    }
                }
            }
        }
        b.last = here;
        Ok(())
    }

    /// The checks that need every row: one seed range for all blocks, and `job - seed`
    /// congruent modulo the number of seed values within each block.
    pub fn finish(&self, paths: &[PathBuf]) -> Result<(), MergeError> {
        let Some(first) = self.blocks.first() else {
            return Ok(());
        };
        for b in &self.blocks[1..] {
            if b.seeds != first.seeds {
                return Err(Self::mixed(
                    format!(
                        "one plan runs every strategy configuration over the same seed values, \
                         but one spans seeds {}..={} and another {}..={}",
                        first.seeds.0, first.seeds.1, b.seeds.0, b.seeds.1
                    ),
                    paths,
                    first.describe(&first.first),
                    b.describe(&b.first),
                ));
            }
        }
        let span = u128::from(first.seeds.1 - first.seeds.0) + 1;
        for b in &self.blocks {
            if !b.colonies && b.gcd % span != 0 {
                return Err(Self::mixed(
                    format!(
                        "seed values {}..={} are not numbered as one plan numbers them: rows \
                         of runs with different --seed or --seeds are mixed",
                        first.seeds.0, first.seeds.1
                    ),
                    paths,
                    b.describe(&b.first),
                    b.describe(&b.last),
                ));
            }
        }
        Ok(())
    }
}

/// Entries the duplicate-key check holds before spilling a sorted run (24 bytes each in
/// memory: 24 MB).
const KEY_BUFFER: usize = 1 << 20;

/// One row's job fingerprint and where the row is: what the duplicate-key check sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct KeyEntry {
    fingerprint: u64,
    job: u64,
    input: u32,
}

impl Spill for KeyEntry {
    fn header() -> Vec<&'static str> {
        vec!["fingerprint", "job", "input"]
    }
    fn cells(&self) -> Vec<String> {
        vec![
            self.fingerprint.to_string(),
            self.job.to_string(),
            self.input.to_string(),
        ]
    }
    fn read(
        path: &Path,
        headers: &csv::StringRecord,
        row: &csv::StringRecord,
        line: u64,
    ) -> Result<Self, ReadError> {
        let cell = |i: usize| -> Result<u64, ReadError> {
            let v = row.get(i).unwrap_or("");
            v.parse().map_err(|_| ReadError::BadValue {
                path: path.to_path_buf(),
                line,
                column: headers.get(i).unwrap_or("").to_string(),
                value: v.to_string(),
                expected: "an unsigned integer".into(),
            })
        };
        Ok(KeyEntry {
            fingerprint: cell(0)?,
            job: cell(1)?,
            input: u32::try_from(cell(2)?).unwrap_or(u32::MAX),
        })
    }
}

/// Duplicate job keys in bounded memory: the job fingerprint, job and input of every row
/// through the one external sort; equal fingerprints are candidates that the caller confirms
/// against the rows (a 64-bit hash may collide).
struct KeyCheck(ExternalSort<KeyEntry>);

impl Default for KeyCheck {
    fn default() -> Self {
        KeyCheck(ExternalSort::new("keys", KEY_BUFFER))
    }
}

impl KeyCheck {
    fn push(&mut self, r: &Record, src: usize) -> Result<(), MergeError> {
        Ok(self.0.push(KeyEntry {
            fingerprint: r.job_key().fingerprint(),
            job: r.job,
            input: src as u32,
        })?)
    }

    /// Pairs of (job, input) with equal fingerprints, in fingerprint order, at most `cap`.
    fn candidates(self, cap: usize) -> Result<Vec<[(u64, u32); 2]>, MergeError> {
        let mut out = Vec::new();
        let mut prev: Option<KeyEntry> = None;
        for e in self.0.finish()? {
            let e = e?;
            if let Some(p) = prev {
                if p.fingerprint == e.fingerprint && out.len() < cap {
                    out.push([(p.job, p.input), (e.job, e.input)]);
                }
            }
            prev = Some(e);
        }
        Ok(out)
    }
}

/// Rows of one input with their 1-based lines.
type RowIter = Box<dyn Iterator<Item = Result<(Record, u64), ReadError>>>;

/// One input being merged: where its rows come from (opened at the first pull), and the last
/// job it gave. It yields its rows checked to be in job order.
struct Cursor<'a> {
    input: &'a MergeInput,
    rows: Option<RowIter>,
    last: Option<u64>,
    count: u64,
}

/// A row ordered by its job number, for the merge of shards.
struct JobRow(Record);

impl PartialEq for JobRow {
    fn eq(&self, other: &Self) -> bool {
        self.0.job == other.0.job
    }
}
impl Eq for JobRow {}
impl PartialOrd for JobRow {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for JobRow {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.job.cmp(&other.0.job)
    }
}

impl Source for Cursor<'_> {
    type Item = JobRow;
    type Error = MergeError;

    /// The next row, checked to follow the previous one in job order.
    fn pull(&mut self) -> Result<Option<JobRow>, MergeError> {
        let rows = match &mut self.rows {
            Some(r) => r,
            None => self.rows.insert(open_rows(self.input)?),
        };
        let Some(row) = rows.next() else {
            return Ok(None);
        };
        let (r, line) = row?;
        let path = &self.input.path;
        if let Some(prev) = self.last {
            if r.job == prev {
                return Err(MergeError::DuplicateJob {
                    job: r.job,
                    puzzle_id: r.puzzle_id.clone(),
                    first: path.clone(),
                    second: path.clone(),
                });
            }
            if r.job < prev {
                return Err(MergeError::OutOfOrder {
                    path: path.clone(),
                    line,
                    job: r.job,
                    previous: prev,
                });
            }
        }
        self.last = Some(r.job);
        self.count += 1;
        Ok(Some(JobRow(r)))
    }
}

/// The rows of an input, in job order, with their 1-based lines (rows in memory are numbered
/// as the file `results_csv` would write: header on line 1).
fn open_rows(input: &MergeInput) -> Result<RowIter, MergeError> {
    Ok(match &input.rows {
        None => Box::new(ResultsReader::open(&input.path)?),
        Some(rows) => {
            let mut rows = rows.clone();
            rows.sort_by_key(|r| r.job);
            Box::new(
                rows.into_iter()
                    .enumerate()
                    .map(|(i, r)| Ok((r, i as u64 + 2))),
            )
        }
    })
}

/// The row of job `job` in input `src`, read again (for a duplicate-key message).
fn fetch(input: &MergeInput, job: u64) -> Result<Option<Record>, MergeError> {
    for row in open_rows(input)? {
        let (r, _) = row?;
        if r.job == job {
            return Ok(Some(r));
        }
    }
    Ok(None)
}

/// Optional columns of the merged file.
fn merged_columns(inputs: &[MergeInput]) -> Result<Columns, MergeError> {
    let mut c = Columns::default();
    for i in inputs {
        let have = match &i.rows {
            None => ResultsReader::open(&i.path)?.columns(),
            Some(rows) => Columns {
                measured: rows
                    .iter()
                    .any(|r| r.cpu_s.is_some() || r.max_rss_kib.is_some() || r.stats.is_some()),
                solutions: rows.iter().any(|r| r.counters.solutions.is_some()),
                solution: rows.iter().any(|r| r.solution.is_some()),
                repeats: rows.iter().any(|r| r.repeats.is_some()),
                cpu: rows.iter().any(|r| r.cpu_s.is_some()),
                startup: rows.iter().any(|r| r.startup_s.is_some()),
                outcome: rows
                    .iter()
                    .any(|r| r.claim.is_some() || r.ended_by.is_some()),
            },
        };
        c = c.union(have);
    }
    Ok(c.canonical())
}

/// Merge shard files, handing each row to `sink` in job order as soon as it is checked. See
/// the module doc for what is refused. On an error the sink has seen only part of the rows:
/// write to a temporary file and keep it only when this returns `Ok`.
pub(crate) fn merge_stream(
    inputs: &[MergeInput],
    mut sink: impl FnMut(&Record, Columns) -> std::io::Result<()>,
) -> Result<MergeOutcome, MergeError> {
    if inputs.is_empty() {
        return Err(MergeError::NoInputs);
    }
    let paths: Vec<PathBuf> = inputs.iter().map(|i| i.path.clone()).collect();
    let metas: Vec<(&PathBuf, &RunMeta)> = inputs
        .iter()
        .filter_map(|i| i.meta.as_ref().map(|m| (&i.path, m)))
        .collect();
    check_plans_agree(&metas)?;
    let jobs_total = metas.iter().find_map(|(_, m)| m.jobs_total);
    // Equal plan hashes on every input vouch for the plan; otherwise the rows must.
    let mut shape = inputs
        .iter()
        .any(|i| i.meta.as_ref().and_then(|m| m.plan_hash.as_ref()).is_none())
        .then(PlanShape::default);
    let columns = merged_columns(inputs)?;

    let cursors = inputs
        .iter()
        .map(|input| Cursor {
            input,
            rows: None,
            last: None,
            count: 0,
        })
        .collect();
    let mut merge = KWay::new(cursors)?;
    let mut keys = KeyCheck::default();
    let mut shape_error = None;
    let mut missing = Gaps::default();
    let mut previous: Option<(u64, usize)> = None;
    let mut rows = 0u64;
    while let Some((JobRow(r), src)) = merge.next_item()? {
        let job = r.job;
        if let Some((pj, ps)) = previous {
            if pj == job {
                // Two plans' rows under one job number: say so rather than "duplicate".
                if let Some(e) = shape_error.take() {
                    return Err(e);
                }
                if let Some(Err(e)) = shape.as_mut().map(|s| s.add(&r, src, &paths)) {
                    return Err(e);
                }
                return Err(MergeError::DuplicateJob {
                    job,
                    puzzle_id: r.puzzle_id.clone(),
                    first: paths[ps].clone(),
                    second: paths[src].clone(),
                });
            }
        }
        let meta = inputs[src].meta.as_ref();
        let shard = meta.and_then(|m| m.shard).filter(|s| s.count > 1);
        let layout = meta.and_then(|m| m.execution.as_ref()).map(|e| &e.layout);
        check_in_plan(&paths[src], &r, shard.map(|s| (s, layout)), jobs_total)?;
        let from = previous.map_or(0, |(pj, _)| pj + 1);
        if job > from && jobs_total.is_some() {
            missing.add(from, job - 1);
        }
        if let Some(s) = &mut shape {
            // Reported after the whole stream: a file broken further down (a bad cell, rows
            // out of order) is the more useful message.
            if let Err(e) = s.add(&r, src, &paths) {
                shape_error = Some(e);
                shape = None;
            }
        }
        keys.push(&r, src)?;
        sink(&r, columns).map_err(|e| MergeError::Write(e.to_string()))?;
        rows += 1;
        previous = Some((job, src));
    }
    if let Some(t) = jobs_total {
        let from = previous.map_or(0, |(pj, _)| pj + 1);
        if t > from {
            missing.add(from, t - 1);
        }
    }
    if let Some(e) = shape_error {
        return Err(e);
    }
    if let Some(s) = &shape {
        s.finish(&paths)?;
    }
    confirm_duplicates(keys, inputs, &paths)?;
    let counts: Vec<u64> = merge.sources().iter().map(|c| c.count).collect();
    let meta = merged_meta(inputs, &metas, &counts, jobs_total, rows, missing.count);
    Ok(MergeOutcome {
        columns,
        rows,
        jobs_total,
        missing,
        meta,
    })
}

/// Turn equal key hashes into a duplicate-key error when the rows' keys really are equal.
fn confirm_duplicates(
    keys: KeyCheck,
    inputs: &[MergeInput],
    paths: &[PathBuf],
) -> Result<(), MergeError> {
    for [(ja, sa), (jb, sb)] in keys.candidates(64)? {
        let (a, b) = (
            fetch(&inputs[sa as usize], ja)?,
            fetch(&inputs[sb as usize], jb)?,
        );
        if let (Some(a), Some(b)) = (a, b) {
            if a.key() == b.key() {
                return Err(MergeError::DuplicateKey {
                    puzzle_id: b.puzzle_id.clone(),
                    strategy: b.strategy.clone(),
                    seed: b.seed,
                    colony: b.colony,
                    first_job: ja,
                    first: paths[sa as usize].clone(),
                    second_job: jb,
                    second: paths[sb as usize].clone(),
                });
            }
        }
    }
    Ok(())
}

/// The merged file's meta (see [`MergeOutcome::meta`]).
fn merged_meta(
    inputs: &[MergeInput],
    metas: &[(&PathBuf, &RunMeta)],
    counts: &[u64],
    jobs_total: Option<u64>,
    rows: u64,
    missing: u64,
) -> RunMeta {
    let mut meta = metas.first().map(|(_, m)| (*m).clone()).unwrap_or_default();
    meta.command_line = strip_shard(&meta.command_line);
    meta.shard = Some(Shard { index: 1, count: 1 });
    meta.jobs_total = jobs_total;
    meta.jobs_in_shard = Some(rows);
    // RFC 3339 times in one zone order as strings; the earliest start and latest end span
    // the whole run.
    meta.started = metas.iter().filter_map(|(_, m)| m.started.clone()).min();
    let all_finished = !metas.is_empty() && metas.iter().all(|(_, m)| m.finished.is_some());
    let complete = jobs_total.is_some() && missing == 0;
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
        .zip(counts)
        .map(|(i, n)| {
            let m = i.meta.as_ref();
            json!({
                "file": i.path.display().to_string(),
                "rows": n,
                "shard": m.and_then(|m| m.shard),
                "status": m.and_then(|m| m.status),
                "machine": m.map(|m| m.machine.clone()),
            })
        })
        .collect();
    meta.extra
        .insert("merged_from".to_string(), Value::Array(sources));
    meta.extra
        .insert("missing_jobs".to_string(), json!(missing));
    meta
}

/// The completeness policy of `merge`: refuse a merge with jobs missing (or of unknown plan
/// size) unless `allow_missing`; when allowed, the warning to print.
pub(crate) fn check_gaps(
    jobs_total: Option<u64>,
    missing: &Gaps,
    allow_missing: bool,
) -> Result<Option<String>, MergeError> {
    match jobs_total {
        None if !allow_missing => Err(MergeError::UnknownPlanSize),
        Some(total) if missing.count > 0 => {
            let listed = missing.describe(Gaps::KEPT);
            if !allow_missing {
                return Err(MergeError::Incomplete {
                    missing: missing.count,
                    total,
                    listed,
                });
            }
            Ok(Some(format!(
                "{} of {total} jobs missing: {listed}; merged meta says status interrupted",
                missing.count
            )))
        }
        _ => Ok(None),
    }
}

/// What `bench-report merge` has to say once the merged file and its meta are written.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeReport {
    /// Jobs missing, when `--allow-missing` let the merge through anyway.
    pub warning: Option<String>,
    /// `FILE: N rows (status)`.
    pub summary: String,
}

/// `bench-report merge`: the shard files of `set` (each with its meta; opened with no
/// `--where` and no duplicates allowed: a merge is a run, not a selection of one) merged into
/// `output` and its meta, written through one [`OutputGuard`](crate::results::write::OutputGuard) (nothing over an input; nothing over an existing
/// file unless `force`). Rows go straight from the inputs to a temporary file beside the
/// output, published only when every check (and `check_gaps`) has passed: memory does not
/// grow with the rows.
pub fn merge_files(
    set: &crate::report::input::RunSet,
    output: &Path,
    allow_missing: bool,
    force: bool,
) -> Result<MergeReport, MergeError> {
    let out_meta = crate::results::meta::meta_path(output);
    let guard = crate::report::output_guard(&[set], &[], force);
    guard.check_all([output, &out_meta])?;
    let shards: Vec<MergeInput> = set
        .files()
        .iter()
        .map(|f| MergeInput {
            path: f.path.clone(),
            meta: f.meta.clone(),
            rows: None,
        })
        .collect();
    let werr = |e: &dyn std::fmt::Display| format!("{}: cannot write: {e}", output.display());
    let mut out = Some(guard.create(output)?);
    let mut csv_out: Option<csv::Writer<_>> = None;
    let merged = merge_stream(&shards, |r, cols| {
        let w = match (&mut csv_out, out.take()) {
            (Some(w), _) => w,
            (None, Some(f)) => {
                let mut w = csv::Writer::from_writer(f);
                w.write_record(cols.header())
                    .map_err(|e| std::io::Error::other(werr(&e)))?;
                csv_out.insert(w)
            }
            (None, None) => return Err(std::io::Error::other("output already closed")),
        };
        w.write_record(r.fields(cols))
            .map_err(|e| std::io::Error::other(werr(&e)))
    })?;
    let warning = check_gaps(merged.jobs_total, &merged.missing, allow_missing)?;
    // Every input has a row (an empty one is refused), so rows always arrive.
    let w = csv_out
        .ok_or_else(|| MergeError::Write(format!("{}: no rows to merge", output.display())))?;
    w.into_inner()
        .map_err(|e| MergeError::Write(werr(e.error())))?
        .commit()?;
    let mut meta = merged.meta.clone();
    meta.results_file = crate::results::meta::results_file_name(output);
    let json = serde_json::to_string_pretty(&meta).map_err(|e| MergeError::Write(werr(&e)))? + "\n";
    guard.write(&out_meta, json.as_bytes())?;
    // Without the metas the plan's size is unknown, so the merge cannot call itself complete;
    // its meta says `interrupted` (never `complete` on a guess), and the message says why.
    let status = match merged.jobs_total {
        None => "completeness unknown: not every input has a .meta.json; meta says interrupted",
        Some(_) => merged.meta.status.map_or("unknown", |s| s.as_str()),
    };
    Ok(MergeReport {
        warning,
        summary: format!("{}: {} rows ({status})\n", output.display(), merged.rows),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Status;

    /// Merge rows held in memory (each input's rows in any order), as [`merge_stream`] does
    /// files: the rows in job order, and what the merge found.
    fn merge(
        inputs: Vec<(PathBuf, Vec<Record>, Option<RunMeta>)>,
    ) -> Result<(Vec<Record>, MergeOutcome), MergeError> {
        let inputs: Vec<MergeInput> = inputs
            .into_iter()
            .map(|(path, rows, meta)| MergeInput {
                path,
                meta,
                rows: Some(rows),
            })
            .collect();
        let mut rows = Vec::new();
        let out = merge_stream(&inputs, |r, _| {
            rows.push(r.clone());
            Ok(())
        })?;
        Ok((rows, out))
    }

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
        let (rows, m) = merge(inputs).expect("merges");
        assert_eq!(rows, all);
        assert_eq!(m.missing, Gaps::default());
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
        let (_, m) = merge(inputs).expect("merges");
        assert_eq!(m.missing.count, 10);
        assert_eq!(m.missing.describe(3), "1, 4, 7, … and 7 more ranges");
        assert_eq!(m.missing.ranges.len(), 10);
        assert_eq!(m.meta.status, Some(RunStatus::Interrupted));
        assert_eq!(m.meta.finished, None);
        let mut g = Gaps::default();
        [(0, 2), (5, 5), (7, 8)]
            .iter()
            .for_each(|&(lo, hi)| g.add(lo, hi));
        assert_eq!((g.count, g.describe(10)), (6, "0-2, 5, 7-8".to_string()));
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
            // The first duplicate in job order.
            "duplicate job 0 (puzzle p:1): in s1.csv and in copy.csv"
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
