//! `bench-report history`: how the figures of one plan moved from run to run (a nightly's
//! nights, say), one point per run and group, never pooled.
//!
//! A run is one input: a results file with its meta, or a directory of them (one night of the
//! nightly suite). A directory that holds no results file but whose subdirectories do (the
//! nightly's `NIGHTLY_OUT`, one subdirectory per night) stands for those subdirectories, one
//! run each. Each run is opened as its own [`RunSet`] (the reading every report shares:
//! trace files skipped, fingerprints checked, `--where` applied).
//!
//! Runs are ordered by their metas' start time (`started`; the earliest of a run's files),
//! never by name. A run's plan is the set of its files' `plan_hash`es, and every run must have
//! the newest run's plan. Per group (dataset, kind, strategy, rules, params) a run gives one
//! [`Point`]: rows, solved rows, median wall time and median effort (from the run's own
//! summary). Each point after the first is marked with what the gate ([`gate`], the judgment
//! of `bench-report compare`, with the same noise band) found between the run before and this
//! one: [`Point::changes`].
//!
//! Refused (a clear error naming the file): a results file without a meta, or whose meta names
//! no plan or start time; a run named on the command line whose plan is not the newest run's.
//! Left out with a note: a run that did not finish (a `.csv.partial` journal in it, or a meta
//! whose status is not `complete`), and a run of another plan found in a parent directory (the
//! suite changed: the history shown is the current plan's).

use crate::report::compare::{GroupComparison, TimeVerdict};
use crate::report::doc::{Block, Doc, Figure, Inline, Table};
use crate::report::gate::{gate, Band, GateError};
use crate::report::input::{InputOptions, RunSet};
use crate::report::stats::Interval;
use crate::report::summary::{summarize_set, Detail, GroupSummary};
use crate::report::{fmt_secs, labels, sig3, GroupKey};
use crate::results::ReadError;
use plotters::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// `bench-report history --help`: what a run is and which runs are taken.
pub const CLI_HELP: &str = "\
A run is one input: a results CSV with its .meta.json, or a directory of them (one night of
scripts/nightly.sh). A directory with no CSV of its own whose subdirectories hold CSVs (the
nightly's NIGHTLY_OUT/<UTC stamp>/ layout) stands for those subdirectories, one run each.
Runs are ordered by their metas' start time. Every run must have the newest run's plan
(its files' plan_hash): a run named here of another plan is refused (exit 2); one found in a
parent directory, or one that did not finish, is left out with a note. Marks: status,
counters, missing, slower, faster, cpu-slower, cpu-faster, added, as `compare` finds them
between each run and the one before (same --noise-band / --calibrate).";

/// A history could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Two runs could not be compared.
    #[error(transparent)]
    Gate(#[from] GateError),
    /// The inputs are not runs of one plan, or not runs at all.
    #[error("{}: {detail}", path.display())]
    Refused {
        /// The file (or run directory) at fault.
        path: PathBuf,
        /// What is wrong, and what history expects.
        detail: String,
    },
    /// A chart could not be drawn.
    #[error("drawing the trend of {group}: {detail}")]
    Chart {
        /// The group's label.
        group: String,
        /// plotters' message.
        detail: String,
    },
}

fn refused(path: &Path, detail: String) -> HistoryError {
    HistoryError::Refused {
        path: path.to_path_buf(),
        detail,
    }
}

/// Output format of [`History::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryFormat {
    /// One aligned table per group.
    Text,
    /// One markdown table per group.
    Markdown,
    /// `{"groups":[{"dataset","strategy",...,"points":[...]}]}`.
    Json,
}

impl std::str::FromStr for HistoryFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(HistoryFormat::Text),
            "markdown" => Ok(HistoryFormat::Markdown),
            "json" => Ok(HistoryFormat::Json),
            _ => Err(format!(
                "unknown format {s:?} (expected text, markdown or json)"
            )),
        }
    }
}

/// One run of the plan, opened on its own.
#[derive(Clone, Debug)]
pub struct Run {
    /// The input: a results file or a run directory.
    pub path: PathBuf,
    /// Its files, read as every report reads them.
    pub set: RunSet,
    /// The earliest `started` of its metas.
    pub started: String,
    /// The metas' `git_revision`s (distinct ones joined by spaces), when any says.
    pub commit: Option<String>,
    plans: BTreeSet<String>,
    /// Named on the command line (not found in a parent directory).
    named: bool,
}

/// The runs of one plan in start-time order, with what was left out.
#[derive(Clone, Debug, Default)]
pub struct Runs {
    /// Oldest first.
    pub runs: Vec<Run>,
    /// Runs left out and files skipped, one sentence each.
    pub notes: Vec<String>,
}

fn is_csv(p: &Path) -> bool {
    p.is_file() && p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv"))
}

fn entries(dir: &Path) -> Result<Vec<PathBuf>, HistoryError> {
    Ok(crate::results::read::dir_entries(dir)?)
}

/// The journal (`.csv.partial`) that shows a run directory's run did not finish, if any (a
/// lock file stays after a finished run, so it says nothing).
fn unfinished(dir: &Path) -> Result<Option<PathBuf>, HistoryError> {
    if !dir.is_dir() {
        return Ok(None);
    }
    Ok(entries(dir)?
        .into_iter()
        .find(|f| f.to_string_lossy().ends_with(".csv.partial")))
}

/// Whether `s` is a UTC time as metas write it (`2026-12-04T03:30:40Z`, fractions of a second
/// allowed): runs are ordered by it, so anything else would sort anywhere.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let num =
        |r: std::ops::Range<usize>| s.get(r).and_then(|d| d.parse::<u32>().ok()).unwrap_or(99);
    let frac = s.get(19..s.len().saturating_sub(1)).unwrap_or("x");
    b.len() >= 20
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && digits(11..13)
        && digits(14..16)
        && digits(17..19)
        && (b[4], b[7], b[10], b[13], b[16]) == (b'-', b'-', b'T', b':', b':')
        && (1..=12).contains(&num(5..7))
        && (1..=31).contains(&num(8..10))
        && num(11..13) < 24
        && num(14..16) < 60
        && num(17..19) < 61
        && s.ends_with('Z')
        && (frac.is_empty()
            || frac
                .strip_prefix('.')
                .is_some_and(|f| !f.is_empty() && f.bytes().all(|d| d.is_ascii_digit())))
}

/// The results files of a directory when they are repeated runs of one command (`bench-run …
/// -o results/day1.csv`, `day2.csv`, …: two or more, every one with a meta, all of one plan),
/// each then its own run; `None` for a directory that is one run (a night of the nightly:
/// files of different plans). Files of one plan beside files of another are refused: which
/// files make a run cannot be told, so the user is told how to name them.
fn repeated_runs(dir: &Path) -> Result<Option<Vec<PathBuf>>, HistoryError> {
    let csvs: Vec<PathBuf> = entries(dir)?.into_iter().filter(|f| is_csv(f)).collect();
    let mut plans: Vec<(PathBuf, String)> = Vec::new();
    for f in &csvs {
        let meta = crate::results::read::read_meta(f).ok().flatten();
        if let Some(plan) = meta.and_then(|m| m.plan_hash) {
            plans.push((f.clone(), plan));
        }
    }
    if plans.len() < 2 {
        return Ok(None);
    }
    if plans.len() == csvs.len() && plans.iter().all(|(_, h)| *h == plans[0].1) {
        return Ok(Some(csvs));
    }
    for (i, (a, h)) in plans.iter().enumerate() {
        if let Some((b, _)) = plans[i + 1..].iter().find(|(_, g)| g == h) {
            return Err(refused(
                dir,
                format!(
                    "{} and {} are two runs of one plan (plan_hash {h}) beside files of \
                     other plans, and a directory is one run: name the runs one by one \
                     (`bench-report history {} {} …`), or give each run a directory of its \
                     own (as the nightly does, one per night)",
                    a.display(),
                    b.display(),
                    a.display(),
                    b.display()
                ),
            ));
        }
    }
    Ok(None)
}

/// Inputs to runs: a directory without a results file of its own whose subdirectories hold
/// some stands for those subdirectories; a directory of repeated runs of one plan stands for
/// its files ([`repeated_runs`]); anything else is one run. `true`: named.
fn candidates(
    paths: &[PathBuf],
    notes: &mut Vec<String>,
) -> Result<Vec<(PathBuf, bool)>, HistoryError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            if let Some(files) = repeated_runs(p)? {
                out.extend(files.into_iter().map(|f| (f, true)));
                continue;
            }
        }
        if !p.is_dir() || entries(p)?.iter().any(|f| is_csv(f)) {
            out.push((p.clone(), true));
            continue;
        }
        let mut subs = Vec::new();
        for s in entries(p)?.into_iter().filter(|s| s.is_dir()) {
            if entries(&s)?.iter().any(|f| is_csv(f)) || unfinished(&s)?.is_some() {
                subs.push((s, false));
            } else {
                notes.push(format!("left out {}: no results file in it", s.display()));
            }
        }
        if subs.is_empty() {
            // Let the input layer say what is wrong with it.
            out.push((p.clone(), true));
        }
        out.extend(subs);
    }
    Ok(out)
}

/// A run's plan, start time and commit, from its metas; refused without them.
fn identify(path: PathBuf, set: RunSet, named: bool) -> Result<Run, HistoryError> {
    let mut plans = BTreeSet::new();
    let mut started: Option<String> = None;
    let mut commits = BTreeSet::new();
    for f in set.files() {
        let need = "history needs each run's plan (plan_hash) and start time (started)";
        let Some(m) = &f.meta else {
            return Err(refused(&f.path, format!("no .meta.json beside it: {need}")));
        };
        let (Some(plan), Some(s)) = (&m.plan_hash, &m.started) else {
            return Err(refused(
                &f.path,
                format!("its meta names no plan_hash or no started time: {need}"),
            ));
        };
        if !is_time(s) {
            let shown: String = s.chars().take(40).collect();
            return Err(refused(
                &crate::results::meta::meta_path(&f.path),
                format!(
                    "its started {shown:?} is not a UTC time like 2026-12-04T03:30:40Z, and \
                     history orders runs by it"
                ),
            ));
        }
        plans.insert(plan.clone());
        if started.as_ref().is_none_or(|t| s < t) {
            started = Some(s.clone());
        }
        commits.extend(m.git_revision.clone());
    }
    Ok(Run {
        path,
        set,
        started: started.unwrap_or_default(),
        commit: (!commits.is_empty()).then(|| commits.into_iter().collect::<Vec<_>>().join(" ")),
        plans,
        named,
    })
}

/// Open the runs of `paths` (see the module doc for the rules), each as its own [`RunSet`]
/// with `opts`, ordered by start time; refuse runs of another plan than the newest run's.
pub fn open_runs(paths: &[PathBuf], opts: &InputOptions) -> Result<Runs, HistoryError> {
    let mut notes = Vec::new();
    let mut runs = Vec::new();
    // Each run once, by its real path: a link to a night beside the nights (or a run named
    // twice) is the same run. A link gives way to the path it names.
    let mut found = candidates(paths, &mut notes)?;
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let is_link = |p: &Path| {
        p.symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
    };
    found.sort_by_key(|(p, _)| is_link(p));
    let mut seen: Vec<(PathBuf, PathBuf)> = Vec::new();
    found.retain(|(p, _)| {
        let r = real(p);
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == r) {
            notes.push(format!(
                "left out {}: the same run as {} (counted once)",
                p.display(),
                first.display()
            ));
            return false;
        }
        seen.push((r, p.clone()));
        true
    });
    for (path, named) in found {
        if let Some(f) = unfinished(&path)? {
            notes.push(format!(
                "left out {}: a run that did not finish ({} is in it)",
                path.display(),
                f.display()
            ));
            continue;
        }
        let set = RunSet::open(std::slice::from_ref(&path), opts.clone())?;
        notes.extend(set.notes().iter().cloned());
        if let Some(f) = set.files().iter().find(|f| f.incomplete.is_some()) {
            let why = f.incomplete.as_ref().map_or("", |i| i.0.as_str());
            notes.push(format!(
                "left out {}: a run that did not finish ({}: {why})",
                path.display(),
                f.path.display()
            ));
            continue;
        }
        runs.push(identify(path, set, named)?);
    }
    runs.sort_by(|a, b| (&a.started, &a.path).cmp(&(&b.started, &b.path)));
    let Some(newest) = runs.last() else {
        let p = paths.first().map_or(Path::new("."), PathBuf::as_path);
        return Err(refused(
            p,
            format!("no finished run among the inputs ({})", notes.join("; ")),
        ));
    };
    let plan = newest.plans.clone();
    let reference: Vec<(PathBuf, Option<String>)> = newest
        .set
        .files()
        .iter()
        .map(|f| {
            (
                f.path.clone(),
                f.meta.as_ref().and_then(|m| m.plan_hash.clone()),
            )
        })
        .collect();
    let mut kept = Vec::new();
    for r in runs {
        if r.plans == plan {
            kept.push(r);
        } else if r.named {
            return Err(other_plan(&r, &reference));
        } else {
            notes.push(format!(
                "left out {}: a run of another plan than the newest run's ({}; plans {} here)",
                r.path.display(),
                named(reference.first()).0,
                r.plans.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    Ok(Runs { runs: kept, notes })
}

/// A file of the newest run and its plan hash, for a message (empty when there is none).
fn named(f: Option<&(PathBuf, Option<String>)>) -> (String, String) {
    f.map_or_else(Default::default, |f| {
        (f.0.display().to_string(), f.1.clone().unwrap_or_default())
    })
}

/// The refusal of a run whose plan is not the newest run's: the file of a plan the newest run
/// lacks, or else the run, with the newest run's file it has no counterpart of.
fn other_plan(r: &Run, reference: &[(PathBuf, Option<String>)]) -> HistoryError {
    let known: BTreeSet<&str> = reference.iter().filter_map(|f| f.1.as_deref()).collect();
    let tail = "history takes runs of one plan (compare other plans with `compare` or `ab`)";
    for f in r.set.files() {
        let h = f.meta.as_ref().and_then(|m| m.plan_hash.as_deref());
        if let Some(h) = h.filter(|h| !known.contains(h)) {
            let (rp, rh) = named(reference.first());
            return refused(
                &f.path,
                format!(
                    "plan_hash {h} is not a plan of the newest run ({rp} has plan_hash {rh}): \
                     {tail}"
                ),
            );
        }
    }
    let (mp, mh) = named(
        reference
            .iter()
            .find(|f| f.1.as_ref().is_some_and(|h| !r.plans.contains(h))),
    );
    refused(
        &r.path,
        format!("holds no file of plan_hash {mh}, which the newest run has ({mp}): {tail}"),
    )
}

/// One run of a group: its own figures, and the gate's marks against the run before it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Point {
    /// The run's start time (its metas' earliest `started`).
    pub started: String,
    /// The run's commit (`git_revision`), when its metas say.
    pub commit: Option<String>,
    /// Rows of the group in the run.
    pub runs: usize,
    /// Of those, solved.
    pub solved: usize,
    /// Median wall time over the group's rows, seconds.
    pub median_wall_s: f64,
    /// The effort counter (`nodes` or `cycles`), when the group reports one.
    pub effort: Option<&'static str>,
    /// Its median (as the summary computes it).
    pub median_effort: Option<f64>,
    /// The run's place in start-time order, from 0 (the same for every group).
    pub order: usize,
    /// The run's input (file or directory).
    pub path: String,
    /// The first of [`Point::changes`], `null` when nothing changed.
    pub change: Option<&'static str>,
    /// What the gate found against the run before, as `compare` reports it for this group:
    /// `status` (a job's status differs), `counters` (a deterministic counter differs),
    /// `missing` (jobs of the run before have no row), `slower` / `faster` (the median wall
    /// ratio's interval clears the noise band), `cpu-slower` / `cpu-faster` (likewise CPU
    /// time), `added` (jobs the run before did not have). Empty on the first point.
    pub changes: Vec<&'static str>,
    /// Whether `compare` (with `--times fail`) would call this group's change a regression.
    pub regression: bool,
    /// Median wall time over the jobs of both runs, this run / the run before, with its 95%
    /// interval; `null` on the first point or with too few jobs.
    pub wall_ratio: Option<Interval>,
    /// The gate's time verdict (`slowdown`, `speedup`, `unchanged`, `not_judged`, `noisy`).
    pub time_verdict: Option<TimeVerdict>,
}

/// The points of one group, in run order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrendGroup {
    /// Dataset.
    pub dataset: String,
    /// Strategy.
    pub strategy: String,
    /// Hitori rules, empty for Sudoku.
    pub rules: String,
    /// Parameters.
    pub params: String,
    /// Display name (strategy, rules, parameters where needed).
    pub label: String,
    /// One per run holding the group, oldest first.
    pub points: Vec<Point>,
}

/// One run as the history shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInfo {
    /// Start time.
    pub started: String,
    /// Commit.
    pub commit: Option<String>,
    /// The input.
    pub path: String,
}

/// A history: per group, one point per run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct History {
    /// Groups sorted by dataset, kind, strategy, rules, params.
    pub groups: Vec<TrendGroup>,
    /// The runs, oldest first.
    #[serde(skip)]
    pub runs: Vec<RunInfo>,
    /// The gate's band the marks were judged with.
    #[serde(skip)]
    pub band: Band,
    /// Runs left out, files skipped, what the gate could not check.
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// The marks of a point from the gate's comparison of its group, and whether `compare` would
/// call it a regression.
fn marks(c: &GroupComparison) -> (Vec<&'static str>, bool) {
    use crate::report::compare::Direction;
    let worse = |d: Direction| d != Direction::Better;
    let mut v = Vec::new();
    let mut regression = false;
    if !c.status_changes.is_empty() {
        v.push("status");
        regression |= c.status_changes.iter().any(|s| worse(s.direction));
    }
    if !c.counter_changes.is_empty() {
        v.push("counters");
        regression |= c.counter_changes.iter().any(|s| worse(s.direction));
    }
    if !c.missing_in_new.is_empty() {
        v.push("missing");
        regression = true;
    }
    let cpu = c.cpu.as_ref().map(|t| t.verdict);
    for (verdict, slower, faster) in [
        (Some(c.time.verdict), "slower", "faster"),
        (cpu, "cpu-slower", "cpu-faster"),
    ] {
        match verdict {
            Some(TimeVerdict::Slowdown) => {
                v.push(slower);
                regression = true;
            }
            Some(TimeVerdict::Speedup) => v.push(faster),
            _ => {}
        }
    }
    if !c.only_in_new.is_empty() {
        v.push("added");
    }
    (v, regression)
}

fn point(order: usize, run: &Run, g: &GroupSummary, c: Option<&GroupComparison>) -> Point {
    let (changes, regression) = c.map(marks).unwrap_or_default();
    Point {
        started: run.started.clone(),
        commit: run.commit.clone(),
        runs: g.runs,
        solved: g.solved,
        median_wall_s: g.wall_median_s,
        effort: g.effort.as_ref().map(|e| e.metric),
        median_effort: g.effort.as_ref().map(|e| e.median),
        order,
        path: run.path.display().to_string(),
        change: changes.first().copied(),
        changes,
        regression,
        wall_ratio: c.and_then(|c| c.time.ratio),
        time_verdict: c.map(|c| c.time.verdict),
    }
}

impl History {
    /// Per run, its summary (one [`RunSet`], never pooled), and for each run after the first
    /// the gate's comparison with the run before under `band`.
    pub fn build(runs: &Runs, band: &Band) -> Result<History, HistoryError> {
        let mut by_key: BTreeMap<GroupKey, Vec<Point>> = BTreeMap::new();
        let mut notes = runs.notes.clone();
        for (i, run) in runs.runs.iter().enumerate() {
            let (summary, _) = summarize_set(&run.set, Detail::default(), Vec::new())?;
            let cmp = match i.checked_sub(1).map(|p| &runs.runs[p]) {
                Some(prev) => {
                    let name = |r: &Run| r.path.display().to_string();
                    Some(gate(
                        &prev.set,
                        &run.set,
                        band,
                        (&name(prev), &name(run)),
                        false,
                    )?)
                }
                None => None,
            };
            let by_group: HashMap<&GroupKey, &GroupComparison> = cmp
                .iter()
                .flat_map(|c| c.groups.iter().map(|g| (&g.key, g)))
                .collect();
            if let Some(why) = cmp.as_ref().and_then(|c| c.wall_not_judged.as_ref()) {
                notes.push(format!(
                    "run #{} ({}) against the run before: wall times not judged (noisy host: \
                     {why}); CPU times, counters and statuses still are",
                    i + 1,
                    run.path.display()
                ));
            }
            for n in cmp.iter().flat_map(|c| &c.notes) {
                if !notes.contains(n) {
                    notes.push(n.clone());
                }
            }
            for g in &summary.groups {
                let p = point(i, run, g, by_group.get(&g.key).copied());
                by_key.entry(g.key.clone()).or_default().push(p);
            }
        }
        let keys: Vec<GroupKey> = by_key.keys().cloned().collect();
        let groups = by_key
            .into_iter()
            .zip(labels(&keys))
            .map(|((k, points), label)| TrendGroup {
                dataset: k.dataset,
                strategy: k.config.strategy,
                rules: k.config.rules,
                params: k.config.params.as_str().to_string(),
                label,
                points,
            })
            .collect();
        Ok(History {
            groups,
            runs: runs
                .runs
                .iter()
                .map(|r| RunInfo {
                    started: r.started.clone(),
                    commit: r.commit.clone(),
                    path: r.path.display().to_string(),
                })
                .collect(),
            band: band.clone(),
            notes,
        })
    }

    /// The history as text, markdown or JSON.
    pub fn render(&self, format: HistoryFormat) -> String {
        match format {
            HistoryFormat::Json => crate::report::to_json_pretty(self).unwrap_or_default() + "\n",
            HistoryFormat::Text => self.doc().text(),
            HistoryFormat::Markdown => self.doc().markdown(),
        }
    }

    /// The history as a document: the runs, then a table per group.
    pub fn doc(&self) -> Doc {
        let mut d = Doc::default();
        d.para(
            Inline::text(format!(
                "History of {} run{} of one plan, oldest first. Each run is marked with what \
                 the gate of ",
                self.runs.len(),
                if self.runs.len() == 1 { "" } else { "s" },
            ))
            .code("compare")
            .plain(format!(
                " found against the run before (noise band {}: {}).",
                self.band.value, self.band.source
            )),
        );
        d.heading(3, "Runs");
        let mut t = Table::new(&["run", "started", "commit", "input"], 4);
        for (i, r) in self.runs.iter().enumerate() {
            t.row(vec![
                format!("#{}", i + 1),
                r.started.clone(),
                r.commit.clone().unwrap_or_else(|| "-".into()),
                r.path.clone(),
            ]);
        }
        d.table(t);
        for g in &self.groups {
            d.heading(3, format!("{} / {}", g.dataset, g.label));
            d.table(group_table(g));
        }
        for n in &self.notes {
            d.note(format!("note: {n}"));
        }
        d
    }
}

fn group_table(g: &TrendGroup) -> Table {
    let unit = g.points.iter().find_map(|p| p.effort).unwrap_or("effort");
    let effort = format!("median {unit}");
    let mut t = Table::new(
        &[
            "run",
            "started",
            "runs",
            "solved",
            "median wall",
            &effort,
            "wall / run before",
            "change",
        ],
        2,
    );
    t.rows = g
        .points
        .iter()
        .map(|p| {
            let mut change = if p.changes.is_empty() {
                "-".to_string()
            } else {
                p.changes.join(", ")
            };
            if p.regression {
                change.push_str(" (regression)");
            }
            vec![
                format!("#{}", p.order + 1),
                p.started.clone(),
                p.runs.to_string(),
                p.solved.to_string(),
                fmt_secs(p.median_wall_s),
                // Medians of counts are usually whole: `6`, not `6.00`.
                p.median_effort.map_or("-".into(), |v| {
                    if v.fract() == 0.0 {
                        format!("{v:.0}")
                    } else {
                        sig3(v)
                    }
                }),
                p.wall_ratio.map_or("-".into(), |r| {
                    format!("x{} [{}, {}]", sig3(r.value), sig3(r.lo), sig3(r.hi))
                }),
                change,
            ]
        })
        .collect();
    t
}

/// The `history` section of `bench-report html --history DIR`: one small trend chart per
/// group (median wall per run, the noise band around the run before, the gate's marks).
/// `paths` are read as `bench-report history` reads them; none gives a sentence saying how.
pub(crate) fn html_section(
    paths: &[PathBuf],
    opts: &InputOptions,
    band: &Band,
) -> Result<Doc, HistoryError> {
    let mut d = Doc::default();
    if paths.is_empty() {
        d.para(
            Inline::text("No history given (")
                .code("--history DIR")
                .plain(": past runs of this plan, e.g. the nightly's ")
                .code("NIGHTLY_OUT")
                .plain(")."),
        );
        return Ok(d);
    }
    let h = History::build(&open_runs(paths, opts)?, band)?;
    let (first, last) = (
        h.runs.first().map_or("", |r| r.started.as_str()),
        h.runs.last().map_or("", |r| r.started.as_str()),
    );
    d.para(
        Inline::text(format!(
            "{} runs of one plan, {first} to {last}. Each chart: the median wall time of one \
             group per run (blue), the gate's noise band (±{}) around the run before (grey), \
             and the runs where ",
            h.runs.len(),
            h.band.value
        ))
        .code("compare")
        .plain(
            " against the run before found a change: red triangle up slower, green triangle \
             down faster, orange diamond another change (statuses, counters, jobs or CPU time).",
        ),
    );
    for n in &h.notes {
        d.note(n.as_str());
    }
    let mut figs = Vec::new();
    for (i, g) in h.groups.iter().enumerate() {
        let mut changed: Vec<String> = g
            .points
            .iter()
            .filter(|p| !p.changes.is_empty())
            .map(|p| format!("#{} {}", p.order + 1, p.changes.join(", ")))
            .collect();
        if changed.is_empty() {
            changed.push("no change".to_string());
        }
        let title = format!("{} / {}", g.dataset, g.label);
        figs.push(Figure {
            id: format!("history-{i}"),
            caption: format!("{title}: {}", changed.join("; ")),
            title,
            svg: trend_svg(g, &h.runs, h.band.value)?,
        });
    }
    d.push(Block::Figures(figs));
    Ok(d)
}

/// Trend chart size: small, several side by side.
const TREND_SIZE: (u32, u32) = (600, 320);
/// plot.rs's palette: blue line, red slower, green faster, orange other changes.
const BLUE: RGBColor = RGBColor(31, 119, 180);
const RED: RGBColor = RGBColor(214, 39, 40);
const GREEN: RGBColor = RGBColor(44, 160, 44);
const ORANGE: RGBColor = RGBColor(255, 127, 14);
const FONT: &str = "sans-serif";

/// One group's trend: x the run (labelled by start time), y the median wall time.
fn trend_svg(g: &TrendGroup, runs: &[RunInfo], band: f64) -> Result<String, HistoryError> {
    let derr = |e: &dyn std::fmt::Display| HistoryError::Chart {
        group: g.label.clone(),
        detail: e.to_string(),
    };
    let at: BTreeMap<usize, f64> = g
        .points
        .iter()
        .filter(|p| p.median_wall_s.is_finite())
        .map(|p| (p.order, p.median_wall_s))
        .collect();
    // The band around the run before, where the group has a point there.
    let bands: Vec<(usize, f64)> = g
        .points
        .iter()
        .filter_map(|p| Some((p.order, *at.get(&p.order.checked_sub(1)?)?)))
        .collect();
    let top = at
        .values()
        .copied()
        .chain(bands.iter().map(|b| b.1 * (1.0 + band)))
        .fold(0.0, f64::max);
    let top = if top > 0.0 { top * 1.12 } else { 1e-3 };
    let n = runs.len().max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, TREND_SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(|e| derr(&e))?;
        let x_fmt = |v: &f64| {
            let k = v.round();
            match runs.get(k as usize) {
                Some(r) if (v - k).abs() < 1e-6 && k >= 0.0 => {
                    // `2026-12-01T03:17:00Z` as `#1 12-01 03:17`.
                    let t = r.started.get(5..16).unwrap_or(&r.started).replace('T', " ");
                    format!("#{} {t}", k + 1.0)
                }
                _ => String::new(),
            }
        };
        let y_fmt = |v: &f64| fmt_secs(*v);
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("{}: {}", g.dataset, g.label), (FONT, 16))
            .margin(10)
            .margin_right(24)
            .x_label_area_size(34)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), 0.0..top)
            .map_err(|e| derr(&e))?;
        chart
            .configure_mesh()
            .x_labels(n.min(6))
            .y_labels(5)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .x_desc("run (start time, UTC)")
            .y_desc("median wall")
            .axis_desc_style((FONT, 13))
            .label_style((FONT, 12))
            .bold_line_style(BLACK.mix(0.12))
            .light_line_style(BLACK.mix(0.0))
            .draw()
            .map_err(|e| derr(&e))?;
        for (x, prev) in &bands {
            let (x, lo, hi) = (*x as f64, prev * (1.0 - band), prev * (1.0 + band));
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - 0.45, lo), (x + 0.45, hi)],
                    BLACK.mix(0.10).filled(),
                )))
                .map_err(|e| derr(&e))?;
        }
        let line: Vec<(f64, f64)> = at.iter().map(|(k, v)| (*k as f64, *v)).collect();
        chart
            .draw_series(LineSeries::new(line.iter().copied(), BLUE.stroke_width(2)))
            .map_err(|e| derr(&e))?;
        chart
            .draw_series(line.iter().map(|p| Circle::new(*p, 3, BLUE.filled())))
            .map_err(|e| derr(&e))?;
        let area = chart.plotting_area();
        for p in g.points.iter().filter(|p| p.median_wall_s.is_finite()) {
            let (x, y) = area.map_coordinate(&(p.order as f64, p.median_wall_s));
            let (col, pts) = if p.changes.contains(&"slower") {
                (RED, vec![(x, y - 9), (x + 8, y + 5), (x - 8, y + 5)])
            } else if p.changes.contains(&"faster") {
                (GREEN, vec![(x, y + 9), (x + 8, y - 5), (x - 8, y - 5)])
            } else if !p.changes.is_empty() {
                (ORANGE, vec![(x, y - 8), (x + 8, y), (x, y + 8), (x - 8, y)])
            } else {
                continue;
            };
            root.draw(&Polygon::new(pts, col.filled()))
                .map_err(|e| derr(&e))?;
        }
        root.present().map_err(|e| derr(&e))?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::meta::{meta_path, RunStatus};
    use crate::results::{Columns, Record, RunMeta, Status};

    /// A results file `dir/name` of one Hitori group, `mrv` on dataset `h`, one row per wall
    /// time (puzzle `p{i}`), with a complete meta of `plan` started at `started`.
    fn run(dir: &Path, name: &str, plan: &str, started: &str, walls: &[f64]) -> PathBuf {
        std::fs::create_dir_all(dir).expect("dir");
        let p = dir.join(name);
        let cols = Columns::default();
        let mut text = cols.header().join(",").into_bytes();
        text.push(b'\n');
        for (i, w) in walls.iter().enumerate() {
            let mut r = Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, *w);
            r.counters.nodes = Some(10 + i as u64 % 3);
            r.write_csv(cols, &mut text);
        }
        std::fs::write(&p, text).expect("csv");
        let meta = RunMeta {
            plan_hash: Some(plan.into()),
            started: Some(started.into()),
            git_revision: Some(format!("rev-{started}")),
            status: Some(RunStatus::Complete),
            ..RunMeta::default()
        };
        let json = serde_json::to_string(&meta).expect("meta json");
        std::fs::write(meta_path(&p), json).expect("meta");
        p
    }

    /// Twenty wall times around `scale` seconds, varied so the bootstrap has a spread.
    fn walls(scale: f64) -> Vec<f64> {
        (0..20)
            .map(|i| scale * (1.0 + 0.01 * f64::from(i % 5)))
            .collect()
    }

    fn history_of(paths: &[PathBuf]) -> Result<History, HistoryError> {
        History::build(&open_runs(paths, &InputOptions::default())?, &Band::floor())
    }

    // Issue 38, item 8: a link to a night inside the nightly directory counted that night
    // twice, and a `started` that is not a time sorted last as "the newest run".
    #[test]
    fn each_run_is_counted_once_and_started_must_be_a_time() {
        let d = tempfile::tempdir().expect("tempdir");
        let nightly = d.path().join("nightly");
        for (night, t) in [
            ("n1", "2026-12-01T03:00:00Z"),
            ("n2", "2026-12-02T03:00:00Z"),
        ] {
            run(&nightly.join(night), "r.csv", "P", t, &walls(1.0));
        }
        std::os::unix::fs::symlink(nightly.join("n1"), nightly.join("latest")).expect("link");
        let runs =
            open_runs(std::slice::from_ref(&nightly), &InputOptions::default()).expect("runs");
        let paths: Vec<String> = runs
            .runs
            .iter()
            .map(|r| r.path.display().to_string())
            .collect();
        assert_eq!(paths.len(), 2, "{paths:?}");
        assert!(
            paths[0].ends_with("n1") && paths[1].ends_with("n2"),
            "{paths:?}"
        );
        assert!(
            runs.notes
                .iter()
                .any(|n| n.contains("latest: the same run as")),
            "{:?}",
            runs.notes
        );
        // Named twice, or by a link and by its path: once.
        let a = nightly.join("n2").join("r.csv");
        let runs = open_runs(
            &[a.clone(), a.clone(), nightly.join("latest")],
            &InputOptions::default(),
        )
        .expect("runs");
        assert_eq!(runs.runs.len(), 2);
        for bad in [
            "yesterday",
            "2026-13-01T03:00:00Z",
            "2026-12-01 03:00:00",
            "",
        ] {
            let p = run(&d.path().join("bad"), "r.csv", "P", bad, &walls(1.0));
            let e = history_of(&[a.clone(), p]).expect_err(bad).to_string();
            assert!(
                e.contains("bad/r.meta.json: its started") && e.contains("is not a UTC time"),
                "{bad}: {e}"
            );
        }
        for good in ["2026-12-01T03:00:00Z", "2026-12-01T03:00:00.125Z"] {
            assert!(is_time(good), "{good}");
        }
    }

    // Issue 38, item 9: a flat directory of repeated runs of one command (`-o results/day1.csv`,
    // `day2.csv`, …) was refused with "pass --allow-duplicates", wrong advice for history.
    #[test]
    fn a_flat_directory_of_repeated_runs_is_a_run_a_file() {
        let d = tempfile::tempdir().expect("tempdir");
        let flat = d.path().join("results");
        run(&flat, "day1.csv", "P", "2026-12-01T03:00:00Z", &walls(1.0));
        run(&flat, "day2.csv", "P", "2026-12-02T03:00:00Z", &walls(1.0));
        run(&flat, "day3.csv", "P", "2026-12-03T03:00:00Z", &walls(3.0));
        let h = history_of(std::slice::from_ref(&flat)).expect("history");
        let order: Vec<&str> = h.runs.iter().map(|r| &r.path[r.path.len() - 8..]).collect();
        assert_eq!(order, ["day1.csv", "day2.csv", "day3.csv"]);
        assert_eq!(h.groups[0].points.len(), 3);
        // Repeats beside another plan's file: which files make a run is unknown, so the
        // refusal says how to name them.
        run(&flat, "other.csv", "Q", "2026-12-03T04:00:00Z", &walls(1.0));
        let e = history_of(std::slice::from_ref(&flat))
            .expect_err("mixed")
            .to_string();
        assert!(
            e.contains("are two runs of one plan (plan_hash P)")
                && e.contains("name the runs one by one")
                && !e.contains("--allow-duplicates"),
            "{e}"
        );
        // A night of the nightly (files of different plans) stays one run.
        let night = d.path().join("night");
        run(&night, "a.csv", "A", "2026-12-01T03:00:00Z", &walls(1.0));
        run(&night, "b.csv", "B", "2026-12-01T03:01:00Z", &walls(1.0));
        assert_eq!(repeated_runs(&night).expect("read").map(|v| v.len()), None);
    }

    #[test]
    fn runs_are_ordered_by_start_time_not_by_name_and_never_pooled() {
        let d = tempfile::tempdir().expect("tempdir");
        let paths = vec![
            run(d.path(), "a.csv", "P", "2026-12-03T03:00:00Z", &walls(3.0)),
            run(d.path(), "b.csv", "P", "2026-12-01T03:00:00Z", &walls(1.0)),
            run(d.path(), "c.csv", "P", "2026-12-02T03:00:00Z", &walls(2.0)),
        ];
        let h = history_of(&paths).expect("history");
        let order: Vec<&str> = h.runs.iter().map(|r| &r.path[r.path.len() - 5..]).collect();
        assert_eq!(order, ["b.csv", "c.csv", "a.csv"]);
        assert_eq!(h.groups.len(), 1);
        let g = &h.groups[0];
        assert_eq!((g.dataset.as_str(), g.strategy.as_str()), ("h", "mrv"));
        // One point per run, each over its own 20 rows: never 60.
        let pts: Vec<(usize, usize, f64)> = g
            .points
            .iter()
            .map(|p| (p.order, p.runs, p.median_wall_s))
            .collect();
        assert_eq!(pts, [(0, 20, 1.02), (1, 20, 2.04), (2, 20, 3.06)]);
        assert_eq!(
            g.points[0].commit.as_deref(),
            Some("rev-2026-12-01T03:00:00Z")
        );
        assert_eq!(g.points[1].median_effort, Some(11.0));
    }

    #[test]
    fn marks_are_the_gates_judgment_of_each_pair() {
        let d = tempfile::tempdir().expect("tempdir");
        let same = walls(1.0);
        let paths = vec![
            run(
                &d.path().join("1"),
                "r.csv",
                "P",
                "2026-12-01T03:00:00Z",
                &same,
            ),
            run(
                &d.path().join("2"),
                "r.csv",
                "P",
                "2026-12-02T03:00:00Z",
                &same,
            ),
            run(
                &d.path().join("3"),
                "r.csv",
                "P",
                "2026-12-03T03:00:00Z",
                &walls(1.5),
            ),
        ];
        let h = history_of(&paths).expect("history");
        let p = &h.groups[0].points;
        let got: Vec<(Option<&str>, bool)> = p.iter().map(|p| (p.change, p.regression)).collect();
        assert_eq!(got, [(None, false), (None, false), (Some("slower"), true)]);
        // The same pairs through the gate directly, as `compare` judges them.
        let open = |p: &PathBuf| {
            RunSet::open(std::slice::from_ref(p), InputOptions::default()).expect("open")
        };
        let sets: Vec<RunSet> = paths.iter().map(open).collect();
        for (i, want) in [(1, TimeVerdict::Unchanged), (2, TimeVerdict::Slowdown)] {
            let c = gate(&sets[i - 1], &sets[i], &Band::floor(), ("a", "b"), false).expect("gate");
            assert_eq!(c.groups[0].time.verdict, want);
            assert_eq!(p[i].time_verdict, Some(want));
            assert_eq!(c.is_regression(), p[i].regression);
            assert_eq!(c.groups[0].time.ratio, p[i].wall_ratio);
        }
        // A band wider than the slowdown: no mark, as `compare --noise-band 0.9` would say.
        let wide = History::build(
            &open_runs(&paths, &InputOptions::default()).expect("runs"),
            &Band::given(0.9),
        )
        .expect("history");
        assert!(wide.groups[0].points[2].change.is_none(), "{wide:?}");
    }

    #[test]
    fn runs_of_another_plan_are_refused_when_named_and_left_out_from_a_parent() {
        let d = tempfile::tempdir().expect("tempdir");
        let nights = d.path().join("nightly");
        let old = run(
            &nights.join("n1"),
            "r.csv",
            "OLD",
            "2026-12-01T03:00:00Z",
            &walls(1.0),
        );
        run(
            &nights.join("n2"),
            "r.csv",
            "NEW",
            "2026-12-02T03:00:00Z",
            &walls(1.0),
        );
        run(
            &nights.join("n3"),
            "r.csv",
            "NEW",
            "2026-12-03T03:00:00Z",
            &walls(1.0),
        );
        let named = [old.clone(), nights.join("n2"), nights.join("n3")];
        let e = history_of(&named).expect_err("mixed plans").to_string();
        assert!(
            e.starts_with(&format!(
                "{}: plan_hash OLD is not a plan of the newest run",
                old.display()
            )),
            "{e}"
        );
        // Found in the parent directory: the newest plan's history, the other run noted.
        let h = history_of(std::slice::from_ref(&nights)).expect("history");
        assert_eq!(h.groups[0].points.len(), 2);
        assert!(
            h.notes.iter().any(|n| n.starts_with(&format!(
                "left out {}: a run of another plan",
                nights.join("n1").display()
            ))),
            "{:?}",
            h.notes
        );
    }

    #[test]
    fn a_file_without_meta_is_refused_and_an_unfinished_run_left_out() {
        let d = tempfile::tempdir().expect("tempdir");
        let a = run(d.path(), "a.csv", "P", "2026-12-01T03:00:00Z", &walls(1.0));
        let b = run(d.path(), "b.csv", "P", "2026-12-02T03:00:00Z", &walls(1.0));
        std::fs::remove_file(meta_path(&b)).expect("rm meta");
        let e = history_of(&[a.clone(), b.clone()])
            .expect_err("no meta")
            .to_string();
        assert!(
            e.starts_with(&format!("{}: no .meta.json beside it", b.display())),
            "{e}"
        );
        let nights = d.path().join("nightly");
        run(
            &nights.join("n1"),
            "r.csv",
            "P",
            "2026-12-01T03:00:00Z",
            &walls(1.0),
        );
        run(
            &nights.join("n2"),
            "r.csv",
            "P",
            "2026-12-02T03:00:00Z",
            &walls(1.0),
        );
        std::fs::write(nights.join("n2/s.csv.partial"), "x").expect("journal");
        let h = history_of(std::slice::from_ref(&nights)).expect("history");
        assert_eq!(h.runs.len(), 1);
        assert!(
            h.notes
                .iter()
                .any(|n| n.contains("a run that did not finish")),
            "{:?}",
            h.notes
        );
    }

    /// The JSON keys are a documented interface (docs/reports.md, `history`).
    #[test]
    fn json_keys_are_stable() {
        let d = tempfile::tempdir().expect("tempdir");
        let paths = vec![
            run(d.path(), "a.csv", "P", "2026-12-01T03:00:00Z", &walls(1.0)),
            run(d.path(), "b.csv", "P", "2026-12-02T03:00:00Z", &walls(1.0)),
        ];
        let h = history_of(&paths).expect("history");
        let v: serde_json::Value =
            serde_json::from_str(&h.render(HistoryFormat::Json)).expect("json");
        let mut got = Vec::new();
        crate::report::json_key_paths(&v, "", &mut got);
        assert_eq!(
            got,
            [
                "groups",
                "groups[].dataset",
                "groups[].strategy",
                "groups[].rules",
                "groups[].params",
                "groups[].label",
                "groups[].points",
                "groups[].points[].started",
                "groups[].points[].commit",
                "groups[].points[].runs",
                "groups[].points[].solved",
                "groups[].points[].median_wall_s",
                "groups[].points[].effort",
                "groups[].points[].median_effort",
                "groups[].points[].order",
                "groups[].points[].path",
                "groups[].points[].change",
                "groups[].points[].changes",
                "groups[].points[].regression",
                "groups[].points[].wall_ratio",
                "groups[].points[].time_verdict",
            ]
        );
        assert!(v["groups"][0]["points"][0]["change"].is_null());
        let text = h.render(HistoryFormat::Text);
        assert!(text.contains("h / mrv basic:"), "{text}");
        let md = h.render(HistoryFormat::Markdown);
        assert!(md.contains("| #2 | 2026-12-02T03:00:00Z |"), "{md}");
    }

    #[test]
    fn the_html_section_has_one_chart_per_group() {
        let d = tempfile::tempdir().expect("tempdir");
        let paths = vec![
            run(d.path(), "a.csv", "P", "2026-12-01T03:00:00Z", &walls(1.0)),
            run(d.path(), "b.csv", "P", "2026-12-02T03:00:00Z", &walls(3.0)),
        ];
        let s = html_section(&paths, &InputOptions::default(), &Band::floor())
            .expect("html")
            .html(1);
        assert_eq!(s.matches("<svg").count(), 1, "{s}");
        assert!(s.contains("id=\"history-0\""), "{s}");
        assert!(s.contains("h / mrv basic: #2 slower"), "{s}");
        let none = html_section(&[], &InputOptions::default(), &Band::floor())
            .expect("html")
            .html(1);
        assert!(none.contains("No history given"), "{none}");
    }
}
