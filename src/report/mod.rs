//! Reports from saved result rows: summaries, baseline comparison, plots, shard merging.
//!
//! Everything here computes and serialises: it takes [`Record`]s through one input layer
//! ([`input::RunSet`]) into one run table ([`table::RunTable`], of which `summary`, `ab`,
//! `plot`, `html` and `history` are views; `compare` and `merge` stream in job order) and
//! returns text, JSON values or SVG documents. Files are read and written only through
//! [`crate::results`], by the caller (`bench-run` reads its own run back for its summary;
//! `bench-report` reads files and writes what these modules return).
//!
//! - [`stats`]: mean, percentiles, PAR-k, bootstrap confidence intervals.
//! - [`doc`]: the one document model (headings, paragraphs, notes, lists, tables, figures)
//!   every report builds, rendered to text, markdown and HTML with per-target escaping.
//! - [`input`]: the one reading of a report's inputs ([`input::RunSet`]).
//! - [`table`]: the run table, one pass over a set: per group its jobs in job order and
//!   totals that add, and [`table::pair`], the one pairing of two configurations.
//! - [`gate`]: the regression gate and its noise band.
//! - [`host`]: how much others' CPU during a run could have inflated its times.
//! - [`ab`]: two configurations compared on paired runs.
//! - [`summary`]: per-strategy tables (text, markdown, csv, json) and strategy ratios.
//! - [`describe`]: a summary's optional parts: every counter's distribution, best-of-K
//!   portfolios of colonies, ABC convergence.
//! - [`filter`]: `--where` row filters.
//! - [`compare`]: baseline vs new run: status, counter and time changes.
//! - [`export`]: a comparison as markdown and as CI benchmark JSON (github-action-benchmark,
//!   Bencher BMF).
//! - [`plot`]: SVG cactus, effort distribution, scatter and ABC convergence plots, drawn with
//!   `chart`, the chart toolkit (axes, ticks, legend, markers, SVG).
//! - [`html`]: one self-contained HTML page: verdicts, metadata, summary, plots, A/B,
//!   baseline, history.
//! - [`merge`]: shard files back into one run, refusing duplicates and other plans.
//! - [`history`]: runs of one plan in start-time order, one point per run and group, marked
//!   where the gate found a change against the run before.

pub mod ab;
pub(crate) mod chart;
pub mod claims;
pub mod compare;
pub mod describe;
pub mod doc;
pub mod export;
pub mod filter;
pub mod gate;
pub mod history;
pub mod host;
pub mod html;
pub mod inference;
pub mod input;
pub mod merge;
pub mod plot;
pub mod stats;
pub mod summary;
pub mod table;

use crate::results::write::OutputGuard;
use crate::results::Record;
use serde::Serialize;
use std::path::Path;

/// What the reports know of the solvers beyond the rows, handed in by the caller (the binary
/// builds it from the built-in strategies), so no report names a solver or a puzzle.
///
/// * `strategies`: each known strategy with its effort unit, the fallback for a file whose
///   meta does not record the unit ([`input::Efforts`]), and the names a `--where
///   strategy=…` may give though no row has it ([`filter::RowFilter::check`]).
/// * `rules`: the rule-set names a `--where rules=…` may give though no row has them.
///
/// Empty (the default), an unrecorded unit falls back on the row's counters and a filter
/// value no row has is a typo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vocabulary {
    /// `(strategy, effort unit)`.
    pub strategies: Vec<(&'static str, &'static str)>,
    /// Rule-set names.
    pub rules: Vec<&'static str>,
}

/// The one overwrite guard of a report reading `sets` and the `others` files (a trace): no
/// output over an input or its meta, none over an existing file unless `force`.
pub fn output_guard(sets: &[&input::RunSet], others: &[Option<&Path>], force: bool) -> OutputGuard {
    let mut v: Vec<_> = sets
        .iter()
        .flat_map(|s| s.files().iter().map(|f| f.path.clone()))
        .collect();
    v.extend(others.iter().flatten().map(|p| p.to_path_buf()));
    OutputGuard::new(&v, force)
}

/// A strategy configuration, the one identity every report groups and selects by: what an
/// `ab` selector chooses, what `html` pairs by default, and (on one dataset, of one kind) a
/// [`GroupKey`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Config {
    /// Strategy name.
    pub strategy: String,
    /// Rule set (empty for Sudoku).
    pub rules: String,
    /// Parameters.
    pub params: crate::results::Params,
}

impl Config {
    /// The configuration of a row.
    pub fn of(r: &Record) -> Config {
        Config {
            strategy: r.strategy.clone(),
            rules: r.rules.clone(),
            params: r.params.clone(),
        }
    }

    /// Whether a row ran this configuration.
    pub fn matches(&self, r: &Record) -> bool {
        self.strategy == r.strategy && self.rules == r.rules && self.params == r.params
    }

    /// The value a selector key reads: `strategy`, `rules` or a parameter.
    pub fn get(&self, key: &str) -> Option<&str> {
        match key {
            "strategy" => Some(&self.strategy),
            "rules" => Some(&self.rules),
            _ => self.params.get(key),
        }
    }

    /// The selector terms that choose exactly this configuration
    /// (`strategy=abc,limit=50`).
    pub fn selector(&self) -> String {
        let mut s = format!("strategy={}", self.strategy);
        if !self.rules.is_empty() {
            s.push_str(",rules=");
            s.push_str(&self.rules);
        }
        for (k, v) in self.params.pairs() {
            s.push_str(&format!(",{k}={v}"));
        }
        s
    }
}

impl std::fmt::Display for Config {
    /// The form run metas use: `name [rules] params`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.strategy)?;
        if !self.rules.is_empty() {
            write!(f, " [{}]", self.rules)?;
        }
        if !self.params.as_str().is_empty() {
            write!(f, " {}", self.params)?;
        }
        Ok(())
    }
}

/// The rows that summaries and comparisons aggregate together: one strategy configuration on
/// one dataset. `kind` is part of it so that a dataset mixing puzzle kinds never pools them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct GroupKey {
    /// Dataset name.
    pub dataset: String,
    /// Puzzle kind.
    pub kind: crate::kind::PuzzleKind,
    /// The configuration (its fields appear beside `dataset` and `kind` in JSON).
    #[serde(flatten)]
    pub config: Config,
}

impl GroupKey {
    /// Whether a row belongs to this group.
    pub fn matches(&self, r: &Record) -> bool {
        self.dataset == r.dataset && self.kind == r.kind && self.config.matches(r)
    }

    /// The group a row belongs to.
    pub fn of(r: &Record) -> GroupKey {
        GroupKey {
            dataset: r.dataset.clone(),
            kind: r.kind,
            config: Config::of(r),
        }
    }

    /// Short name for tables and legends: strategy and rules, plus the parameters when
    /// `with_params` (callers pass true only when another group of the same dataset shares
    /// strategy and rules, since parameter strings are long).
    pub fn label(&self, with_params: bool) -> String {
        let c = &self.config;
        let mut s = c.strategy.clone();
        if !c.rules.is_empty() {
            s.push(' ');
            s.push_str(&c.rules);
        }
        if with_params && !c.params.as_str().is_empty() {
            s.push_str(" {");
            s.push_str(c.params.as_str());
            s.push('}');
        }
        s
    }
}

/// Labels for a set of groups: parameters are shown only where strategy and rules alone would
/// not tell two groups of one dataset apart, and then only the parameters whose values differ
/// among those groups (a sweep's `abc {colony_size=20;limit=adaptive}`, not every default).
/// Linear in the keys (a report may hold tens of thousands of configurations).
pub(crate) fn labels(keys: &[GroupKey]) -> Vec<String> {
    use std::collections::{BTreeSet, HashMap, HashSet};
    type Bucket<'a> = (&'a str, &'a str, &'a str);
    fn bucket(k: &GroupKey) -> Bucket<'_> {
        (&k.dataset, &k.config.strategy, &k.config.rules)
    }
    let mut distinct: HashMap<Bucket, HashSet<&GroupKey>> = HashMap::new();
    for k in keys {
        distinct.entry(bucket(k)).or_default().insert(k);
    }
    // Per clashing bucket, the parameter names whose value (or presence) differs.
    let mut varying: HashMap<Bucket, BTreeSet<&str>> = HashMap::new();
    for (b, ks) in &distinct {
        if ks.len() < 2 {
            continue;
        }
        let mut first: Option<HashMap<&str, &str>> = None;
        let mut names: BTreeSet<&str> = BTreeSet::new();
        let mut all: BTreeSet<&str> = BTreeSet::new();
        for k in ks {
            let kv: HashMap<&str, &str> = param_pairs(k.config.params.as_str()).collect();
            all.extend(kv.keys().copied());
            match &first {
                None => first = Some(kv),
                Some(f) => {
                    for name in f.keys().chain(kv.keys()) {
                        if f.get(name) != kv.get(name) {
                            names.insert(name);
                        }
                    }
                }
            }
        }
        // Parameters that are not key=value pairs: show them whole.
        if names.is_empty() {
            names = all;
        }
        varying.insert(*b, names);
    }
    keys.iter()
        .map(|k| match varying.get(&bucket(k)) {
            None => k.label(false),
            Some(names) => {
                let shown: Vec<String> = param_pairs(k.config.params.as_str())
                    .filter(|(n, _)| names.contains(n))
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect();
                if shown.is_empty() {
                    k.label(true)
                } else {
                    format!("{} {{{}}}", k.label(false), shown.join(";"))
                }
            }
        })
        .collect()
}

/// A params cell's `key=value` pairs (an item without `=` is a key with an empty value).
pub(crate) fn param_pairs(params: &str) -> impl Iterator<Item = (&str, &str)> {
    params
        .split(';')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
}

/// Format seconds for people: a unit chosen by magnitude, three significant digits.
pub(crate) fn fmt_secs(s: f64) -> String {
    if !s.is_finite() {
        return "-".to_string();
    }
    let (v, unit) = if s == 0.0 {
        (0.0, "s")
    } else if s.abs() < 1e-6 {
        (s * 1e9, "ns")
    } else if s.abs() < 1e-3 {
        (s * 1e6, "µs")
    } else if s.abs() < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    format!("{} {unit}", sig3(v))
}

/// Three significant digits without a needless exponent (`1234` stays `1234`, `0.01234` is
/// `0.0123`).
/// A percentage bound with one decimal, or more where one would hide it: a bound that is
/// not 0 (not 100) never prints as `0.0` (`100.0`): 0.0192 prints `0.019`, 99.981 `99.981`.
pub(crate) fn pct_bound(v: f64) -> String {
    let one = format!("{v:.1}");
    let hides = (one == "0.0" && v > 0.0) || (one == "100.0" && v < 100.0);
    if !hides || !v.is_finite() {
        return one;
    }
    let gap = if v < 50.0 { v } else { 100.0 - v };
    // Two significant digits of the distance from the end it is near.
    let decimals = ((-gap.log10()).ceil() as usize + 1).clamp(2, 12);
    format!("{v:.decimals$}")
}

pub(crate) fn sig3(v: f64) -> String {
    if !v.is_finite() {
        return "-".to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let mag = v.abs().log10().floor() as i32;
    // Beyond 15 digits, plain form is a wall of digits (1e308 is 309 of them).
    if mag >= 15 {
        return format!("{v:.2e}");
    }
    let decimals = (2 - mag).max(0) as usize;
    format!("{v:.decimals$}")
}

/// `v` rounded to 12 significant digits, `-0` as `0`: float noise from sums and means
/// (`14397.000000000002`) disappears, any real difference in 12 digits stays.
pub fn denoise(v: f64) -> f64 {
    if !v.is_finite() {
        return v;
    }
    let rounded: f64 = format!("{v:.11e}").parse().unwrap_or(v);
    if rounded == 0.0 {
        0.0
    } else {
        rounded
    }
}

/// Pretty JSON for reports, every number [`denoise`]d (JSON has no `NaN`: serde writes
/// `null` for it already).
pub fn to_json_pretty<T: serde::Serialize>(value: &T) -> serde_json::Result<String> {
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Number(n) if n.is_f64() => {
                if let Some(x) = n
                    .as_f64()
                    .and_then(|x| serde_json::Number::from_f64(denoise(x)))
                {
                    *n = x;
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(walk),
            serde_json::Value::Object(o) => o.values_mut().for_each(walk),
            _ => {}
        }
    }
    let mut v = serde_json::to_value(value)?;
    walk(&mut v);
    serde_json::to_string_pretty(&v)
}

/// Every key path of a JSON value (`a.b`, arrays entered through their first element as
/// `a[]`): the tests that pin a report's JSON keys (`ab`, `summary`) compare these.
#[cfg(test)]
pub(crate) fn json_key_paths(v: &serde_json::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                out.push(p.clone());
                json_key_paths(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => {
            if let Some(x) = a.first() {
                json_key_paths(x, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonzero_percentage_bound_never_prints_as_an_end() {
        assert_eq!(pct_bound(0.0), "0.0");
        assert_eq!(pct_bound(100.0), "100.0");
        assert_eq!(pct_bound(30.06), "30.1");
        // Wilson 95% of 0 of 20,000: the upper end is 0.0192%.
        assert_eq!(pct_bound(0.0192), "0.019");
        assert_eq!(pct_bound(0.04), "0.040");
        assert_eq!(pct_bound(99.981), "99.981");
        assert_eq!(pct_bound(99.96), "99.960");
    }

    #[test]
    fn report_json_has_no_float_noise_and_keeps_field_order() {
        #[derive(serde::Serialize)]
        struct Row {
            zeta: f64,
            alpha: Vec<f64>,
            nan: f64,
        }
        let r = Row {
            zeta: 14397.000000000002,
            alpha: vec![0.1 + 0.2, -0.0, 1.5e-7],
            nan: f64::NAN,
        };
        let json = to_json_pretty(&r).expect("json");
        assert!(json.contains("\"zeta\": 14397.0"), "{json}");
        assert!(json.contains("0.3,") && json.contains("1.5e-7"), "{json}");
        assert!(
            !json.contains("-0.0") && json.contains("\"nan\": null"),
            "{json}"
        );
        assert!(json.find("zeta") < json.find("alpha"), "{json}");
    }

    #[test]
    fn sig3_and_seconds() {
        assert_eq!(sig3(1234.4), "1234");
        assert_eq!(sig3(4.56789), "4.57");
        assert_eq!(sig3(0.012345), "0.0123");
        // Issue 38: `big=1e308` gave 309-digit cells.
        assert_eq!(sig3(1e308), "1.00e308");
        assert_eq!(sig3(-2.346e17), "-2.35e17");
        assert_eq!(sig3(1.5e14), "150000000000000");
        assert_eq!(fmt_secs(0.0015), "1.50 ms");
        assert_eq!(fmt_secs(2.0), "2.00 s");
        assert_eq!(fmt_secs(0.0000021), "2.10 µs");
    }

    #[test]
    fn labels_show_params_only_on_clash() {
        let k = |s: &str, p: &str| GroupKey {
            dataset: "d".into(),
            kind: crate::kind::PuzzleKind::Sudoku,
            config: Config {
                strategy: s.into(),
                rules: String::new(),
                params: crate::results::Params::from_cell(p),
            },
        };
        let keys = vec![
            k("abc", "limit=50"),
            k("abc", "limit=20"),
            k("backtrack", "x=1"),
        ];
        assert_eq!(
            labels(&keys),
            vec!["abc {limit=50}", "abc {limit=20}", "backtrack"]
        );
        // A sweep: only the parameters that differ, in the params cell's order.
        let keys = vec![
            k("abc", "colony_size=20;limit=20;max_cycles=2000"),
            k("abc", "colony_size=20;limit=adaptive;max_cycles=2000"),
            k("abc", "colony_size=50;limit=20;max_cycles=2000"),
            k("abc-prop", "colony_size=20;max_cycles=2000"),
        ];
        assert_eq!(
            labels(&keys),
            vec![
                "abc {colony_size=20;limit=20}",
                "abc {colony_size=20;limit=adaptive}",
                "abc {colony_size=50;limit=20}",
                "abc-prop"
            ]
        );
        // A parameter present in one configuration only is shown where present.
        let keys = vec![
            k("mrv", "max_solutions=1"),
            k("mrv", "max_solutions=1;node_limit=9"),
        ];
        assert_eq!(
            labels(&keys),
            vec!["mrv {max_solutions=1}", "mrv {node_limit=9}"]
        );
    }
}
