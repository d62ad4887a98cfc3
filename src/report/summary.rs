//! Per-strategy summaries of result rows, and ratios between strategies on the runs both
//! solved. `bench-run` prints [`Summary::render`] with [`Format::Text`] at the end of a run;
//! `bench-report summary` renders saved files in any [`Format`].

use crate::hash::StableHasher;
use crate::report::ab::Ert;
use crate::report::claims::{self, ClaimCheck, Contradiction};
use crate::report::describe::{
    convergence_groups, BestOf, BestOfAcc, ColumnStats, ColumnsAcc, ConvergenceGroup,
};
use crate::report::doc::{Doc, Inline, Table};
use crate::report::inference::wilson;
#[cfg(test)]
use crate::report::input::TimeLimit;
use crate::report::input::{Efforts, KeptJobs, RunSet, Streamed};
use crate::report::stats;
use crate::report::table::{pair, Group, Job, RunTable, TableSpec};
#[cfg(test)]
use crate::report::table::{Facts, TableBuilder};
use crate::report::{fmt_secs, labels, pct_bound, sig3, GroupKey};
use crate::results::trace::TraceRun;
use crate::results::{Record, Status};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Optional parts of a summary, gathered beside the run table ([`Extras::new`]); each costs
/// memory per row, so none is on by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Detail {
    /// Distribution (count, sum, mean, min, p10, median, p90, max) of every counter, of
    /// `off_path` and of `wall_s` per group (`--counters`): 8 bytes a reported value.
    pub counters: bool,
    /// Best-of-K portfolios of independent colonies per group, one per K (`--best-of`).
    pub best_of: Vec<usize>,
}

/// Output format of [`Summary::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An aligned table for the terminal.
    Text,
    /// GitHub-flavoured markdown tables.
    Markdown,
    /// One CSV row per group, stable column names.
    Csv,
    /// The whole summary as JSON, stable field names.
    Json,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "text" => Ok(Format::Text),
            "markdown" => Ok(Format::Markdown),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(format!("{s:?}: expected text, markdown, csv or json")),
        }
    }
}

/// Statistics of a group's effort over its solved runs: an unsolved run's effort is only
/// where its budget stopped it (ERT counts those).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effort {
    /// The strategy's effort unit ([`Efforts`]): `nodes` for the Hitori searches and
    /// `backtrack`, `cycles` for `abc`, `evaluations` for `abc-prop`, or what an external
    /// solver declared.
    pub metric: &'static str,
    /// Solved runs the statistics are over.
    pub runs: usize,
    /// Mean.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// 90th percentile.
    pub p90: f64,
    /// Maximum.
    pub max: f64,
}

/// The ABC portfolio view: K colonies per (puzzle, seed) run as one portfolio that succeeds
/// when any colony succeeds, at the cost of the fastest successful colony.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Portfolio {
    /// Colonies per (puzzle, seed) (the largest number seen).
    pub colonies: usize,
    /// (puzzle, seed) instances.
    pub instances: usize,
    /// Instances solved by at least one colony.
    pub solved: usize,
    /// `100 * solved / instances`.
    pub solved_pct: f64,
    /// Median over solved instances of the fewest cycles among solving colonies.
    pub cycles_median: Option<f64>,
    /// 90th percentile of the same.
    pub cycles_p90: Option<f64>,
}

/// One row of the summary: a strategy configuration on a dataset.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupSummary {
    /// Which rows.
    #[serde(flatten)]
    pub key: GroupKey,
    /// Display name (strategy, rules, and parameters where needed to tell groups apart).
    pub label: String,
    /// Rows in the group.
    pub runs: usize,
    /// `solved` rows.
    pub solved: usize,
    /// `100 * solved / runs`.
    pub solved_pct: f64,
    /// Wilson 95% interval of the success rate, in percent: lower end.
    pub solved_lo_pct: f64,
    /// Upper end of the same.
    pub solved_hi_pct: f64,
    /// `unsolved` rows.
    pub unsolved: usize,
    /// `timeout` rows.
    pub timeout: usize,
    /// `error` rows.
    pub error: usize,
    /// `wrong` rows.
    pub wrong: usize,
    /// `memout` rows (`--memory-limit`).
    pub memout: usize,
    /// Nodes or cycles statistics, when the solver reports either.
    pub effort: Option<Effort>,
    /// Expected running time: total effort (in the group's unit, of every run, solved or not) and
    /// total wall time, each divided by the number of solved runs; `None` parts when nothing
    /// was solved (ERT is infinite) or no effort counter is reported.
    pub ert: Ert,
    /// Median wall time of all runs, seconds.
    pub wall_median_s: f64,
    /// 90th percentile wall time of all runs, seconds.
    pub wall_p90_s: f64,
    /// PAR-2 score in seconds: mean over runs of `wall_s` when solved, else twice the time
    /// limit. `None` when the time limit is unknown.
    pub par2_s: Option<f64>,
    /// Portfolio view, for groups with more than one colony.
    pub portfolio: Option<Portfolio>,
    /// Distinct puzzles the group ran.
    pub puzzles: usize,
    /// Of those, the puzzles some run (any seed or colony) solved.
    pub puzzles_solved: usize,
    /// Per column (every counter reported, `off_path`, `wall_s`): its distribution over the
    /// group's runs that report it. `None` unless asked for ([`Detail::counters`]).
    pub counters: Option<BTreeMap<String, ColumnStats>>,
    /// Best-of-K portfolios, one per K asked for ([`Detail::best_of`]), in the order asked.
    pub best_of: Vec<BestOf>,
}

/// Two groups of one dataset and kind that ran common jobs (same puzzle, seed and colony),
/// compared on the common jobs both solved only (like with like), `a` the costlier.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// Dataset.
    pub dataset: String,
    /// Label of the costlier group (numerator).
    pub a: String,
    /// Label of the cheaper group (denominator).
    pub b: String,
    /// Jobs (puzzle, seed, colony) both groups ran.
    pub common: usize,
    /// Of those, the jobs both solved: the ratios are over these only.
    pub pairs: usize,
    /// `nodes` or `cycles`, when both groups report it.
    pub metric: Option<&'static str>,
    /// mean effort of `a` / mean effort of `b` over the pairs; `None` with no pair.
    pub effort_mean_ratio: Option<f64>,
    /// median wall of `a` / median wall of `b` over the pairs; `None` with no pair.
    pub wall_median_ratio: Option<f64>,
}

impl Ratio {
    /// `row needs ×3.4 the mean nodes of mrv; mrv takes ×1.2 the median time of row, on the
    /// 40 of 40 common runs both solved`: each ratio from the side that needs more, as every
    /// report says it ([`stats::costlier`]).
    pub fn describe(&self) -> String {
        let (a, b) = (self.a.as_str(), self.b.as_str());
        if self.pairs == 0 {
            return format!(
                "{a} and {b}: no ratio, none of the {} common runs was solved by both",
                self.common
            );
        }
        let say = |what: &str, verb: &str, a_over_b: f64| {
            let (more, less, k) = if a_over_b >= 1.0 {
                (a, b, a_over_b)
            } else {
                (b, a, 1.0 / a_over_b)
            };
            let k = sig2(k);
            if k == "1.0" {
                format!("equal {what} (×1.0)")
            } else {
                format!("{more} {verb} ×{k} the {what} of {less}")
            }
        };
        let mut parts = Vec::new();
        if let (Some(m), Some(r)) = (self.metric, self.effort_mean_ratio) {
            parts.push(say(&format!("mean {m}"), "needs", r));
        }
        if let Some(r) = self.wall_median_ratio {
            parts.push(say("median time", "takes", r));
        }
        format!(
            "{}, on the {} of {} common runs both solved",
            parts.join("; "),
            self.pairs,
            self.common
        )
    }
}

/// Two significant digits at least one decimal: ratios read as `×3.4`, `×12`, `×1.0`.
fn sig2(v: f64) -> String {
    if !v.is_finite() {
        "-".to_string()
    } else if v.abs() >= 10.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// A whole summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Groups sorted by dataset, kind, strategy, rules, params.
    pub groups: Vec<GroupSummary>,
    /// Ratios between groups on the runs both solved.
    pub ratios: Vec<Ratio>,
    /// Inputs that hold only part of their run: the figures cover only their rows.
    pub incomplete: Vec<Incomplete>,
    /// Jobs met more than once across the inputs and counted each time
    /// (`bench-report summary --allow-duplicates`); otherwise 0.
    pub duplicate_jobs: u64,
    /// The time limit used for PAR-2.
    pub time_limit_s: Option<f64>,
    /// The `--where` filter the rows passed, as given; `None` when every row counts.
    pub filter: Option<String>,
    /// ABC convergence per (dataset, strategy, params) of the `--trace` files, if any.
    pub convergence: Vec<ConvergenceGroup>,
    /// Notes printed under the tables (definitions, omissions).
    pub footnotes: Vec<String>,
    /// "No solution" claims that a verified solve of the same puzzle in the inputs refutes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contradictions: Vec<Contradiction>,
    /// Tables of solved runs by one or two swept parameters (`summary --by`), text and
    /// markdown only: JSON and CSV list every configuration with its params.
    #[serde(skip)]
    pub pivots: Vec<(String, Table)>,
}

/// What a `summary --by` table shows in a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PivotMetric {
    /// Solved runs of runs and the percentage: `45/50 (90.0%)`.
    #[default]
    Solved,
    /// Expected running time in the strategy's effort unit (all runs' effort / successes).
    Ert,
    /// Mean effort of the solved runs.
    Effort,
    /// Median wall time.
    Wall,
}

impl PivotMetric {
    /// The spellings `--by-metric` takes.
    pub const NAMES: [&'static str; 4] = ["solved", "ert", "effort", "wall"];

    fn title(self) -> &'static str {
        match self {
            PivotMetric::Solved => "solved runs",
            PivotMetric::Ert => "ERT",
            PivotMetric::Effort => "mean effort of solved runs",
            PivotMetric::Wall => "median wall time",
        }
    }

    fn column(self) -> &'static str {
        match self {
            PivotMetric::Solved => "solved",
            PivotMetric::Ert => "ERT",
            PivotMetric::Effort => "mean effort",
            PivotMetric::Wall => "median wall",
        }
    }

    fn cell(self, g: &GroupSummary) -> String {
        match self {
            PivotMetric::Solved => format!("{}/{} ({:.1}%)", g.solved, g.runs, g.solved_pct),
            PivotMetric::Ert => ert_effort(&g.ert),
            PivotMetric::Effort => g.effort.as_ref().map_or("-".to_string(), |e| {
                format!("{} {}", opt_num(Some(e.mean)), e.metric)
            }),
            PivotMetric::Wall => fmt_secs(g.wall_median_s),
        }
    }
}

impl std::str::FromStr for PivotMetric {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "solved" => Ok(PivotMetric::Solved),
            "ert" => Ok(PivotMetric::Ert),
            "effort" => Ok(PivotMetric::Effort),
            "wall" => Ok(PivotMetric::Wall),
            _ => Err(format!(
                "unknown metric {s:?}: expected one of {}",
                PivotMetric::NAMES.join(", ")
            )),
        }
    }
}

/// An input file that holds only part of its run (an interrupted or running run's journal, or a
/// file whose meta says the run did not complete).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Incomplete {
    /// The file as named on the command line (or found in a directory).
    pub file: String,
    /// Rows it holds.
    pub rows: u64,
    /// Jobs its run planned, when its meta says.
    pub jobs: Option<u64>,
    /// Why it counts as incomplete.
    pub reason: String,
}

impl Incomplete {
    /// `run.csv.partial: INCOMPLETE (journal of an unfinished run), 12 of 80 jobs: ...`.
    pub fn describe(&self) -> String {
        let of = self
            .jobs
            .map_or(String::new(), |j| format!(" of {j} planned"));
        format!(
            "INCOMPLETE input {} ({}): {} rows{of}; the figures below cover only these rows",
            self.file, self.reason, self.rows
        )
    }
}

fn id_hash(id: &str) -> u64 {
    let mut h = StableHasher::default();
    h.write_str(id);
    h.finish()
}

/// The table's columns a summary reads beside the fixed ones: cycles, for the portfolio view.
pub fn table_spec() -> TableSpec {
    TableSpec {
        metrics: vec!["cycles"],
        names: false,
    }
}

/// What a summary gathers beside the run table, per group in first-seen order: the optional
/// parts ([`Detail`]) and the "no solution" claims. Fed by [`RunTable::read`]'s hook.
#[derive(Clone, Debug, Default)]
pub struct Extras {
    detail: Detail,
    efforts: Efforts,
    claims: ClaimCheck,
    columns: Vec<Option<ColumnsAcc>>,
    best_of: Vec<Vec<BestOfAcc>>,
}

impl Extras {
    /// Gather `detail`, measuring effort by `efforts`.
    pub fn new(detail: Detail, efforts: Efforts) -> Extras {
        Extras {
            detail,
            efforts,
            ..Extras::default()
        }
    }

    /// Account for row `r` of the group first seen as number `group`.
    pub fn add(&mut self, group: usize, r: &Record) {
        while self.columns.len() <= group {
            self.columns
                .push(self.detail.counters.then(ColumnsAcc::default));
            let best_of = self.detail.best_of.iter().map(|&k| BestOfAcc::new(k));
            self.best_of.push(best_of.collect());
        }
        if let Some(c) = &mut self.columns[group] {
            c.add(r);
        }
        if !self.best_of[group].is_empty() {
            let (puzzle, effort) = (id_hash(&r.puzzle_id), self.efforts.of(r));
            for b in &mut self.best_of[group] {
                b.add(puzzle, r, effort);
            }
        }
        self.claims.add(u32::try_from(group).unwrap_or(u32::MAX), r);
    }
}

/// A table whose first two columns (dataset, strategy) are names.
fn table(head: Vec<String>, rows: Vec<Vec<String>>) -> Table {
    Table {
        head,
        rows,
        labels: 2,
    }
}

/// The summary of a [`RunSet`]'s rows, read once into a run table: incomplete inputs,
/// counted duplicates, the filter and the time limit all come from the set, so every report
/// that shows a summary shows the same one.
///
/// `traces` (one list per `--trace` file) become the convergence section; a `--where` keeps
/// the trace runs of the jobs whose rows it kept.
pub fn summarize_set(
    set: &RunSet,
    detail: Detail,
    traces: Vec<Vec<TraceRun>>,
) -> Result<(Summary, Streamed), crate::results::ReadError> {
    let mut extras = Extras::new(detail, set.efforts().clone());
    let mut kept = set.kept_jobs().filter(|_| !traces.is_empty());
    let table = RunTable::read(set, table_spec(), |g, r| {
        extras.add(g, r);
        if let Some(k) = kept.as_mut() {
            k.add(r);
        }
    })?;
    let convergence = (traces.into_iter())
        .map(|t| convergence_groups(&KeptJobs::retain(kept.as_ref(), t)))
        .collect();
    let s = summarize_table(&table, extras, convergence);
    Ok((s, table.facts.streamed))
}

/// The summary view of a run table (read with at least [`table_spec`]'s columns), with the
/// `extras` gathered in the same pass.
pub fn summarize_table(
    table: &RunTable,
    extras: Extras,
    convergence: Vec<Vec<ConvergenceGroup>>,
) -> Summary {
    let facts = &table.facts;
    let keys: Vec<GroupKey> = table.groups.iter().map(|g| g.key.clone()).collect();
    let names = labels(&keys);
    let limit = facts.time_limit.secs.filter(|t| t.is_finite() && *t > 0.0);
    let mut columns = extras.columns;
    let mut best_of = extras.best_of;
    let mut label_of = vec![String::new(); keys.len()];
    let mut groups = Vec::new();
    for (g, label) in table.groups.iter().zip(names) {
        if let Some(l) = label_of.get_mut(g.id) {
            l.clone_from(&label);
        }
        let counters = columns.get_mut(g.id).and_then(Option::take);
        let best = best_of
            .get_mut(g.id)
            .map(std::mem::take)
            .unwrap_or_default();
        groups.push(group_summary(table, g, label, limit, counters, best));
    }
    let (ratios, ratio_notes) = ratios(table, &groups);
    let mut footnotes = footnotes(&groups, limit, facts.time_limit.note.as_deref());
    footnotes.extend(ratio_notes);
    let st = &facts.streamed;
    if st.repeats > 0 {
        footnotes.push(format!(
            "{} rows repeat a job already read from another input (same dataset, puzzle, configuration, seed and colony) and are counted again (--allow-duplicates).",
            st.repeats
        ));
    }
    let contradictions = extras
        .claims
        .finish(|i| label_of.get(i as usize).cloned().unwrap_or_default());
    let incomplete = facts
        .files
        .iter()
        .zip(&st.rows_per_file)
        .filter_map(|(f, rows)| {
            let (reason, jobs) = f.incomplete.as_ref()?;
            Some(Incomplete {
                file: f.path.display().to_string(),
                rows: *rows,
                jobs: *jobs,
                reason: reason.clone(),
            })
        })
        .collect();
    Summary {
        footnotes,
        contradictions,
        pivots: Vec::new(),
        groups,
        ratios,
        incomplete,
        duplicate_jobs: st.repeats,
        time_limit_s: limit,
        filter: facts.filter.clone(),
        convergence: convergence.into_iter().flatten().collect(),
    }
}

/// One group's row of the summary.
fn group_summary(
    table: &RunTable,
    g: &Group,
    label: String,
    limit: Option<f64>,
    counters: Option<ColumnsAcc>,
    best_of: Vec<BestOfAcc>,
) -> GroupSummary {
    let t = &g.totals;
    let solved = t.solved();
    let walls = stats::sorted(&g.jobs.iter().map(|j| j.wall).collect::<Vec<_>>());
    // `stats::par_k`'s rule, its sum continued in the same order: the solved rows' part was
    // added in reading order, then twice the limit for every other run.
    let par2 = limit.map(|lim| {
        let mut total = t.par2_solved_sum;
        for _ in solved..t.runs {
            total += 2.0 * lim;
        }
        total / t.runs as f64
    });
    let mut puzzles = 0;
    let mut puzzles_solved = 0;
    for same in g.jobs.chunk_by(|x, y| x.puzzle == y.puzzle) {
        puzzles += 1;
        puzzles_solved += usize::from(same.iter().any(Job::solved));
    }
    // Groups hold at least one row, so the interval always exists.
    let (lo, hi) = wilson(solved as u64, t.runs as u64).unwrap_or((0.0, 1.0));
    let per_success = |total: f64| (solved > 0).then(|| total / solved as f64);
    let ert = Ert {
        unit: g.unit,
        effort: g.unit.and_then(|_| per_success(t.effort_sum)),
        seconds: per_success(t.wall_sum),
    };
    let effort = g.unit.map(|metric| {
        let v: Vec<f64> = g
            .jobs
            .iter()
            .filter(|j| j.solved())
            .filter_map(Job::effort)
            .collect();
        let vals = stats::sorted(&v);
        Effort {
            metric,
            runs: vals.len(),
            mean: stats::mean(&vals).unwrap_or(f64::NAN),
            median: stats::percentile_sorted(&vals, 0.5).unwrap_or(f64::NAN),
            p90: stats::percentile_sorted(&vals, 0.9).unwrap_or(f64::NAN),
            max: vals.last().copied().unwrap_or(f64::NAN),
        }
    });
    GroupSummary {
        key: g.key.clone(),
        label,
        runs: t.runs,
        solved,
        solved_pct: 100.0 * solved as f64 / t.runs as f64,
        solved_lo_pct: 100.0 * lo,
        solved_hi_pct: 100.0 * hi,
        unsolved: t.count(Status::Unsolved),
        timeout: t.count(Status::Timeout),
        error: t.count(Status::Error),
        wrong: t.count(Status::Wrong),
        memout: t.count(Status::Memout),
        effort,
        ert,
        wall_median_s: stats::percentile_sorted(&walls, 0.5).unwrap_or(f64::NAN),
        wall_p90_s: stats::percentile_sorted(&walls, 0.9).unwrap_or(f64::NAN),
        par2_s: par2,
        portfolio: portfolio(table, g),
        puzzles,
        puzzles_solved,
        counters: counters.map(ColumnsAcc::finish),
        best_of: best_of.into_iter().map(BestOfAcc::finish).collect(),
    }
}

/// The portfolio view of a group of several colonies: per (puzzle, seed) with a cycles
/// count, solved when a colony solved, at the fewest cycles among the solving colonies.
fn portfolio(table: &RunTable, g: &Group) -> Option<Portfolio> {
    let first = g.jobs.first()?.colony;
    if g.jobs.iter().all(|j| j.colony == first) {
        return None;
    }
    let mut colonies = BTreeSet::new();
    let (mut instances, mut best) = (0, Vec::new());
    for inst in g
        .jobs
        .chunk_by(|x, y| (x.puzzle, x.seed) == (y.puzzle, y.seed))
    {
        colonies.extend(inst.iter().map(|j| j.colony));
        let cycles = |j: &&Job| table.metric(g, j, "cycles");
        if inst.iter().filter_map(|j| cycles(&j)).next().is_none() {
            continue;
        }
        instances += 1;
        let solving = inst
            .iter()
            .filter(|j| j.solved())
            .filter_map(|j| cycles(&j));
        if let Some(c) = solving.reduce(f64::min) {
            best.push(c);
        }
    }
    if instances == 0 {
        return None;
    }
    let s = stats::sorted(&best);
    Some(Portfolio {
        colonies: colonies.len(),
        instances,
        solved: s.len(),
        solved_pct: 100.0 * s.len() as f64 / instances as f64,
        cycles_median: stats::percentile_sorted(&s, 0.5),
        cycles_p90: stats::percentile_sorted(&s, 0.9),
    })
}

/// Summarise rows held in memory: the unit tests' entry (reports read their files through
/// [`summarize_set`]).
#[cfg(test)]
pub(crate) fn summarize(rows: &[Record], limit: &TimeLimit) -> Summary {
    summarize_rows(rows, Detail::default(), limit, Facts::default())
}

/// [`summarize`] with `detail` and the set's other `facts` (their time limit replaced by
/// `limit`).
#[cfg(test)]
pub(crate) fn summarize_rows(
    rows: &[Record],
    detail: Detail,
    limit: &TimeLimit,
    mut facts: Facts,
) -> Summary {
    let mut b = TableBuilder::new(table_spec(), Efforts::default(), limit.secs);
    let mut extras = Extras::new(detail, Efforts::default());
    for r in rows {
        let g = b.add(r, 0);
        extras.add(g, r);
    }
    facts.time_limit = limit.clone();
    summarize_table(&b.finish(facts), extras, Vec::new())
}

/// Ratios: pairs of groups in one dataset and kind that ran common jobs, over the jobs both
/// solved (an unsolved run's effort is only its budget, so comparing it would be unlike with
/// like).
///
/// Pairs grow with the square of the configurations: a dataset with more than
/// [`MAX_RATIO_GROUPS`] of them gets a note instead (a sweep's thousands of one-row
/// configurations would otherwise cost minutes and gigabytes for a table nobody reads).
fn ratios(table: &RunTable, groups: &[GroupSummary]) -> (Vec<Ratio>, Vec<String>) {
    let mut ratios = Vec::new();
    let mut notes = Vec::new();
    // Groups arrive sorted by key, so one (dataset, kind) is a contiguous run of them.
    let mut start = 0;
    while start < groups.len() {
        let k = &groups[start].key;
        let end = start
            + groups[start..]
                .iter()
                .take_while(|g| g.key.dataset == k.dataset && g.key.kind == k.kind)
                .count();
        if end - start > MAX_RATIO_GROUPS {
            notes.push(format!(
                "{}: {} configurations; pairwise ratios are shown for at most {MAX_RATIO_GROUPS} \
                 (compare two with bench-report ab, or narrow with --where)",
                k.dataset,
                end - start
            ));
        } else {
            pair_ratios(table, groups, start..end, &mut ratios);
        }
        start = end;
    }
    (ratios, notes)
}

/// Most configurations of one dataset whose pairwise ratios a summary lists.
pub const MAX_RATIO_GROUPS: usize = 12;

fn pair_ratios(
    table: &RunTable,
    groups: &[GroupSummary],
    range: std::ops::Range<usize>,
    ratios: &mut Vec<Ratio>,
) {
    for i in range.clone() {
        for j in i + 1..range.end {
            let (gi, gj) = (&groups[i], &groups[j]);
            let paired = pair(&table.groups[i], &table.groups[j]);
            let common = paired.pairs.len();
            if common == 0 {
                continue;
            }
            let pairs: Vec<_> = paired
                .pairs
                .iter()
                .filter(|(x, y)| x.solved() && y.solved())
                .collect();
            let metric = match (&gi.effort, &gj.effort) {
                (Some(a), Some(b)) if a.metric == b.metric => Some(a.metric),
                _ => None,
            };
            let col = |side_a: bool, f: &dyn Fn(&Job) -> Option<f64>| {
                let v: Vec<f64> = pairs
                    .iter()
                    .filter_map(|p| f(if side_a { p.0 } else { p.1 }))
                    .collect();
                stats::sorted(&v)
            };
            let eff = metric
                .and_then(|_| {
                    let (a, b) = (col(true, &Job::effort), col(false, &Job::effort));
                    // Only when every pair has the counter on both sides.
                    if a.len() != pairs.len() || b.len() != pairs.len() {
                        return None;
                    }
                    Some(stats::mean(&a)? / stats::mean(&b)?)
                })
                .filter(|r| r.is_finite());
            let median =
                |side_a: bool| stats::percentile_sorted(&col(side_a, &|j| Some(j.wall)), 0.5);
            let wall = median(true)
                .zip(median(false))
                .map(|(a, b)| a / b)
                .filter(|r| r.is_finite());
            // Put the costlier group first (by effort, else time): it is named first.
            let swap = match (eff, wall) {
                (Some(e), _) => e < 1.0,
                (None, Some(w)) => w < 1.0,
                _ => false,
            };
            let (a, b) = if swap { (gj, gi) } else { (gi, gj) };
            let inv = |r: Option<f64>| if swap { r.map(|r| 1.0 / r) } else { r };
            ratios.push(Ratio {
                dataset: gi.key.dataset.clone(),
                a: a.label.clone(),
                b: b.label.clone(),
                common,
                pairs: pairs.len(),
                metric: metric.filter(|_| eff.is_some()),
                effort_mean_ratio: inv(eff),
                wall_median_ratio: inv(wall),
            });
        }
    }
}

fn footnotes(groups: &[GroupSummary], limit: Option<f64>, note: Option<&str>) -> Vec<String> {
    let mut footnotes = vec![
        "p90: 90th percentile, linear interpolation between order statistics (type 7, as R and NumPy).".to_string(),
    ];
    if groups.iter().any(|g| g.effort.is_some()) {
        footnotes.push(
            "effort: each strategy's own unit (nodes, cycles, evaluations, or what an external solver declares), over solved runs only; ERT counts every run.".to_string(),
        );
    }
    if groups.iter().any(|g| g.portfolio.is_some()) {
        footnotes.push(
            "portfolio = solved if any colony solved, cost = fewest cycles among solving colonies."
                .to_string(),
        );
    }
    match limit {
        Some(t) => footnotes.push(format!(
            "PAR-2: mean of wall time if solved, else 2 x the time limit ({}).",
            fmt_secs(t)
        )),
        None => footnotes.push(format!(
            "PAR-2 omitted: {}.",
            note.unwrap_or("no time limit known (pass --time-limit SECS)")
        )),
    }
    footnotes
}

/// One `summary --by` table: `by[0]`'s values down, `by[1]`'s across (numbers in numeric
/// order, then words such as `adaptive` in text order), `-` where the grid has no point.
fn pivot_table(
    cells: &BTreeMap<(String, String), &GroupSummary>,
    by: &[String],
    metric: PivotMetric,
) -> Table {
    fn order(a: &String, b: &String) -> std::cmp::Ordering {
        match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => x.total_cmp(&y),
            (Ok(_), Err(_)) => std::cmp::Ordering::Less,
            (Err(_), Ok(_)) => std::cmp::Ordering::Greater,
            (Err(_), Err(_)) => a.cmp(b),
        }
    }
    let mut downs: Vec<String> = cells.keys().map(|k| k.0.clone()).collect();
    let mut acrosses: Vec<String> = cells.keys().map(|k| k.1.clone()).collect();
    for v in [&mut downs, &mut acrosses] {
        v.sort_by(order);
        v.dedup();
    }
    let mut t = Table::new(&[], 1);
    t.head = vec![by[0].clone()];
    t.head.extend(acrosses.iter().map(|a| match by.get(1) {
        Some(b) => format!("{b}={a}"),
        None => metric.column().to_string(),
    }));
    for d in &downs {
        let mut row = vec![d.clone()];
        for a in &acrosses {
            row.push(
                cells
                    .get(&(d.clone(), a.clone()))
                    .map_or("-".to_string(), |g| metric.cell(g)),
            );
        }
        t.row(row);
    }
    t
}

/// ERT in the effort unit for people: `15.2 nodes`, `∞` with no success, `-` with no counter.
fn ert_effort(e: &Ert) -> String {
    match (e.unit, e.effort) {
        (None, _) => "-".to_string(),
        (Some(_), None) => "∞".to_string(),
        (Some(u), Some(v)) => format!("{} {u}", opt_num(Some(v))),
    }
}

/// A number for CSV: empty when absent or not finite (never `NaN` or `inf`), else the shortest
/// text that reads back as the value rounded to 12 significant digits, so float noise such as
/// `14397.000000000002` (a sum of walls) prints as `14397`.
pub fn csv_num(v: Option<f64>) -> String {
    match v.filter(|v| v.is_finite()) {
        None => String::new(),
        Some(v) => format!("{}", super::denoise(v)),
    }
}

/// Left-align the first two columns (names), right-align the rest (numbers).
/// Whole numbers (medians of counts usually are) without decimals, others to 3 digits.
fn opt_num(v: Option<f64>) -> String {
    match v {
        // Values read from rows are finite, so an infinite sum (or mean) is an overflow.
        Some(v) if v.is_infinite() => "overflow".to_string(),
        Some(v) if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Some(v) => sig3(v),
        None => "-".to_string(),
    }
}

impl Summary {
    fn main_table(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let show_par2 = self.time_limit_s.is_some();
        let mut header: Vec<String> = [
            "dataset",
            "strategy",
            "runs",
            "solved",
            "Wilson 95%",
            "unsolved",
            "timeout",
            "error",
            "wrong",
            "effort",
            "mean",
            "median",
            "p90",
            "max",
            "ERT",
            "ERT time",
            "wall med",
            "wall p90",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        if show_par2 {
            header.push("PAR-2".to_string());
        }
        // Only runs with a memory limit have memouts; other tables keep their columns.
        let show_memout = self.groups.iter().any(|g| g.memout > 0);
        if show_memout {
            header.push("memout".to_string());
        }
        let rows = self
            .groups
            .iter()
            .map(|g| {
                let e = g.effort.as_ref();
                let mut r = vec![
                    g.key.dataset.clone(),
                    g.label.clone(),
                    g.runs.to_string(),
                    format!("{} ({:.1}%)", g.solved, g.solved_pct),
                    format!(
                        "[{}, {}]",
                        pct_bound(g.solved_lo_pct),
                        pct_bound(g.solved_hi_pct)
                    ),
                    g.unsolved.to_string(),
                    g.timeout.to_string(),
                    g.error.to_string(),
                    g.wrong.to_string(),
                    e.map_or("-".to_string(), |e| e.metric.to_string()),
                    opt_num(e.map(|e| e.mean)),
                    opt_num(e.map(|e| e.median)),
                    opt_num(e.map(|e| e.p90)),
                    opt_num(e.map(|e| e.max)),
                    ert_effort(&g.ert),
                    g.ert.seconds.map_or_else(|| "∞".to_string(), fmt_secs),
                    fmt_secs(g.wall_median_s),
                    fmt_secs(g.wall_p90_s),
                ];
                if show_par2 {
                    r.push(g.par2_s.map_or("-".to_string(), fmt_secs));
                }
                if show_memout {
                    r.push(g.memout.to_string());
                }
                r
            })
            .collect();
        (header, rows)
    }

    fn portfolio_table(&self) -> Option<(Vec<String>, Vec<Vec<String>>)> {
        let header: Vec<String> = [
            "dataset",
            "strategy",
            "colonies",
            "instances",
            "solved",
            "cycles med",
            "cycles p90",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let rows: Vec<Vec<String>> = self
            .groups
            .iter()
            .filter_map(|g| {
                g.portfolio.as_ref().map(|p| {
                    vec![
                        g.key.dataset.clone(),
                        g.label.clone(),
                        p.colonies.to_string(),
                        p.instances.to_string(),
                        format!("{} ({:.1}%)", p.solved, p.solved_pct),
                        opt_num(p.cycles_median),
                        opt_num(p.cycles_p90),
                    ]
                })
            })
            .collect();
        (!rows.is_empty()).then_some((header, rows))
    }

    /// Render in `format`. Text and markdown are for people (times with units, three
    /// significant digits); csv and json are for programs (raw seconds, stable names).
    pub fn render(&self, format: Format) -> String {
        match format {
            Format::Text => self.doc().text(),
            Format::Markdown => self.doc().markdown(),
            Format::Csv => self.render_csv(),
            Format::Json => super::to_json_pretty(self).unwrap_or_default() + "\n",
        }
    }

    /// Keep the `n` configurations that solved most runs (ties by key), in key order, with a
    /// note saying how many were left out: a compact table for a sweep of thousands.
    pub fn keep_top(&mut self, n: usize) {
        if self.groups.len() <= n {
            return;
        }
        let total = self.groups.len();
        let mut order: Vec<usize> = (0..total).collect();
        order.sort_by(|&a, &b| {
            let (ga, gb) = (&self.groups[a], &self.groups[b]);
            gb.solved.cmp(&ga.solved).then(ga.key.cmp(&gb.key))
        });
        let mut keep = vec![false; total];
        for &i in &order[..n] {
            keep[i] = true;
        }
        let mut i = 0;
        self.groups.retain(|_| {
            i += 1;
            keep[i - 1]
        });
        let kept: BTreeSet<(&str, &str)> = self
            .groups
            .iter()
            .map(|g| (g.key.dataset.as_str(), g.label.as_str()))
            .collect();
        self.ratios.retain(|r| {
            kept.contains(&(r.dataset.as_str(), r.a.as_str()))
                && kept.contains(&(r.dataset.as_str(), r.b.as_str()))
        });
        self.footnotes.push(format!(
            "{total} configurations: the table shows the {n} that solved most runs \
             (bench-report summary lists all)."
        ));
    }

    /// Add `summary --by` tables: for each dataset and strategy (and rules) whose
    /// configurations carry every parameter of `by` (one or two names), `metric` by the first
    /// parameter's values down and the second's across, values in numeric order where they
    /// are numbers. Errors: a name no configuration has, more than two names, or
    /// configurations that the named parameters do not tell apart (another parameter differs:
    /// name it too, or pick with `--where`).
    pub fn pivot_by(&mut self, by: &[String], metric: PivotMetric) -> Result<(), String> {
        if by.is_empty()
            || by.len() > 2
            || by[0].is_empty()
            || by.get(1).is_some_and(|b| b.is_empty() || *b == by[0])
        {
            return Err(format!(
                "--by {:?}: expected one or two distinct parameter names (e.g. colony_size,limit)",
                by.join(",")
            ));
        }
        type Cells<'a> = BTreeMap<(String, String), &'a GroupSummary>;
        let mut buckets: BTreeMap<(&str, &str, &str), Cells> = BTreeMap::new();
        let mut known: BTreeSet<&str> = BTreeSet::new();
        for g in &self.groups {
            let params = g.key.config.params.as_str();
            let value = |name: &str| {
                super::param_pairs(params).find_map(|(k, v)| (k == name).then(|| v.to_string()))
            };
            known.extend(super::param_pairs(params).map(|(k, _)| k));
            let Some(down) = value(&by[0]) else { continue };
            let across = match by.get(1) {
                Some(b) => match value(b) {
                    Some(v) => v,
                    None => continue,
                },
                None => String::new(),
            };
            let k = (
                g.key.dataset.as_str(),
                g.key.config.strategy.as_str(),
                g.key.config.rules.as_str(),
            );
            if let Some(other) = buckets.entry(k).or_default().insert((down, across), g) {
                return Err(format!(
                    "--by {}: {} on {} has configurations it does not tell apart ({} and {}): \
                     add the parameter that differs to --by or choose with --where",
                    by.join(","),
                    g.key.config.strategy,
                    g.key.dataset,
                    other.key.config.params.as_str(),
                    params
                ));
            }
        }
        if buckets.is_empty() {
            let names: Vec<&str> = known.into_iter().collect();
            return Err(format!(
                "--by {}: no configuration has {}; the params are {}",
                by.join(","),
                if by.len() == 1 {
                    "that parameter"
                } else {
                    "both parameters"
                },
                if names.is_empty() {
                    "empty".to_string()
                } else {
                    names.join(", ")
                }
            ));
        }
        for ((dataset, strategy, rules), cells) in buckets {
            let t = pivot_table(&cells, by, metric);
            let rules = if rules.is_empty() {
                String::new()
            } else {
                format!(" {rules}")
            };
            self.pivots.push((
                format!(
                    "{dataset} {strategy}{rules}: {} by {}",
                    metric.title(),
                    by.join(" and ")
                ),
                t,
            ));
        }
        Ok(())
    }

    /// The contradictions as warnings: up to [`claims::LISTED`], then how many more.
    pub fn contradiction_warnings(&self) -> Vec<String> {
        let c = &self.contradictions;
        let mut out: Vec<String> = c
            .iter()
            .take(claims::LISTED)
            .map(|c| c.describe())
            .collect();
        if c.len() > claims::LISTED {
            out.push(format!(
                "… and {} more contradictions (--format json lists all)",
                c.len() - claims::LISTED
            ));
        }
        out
    }

    /// The summary as a document (text, markdown and the HTML page render it).
    pub fn doc(&self) -> Doc {
        let mut d = Doc::default();
        for i in &self.incomplete {
            d.warning(i.describe());
        }
        for w in self.contradiction_warnings() {
            d.warning(w);
        }
        if let Some(f) = &self.filter {
            d.note(Inline::text("Rows: only those with ").code(f.as_str()));
        }
        let (h, r) = self.main_table();
        d.table(table(h, r));
        for (title, t) in &self.pivots {
            d.heading(3, title.as_str());
            d.table(t.clone());
        }
        if let Some((h, r)) = self.portfolio_table() {
            d.heading(3, "Portfolio over colonies");
            d.table(table(h, r));
        }
        self.detail_doc(&mut d);
        if !self.ratios.is_empty() {
            d.heading(
                3,
                "Ratios on the runs both solved (same puzzle, seed and colony)",
            );
            d.list(
                self.ratios
                    .iter()
                    .map(|r| Inline::text(format!("{}: {}", r.dataset, r.describe())))
                    .collect(),
            );
        }
        for f in &self.footnotes {
            d.note(f.as_str());
        }
        d
    }

    /// The optional parts: counters, best-of-K, convergence.
    fn detail_doc(&self, d: &mut Doc) {
        let names = |g: &GroupSummary| [g.key.dataset.clone(), g.label.clone()];
        let mut t = Table::new(
            &[
                "dataset", "strategy", "column", "runs", "zeros", "sum", "mean", "min", "p10",
                "median", "p90", "max",
            ],
            3,
        );
        for g in &self.groups {
            for (col, c) in g.counters.iter().flatten() {
                let mut row = names(g).to_vec();
                row.push((*col).to_string());
                row.push(c.runs.to_string());
                row.push(c.zeros.to_string());
                let nums = [c.sum, c.mean, c.min, c.p10, c.median, c.p90, c.max];
                row.extend(nums.iter().map(|&v| opt_num(Some(v))));
                t.row(row);
            }
        }
        if !t.rows.is_empty() {
            d.heading(3, "Counters (over the runs reporting each)");
            d.table(t);
        }
        let mut t = Table::new(
            &[
                "dataset", "strategy", "K", "blocks", "solved", "solved %", "ERT", "ERT time",
            ],
            2,
        );
        for g in &self.groups {
            for b in &g.best_of {
                let mut row = names(g).to_vec();
                row.extend([b.k.to_string(), b.blocks.to_string(), b.solved.to_string()]);
                row.push(format!("{:.1}%", b.solved_pct));
                row.push(match (b.unit, b.ert_effort) {
                    (Some(u), Some(e)) => format!("{} {u}", opt_num(Some(e))),
                    (Some(_), None) if b.solved == 0 => "∞".to_string(),
                    _ => "-".to_string(),
                });
                row.push(b.ert_s.map_or_else(|| "∞".to_string(), fmt_secs));
                t.row(row);
            }
        }
        if !t.rows.is_empty() {
            d.heading(
                3,
                "Best of K colonies (disjoint blocks of K colonies per puzzle and seed)",
            );
            d.table(t);
        }
        let mut t = Table::new(
            &[
                "dataset",
                "strategy",
                "cycle",
                "runs",
                "p10",
                "median",
                "p90",
                "unsolved",
                "unsolved median",
            ],
            2,
        );
        for c in &self.convergence {
            // A few cycles on a log scale, and the final state.
            let last = c.points.last().map_or(0, |p| p.cycle);
            let mut at: Vec<u64> = [0, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
                .into_iter()
                .filter(|&x| x < last)
                .collect();
            at.push(last);
            for x in at {
                let Some(p) = c.points.iter().take_while(|p| p.cycle <= x).last() else {
                    continue;
                };
                t.row(vec![
                    c.dataset.clone(),
                    format!("{} {{{}}}", c.strategy, c.params),
                    x.to_string(),
                    c.runs.to_string(),
                    opt_num(Some(p.p10)),
                    opt_num(Some(p.median)),
                    opt_num(Some(p.p90)),
                    p.unsolved.to_string(),
                    opt_num(p.unsolved_median),
                ]);
            }
        }
        if !t.rows.is_empty() {
            d.heading(3, "Convergence: best conflicts per cycle (--trace)");
            d.table(t);
        }
    }

    fn render_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(SUMMARY_CSV_COLUMNS);
        let num = csv_num;
        for g in &self.groups {
            let e = g.effort.as_ref();
            let p = g.portfolio.as_ref();
            let _ = w.write_record([
                g.key.dataset.clone(),
                g.key.kind.name().to_string(),
                g.key.config.strategy.clone(),
                g.key.config.rules.clone(),
                g.key.config.params.as_str().to_string(),
                g.runs.to_string(),
                g.solved.to_string(),
                num(Some(g.solved_pct)),
                g.unsolved.to_string(),
                g.timeout.to_string(),
                g.error.to_string(),
                g.wrong.to_string(),
                e.map(|e| e.metric.to_string()).unwrap_or_default(),
                e.map(|e| e.runs.to_string()).unwrap_or_default(),
                num(e.map(|e| e.mean)),
                num(e.map(|e| e.median)),
                num(e.map(|e| e.p90)),
                num(e.map(|e| e.max)),
                num(Some(g.wall_median_s)),
                num(Some(g.wall_p90_s)),
                num(g.par2_s),
                p.map(|p| p.colonies.to_string()).unwrap_or_default(),
                p.map(|p| p.instances.to_string()).unwrap_or_default(),
                p.map(|p| p.solved.to_string()).unwrap_or_default(),
                num(p.map(|p| p.solved_pct)),
                num(p.and_then(|p| p.cycles_median)),
                num(p.and_then(|p| p.cycles_p90)),
                num(Some(g.solved_lo_pct)),
                num(Some(g.solved_hi_pct)),
                g.ert.unit.map(str::to_string).unwrap_or_default(),
                num(g.ert.effort),
                num(g.ert.seconds),
                g.memout.to_string(),
            ]);
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }
}

/// Columns of [`Format::Csv`], in order. Stable: scripts may rely on them.
pub const SUMMARY_CSV_COLUMNS: [&str; 33] = [
    "dataset",
    "kind",
    "strategy",
    "rules",
    "params",
    "runs",
    "solved",
    "solved_pct",
    "unsolved",
    "timeout",
    "error",
    "wrong",
    "effort_metric",
    "effort_runs",
    "effort_mean",
    "effort_median",
    "effort_p90",
    "effort_max",
    "wall_median_s",
    "wall_p90_s",
    "par2_s",
    "portfolio_colonies",
    "portfolio_instances",
    "portfolio_solved",
    "portfolio_solved_pct",
    "portfolio_cycles_median",
    "portfolio_cycles_p90",
    "solved_lo_pct",
    "solved_hi_pct",
    "ert_unit",
    "ert_effort",
    "ert_s",
    "memout",
];

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn hitori_rows() -> Vec<Record> {
        let mut rows = Vec::new();
        for (i, (n, w)) in [(8, 0.1), (10, 0.2), (12, 0.3), (30, 0.4)]
            .iter()
            .enumerate()
        {
            let mut r = Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, *w);
            r.counters.nodes = Some(*n);
            rows.push(r);
        }
        for (i, (n, w)) in [(20, 0.5), (40, 0.6), (60, 0.7), (100, 0.8)]
            .iter()
            .enumerate()
        {
            let st = if i == 3 {
                Status::Timeout
            } else {
                Status::Solved
            };
            let mut r = Record::sample("h", "row", &format!("p{i}"), st, *w);
            r.counters.nodes = Some(*n);
            rows.push(r);
        }
        rows
    }

    fn abc_rows() -> Vec<Record> {
        // (puzzle, seed, colony, status, cycles)
        let spec = [
            ("s1", 0, 0, Status::Solved, 100),
            ("s1", 0, 1, Status::Solved, 50),
            ("s1", 1, 0, Status::Unsolved, 2000),
            ("s1", 1, 1, Status::Solved, 300),
            ("s2", 0, 0, Status::Unsolved, 2000),
            ("s2", 0, 1, Status::Unsolved, 2000),
            ("s2", 1, 0, Status::Solved, 10),
            ("s2", 1, 1, Status::Timeout, 700),
        ];
        spec.iter()
            .map(|&(p, seed, colony, st, c)| {
                let mut r = Record::sample("s", "abc", p, st, 0.01);
                r.seed = seed;
                r.colony = colony;
                r.counters.cycles = Some(c);
                r.params = crate::results::Params::from_cell("limit=50");
                r
            })
            .collect()
    }

    pub(crate) fn sweep_rows() -> Vec<Record> {
        // colony_size x limit, two puzzles; solved puzzles per point: 20/20 -> 1, 100/20 -> 2,
        // 20/adaptive -> 0, 100/adaptive -> 2.
        let mut rows = Vec::new();
        for (cs, limit, solved) in [
            ("100", "20", 2),
            ("20", "20", 1),
            ("20", "adaptive", 0),
            ("100", "adaptive", 2),
        ] {
            for p in 0..2 {
                let st = if p < solved {
                    Status::Solved
                } else {
                    Status::Unsolved
                };
                let mut r = Record::sample("s", "abc-hybrid", &format!("p{p}"), st, 0.01);
                r.counters.cycles = Some(100);
                r.params =
                    crate::results::Params::from_cell(&format!("colony_size={cs};limit={limit}"));
                rows.push(r);
            }
        }
        rows
    }

    #[test]
    fn pivot_by_two_parameters_orders_numbers_numerically_and_counts_solved_runs() {
        let opts = TimeLimit {
            secs: None,
            note: None,
        };
        let mut s = summarize(&sweep_rows(), &opts);
        s.pivot_by(&["colony_size".into(), "limit".into()], PivotMetric::Solved)
            .expect("pivot");
        assert_eq!(s.pivots.len(), 1);
        let (title, t) = &s.pivots[0];
        assert_eq!(title, "s abc-hybrid: solved runs by colony_size and limit");
        assert_eq!(t.head, ["colony_size", "limit=20", "limit=adaptive"]);
        assert_eq!(
            t.rows,
            [
                ["20", "1/2 (50.0%)", "0/2 (0.0%)"],
                ["100", "2/2 (100.0%)", "2/2 (100.0%)"],
            ]
        );
        let text = s.doc().text();
        assert!(
            text.contains("solved runs by colony_size and limit"),
            "{text}"
        );
        // ERT: every run's cycles over the successes (200 / 1 at 20 and 20; none at 20 and
        // adaptive).
        let mut s = summarize(&sweep_rows(), &opts);
        s.pivot_by(&["colony_size".into(), "limit".into()], PivotMetric::Ert)
            .expect("pivot");
        assert_eq!(s.pivots[0].0, "s abc-hybrid: ERT by colony_size and limit");
        assert_eq!(s.pivots[0].1.rows[0], ["20", "200 cycles", "∞"]);

        // One parameter where another also differs: the two limits are not told apart.
        let mut s = summarize(&sweep_rows(), &opts);
        let e = s
            .pivot_by(&["colony_size".into()], PivotMetric::Solved)
            .expect_err("ambiguous");
        assert!(
            e.contains("does not tell apart") && e.contains("limit=adaptive"),
            "{e}"
        );
        // Names no configuration has, too many, repeated.
        let e = s
            .pivot_by(&["nope".into()], PivotMetric::Solved)
            .expect_err("unknown");
        assert!(e.contains("colony_size, limit"), "{e}");
        for bad in [
            vec![],
            vec!["limit".to_string(), "limit".to_string()],
            vec!["a".into(), "b".into(), "c".into()],
        ] {
            assert!(s.pivot_by(&bad, PivotMetric::Solved).is_err(), "{bad:?}");
        }
        assert!(s.pivots.is_empty());
    }

    // Issue 36: a solve that ended after the limit counted as solved at its own time, so PAR-2
    // exceeded twice the limit.
    #[test]
    fn par2_counts_a_solve_after_the_limit_as_unsolved_at_it() {
        let rows: Vec<Record> = [0.2, 0.4, 3.0]
            .iter()
            .enumerate()
            .map(|(i, &w)| Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, w))
            .collect();
        let s = summarize(
            &rows,
            &TimeLimit {
                secs: Some(1.0),
                note: None,
            },
        );
        let par2 = s.groups[0].par2_s.expect("par2");
        assert!((par2 - (0.2 + 0.4 + 2.0) / 3.0).abs() < 1e-12, "{par2}");
    }

    #[test]
    fn hitori_groups_exact_numbers_and_ratio() {
        let s = summarize(
            &hitori_rows(),
            &TimeLimit {
                secs: Some(1.0),
                note: None,
            },
        );
        assert_eq!(s.groups.len(), 2);
        let mrv = &s.groups[0];
        assert_eq!(
            (mrv.label.as_str(), mrv.runs, mrv.solved),
            ("mrv basic", 4, 4)
        );
        let e = mrv.effort.as_ref().expect("nodes");
        assert_eq!(
            (e.metric, e.mean, e.median, e.max),
            ("nodes", 15.0, 11.0, 30.0)
        );
        assert!((e.p90 - 24.6).abs() < 1e-9);
        assert!((mrv.wall_median_s - 0.25).abs() < 1e-12);
        assert!((mrv.par2_s.expect("par2") - 0.25).abs() < 1e-12);
        let row = &s.groups[1];
        assert_eq!((row.solved, row.timeout), (3, 1));
        assert_eq!(row.solved_pct, 75.0);
        // Effort over the solved runs only (20, 40, 60): the timeout's 100 nodes are only
        // where its budget stopped it; ERT below counts them.
        let e = row.effort.as_ref().expect("nodes");
        assert_eq!((e.runs, e.mean, e.median), (3, 40.0, 40.0));
        assert!((e.p90 - 56.0).abs() < 1e-9);
        // 0.5 + 0.6 + 0.7 + 2 x 1.0 for the timeout, over 4 runs.
        assert!((row.par2_s.expect("par2") - 0.95).abs() < 1e-12);
        // Wilson 95% of 3/4 and 4/4 (scipy.stats.binomtest(k, 4).proportion_ci(method="wilson")).
        assert!(
            (row.solved_lo_pct - 30.0636).abs() < 1e-3,
            "{}",
            row.solved_lo_pct
        );
        assert!(
            (row.solved_hi_pct - 95.4405).abs() < 1e-3,
            "{}",
            row.solved_hi_pct
        );
        assert!(
            (mrv.solved_lo_pct - 51.0109).abs() < 1e-3,
            "{}",
            mrv.solved_lo_pct
        );
        assert_eq!(mrv.solved_hi_pct, 100.0);
        // ERT: all 220 nodes (the timeout's 100 too) and all 2.6 s over the 3 successes.
        assert_eq!(row.ert.unit, Some("nodes"));
        assert!((row.ert.effort.expect("ert") - 220.0 / 3.0).abs() < 1e-9);
        assert!((row.ert.seconds.expect("ert s") - 2.6 / 3.0).abs() < 1e-12);
        // Like with like: the ratio leaves out p3, which row did not solve (8, 10, 12 against
        // 20, 40, 60 nodes; walls 0.1-0.3 against 0.5-0.7).
        assert_eq!(s.ratios.len(), 1);
        assert_eq!((s.ratios[0].common, s.ratios[0].pairs), (4, 3));
        assert_eq!(
            s.ratios[0].describe(),
            "row basic needs ×4.0 the mean nodes of mrv basic; row basic takes ×3.0 the median \
             time of mrv basic, on the 3 of 4 common runs both solved"
        );
    }

    /// Issue 36: each ratio is said from the side that needs more, also when effort and time
    /// point different ways; never a bare ×0.29.
    #[test]
    fn each_ratio_names_the_side_that_needs_more() {
        let r = Ratio {
            dataset: "d".into(),
            a: "row".into(),
            b: "mrv".into(),
            common: 5,
            pairs: 4,
            metric: Some("nodes"),
            effort_mean_ratio: Some(3.4),
            wall_median_ratio: Some(0.25),
        };
        assert_eq!(
            r.describe(),
            "row needs ×3.4 the mean nodes of mrv; mrv takes ×4.0 the median time of row, on \
             the 4 of 5 common runs both solved"
        );
        let same = Ratio {
            wall_median_ratio: Some(0.98),
            ..r
        };
        assert!(
            same.describe().contains("; equal median time (×1.0),"),
            "{}",
            same.describe()
        );
    }

    /// The report: `abc / backtrack: wall x3501` when abc solved nothing.
    #[test]
    fn no_ratio_when_no_run_was_solved_by_both() {
        let mut rows: Vec<Record> = abc_rows()
            .into_iter()
            .map(|mut r| {
                r.status = Some(Status::Unsolved);
                r
            })
            .collect();
        for p in ["s1", "s2"] {
            for seed in 0..2 {
                let mut r = Record::sample("s", "backtrack", p, Status::Solved, 1e-5);
                r.seed = seed;
                r.counters.nodes = Some(3);
                rows.push(r);
            }
        }
        let s = summarize(&rows, &TimeLimit::default());
        assert_eq!(s.ratios.len(), 1);
        let r = &s.ratios[0];
        assert_eq!((r.common, r.pairs), (4, 0));
        assert_eq!((r.effort_mean_ratio, r.wall_median_ratio), (None, None));
        assert!(
            r.describe()
                .ends_with("no ratio, none of the 4 common runs was solved by both"),
            "{}",
            r.describe()
        );
        let abc = s
            .groups
            .iter()
            .find(|g| g.key.config.strategy == "abc")
            .expect("abc");
        assert_eq!(
            (abc.ert.unit, abc.ert.effort, abc.ert.seconds),
            (Some("cycles"), None, None)
        );
        assert!(s.render(Format::Text).contains("∞"));
        let csv = s.render(Format::Csv);
        assert!(!csv.contains("NaN") && !csv.contains("inf"), "{csv}");
    }

    #[test]
    fn memout_rows_are_counted_and_shown_only_where_there_are_some() {
        let plain = summarize(&hitori_rows(), &TimeLimit::default());
        assert!(plain.groups.iter().all(|g| g.memout == 0));
        let header = plain.render(Format::Text);
        assert!(
            !header.lines().next().unwrap_or("").contains("memout"),
            "{header}"
        );
        let mut rows = hitori_rows();
        for (i, st) in [Status::Memout, Status::Memout, Status::Solved]
            .iter()
            .enumerate()
        {
            let mut r = Record::sample("h", "big", &format!("p{i}"), *st, 0.5);
            r.counters.nodes = Some(1);
            rows.push(r);
        }
        let s = summarize(&rows, &TimeLimit::default());
        let big = s
            .groups
            .iter()
            .find(|g| g.key.config.strategy == "big")
            .expect("group");
        assert_eq!(
            (big.runs, big.solved, big.memout, big.timeout),
            (3, 1, 2, 0)
        );
        let text = s.render(Format::Text);
        let mut lines = text.lines();
        assert!(lines.next().unwrap_or("").ends_with("memout"), "{text}");
        assert!(
            text.lines()
                .any(|l| l.starts_with("h ") && l.contains("big") && l.ends_with(" 2")),
            "{text}"
        );
        let csv = s.render(Format::Csv);
        assert!(
            csv.lines()
                .any(|l| l.contains(",big,") && l.ends_with(",2")),
            "{csv}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&s.render(Format::Json)).expect("json parses");
        let g = json["groups"]
            .as_array()
            .and_then(|a| a.iter().find(|g| g["strategy"] == "big"))
            .expect("big in json");
        assert_eq!(g["memout"], 2);
    }

    #[test]
    fn csv_numbers_have_no_nan_and_no_float_noise() {
        assert_eq!(csv_num(Some(14397.000000000002)), "14397");
        assert_eq!(csv_num(Some(0.1 + 0.2)), "0.3");
        assert_eq!(csv_num(Some(0.000035302649999999986)), "0.00003530265");
        assert_eq!(csv_num(Some(-0.0)), "0");
        assert_eq!(csv_num(Some(2.5e-9)), "0.0000000025");
        for v in [None, Some(f64::NAN), Some(f64::INFINITY)] {
            assert_eq!(csv_num(v), "");
        }
        // Through a whole summary: walls whose sums and medians carry noise.
        let mut rows = Vec::new();
        for (i, w) in [0.1, 0.2, 14396.900000000001].iter().enumerate() {
            let mut r = Record::sample("h", "mrv", &format!("p{i}"), Status::Solved, *w);
            r.counters.nodes = Some(1);
            rows.push(r);
        }
        let csv = summarize(&rows, &TimeLimit::default()).render(Format::Csv);
        let line = csv.lines().nth(1).expect("row");
        assert!(!line.contains("NaN") && !line.contains("0000000"), "{line}");
        // ERT time: (0.1 + 0.2 + 14396.9) / 3 = 4799.0666...
        // ... and no memout (the last column).
        assert!(line.ends_with(",nodes,1,4799.06666667,0"), "{line}");
    }

    #[test]
    fn incomplete_inputs_and_counted_duplicates_are_shown() {
        let facts = Facts {
            files: vec![crate::report::input::RunFile {
                path: "run.csv.partial".into(),
                meta: None,
                incomplete: Some(("the journal of an unfinished run".into(), Some(80))),
            }],
            streamed: Streamed {
                rows_per_file: vec![8],
                repeats: 2,
                ..Streamed::default()
            },
            ..Facts::default()
        };
        let opts = TimeLimit::default();
        let s = summarize_rows(&hitori_rows(), Detail::default(), &opts, facts);
        let line = "INCOMPLETE input run.csv.partial (the journal of an unfinished run): 8 rows of 80 planned; the figures below cover only these rows";
        assert!(s.render(Format::Text).starts_with(line));
        assert!(s
            .render(Format::Markdown)
            .starts_with(&format!("> **{line}**")));
        let json: serde_json::Value = serde_json::from_str(&s.render(Format::Json)).expect("json");
        assert_eq!(json["incomplete"][0]["file"], "run.csv.partial");
        assert_eq!(json["incomplete"][0]["jobs"], 80);
        assert_eq!(json["duplicate_jobs"], 2);
        assert!(s
            .footnotes
            .iter()
            .any(|f| f.starts_with("2 rows repeat a job")));
    }

    #[test]
    fn abc_cycles_over_solved_and_portfolio() {
        let s = summarize(&abc_rows(), &TimeLimit::default());
        let g = &s.groups[0];
        let e = g.effort.as_ref().expect("cycles");
        assert_eq!(
            (e.metric, e.runs, e.mean, e.median, e.max),
            ("cycles", 4, 115.0, 75.0, 300.0)
        );
        assert!((e.p90 - 240.0).abs() < 1e-9);
        let p = g.portfolio.as_ref().expect("portfolio");
        assert_eq!((p.colonies, p.instances, p.solved), (2, 4, 3));
        assert_eq!(p.solved_pct, 75.0);
        assert_eq!(p.cycles_median, Some(50.0));
        assert!((p.cycles_p90.expect("p90") - 250.0).abs() < 1e-9);
        assert_eq!(g.par2_s, None);
        assert!(s
            .footnotes
            .iter()
            .any(|f| f.starts_with("PAR-2 omitted: no time limit known")));
    }

    #[test]
    fn detail_adds_counters_best_of_and_puzzles() {
        let detail = Detail {
            counters: true,
            best_of: vec![1, 2],
        };
        let opts = TimeLimit::default();
        let s = summarize_rows(&abc_rows(), detail, &opts, Facts::default());
        let g = &s.groups[0];
        assert_eq!((g.puzzles, g.puzzles_solved), (2, 2));
        let c = &g.counters.as_ref().expect("counters")["cycles"];
        // Every row's cycles, solved or not: 10 50 100 300 700 2000 2000 2000.
        assert_eq!((c.runs, c.sum, c.min, c.max), (8, 7160.0, 10.0, 2000.0));
        // Type 7: h = 7 * 0.5 = 3.5 -> 300 + 0.5 * 400; h = 0.7 -> 10 + 0.7 * 40.
        assert_eq!(c.median, 500.0);
        assert!((c.p10 - 38.0).abs() < 1e-9);
        // K = 1 is the group itself: ERT = all cycles / solved runs.
        let (one, two) = (&g.best_of[0], &g.best_of[1]);
        assert_eq!((one.k, one.blocks, one.solved), (1, 8, 4));
        assert_eq!(one.ert_effort, g.ert.effort);
        // Blocks of colonies {0, 1}: s1/0 best 50, s1/1 300, s2/0 unsolved (2000), s2/1 10.
        assert_eq!((two.blocks, two.solved, two.unit), (4, 3, Some("cycles")));
        assert!((two.ert_effort.expect("ert") - 2360.0 / 3.0).abs() < 1e-9);
        let text = s.render(Format::Text);
        assert!(text.contains("Best of K colonies"), "{text}");
        assert!(
            text.contains("Counters (over the runs reporting each):"),
            "{text}"
        );
        // Without the detail, none of it.
        let plain = summarize(&abc_rows(), &TimeLimit::default());
        assert!(plain.groups[0].counters.is_none() && plain.groups[0].best_of.is_empty());
    }

    /// Sorted key paths of a summary with every optional part (`--counters`, `--best-of`,
    /// `--where`, `--trace`), and the JSON itself.
    fn detail_json() -> (Vec<String>, serde_json::Value) {
        let detail = Detail {
            counters: true,
            best_of: vec![2],
        };
        let facts = Facts {
            filter: Some("status=solved".into()),
            ..Facts::default()
        };
        let mut s = summarize_rows(&abc_rows(), detail, &TimeLimit::default(), facts);
        let trace: &[(u64, u64)] = &[(0, 5), (3, 0)];
        s.convergence = vec![ConvergenceGroup {
            dataset: "s".into(),
            strategy: "abc".into(),
            params: "limit=50".into(),
            runs: 1,
            points: crate::report::describe::convergence(&[trace]),
        }];
        let v: serde_json::Value = serde_json::from_str(&s.render(Format::Json)).expect("json");
        let mut got = Vec::new();
        crate::report::json_key_paths(&v, "", &mut got);
        got.sort();
        (got, v)
    }

    /// The JSON keys are a documented interface (README "Reports", `summary`) that scripts
    /// read (`scripts/reproduce_table.py`); changing one must be deliberate.
    #[test]
    fn json_keys_are_stable() {
        let (got, v) = detail_json();
        let under = |p: &str| -> Vec<String> {
            got.iter()
                .filter_map(|k| k.strip_prefix(p))
                .filter(|k| !k.contains('.'))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(
            under(""),
            [
                "convergence",
                "duplicate_jobs",
                "filter",
                "footnotes",
                "groups",
                "incomplete",
                "ratios",
                "time_limit_s"
            ]
        );
        assert_eq!(
            under("groups[]."),
            [
                "best_of",
                "counters",
                "dataset",
                "effort",
                "error",
                "ert",
                "kind",
                "label",
                "memout",
                "par2_s",
                "params",
                "portfolio",
                "puzzles",
                "puzzles_solved",
                "rules",
                "runs",
                "solved",
                "solved_hi_pct",
                "solved_lo_pct",
                "solved_pct",
                "strategy",
                "timeout",
                "unsolved",
                "wall_median_s",
                "wall_p90_s",
                "wrong"
            ]
        );
        assert_eq!(
            under("groups[].best_of[]."),
            [
                "blocks",
                "ert_effort",
                "ert_s",
                "k",
                "solved",
                "solved_pct",
                "unit"
            ]
        );
        assert_eq!(under("groups[].counters."), ["cycles", "wall_s"]);
        assert_eq!(
            under("groups[].counters.cycles."),
            ["max", "mean", "median", "min", "p10", "p90", "runs", "sum", "zeros"]
        );
        assert_eq!(
            under("convergence[]."),
            ["dataset", "params", "points", "runs", "strategy"]
        );
        assert_eq!(
            under("convergence[].points[]."),
            [
                "cycle",
                "median",
                "p10",
                "p90",
                "unsolved",
                "unsolved_median",
                "unsolved_p10",
                "unsolved_p90"
            ]
        );
        assert_eq!(v["filter"], "status=solved");
    }

    #[test]
    fn ratios_pair_common_jobs_only() {
        // Without row's p3 the groups share 3 jobs, all solved by both.
        let mut rows = hitori_rows();
        rows.retain(|r| !(r.strategy == "row" && r.puzzle_id == "p3"));
        let s = summarize(&rows, &TimeLimit::default());
        assert_eq!((s.ratios[0].common, s.ratios[0].pairs), (3, 3));
        // Groups with no job in common (other puzzles) get no ratio at all.
        for r in rows.iter_mut().filter(|r| r.strategy == "row") {
            r.puzzle_id.push('x');
        }
        assert!(summarize(&rows, &TimeLimit::default()).ratios.is_empty());
    }

    #[test]
    fn renders_every_format() {
        let mut rows = hitori_rows();
        rows.extend(abc_rows());
        let s = summarize(
            &rows,
            &TimeLimit {
                secs: Some(1.0),
                note: None,
            },
        );
        let text = s.render(Format::Text);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("dataset  strategy"), "{text}");
        assert!(lines[0].contains("Wilson 95%") && lines[0].contains("ERT time"));
        assert!(lines[0].ends_with("PAR-2"));
        assert!(lines[1].starts_with("h        mrv basic"), "{text}");
        assert!(text.contains("Portfolio over colonies:"));
        assert!(text.contains(
            "h: row basic needs ×4.0 the mean nodes of mrv basic; row basic takes ×3.0 the median \
             time of mrv basic, on the 3 of 4 common runs both solved"
        ));
        let md = s.render(Format::Markdown);
        assert!(md.starts_with("| dataset | strategy | runs |"), "{md}");
        assert!(md.contains("| --- | --- | ---: |"));
        let csv = s.render(Format::Csv);
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some(SUMMARY_CSV_COLUMNS.join(",").as_str()));
        assert_eq!(
            lines.next(),
            Some("h,hitori,mrv,basic,,4,4,100,0,0,0,0,nodes,4,15,11,24.6,30,0.25,0.37,0.25,,,,,,,51.0109163545,100,nodes,15,0.25,0")
        );
        let json: serde_json::Value =
            serde_json::from_str(&s.render(Format::Json)).expect("json parses");
        assert_eq!(json["groups"][0]["strategy"], "mrv");
        assert_eq!(json["groups"][0]["effort"]["mean"], 15.0);
        assert_eq!(json["groups"][2]["portfolio"]["solved"], 3);
    }
}
