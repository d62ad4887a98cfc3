//! A comparison as files for people and for CI dashboards: markdown for a job summary, and
//! the JSON that github-action-benchmark and Bencher take. Pure serialisation: the caller writes
//! the files.

use crate::report::compare::{cell, Comparison, GroupComparison, Job, TimeVerdict};
use crate::report::doc::{Doc, Inline, Table};
use crate::report::stats;
use crate::report::{fmt_secs, sig3};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Markdown for a terminal or a GitHub job summary: the verdict first, then tables, long
/// lists capped at the comparison's list limit with "… and N more".
pub fn markdown(c: &Comparison) -> String {
    doc(c, c.list_limit).markdown()
}

/// Markdown with every change listed (`--markdown-out`): the file is the complete record, only
/// the terminal is shortened.
pub(crate) fn markdown_full(c: &Comparison) -> String {
    doc(c, usize::MAX).markdown()
}

/// Where `bench-report compare` writes a comparison besides the terminal (each optional).
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// `--markdown-out`: `markdown_full`.
    pub markdown: Option<std::path::PathBuf>,
    /// `--github-benchmark-out`: `github_action_benchmark`.
    pub github_benchmark: Option<std::path::PathBuf>,
    /// `--bmf-out`: `bencher_bmf`.
    pub bmf: Option<std::path::PathBuf>,
}

impl Outputs {
    /// The paths asked for.
    pub fn paths(&self) -> impl Iterator<Item = &std::path::Path> {
        [&self.markdown, &self.github_benchmark, &self.bmf]
            .into_iter()
            .flatten()
            .map(|p| p.as_path())
    }

    /// Each path asked for with its contents.
    pub fn render(&self, c: &Comparison) -> serde_json::Result<Vec<(std::path::PathBuf, String)>> {
        let json = |v: Value| crate::report::to_json_pretty(&v);
        let mut out = Vec::new();
        if let Some(p) = &self.markdown {
            out.push((p.clone(), markdown_full(c)));
        }
        if let Some(p) = &self.github_benchmark {
            out.push((p.clone(), json(github_action_benchmark(c))?));
        }
        if let Some(p) = &self.bmf {
            out.push((p.clone(), json(bencher_bmf(c))?));
        }
        Ok(out)
    }
}

/// The comparison as a document, each list of changes capped at `cap` rows.
pub(crate) fn doc(c: &Comparison, cap: usize) -> Doc {
    let t = c.tally();
    let mut d = Doc::default();
    d.heading(2, c.headline());
    d.para(
        Inline::text("Baseline ")
            .code(c.baseline_label.as_str())
            .plain(format!(" ({} rows) vs new ", c.base_rows))
            .code(c.new_label.as_str())
            .plain(format!(" ({} rows): {} jobs joined.", c.new_rows, t.joined)),
    );
    if !c.duplicate_keys.is_empty() {
        d.warning(format!(
            "Warning: {} duplicate job keys (first row kept): {}",
            c.duplicate_keys.len(),
            capped_inline(&c.duplicate_keys, cap)
        ));
    }
    for n in &c.notes {
        d.para(format!("Note: {n}"));
    }
    for x in c.contradictions.iter().take(cap) {
        d.warning(x.describe());
    }
    if c.contradictions.len() > cap {
        d.warning(format!(
            "… and {} more contradictions",
            c.contradictions.len() - cap
        ));
    }
    wall_time(&mut d, c);
    cpu_time(&mut d, c);
    status_changes(&mut d, c, cap);
    counter_changes(&mut d, c, cap);
    job_lists(&mut d, c, cap);
    d
}

/// The wall-time table: every group, judged or not, so a reader sees what was left unjudged.
fn wall_time(d: &mut Doc, c: &Comparison) {
    d.heading(3, "Wall time");
    d.para(format!(
        "Ratio of medians new/base over joined jobs, 95% percentile-bootstrap interval \
         (B = {}; groups over {} runs use fewer, B·n ≤ 2·10⁸); flagged only when the \
         whole interval lies outside 1 ± {} (noise band: {}).",
        c.resamples,
        stats::BOOTSTRAP_DRAWS / c.resamples.max(1),
        c.noise_band,
        c.band_source
    ));
    if let Some(why) = &c.wall_not_judged {
        d.para(format!("Wall times not judged: noisy host ({why})."));
    }
    time_table(d, c, |g| Some(&g.time));
    if c.wall_not_judged.is_none() {
        for g in c
            .groups
            .iter()
            .filter(|g| g.time.verdict == TimeVerdict::Noisy)
        {
            if let Some(why) = &g.time.why {
                d.para(format!(
                    "Wall time of {} {} not judged: {why}.",
                    g.key.dataset, g.label
                ));
            }
        }
    }
}

/// The CPU time table (`cpu_s`), where both sides measured it: judged on any host.
fn cpu_time(d: &mut Doc, c: &Comparison) {
    if c.groups.iter().all(|g| g.cpu.is_none()) {
        return;
    }
    d.heading(3, "CPU time");
    d.para(Inline::text("Ratio of medians of ").code("cpu_s").plain(
        " new/base over the joined jobs both sides measured, judged as wall time is \
                 but on any host (others' load barely moves a run's own CPU time).",
    ));
    time_table(d, c, |g| g.cpu.as_ref());
}

fn time_table(
    d: &mut Doc,
    c: &Comparison,
    of: impl Fn(&GroupComparison) -> Option<&crate::report::compare::TimeChange>,
) {
    let mut table = Table::new(
        &[
            "dataset",
            "strategy",
            "runs",
            "base median",
            "new median",
            "new/base",
            "95% interval",
            "verdict",
        ],
        2,
    );
    for g in &c.groups {
        let Some(t) = of(g) else { continue };
        let (r, ci) = match t.ratio {
            Some(i) => (
                format!("x{:.3}", i.value),
                format!("[{:.3}, {:.3}]", i.lo, i.hi),
            ),
            None => ("-".to_string(), "-".to_string()),
        };
        let verdict = match t.verdict {
            TimeVerdict::Slowdown => "SLOWER",
            TimeVerdict::Speedup => "faster",
            TimeVerdict::Unchanged => "within noise",
            TimeVerdict::NotJudged => "not judged (too few runs)",
            TimeVerdict::Noisy => "not judged: noisy host",
        };
        table.row(vec![
            g.key.dataset.clone(),
            g.label.clone(),
            t.runs.to_string(),
            t.base_median_s.map_or("-".to_string(), fmt_secs),
            t.new_median_s.map_or("-".to_string(), fmt_secs),
            r,
            ci,
            verdict.to_string(),
        ]);
    }
    d.table(table);
}

/// One table of jobs across all groups, headed `title (N)`: each job's dataset, strategy,
/// puzzle, seed and colony, then the `extra` columns from `cells`; at most `cap` rows, then
/// "… and N more". Nothing when there are no rows.
fn job_table<T>(
    d: &mut Doc,
    title: &str,
    extra: &[&str],
    rows: &[(&GroupComparison, &Job, T)],
    cap: usize,
    cells: impl Fn(&T) -> Vec<String>,
) {
    if rows.is_empty() {
        return;
    }
    d.heading(3, format!("{title} ({})", rows.len()));
    let mut head = vec!["dataset", "strategy", "puzzle", "seed", "colony"];
    head.extend(extra);
    let mut t = Table::new(&head, 3);
    for (g, j, x) in rows.iter().take(cap) {
        let mut row = vec![g.key.dataset.clone(), g.label.clone(), j.puzzle_id.clone()];
        row.extend([j.seed.to_string(), j.colony.to_string()]);
        row.extend(cells(x));
        t.row(row);
    }
    d.table(t);
    if rows.len() > cap {
        d.para(format!("… and {} more", rows.len() - cap));
    }
}

/// Status changes across all groups, at most `cap`.
fn status_changes(d: &mut Doc, c: &Comparison, cap: usize) {
    let rows: Vec<_> = (c.groups.iter())
        .flat_map(|g| g.status_changes.iter().map(move |s| (g, &s.job, s)))
        .collect();
    job_table(
        d,
        "Status changes",
        &["baseline", "new", "change"],
        &rows,
        cap,
        |s| vec![cell(&s.base), cell(&s.new), s.direction.word().to_string()],
    );
}

/// Counter changes across all groups, at most `cap`.
fn counter_changes(d: &mut Doc, c: &Comparison, cap: usize) {
    let mut rows: Vec<_> = (c.groups.iter())
        .flat_map(|g| g.counter_changes.iter().map(move |c| (g, &c.job, c)))
        .collect();
    // Worse first across all groups, so the cap never hides a regression behind
    // improvements.
    rows.sort_by_key(|r| r.2.direction);
    let extra = ["counter", "baseline", "new", "change"];
    job_table(d, "Counter changes", &extra, &rows, cap, |c| {
        let change = c.direction.word().to_string();
        vec![c.counter.to_string(), c.base.clone(), c.new.clone(), change]
    });
}

/// The jobs only one run has, missing from new first.
fn job_lists(d: &mut Doc, c: &Comparison, cap: usize) {
    for (title, missing) in [("Rows missing from new", true), ("Rows only in new", false)] {
        let rows: Vec<_> = (c.groups.iter())
            .flat_map(|g| {
                let list = if missing {
                    &g.missing_in_new
                } else {
                    &g.only_in_new
                };
                list.iter().map(move |j| (g, j, ()))
            })
            .collect();
        job_table(d, title, &[], &rows, cap, |_| Vec::new());
    }
}

fn bench_name(g: &GroupComparison) -> String {
    // Always with parameters: tracker names must not change when another group appears.
    format!("{}/{}", g.key.dataset, g.key.label(true))
}

/// Entries for [github-action-benchmark] with `tool: customSmallerIsBetter`: a JSON array
/// of `{"name", "unit", "value", "range"?, "extra"?}` objects, where `range` and `extra`
/// are free-form strings shown in the chart tooltip (see the action's README, section
/// "Examples" / custom benchmarks). Per group of the new run: the median wall time
/// (unit `s`, range = half-width of its bootstrap 95% interval) and the mean of nodes or
/// cycles (unit = the counter name).
///
/// [github-action-benchmark]: https://github.com/benchmark-action/github-action-benchmark
pub(crate) fn github_action_benchmark(c: &Comparison) -> Value {
    let mut out = Vec::new();
    for g in &c.groups {
        let name = bench_name(g);
        if let Some(w) = g.new_wall {
            let mut extra = format!(
                "n={} runs; 95% interval [{}, {}] s",
                g.new_runs,
                sig3(w.lo),
                sig3(w.hi)
            );
            if let Some(r) = g.time.ratio {
                let _ = write!(
                    extra,
                    "; new/base x{:.3} [{:.3}, {:.3}]",
                    r.value, r.lo, r.hi
                );
            }
            out.push(json!({
                "name": format!("{name} median wall"),
                "unit": "s",
                "value": w.value,
                "range": format!("± {}", sig3((w.hi - w.lo) / 2.0)),
                "extra": extra,
            }));
        }
        if let Some((metric, mean)) = g.new_effort {
            out.push(json!({
                "name": format!("{name} mean {metric}"),
                "unit": metric,
                "value": mean,
            }));
        }
    }
    Value::Array(out)
}

/// [Bencher Metric Format] JSON: `{ "<benchmark>": { "<measure>": { "value", "lower_value",
/// "upper_value" } } }`. Per group of the new run: `latency` (Bencher's built-in Latency
/// measure, in nanoseconds) = median wall with its bootstrap 95% interval as lower/upper
/// value, and `nodes` or `cycles` (custom measures, created on first upload) = the mean.
///
/// [Bencher Metric Format]: https://bencher.dev/docs/reference/bencher-metric-format/
pub(crate) fn bencher_bmf(c: &Comparison) -> Value {
    let mut out = serde_json::Map::new();
    for g in &c.groups {
        let mut measures = serde_json::Map::new();
        if let Some(w) = g.new_wall {
            measures.insert(
                "latency".to_string(),
                json!({
                    "value": w.value * 1e9,
                    "lower_value": w.lo * 1e9,
                    "upper_value": w.hi * 1e9,
                }),
            );
        }
        if let Some((metric, mean)) = g.new_effort {
            measures.insert(metric.to_string(), json!({ "value": mean }));
        }
        if !measures.is_empty() {
            out.insert(bench_name(g), Value::Object(measures));
        }
    }
    Value::Object(out)
}

fn capped_inline(items: &[String], cap: usize) -> String {
    let mut s = items
        .iter()
        .take(cap)
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > cap {
        let _ = write!(s, " … and {} more", items.len() - cap);
    }
    s
}
