//! The one reading of a report's inputs: every report (`summary`, `compare`, `ab`, `plot`,
//! `html`, `merge`) opens its files through a [`RunSet`], so one set of files gets one answer.
//!
//! A [`RunSet`] is built once per set of paths ([`RunSet::open`]):
//!
//! * directories become their `*.csv` files sorted by name; ABC trace files (`bench-run
//!   --trace`), lock files, journals of runs in progress and metas without a results file are
//!   skipped, each with a note ([`RunSet::notes`]);
//! * each file's `.meta.json` is read once, and whether the file holds only part of its run
//!   (a `.partial` journal, a meta whose status is not `complete`);
//! * the dataset fingerprints are checked once: two files naming one dataset with different
//!   `dataset_hash`es hold different puzzles under one name, and are refused;
//! * the time limit for PAR-k is agreed by one rule ([`TimeLimit`]);
//! * each strategy's effort counter is agreed once ([`Efforts`]), so every report measures a
//!   strategy's effort in the same unit.
//!
//! Rows are then streamed ([`RunSet::for_each`], in file order, or [`RunSet::sorted`], in job
//! key order), through the `--where` filter, with the duplicate check: the same job in two
//! files of one input (say a run copied twice into one directory) is refused unless
//! `--allow-duplicates` was given, in which case each copy is counted.

use crate::report::filter::RowFilter;
use crate::report::Vocabulary;
use crate::results::counters::metric_name;
use crate::results::meta::{RunMeta, RunStatus};
use crate::results::read::{self as io, ReadError};
use crate::results::sort::{KeySorted, SORT_BUFFER_ROWS};
use crate::results::trace::TraceRun;
use crate::results::{Columns, Record};
use std::collections::{HashMap, HashSet};
use std::io::BufRead as _;
use std::path::{Path, PathBuf};

/// How a report reads its inputs.
#[derive(Clone, Debug, Default)]
pub struct InputOptions {
    /// `--where`: only rows meeting it are streamed (never given to `merge`).
    pub filter: Option<RowFilter>,
    /// `--allow-duplicates`: a job met in two files is counted each time instead of refused.
    pub allow_duplicates: bool,
    /// `--time-limit SECS`: overrides the metas' limit (see [`TimeLimit`]).
    pub time_limit: Option<f64>,
    /// A `--where` that keeps no row is an error (nothing to compare or draw: `compare`, `ab`,
    /// `plot`, `html`); off, it is a count of 0 (`summary`).
    pub require_rows: bool,
    /// The strategies and rule sets the caller knows ([`Vocabulary`]): the effort fallback of
    /// a file whose meta records none, and `--where` values that are valid though no row has
    /// them.
    pub vocabulary: Vocabulary,
}

/// What is known of a run's budget (from the metas): the limits a plot draws.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Per-job time limit in seconds.
    pub timeout_s: Option<f64>,
    /// Per-job node limit.
    pub node_limit: Option<u64>,
}

/// One results file of a [`RunSet`].
#[derive(Clone, Debug, PartialEq)]
pub struct RunFile {
    /// The CSV (or `.partial` journal).
    pub path: PathBuf,
    /// Its `.meta.json`, when there is one.
    pub meta: Option<RunMeta>,
    /// Why it holds only part of its run, and the jobs its run planned; `None` when complete
    /// or unknown.
    pub incomplete: Option<Partial>,
}

/// Why a file holds only part of its run, and the jobs its run planned (when its meta says).
pub type Partial = (String, Option<u64>);

/// The per-job time limit for PAR-k, agreed once for a set of files by one rule:
///
/// 1. `--time-limit SECS` when given;
/// 2. else the metas' `timeout_s`, when every file has a meta and all of them name the same
///    limit;
/// 3. else none, and PAR-k is left out with [`TimeLimit::note`] saying why (a file without a
///    meta, limits that differ, runs without `--timeout`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeLimit {
    /// Seconds, when agreed.
    pub secs: Option<f64>,
    /// Why there is none, when there is none.
    pub note: Option<String>,
}

/// The counter each strategy's effort is measured in: the one rule every report uses.
///
/// 1. The unit the strategy declared ([`crate::solver::Solver::effort`]), which `bench-run`
///    records in the meta's `efforts`; two files declaring different units for one strategy
///    are refused.
/// 2. Else, for a file without that record (an older run, a CSV without its meta), the unit
///    the caller's [`Vocabulary`] gives the strategy by name (`bench-report` passes the
///    built-in strategies').
/// 3. Else `cycles` when the row has them, else `nodes` (an external solver that declared
///    nothing).
///
/// The value is [`Record::metric`] of that unit: a counter, or a numeric `stats` key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Efforts {
    declared: HashMap<String, &'static str>,
    /// The fallback by name, from the caller's [`Vocabulary`].
    known: HashMap<&'static str, &'static str>,
}

impl Efforts {
    /// The effort unit of `r`'s strategy (see the rule above); `None` when it has none.
    pub fn unit(&self, r: &Record) -> Option<&'static str> {
        if let Some(u) = self.declared.get(&r.strategy) {
            return Some(u);
        }
        self.known
            .get(r.strategy.as_str())
            .copied()
            .or(if r.counters.cycles.is_some() {
                Some("cycles")
            } else if r.counters.nodes.is_some() {
                Some("nodes")
            } else {
                None
            })
    }

    /// `r`'s effort: its unit and value; `None` when it has no unit or no value in it (an
    /// `error` row).
    pub fn of(&self, r: &Record) -> Option<(&'static str, f64)> {
        let u = self.unit(r)?;
        Some((u, r.metric(u)?))
    }

    /// Units declared as a meta's `efforts` records them (`bench-run`'s own summary, tests).
    pub fn declared<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Efforts {
        Efforts {
            declared: pairs
                .into_iter()
                .map(|(s, u)| (s.to_string(), metric_name(u)))
                .collect(),
            known: HashMap::new(),
        }
    }

    /// These units, falling back on `vocabulary`'s for a strategy no meta declared.
    pub fn knowing(mut self, vocabulary: &Vocabulary) -> Efforts {
        self.known = vocabulary
            .strategies
            .iter()
            .map(|&(s, u)| (s, metric_name(u)))
            .collect();
        self
    }

    /// The units declared in `files`' metas, refusing a strategy declared two ways.
    fn agree(files: &[RunFile]) -> Result<Efforts, ReadError> {
        let mut first: HashMap<&str, (&str, &Path)> = HashMap::new();
        let mut declared = HashMap::new();
        for f in files {
            let Some(m) = &f.meta else { continue };
            for (strategy, unit) in &m.efforts {
                match first.get(strategy.as_str()) {
                    Some((u, p)) if u != unit => {
                        return Err(refused(
                            &f.path,
                            format!(
                                "strategy {strategy} declares its effort in {unit} here but in \
                                 {u} in {}: report them separately",
                                p.display()
                            ),
                        ))
                    }
                    Some(_) => {}
                    None => {
                        first.insert(strategy, (unit, &f.path));
                        declared.insert(strategy.clone(), metric_name(unit));
                    }
                }
            }
        }
        Ok(Efforts {
            declared,
            known: HashMap::new(),
        })
    }
}

/// The jobs a `--where` kept, by what a trace row names them with. A trace carries no status,
/// timings or counters, so a filter reaches it only through the rows it kept: a trace run is
/// shown when its job's row was kept, and the convergence a report draws is then of the same
/// runs as its tables.
#[derive(Debug, Default)]
pub struct KeptJobs(HashSet<(String, String, String, String, u64, u32)>);

impl KeptJobs {
    /// Note a kept row.
    pub fn add(&mut self, r: &Record) {
        self.0.insert((
            r.dataset.clone(),
            r.puzzle_id.clone(),
            r.strategy.clone(),
            r.params.as_str().to_string(),
            r.seed,
            r.colony,
        ));
    }

    /// Whether trace run `t` is of a kept job.
    pub fn keeps(&self, t: &TraceRun) -> bool {
        // Borrowed lookups would need a key type of their own; a trace is small beside its rows.
        self.0.contains(&(
            t.dataset.clone(),
            t.puzzle_id.clone(),
            t.strategy.clone(),
            t.params.clone(),
            t.seed,
            t.colony,
        ))
    }

    /// The runs of `trace` that `kept` keeps: all of them when there is no filter (`None`).
    pub fn retain(kept: Option<&KeptJobs>, mut trace: Vec<TraceRun>) -> Vec<TraceRun> {
        if let Some(k) = kept {
            trace.retain(|t| k.keeps(t));
        }
        trace
    }
}

/// The result files of one input of a report, with their metas and agreed facts.
#[derive(Clone, Debug)]
pub struct RunSet {
    files: Vec<RunFile>,
    notes: Vec<String>,
    time_limit: TimeLimit,
    efforts: Efforts,
    opts: InputOptions,
}

/// What a pass over the rows saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Streamed {
    /// Rows read, before the filter.
    pub seen: u64,
    /// Rows that passed the filter (and were handed on).
    pub kept: u64,
    /// Rows whose job was already met in another file (counted: `--allow-duplicates`).
    pub repeats: u64,
    /// Rows read per file, in [`RunSet::files`] order.
    pub rows_per_file: Vec<u64>,
}

impl RunSet {
    /// Open `paths` (files or directories): find the results files, read their metas, check
    /// dataset fingerprints and agree the time limit. No row is read yet.
    pub fn open(paths: &[PathBuf], opts: InputOptions) -> Result<RunSet, ReadError> {
        if let Some(t) = opts.time_limit {
            if !(t.is_finite() && t > 0.0) {
                return Err(refused(
                    paths.first().map_or(Path::new("."), |p| p.as_path()),
                    format!("--time-limit must be a positive number of seconds, got {t}"),
                ));
            }
        }
        let mut notes = Vec::new();
        let mut files = Vec::new();
        for path in expand(paths, &mut notes)? {
            // A missing file is the error to report, not the missing meta beside it.
            if let Err(source) = std::fs::metadata(&path) {
                return Err(ReadError::Io { path, source });
            }
            let (meta, incomplete) = meta_and_completeness(&path)?;
            files.push(RunFile {
                path,
                meta,
                incomplete,
            });
        }
        check_fingerprints(&files)?;
        let time_limit = agree_time_limit(&files, opts.time_limit);
        let efforts = Efforts::agree(&files)?.knowing(&opts.vocabulary);
        Ok(RunSet {
            files,
            notes,
            time_limit,
            efforts,
            opts,
        })
    }

    /// The results files, in reading order.
    pub fn files(&self) -> &[RunFile] {
        &self.files
    }

    /// Files skipped and facts left unchecked, one sentence each, for the report to show.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The agreed time limit.
    pub fn time_limit(&self) -> &TimeLimit {
        &self.time_limit
    }

    /// Each strategy's effort unit.
    pub fn efforts(&self) -> &Efforts {
        &self.efforts
    }

    /// The plot budget: the agreed time limit, and a node limit agreed by the same rule.
    pub fn budget(&self) -> Budget {
        let all_metas: Option<Vec<&RunMeta>> = self.files.iter().map(|f| f.meta.as_ref()).collect();
        let node_limit = all_metas.and_then(|m| {
            let first = m.first()?.node_limit;
            m.iter().all(|x| x.node_limit == first).then_some(first)?
        });
        Budget {
            timeout_s: self.time_limit.secs,
            node_limit,
        }
    }

    /// The metas of the files that have one.
    pub fn metas(&self) -> impl Iterator<Item = &RunMeta> {
        self.files.iter().filter_map(|f| f.meta.as_ref())
    }

    /// An empty [`KeptJobs`] to fill from a pass's rows when the set has a `--where` filter
    /// (and `None` when it has none: every trace run is then shown).
    pub fn kept_jobs(&self) -> Option<KeptJobs> {
        self.opts.filter.as_ref().map(|_| KeptJobs::default())
    }

    /// The `--where` filter text, when there is one.
    pub fn filter_text(&self) -> Option<&str> {
        self.opts.filter.as_ref().map(RowFilter::text)
    }

    /// The warning for a `--where` that kept none of the rows a pass saw.
    pub fn empty_filter(&self, st: &Streamed) -> Option<String> {
        let f = self.filter_text().filter(|_| st.kept == 0)?;
        Some(format!("--where {f} matched none of the {} rows", st.seen))
    }

    /// The error of a report that needs rows when a valid `--where` kept none of `seen`.
    fn nothing_kept(&self, kept: u64, seen: u64) -> Option<String> {
        let f = self
            .filter_text()
            .filter(|_| kept == 0 && self.opts.require_rows)?;
        Some(format!(
            "--where {f} matched none of the {seen} rows: nothing to compare or draw"
        ))
    }

    /// Whether repeated jobs are counted instead of refused.
    pub fn allows_duplicates(&self) -> bool {
        self.opts.allow_duplicates
    }

    /// Stream every row in file order through the filter and the duplicate check to `each`
    /// (with the index of its file). Errors: an unreadable row, a repeated job (unless
    /// allowed), or a `--where` naming a parameter no row has.
    pub fn for_each(
        &self,
        mut each: impl FnMut(&Record, usize) -> Result<(), ReadError>,
    ) -> Result<Streamed, ReadError> {
        let mut filter = self.opts.filter.clone();
        let mut dups = DuplicateJobs::default();
        let mut out = Streamed::default();
        for (i, f) in self.files.iter().enumerate() {
            let (_, rows) = io::for_each_result(&f.path, |r| {
                if let Some(first) = dups.check(&r, i) {
                    if !self.opts.allow_duplicates {
                        return Err(self.duplicate(&f.path, &r, Some(first)));
                    }
                }
                out.seen += 1;
                if filter.as_mut().is_none_or(|f| f.matches(&r)) {
                    out.kept += 1;
                    each(&r, i)?;
                }
                Ok(())
            })?;
            out.rows_per_file.push(rows);
        }
        out.repeats = dups.repeats;
        if let Some(f) = &filter {
            if let Some(msg) = f.check(&self.opts.vocabulary) {
                return Err(refused(&self.files[0].path, msg));
            }
        }
        if let Some(msg) = self.nothing_kept(out.kept, out.seen) {
            return Err(refused(&self.files[0].path, msg));
        }
        Ok(out)
    }

    /// The rows in job key order (in memory up to [`SORT_BUFFER_ROWS`], in sorted runs on
    /// disk beyond), through the filter and the duplicate check: a repeated job is refused
    /// unless allowed, then every copy is handed on.
    pub fn sorted(&self) -> Result<SortedRows<'_>, ReadError> {
        let paths: Vec<PathBuf> = self.files.iter().map(|f| f.path.clone()).collect();
        Ok(SortedRows {
            set: self,
            rows: KeySorted::open(&paths, SORT_BUFFER_ROWS)?,
            filter: self.opts.filter.clone(),
            ahead: None,
            seen: 0,
            kept: 0,
        })
    }

    /// The error for a repeated job found in key order, which does not know the files: one
    /// pass in file order names both (only on this error path).
    fn locate_duplicate(&self, r: &Record) -> ReadError {
        match self.for_each(|_, _| Ok(())) {
            Err(e) => e,
            Ok(_) => self.duplicate(&self.files[0].path, r, None),
        }
    }

    fn duplicate(&self, path: &Path, r: &Record, first: Option<usize>) -> ReadError {
        let also = first.map_or("met twice".to_string(), |i| {
            format!("also in {}", self.files[i].path.display())
        });
        refused(
            path,
            format!(
                "job {} is {also}: the inputs repeat jobs (two runs of one plan?); pass \
                 --allow-duplicates to count each copy",
                r.key()
            ),
        )
    }
}

/// Rows of a [`RunSet`] in job key order; see [`RunSet::sorted`].
pub struct SortedRows<'a> {
    set: &'a RunSet,
    rows: KeySorted,
    filter: Option<RowFilter>,
    /// The row after the one handed on last: a repeated job is the next row with an equal
    /// key, found without keeping a copy of any key.
    ahead: Option<Record>,
    seen: u64,
    kept: u64,
}

impl SortedRows<'_> {
    /// The optional columns of the files.
    pub fn columns(&self) -> Columns {
        self.rows.columns()
    }

    fn next_row(&mut self) -> Result<Option<Record>, ReadError> {
        loop {
            let r = match self.ahead.take() {
                Some(r) => r,
                None => match self.rows.next_row()? {
                    Some(r) => r,
                    None => break,
                },
            };
            self.ahead = self.rows.next_row()?;
            let repeated = self
                .ahead
                .as_ref()
                .is_some_and(|n| n.job_key() == r.job_key());
            if repeated && !self.set.opts.allow_duplicates {
                return Err(self.set.locate_duplicate(&r));
            }
            self.seen += 1;
            if self.filter.as_mut().is_none_or(|f| f.matches(&r)) {
                self.kept += 1;
                return Ok(Some(r));
            }
        }
        if let Some(f) = &self.filter {
            if let Some(msg) = f.check(&self.set.opts.vocabulary) {
                return Err(refused(&self.set.files[0].path, msg));
            }
        }
        if let Some(msg) = self.set.nothing_kept(self.kept, self.seen) {
            return Err(refused(&self.set.files[0].path, msg));
        }
        Ok(None)
    }
}

impl Iterator for SortedRows<'_> {
    type Item = Result<Record, ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_row().transpose()
    }
}

fn refused(path: &Path, detail: String) -> ReadError {
    ReadError::Refused {
        path: path.to_path_buf(),
        detail,
    }
}

/// Whether a CSV's header is an ABC trace's (`job,cycle,best_conflicts,...`).
fn is_trace(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = String::new();
    if std::io::BufReader::new(f)
        .take(1 << 16)
        .read_line(&mut first)
        .is_err()
    {
        return false;
    }
    let cols: Vec<&str> = first.trim_end().split(',').collect();
    cols.len() >= 3 && cols[..3] == crate::results::trace::TRACE_COLUMNS[..3]
}

/// What a name is that is not a results CSV, if it is one of ours.
fn skipped_kind(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy();
    if name.ends_with(".meta.json") {
        Some("a run's metadata (read beside its results CSV)")
    } else if name.ends_with(".lock") {
        Some("the lock file of a run in progress")
    } else if name.ends_with(".csv.partial") {
        Some("the journal of an unfinished run (name it to read it)")
    } else {
        None
    }
}

use std::io::Read as _;

/// Files and directories to results files, with a note per file skipped.
fn expand(paths: &[PathBuf], notes: &mut Vec<String>) -> Result<Vec<PathBuf>, ReadError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let entries: Vec<PathBuf> = io::dir_entries(p)?
                .into_iter()
                .filter(|f| f.is_file())
                .collect();
            let before = out.len();
            for f in entries {
                let csv = f.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"));
                if csv && is_trace(&f) {
                    notes.push(format!(
                        "skipped {}: an ABC trace (bench-run --trace; pass it with --trace)",
                        f.display()
                    ));
                } else if csv {
                    out.push(f);
                } else if let Some(kind) = skipped_kind(&f) {
                    // A meta, or a finished run's lock (it stays after the run), beside
                    // its results CSV is part of that run: no note.
                    let name = f.to_string_lossy();
                    let beside = name
                        .strip_suffix(".meta.json")
                        .or_else(|| name.strip_suffix(".meta.lock"))
                        .map(|s| Path::new(&format!("{s}.csv")).exists());
                    if beside != Some(true) {
                        notes.push(format!("skipped {}: {kind}", f.display()));
                    }
                }
            }
            if out.len() == before {
                return Err(ReadError::empty_dir(p));
            }
        } else if let Some(kind) =
            skipped_kind(p).filter(|_| !p.to_string_lossy().ends_with(".partial"))
        {
            notes.push(format!("skipped {}: {kind}", p.display()));
        } else if p.is_file() && is_trace(p) {
            notes.push(format!(
                "skipped {}: an ABC trace (bench-run --trace; pass it with --trace)",
                p.display()
            ));
        } else {
            out.push(p.clone());
        }
    }
    if out.is_empty() {
        let p = paths.first().map_or(Path::new("."), |p| p.as_path());
        return Err(refused(
            p,
            format!("no results CSV among the inputs ({})", notes.join("; ")),
        ));
    }
    Ok(out)
}

/// A file's meta, and why it holds only part of its run, if it does: a `.partial` journal
/// (the run was interrupted or is still running), or a meta whose status is not `complete`.
fn meta_and_completeness(p: &Path) -> Result<(Option<RunMeta>, Option<Partial>), ReadError> {
    let name = p.to_string_lossy();
    let (results, journal) = match name.strip_suffix(".partial") {
        Some(stem) => (PathBuf::from(stem), true),
        None => (p.to_path_buf(), false),
    };
    let meta = io::read_meta(&results)?;
    let jobs = meta.as_ref().and_then(|m| m.jobs_in_shard.or(m.jobs_total));
    let status = meta.as_ref().and_then(|m| m.status);
    let incomplete = if journal {
        let said = status.map_or(String::new(), |s| format!(", meta status {s}"));
        Some((format!("the journal of an unfinished run{said}"), jobs))
    } else {
        match status {
            Some(s) if s != RunStatus::Complete => Some((format!("meta status {s}"), jobs)),
            _ => None,
        }
    };
    Ok((meta, incomplete))
}

/// Two files naming one dataset with different fingerprints hold different puzzles under one
/// name: refused, both files and hashes named.
fn check_fingerprints(files: &[RunFile]) -> Result<(), ReadError> {
    let mut seen: HashMap<&str, (&Path, &str)> = HashMap::new();
    for f in files {
        let Some(m) = &f.meta else { continue };
        for (name, hash) in m.fingerprints() {
            let Some(name) = name else { continue };
            match seen.get(name) {
                Some((p, h)) if *h != hash => {
                    return Err(refused(
                        &f.path,
                        format!(
                            "dataset {name} has dataset_hash {hash} here but {h} in {}: \
                             different puzzles under one dataset name; report them separately",
                            p.display()
                        ),
                    ))
                }
                Some(_) => {}
                None => {
                    seen.insert(name, (&f.path, hash));
                }
            }
        }
    }
    Ok(())
}

/// The one time-limit rule; see [`TimeLimit`].
fn agree_time_limit(files: &[RunFile], flag: Option<f64>) -> TimeLimit {
    if let Some(t) = flag {
        return TimeLimit {
            secs: Some(t),
            note: None,
        };
    }
    let none = |why: String| TimeLimit {
        secs: None,
        note: Some(format!("{why} (pass --time-limit SECS)")),
    };
    if let Some(f) = files.iter().find(|f| f.meta.is_none()) {
        return none(format!(
            "no time limit known: no .meta.json beside {}",
            f.path.display()
        ));
    }
    // A run over several datasets whose limits differ has no one limit.
    let split = files.iter().find_map(|f| {
        let parts = &f.meta.as_ref()?.datasets;
        let t0 = parts.first()?.timeout_s;
        let other = parts.iter().find(|p| p.timeout_s != t0)?;
        let show = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{t} s"));
        Some(format!(
            "the datasets of {} ran under different time limits ({}: {}, {}: {})",
            f.path.display(),
            parts[0].name,
            show(t0),
            other.name,
            show(other.timeout_s)
        ))
    });
    if let Some(why) = split {
        return none(why);
    }
    let limit = |f: &RunFile| f.meta.as_ref().and_then(|m| m.timeout_s);
    let first = &files[0];
    if let Some(f) = files.iter().find(|f| limit(f) != limit(first)) {
        let show = |t: Option<f64>| t.map_or("none".to_string(), |t| format!("{t} s"));
        return none(format!(
            "the files' time limits differ ({}: {}, {}: {})",
            first.path.display(),
            show(limit(first)),
            f.path.display(),
            show(limit(f))
        ));
    }
    match limit(first) {
        Some(t) => TimeLimit {
            secs: Some(t),
            note: None,
        },
        None => none("the run had no --timeout".to_string()),
    }
}

/// Finds jobs that occur more than once across the files of one input (say a directory
/// holding two runs of one plan), by the job's fingerprint ([`crate::results::JobKeyRef::fingerprint`]):
/// 16 bytes a row.
#[derive(Clone, Debug, Default)]
pub(crate) struct DuplicateJobs {
    first_input: HashMap<u64, usize>,
    /// Rows whose job was already seen.
    pub(crate) repeats: u64,
}

impl DuplicateJobs {
    /// Note row `r` read from file number `input`; when its job was already seen, the file
    /// number where it was seen first.
    pub(crate) fn check(&mut self, r: &Record, input: usize) -> Option<usize> {
        match self.first_input.entry(r.job_key().fingerprint()) {
            std::collections::hash_map::Entry::Occupied(e) => {
                self.repeats += 1;
                Some(*e.get())
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(input);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Status;

    #[test]
    fn duplicate_jobs_are_found_with_their_first_input() {
        let rows: Vec<Record> = (0..4)
            .map(|i| Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, 0.1))
            .collect();
        let mut d = DuplicateJobs::default();
        for r in &rows {
            assert_eq!(d.check(r, 0), None);
        }
        assert_eq!(d.check(&rows[2], 1), Some(0));
        // Another seed or colony is another job.
        let mut other = rows[2].clone();
        other.seed += 1;
        assert_eq!(d.check(&other, 1), None);
        other.colony = 1;
        assert_eq!(d.check(&other, 1), None);
        assert_eq!(d.repeats, 1);
    }

    fn file(name: &str, timeout: Option<Option<f64>>) -> RunFile {
        RunFile {
            path: name.into(),
            meta: timeout.map(|t| RunMeta {
                timeout_s: t,
                ..RunMeta::default()
            }),
            incomplete: None,
        }
    }

    #[test]
    fn one_time_limit_rule() {
        let agreed = |files: &[RunFile], flag| agree_time_limit(files, flag);
        let both = [file("a", Some(Some(2.0))), file("b", Some(Some(2.0)))];
        assert_eq!(agreed(&both, None).secs, Some(2.0));
        assert_eq!(agreed(&both, Some(5.0)).secs, Some(5.0));
        let no_meta = [file("a", Some(Some(2.0))), file("b", None)];
        let t = agreed(&no_meta, None);
        assert_eq!(t.secs, None);
        assert!(
            t.note
                .as_deref()
                .is_some_and(|n| n.contains("no .meta.json beside b")),
            "{t:?}"
        );
        let differ = [file("a", Some(Some(2.0))), file("b", Some(Some(3.0)))];
        let t = agreed(&differ, None);
        assert!(
            t.note
                .as_deref()
                .is_some_and(|n| n.contains("a: 2 s, b: 3 s")),
            "{t:?}"
        );
        let none = [file("a", Some(None))];
        assert!(agreed(&none, None)
            .note
            .as_deref()
            .is_some_and(|n| n.contains("no --timeout")));
    }

    #[test]
    fn fingerprints_of_one_dataset_name_must_agree() {
        let with = |name: &str, hash: &str| RunFile {
            path: name.into(),
            meta: Some(RunMeta {
                dataset_name: Some("d".into()),
                dataset_hash: Some(hash.into()),
                ..RunMeta::default()
            }),
            incomplete: None,
        };
        assert!(check_fingerprints(&[with("a", "1"), with("b", "1")]).is_ok());
        let e = check_fingerprints(&[with("a", "1"), with("b", "2")]).expect_err("differ");
        let m = e.to_string();
        assert!(
            m.starts_with("b: dataset d has dataset_hash 2 here but 1 in a"),
            "{m}"
        );
    }

    #[test]
    fn one_effort_rule_declared_then_known_then_counters() {
        let with = |path: &str, efforts: &[(&str, &str)]| RunFile {
            path: path.into(),
            meta: Some(RunMeta {
                efforts: efforts
                    .iter()
                    .map(|(s, u)| (s.to_string(), u.to_string()))
                    .collect(),
                ..RunMeta::default()
            }),
            incomplete: None,
        };
        let e = Efforts::agree(&[
            with("a", &[("peer", "decodes")]),
            with("b", &[("peer", "decodes"), ("abc", "cycles")]),
        ])
        .expect("agree");
        let mut r = Record::sample("s", "peer", "p", Status::Solved, 0.1);
        r.counters.nodes = Some(4);
        r.stats = Some("decodes=12;x=y".into());
        // 1. Declared: the stats key, not the nodes the row also has.
        assert_eq!(e.of(&r), Some(("decodes", 12.0)));
        // 3. Neither declared nor known: cycles, else nodes.
        let plain = Efforts::default();
        assert_eq!(plain.of(&r), Some(("nodes", 4.0)));
        r.counters.cycles = Some(7);
        assert_eq!(plain.of(&r), Some(("cycles", 7.0)));
        // 2. A strategy the caller knows, without a record: its known unit, whatever else
        // the row has; a declared unit still wins over the known one.
        let known = Vocabulary {
            strategies: vec![
                ("abc-prop", "evaluations"),
                ("mrv", "nodes"),
                ("peer", "cycles"),
            ],
            rules: Vec::new(),
        };
        let told = plain.clone().knowing(&known);
        let mut p = Record::sample("s", "abc-prop", "p", Status::Solved, 0.1);
        p.counters.cycles = Some(3);
        p.counters.evaluations = Some(300);
        assert_eq!(told.of(&p), Some(("evaluations", 300.0)));
        assert_eq!(
            plain.of(&p),
            Some(("cycles", 3.0)),
            "unknown: the counters' rule"
        );
        assert_eq!(e.clone().knowing(&known).of(&r), Some(("decodes", 12.0)));
        let mut h = Record::sample("h", "mrv", "p", Status::Solved, 0.1);
        h.counters.nodes = Some(9);
        assert_eq!(told.of(&h), Some(("nodes", 9.0)));
        // A row without a value in its unit (an error row) has no effort.
        h.counters.nodes = None;
        assert_eq!(told.of(&h), None);
        // Two files declaring one strategy two ways are refused, naming both.
        let m = Efforts::agree(&[
            with("a", &[("peer", "decodes")]),
            with("b", &[("peer", "nodes")]),
        ])
        .expect_err("two units")
        .to_string();
        assert!(
            m.starts_with("b: strategy peer declares its effort in nodes here but in decodes in a"),
            "{m}"
        );
    }
}
