//! `bench-report ab`: two configurations compared on the same runs.
//!
//! A configuration is a (strategy, rules, params) triple; each side is chosen by a
//! [`Selector`] of `key=value` terms that must match exactly one configuration. Runs of the two
//! sides are paired on (dataset, puzzle_id, seed, colony), so every statistic is a paired
//! one; rows without a partner are counted and reported, never silently mixed in. Per dataset
//! and over all datasets together, [`ab`] reports success with Wilson intervals and McNemar's
//! exact test; effort and time on the pairs both sides solved (ratios of means and medians
//! with paired-bootstrap intervals, Wilcoxon signed-rank test, A12); ERT and PAR-k; and a
//! one-line verdict.
//!
//! Rows come in as the jobs of a [`RunTable`], paired by [`pair`], the one pairing every report
//! shares; a run's effort is its strategy's unit ([`crate::report::input::Efforts`]), and
//! `--metric` adds any counter, timing column or numeric `stats` key ([`crate::results::Record::metric`]).
//! The statistics themselves live in [`stats`] and [`inference`].

use crate::report::doc::{Doc, Inline, Table};
use crate::report::inference::{self, WilcoxonMethod};
use crate::report::input::RunFile;
use crate::report::stats::{self, Interval};
use crate::report::table::{pair, repeated, Group, Job, RunTable, TableSpec};
use crate::report::{fmt_secs, sig3, Config};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::{self, Write as _};
use std::str::FromStr;

/// Significance level behind the verdict's wording ("clear" differences).
pub const ALPHA: f64 = 0.05;

/// A problem that stops an A/B comparison. Each names what to fix.
#[derive(Debug, thiserror::Error)]
pub enum AbError {
    /// A results file or its sidecar could not be read.
    #[error(transparent)]
    Read(#[from] crate::results::ReadError),
    /// A selector key that is neither `strategy`, `rules` nor a parameter of any configuration.
    #[error("{side} {selector}: unknown key {key:?} (known keys: {known})")]
    UnknownKey {
        /// `--a` or `--b`.
        side: &'static str,
        /// The selector as given.
        selector: String,
        /// The unknown key.
        key: String,
        /// Keys that would be understood, comma-separated.
        known: String,
    },
    /// No configuration matches a selector.
    #[error("{side} {selector}: no configuration matches; the files hold:\n{available}")]
    NoMatch {
        /// `--a` or `--b`.
        side: &'static str,
        /// The selector as given.
        selector: String,
        /// Every configuration in the files, one per line.
        available: String,
    },
    /// More than one configuration matches a selector.
    #[error(
        "{side} {selector}: matches {count} configurations, add terms to pick one:\n{matching}"
    )]
    Ambiguous {
        /// `--a` or `--b`.
        side: &'static str,
        /// The selector as given.
        selector: String,
        /// How many match.
        count: usize,
        /// The matching configurations, one per line.
        matching: String,
    },
    /// Both selectors chose the same configuration.
    #[error("--a and --b both select {config}; nothing to compare")]
    SameConfig {
        /// The configuration.
        config: String,
    },
    /// One side has two rows for one pair key (e.g. a file given twice).
    #[error(
        "{side} ({config}) has more than one run of dataset {dataset}, puzzle {puzzle}, \
         seed {seed}, colony {colony} (was a file given twice?)"
    )]
    Duplicate {
        /// `--a` or `--b`.
        side: &'static str,
        /// The side's configuration.
        config: String,
        /// Dataset.
        dataset: String,
        /// Puzzle id.
        puzzle: String,
        /// Seed.
        seed: u64,
        /// Colony.
        colony: u32,
    },
    /// No run of A shares a pair key with a run of B.
    #[error(
        "no run of {a} shares (dataset, puzzle, seed, colony) with a run of {b} \
         ({a_rows} and {b_rows} rows)"
    )]
    NoPairs {
        /// A's configuration.
        a: String,
        /// B's configuration.
        b: String,
        /// Rows of A.
        a_rows: usize,
        /// Rows of B.
        b_rows: usize,
    },
    /// A `--metric` that no row of either side has.
    #[error("--metric {metric}: no run of either side has it; they have: {known}")]
    UnknownMetric {
        /// The metric as given.
        metric: String,
        /// The counters, timing columns and stats keys the sides' rows have.
        known: String,
    },
    /// `--a-label` and `--b-label` name the sides alike.
    #[error("both sides are labelled {0:?}; give --a-label and --b-label different names")]
    SameLabel(String),
    /// `--time-limit` is not a positive number.
    #[error("--time-limit must be a positive number of seconds, got {0}")]
    BadTimeLimit(f64),
}

/// The run-table columns `ab` reads beyond the fixed ones: the `--metric`s (wall time is
/// always there), and the metric names of the rows when there are `--metric`s to check.
pub fn table_spec(opts: &AbOptions) -> TableSpec {
    TableSpec {
        metrics: opts
            .metrics
            .iter()
            .copied()
            .filter(|m| *m != "wall_s")
            .collect(),
        names: !opts.metrics.is_empty(),
    }
}

/// Comma-separated `key=value` terms choosing one configuration: keys are `strategy`, `rules`
/// or any one key of the `params` column (e.g. `limit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    terms: Vec<(String, String)>,
}

impl FromStr for Selector {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let mut terms: Vec<(String, String)> = Vec::new();
        for term in s.split(',') {
            let Some((k, v)) = term.split_once('=') else {
                return Err(format!(
                    "{term:?} is not a key=value term (e.g. strategy=mrv,rules=basic)"
                ));
            };
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() {
                return Err(format!("{term:?} has an empty key"));
            }
            if terms.iter().any(|(seen, _)| seen == k) {
                return Err(format!("key {k:?} is given twice"));
            }
            terms.push((k.to_string(), v.to_string()));
        }
        Ok(Selector { terms })
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let terms: Vec<String> = self.terms.iter().map(|(k, v)| format!("{k}={v}")).collect();
        f.write_str(&terms.join(","))
    }
}

fn resolve(
    side: &'static str,
    sel: &Selector,
    configs: &BTreeSet<Config>,
) -> Result<Config, AbError> {
    let mut known: BTreeSet<&str> = ["strategy", "rules"].into_iter().collect();
    known.extend(
        configs
            .iter()
            .flat_map(|c| c.params.pairs().map(|(k, _)| k)),
    );
    if let Some((k, _)) = sel.terms.iter().find(|(k, _)| !known.contains(k.as_str())) {
        return Err(AbError::UnknownKey {
            side,
            selector: sel.to_string(),
            key: k.clone(),
            known: known.into_iter().collect::<Vec<_>>().join(", "),
        });
    }
    let matching: Vec<&Config> = configs
        .iter()
        .filter(|c| sel.terms.iter().all(|(k, v)| c.get(k) == Some(v.as_str())))
        .collect();
    let list = |cs: &mut dyn Iterator<Item = &Config>| {
        cs.map(|c| format!("  {c}")).collect::<Vec<_>>().join("\n")
    };
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(AbError::NoMatch {
            side,
            selector: sel.to_string(),
            available: list(&mut configs.iter()),
        }),
        many => Err(AbError::Ambiguous {
            side,
            selector: sel.to_string(),
            count: many.len(),
            matching: list(&mut many.iter().copied()),
        }),
    }
}

/// How to compare.
#[derive(Clone, Debug)]
pub struct AbOptions {
    /// Side A.
    pub a: Selector,
    /// Side B.
    pub b: Selector,
    /// Per-job time limit for PAR-k; `None` takes the metas' `timeout_s`.
    pub time_limit_s: Option<f64>,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// Names for the sides in tables and verdicts (`--a-label`, `--b-label`); by default the
    /// strategy, plus the rules and parameters that tell the sides apart.
    pub labels: (Option<String>, Option<String>),
    /// More metrics to compare (`--metric`): counters, timing columns or `stats` keys, after
    /// the sides' shared effort unit.
    pub metrics: Vec<&'static str>,
}

impl AbOptions {
    /// Compare `a` with `b`, the time limit from the metas, the project's bootstrap defaults.
    pub fn new(a: Selector, b: Selector) -> AbOptions {
        AbOptions {
            a,
            b,
            time_limit_s: None,
            resamples: stats::BOOTSTRAP_RESAMPLES,
            seed: stats::BOOTSTRAP_SEED,
            labels: (None, None),
            metrics: Vec::new(),
        }
    }
}

/// One side of the comparison as reported.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    /// Short name used in the text: the strategy, plus rules and parameters that differ
    /// between the sides.
    pub label: String,
    /// The selector as given.
    pub selector: String,
    /// Strategy.
    pub strategy: String,
    /// Rule set.
    pub rules: String,
    /// Parameters.
    pub params: String,
}

/// Successes of one side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    /// Runs solved.
    pub solved: u64,
    /// Runs.
    pub runs: u64,
    /// `solved / runs`.
    pub rate: f64,
    /// Wilson 95% interval, lower end.
    pub lo: f64,
    /// Wilson 95% interval, upper end.
    pub hi: f64,
}

/// Success of both sides on the pairs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Success {
    /// Side A.
    pub a: Proportion,
    /// Side B.
    pub b: Proportion,
    /// Pairs solved by both.
    pub both: u64,
    /// Pairs solved by A only.
    pub a_only: u64,
    /// Pairs solved by B only.
    pub b_only: u64,
    /// Pairs solved by neither.
    pub neither: u64,
    /// McNemar's exact test (two-sided) on `a_only` vs `b_only`.
    pub mcnemar_p: f64,
    /// `mcnemar_p` Holm-adjusted over the report's family of tests ([`adjust_holm`]): what
    /// the verdict judges.
    pub mcnemar_p_holm: f64,
}

/// One measure compared on the pairs both sides solved. Ratios are B over A.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The effort unit, a `--metric`, or `wall_s`.
    pub metric: &'static str,
    /// Pairs compared.
    pub pairs: usize,
    /// Mean of A.
    pub mean_a: f64,
    /// Mean of B.
    pub mean_b: f64,
    /// Median of A.
    pub median_a: f64,
    /// Median of B.
    pub median_b: f64,
    /// `mean_b / mean_a` with a paired-bootstrap 95% interval; `None` when `mean_a` is 0.
    pub ratio_of_means: Option<Interval>,
    /// `median_b / median_a`, likewise.
    pub ratio_of_medians: Option<Interval>,
    /// Wilcoxon signed-rank two-sided p-value; `None` when every pair is equal.
    pub wilcoxon_p: Option<f64>,
    /// `wilcoxon_p` Holm-adjusted over the report's family of tests ([`adjust_holm`]): what
    /// the verdict judges.
    pub wilcoxon_p_holm: Option<f64>,
    /// How the p-value was computed.
    pub wilcoxon_method: WilcoxonMethod,
    /// A12 of A against B: `P(A > B) + P(A = B) / 2`.
    pub a12: f64,
}

/// Expected running time of one side: total spent over all its runs per success.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ert {
    /// Effort unit (the strategy's, [`Efforts`](crate::report::input::Efforts)); `None` when the side has none.
    pub unit: Option<&'static str>,
    /// Total effort of all runs / successes; `None` with no success or no unit.
    pub effort: Option<f64>,
    /// Total wall seconds of all runs / successes; `None` with no success.
    pub seconds: Option<f64>,
}

/// A value per side.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PerSide {
    /// Side A.
    pub a: f64,
    /// Side B.
    pub b: f64,
}

/// The comparison on one dataset, or on all of them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Section {
    /// Dataset name; `None` for the overall section.
    pub dataset: Option<String>,
    /// The dataset hash both sides' metas agree on, where known.
    pub dataset_hash: Option<String>,
    /// Pairs (runs per side compared).
    pub pairs: usize,
    /// Rows of A with no partner in B, left out of every statistic.
    pub unpaired_a: usize,
    /// Rows of B with no partner in A, likewise.
    pub unpaired_b: usize,
    /// Success on the pairs.
    pub success: Success,
    /// Effort unit of A (its strategy's, [`Efforts`](crate::report::input::Efforts)).
    pub effort_unit_a: Option<&'static str>,
    /// Effort counter of B.
    pub effort_unit_b: Option<&'static str>,
    /// Each counter both sides report, then wall time, on the pairs both solved.
    pub comparisons: Vec<Comparison>,
    /// ERT of A over its paired runs.
    pub ert_a: Ert,
    /// ERT of B.
    pub ert_b: Ert,
    /// PAR-2 in seconds, where a time limit is known.
    pub par2_s: Option<PerSide>,
    /// PAR-10 in seconds, where a time limit is known.
    pub par10_s: Option<PerSide>,
    /// Remarks on what could not be computed and why.
    pub notes: Vec<String>,
    /// Which side is better on what, and how sure.
    pub verdict: String,
    /// Whether every pair both solved left A (B) nothing after presolve: "needed no cycles
    /// (presolve)" in the verdict.
    #[serde(skip)]
    presolved: (bool, bool),
}

/// The whole comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AbReport {
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Time limit used for PAR-k.
    pub time_limit_s: Option<f64>,
    /// Bootstrap resamples asked for.
    pub resamples: usize,
    /// Bootstrap seed.
    pub bootstrap_seed: u64,
    /// Remarks on the inputs (unchecked dataset contents, unknown time limit, datasets
    /// without pairs).
    pub notes: Vec<String>,
    /// One section per dataset with pairs, by name.
    pub datasets: Vec<Section>,
    /// All pairs together.
    pub overall: Section,
    /// How many tests the Holm adjustment was made over (each shown section's McNemar test
    /// and Wilcoxon tests), and what that family is.
    pub holm_tests: usize,
    /// The family in words: this comparison, or the page's A/B pairs.
    pub holm_family: String,
}

/// Output format of [`AbReport::render`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbFormat {
    /// Aligned text for the terminal.
    Text,
    /// GitHub-flavoured markdown.
    Markdown,
    /// JSON with the keys documented in the README.
    Json,
}

impl FromStr for AbFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "text" => Ok(AbFormat::Text),
            "markdown" => Ok(AbFormat::Markdown),
            "json" => Ok(AbFormat::Json),
            _ => Err(format!("{s:?}: expected text, markdown or json")),
        }
    }
}

/// One side's groups (one per dataset, in dataset order), refusing a job it holds twice
/// (`--allow-duplicates` let it through the input layer; a pair must be one run a side).
fn side_groups<'t>(
    side: &'static str,
    config: &Config,
    table: &'t RunTable,
) -> Result<Vec<&'t Group>, AbError> {
    let groups: Vec<&Group> = table
        .groups
        .iter()
        .filter(|g| g.key.config == *config)
        .collect();
    for g in &groups {
        if let Some(j) = repeated(g) {
            return Err(AbError::Duplicate {
                side,
                config: config.to_string(),
                dataset: g.key.dataset.clone(),
                puzzle: table.puzzle(j).to_string(),
                seed: j.seed,
                colony: j.colony,
            });
        }
    }
    Ok(groups)
}

/// Short labels: the strategy, plus the rules where they differ; the parameters that differ
/// only when strategy and rules do not tell the sides apart (the full configurations are
/// listed once above the tables).
fn side_labels(a: &Config, b: &Config) -> (String, String) {
    let label = |c: &Config, o: &Config| {
        let mut s = c.strategy.clone();
        if c.rules != o.rules && !c.rules.is_empty() {
            s.push(' ');
            s.push_str(&c.rules);
        }
        if c.strategy != o.strategy || c.rules != o.rules {
            return s;
        }
        for (k, v) in c.params.pairs() {
            if o.get(k) != Some(v) {
                let _ = write!(s, " {k}={v}");
            }
        }
        s
    };
    let (la, lb) = (label(a, b), label(b, a));
    if la == lb {
        // Only a parameter B lacks tells them apart: fall back to the full form.
        (a.to_string(), b.to_string())
    } else {
        (la, lb)
    }
}

/// The dataset hash behind each dataset, from the files' metas (the input layer has already
/// refused two files naming one dataset with different hashes). A file without a hash is
/// noted: its dataset's contents were not checked.
fn dataset_hashes<'t>(
    files: &[RunFile],
    files_of: &BTreeMap<&'t str, BTreeSet<usize>>,
    notes: &mut Vec<String>,
) -> BTreeMap<&'t str, Option<String>> {
    let mut hash_of: BTreeMap<&'t str, Option<String>> = BTreeMap::new();
    for (&dataset, of) in files_of {
        let mut hash = None;
        for f in of.iter().filter_map(|&i| files.get(i)) {
            match f.meta.as_ref().map(|m| m.fingerprint_of(dataset)) {
                Some(Some(h)) => hash = hash.or_else(|| Some(h.to_string())),
                has_meta => notes.push(format!(
                    "{}: {}; dataset contents not checked",
                    f.path.display(),
                    if has_meta.is_some() {
                        "its .meta.json has no dataset_hash"
                    } else {
                        "no .meta.json beside it"
                    }
                )),
            }
        }
        hash_of.insert(dataset, hash);
    }
    hash_of
}

/// The sides' names: the options' labels, else [`side_labels`]; never the same.
fn labels_for(opts: &AbOptions, a: &Config, b: &Config) -> Result<(String, String), AbError> {
    let (la, lb) = side_labels(a, b);
    let la = opts.labels.0.clone().unwrap_or(la);
    let lb = opts.labels.1.clone().unwrap_or(lb);
    if la == lb {
        return Err(AbError::SameLabel(la));
    }
    Ok((la, lb))
}

/// The time limit for PAR-k: `--time-limit`, else the input's agreed one, else a note why not.
fn time_limit(table: &RunTable, opts: &AbOptions, notes: &mut Vec<String>) -> Option<f64> {
    let tl = &table.facts.time_limit;
    let t = opts.time_limit_s.or(tl.secs);
    if t.is_none() {
        let why = tl.note.as_deref().unwrap_or("no time limit known");
        notes.push(format!("PAR-2 and PAR-10 omitted: {why}"));
    }
    t
}

/// The pairs of each dataset, in job order so the bootstrap does not depend on the order of
/// the files, and the runs of each side with no partner (datasets with any).
type ByDataset<'t> = (
    BTreeMap<&'t str, Vec<RowPair<'t>>>,
    BTreeMap<&'t str, (usize, usize)>,
);

fn pairs_by_dataset<'t>(
    table: &'t RunTable,
    a_groups: &[&'t Group],
    b_groups: &[&'t Group],
    datasets: &BTreeMap<&'t str, BTreeSet<usize>>,
) -> ByDataset<'t> {
    let mut by_dataset: BTreeMap<&str, Vec<RowPair>> = BTreeMap::new();
    let mut unpaired: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for &d in datasets.keys() {
        let ga = a_groups.iter().find(|g| g.key.dataset == d);
        let gb = b_groups.iter().find(|g| g.key.dataset == d);
        let (pairs, ua, ub) = match (ga, gb) {
            (Some(ga), Some(gb)) => {
                let p = pair(ga, gb);
                let run = |group: &'t Group, job: &'t Job| Run { table, group, job };
                let pairs = p.pairs.iter().map(|&(x, y)| (run(ga, x), run(gb, y)));
                let pairs: Vec<RowPair> = pairs.collect();
                (pairs, p.only_a, p.only_b)
            }
            (Some(g), None) => (Vec::new(), g.jobs.len(), 0),
            (None, Some(g)) => (Vec::new(), 0, g.jobs.len()),
            (None, None) => continue,
        };
        if ua + ub > 0 {
            unpaired.insert(d, (ua, ub));
        }
        if !pairs.is_empty() {
            by_dataset.insert(d, pairs);
        }
    }
    (by_dataset, unpaired)
}

/// Compare the configurations the options select, over every pair of runs, in a run table
/// read with at least [`table_spec`]'s columns.
pub fn ab(table: &RunTable, opts: &AbOptions) -> Result<AbReport, AbError> {
    if let Some(t) = opts.time_limit_s {
        if !(t.is_finite() && t > 0.0) {
            return Err(AbError::BadTimeLimit(t));
        }
    }
    let configs: BTreeSet<Config> = table.groups.iter().map(|g| g.key.config.clone()).collect();
    let ca = resolve("--a", &opts.a, &configs)?;
    let cb = resolve("--b", &opts.b, &configs)?;
    if ca == cb {
        return Err(AbError::SameConfig {
            config: ca.to_string(),
        });
    }
    let a_groups = side_groups("--a", &ca, table)?;
    let b_groups = side_groups("--b", &cb, table)?;
    check_metrics(
        table,
        &opts.metrics,
        a_groups.iter().chain(&b_groups).copied(),
    )?;
    let mut notes = Vec::new();

    // Files behind each dataset, for the contents check.
    let mut files_of: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
    for g in a_groups.iter().chain(&b_groups) {
        let e = files_of.entry(g.key.dataset.as_str()).or_default();
        e.extend(g.files.iter().copied());
    }
    let hash_of = dataset_hashes(&table.facts.files, &files_of, &mut notes);
    notes.dedup();
    let time_limit_s = time_limit(table, opts, &mut notes);

    let (by_dataset, unpaired) = pairs_by_dataset(table, &a_groups, &b_groups, &files_of);
    if by_dataset.is_empty() {
        let rows = |gs: &[&Group]| gs.iter().map(|g| g.jobs.len()).sum();
        return Err(AbError::NoPairs {
            a: ca.to_string(),
            b: cb.to_string(),
            a_rows: rows(&a_groups),
            b_rows: rows(&b_groups),
        });
    }
    for (d, (ua, ub)) in &unpaired {
        if !by_dataset.contains_key(d) {
            notes.push(format!(
                "dataset {d}: {ua} runs of A and {ub} of B, none paired; left out"
            ));
        }
    }

    let (la, lb) = labels_for(opts, &ca, &cb)?;
    let ctx = Ctx { time_limit_s, opts };
    let datasets: Vec<Section> = by_dataset
        .iter()
        .map(|(d, pairs)| {
            let (ua, ub) = unpaired.get(d).copied().unwrap_or_default();
            ctx.section(
                Some(d.to_string()),
                hash_of.get(d).cloned().flatten(),
                pairs,
                (ua, ub),
            )
        })
        .collect();
    let all: Vec<RowPair> = by_dataset.values().flatten().copied().collect();
    let (ua, ub) = unpaired
        .values()
        .fold((0, 0), |(x, y), (a, b)| (x + a, y + b));
    let overall = ctx.section(None, None, &all, (ua, ub));
    let side = |label: String, sel: &Selector, c: &Config| Side {
        label,
        selector: sel.to_string(),
        strategy: c.strategy.clone(),
        rules: c.rules.clone(),
        params: c.params.as_str().to_string(),
    };
    let mut report = AbReport {
        a: side(la.clone(), &opts.a, &ca),
        b: side(lb.clone(), &opts.b, &cb),
        time_limit_s,
        resamples: opts.resamples,
        bootstrap_seed: opts.seed,
        notes,
        datasets,
        overall,
        holm_tests: 0,
        holm_family: String::new(),
    };
    adjust_holm(std::slice::from_mut(&mut report), "this comparison");
    Ok(report)
}

impl AbReport {
    /// The sections a reader is shown, whose tests are the report's family: each dataset's,
    /// and all together when there are several (with one dataset, `overall` repeats it).
    fn shown_sections_mut(&mut self) -> impl Iterator<Item = &mut Section> {
        let several = self.datasets.len() > 1;
        self.datasets
            .iter_mut()
            .chain(std::iter::once(&mut self.overall).filter(move |_| several))
    }
}

/// Holm-adjust every test a family of reports makes and decide each verdict on the adjusted
/// p-values: a command (one `ab`: success and each measure, per dataset and over all) or a
/// page (every A/B pair the HTML page shows) that makes m tests calls a difference clear only
/// when it would survive m of them at [`ALPHA`] family-wise. The raw p-values are kept beside
/// the adjusted ones, so adjusting again over a larger family starts from them. `family`
/// names the family in the report's note ("this comparison", "the 6 A/B pairs of this page").
pub fn adjust_holm(reports: &mut [AbReport], family: &str) {
    let mut ps = Vec::new();
    for r in reports.iter_mut() {
        for s in r.shown_sections_mut() {
            ps.push(s.success.mcnemar_p);
            ps.extend(s.comparisons.iter().filter_map(|c| c.wilcoxon_p));
        }
    }
    let adjusted = inference::holm(&ps);
    let mut next = adjusted.iter().copied();
    for r in reports.iter_mut() {
        let (la, lb) = (r.a.label.clone(), r.b.label.clone());
        for s in r.shown_sections_mut() {
            s.success.mcnemar_p_holm = next.next().unwrap_or(s.success.mcnemar_p);
            for c in &mut s.comparisons {
                c.wilcoxon_p_holm = c.wilcoxon_p.map(|p| next.next().unwrap_or(p));
            }
            s.verdict = Words { la: &la, lb: &lb }.verdict(s);
        }
        if r.datasets.len() == 1 {
            // One dataset: the overall section is the same tests, judged the same way.
            let one = r.datasets[0].clone();
            r.overall.success.mcnemar_p_holm = one.success.mcnemar_p_holm;
            for (o, c) in r.overall.comparisons.iter_mut().zip(&one.comparisons) {
                o.wilcoxon_p_holm = c.wilcoxon_p_holm;
            }
            r.overall.verdict = one.verdict;
        }
        r.holm_tests = ps.len();
        r.holm_family = family.to_string();
    }
}

/// The side labels a verdict is written with.
struct Words<'a> {
    la: &'a str,
    lb: &'a str,
}

/// Refuse a `--metric` that no row has (a misspelt name would otherwise only leave a note).
fn check_metrics<'t>(
    table: &RunTable,
    metrics: &[&'static str],
    groups: impl Iterator<Item = &'t Group> + Clone,
) -> Result<(), AbError> {
    for m in metrics {
        if !groups.clone().any(|g| table.has_metric(g, m)) {
            let mut known: BTreeSet<&str> = ["wall_s"].into_iter().collect();
            known.extend(
                groups
                    .clone()
                    .flat_map(|g| g.names.iter().map(String::as_str)),
            );
            return Err(AbError::UnknownMetric {
                metric: m.to_string(),
                known: known.into_iter().collect::<Vec<_>>().join(", "),
            });
        }
    }
    Ok(())
}

/// One side's run of a pair: a job of the run table, with its group for the metrics.
#[derive(Clone, Copy)]
struct Run<'t> {
    table: &'t RunTable,
    group: &'t Group,
    job: &'t Job,
}

impl Run<'_> {
    fn metric(&self, m: &str) -> Option<f64> {
        self.table.metric(self.group, self.job, m)
    }

    fn solved(&self) -> bool {
        self.job.solved()
    }

    fn wall(&self) -> f64 {
        self.job.wall
    }
}

/// The runs of A and B on one (dataset, puzzle, seed, colony).
type RowPair<'t> = (Run<'t>, Run<'t>);

struct Ctx<'a> {
    time_limit_s: Option<f64>,
    opts: &'a AbOptions,
}

impl Ctx<'_> {
    fn section(
        &self,
        dataset: Option<String>,
        dataset_hash: Option<String>,
        pairs: &[RowPair],
        (unpaired_a, unpaired_b): (usize, usize),
    ) -> Section {
        let n = pairs.len() as u64;
        let count = |f: &dyn Fn(&RowPair) -> bool| pairs.iter().filter(|p| f(p)).count() as u64;
        let both = count(&|(a, b)| a.solved() && b.solved());
        let a_only = count(&|(a, b)| a.solved() && !b.solved());
        let b_only = count(&|(a, b)| !a.solved() && b.solved());
        let prop = |k: u64| {
            let (lo, hi) = inference::wilson(k, n).unwrap_or((f64::NAN, f64::NAN));
            Proportion {
                solved: k,
                runs: n,
                rate: k as f64 / n as f64,
                lo,
                hi,
            }
        };
        let success = Success {
            a: prop(both + a_only),
            b: prop(both + b_only),
            both,
            a_only,
            b_only,
            neither: n - both - a_only - b_only,
            mcnemar_p: inference::mcnemar_exact(a_only, b_only),
            mcnemar_p_holm: f64::NAN,
        };

        // A side's unit is its strategy's: the first of its rows that has one says it.
        let unit_a = pairs.iter().find_map(|p| p.0.group.strategy_unit);
        let unit_b = pairs.iter().find_map(|p| p.1.group.strategy_unit);
        let both_solved: Vec<&RowPair> = pairs
            .iter()
            .filter(|(a, b)| a.solved() && b.solved())
            .collect();
        let mut notes = Vec::new();
        let comparisons = self.comparisons(&both_solved, (unit_a, unit_b), &mut notes);
        let ert = |unit: Option<&'static str>, side_a: bool| {
            let runs = pairs.iter().map(|p| if side_a { p.0 } else { p.1 });
            let successes = runs.clone().filter(Run::solved).count();
            let per = |total: f64| (successes > 0).then(|| total / successes as f64);
            Ert {
                unit,
                effort: unit.and_then(|u| {
                    // A run without the counter (an error row) adds nothing.
                    per(runs.clone().filter_map(|r| r.metric(u)).sum())
                }),
                seconds: per(runs.clone().map(|r| r.wall()).sum()),
            }
        };
        let ert_a = ert(unit_a, true);
        let ert_b = ert(unit_b, false);
        let par = |k: f64| {
            let t = self.time_limit_s?;
            Some(PerSide {
                a: stats::par_k(pairs.iter().map(|p| (p.0.solved(), p.0.wall())), k, t)?,
                b: stats::par_k(pairs.iter().map(|p| (p.1.solved(), p.1.wall())), k, t)?,
            })
        };
        let mut s = Section {
            dataset,
            dataset_hash,
            pairs: pairs.len(),
            unpaired_a,
            unpaired_b,
            success,
            effort_unit_a: unit_a,
            effort_unit_b: unit_b,
            comparisons,
            ert_a,
            ert_b,
            par2_s: par(2.0),
            par10_s: par(10.0),
            notes,
            verdict: String::new(),
            presolved: (false, false),
        };
        // A side whose every solved pair had nothing left after presolve needed no search.
        let presolved = |side_a: bool| {
            both_solved.iter().all(|(a, b)| {
                let r = if side_a { a } else { b };
                r.job.presolved
            })
        };
        s.presolved = (presolved(true), presolved(false));
        s
    }

    /// The measures compared on the pairs both sides solved: the shared effort unit first
    /// (the verdict's), then each `--metric`, then wall time; what was not compared is noted.
    fn comparisons(
        &self,
        both_solved: &[&RowPair],
        (unit_a, unit_b): (Option<&'static str>, Option<&'static str>),
        notes: &mut Vec<String>,
    ) -> Vec<Comparison> {
        let mut comparisons = Vec::new();
        if both_solved.is_empty() {
            notes.push("no pair was solved by both sides: effort and time not compared".into());
            return comparisons;
        }
        let shared = unit_a.filter(|_| unit_a == unit_b);
        let mut metrics: Vec<&'static str> = shared.into_iter().collect();
        for m in &self.opts.metrics {
            if !metrics.contains(m) && *m != "wall_s" {
                metrics.push(m);
            }
        }
        for m in metrics {
            let missing = both_solved
                .iter()
                .filter(|(a, b)| a.metric(m).is_none() || b.metric(m).is_none())
                .count();
            if missing == 0 {
                comparisons.push(self.compare(m, both_solved));
            } else {
                notes.push(format!(
                    "{m}: missing on {missing} of the {} pairs both solved; not compared",
                    both_solved.len()
                ));
            }
        }
        if shared.is_none() {
            let show = |u: Option<&str>| u.unwrap_or("no counter").to_string();
            notes.push(format!(
                "different effort units (A counts {}, B counts {}): effort not compared{}",
                show(unit_a),
                show(unit_b),
                if comparisons.is_empty() {
                    " (compare a counter both report with --metric NAME)"
                } else {
                    ""
                }
            ));
        }
        comparisons.push(self.compare("wall_s", both_solved));
        comparisons
    }

    fn compare(&self, m: &'static str, pairs: &[&RowPair]) -> Comparison {
        let a: Vec<f64> = pairs.iter().filter_map(|p| p.0.metric(m)).collect();
        let b: Vec<f64> = pairs.iter().filter_map(|p| p.1.metric(m)).collect();
        let ratios = stats::bootstrap_paired_ratios(&a, &b, self.opts.resamples, self.opts.seed);
        let w = inference::wilcoxon(&a, &b);
        Comparison {
            metric: m,
            pairs: a.len(),
            mean_a: stats::mean(&a).unwrap_or(f64::NAN),
            mean_b: stats::mean(&b).unwrap_or(f64::NAN),
            median_a: stats::median(&a).unwrap_or(f64::NAN),
            median_b: stats::median(&b).unwrap_or(f64::NAN),
            ratio_of_means: ratios.and_then(|r| r.mean),
            ratio_of_medians: ratios.and_then(|r| r.median),
            wilcoxon_p: w.and_then(|w| w.p_value),
            wilcoxon_p_holm: None,
            wilcoxon_method: w.map_or(WilcoxonMethod::Exact, |w| w.method),
            a12: inference::a12(&a, &b).unwrap_or(f64::NAN),
        }
    }
}

impl Words<'_> {
    /// The section's verdict: success, then the effort counter, then time, each said from
    /// the side that needs more, judged on the Holm-adjusted p-values. A12 is the table's
    /// (of A against B).
    fn verdict(&self, s: &Section) -> String {
        let presolved = s.presolved;
        let (la, lb) = (self.la, self.lb);
        let sc = &s.success;
        let mut parts = Vec::new();
        parts.push(if sc.a_only == 0 && sc.b_only == 0 {
            if sc.both == s.pairs as u64 {
                format!("both solve all {}", s.pairs)
            } else {
                format!("both solve the same {} of {}", sc.both, s.pairs)
            }
        } else {
            let counts = format!(
                "{lb} {}, {la} {} of {}, McNemar {}",
                sc.b.solved,
                sc.a.solved,
                s.pairs,
                fmt_p_holm(sc.mcnemar_p, Some(sc.mcnemar_p_holm))
            );
            if sc.mcnemar_p_holm < ALPHA {
                let how = if sc.b.solved > sc.a.solved {
                    "more"
                } else {
                    "fewer"
                };
                format!("{lb} solves {how} than {la} ({counts})")
            } else {
                format!("no clear difference in success ({counts})")
            }
        });
        if s.comparisons.is_empty() {
            parts.push("no pair solved by both, so effort and time are not compared".into());
        } else if s.comparisons.len() == 1 {
            parts.push("different effort units, effort not compared".into());
        }
        // The effort (else the first `--metric`) and time.
        let first_effort = s.comparisons.iter().find(|c| c.metric != "wall_s");
        let time = s.comparisons.iter().find(|c| c.metric == "wall_s");
        for c in first_effort.into_iter().chain(time) {
            parts.push(self.clause(c, presolved));
        }
        parts.join("; ")
    }

    /// "row needs ×1.18 [1.12, 1.25] the mean nodes of mrv (Wilcoxon p < 1e-6, A12 0.38)",
    /// or "no clear difference in ...": the side that needs more, as a multiple of the other
    /// ([`stats::costlier`], whichever of A and B that is). A difference is
    /// clear when the Wilcoxon test rejects at [`ALPHA`] and the bootstrap interval of a ratio
    /// excludes 1: the ratio of means is preferred (it is what the total cost scales by), the
    /// ratio of medians is used when only it is clear (heavy tails, e.g. a few slow puzzles,
    /// widen the means' interval). A side that needed none of a counter is said in words.
    fn clause(&self, c: &Comparison, presolved: (bool, bool)) -> String {
        let (la, lb) = (self.la, self.lb);
        let noun = noun(c.metric);
        let verb = if c.metric == "wall_s" {
            "takes"
        } else {
            "needs"
        };
        let why = |p: bool| if p { " (presolve)" } else { "" };
        match (c.mean_a == 0.0, c.mean_b == 0.0) {
            (true, true) => {
                return format!(
                    "neither side needed any {noun} on the {} pairs both solved",
                    c.pairs
                )
            }
            (false, true) => {
                return format!(
                    "{lb} needed no {noun}{} on all {} pairs both solved ({la}: mean {})",
                    why(presolved.1),
                    c.pairs,
                    fmt_value(c.metric, c.mean_a)
                )
            }
            (true, false) => {
                return format!(
                    "{la} needed no {noun}{} on all {} pairs both solved ({lb}: mean {})",
                    why(presolved.0),
                    c.pairs,
                    fmt_value(c.metric, c.mean_b)
                )
            }
            (false, false) => {}
        }
        let (Some(raw), Some(p)) = (c.wilcoxon_p, c.wilcoxon_p_holm) else {
            return format!("the same {noun} on all {} pairs both solved", c.pairs);
        };
        let excludes_one = |r: &Option<Interval>| r.is_some_and(|r| r.lo > 1.0 || r.hi < 1.0);
        let (which, r) =
            if p < ALPHA && !excludes_one(&c.ratio_of_means) && excludes_one(&c.ratio_of_medians) {
                ("median", c.ratio_of_medians)
            } else {
                ("mean", c.ratio_of_means)
            };
        let stats = format!("Wilcoxon {}, A12 {:.2}", fmt_p_holm(raw, Some(p)), c.a12);
        let Some(r) = r else {
            return format!("no ratio of {which} {noun} ({stats})");
        };
        let clear = p < ALPHA && (r.lo > 1.0 || r.hi < 1.0);
        let (more, less, r) = stats::costlier(r, la, lb);
        let (f, lo, hi) = (sig3(r.value), sig3(r.lo), sig3(r.hi));
        if clear {
            format!("{more} {verb} ×{f} [{lo}, {hi}] the {which} {noun} of {less} ({stats})")
        } else {
            format!(
                "no clear difference in {noun} ({more} ×{f} [{lo}, {hi}] the {which} of {less}; \
                 {stats})"
            )
        }
    }
}

/// A raw p-value with its Holm-adjusted value beside it where the adjustment changed it:
/// `p = 0.02, Holm 0.04`.
fn fmt_p_holm(raw: f64, holm: Option<f64>) -> String {
    match holm {
        Some(h) if fmt_p(h) != fmt_p(raw) => {
            format!(
                "{}, Holm {}",
                fmt_p(raw),
                &fmt_p(h)["p ".len()..].trim_start_matches("= ")
            )
        }
        _ => fmt_p(raw),
    }
}

/// A p-value for people: two decimals down to 0.01, then three, then an exponent, and
/// `< 1e-6` below that (a bootstrap or approximation says nothing finer).
fn fmt_p(p: f64) -> String {
    if p < 1e-6 {
        "p < 1e-6".to_string()
    } else if p < 1e-3 {
        format!("p = {p:.1e}")
    } else if p < 0.01 {
        format!("p = {p:.3}")
    } else {
        format!("p = {p:.2}")
    }
}

/// A ratio `b / a` in the one convention: the side that needs more and its multiple of the
/// other, `row ×1.18 [1.12, 1.25]`.
fn fmt_interval(i: Option<Interval>, (la, lb): (&str, &str)) -> String {
    i.map_or("-".to_string(), |i| {
        let (more, _, i) = stats::costlier(i, la, lb);
        format!("{more} ×{} [{}, {}]", sig3(i.value), sig3(i.lo), sig3(i.hi))
    })
}

fn fmt_value(metric: &str, v: f64) -> String {
    if metric == "wall_s" {
        fmt_secs(v)
    } else {
        sig3(v)
    }
}

/// A ratio cell: the interval, or in words why there is none (a side that needed none of the
/// counter), never `×-`, `×0` or `×∞`.
fn ratio_cell(c: &Comparison, r: Option<Interval>, (la, lb): (&str, &str)) -> String {
    let noun = noun(c.metric);
    match (c.mean_a == 0.0, c.mean_b == 0.0) {
        (true, true) => format!("both: no {noun}"),
        (true, false) => format!("{la}: no {noun}"),
        (false, true) => format!("{lb}: no {noun}"),
        (false, false) => fmt_interval(r, (la, lb)),
    }
}

/// The word for a metric in sentences: the counter's name, `time` for wall time.
fn noun(metric: &str) -> &str {
    if metric == "wall_s" {
        "time"
    } else {
        metric
    }
}

impl AbReport {
    /// Render in `format`: text and markdown for people, JSON with stable keys.
    pub fn render(&self, format: AbFormat) -> String {
        match format {
            AbFormat::Text => self.doc().text(),
            AbFormat::Markdown => self.doc().markdown(),
            AbFormat::Json => super::to_json_pretty(self).unwrap_or_default() + "\n",
        }
    }

    /// The comparison as a document: the sides (each configuration listed once), a section
    /// per dataset (and all together), the notes.
    pub fn doc(&self) -> Doc {
        let mut d = Doc::default();
        let (la, lb) = (&self.a.label, &self.b.label);
        let cfg = |s: &Side| {
            Config {
                strategy: s.strategy.clone(),
                rules: s.rules.clone(),
                params: crate::results::Params::from_cell(&s.params),
            }
            .to_string()
        };
        d.heading(2, format!("A/B: {la} vs {lb}"));
        d.list(vec![
            Inline::text(format!("A = {la}: "))
                .code(cfg(&self.a))
                .plain(" (")
                .code(format!("--a {}", self.a.selector))
                .plain(")"),
            Inline::text(format!("B = {lb}: "))
                .code(cfg(&self.b))
                .plain(" (")
                .code(format!("--b {}", self.b.selector))
                .plain(")"),
        ]);
        let mut sections: Vec<&Section> = self.datasets.iter().collect();
        if self.datasets.len() > 1 {
            sections.push(&self.overall);
        }
        for s in sections {
            self.section_doc(&mut d, s);
        }
        for n in &self.notes {
            d.note(n.as_str());
        }
        d.note(format!(
            "Ratios are over the pairs both solved, said from the side that needs more (its \
             multiple of the other, at least ×1; JSON keeps B / A), with paired \
             percentile-bootstrap 95% intervals ({} resamples, seeded); success intervals are \
             Wilson 95%; A12 is \
             P({la} > {lb}) + ½P(=), in the table and in the verdict; the verdict calls a \
             difference clear when Wilcoxon p < {ALPHA} and the interval of the ratio of means \
             (else of medians) excludes 1.",
            self.resamples
        ));
        if self.holm_tests > 1 {
            d.note(format!(
                "Holm: {} tests are made by {} (McNemar and Wilcoxon, per dataset{}); each \
                 p-value is shown raw and Holm-adjusted, and \"clear\" is decided on the \
                 adjusted value, so that the chance of any false \"clear\" stays below {ALPHA}.",
                self.holm_tests,
                self.holm_family,
                if self.datasets.len() > 1 {
                    " and all together"
                } else {
                    ""
                }
            ));
        }
        d
    }

    fn section_doc(&self, d: &mut Doc, s: &Section) {
        let (la, lb) = (&self.a.label, &self.b.label);
        let name = s.dataset.clone().unwrap_or_else(|| "all datasets".into());
        let hash = s
            .dataset_hash
            .as_ref()
            .map_or(String::new(), |h| format!(", dataset hash {h}"));
        let unpaired = if s.unpaired_a + s.unpaired_b > 0 {
            format!(
                "; unpaired and left out: {} of {la}, {} of {lb}",
                s.unpaired_a, s.unpaired_b
            )
        } else {
            String::new()
        };
        d.heading(3, name);
        d.para(format!("{} pairs{hash}{unpaired}", s.pairs));
        d.para(Inline::text("Verdict: ").strong(s.verdict.as_str()));
        let sc = &s.success;
        let prop = |p: &Proportion| {
            format!(
                "{}/{} ({:.1}% [{}, {}])",
                p.solved,
                p.runs,
                100.0 * p.rate,
                crate::report::pct_bound(100.0 * p.lo),
                crate::report::pct_bound(100.0 * p.hi)
            )
        };
        let ert = |e: &Ert| {
            let eff = match (e.effort, e.unit) {
                (Some(v), Some(u)) => format!("{} {u}", sig3(v)),
                _ => "-".into(),
            };
            (eff, e.seconds.map_or("-".into(), fmt_secs))
        };
        let par = |p: Option<PerSide>, a: bool| {
            p.map_or("-".into(), |p| fmt_secs(if a { p.a } else { p.b }))
        };
        let mut t = Table::new(
            &[
                "side",
                "solved (Wilson 95%)",
                "ERT effort",
                "ERT time",
                "PAR-2",
                "PAR-10",
            ],
            1,
        );
        for (label, p, e, a) in [(la, &sc.a, &s.ert_a, true), (lb, &sc.b, &s.ert_b, false)] {
            let (eff, secs) = ert(e);
            t.row(vec![
                label.to_string(),
                prop(p),
                eff,
                secs,
                par(s.par2_s, a),
                par(s.par10_s, a),
            ]);
        }
        d.table(t);
        d.para(format!(
            "McNemar exact {}: solved by {la} only {}, by {lb} only {}, both {}, neither {}",
            fmt_p_holm(sc.mcnemar_p, Some(sc.mcnemar_p_holm)),
            sc.a_only,
            sc.b_only,
            sc.both,
            sc.neither
        ));
        self.comparisons_doc(d, s);
        for n in &s.notes {
            d.note(format!("note: {n}"));
        }
    }

    /// The per-metric comparison table of a section, over the pairs both sides solved.
    fn comparisons_doc(&self, d: &mut Doc, s: &Section) {
        let (la, lb) = (self.a.label.as_str(), self.b.label.as_str());
        let Some(first) = s.comparisons.first() else {
            return;
        };
        d.para(format!(
            "On the {} pairs both solved (a ratio names the side that needs more):",
            first.pairs
        ));
        let (mean_a, mean_b) = (format!("mean {la}"), format!("mean {lb}"));
        let (med_a, med_b) = (format!("median {la}"), format!("median {lb}"));
        let mut t = Table::new(
            &[
                "metric",
                &mean_a,
                &mean_b,
                "ratio of means",
                &med_a,
                &med_b,
                "ratio of medians",
                "Wilcoxon",
                "Holm",
                "A12",
            ],
            1,
        );
        for c in &s.comparisons {
            t.row(vec![
                c.metric.to_string(),
                fmt_value(c.metric, c.mean_a),
                fmt_value(c.metric, c.mean_b),
                ratio_cell(c, c.ratio_of_means, (la, lb)),
                fmt_value(c.metric, c.median_a),
                fmt_value(c.metric, c.median_b),
                ratio_cell(c, c.ratio_of_medians, (la, lb)),
                c.wilcoxon_p.map_or("-".into(), |p| {
                    format!("{} ({})", fmt_p(p), c.wilcoxon_method.as_str())
                }),
                c.wilcoxon_p_holm.map_or("-".into(), fmt_p),
                format!("{:.3}", c.a12),
            ]);
        }
        d.table(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::input::{Efforts, TimeLimit};
    use crate::report::table::{Facts, TableBuilder};
    use crate::results::{Params, Record, Status};

    /// Rows held in memory with the facts of their files: built into a run table for each
    /// comparison, with the columns its options ask for.
    #[derive(Clone, Debug, Default)]
    struct AbInput {
        rows: Vec<Record>,
        file_of: Vec<usize>,
        files: Vec<RunFile>,
        time_limit: TimeLimit,
        efforts: Efforts,
    }

    impl AbInput {
        fn table(&self, opts: &AbOptions) -> RunTable {
            let tl = self.time_limit.secs;
            let mut b = TableBuilder::new(table_spec(opts), self.efforts.clone(), tl);
            for (r, &f) in self.rows.iter().zip(&self.file_of) {
                b.add(r, f);
            }
            b.finish(Facts {
                files: self.files.clone(),
                time_limit: self.time_limit.clone(),
                efforts: self.efforts.clone(),
                ..Facts::default()
            })
        }
    }

    fn ab(input: &AbInput, opts: &AbOptions) -> Result<AbReport, AbError> {
        super::ab(&input.table(opts), opts)
    }

    fn sel(s: &str) -> Selector {
        s.parse().expect("valid selector")
    }

    /// A row of `strategy` on dataset `d`, solved or not, with `wall_s`.
    fn rec(dataset: &str, strategy: &str, puzzle: u32, solved: bool, wall_s: f64) -> Record {
        let status = if solved {
            Status::Solved
        } else {
            Status::Unsolved
        };
        Record::sample(dataset, strategy, &format!("p{puzzle}"), status, wall_s)
    }

    /// A Hitori-like row: nodes counted, solved or not.
    fn row(strategy: &str, puzzle: u32, solved: bool, nodes: u64, wall_s: f64) -> Record {
        let mut r = rec("d", strategy, puzzle, solved, wall_s);
        r.params = Params::from_cell("max_solutions=1");
        r.counters.nodes = Some(nodes);
        r
    }

    fn one_file(rows: Vec<Record>, hash: Option<&str>, timeout_s: Option<f64>) -> AbInput {
        AbInput {
            file_of: vec![0; rows.len()],
            files: vec![RunFile {
                path: "r.csv".into(),
                meta: Some(crate::results::RunMeta {
                    dataset_hash: hash.map(String::from),
                    ..Default::default()
                }),
                incomplete: None,
            }],
            rows,
            time_limit: TimeLimit {
                secs: timeout_s,
                note: timeout_s
                    .is_none()
                    .then(|| "the run had no --timeout".to_string()),
            },
            efforts: Efforts::default(),
        }
    }

    fn run(input: &AbInput, a: &str, b: &str) -> Result<AbReport, AbError> {
        ab(input, &AbOptions::new(sel(a), sel(b)))
    }

    /// Six pairs: mrv solves 1-5, row solves 1-3 and 6; row needs more nodes. One extra row
    /// of row (puzzle 7) has no mrv partner.
    fn mixed() -> AbInput {
        let mut rows = Vec::new();
        for i in 1..=6u32 {
            let n = u64::from(i) * 10;
            rows.push(row("mrv", i, i <= 5, n, 0.001 * f64::from(i)));
            rows.push(row("row", i, i <= 3 || i == 6, n * 2, 0.003 * f64::from(i)));
        }
        rows.push(row("row", 7, true, 5, 0.01));
        one_file(rows, Some("h1"), Some(1.0))
    }

    /// Issue 36 item 8: a report that makes several tests decides "clear" on Holm-adjusted
    /// p-values, shown beside the raw ones; a page of many pairs adjusts over all of them.
    #[test]
    fn clear_is_decided_on_holm_adjusted_p_values() {
        // Ten pairs, row needing twice mrv's nodes and time on each: exact Wilcoxon p = 2/1024.
        let mut rows = Vec::new();
        for i in 1..=10u32 {
            let n = u64::from(i) * 10;
            rows.push(row("mrv", i, true, n, 0.001 * f64::from(i)));
            rows.push(row("row", i, true, n * 2, 0.002 * f64::from(i)));
        }
        let input = one_file(rows, None, None);
        let r = run(&input, "strategy=mrv", "strategy=row").expect("ok");
        // One dataset: McNemar and the two Wilcoxon tests (nodes, time).
        assert_eq!(r.holm_tests, 3);
        let nodes = &r.overall.comparisons[0];
        let raw = nodes.wilcoxon_p.expect("p");
        assert!((raw - 2.0 / 1024.0).abs() < 1e-12, "{raw}");
        // Tied with time's p, the smaller of the two is multiplied by 3 and the other kept
        // at least as large: both 3 × raw.
        assert!((nodes.wilcoxon_p_holm.expect("holm") - 3.0 * raw).abs() < 1e-12);
        assert_eq!(r.overall.success.mcnemar_p_holm, 1.0);
        let v = &r.overall.verdict;
        assert!(
            v.contains("row needs ×2.00 [2.00, 2.00] the mean nodes of mrv"),
            "{v}"
        );
        assert!(v.contains("Wilcoxon p = 0.002, Holm 0.006"), "{v}");
        let text = r.render(AbFormat::Text);
        assert!(
            text.contains("Holm: 3 tests are made by this comparison"),
            "{text}"
        );

        // The same pair twenty times on one page: 60 tests, raw 0.002 adjusted to 0.12 (no
        // longer clear), the raw value still shown.
        let mut page = vec![r.clone(); 20];
        adjust_holm(&mut page, "the 20 A/B pairs of this page");
        let p0 = &page[0];
        assert_eq!(p0.holm_tests, 60);
        let c = &p0.overall.comparisons[0];
        assert_eq!(c.wilcoxon_p, nodes.wilcoxon_p);
        assert!(c.wilcoxon_p_holm.expect("holm") > ALPHA);
        assert!(
            p0.overall
                .verdict
                .contains("no clear difference in nodes (row ×2.00 [2.00, 2.00] the mean of mrv; Wilcoxon p = 0.002, Holm 0.12"),
            "{}",
            p0.overall.verdict
        );
        assert!(p0
            .render(AbFormat::Text)
            .contains("Holm: 60 tests are made by the 20 A/B pairs of this page"));
        // Adjusting again starts from the raw p-values: the standalone report is unchanged.
        let mut again = vec![p0.clone()];
        adjust_holm(&mut again, "this comparison");
        assert_eq!(again[0], r);
    }

    #[test]
    fn a_side_that_needed_no_cycles_is_said_in_words_and_the_slower_side_is_named() {
        let mut rows = Vec::new();
        for i in 1..=8u32 {
            let mut a = rec("s", "abc", i, true, 0.001 * f64::from(i));
            a.counters.cycles = Some(100 * u64::from(i));
            rows.push(a);
            let mut b = rec("s", "abc-hybrid", i, true, 0.0001);
            b.counters.cycles = Some(0);
            b.counters.empties_after_presolve = Some(0);
            rows.push(b);
        }
        let r = run(
            &one_file(rows, None, None),
            "strategy=abc",
            "strategy=abc-hybrid",
        )
        .expect("ok");
        let v = &r.overall.verdict;
        assert!(
            v.contains("abc-hybrid needed no cycles (presolve) on all 8 pairs both solved"),
            "{v}"
        );
        // B (abc-hybrid) is the faster side: the ratio is said from A, above 1, never as
        // B's ×0.0… of A.
        let said = v
            .split("abc takes ×")
            .nth(1)
            .expect("abc named as the slower side");
        let k: f64 = said
            .split_whitespace()
            .next()
            .and_then(|k| k.parse().ok())
            .expect("a factor");
        assert!(k > 1.0, "{v}");
        assert!(!v.contains("abc-hybrid takes ×0"), "{v}");
        for bad in ["×-", "×0 ", "×∞", "×inf", "NaN"] {
            let text = r.render(AbFormat::Text);
            assert!(!text.contains(bad), "{bad} in {text}");
        }
        let text = r.render(AbFormat::Text);
        assert!(text.contains("abc-hybrid: no cycles"), "{text}");
        // The A12 in the verdict is the table's.
        let time = r.overall.comparisons.iter().find(|c| c.metric == "wall_s");
        let a12 = format!("A12 {:.2}", time.expect("time compared").a12);
        assert!(v.contains(&a12), "{a12} in {v}");
    }

    #[test]
    fn labels_name_the_sides_everywhere() {
        let mut opts = AbOptions::new(sel("strategy=mrv"), sel("strategy=row"));
        opts.labels = (Some("old".into()), Some("new".into()));
        let r = ab(&mixed(), &opts).expect("ok");
        let text = r.render(AbFormat::Text);
        assert!(text.contains("A/B: old vs new"), "{text}");
        let v = &r.overall.verdict;
        assert!(
            v.contains("(new 4, old 5 of 6") && v.contains("the mean of old"),
            "{v}"
        );
        opts.labels = (Some("x".into()), Some("x".into()));
        assert!(matches!(ab(&mixed(), &opts), Err(AbError::SameLabel(_))));
    }

    #[test]
    fn selectors_parse_and_refuse_malformed_terms() {
        let s = sel("strategy=mrv, rules=basic");
        assert_eq!(s.to_string(), "strategy=mrv,rules=basic");
        assert!("mrv"
            .parse::<Selector>()
            .is_err_and(|e| e.contains("key=value")));
        assert!("=mrv"
            .parse::<Selector>()
            .is_err_and(|e| e.contains("empty key")));
        assert!("limit=1,limit=2"
            .parse::<Selector>()
            .is_err_and(|e| e.contains("twice")));
    }

    fn abc(limit: &str, neighbourhood: &str, puzzle: u32) -> Record {
        let mut r = rec("s", "abc", puzzle, true, 0.01);
        r.params = Params::from_cell(&format!(
            "colony_size=100;limit={limit};neighbourhood={neighbourhood}"
        ));
        r.counters.cycles = Some(100 + u64::from(puzzle));
        r
    }

    fn abc_rows() -> AbInput {
        let mut rows = Vec::new();
        for p in 1..=3 {
            rows.push(abc("50", "box", p));
            rows.push(abc("50", "cross-box", p));
            rows.push(abc("adaptive", "box", p));
        }
        one_file(rows, Some("h"), None)
    }

    #[test]
    fn unknown_selector_key_is_refused_with_the_known_keys() {
        let e = run(&abc_rows(), "colour=red", "limit=adaptive").expect_err("unknown key");
        assert!(matches!(&e, AbError::UnknownKey { key, side: "--a", .. } if key == "colour"));
        assert!(
            e.to_string()
                .contains("known keys: colony_size, limit, neighbourhood, rules, strategy"),
            "{e}"
        );
    }

    #[test]
    fn ambiguous_selector_lists_the_matching_configurations() {
        let e = run(&abc_rows(), "limit=adaptive", "limit=50").expect_err("ambiguous");
        let msg = e.to_string();
        assert!(
            matches!(
                e,
                AbError::Ambiguous {
                    count: 2,
                    side: "--b",
                    ..
                }
            ),
            "{msg}"
        );
        assert!(
            msg.contains("abc colony_size=100;limit=50;neighbourhood=box"),
            "{msg}"
        );
        assert!(
            msg.contains("abc colony_size=100;limit=50;neighbourhood=cross-box"),
            "{msg}"
        );
        assert!(
            !msg.contains("limit=adaptive;"),
            "only the matching ones: {msg}"
        );
        // One more term picks one; labels then name only what differs.
        let r = run(&abc_rows(), "limit=adaptive", "limit=50,neighbourhood=box").expect("ok");
        assert_eq!(
            (r.a.label.as_str(), r.b.label.as_str()),
            ("abc limit=adaptive", "abc limit=50")
        );
        assert_eq!(r.overall.effort_unit_a, Some("cycles"));
        assert_eq!(r.overall.comparisons[0].metric, "cycles");
    }

    #[test]
    fn selector_matching_nothing_lists_what_there_is() {
        let e = run(&mixed(), "strategy=dfs", "strategy=row").expect_err("no match");
        let msg = e.to_string();
        assert!(matches!(e, AbError::NoMatch { .. }));
        assert!(msg.contains("mrv [basic] max_solutions=1"), "{msg}");
        assert!(msg.contains("row [basic] max_solutions=1"), "{msg}");
        let e = run(&mixed(), "strategy=mrv", "rules=basic,strategy=mrv").expect_err("same");
        assert!(matches!(e, AbError::SameConfig { .. }), "{e}");
    }

    #[test]
    fn dataset_hashes_are_reported_and_a_file_without_one_is_noted() {
        // (Two files naming one dataset with different hashes are refused by the input
        // layer: report::input::tests.)
        let mut input = mixed();
        input.files.push(RunFile {
            path: "other.csv".into(),
            meta: None,
            incomplete: None,
        });
        let r = run(&input, "strategy=mrv", "strategy=row").expect("one file");
        assert_eq!(r.datasets[0].dataset_hash.as_deref(), Some("h1"));
        assert!(r.notes.is_empty(), "{:?}", r.notes);
        // B's rows from the file without a meta: compared, with a note that the contents
        // were not checked.
        for (r, f) in input.rows.iter().zip(input.file_of.iter_mut()) {
            if r.strategy == "row" {
                *f = 1;
            }
        }
        let r = run(&input, "strategy=mrv", "strategy=row").expect("unchecked");
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("other.csv: no .meta.json")),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn duplicate_runs_on_one_side_are_refused() {
        let mut input = mixed();
        input.rows.push(row("mrv", 2, true, 1, 0.1));
        input.file_of.push(0);
        let e = run(&input, "strategy=mrv", "strategy=row").expect_err("duplicate");
        assert!(e.to_string().contains("puzzle p2, seed 0, colony 0"), "{e}");
    }

    #[test]
    fn counts_tests_ert_and_par_on_the_pairs() {
        let r = run(&mixed(), "strategy=mrv", "strategy=row").expect("ok");
        assert_eq!(r.datasets.len(), 1);
        let s = &r.datasets[0];
        assert_eq!(s.overall_eq(&r.overall), ());
        assert_eq!((s.pairs, s.unpaired_a, s.unpaired_b), (6, 0, 1));
        let sc = &s.success;
        assert_eq!((sc.a.solved, sc.b.solved, sc.a.runs), (5, 4, 6));
        assert_eq!((sc.both, sc.a_only, sc.b_only, sc.neither), (3, 2, 1, 0));
        assert_eq!(sc.mcnemar_p, inference::mcnemar_exact(2, 1));
        assert_eq!(Some((sc.a.lo, sc.a.hi)), inference::wilson(5, 6));
        // Both solved puzzles 1-3: nodes 10, 20, 30 against 20, 40, 60.
        let nodes = &s.comparisons[0];
        assert_eq!((nodes.metric, nodes.pairs), ("nodes", 3));
        assert_eq!((nodes.mean_a, nodes.mean_b), (20.0, 40.0));
        let m = nodes.ratio_of_means.expect("ratio");
        assert_eq!((m.value, m.lo, m.hi), (2.0, 2.0, 2.0));
        // B larger on every pair: A12 of A against B is 2/9 + 1/9 ... computed: P(A > B)
        // over the 9 cross pairs {10,20,30} x {20,40,60} = 1 (30 > 20), ties 1 (20 = 20).
        assert!((nodes.a12 - 1.5 / 9.0).abs() < 1e-12);
        assert_eq!(nodes.wilcoxon_method, WilcoxonMethod::Exact);
        assert_eq!(nodes.wilcoxon_p, Some(0.25));
        assert_eq!(s.comparisons[1].metric, "wall_s");
        // ERT: all six runs' nodes / successes.
        assert_eq!(s.ert_a.effort, Some(210.0 / 5.0));
        assert_eq!(s.ert_b.effort, Some(420.0 / 4.0));
        assert!((s.ert_a.seconds.expect("secs") - 0.021 / 5.0).abs() < 1e-15);
        // PAR-k with the meta's 1 s limit: mrv 0.015 s solved + 1 failure.
        let par2 = s.par2_s.expect("limit known");
        assert!((par2.a - (0.015 + 2.0) / 6.0).abs() < 1e-12);
        let par10 = s.par10_s.expect("limit known");
        assert!((par10.b - (0.001 * 3.0 * 12.0 + 20.0) / 6.0).abs() < 1e-12);
        assert_eq!(r.time_limit_s, Some(1.0));
        // Three pairs are too few for the test to be sure, and the verdict says so.
        assert!(
            s.verdict.starts_with("no clear difference in success"),
            "{}",
            s.verdict
        );
        assert!(
            s.verdict.contains("no clear difference in nodes"),
            "{}",
            s.verdict
        );
    }

    impl Section {
        /// A single dataset's section and the overall one hold the same numbers.
        fn overall_eq(&self, o: &Section) {
            assert_eq!(o.dataset, None);
            assert_eq!(
                (o.success, &o.comparisons),
                (self.success, &self.comparisons)
            );
        }
    }

    #[test]
    fn verdict_names_the_better_side_when_the_evidence_is_clear() {
        let mut rows = Vec::new();
        for i in 1..=40u32 {
            let n = 100 + u64::from(i * 7 % 13);
            rows.push(row("mrv", i, true, n, 0.001));
            rows.push(row("row", i, true, n + n / 5 + u64::from(i % 3), 0.001));
        }
        let r = run(&one_file(rows, None, None), "strategy=mrv", "strategy=row").expect("ok");
        let v = &r.overall.verdict;
        assert!(v.starts_with("both solve all 40; row needs ×1.2"), "{v}");
        assert!(
            v.contains("the mean nodes of mrv (Wilcoxon p < 1e-6, A12 "),
            "{v}"
        );
        // Equal times on every pair: no test is possible, and the verdict says why.
        assert!(
            v.ends_with("the same time on all 40 pairs both solved"),
            "{v}"
        );
        // The same comparison the other way round names the same winner.
        let back = run(
            &one_file(r_rows_swapped(), None, None),
            "strategy=row",
            "strategy=mrv",
        );
        assert!(back.is_ok());
    }

    fn r_rows_swapped() -> Vec<Record> {
        vec![row("mrv", 1, true, 1, 0.1), row("row", 1, true, 2, 0.1)]
    }

    #[test]
    fn no_pair_solved_by_both_is_said_not_hidden() {
        let rows = vec![
            row("mrv", 1, true, 5, 0.1),
            row("row", 1, false, 50, 1.0),
            row("mrv", 2, false, 9, 1.0),
            row("row", 2, true, 7, 0.2),
        ];
        let r = run(&one_file(rows, None, None), "strategy=mrv", "strategy=row").expect("ok");
        let s = &r.overall;
        assert!(s.comparisons.is_empty());
        assert!(
            s.notes
                .iter()
                .any(|n| n.contains("no pair was solved by both")),
            "{:?}",
            s.notes
        );
        assert!(
            s.verdict.contains("no pair solved by both"),
            "{}",
            s.verdict
        );
        // ERT still exists per side: each solved one of two.
        assert_eq!(s.ert_a.effort, Some(14.0));
        assert_eq!(s.ert_b.seconds, Some(1.2));
        let text = r.render(AbFormat::Text);
        assert!(text.contains("note: no pair was solved by both"), "{text}");
    }

    #[test]
    fn different_effort_units_are_not_compared() {
        let mut rows = Vec::new();
        for p in 1..=3 {
            let mut a = abc("50", "box", p);
            a.counters.evaluations = Some(20 * u64::from(p));
            rows.push(a);
            let mut b = rec("s", "backtrack", p, true, 0.01);
            b.counters.nodes = Some(4);
            b.counters.guesses = Some(1);
            b.counters.evaluations = Some(10 * u64::from(p));
            b.stats = Some(format!("difficulty={p};tag=x"));
            rows.push(b);
        }
        let r = run(
            &one_file(rows.clone(), None, None),
            "strategy=abc",
            "strategy=backtrack",
        )
        .expect("ok");
        let s = &r.overall;
        let metrics: Vec<&str> = s.comparisons.iter().map(|c| c.metric).collect();
        assert_eq!(metrics, ["wall_s"]);
        assert!(s
            .notes
            .iter()
            .any(|n| n.starts_with("different effort units (A counts cycles, B counts nodes)")));
        assert!(
            s.verdict.contains("different effort units"),
            "{}",
            s.verdict
        );
        assert_eq!(
            (s.ert_a.unit, s.ert_b.unit),
            (Some("cycles"), Some("nodes"))
        );
        // A counter both report is compared when asked for, and leads the verdict.
        let input = one_file(rows.clone(), None, None);
        let mut opts = AbOptions::new(sel("strategy=abc"), sel("strategy=backtrack"));
        opts.metrics = vec!["evaluations"];
        let r = ab(&input, &opts).expect("ok");
        let metrics: Vec<&str> = r.overall.comparisons.iter().map(|c| c.metric).collect();
        assert_eq!(metrics, ["evaluations", "wall_s"]);
        let e = &r.overall.comparisons[0];
        assert_eq!((e.mean_a, e.mean_b), (40.0, 20.0));
        assert!(
            r.overall
                .verdict
                .starts_with("both solve all 3; no clear difference in evaluations (abc ×2.00"),
            "{}",
            r.overall.verdict
        );
        // A stats key only one side has is named as missing; a name no row has is refused,
        // listing what the rows have.
        opts.metrics = vec!["difficulty"];
        let r = ab(&input, &opts).expect("ok");
        assert!(
            r.overall
                .notes
                .iter()
                .any(|n| n == "difficulty: missing on 3 of the 3 pairs both solved; not compared"),
            "{:?}",
            r.overall.notes
        );
        opts.metrics = vec!["evalutions"];
        let e = ab(&input, &opts).expect_err("misspelt");
        assert!(
            e.to_string()
                .contains("--metric evalutions: no run of either side has it")
                && e.to_string()
                    .contains("difficulty, evaluations, guesses, nodes"),
            "{e}"
        );
    }

    #[test]
    fn effort_is_each_strategys_declared_unit() {
        // abc-prop counts cycles and evaluations; its unit is evaluations, so against abc
        // (cycles) effort is not compared unless asked for, and against an external solver
        // declaring evaluations it is.
        let mut rows = Vec::new();
        for p in 1..=4 {
            let mut a = rec("s", "abc-prop", p, true, 0.01);
            a.counters.cycles = Some(2);
            a.counters.evaluations = Some(100 * u64::from(p));
            rows.push(a);
            let mut b = rec("s", "peer", p, true, 0.02);
            b.stats = Some(format!("evaluations={}", 300 * p));
            rows.push(b);
        }
        // What the binary knows of the built-in strategies (a meta-less file falls back on it).
        let known = crate::report::Vocabulary {
            strategies: vec![("abc-prop", "evaluations")],
            rules: Vec::new(),
        };
        let mut input = one_file(rows, None, None);
        input.efforts = Efforts::default().knowing(&known);
        let r = run(&input, "strategy=abc-prop", "strategy=peer").expect("ok");
        assert_eq!(r.overall.effort_unit_a, Some("evaluations"));
        assert_eq!(r.overall.effort_unit_b, None, "peer declared nothing");
        input.efforts = Efforts::declared([("peer", "evaluations")]).knowing(&known);
        let r = run(&input, "strategy=abc-prop", "strategy=peer").expect("ok");
        assert_eq!(r.overall.effort_unit_b, Some("evaluations"));
        let c = &r.overall.comparisons[0];
        assert_eq!(
            (c.metric, c.mean_a, c.mean_b),
            ("evaluations", 250.0, 750.0)
        );
    }

    #[test]
    fn datasets_get_sections_and_pool_into_overall() {
        let mut input = mixed();
        let more: Vec<Record> = input
            .rows
            .iter()
            .map(|r| Record {
                dataset: "e".into(),
                ..r.clone()
            })
            .collect();
        input.file_of.extend(vec![0; more.len()]);
        input.rows.extend(more);
        let r = run(&input, "strategy=mrv", "strategy=row").expect("ok");
        let names: Vec<Option<&str>> = r.datasets.iter().map(|s| s.dataset.as_deref()).collect();
        assert_eq!(names, [Some("d"), Some("e")]);
        assert_eq!((r.overall.pairs, r.overall.unpaired_b), (12, 2));
        assert_eq!(r.overall.success.a_only, 4);
        let text = r.render(AbFormat::Text);
        assert!(text.contains("all datasets:\n12 pairs"), "{text}");
        let md = r.render(AbFormat::Markdown);
        assert!(md.contains("### e\n") && md.contains("Verdict: **"), "{md}");
    }

    #[test]
    fn time_limit_comes_from_the_flag_or_agreeing_metas() {
        let mut opts = AbOptions::new(sel("strategy=mrv"), sel("strategy=row"));
        opts.time_limit_s = Some(0.0);
        assert!(matches!(ab(&mixed(), &opts), Err(AbError::BadTimeLimit(_))));
        opts.time_limit_s = Some(5.0);
        assert_eq!(ab(&mixed(), &opts).expect("ok").time_limit_s, Some(5.0));
        // Without a flag, the input's agreed limit (the rule is in `report::input`), or a
        // note saying why there is none.
        assert_eq!(
            run(&mixed(), "strategy=mrv", "strategy=row")
                .expect("ok")
                .time_limit_s,
            Some(1.0)
        );
        let mut input = mixed();
        input.time_limit = TimeLimit {
            secs: None,
            note: Some("the files' time limits differ (a: 1 s, b: 2 s)".into()),
        };
        let r = run(&input, "strategy=mrv", "strategy=row").expect("ok");
        assert_eq!(r.time_limit_s, None);
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("PAR-2 and PAR-10 omitted: the files' time limits differ")),
            "{:?}",
            r.notes
        );
    }

    /// Every key path, sorted: the key set is the interface (the output keeps the structs'
    /// field order).
    fn sorted_key_paths(v: &serde_json::Value) -> Vec<String> {
        let mut got = Vec::new();
        crate::report::json_key_paths(v, "", &mut got);
        got.sort();
        got
    }

    /// Every key of one section (`overall` and each of `datasets[]`), sorted.
    const SECTION_KEYS: &[&str] = &[
        "comparisons",
        "comparisons[].a12",
        "comparisons[].mean_a",
        "comparisons[].mean_b",
        "comparisons[].median_a",
        "comparisons[].median_b",
        "comparisons[].metric",
        "comparisons[].pairs",
        "comparisons[].ratio_of_means",
        "comparisons[].ratio_of_means.hi",
        "comparisons[].ratio_of_means.lo",
        "comparisons[].ratio_of_means.value",
        "comparisons[].ratio_of_medians",
        "comparisons[].ratio_of_medians.hi",
        "comparisons[].ratio_of_medians.lo",
        "comparisons[].ratio_of_medians.value",
        "comparisons[].wilcoxon_method",
        "comparisons[].wilcoxon_p",
        "comparisons[].wilcoxon_p_holm",
        "dataset",
        "dataset_hash",
        "effort_unit_a",
        "effort_unit_b",
        "ert_a",
        "ert_a.effort",
        "ert_a.seconds",
        "ert_a.unit",
        "ert_b",
        "ert_b.effort",
        "ert_b.seconds",
        "ert_b.unit",
        "notes",
        "pairs",
        "par10_s",
        "par10_s.a",
        "par10_s.b",
        "par2_s",
        "par2_s.a",
        "par2_s.b",
        "success",
        "success.a",
        "success.a.hi",
        "success.a.lo",
        "success.a.rate",
        "success.a.runs",
        "success.a.solved",
        "success.a_only",
        "success.b",
        "success.b.hi",
        "success.b.lo",
        "success.b.rate",
        "success.b.runs",
        "success.b.solved",
        "success.b_only",
        "success.both",
        "success.mcnemar_p",
        "success.mcnemar_p_holm",
        "success.neither",
        "unpaired_a",
        "unpaired_b",
        "verdict",
    ];

    /// The JSON keys are a documented interface (README "bench-report ab"); changing one
    /// must be deliberate.
    #[test]
    fn json_keys_are_stable() {
        let r = run(&mixed(), "strategy=mrv", "strategy=row").expect("ok");
        let v: serde_json::Value =
            serde_json::from_str(&r.render(AbFormat::Json)).expect("valid JSON");
        let got = sorted_key_paths(&v);
        let top: Vec<&str> = got
            .iter()
            .filter(|p| !p.contains('.'))
            .map(String::as_str)
            .collect();
        assert_eq!(
            top,
            [
                "a",
                "b",
                "bootstrap_seed",
                "datasets",
                "holm_family",
                "holm_tests",
                "notes",
                "overall",
                "resamples",
                "time_limit_s"
            ]
        );
        let side: Vec<&str> = got.iter().filter_map(|p| p.strip_prefix("a.")).collect();
        assert_eq!(side, ["label", "params", "rules", "selector", "strategy"]);
        let section: Vec<&str> = got
            .iter()
            .filter_map(|p| p.strip_prefix("overall."))
            .collect();
        assert_eq!(section, SECTION_KEYS);
        // Dataset sections have exactly the keys of the overall one.
        let per: Vec<&str> = got
            .iter()
            .filter_map(|p| p.strip_prefix("datasets[]."))
            .collect();
        assert_eq!(per, section);
        assert_eq!(v["overall"]["comparisons"][0]["wilcoxon_method"], "exact");
        assert_eq!(v["overall"]["dataset"], serde_json::Value::Null);
    }
}
